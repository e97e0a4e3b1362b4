"""Every item the spiders yield, in one place.

Items are read and written through itemadapter; tests/crawls/test_items.py validates the items of a crawl
against these definitions.
"""

from __future__ import annotations

import scrapy


class PageItem(scrapy.Item):
    """One text page of a parish site, and what the pipelines found on it."""

    url = scrapy.Field()  # final URL of the page (after redirects)
    previous_url = scrapy.Field()  # the page whose link led here; None for the start page
    start_url = scrapy.Field()  # the URL the parish crawl started from
    domain = scrapy.Field()  # the parish's registered domain, e.g. "parafia.pl"
    depth = scrapy.Field()  # links followed from the start page (0 = start page)
    button_text = scrapy.Field()  # text of the link that led here
    html = scrapy.Field()  # the decoded HTML body; "" for a PDF
    content_type = scrapy.Field()  # "application/pdf" for a PDF's text, "image/..." for an image's OCR text
    ocr_confidence = scrapy.Field()  # Tesseract's mean word confidence 0..1 (OCR'd images and scanned PDFs)
    crawled_at = scrapy.Field()  # when the page was fetched, ISO 8601 UTC ("2026-12-01T20:16:54Z")
    http_date = scrapy.Field()  # the response's Date header as the server sent it, None without one
    last_modified = scrapy.Field()  # its Last-Modified header, None without one
    # Added by the pipelines:
    text = scrapy.Field()  # html2text output; a PDF's text (set by the spider: pages joined by form feeds)
    has_schedule_hint = scrapy.Field()  # page filter result (thesis ok/bad regexes on URL suffix / link text)
    # list of {text, time, start, end, context, context_start, label, score, source, day}
    #   text: the hour as written ("7.oo"); time: "07:00"; start/end: span in `text`;
    #   context: the words around it; context_start: offset of `context` in `text`;
    #   label: "mass" | "other"; score: 0..1; source: "rules" | "classifier";
    #   day: sunday | weekday | saturday | holiday | None (the first version's coarse day)
    #   days: [mon tue wed thu fri sat sun holiday]; vigil: a Saturday Mass counted as Sunday's;
    #   church: None for the parish church, else the church or chapel the page names;
    #   season: None (all year), a tag (summer, winter, school-year, advent, ...) or "MM-DD..MM-DD";
    #   kind: regular | one_off; date: "YYYY-MM-DD" / "MM-DD" of a one-off; tags: [children, youth, ...];
    #   pdf_page: the PDF page the hour is on (1-based; PDFs only);
    #   ocr_confidence: the page's OCR confidence, on an hour of a page read by OCR;
    #   aside: a summer time said of one time or added ("18:00 (w wakacje 20:00)", "latem także o 21:00"),
    #   which leaves the other times all-year
    #   (schemas/page.schema.json)
    hours = scrapy.Field()
    confessions = scrapy.Field()  # [{days, start, end, church, season}]: the page's confession times
    masses = scrapy.Field()  # sorted distinct "HH:MM" labelled "mass"
    template = scrapy.Field()  # [[start, end], ...] text blocks repeated from earlier pages of the site
    # Added by the batch tools:
    language = scrapy.Field()  # ISO 639-1 code from py3langid (extraction/language.py), "und": unknown
    change = scrapy.Field()  # vs the previous run: new | unchanged | changed | shrunk | not_modified


class ParishItem(scrapy.Item):
    """One parish of the deon.pl directory (columns of the thesis's deon.fixed.tsv)."""

    name = scrapy.Field()  # Parafia
    city = scrapy.Field()  # Miejscowość
    address = scrapy.Field()  # list of address lines (street, "00-000 City"); "|"-joined in TSV (Adres)
    diocese = scrapy.Field()  # Diecezja
    decanate = scrapy.Field()  # Dekanat
    voivodeship = scrapy.Field()  # Województwo
    deon_url = scrapy.Field()  # the parish's page on deon.pl


class PlaceItem(ParishItem):
    """A parish with the website found through Google Places (columns of the thesis's extended.tsv)."""

    url = scrapy.Field()  # the parish website, "" when none was found
    place_id = scrapy.Field()  # Google place_id of the first result
    status = scrapy.Field()  # OK | AMBIGUOUS | NOT_FOUND
    query = scrapy.Field()  # the Text Search query that decided: "name street city" or fallback "name city"
    lat = scrapy.Field()  # the first place's latitude (WGS 84), None when unknown
    lng = scrapy.Field()  # its longitude


class ChurchPlaceItem(PlaceItem):
    """Another church of a parish, looked up by the address its site gives (name: the church's name)."""

    start_url = scrapy.Field()  # the parish crawl's start URL (results.jsonl)
    church = scrapy.Field()  # the church's name as the schedule gives it
