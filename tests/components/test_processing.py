import gzip
import json
import re
from collections import Counter
from pathlib import Path

import pytest
from warc_samples import SCHEDULE_HTML, write_project_style, write_wget_style

from msze.archive.reprocess import (
    InputError,
    PageProcessor,
    ProcessOptions,
    input_kind,
    iter_jsonl_pages,
    iter_warc_pages,
    output_name,
    output_names,
    page_steps,
    process_file,
)
from msze.recrawl.changes import CHANGED, NEW, SHRUNK, UNCHANGED
from msze.recrawl.state import RecrawlState

_TIME = re.compile(r"\b(\d{1,2})[.:](\d\d)\b")


class AllMasses:
    """A classifier that calls every hour the rules left a Mass: enough to see what processing does with the
    extraction's answer (the rules and the real converter run as in the crawl)."""

    threshold = 0.5

    def __init__(self, crash_on: str | None = None) -> None:
        self.crash_on = crash_on

    def score_hours(self, text, hours):
        if self.crash_on and self.crash_on in text:
            raise ValueError("extractor crashed")
        return [1.0] * len(hours)


def processor(classifier=None, **kwargs):
    return PageProcessor(steps=page_steps(classifier or AllMasses()), **kwargs)


def page(url, html, **extra):
    return {
        "url": url,
        "domain": "parafia-jadwigi.pl",
        "start_url": "http://parafia-jadwigi.pl/",
        "html": html,
    } | extra


def test_input_kind_and_output_name(tmp_path):
    assert input_kind("a/parafia.pl.jsonl") == "jsonl"
    assert input_kind("crawl.warc.gz") == "warc"
    unnamed = tmp_path / "archive.bin"
    unnamed.write_bytes(gzip.compress(b"WARC/1.0\r\n"))
    assert input_kind(unnamed) == "warc"
    junk = tmp_path / "notes.txt"
    junk.write_text("hello")
    with pytest.raises(InputError, match="neither pages JSONL nor WARC"):
        input_kind(junk)
    assert output_name("x/crawl-00001.warc.gz") == "crawl-00001.jsonl"
    assert output_name("parafia.pl.jsonl") == "parafia.pl.jsonl"


def test_jsonl_reader_skips_torn_line(tmp_path):
    path = tmp_path / "parafia.pl.jsonl"
    path.write_text(json.dumps({"url": "http://parafia.pl/"}) + "\n\n" + '{"url": "http://parafia.pl/msz')
    counts = Counter()
    assert [p["url"] for p in iter_jsonl_pages(path, counts)] == ["http://parafia.pl/"]
    assert counts["skipped/bad_line"] == 1


def test_wget_style_warc(tmp_path):
    counts = Counter()
    pages = list(iter_warc_pages(write_wget_style(tmp_path / "wget.warc.gz"), counts))
    by_url = {p["url"].rsplit("/", 1)[-1]: p for p in pages}
    assert sorted(by_url) == ["en.html", "msze-kopia.html", "msze.html", "ogloszenia.html"]
    # chunked + gzip undone; the ISO-8859-2 page decoded by its header charset
    assert "Porządek Mszy Świętych" in by_url["msze.html"]["html"]
    assert by_url["msze.html"]["etag"] == '"abc123"'
    assert "Ogłoszenia duszpasterskie" in by_url["ogloszenia.html"]["html"]
    # the revisit got the payload of the record with the same digest
    assert by_url["msze-kopia.html"]["html"] == SCHEDULE_HTML
    assert by_url["msze.html"]["domain"] == "parafia-jadwigi.pl"
    assert counts["skipped/status"] == 1  # the 301
    assert counts["skipped/non_html"] == 1  # the JPEG
    assert counts["skipped/revisit_unresolved"] == 1
    assert counts["revisits_resolved"] == 1
    assert counts["skipped/resource_record"] == 1


def test_project_style_warc(tmp_path):
    counts = Counter()
    pages = list(iter_warc_pages(write_project_style(tmp_path / "p.warc.gz"), counts))
    assert [p["url"].rsplit("/", 1)[-1] for p in pages] == ["msze.html", "en.html"]
    assert pages[0]["html"] == SCHEDULE_HTML


def test_processor_language_selection():
    proc = processor(languages=frozenset({"pl"}))
    done = proc.process(page("http://parafia-jadwigi.pl/msze.html", SCHEDULE_HTML))
    assert done["language"] == "pl"
    assert "07:00" in done["masses"] and "18:00" in done["masses"]
    english = "<p>Holy Mass in English is celebrated every Sunday at 13.00 in the lower church.</p>"
    assert proc.process(page("http://parafia-jadwigi.pl/en.html", english)) is None
    assert proc.counts["skipped/language"] == 1 and proc.counts["language/pl"] == 1


def test_processor_uses_stored_text_without_html():
    done = processor().process(
        {"url": "http://p.pl/", "text": "Msze święte w niedzielę o godzinie 8.00 i 10.30"}
    )
    assert done["masses"] == ["08:00", "10:30"]


def test_change_detection_against_previous_run(tmp_path):
    url = "http://parafia-jadwigi.pl/msze.html"
    with RecrawlState(tmp_path / "state.sqlite") as state:
        first = processor(state=state).process(page(url, SCHEDULE_HTML))
        assert first["change"] == NEW

        again = processor(state=state, only_changed=True)
        same = again.process(page(url, SCHEDULE_HTML))
        assert same["change"] == UNCHANGED and again.counts["extracted"] == 0  # not re-extracted
        assert same["masses"] == first["masses"]
        assert again.counts["reused"] == 1

        moved = again.process(page(url, SCHEDULE_HTML.replace("18.00", "19.00")))
        assert moved["change"] == CHANGED and "19:00" in moved["masses"] and again.counts["extracted"] == 1

        # The site broke: a shell page. Flagged, previous hours kept, state not overwritten.
        shell = again.process(page(url, "<div id='app'>Ładowanie strony parafii, proszę czekać</div>"))
        assert shell["change"] == SHRUNK
        assert shell["masses"] == moved["masses"]
        assert (
            again.process(page(url, "<div id='app'>Ładowanie strony parafii, proszę czekać</div>"))["change"]
            == SHRUNK
        )


def test_process_file_writes_pages_and_parish_summary(tmp_path):
    warc = write_wget_style(tmp_path / "wget.warc.gz")
    options = ProcessOptions(out_dir=str(tmp_path / "out"), state_path=str(tmp_path / "state.sqlite"))
    proc = processor(state=RecrawlState(options.state_path))
    report = process_file(warc, options, proc)
    assert report.error is None
    assert report.pages_in == 4 and report.pages_out == 4
    lines = [json.loads(x) for x in Path(report.output).read_text(encoding="utf-8").splitlines()]
    assert {p["language"] for p in lines} == {"pl", "en"}
    [summary] = report.summaries
    assert summary["domain"] == "parafia-jadwigi.pl" and summary["status"] == "finished"
    assert summary["pages"] == 4
    assert {m["time"] for m in summary["masses"]} >= {"07:00", "09:30", "11:00", "18:00", "13:00"}
    assert summary["crawled_at"]
    assert summary["change"]["status"] == NEW

    # Second run over the same archive: the parish's Mass times did not change.
    again = process_file(warc, options, processor(state=RecrawlState(options.state_path)))
    assert again.summaries[0]["change"]["status"] == UNCHANGED
    assert again.summaries[0]["change"]["pages"] == {UNCHANGED: 4}
    with RecrawlState(options.state_path) as state:
        assert [c["status"] for c in state.last_changes()] == [UNCHANGED]


def test_process_file_reports_bad_input_without_output(tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("not a crawl")
    report = process_file(bad, ProcessOptions(out_dir=str(tmp_path / "out")), processor())
    assert report.error.startswith("InputError") and report.output is None
    assert not list((tmp_path / "out").glob("*"))


def test_site_template_hours_counted_once_per_site():
    footer = "Kancelaria parafialna czynna we wtorki w godz. 16.00 i 17.30, w czwartki po Mszy."
    proc = processor()
    pages = [
        proc.process(
            page(
                f"http://parafia-jadwigi.pl/{i}.html",
                f"<p>Wiadomość numer {i} z życia parafii.</p>\n\n<p>{footer}</p>",
            )
        )
        for i in range(6)
    ]
    assert {h["time"] for h in pages[0]["hours"]} == {"16:00", "17:30"}
    assert pages[-1]["template"] and pages[-1]["hours"] == []
    assert proc.counts["hours/template_skipped"] >= 2  # the crawl stat msze/hours/template_skipped


def test_warc_written_by_the_crawl_extension(tmp_path):
    """msze's own WARC (msze/archive/warc.py): bodies Content-Encoded as received; robots.txt and 404s too."""
    from msze.archive.warc import WarcFile

    warc = WarcFile(tmp_path / "parafia-jadwigi.pl.warc.gz")
    html = gzip.compress(SCHEDULE_HTML.encode("utf-8"))
    warc.write_exchange("http://parafia-jadwigi.pl/robots.txt", 200, [("Content-Type", "text/plain")], b"")
    warc.write_exchange(
        "http://parafia-jadwigi.pl/msze.html",
        200,
        [("Content-Type", "text/html; charset=utf-8"), ("Content-Encoding", "gzip")],
        html,
    )
    warc.write_exchange(
        "http://parafia-jadwigi.pl/brak.html", 404, [("Content-Type", "text/html")], b"<p>404</p>"
    )
    warc.close()
    counts = Counter()
    [only] = list(iter_warc_pages(tmp_path / "parafia-jadwigi.pl.warc.gz", counts))
    assert only["html"] == SCHEDULE_HTML and only["domain"] == "parafia-jadwigi.pl"
    assert counts["skipped/non_html"] == 1 and counts["skipped/status"] == 1


# --- nothing lost to one bad record, page or cut ----------------- --------------------------------------


def test_output_names_never_collide(tmp_path):
    paths = [
        "in/crawlA/pages/parafia.jsonl",
        "in/crawlB/pages/parafia.jsonl",
        "in/x.jsonl",
        "in/x.warc.gz",
        "in/results.jsonl",
        "in/jedyny.warc.gz",
    ]
    names = output_names(paths)
    assert names == {
        "in/crawlA/pages/parafia.jsonl": "crawlA__pages__parafia.jsonl",
        "in/crawlB/pages/parafia.jsonl": "crawlB__pages__parafia.jsonl",
        "in/x.jsonl": "x.jsonl",
        "in/x.warc.gz": "x.warc.gz.jsonl",
        "in/results.jsonl": names["in/results.jsonl"],
        "in/jedyny.warc.gz": "jedyny.jsonl",  # unique: the usual name
    }
    assert re.fullmatch(r"results-[0-9a-f]{8}\.jsonl", names["in/results.jsonl"])  # not the command's own
    assert output_names(reversed(paths)) == names  # deterministic, whatever the order


def write_jsonl(path, *lines):
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def test_record_of_the_wrong_type_is_skipped_not_the_file(tmp_path):
    pages = write_jsonl(
        tmp_path / "parafia.jsonl",
        json.dumps(page("http://parafia-jadwigi.pl/", "<p>Msze 7.00</p>")),
        json.dumps(page("http://parafia-jadwigi.pl/zly", 5)),
        json.dumps(page("http://parafia-jadwigi.pl/msze", "<p>Msze 18.00</p>")),
        '{"url": "http://parafia-jadwigi.pl/ur',
    )
    report = process_file(pages, ProcessOptions(out_dir=str(tmp_path / "out")), processor())
    assert report.error is None and report.pages_in == 2 and report.pages_out == 2
    assert report.counts["skipped/bad_record"] == 1 and report.counts["skipped/bad_line"] == 1
    assert report.warnings == [
        f'{pages}:2: "html" is int, not a string; record skipped',
        f"{pages}:4: not a JSON object (a torn line?); skipped",
    ]
    assert {m["time"] for m in report.summaries[0]["masses"]} == {"07:00", "18:00"}


def test_page_that_fails_is_skipped_not_the_file(tmp_path):
    pages = write_jsonl(
        tmp_path / "parafia.jsonl",
        json.dumps(page("http://parafia-jadwigi.pl/zepsuta", "<p>zepsuta 9.00</p>")),
        json.dumps(page("http://parafia-jadwigi.pl/msze", "<p>Msze 18.00</p>")),
    )
    proc = processor(AllMasses(crash_on="zepsuta"))
    report = process_file(pages, ProcessOptions(out_dir=str(tmp_path / "out")), proc)
    assert report.error is None and report.pages_out == 1 and report.counts["failed/page"] == 1
    assert report.warnings == [
        f"{pages}: http://parafia-jadwigi.pl/zepsuta: ValueError: extractor crashed; page skipped"
    ]
    assert [p["url"] for p in map(json.loads, Path(report.output).read_text().splitlines())] == [
        "http://parafia-jadwigi.pl/msze"
    ]


def test_page_html2text_chokes_on_is_converted_and_counted(tmp_path):
    """The real converter: `<![ if !IE ]>` failed the whole parish file."""
    html = "<p>Msze święte w niedzielę: 9.00</p><![ if !IE ]><p>W dni powszednie: 18.00</p>"
    pages = write_jsonl(tmp_path / "parafia.jsonl", json.dumps(page("http://parafia-jadwigi.pl/msze", html)))
    proc = processor()
    report = process_file(pages, ProcessOptions(out_dir=str(tmp_path / "out")), proc)
    assert report.error is None and report.counts["text/fallback"] == 1
    assert {m["time"] for m in report.summaries[0]["masses"]} == {"09:00", "18:00"}
    [warning] = report.warnings
    assert warning.startswith(
        f"{pages}: http://parafia-jadwigi.pl/msze: text fallback: html2text: AssertionError"
    )


def test_lone_surrogate_in_stored_html_is_written_losslessly(tmp_path):
    pages = tmp_path / "parafia.jsonl"
    pages.write_text(
        '{"url": "http://parafia-jadwigi.pl/", "html": "<p>Msze \\ud83d 18.00</p>"}\n', encoding="utf-8"
    )
    report = process_file(pages, ProcessOptions(out_dir=str(tmp_path / "out")), processor())
    assert report.error is None and report.pages_out == 1
    [done] = map(json.loads, Path(report.output).read_text(encoding="utf-8").splitlines())
    assert done["html"] == "<p>Msze \ud83d 18.00</p>" and done["masses"] == ["18:00"]


def _cut_in_a_body(warc: Path) -> Path:
    warc.write_bytes(warc.read_bytes()[: warc.stat().st_size // 2])
    return warc


def _cut_in_a_header(warc: Path) -> Path:
    """Uncompressed, and cut in the WARC headers of en.html's response, right after `WARC-Type: response`:
    warcio then fails with an AttributeError (no target URI), which failed the whole file."""
    raw = gzip.decompress(warc.read_bytes())
    uri = raw.rindex(b"WARC-Target-URI: http://parafia-jadwigi.pl/en.html")  # the response, after the request
    type_line = raw.index(b"WARC-Type: response\r\n", raw.rindex(b"WARC/1.0\r\n", 0, uri))
    out = warc.with_name("cut.warc")
    out.write_bytes(raw[: type_line + len(b"WARC-Type: response\r\n")])
    return out


def _cut_in_the_gzip_trailer(warc: Path) -> Path:
    warc.write_bytes(warc.read_bytes()[:-4])
    return warc


@pytest.mark.parametrize("cut", [_cut_in_a_body, _cut_in_a_header, _cut_in_the_gzip_trailer])
def test_truncated_warc_keeps_its_pages_and_says_how_far_it_got(tmp_path, cut):
    whole = [p["url"] for p in iter_warc_pages(write_wget_style(tmp_path / "w.warc.gz"), Counter())]
    warc = cut(write_wget_style(tmp_path / "wget.warc.gz"))
    report = process_file(warc, ProcessOptions(out_dir=str(tmp_path / "out")), processor())
    assert report.error is None and report.counts["truncated"] == 1
    urls = [p["url"] for p in map(json.loads, Path(report.output).read_text().splitlines())]
    assert urls and urls == whole[: len(urls)]
    [warning] = report.warnings
    assert warning.startswith(f"{warc}: ") and re.search(r"record \d+", warning)  # how far it got
    assert re.search(r"at byte \d+", warning)


def test_parishes_sharing_a_registered_domain_get_a_summary_each(tmp_path):
    def parish_page(host, html):
        return json.dumps(
            {
                "url": f"http://{host}/msze",
                "domain": "opoka.org.pl",
                "start_url": f"http://{host}/",
                "html": html,
            }
        )

    pages = write_jsonl(
        tmp_path / "opoka.jsonl",
        parish_page("a.kielce.opoka.org.pl", "<p>Msze św.</p><p>Niedziela: 8:00, 10:00</p>"),
        parish_page("b.kielce.opoka.org.pl", "<p>Msze św.</p><p>Niedziela: 9:00</p>"),
    )
    report = process_file(pages, ProcessOptions(out_dir=str(tmp_path / "out")), processor(classifier=None))
    assert report.error is None
    got = {s["start_url"]: [e["time"] for e in s["schedule"]] for s in report.summaries}
    assert got == {
        "http://a.kielce.opoka.org.pl/": ["08:00", "10:00"],
        "http://b.kielce.opoka.org.pl/": ["09:00"],
    }
    assert {s["domain"] for s in report.summaries} == {"opoka.org.pl"}
