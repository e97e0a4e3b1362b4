import json

import numpy
import pytest
from hour_pages import make_pages

from msze.classifier.features import hour_features
from msze.classifier.model import (
    ClassifierLoadError,
    HourClassifier,
    labelled_line,
    quantize,
    save,
    sidecar_path,
    train,
)

MASS_TEXT = "Porządek Mszy św.\nMsze święte w niedziele: godz. 7:00, 9:30, 11:00\nW dni powszednie: 18:00"
OFFICE_TEXT = "Biuro parafialne\n\nKancelaria parafialna czynna od 16:00 do 17:30\n\nBóg zapłać za ofiary."


def span(text: str, needle: str) -> dict:
    start = text.index(needle)
    return {"start": start, "end": start + len(needle)}


def fixture_lines(n: int = 300, seed: int = 0, before: int = 12, after: int = 6) -> list[str]:
    lines = []
    for page in make_pages(n, seed):
        for tok in page["tokens"]:
            feats = hour_features(page["text"], tok["start"], tok["end"], before=before, after=after)
            lines.append(labelled_line(tok["label"], feats))
    return lines


@pytest.fixture(scope="module")
def model_path(tmp_path_factory):
    lines = fixture_lines()
    model = train(lines, {"epoch": 10, "dim": 16})
    path = tmp_path_factory.mktemp("model") / "hours.bin"
    save(model, path, {"before": 12, "after": 6, "threshold": 0.5})
    return path


def test_trained_model_separates_mass_from_office_hours(model_path):
    clf = HourClassifier.load(model_path)
    mass = clf.score_hours(MASS_TEXT, [span(MASS_TEXT, "7:00"), span(MASS_TEXT, "11:00")])
    office = clf.score_hours(OFFICE_TEXT, [span(OFFICE_TEXT, "16:00"), span(OFFICE_TEXT, "17:30")])
    assert all(s > 0.8 for s in mass), mass
    assert all(s < 0.2 for s in office), office
    assert clf.is_mass(mass[0]) and not clf.is_mass(office[0])


def test_scores_are_plain_floats_in_unit_interval_with_installed_numpy(model_path):
    clf = HourClassifier.load(model_path)
    assert numpy.__version__.startswith("2.")
    scores = clf.score_hours(MASS_TEXT, [span(MASS_TEXT, "9:30")])
    assert type(scores[0]) is float and 0.0 <= scores[0] <= 1.0
    assert clf.score_hours(MASS_TEXT, []) == []


def test_score_hours_accepts_hour_dataclasses(model_path):
    from msze.extraction.hours import find_hours

    clf = HourClassifier.load(model_path)
    hours = find_hours(MASS_TEXT)
    scores = clf.score_hours(MASS_TEXT, hours)
    assert len(scores) == len(hours) >= 4
    assert scores == clf.score_hours(MASS_TEXT, [{"start": h.start, "end": h.end} for h in hours])


def test_sidecar_sets_window_and_threshold_and_threshold_can_be_overridden(model_path):
    meta = json.loads(sidecar_path(model_path).read_text())
    assert meta["before"] == 12
    clf = HourClassifier.load(model_path, threshold=0.7)
    assert clf.threshold == 0.7 and clf.before == 12 and clf.after == 6
    assert HourClassifier.load(model_path).threshold == 0.5


def test_quantised_model_scores_like_the_full_one(tmp_path):
    lines = fixture_lines()
    full = train(lines, {"epoch": 10, "dim": 16})
    small = quantize(train(lines, {"epoch": 10, "dim": 16}), lines)
    save(small, tmp_path / "q.ftz", {"threshold": 0.5})
    clf = HourClassifier.load(tmp_path / "q.ftz")
    full_clf = HourClassifier(full)
    hours = [span(MASS_TEXT, "7:00"), span(OFFICE_TEXT, "16:00")]
    q_scores = clf.score_hours(MASS_TEXT, hours[:1]) + clf.score_hours(OFFICE_TEXT, hours[1:])
    f_scores = full_clf.score_hours(MASS_TEXT, hours[:1]) + full_clf.score_hours(OFFICE_TEXT, hours[1:])
    assert q_scores[0] > 0.5 > q_scores[1]
    assert abs(q_scores[0] - f_scores[0]) < 0.2


def test_missing_model_is_one_clear_error(tmp_path):
    with pytest.raises(ClassifierLoadError, match="not found: .*nope.ftz"):
        HourClassifier.load(tmp_path / "nope.ftz")


@pytest.mark.parametrize("content", [b"", b"not a model at all" * 50])
def test_corrupt_model_is_one_clear_error(tmp_path, content):
    path = tmp_path / "bad.ftz"
    path.write_bytes(content)
    with pytest.raises(ClassifierLoadError, match="not a usable fastText model"):
        HourClassifier.load(path)


def test_truncated_model_is_one_clear_error(tmp_path, model_path):
    path = tmp_path / "cut.bin"
    path.write_bytes(model_path.read_bytes()[:3000])
    with pytest.raises(ClassifierLoadError):
        HourClassifier.load(path)


def test_bad_sidecar_is_one_clear_error(tmp_path, model_path):
    path = tmp_path / "m.bin"
    path.write_bytes(model_path.read_bytes())
    sidecar_path(path).write_text("{oops")
    with pytest.raises(ClassifierLoadError, match="not valid JSON"):
        HourClassifier.load(path)


def test_labelled_line_rejects_unknown_labels():
    assert labelled_line("mass", "a b") == "__label__mass a b"
    with pytest.raises(ValueError):
        labelled_line("maybe", "a b")


def test_model_of_other_features_version_is_refused(tmp_path, model_path):
    from msze.classifier.features import FEATURES_VERSION

    path = tmp_path / "old.bin"
    path.write_bytes(model_path.read_bytes())
    sidecar_path(path).write_text(json.dumps({"features_version": FEATURES_VERSION - 1}))
    with pytest.raises(ClassifierLoadError, match="features version .*retrain"):
        HourClassifier.load(path)
    sidecar_path(path).write_text(json.dumps({"features_version": FEATURES_VERSION}))
    assert HourClassifier.load(path).threshold == 0.5
