from msze.extraction.boilerplate import SiteTemplate, SiteTemplates, iter_blocks
from msze.extraction.hours import find_hours

MENU = "Strona główna | Ogłoszenia | Intencje | Kontakt"
SIDEBAR = "Msze święte: niedziela 8:00, 10:00, 12:00; dni powszednie 18:00"
FOOTER = "Kancelaria czynna: wtorek i czwartek 16:00-17:30"


def page(body: str) -> str:
    return f"{MENU}\n\n{body}\n\n{SIDEBAR}\n\n{FOOTER}\n"


def own_hours(text, split):
    return [h.time for h in find_hours(text) if not split.covers(h.start, h.end)]


def test_sidebar_schedule_found_once_footer_hours_not_repeated():
    site = SiteTemplate(min_pages=2, min_share=0.5)
    first = page("Historia parafii: kościół zbudowano w 1910 r.")
    s1 = site.observe(first)
    assert s1.repeated == []  # the first page processes everything itself
    assert own_hours(first, s1) == ["08:00", "10:00", "12:00", "18:00", "16:00", "17:30"]
    second = page("Ogłoszenia: w piątek o 19:00 spotkanie ministrantów.")
    s2 = site.observe(second)
    assert own_hours(second, s2) == ["19:00"]
    assert {second[a:b] for a, b in s2.repeated} == {MENU, SIDEBAR, FOOTER}
    assert {second[a:b] for a, b in s2.template} == {MENU, SIDEBAR, FOOTER}


def test_template_needs_enough_pages_and_share():
    site = SiteTemplate(min_pages=3, min_share=0.6)
    for i in range(2):
        split = site.observe(page(f"Strona {i}"))
        assert split.template == []
    split = site.observe(page("Strona 3"))
    assert len(split.template) == 3
    for i in range(4):
        site.observe(f"Zupełnie inna strona numer {i}\n")
    # 3 of 7 pages < 60 %: no longer template, but still repeated
    split = site.observe(page("Strona 8"))
    assert split.template == [] and len(split.repeated) == 3
    assert 0.0 <= site.template_share() <= 1.0


def test_whitespace_and_case_do_not_matter_and_spans_are_exact():
    site = SiteTemplate()
    site.observe("  Msze   Święte: 9:00 \n")
    text = "inne\nmsze święte: 9:00\n"
    split = site.observe(text)
    ((a, b),) = split.repeated
    assert text[a:b] == "msze święte: 9:00"


def test_lines_repeated_within_one_page_stay_its_own():
    site = SiteTemplate()
    split = site.observe("19:00 – Za parafian\n19:00 – Za parafian\n")
    assert split.repeated == []


def test_memory_bound():
    site = SiteTemplate(max_blocks=10)
    site.observe("\n".join(f"linia numer {i}" for i in range(100)))
    assert len(site.counts) == 10


def test_blocks_skip_short_lines():
    assert [b.end - b.start for b in iter_blocks("•\n\nAAA\nMsze\n")] == [4]


def test_site_templates_keep_one_model_per_site_and_drop_the_least_recently_used():
    menu = "Strona główna | Msze św. | Kancelaria\n"
    templates = SiteTemplates(max_sites=2, min_pages=2, min_share=0.5)
    assert templates.observe("a.pl", menu + "Aktualności").repeated == []
    assert templates.observe("b.pl", menu + "Historia").repeated == []  # another site learns on its own
    assert templates.observe("a.pl", menu + "Ogłoszenia").repeated == [(0, len(menu) - 1)]
    templates.observe("c.pl", menu)  # a third site: b.pl, the least recently used, is dropped
    assert templates.evicted == 1 and list(templates.sites) == ["a.pl", "c.pl"]
    assert templates.observe("b.pl", menu + "Kontakt").repeated == []  # b.pl starts again from nothing


def test_blocks_are_compared_with_whitespace_collapsed_as_a_regex_would():
    """iter_blocks collapses whitespace with str.split(): the same characters as the regex "\\s"."""
    import re
    import sys

    space = re.compile(r"\s")
    assert all(bool(space.fullmatch(chr(c))) == chr(c).isspace() for c in range(sys.maxunicode + 1))
    a, b = iter_blocks("  Msze\u00a0 święte:\t7:00 \n"), iter_blocks("Msze święte: 7:00")
    assert [x.key for x in a] == [y.key for y in b]
