"""Precision, recall, F1, accuracy and MCC from a binary confusion matrix (the thesis's classifier measures).

Shared by `msze evaluate` (extraction) and the classifier's evaluation, so both report the same way.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass
class Confusion:
    """Counts of a binary decision against gold labels; positive = "is a Mass start"."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0

    def add(self, predicted: bool, actual: bool) -> None:
        if predicted and actual:
            self.tp += 1
        elif predicted:
            self.fp += 1
        elif actual:
            self.fn += 1
        else:
            self.tn += 1

    def __iadd__(self, other: Confusion) -> Confusion:
        self.tp += other.tp
        self.fp += other.fp
        self.fn += other.fn
        self.tn += other.tn
        return self

    @property
    def total(self) -> int:
        return self.tp + self.fp + self.fn + self.tn

    @property
    def precision(self) -> float:
        """TP / (TP + FP); 1.0 when nothing was predicted positive (no false claims were made)."""
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        """TP / (TP + FN); 1.0 when there was nothing to find."""
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def accuracy(self) -> float:
        return (self.tp + self.tn) / self.total if self.total else 0.0

    @property
    def mcc(self) -> float:
        """Matthews correlation coefficient; 0.0 when any marginal is empty (the usual convention)."""
        denom = math.sqrt(
            (self.tp + self.fp) * (self.tp + self.fn) * (self.tn + self.fp) * (self.tn + self.fn)
        )
        return (self.tp * self.tn - self.fp * self.fn) / denom if denom else 0.0

    def as_dict(self) -> dict[str, float | int]:
        return {
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "tn": self.tn,
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "f1": round(self.f1, 4),
            "accuracy": round(self.accuracy, 4),
            "mcc": round(self.mcc, 4),
        }


def confusion(predicted: Iterable[bool], actual: Iterable[bool]) -> Confusion:
    """The confusion matrix of paired predictions and gold labels."""
    c = Confusion()
    for p, a in zip(predicted, actual, strict=True):
        c.add(bool(p), bool(a))
    return c


def set_confusion(predicted: Iterable[str], actual: Iterable[str]) -> Confusion:
    """Page-level comparison of two sets (e.g. Mass times): TP common, FP extra, FN missed; TN stays 0."""
    p, a = set(predicted), set(actual)
    return Confusion(tp=len(p & a), fp=len(p - a), fn=len(a - p))
