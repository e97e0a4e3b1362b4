import io
import json
from collections import Counter

import pytest
from hour_pages import make_pages

from msze.classifier import dataset as ds

SCHEDULE = "Msze św. w niedziele: godz. 7.30, 9.00 (suma), 11.00; w dni powszednie: 18.00"


def span(text: str, needle: str) -> tuple[int, int]:
    start = text.index(needle)
    return start, start + len(needle)


@pytest.mark.parametrize(
    ("text", "needle", "is_mass"),
    [
        (SCHEDULE, "9.00", True),
        (SCHEDULE, "18.00", True),
        ("Msze św.: 18.00. Biuro parafialne: wtorek godz. 9.00-11.00", "9.00", False),  # range start
        ("Msze św.: 18.00. Biuro parafialne: wtorek godz. 9.00-11.00", "11.00", False),  # range end
        ("Msze św.: 8.00; adoracja indywidualna godz. 20.15", "20.15", False),  # devotion clause
        ("Msze św.: 7.30 – Godzinki, 8.00, 10.30", "8.00", True),  # devotion belongs to 7.30
        ("Msze św.: 12.00, 16.00 - dla dzieci do 7 roku życia", "7", False),  # an age
        ("Msze św.: 17.00 zimą, godz. 18.00 latem", "18.00", True),  # "latem" is not "lat"
        ("Msza wieczorna, kancelaria do 19.15", "19.15", False),  # an end
    ],
)
def test_listed_hour_is_mass(text, needle, is_mass):
    assert ds.listed_hour_is_mass(text, *span(text, needle)) is is_mass


def test_from_annotated_labels_listed_times_and_groups_by_site():
    rows = [
        {"Parafia": "A", "url": "http://www.parafia-a.pl", "niedzielne": SCHEDULE, "powszednie": ""},
        {
            "Parafia": "B",
            "url": "",
            "niedzielne": "Msze św.: 8.00, 10.00",
            "powszednie": "Biuro: 9.00-11.00",
            "debug_url": "http://dioc/x/1",
        },
    ]
    examples, counts = ds.from_annotated(rows)
    assert counts == Counter({"mass": 6, "other": 2})
    assert {e.site for e in examples} == {"parafia-a.pl", "parish:B|http://dioc/x/1"}
    assert all(e.source == "annotated" for e in examples)
    first = examples[0]
    assert first.text[first.start : first.end] == "7.30"


def test_from_realpages_keeps_labels_and_adds_unlabelled_candidates_as_other():
    text = "Msze: 7:00 i 18:00. Kancelaria 16:00. Dzieci od 8 lat."
    page = {"id": "X1", "url": "https://www.parafia-x.pl/msze", "text": text, "tokens": []}
    for needle, label in (("7:00", "mass"), ("18:00", "mass"), ("16:00", "other")):
        s, e = span(text, needle)
        page["tokens"].append({"start": s, "end": e, "text": needle, "label": label})
    examples = ds.from_realpages([page])
    got = Counter((e.source, e.label) for e in examples)
    assert got[("realpages", "mass")] == 2 and got[("realpages", "other")] == 1
    assert got[("candidates", "other")] == 1  # the "8" of an age
    assert {e.site for e in examples} == {"parafia-x.pl"}
    assert ds.from_realpages([page], candidates=False) == examples[:3]


def test_make_example_keeps_a_window_of_text():
    text = "x" * 2000 + " 7:00 " + "y" * 2000
    ex = ds.make_example(text, 2001, 2005, "mass", "s", "t")
    assert len(ex.text) == 2 * ds.KEEP_CHARS + 4
    assert ex.text[ex.start : ex.end] == "7:00"
    with pytest.raises(ValueError):
        ds.make_example(text, 2001, 2005, "maybe", "s", "t")


def test_annotator_tsv_rows_find_the_hour_in_the_context():
    rows = [
        {"id": "1", "url": "http://p.pl/a", "time": "18:00", "hour_text": "18.00",
         "context": "o 18.00 różaniec, Msza św. o 18.00 w kościele, potem 18.00 spotkanie", "label": "mass"},
        {"id": "2", "url": "http://p.pl/b", "time": "07:00", "hour_text": "7.00",
         "context": "Msza o 7.00", "label": ""},  # no majority
        {"id": "3", "url": "http://p.pl/c", "time": "08:00", "hour_text": "8.00",
         "context": "Msza o 9.00", "label": "other"},  # hour not in context
        {"id": "4", "url": "http://q.pl/", "time": "09:00", "hour_text": "9:00",
         "context": "9:00 a 9:00", "label": "other", "hour_start": "7"},
    ]  # fmt: skip
    examples, skipped = ds.from_annotator_tsv(rows)
    assert skipped == 2
    middle = examples[0]
    assert middle.text.index("18.00 w kościele") == middle.start
    assert examples[1].start == 7 and examples[1].site == "q.pl"


def test_fasttext_lines_are_examples_with_fixed_features():
    lines = [
        "__label__mass msze <h> h07 m00 </h>",
        "",
        "bad line",
        "__label__other kancelaria <h> h16 m00 </h>",
    ]
    examples, skipped = ds.from_fasttext_lines(lines, site="f")
    assert skipped == 1
    assert [e.label for e in examples] == ["mass", "other"]
    assert examples[0].fasttext_line() == "__label__mass msze <h> h07 m00 </h>"


def test_crawled_pages_give_rule_positives_and_a_negative_pool():
    hint = {
        "url": "https://parafia-x.pl/msze",
        "has_schedule_hint": True,
        "text": "Msze: 7:00, 9:00",
        "hours": [
            {"start": 6, "end": 10, "label": "mass", "source": "rules"},
            {"start": 12, "end": 16, "label": "mass", "source": "classifier"},
        ],
    }
    rejected = {
        "url": "https://parafia-x.pl/kontakt",
        "has_schedule_hint": False,
        "text": "Biuro 9:00 - 11:00",
    }
    positives, pool = ds.from_crawled_pages([hint, rejected])
    assert [(e.label, e.source) for e in positives] == [("mass", "rules")]
    assert len(pool) == 2 and all(e.label == "other" for e in pool)


def test_sample_negatives_balances_classes_reproducibly():
    pos = [ds.Example("mass", "7:00", 0, 4, f"s{i}", "rules") for i in range(10)]
    pool = [ds.Example("other", f"{i}:00", 0, 4, f"n{i}", "negatives") for i in range(10, 22)]
    drawn = ds.sample_negatives(pos, pool, ratio=1.0, seed=3)
    assert len(drawn) == 10
    assert drawn == ds.sample_negatives(pos, pool, ratio=1.0, seed=3)
    assert len(ds.sample_negatives(pos, pool, ratio=5.0, seed=3)) == 12


def test_dedupe_drops_identical_feature_lines():
    a = ds.Example("mass", "Msza 7:00", 5, 9, "s1", "x")
    b = ds.Example("mass", "Msza 7:00", 5, 9, "s2", "y")
    c = ds.Example("other", "Msza 7:00", 5, 9, "s2", "y")
    assert ds.dedupe([a, b, c]) == [a, c]


def test_split_by_site_never_shares_a_site_and_is_reproducible():
    examples = [
        ds.Example("mass" if i % 3 else "other", f"Msza {i}:00", 5, 9, f"site{i % 37}", "x")
        for i in range(500)
    ]
    splits = ds.split_by_site(examples, seed=7)
    assert sum(len(v) for v in splits.values()) == 500
    sites = {name: {e.site for e in part} for name, part in splits.items()}
    assert not sites["train"] & sites["dev"] and not sites["train"] & sites["test"]
    assert not sites["dev"] & sites["test"]
    assert 30 <= len(splits["test"]) <= 80 and 30 <= len(splits["dev"]) <= 80
    assert splits == ds.split_by_site(examples, seed=7)
    assert splits != ds.split_by_site(examples, seed=8)


def test_site_folds_partition_sites():
    folds = ds.site_folds([f"s{i}" for i in range(11)] + ["s1"], 3, seed=1)
    assert sorted(len(f) for f in folds) == [3, 4, 4]
    assert set().union(*folds) == {f"s{i}" for i in range(11)}


def test_examples_round_trip_through_jsonl(tmp_path):
    examples = ds.from_realpages(make_pages(6))
    buf = io.StringIO()
    assert ds.write_examples(examples, buf) == len(examples)
    path = tmp_path / "x.jsonl"
    path.write_text(buf.getvalue(), encoding="utf-8")
    assert ds.read_examples(path) == examples
    path.write_text(buf.getvalue() + "{broken\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"x.jsonl:\d+: not JSON"):
        ds.read_examples(path)


def test_dataset_command_writes_site_disjoint_splits(tmp_path):
    from msze.cli import main

    pages = tmp_path / "pages.jsonl"
    pages.write_text(
        "".join(json.dumps(p, ensure_ascii=False) + "\n" for p in make_pages(120)), encoding="utf-8"
    )
    out = tmp_path / "ds"
    assert main(["dataset", str(out), "--realpages", str(pages), "--seed", "1"]) == 0
    stats = json.loads((out / "stats.json").read_text())
    assert stats["train"]["examples"] > stats["dev"]["examples"] > 0
    seen: dict[str, str] = {}
    for name in ds.SPLITS:
        for ex in ds.read_examples(out / f"{name}.jsonl"):
            assert seen.setdefault(ex.site, name) == name
        lines = (out / f"{name}.txt").read_text().splitlines()
        assert lines and all(line.startswith("__label__") for line in lines)
    (tmp_path / "no-pages").mkdir()
    assert main(["dataset", str(tmp_path / "empty"), "--pages", str(tmp_path / "no-pages")]) == 2


def test_reviewed_reports_become_examples_of_the_hour_in_the_crawls_sentence():
    sentence = "Msze św. w niedziele: 7.00, 10.30, 18.00; kancelaria 17.00-18.00"
    rows = [
        {"time": "07:00", "label": "other", "status": "accepted", "context": sentence,
         "source_url": "http://www.jozef-lodz.pl/msze", "parish_id": 1},
        {"time": "18:00", "label": "mass", "status": "rejected", "context": sentence, "source_url": None,
         "website": "http://jozef-lodz.pl/", "parish_id": 1},
        {"time": "10:30", "label": "other", "status": "new", "context": sentence, "parish_id": 1},
        {"time": "21:00", "label": "mass", "status": "accepted", "context": None, "parish_id": 1},
        {"time": "12:00", "label": "mass", "status": "accepted", "context": sentence, "parish_id": 1},
    ]  # fmt: skip
    # skipped: 10:30 not reviewed, 21:00 without a sentence, 12:00 not in its sentence
    examples, skipped = ds.from_corrections(rows)
    assert skipped == 3
    assert [(e.label, e.text[e.start : e.end], e.site, e.source) for e in examples] == [
        ("other", "7.00", "jozef-lodz.pl", "corrections"),
        ("mass", "18.00", "jozef-lodz.pl", "corrections"),
    ]
    assert examples[1].text[: examples[1].end].endswith("10.30, 18.00")  # the one nearest the middle
