import json

import pytest
from hour_pages import make_pages

from msze.classifier.dataset import Example
from msze.classifier.metrics import Confusion
from msze.classifier.model import HourClassifier
from msze.cli import main
from msze.cli.train import _fmt, score_examples

FAST = ["--epoch", "8", "--dim", "16", "--bucket", "20000"]


@pytest.fixture(scope="module")
def pages_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("pages") / "pages.jsonl"
    path.write_text(
        "".join(json.dumps(p, ensure_ascii=False) + "\n" for p in make_pages(160, seed=2)), "utf-8"
    )
    return path


def test_holdout_training_prints_scores_and_writes_a_quantised_model(pages_file, tmp_path, capsys):
    out = tmp_path / "m.ftz"
    report = tmp_path / "r.json"
    code = main(["train", "--realpages", str(pages_file), "--out", str(out), "--report", str(report), *FAST])
    assert code == 0
    printed = capsys.readouterr().out
    assert "dev " in printed and "test " in printed and "MCC" in printed
    figures = json.loads(report.read_text())
    assert figures["dev"]["f1"] > 0.9 and figures["test"]["f1"] > 0.9
    written = out if out.exists() else out.with_suffix(".bin")
    clf = HourClassifier.load(written)
    assert clf.before == 20 and clf.after == 10 and clf.threshold == 0.5
    meta = json.loads(written.with_suffix(".json").read_text())
    assert meta["params"]["epoch"] == 8 and "quantized" in meta
    text = "Parafia pw. św. Józefa\n\nW niedzielę Msze Święte o godz. 8.00, 10:30 oraz 12:00."
    start = text.index("10:30")
    assert clf.score_hours(text, [{"start": start, "end": start + 5}])[0] > 0.5


def test_final_model_and_window_options(pages_file, tmp_path, capsys):
    out = tmp_path / "final.ftz"
    args = ["train", "--realpages", str(pages_file), "--out", str(out), "--final", "--quantize", "no"]
    assert main([*args, "--before", "5", "--after", "3", "--threshold", "0.6", *FAST]) == 0
    assert "--final: retraining on all" in capsys.readouterr().out
    clf = HourClassifier.load(out.with_suffix(".bin"))
    assert (clf.before, clf.after, clf.threshold) == (5, 3, 0.6)


def test_cross_validation_reports_page_level_union_per_kind(pages_file, tmp_path, capsys):
    report = tmp_path / "cv.json"
    assert main(["train", "--cv", "3", "--realpages", str(pages_file), "--report", str(report), *FAST]) == 0
    printed = capsys.readouterr().out
    assert "fold 3/3" in printed and "all / union" in printed and "schedule / union" in printed
    figures = json.loads(report.read_text())
    assert set(figures["pages"]) == {"all", "schedule", "negative"}
    assert figures["pages"]["all"]["union"]["f1"] > 0.8
    assert figures["hours"]["tp"] + figures["hours"]["fn"] == sum(
        1 for p in make_pages(160, seed=2) for t in p["tokens"] if t["label"] == "mass"
    )


def test_cv_needs_pages(tmp_path, capsys):
    (tmp_path / "no-pages").mkdir()  # a source named, but no labelled pages: nothing to cross-validate
    assert main(["train", "--cv", "3", "--pages", str(tmp_path / "no-pages")]) == 2
    assert "--cv K needs" in capsys.readouterr().err


def test_without_sources_the_dataset_is_the_repository_labels(tmp_path, capsys):
    assert main(["dataset", str(tmp_path / "out"), "--seed", "1"]) == 0
    assert "sources: data/realpages and 2 annotated files (at most 300)" in capsys.readouterr().out
    train = [json.loads(line) for line in (tmp_path / "out" / "train.jsonl").read_text().splitlines()]
    assert {e["source"] for e in train} >= {"realpages", "annotated"}
    assert not any("zamojskolubaczowska" in e["site"] for e in train)  # a held-out host of dev-D


class FixedScores:
    """A stand-in model: P(mass) looked up by feature line."""

    def __init__(self, scores):
        self.scores = scores

    def predict(self, lines, k=-1):
        labels = [["__label__mass", "__label__other"] for _ in lines]
        probs = [[self.scores[line], 1 - self.scores[line]] for line in lines]
        return labels, probs


def test_hour_scores_on_a_hand_checked_confusion_matrix():
    # 10 hours: gold mass = a..e, other = f..j; predicted mass (score >= 0.5) = a, b, c, f.
    # By hand: tp 3 (a b c), fn 2 (d e), fp 1 (f), tn 4 (g h i j).
    # precision 3/4 = 0.75, recall 3/5 = 0.6, F1 = 2*0.75*0.6/1.35 = 0.6667, accuracy 7/10 = 0.7,
    # MCC = (3*4 - 1*2) / sqrt(4*5*6*5) = 10 / sqrt(600) = 0.4082.
    scores = dict(zip("abcdefghij", [0.9, 0.8, 0.5, 0.4, 0.1, 0.7, 0.3, 0.2, 0.0, 0.49], strict=True))
    examples = [
        Example("mass" if name in "abcde" else "other", "", 0, 0, "s", "t", features=name) for name in scores
    ]
    clf = HourClassifier(FixedScores(scores), threshold=0.5)
    c = score_examples(clf, examples)
    assert (c.tp, c.fp, c.fn, c.tn) == (3, 1, 2, 4)
    assert c.as_dict() == {
        "tp": 3, "fp": 1, "fn": 2, "tn": 4,
        "precision": 0.75, "recall": 0.6, "f1": 0.6667, "accuracy": 0.7, "mcc": 0.4082,
    }  # fmt: skip
    assert "P 0.750  R 0.600  F1 0.667  acc 0.700  MCC 0.408" in _fmt("x", c)
    assert "P 0.750  R 0.600  F1 0.667  (tp 3 fp 1 fn 2)" in _fmt("x", Confusion(3, 1, 2, 0), sets=True)


def test_too_small_to_quantise_writes_the_full_model(tmp_path, capsys):
    pages = tmp_path / "tiny.jsonl"
    pages.write_text("".join(json.dumps(p) + "\n" for p in make_pages(12)), encoding="utf-8")
    out = tmp_path / "tiny.ftz"
    small = ["--epoch", "3", "--dim", "8", "--bucket", "0", "--word-ngrams", "1"]
    assert main(["train", "--realpages", str(pages), "--out", str(out), *small]) == 0
    assert "cannot quantise" in capsys.readouterr().out
    assert out.with_suffix(".bin").is_file() and not out.exists()
    assert main(["train", "--realpages", str(pages), "--out", str(out), "--quantize", "yes", *small]) == 2
    assert "cannot quantise" in capsys.readouterr().err
