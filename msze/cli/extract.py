"""`python -m msze extract PATH...`: the crawl's conversion and extraction, offline, one JSON line per input.

PATH is an .html/.htm file (converted with html_to_text), a .txt file (taken as already-converted text; spans
index into it unchanged) or ``-`` for stdin (HTML if it looks like HTML). Other suffixes are read as HTML.
An input that cannot be read or processed is one `error:` line, and the next input is processed; a last
`extract:` line on stderr counts the failures and the pages whose text came from convert_html's fallback.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from msze.extraction.page import CLASSIFIER_ROLES, DEFAULT_CLASSIFIER_ROLE, TEXT_FALLBACK, HourScorer, extract
from msze.extraction.text import decode_bytes, looks_like_html

BINARY_PROBE = 1024  # bytes looked at to decide a file is binary (a NUL byte there: not a text page)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths", nargs="+", metavar="PATH", help=".html/.htm, .txt (already text) or - (stdin)"
    )
    parser.add_argument(
        "--model",
        help="fastText hour model that labels the hours the rules do not confirm "
        "(default: the committed msze/models/hours.ftz when it exists)",
    )
    parser.add_argument("--no-model", action="store_true", help="rules only, no classifier")
    parser.add_argument("--threshold", type=float, help="classifier threshold (default: the model's own)")
    parser.add_argument(
        "--classifier-role",
        choices=CLASSIFIER_ROLES,
        default=DEFAULT_CLASSIFIER_ROLE,
        help="what the classifier does with the hours the rules did not confirm: score them, label those "
        "the rules found no cue for (uncued), or label them all (default: %(default)s)",
    )
    parser.add_argument("--text", action="store_true", help="also print the converted text of each input")


def _read(path: str) -> tuple[bytes, bool]:
    """The input's bytes and whether it is already text (.txt)."""
    if path == "-":
        return sys.stdin.buffer.read(), False
    return Path(path).read_bytes(), Path(path).suffix.lower() == ".txt"


def process(
    path: str,
    classifier: HourScorer | None = None,
    with_text: bool = False,
    classifier_role: str = DEFAULT_CLASSIFIER_ROLE,
) -> dict[str, Any]:
    """One input → its JSON object; raises OSError if the file cannot be read."""
    data, is_text = _read(path)
    warnings: list[str] = []
    if not data.strip():
        warnings.append("empty input")
        text = ""
    elif b"\x00" in data[:BINARY_PROBE]:
        warnings.append("binary input skipped")
        text = ""
    else:
        decoded, warning = decode_bytes(data)
        if warning:
            warnings.append(warning)
        if path == "-":
            is_text = not looks_like_html(decoded)
        text = decoded
    html = None if is_text or not text else text
    result = extract("" if html else text, classifier, html=html, classifier_role=classifier_role)
    warnings.extend(result.warnings)
    out: dict[str, Any] = {
        "path": path,
        "masses": result.masses,
        "hours": result.hours,
        "confessions": result.confessions,
    }
    if with_text:
        out["text"] = result.text
    if warnings:
        out["warnings"] = warnings
    return out


def default_model() -> str | None:
    """The committed default model (msze.classifier.model.DEFAULT_MODEL_PATH) if it is there, else None."""
    from msze.classifier.model import DEFAULT_MODEL_PATH

    return str(DEFAULT_MODEL_PATH) if DEFAULT_MODEL_PATH.is_file() else None


def load_classifier(path: str, threshold: float | None = None) -> HourScorer:
    """The HourClassifier of a model file (fastText is imported only by HourClassifier.load)."""
    from msze.classifier.model import HourClassifier

    return HourClassifier.load(path, threshold=threshold)


def run(args: argparse.Namespace) -> int:
    classifier = None
    model = None if args.no_model else (args.model or default_model())
    if model:
        try:
            classifier = load_classifier(model, args.threshold)
        except Exception as exc:  # noqa: BLE001 - any load failure is reported the same way
            print(f"error: cannot load model {model}: {exc}", file=sys.stderr)
            return 2
    failed = fallbacks = 0
    for path in args.paths:
        try:
            out = process(path, classifier, args.text, args.classifier_role)
        except OSError as exc:
            print(f"error: cannot read {path}: {exc.strerror or exc}", file=sys.stderr)
            failed += 1
            continue
        except Exception as exc:  # noqa: BLE001 - one bad input must not stop the others
            print(f"error: {path}: {type(exc).__name__}: {' '.join(str(exc).split())[:200]}", file=sys.stderr)
            failed += 1
            continue
        for w in out.get("warnings", []):
            print(f"warning: {path}: {w}", file=sys.stderr)
        fallbacks += any(w.startswith(TEXT_FALLBACK) for w in out.get("warnings", []))
        print(json.dumps(out, ensure_ascii=False), flush=True)
    if failed or fallbacks:
        print(
            f"extract: {len(args.paths)} inputs, {failed} failed, {fallbacks} text fallbacks", file=sys.stderr
        )
    return 1 if failed else 0
