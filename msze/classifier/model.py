"""The hour classifier: a fastText model that says, for an hour in its context, whether it is a Mass start.

``HourClassifier`` implements the ``HourScorer`` protocol of msze/extraction/page.py (``score_hours`` and
``threshold``). A model is a fastText file (``.bin`` or quantised ``.ftz``) plus an optional JSON sidecar
with the same stem (``hours.ftz`` → ``hours.json``) that records the feature version and window it was trained
with and its chosen threshold, so a model is not used with features it was not trained on.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from msze.classifier.features import (
    DEFAULT_AFTER,
    DEFAULT_BEFORE,
    DEFAULT_NEAR,
    FEATURES_VERSION,
    hour_features,
    page_features,
)

MASS_LABEL = "__label__mass"
DEFAULT_THRESHOLD = 0.5

# The default model (msze/models/README.md), resolved from the package: it works from any folder.
DEFAULT_MODEL_PATH = Path(__file__).resolve().parent.parent / "models" / "hours.ftz"


class ClassifierLoadError(Exception):
    """The model file is missing, unreadable or not a fastText hour model."""


def sidecar_path(model_path: str | os.PathLike[str]) -> Path:
    """Where the model's metadata lives: the model path with the suffix ``.json``."""
    return Path(model_path).with_suffix(".json")


def _span(hour: Any) -> tuple[int, int]:
    """(start, end) of an Hour dataclass or an hour dict."""
    if isinstance(hour, dict):
        return int(hour["start"]), int(hour["end"])
    return int(hour.start), int(hour.end)


class HourClassifier:
    """A loaded fastText hour model; ``score_hours`` gives P(mass) for each hour, ``threshold`` decides."""

    def __init__(
        self,
        model: Any,
        threshold: float = DEFAULT_THRESHOLD,
        before: int = DEFAULT_BEFORE,
        after: int = DEFAULT_AFTER,
        path: str | None = None,
        meta: dict[str, Any] | None = None,
        near: int = DEFAULT_NEAR,
    ) -> None:
        self.model = model
        self.threshold = float(threshold)
        self.before = int(before)
        self.after = int(after)
        self.near = int(near)
        self.path = path
        self.meta = meta or {}

    @classmethod
    def load(
        cls, path: str | os.PathLike[str] | None = None, threshold: float | None = None
    ) -> HourClassifier:
        """Load a model (default: ``msze/models/hours.ftz``); raise ClassifierLoadError if unusable.

        ``threshold`` overrides the one stored in the sidecar.
        """
        model_path = Path(path) if path else DEFAULT_MODEL_PATH
        if not model_path.is_file():
            raise ClassifierLoadError(
                f"hour classifier model not found: {model_path} "
                "(train one with `python -m msze train`, or set CLASSIFIER_MODEL / --model to a .ftz/.bin)"
            )
        meta: dict[str, Any] = {}
        side = sidecar_path(model_path)
        if side.is_file():
            try:
                meta = json.loads(side.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise ClassifierLoadError(
                    f"hour classifier metadata {side} is not valid JSON: {exc}"
                ) from exc
            version = meta.get("features_version")
            if version is not None and version != FEATURES_VERSION:
                raise ClassifierLoadError(
                    f"hour classifier model {model_path} was trained on features version {version}; "
                    f"this code makes version {FEATURES_VERSION}: retrain it (`python -m msze train`)"
                )
        try:
            import fasttext

            # fasttext.load_model() prints a deprecation warning to stderr; _FastText is what it returns.
            model = fasttext.FastText._FastText(model_path=str(model_path))
        except Exception as exc:  # fastText raises ValueError/RuntimeError/MemoryError on bad files
            raise ClassifierLoadError(
                f"hour classifier model {model_path} is not a usable fastText model: {exc}"
            ) from exc
        try:  # a truncated file loads without complaint and fails only when asked to predict
            _, probe = model.predict(hour_features("Msza 7:00", 5, 9), k=-1)
            if not all(0.0 <= float(p) <= 1.001 for p in probe):
                raise ValueError(f"probabilities out of range: {list(probe)}")
        except Exception as exc:
            raise ClassifierLoadError(
                f"hour classifier model {model_path} is not a usable fastText model (cannot predict): {exc}"
            ) from exc
        labels = set(model.get_labels())
        if MASS_LABEL not in labels:
            raise ClassifierLoadError(
                f"hour classifier model {model_path} has no {MASS_LABEL} label (labels: {sorted(labels)})"
            )
        if threshold is None:
            threshold = float(meta.get("threshold", DEFAULT_THRESHOLD))
        return cls(
            model,
            threshold=threshold,
            before=int(meta.get("before", DEFAULT_BEFORE)),
            after=int(meta.get("after", DEFAULT_AFTER)),
            near=int(meta.get("near", 0)),  # models from before `near` existed had none
            path=str(model_path),
            meta=meta,
        )

    def features(self, text: str, hour: Any) -> str:
        """The model's input line for one hour (Hour or hour dict) of ``text``."""
        start, end = _span(hour)
        return hour_features(text, start, end, before=self.before, after=self.after, near=self.near)

    def score_lines(self, lines: Sequence[str]) -> list[float]:
        """P(mass) for feature lines, in one batch call to fastText."""
        if not lines:
            return []
        labels, probs = self.model.predict(list(lines), k=-1)
        scores = []
        for line_labels, line_probs in zip(labels, probs, strict=True):
            p = 0.0
            for label, prob in zip(line_labels, line_probs, strict=True):
                if label == MASS_LABEL:
                    p = float(prob)
                    break
            scores.append(min(1.0, max(0.0, p)))  # fastText's softmax can overshoot 1 by 1e-5
        return scores

    def score_hours(self, text: str, hours: Iterable[Any]) -> list[float]:
        """P(mass) for each hour of ``text`` (Hour dataclasses or hour dicts), in order.

        The text is tokenised once and all its hours go to fastText in one batch.
        """
        spans = [_span(hour) for hour in hours]
        return self.score_lines(
            page_features(text, spans, before=self.before, after=self.after, near=self.near)
        )

    def is_mass(self, score: float) -> bool:
        """The decision for one score."""
        return score >= self.threshold


# --- Training -------------------------------------------------------------------------------------------

DEFAULT_PARAMS: dict[str, Any] = {
    "epoch": 25,
    "lr": 0.5,
    "wordNgrams": 3,
    "dim": 20,
    "minCount": 1,
    "bucket": 50_000,
    "loss": "softmax",
    "seed": 1,
    "thread": 1,  # one thread: the same data and seed give the same model
}


def labelled_line(label: str, features: str) -> str:
    """One fastText training line: ``__label__mass <features>``."""
    if label not in ("mass", "other"):
        raise ValueError(f"label must be 'mass' or 'other', not {label!r}")
    return f"__label__{label} {features}"


@contextlib.contextmanager
def _lines_file(lines: Sequence[str], workdir: str | None) -> Iterator[str]:
    """A temporary file holding ``lines`` (fastText trains and quantises only from a file), removed after."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", encoding="utf-8", dir=workdir, delete=False) as fh:
        fh.write("\n".join(lines) + "\n")
        name = fh.name
    try:
        yield name
    finally:
        os.unlink(name)


def train(lines: Sequence[str], params: dict[str, Any] | None = None, workdir: str | None = None) -> Any:
    """Train a fastText supervised model on labelled lines (``__label__mass ...``); returns the model."""
    import fasttext

    if not lines:
        raise ValueError("no training lines")
    merged = {**DEFAULT_PARAMS, **(params or {})}
    with _lines_file(lines, workdir) as name:
        return fasttext.train_supervised(input=name, verbose=0, **merged)


QUANTIZE_CUTOFF = 20_000


def quantize(
    model: Any, lines: Sequence[str], cutoff: int = QUANTIZE_CUTOFF, workdir: str | None = None
) -> Any:
    """Quantise a trained model in place; returns it.

    Product quantisation of the embeddings keeping the ``cutoff`` most useful words and n-grams, then the
    classifier retrained on ``lines`` (without the retraining, quantising lost dev F1 on the realpages
    data; with it, nothing: msze/models/README.md). fastText's quantiser needs at least 256 rows.
    """
    with _lines_file(lines, workdir) as name:
        model.quantize(input=name, retrain=bool(cutoff), cutoff=cutoff)
    return model


def save(model: Any, path: str | os.PathLike[str], meta: dict[str, Any]) -> Path:
    """Write the model and its JSON sidecar (feature window, threshold, how it was trained)."""
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save_model(str(out))
    sidecar_path(out).write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return out
