"""extract(): rules first, a classifier for the rest, and robustness on odd input."""

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from msze.extraction.boilerplate import SiteTemplates
from msze.extraction.page import Extraction, HourScorer, PageSteps, extract

PAGE = """Msze święte
Niedziela: 8:00, 10:00, 12:00
Dni powszednie: 18:00

Ogłoszenia
W piątek o 19:00 spotkanie młodzieży. W sobotę o 11:00 ślub.
"""


class FakeScorer:
    """Scores an hour by a fixed table of times (stands in for the fastText HourClassifier)."""

    def __init__(self, scores: dict[str, float], threshold: float = 0.5) -> None:
        self.scores = scores
        self.threshold = threshold
        self.calls: list[list[str]] = []

    def score_hours(self, text: str, hours: list[dict[str, Any]]) -> list[float]:
        self.calls.append([h["time"] for h in hours])
        return [self.scores.get(h["time"], 0.0) for h in hours]


def test_rules_only_labels_the_rest_other():
    ex = extract(PAGE)
    assert isinstance(ex, Extraction)
    assert ex.masses == ["08:00", "10:00", "12:00", "18:00"]
    by_time = {h["time"]: h for h in ex.hours}
    assert by_time["08:00"] == by_time["08:00"] | {
        "label": "mass",
        "score": 1.0,
        "source": "rules",
        "day": "sunday",
    }
    assert by_time["19:00"]["label"] == "other"
    assert by_time["19:00"]["source"] == "rules" and by_time["19:00"]["score"] == 0.0


def test_hour_dicts_follow_the_contract():
    ex = extract(PAGE)
    for h in ex.hours:
        assert {
            "text",
            "time",
            "start",
            "end",
            "context",
            "context_start",
            "label",
            "score",
            "source",
            "day",
        } <= set(h)
        assert PAGE[h["start"] : h["end"]] == h["text"]
        assert PAGE[h["context_start"] : h["context_start"] + len(h["context"])] == h["context"]


def test_role_score_only_scores_what_the_rules_left():
    ex = extract(PAGE, classifier=FakeScorer({"11:00": 0.9, "19:00": 0.2}), classifier_role="score")
    by_time = {h["time"]: h for h in ex.hours}
    assert by_time["11:00"]["score"] == 0.9 and by_time["11:00"]["label"] == "other"
    assert {h["source"] for h in ex.hours} == {"rules"}
    assert ex.masses == extract(PAGE).masses


def test_an_unknown_classifier_role_is_refused():
    with pytest.raises(ValueError, match="classifier role 'guess'"):
        PageSteps(classifier_role="guess")


def test_classifier_with_role_all_labels_only_what_the_rules_left():
    scorer = FakeScorer({"11:00": 0.9, "19:00": 0.2})
    assert isinstance(scorer, HourScorer)
    ex = extract(PAGE, classifier=scorer, classifier_role="all")
    assert scorer.calls == [["19:00", "11:00"]]  # rules' masses are not re-scored
    by_time = {h["time"]: h for h in ex.hours}
    assert by_time["11:00"] | {} == by_time["11:00"] | {"label": "mass", "source": "classifier", "score": 0.9}
    assert by_time["19:00"]["label"] == "other" and by_time["19:00"]["source"] == "classifier"
    assert by_time["08:00"]["source"] == "rules"
    assert ex.masses == ["08:00", "10:00", "11:00", "12:00", "18:00"]


def test_threshold_is_the_classifiers():
    ex = extract(PAGE, classifier=FakeScorer({"11:00": 0.9}, threshold=0.95), classifier_role="all")
    assert "11:00" not in ex.masses


def test_bad_input_never_raises():
    for text in [
        "",
        " ",
        "1 2 3 4 5 6 7 8 9 10 11 12 " * 200,
        "x" * 100_000,
        "7:00" * 5000,
        "\x00\ufffd18:00",
    ]:
        ex = extract(text)
        for h in ex.hours:
            assert text[h["start"] : h["end"]] == h["text"]


def test_big_page_keeps_its_masses_and_truncation_warns():
    """Speed and linearity in page size are measured by benchmarks/bench_extract.py (0.5 MB vs 5 MB)."""
    chunk = "Msze św. w niedziele: 8:00, 10:00. Kancelaria czynna 16:00-17:00. Rok 1920, tel. 61 852 30 00.\n"
    ex = extract(chunk * (400_000 // len(chunk)))
    assert ex.masses == ["08:00", "10:00"]
    assert extract("a" * 5_000_001).warnings


def test_one_huge_line_without_breaks():
    unit = "Msze św. 8:00, 9:00 i 10:00 oraz różaniec o 17:30 po Mszy św. wieczornej "
    ex = extract(unit * 1_000)  # ~75 kB in one line, 4 000 hours
    assert "08:00" in ex.masses and "17:30" not in ex.masses


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.sampled_from(list("0123456789 .:,-–()\n;/abcdeMszaniedzielagodz.") + ["Msze św. ", "18.00"])
    ).map("".join)
)
def test_property_extract_never_raises_and_spans_index_text(text):
    ex = extract(text)
    for h in ex.hours:
        assert text[h["start"] : h["end"]] == h["text"]
        assert text[h["context_start"] : h["context_start"] + len(h["context"])] == h["context"]
        assert h["label"] in ("mass", "other")
    assert ex.masses == sorted({h["time"] for h in ex.hours if h["label"] == "mass"})


@settings(max_examples=100, deadline=None)
@given(st.text())
def test_property_any_unicode(text):
    ex = extract(text)
    for h in ex.hours:
        assert text[h["start"] : h["end"]] == h["text"]


def test_hour_flood_is_cut_with_a_warning():
    ex = extract("Msze św.: 8:00\n" + "7:00, " * 300, max_hours=100)
    assert len(ex.hours) == 100
    assert "08:00" in ex.masses
    assert any("hour candidates" in w for w in ex.warnings)


def test_only_the_beginning_of_a_huge_page_is_converted_and_its_html_stays_whole():
    head = "<html><body><h1>Msze święte</h1><p>Niedziela: 8:00, 10:00</p>"
    html = head + "<p>Ogłoszenia parafialne o 19:00</p>" * 200 + "<p>Dni powszednie: 18:00</p></body></html>"
    counts: dict[str, int] = {}
    warnings: list[str] = []
    steps = PageSteps(
        max_html_chars=len(head) + 50, count=lambda k, n: counts.__setitem__(k, n), warn=warnings.append
    )
    page = steps.run({"url": "https://p.test/", "html": html})
    assert page["html"] == html
    # cut before the tag that starts last within the limit, never inside one
    assert page["text"] == "Msze święte\n\nNiedziela: 8:00, 10:00\n\nOgłoszenia parafialne o 19:00\n"
    assert "18:00" not in page["masses"]  # in the HTML not converted
    assert counts["text/html_cut"] == 1 and "text/fallback" not in counts
    assert warnings == [f"HTML of {len(html)} characters: the first {len(head) + 50} were converted"]
    whole: dict[str, int] = {}
    page = PageSteps(count=whole.__setitem__).run({"url": "https://p.test/", "html": html})  # the default cap
    assert "18:00" in page["masses"] and "text/html_cut" not in whole


def test_parishes_sharing_a_host_keep_their_own_site_templates():
    """Two parishes of one portal (`?id=1`, `?id=2`) that print the same Sunday line: the second parish's line
    is its own content, not a block repeated from the first parish's page."""
    steps = PageSteps(templates=SiteTemplates())
    same = "Msze święte\nNiedziela: 8:00, 10:00, 12:00\n"
    first = steps.run(
        {
            "url": "https://portal.test/p.php?id=1",
            "start_url": "https://portal.test/p.php?id=1",
            "domain": "portal.test",
            "text": same,
        }
    )
    second = steps.run(
        {
            "url": "https://portal.test/p.php?id=2",
            "start_url": "https://portal.test/p.php?id=2",
            "domain": "portal.test",
            "text": same,
        }
    )
    assert first["template"] == [] and second["template"] == []
    again = steps.run(
        {
            "url": "https://portal.test/p.php?id=2&s=x",
            "start_url": "https://portal.test/p.php?id=2",
            "domain": "portal.test",
            "text": same,
        }
    )
    assert again["template"]  # a parish's own pages still share its blocks
