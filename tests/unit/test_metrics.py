import math

import pytest

from msze.classifier.metrics import Confusion, confusion, set_confusion


def test_known_matrix():
    c = Confusion(tp=90, fp=10, fn=30, tn=70)
    assert c.precision == pytest.approx(0.9)
    assert c.recall == pytest.approx(0.75)
    assert c.f1 == pytest.approx(2 * 0.9 * 0.75 / 1.65)
    assert c.accuracy == pytest.approx(0.8)
    expected = (90 * 70 - 10 * 30) / math.sqrt(100 * 120 * 80 * 100)
    assert c.mcc == pytest.approx(expected)


def test_from_pairs_and_sets():
    c = confusion([True, True, False, False], [True, False, True, False])
    assert (c.tp, c.fp, c.fn, c.tn) == (1, 1, 1, 1)
    assert c.mcc == 0.0
    s = set_confusion(["07:00", "09:00"], ["09:00", "11:00"])
    assert (s.tp, s.fp, s.fn) == (1, 1, 1)


def test_degenerate_cases_do_not_divide_by_zero():
    c = Confusion()
    assert (c.precision, c.recall, c.f1, c.accuracy, c.mcc) == (1.0, 1.0, 1.0, 0.0, 0.0)
    c += Confusion(tn=5)
    assert c.accuracy == 1.0 and c.mcc == 0.0
    assert c.as_dict()["tn"] == 5
