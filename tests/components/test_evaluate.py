"""`python -m msze evaluate` on a small gold set in the realpages format, written for the test."""

import json

import pytest

from msze.cli import evaluate as ev
from msze.cli import main

MON_FRI = ("mon", "tue", "wed", "thu", "fri")
MON_SAT = (*MON_FRI, "sat")


def gold_page(pid: str, text: str, labels: dict[str, str]) -> dict:
    """A gold record: every token text in `labels` is located in `text` (first occurrence after the last)."""
    tokens, pos = [], 0
    for tok, label in labels.items():
        tok_text = tok.split("#")[0]
        start = text.index(tok_text, pos)
        tokens.append({"start": start, "end": start + len(tok_text), "text": tok_text, "label": label})
        pos = start + len(tok_text)
    mass_times = sorted(
        {f"{int(t['text'][:-3]):02d}:{t['text'][-2:]}" for t in tokens if t["label"] == "mass"}
    )
    return {"id": pid, "text": text, "tokens": tokens, "mass_times": mass_times}


@pytest.fixture
def gold(tmp_path):
    pages = [
        gold_page(
            "P1",
            "Msze święte\nNiedziela: 8.00, 10.00\nKancelaria: 16.00-17.00\n",
            {"8.00": "mass", "10.00": "mass", "16.00": "other", "17.00": "other"},
        ),
        gold_page(
            "P2",
            "W piątek o 19.00 spotkanie. Nabożeństwo w sobotę o 11.00 przed Mszą.\n",
            {"19.00": "other", "11.00": "mass"},  # arguable label: a miss for the rules
        ),
    ]
    path = tmp_path / "gold.jsonl"
    path.write_text("\n".join(json.dumps(p, ensure_ascii=False) for p in pages) + "\n", encoding="utf-8")
    return path


def test_scores_and_mistakes(gold, capsys):
    assert main(["evaluate", str(gold), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["pages"] == 2 and result["gold_tokens"] == 6
    assert result["extractor_recall"] == 1.0
    tokens = result["systems"]["rules"]["tokens"]
    assert (tokens["tp"], tokens["fp"], tokens["fn"], tokens["tn"]) == (2, 0, 1, 3)
    assert tokens["precision"] == 1.0 and tokens["recall"] == pytest.approx(2 / 3, abs=1e-3)
    (mistake,) = result["mistakes"]["rules"]
    assert mistake["page"] == "P2" and mistake["kind"] == "FN" and "[11.00]" in mistake["context"]


def test_text_report(gold, capsys):
    assert main(["evaluate", str(gold)]) == 0
    out = capsys.readouterr().out
    assert "hour extractor recall of gold tokens: 1.0000 (6/6)" in out
    assert "rules" in out and "MCC=" in out and "P2" in out


class FakeScorer:
    threshold = 0.5

    def score_hours(self, text, hours):
        return [0.9 if h.time == "11:00" else 0.1 for h in hours]


def test_model_union_and_plot(gold, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(ev, "load_classifier", lambda path, threshold: FakeScorer())
    png = tmp_path / "pr.png"
    assert main(["evaluate", str(gold), "--model", "fake.ftz", "--plot", str(png), "--json"]) == 0
    systems = json.loads(capsys.readouterr().out)["systems"]
    assert systems["classifier"]["tokens"]["tp"] == 1
    assert systems["rules ∪ classifier"]["tokens"]["tp"] == 3
    assert systems["rules ∪ classifier"]["tokens"]["fp"] == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_without_matplotlib_says_which_extra(gold, tmp_path, capsys, monkeypatch):
    """matplotlib is the [plot] extra, not a dependency: without it --plot is one line, nothing drawn."""
    monkeypatch.setattr(ev, "load_classifier", lambda path, threshold: FakeScorer())
    find_spec = ev.importlib.util.find_spec
    monkeypatch.setattr(
        ev.importlib.util, "find_spec", lambda name: None if name == "matplotlib" else find_spec(name)
    )
    png = tmp_path / "pr.png"
    assert main(["evaluate", str(gold), "--model", "fake.ftz", "--plot", str(png)]) == 2
    assert "--plot needs matplotlib: pip install 'msze[plot]'" in capsys.readouterr().err
    assert not png.exists()


def test_bad_gold_file(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"text": "abc", "tokens": [{"start": 0, "end": 2, "text": "xx", "label": "mass"}]}\n')
    assert main(["evaluate", str(bad)]) == 2
    assert "bad.jsonl:1" in capsys.readouterr().err
    assert main(["evaluate", str(tmp_path / "missing.jsonl")]) == 2
    assert main(["evaluate", str(bad), "--plot", "x.png"]) == 2


def parish(
    pid: str,
    pages: list[tuple[str, str]],
    masses: list[dict],
    one_off: list[dict] | None = None,
    confession: list[dict] | None = None,
) -> dict:
    return {
        "id": pid,
        "host": "parafia-" + pid.lower() + ".test",
        "parish": "",
        "pages": [{"url": url, "text": text} for url, text in pages],
        "masses": masses,
        "one_off": one_off or [],
        "confession": confession or [],
        "notes": "",
    }


def mass(time, days, church=None, season=None, vigil=False):
    return {"time": time, "days": days, "church": church, "season": season, "vigil": vigil, "note": ""}


def test_sites_score_the_consolidated_schedule_per_parish(tmp_path, capsys):
    sites = [
        parish(
            "A",
            [
                (
                    "http://a.test/msze",
                    "Msze święte\nNiedziela: 8:00, 10:00\nKaplica w Borkach:\nniedziela 9:00\n",
                ),
                (
                    "http://a.test/ogloszenia",
                    "Ogłoszenia duszpasterskie\nW czwartek Msza św. o godz. 17:00.\n",
                ),
            ],
            [
                mass("08:00", ["sun"]),
                mass("10:00", ["sun"]),
                mass("09:00", ["sun"], church="kaplica w Borkach"),
            ],
            one_off=[{"date": None, "time": "17:00", "church": None, "note": "czwartek"}],
        ),
        parish(
            "B",
            [("http://b.test/msze", "Msze święte\nNiedziela: 7:00, 11:00\nW wakacje: niedziela 19:00\n")],
            [mass("07:00", ["sun"]), mass("09:00", ["sun"]), mass("19:00", ["sun"], season="summer")],
            # 07:00 is also a regular Sunday Mass, so reporting it is no one-off let in; 11:00 is one
            one_off=[
                {"date": "11-02", "time": "07:00", "church": None, "note": "Zaduszki"},
                {"date": None, "time": "11:00", "church": None, "note": "odpust"},
            ],
        ),
    ]
    path = tmp_path / "sites.jsonl"
    path.write_text("".join(json.dumps(s, ensure_ascii=False) + "\n" for s in sites), encoding="utf-8")
    assert main(["evaluate", "--sites", str(path), "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    # A: 3 of 3 pairs; B: 07:00 found, 09:00 missed, 11:00 reported wrongly, 19:00 seasonal (neither way)
    assert (got["weekly"]["tp"], got["weekly"]["fp"], got["weekly"]["fn"]) == (4, 1, 1)
    assert got["sunday_exact"] == {"found": 1, "total": 2, "share": 0.5}
    assert got["seasons_attributed"]["found"] == got["seasons_attributed"]["total"] == 1
    assert got["churches_attributed"]["found"] == got["churches_attributed"]["total"] == 1
    assert got["one_offs_kept_apart"] == {"found": 2, "total": 3, "share": 0.6667}
    assert main(["evaluate", "--sites", str(path)]) == 0
    assert "Sunday times (with the vigil) exactly right: 0.500 (1/2)" in capsys.readouterr().out


def shrift(start, days, end=None):
    return {"days": days, "start": start, "end": end, "church": None, "season": None}


def test_a_confession_row_is_found_by_its_start_on_one_of_its_days():
    from msze.cli.evaluate_sites import confession_found

    reported = [shrift("17:00", ["sat"], "18:00"), {**shrift("18:00", list(MON_FRI)), "at_mass": True}]
    assert confession_found(shrift("17:00", ["fri", "sat"]), reported)  # the end need not be labelled alike
    assert confession_found(shrift("18:00", ["wed"]), reported)  # during the 18:00 Mass
    assert not confession_found(shrift("17:00", ["sun"]), reported)  # another day
    assert not confession_found(shrift("17:30", ["sat"]), reported)  # another time
    assert confession_found(shrift("17:00", []), reported)  # no day labelled: the time alone
    assert not confession_found(shrift("17:00", ["sat"]), [])


def test_sites_count_the_confession_rows_found(tmp_path, capsys):
    text = (
        "Msze święte\nNiedziele: 8:00, 11:00\nDni powszednie: 7:00, 18:00\n\n"
        "Spowiedź\nsobota 17:00–18:00\nw dni powszednie w czasie Mszy o 18:00\n"
    )
    masses = [mass("08:00", ["sun"]), mass("11:00", ["sun"])] + [
        mass(t, list(MON_SAT)) for t in ("07:00", "18:00")
    ]
    confession = [shrift("17:00", ["sat"], "18:00"), shrift("18:00", list(MON_FRI)), shrift("06:30", ["sun"])]
    path = tmp_path / "sites.jsonl"
    site = parish("C", [("http://c.test/msze", text)], masses, confession=confession)
    path.write_text(json.dumps(site, ensure_ascii=False) + "\n", encoding="utf-8")
    assert main(["evaluate", "--sites", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["confession_found"] == {
        "found": 2,
        "total": 3,
        "share": 0.6667,
    }
    assert main(["evaluate", "--sites", str(path)]) == 0
    assert "confession rows found (start time on one of their days): 0.667 (2/3)" in capsys.readouterr().out

    from msze.cli.quality import site_figures

    got = site_figures([site], None)
    assert got["figures"]["confession"] == 0.6667
    assert got["items"]["C"]["confession_missed"] == ["sun 06:30"]


def test_a_broken_sites_file_is_one_line(tmp_path, capsys):
    path = tmp_path / "sites.jsonl"
    path.write_text('{"id": "A", "pages": 3, "masses": []}\n', encoding="utf-8")
    assert main(["evaluate", "--sites", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {path}:1: not a parish of the realsites format") and "Traceback" not in err


def test_sites_join_labels_to_their_texts_and_score_each_file(tmp_path, capsys):
    from msze.labels.texts import sha256

    text_a = "Msze święte\nNiedziele: 8:00, 10:00\nDni powszednie: 18:00\n"
    text_b = "Porządek Mszy\nw niedziele o 9.00 i 11.30\n"
    with_text = [
        parish("A", [("http://a.test/msze", text_a)], [mass("08:00", ["sun"]), mass("10:00", ["sun"])]),
        parish("B", [("http://b.test/", text_b)], [mass("09:00", ["sun"]), mass("11:30", ["sun"])]),
    ]
    texts = tmp_path / "texts"
    (texts / "realsites").mkdir(parents=True)
    (texts / "realsites" / "local.jsonl").write_text(
        "".join(json.dumps(p, ensure_ascii=False) + "\n" for p in with_text), encoding="utf-8"
    )
    labels = []  # as data/realsites keeps them: each page by its URL and the SHA-256 of its text
    for p in with_text:
        labels.append({**p, "pages": [{"url": g["url"], "sha256": sha256(g["text"])} for g in p["pages"]]})
    labels[1]["pages"][0]["sha256"] = sha256(text_b + "changed")
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    first.write_text(json.dumps(labels[0], ensure_ascii=False) + "\n", encoding="utf-8")
    second.write_text(json.dumps(labels[1], ensure_ascii=False) + "\n", encoding="utf-8")

    argv = ["evaluate", "--sites", str(first), str(second), "--texts", str(texts)]
    assert main([*argv, "--json"]) == 0
    out, err = capsys.readouterr()
    got = json.loads(out)
    assert got["parishes"] == 1  # B's text is not the one labelled: named and left out
    assert "label B http://b.test/ changed since it was labelled" in err
    assert got["files"][str(first)]["weekly"]["tp"] == 2 and got["files"][str(second)]["parishes"] == 0
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert f"{first}:\n1 parishes" in out and f"{second}:\n0 parishes" in out
    assert "all files:\n1 parishes" in out


def test_sites_read_a_diocesan_label_file_from_the_thesis_rows(capsys):
    """data/diocesan labels name a row of the thesis's TSVs: --sites joins them as the guard does."""
    from msze.cli.quality import site_figures
    from msze.labels.sets import join_diocesan
    from msze.labels.texts import JoinReport

    path = "data/diocesan/warszawa-101-211.jsonl"
    expected = site_figures(join_diocesan([path], JoinReport()), None)["figures"]
    with open(path, encoding="utf-8") as f:
        assert expected["parishes"] == sum(1 for line in f if line.strip())  # every row met its text
    assert main(["evaluate", "--sites", path, "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["parishes"] == expected["parishes"] and got["files"] == {}
    assert round(got["weekly"]["f1"], 4) == expected["weekly_f1"]


def test_schedule_pairs_take_the_days_a_reading_names_as_the_gold_keys_them(tmp_path, capsys):
    """Saturday counts apart only where the page's gold gives it apart; an order given by reference is
    Sunday's; a wrong day is counted against the reported pairs."""
    apart = gold_page(
        "S1",
        "Msze święte\nw niedzielę: 8.00, 10.00\nw piątek i sobotę: 18.00\n"
        "od poniedziałku do czwartku: 7.00\n",
        {"8.00": "mass", "10.00": "mass", "18.00": "mass", "7.00": "mass"},
    )
    apart["schedule"] = {"sunday": ["08:00", "10:00"], "weekday": ["07:00", "18:00"], "saturday": ["18:00"]}
    folded = gold_page(
        "S2",
        "Porządek Mszy\nDni powszednie: 6.30, 18.00\n"
        "W Wielkanoc Msze według porządku niedzielnego o 9.00 i 11.00.\n",
        {"6.30": "mass", "18.00": "mass", "9.00": "mass", "11.00": "mass"},
    )
    folded["schedule"] = {"sunday": ["09:00", "11:00", "18:00"], "weekday": ["06:30", "18:00"]}
    path = tmp_path / "gold.jsonl"
    path.write_text("\n".join(json.dumps(p, ensure_ascii=False) for p in (apart, folded)) + "\n", "utf-8")
    assert main(["evaluate", str(path), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    # all but Sunday 18:00 of S2 (never said) found; no Saturday key on S2, where the gold folds it in
    assert result["schedule_day_recall"] == {"found": 9, "total": 10, "recall": 0.9}
    assert result["schedule_day_precision"] == {"right": 9, "reported": 9, "precision": 1.0}
