"""`python -m msze train ...`: train the fastText hour classifier, score it, write the model.

Two modes:

* hold-out (default): examples from ``--data DIR`` (made by `msze dataset`) or straight from the sources
  (--realpages/--annotated/--annotator/--pages, split by site like `msze dataset`); trains on train, prints
  precision/recall/F1/accuracy/MCC on dev and test, writes ``--out`` (quantised ``.ftz`` when that costs
  nothing measurable on dev, else ``.bin``) and its JSON sidecar. ``--final`` then retrains on all examples
  before writing (the shipped model).
* ``--cv K``: site-grouped K-fold cross-validation over the --realpages pages (other sources only ever train):
  each fold's pages are scored by a model that saw none of their sites; prints page-level Mass-time scores of
  rules alone, classifier alone and rules ∪ classifier, per page kind, and hour-level classifier scores.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from msze.classifier import dataset as ds
from msze.classifier.features import DEFAULT_AFTER, DEFAULT_BEFORE, DEFAULT_NEAR, FEATURES_VERSION
from msze.classifier.metrics import Confusion, confusion, set_confusion
from msze.classifier.model import DEFAULT_PARAMS, HourClassifier, quantize, save, train
from msze.cli.dataset import add_source_arguments, collect, default_sources
from msze.extraction.hours import find_hours
from msze.extraction.page import extract
from msze.labels.sets import labelled_pages

# A quantised model may lose at most this much dev F1 / MCC to count as losing "nothing measurable".
QUANTIZE_TOLERANCE = 0.005


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_source_arguments(parser)
    parser.add_argument("--data", type=Path, help="a folder written by `msze dataset` (train/dev/test.jsonl)")
    parser.add_argument(
        "--out", type=Path, help="model file to write (.ftz; .bin when quantising would lose)"
    )
    parser.add_argument(
        "--cv", type=int, default=0, metavar="K", help="site-grouped K-fold CV on --realpages"
    )
    parser.add_argument(
        "--final", action="store_true", help="after scoring, retrain on all examples and save"
    )
    parser.add_argument("--quantize", choices=("auto", "yes", "no"), default="auto", help="default: auto")
    parser.add_argument(
        "--threshold", type=float, default=0.5, help="P(mass) at or above which an hour is mass"
    )
    parser.add_argument("--before", type=int, default=DEFAULT_BEFORE, help="feature window: tokens before")
    parser.add_argument("--after", type=int, default=DEFAULT_AFTER, help="feature window: tokens after")
    parser.add_argument(
        "--near",
        type=int,
        default=DEFAULT_NEAR,
        help="feature window: same-line tokens repeated with a prefix",
    )
    parser.add_argument("--epoch", type=int, default=DEFAULT_PARAMS["epoch"])
    parser.add_argument("--lr", type=float, default=DEFAULT_PARAMS["lr"])
    parser.add_argument("--word-ngrams", type=int, default=DEFAULT_PARAMS["wordNgrams"])
    parser.add_argument("--dim", type=int, default=DEFAULT_PARAMS["dim"])
    parser.add_argument("--min-count", type=int, default=DEFAULT_PARAMS["minCount"])
    parser.add_argument("--bucket", type=int, default=DEFAULT_PARAMS["bucket"])
    parser.add_argument("--loss", default=DEFAULT_PARAMS["loss"], choices=("softmax", "hs", "ova", "ns"))
    parser.add_argument(
        "--thresholds",
        default="0.3,0.5,0.7,0.8,0.9,0.95",
        help="--cv: also report the union at these thresholds (comma-separated)",
    )
    parser.add_argument("--report", type=Path, help="write the figures as JSON here")
    parser.add_argument("--show-errors", action="store_true", help="--cv: list each page's wrong union times")


def fasttext_params(args: argparse.Namespace) -> dict[str, Any]:
    return {
        **DEFAULT_PARAMS,
        "epoch": args.epoch,
        "lr": args.lr,
        "wordNgrams": args.word_ngrams,
        "dim": args.dim,
        "minCount": args.min_count,
        "bucket": args.bucket,
        "loss": args.loss,
    }


def lines_of(examples: list[ds.Example], before: int, after: int, near: int = DEFAULT_NEAR) -> list[str]:
    return [e.fasttext_line(before, after, near) for e in examples]


def train_classifier(
    examples: list[ds.Example], args: argparse.Namespace, params: dict[str, Any] | None = None
) -> HourClassifier:
    """A classifier trained on the examples (de-duplicated at the window in ``args``)."""
    unique = ds.dedupe(examples, args.before, args.after, args.near)
    model = train(lines_of(unique, args.before, args.after, args.near), params or fasttext_params(args))
    return HourClassifier(
        model, threshold=args.threshold, before=args.before, after=args.after, near=args.near
    )


def score_examples(clf: HourClassifier, examples: list[ds.Example]) -> Confusion:
    """Hour-level confusion of the classifier on labelled examples."""
    scores = clf.score_lines([e.feature_line(clf.before, clf.after, clf.near) for e in examples])
    return confusion((s >= clf.threshold for s in scores), (e.label == "mass" for e in examples))


def _fmt(name: str, c: Confusion, sets: bool = False) -> str:
    """One line of scores; ``sets`` (page-level Mass-time sets have no true negatives): P/R/F1 only."""
    d = c.as_dict()
    if sets:
        return (
            f"{name:<28} P {d['precision']:.3f}  R {d['recall']:.3f}  F1 {d['f1']:.3f}  "
            f"(tp {c.tp} fp {c.fp} fn {c.fn})"
        )
    return (
        f"{name:<28} P {d['precision']:.3f}  R {d['recall']:.3f}  F1 {d['f1']:.3f}  "
        f"acc {d['accuracy']:.3f}  MCC {d['mcc']:.3f}  (tp {c.tp} fp {c.fp} fn {c.fn} tn {c.tn})"
    )


# --- Page-level extraction --------------------------------------------------------------------------------


def page_masses(text: str, clf: HourClassifier | None) -> tuple[set[str], set[str], set[str]]:
    """(rules alone, classifier alone, rules ∪ classifier) Mass times of one page text."""
    rules = set(extract(text).masses)
    hours = find_hours(text)
    alone: set[str] = set()
    if clf is not None and hours:
        alone = {
            h.time for h, s in zip(hours, clf.score_hours(text, hours), strict=True) if s >= clf.threshold
        }
    union = set(extract(text, clf).masses) if clf is not None else rules
    return rules, alone, union


# --- Cross-validation -------------------------------------------------------------------------------------


def cross_validate(args: argparse.Namespace, pages: list[dict[str, Any]], extra: list[ds.Example]) -> dict:
    """Site-grouped K-fold CV over labelled pages; ``extra`` examples only ever train (minus test sites)."""
    site_of_page = {p["id"]: ds.site_of(p.get("url", "")) or f"page:{p['id']}" for p in pages}
    folds = ds.site_folds(site_of_page.values(), args.cv, seed=args.seed)
    thresholds = [float(t) for t in args.thresholds.split(",") if t.strip()]
    kinds: dict[str, dict[str, Confusion]] = defaultdict(lambda: defaultdict(Confusion))
    by_threshold: dict[float, Confusion] = defaultdict(Confusion)
    alone_by_threshold: dict[float, Confusion] = defaultdict(Confusion)
    hour_level = Confusion()
    for k, test_sites in enumerate(folds):
        train_pages = [p for p in pages if site_of_page[p["id"]] not in test_sites]
        test_pages = [p for p in pages if site_of_page[p["id"]] in test_sites]
        train_examples = ds.from_realpages(train_pages) + [e for e in extra if e.site not in test_sites]
        clf = train_classifier(train_examples, args)
        hour_level += score_examples(clf, ds.from_realpages(test_pages))
        for page in test_pages:
            gold = set(page.get("mass_times") or [])
            rules, alone, union = page_masses(page["text"], clf)
            if args.show_errors and union != gold:
                wrong = ", ".join(sorted(union - gold)) or "-"
                missed = ", ".join(sorted(gold - union)) or "-"
                print(f"  {page['id']} ({page.get('kind')}): false {wrong}; missed {missed}")
            for kind in ("all", page.get("kind") or "other"):
                kinds[kind]["rules"] += set_confusion(rules, gold)
                kinds[kind]["classifier"] += set_confusion(alone, gold)
                kinds[kind]["union"] += set_confusion(union, gold)
            for t in thresholds:
                clf.threshold = t
                _, alone_t, union_t = page_masses(page["text"], clf)
                by_threshold[t] += set_confusion(union_t, gold)
                alone_by_threshold[t] += set_confusion(alone_t, gold)
            clf.threshold = args.threshold
        print(
            f"fold {k + 1}/{args.cv}: {len(test_pages)} test pages, {len(train_examples)} training examples"
        )
    print(f"\npage-level Mass times, {args.cv}-fold site-grouped CV, threshold {args.threshold}:")
    for kind in ["all", *sorted(k for k in kinds if k != "all")]:
        for name in ("rules", "classifier", "union"):
            print(_fmt(f"{kind} / {name}", kinds[kind][name], sets=True))
    print("\nby threshold (all pages):")
    for t in thresholds:
        print(_fmt(f"classifier {t:.2f}", alone_by_threshold[t], sets=True))
        print(_fmt(f"union {t:.2f}", by_threshold[t], sets=True))
    print("\n" + _fmt("hour-level classifier", hour_level))
    return {
        "cv": args.cv,
        "threshold": args.threshold,
        "pages": {kind: {n: c.as_dict() for n, c in named.items()} for kind, named in kinds.items()},
        "union_by_threshold": {str(t): c.as_dict() for t, c in by_threshold.items()},
        "classifier_by_threshold": {str(t): c.as_dict() for t, c in alone_by_threshold.items()},
        "hours": hour_level.as_dict(),
    }


# --- Hold-out training ------------------------------------------------------------------------------------


def _load_splits(args: argparse.Namespace) -> dict[str, list[ds.Example]]:
    if args.data:
        return {name: ds.read_examples(args.data / f"{name}.jsonl") for name in ds.SPLITS}
    examples = ds.dedupe(collect(args), args.before, args.after, args.near)
    return ds.split_by_site(examples, seed=args.seed)


def _quantization_check(
    clf: HourClassifier, train_lines: list[str], dev: list[ds.Example], params: dict[str, Any]
) -> tuple[bool, dict[str, Any]]:
    """(lossless, figures): does a quantised copy of the hold-out model score as well on dev?"""
    q_model = quantize(train(train_lines, params), train_lines)
    q_clf = HourClassifier(
        q_model, threshold=clf.threshold, before=clf.before, after=clf.after, near=clf.near
    )
    if not dev:
        return True, {}
    full_dev, q_dev = score_examples(clf, dev), score_examples(q_clf, dev)
    print(_fmt("dev (full model)", full_dev))
    print(_fmt("dev (quantised)", q_dev))
    lossless = q_dev.f1 >= full_dev.f1 - QUANTIZE_TOLERANCE and q_dev.mcc >= full_dev.mcc - QUANTIZE_TOLERANCE
    return lossless, {"dev_full": full_dev.as_dict(), "dev_quantized": q_dev.as_dict()}


def _write_model(clf: HourClassifier, train_lines: list[str], quantized: bool, out: Path, meta: dict) -> Path:
    """Save ``clf`` (quantised first when ``quantized``) and its sidecar; a full model goes to ``.bin``."""
    model = clf.model
    if quantized:
        model = quantize(train(train_lines, meta["params"]), train_lines)
    else:
        out = out.with_suffix(".bin")
    meta["quantized"] = quantized
    save(model, out, meta)
    print(f"wrote {out} ({out.stat().st_size / 1024:.0f} KiB) and {out.with_suffix('.json')}")
    return out


def holdout(args: argparse.Namespace) -> dict:
    splits = _load_splits(args)
    for name in ds.SPLITS:
        n = len(splits[name])
        mass = sum(e.label == "mass" for e in splits[name])
        print(
            f"{name}: {n} examples ({mass} mass, {n - mass} other), "
            f"{len({e.site for e in splits[name]})} sites"
        )
    if not splits["train"]:
        raise ValueError("no training examples")
    params = fasttext_params(args)
    started = time.perf_counter()
    clf = train_classifier(splits["train"], args, params)
    print(f"trained in {time.perf_counter() - started:.1f} s")
    report: dict[str, Any] = {"params": params, "before": args.before, "after": args.after}
    for name in ("dev", "test"):
        if splits[name]:
            c = score_examples(clf, splits[name])
            print(_fmt(name, c))
            report[name] = c.as_dict()
    if args.out:
        train_lines = lines_of(
            ds.dedupe(splits["train"], args.before, args.after, args.near), args.before, args.after, args.near
        )
        quantized, q_figures = False, {}
        if args.quantize != "no":
            try:
                lossless, q_figures = _quantization_check(clf, train_lines, splits["dev"], params)
            except (RuntimeError, ValueError) as exc:  # e.g. fewer than 256 rows to quantise
                if args.quantize == "yes":
                    raise ValueError(f"cannot quantise: {exc}") from exc
                print(f"cannot quantise ({exc}): writing the full model")
                lossless = False
            quantized = args.quantize == "yes" or lossless
            if not quantized and q_figures:
                print("quantising lost on dev: writing the full model")
        train_examples = splits["train"]
        if args.final:
            train_examples = splits["train"] + splits["dev"] + splits["test"]
            print(f"--final: retraining on all {len(train_examples)} examples")
            clf = train_classifier(train_examples, args, params)
        unique = ds.dedupe(train_examples, args.before, args.after, args.near)
        meta = {
            "features_version": FEATURES_VERSION,
            "before": args.before,
            "after": args.after,
            "near": args.near,
            "threshold": args.threshold,
            "params": params,
            "trained_on": {"examples": len(unique), "final": bool(args.final)},
            "holdout": {"dev": report.get("dev"), "test": report.get("test"), **q_figures},
        }
        _write_model(clf, lines_of(unique, args.before, args.after, args.near), quantized, args.out, meta)
    return report


def run(args: argparse.Namespace) -> int:
    default_sources(args)
    try:
        if args.cv:
            if args.cv < 2 or not args.realpages:
                print("train: --cv K needs K ≥ 2 and --realpages files", file=sys.stderr)
                return 2
            pages = [p for path in args.realpages for p in labelled_pages(path, print)]
            extra_args = argparse.Namespace(**{**vars(args), "realpages": []})
            extra = (
                collect(extra_args)
                if (args.annotated or args.annotator or args.pages or args.corrections)
                else []
            )
            report = cross_validate(args, pages, extra)
        else:
            report = holdout(args)
    except (OSError, ValueError, KeyError) as exc:
        print(f"train: {exc}", file=sys.stderr)
        return 2
    if args.report:
        args.report.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0
