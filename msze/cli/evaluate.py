"""`python -m msze evaluate GOLD.jsonl...`: score extraction against labelled pages.

Gold pages are in the format of ../shared/data/realpages: ``text``, ``tokens`` (every clock-time token with
its span and ``label`` mass/other) and ``mass_times``. Reported: the hour extractor's recall of gold tokens;
token-level precision/recall/F1/accuracy/MCC of "is a Mass start"; the same for page-level Mass-time sets; and
the mistakes with their context. With ``--model`` the rules, the classifier alone and their union are scored
side by side, and ``--plot`` draws the classifier's precision and recall against its threshold.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from msze.classifier.metrics import Confusion, set_confusion
from msze.cli.extract import load_classifier
from msze.extraction.hours import Hour, find_hours, find_hours_thesis
from msze.extraction.page import HourScorer, classifier_labels
from msze.extraction.rules import RuleDecision, decide
from msze.extraction.rules.reading import Reading
from msze.utils.vocabulary import WEEK


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "gold",
        nargs="*",
        help="JSONL files of labelled pages (realpages format, with their text or keyed by url and sha256); "
        "default: data/realpages",
    )
    parser.add_argument(
        "--sites",
        nargs="*",
        metavar="FILE",
        help="score the consolidated schedule of each parish of these files instead, each file and all "
        "together (msze/cli/evaluate_sites.py): realsites parishes with their texts, data/realsites labels "
        "(texts joined, see --texts) or data/diocesan rows; without FILE: data/realsites and data/diocesan",
    )
    parser.add_argument(
        "--texts",
        action="append",
        metavar="DIR",
        help="a folder of labelled texts (realpages/, realsites/ inside), repeatable; default $MSZE_TEXTS, "
        "else ../shared/data and ../data",
    )
    parser.add_argument(
        "--figures",
        metavar="JSON",
        help="write the figures of data/'s sets (pages, web parishes, diocesan rows) as the crawl reads "
        "them, with each page's and parish's outcome (msze/cli/quality.py)",
    )
    parser.add_argument(
        "--report",
        metavar="HTML",
        help="write one static page of every miss and false time of data/'s sets, with its sentence, what "
        "decided it and what was read (msze/cli/misses.py)",
    )
    parser.add_argument(
        "--check",
        metavar="BASELINE",
        help="recompute those figures and exit 1 when one fell below BASELINE (data/figures.json) by more "
        "than its tolerance, naming the pages and parishes that got worse",
    )
    parser.add_argument(
        "--model", help="fastText hour model (msze.classifier.model.HourClassifier) to score as well"
    )
    parser.add_argument("--threshold", type=float, help="classifier threshold (default: the model's own)")
    parser.add_argument(
        "--plot", metavar="PNG", help="draw classifier precision/recall vs threshold (needs --model)"
    )
    parser.add_argument(
        "--mistakes", type=int, default=50, help="how many mistakes to list (default 50; 0 = none)"
    )
    parser.add_argument("--json", action="store_true", help="print the scores as one JSON object")
    parser.add_argument(
        "--cv",
        type=int,
        metavar="K",
        help="site-grouped K-fold cross-validation: each fold's pages are scored by a classifier trained "
        "(with `msze train`'s defaults) on the other folds' sites only",
    )
    parser.add_argument("--seed", type=int, default=0, help="--cv: how sites are dealt into folds")


@dataclass
class Page:
    """One gold page with everything the scorers need computed once."""

    id: str
    text: str
    tokens: list[dict[str, Any]]
    mass_times: list[str]
    schedule: dict[str, list[str]] | None = None
    url: str = ""
    hours: list[Hour] = field(default_factory=list)
    decisions: list[RuleDecision] = field(default_factory=list)
    scores: list[float] | None = None
    # for every gold token, the index of the first overlapping hour (None = the extractor missed it)
    token_hour: list[int | None] = field(default_factory=list)


def load_gold(paths: Sequence[str]) -> list[Page]:
    """Read gold pages; raise ValueError naming the file and line of a broken record."""
    pages = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    r = json.loads(line)
                    text = r["text"]
                    tokens = r.get("tokens", [])
                    for t in tokens:
                        if text[t["start"] : t["end"]] != t["text"]:
                            raise ValueError(f"token {t['text']!r} does not match its span")
                    pid = str(r.get("id", f"{path}:{n}"))
                    mass_times = list(r.get("mass_times", []))
                    pages.append(Page(pid, text, tokens, mass_times, r.get("schedule"), r.get("url", "")))
                except (ValueError, KeyError, TypeError) as exc:
                    raise ValueError(f"{path}:{n}: not a gold page ({exc})") from exc
    return pages


def prepare(pages: Sequence[Page], classifier: HourScorer | None = None) -> None:
    for p in pages:
        p.hours = find_hours(p.text)
        p.decisions = decide(p.text, p.hours)
        if classifier is not None:
            p.scores = list(classifier.score_hours(p.text, p.hours)) if p.hours else []
        p.token_hour = []
        for t in p.tokens:
            hit = next((i for i, h in enumerate(p.hours) if h.start < t["end"] and t["start"] < h.end), None)
            p.token_hour.append(hit)


Predictor = Callable[[Page, int], bool]  # (page, hour index) -> labelled mass?


def rules_pred(p: Page, i: int) -> bool:
    return p.decisions[i].is_mass


def classifier_pred(threshold: float) -> Predictor:
    return lambda p, i: p.scores is not None and p.scores[i] >= threshold


def union_pred(threshold: float, role: str = "all") -> Predictor:
    """What the page steps do with CLASSIFIER_ROLE ``role``: the rules, and the classifier on the hours the
    role lets it label ("all": every hour the rules did not confirm; "uncued": those without a cue)."""
    clf = classifier_pred(threshold)
    return lambda p, i: rules_pred(p, i) or (classifier_labels(role, p.decisions[i].reason) and clf(p, i))


@dataclass
class Score:
    tokens: Confusion
    pages: Confusion
    mistakes: list[dict[str, Any]]


def _line_context(text: str, start: int, end: int, width: int = 70) -> str:
    a = max(0, start - width)
    b = min(len(text), end + width)
    return (text[a:start] + "[" + text[start:end] + "]" + text[end:b]).replace("\n", " ⏎ ")


def score(pages: Sequence[Page], pred: Predictor) -> Score:
    """Token-level and page-level confusion of a predictor, and its mistakes.

    A gold token is predicted mass when an overlapping hour is labelled mass; a mass hour that overlaps
    no gold token is a false positive too (gold tokens are every clock time on the page).
    """
    tok, pag = Confusion(), Confusion()
    mistakes: list[dict[str, Any]] = []
    for p in pages:
        covered: set[int] = set()
        for t, hi in zip(p.tokens, p.token_hour, strict=True):
            predicted = hi is not None and pred(p, hi)
            actual = t["label"] == "mass"
            tok.add(predicted, actual)
            if hi is not None:
                covered.add(hi)
            if predicted != actual:
                mistakes.append(
                    {
                        "page": p.id,
                        "kind": "FP" if predicted else ("FN (not extracted)" if hi is None else "FN"),
                        "time": p.hours[hi].time if hi is not None else t["text"],
                        "reason": p.decisions[hi].reason if hi is not None else "",
                        "context": _line_context(p.text, t["start"], t["end"]),
                    }
                )
        masses = set()
        for i, h in enumerate(p.hours):
            if pred(p, i):
                masses.add(h.time)
                if i not in covered:
                    tok.add(True, False)
                    mistakes.append(
                        {
                            "page": p.id,
                            "kind": "FP (not a gold token)",
                            "time": h.time,
                            "reason": p.decisions[i].reason,
                            "context": _line_context(p.text, h.start, h.end),
                        }
                    )
        pag += set_confusion(masses, p.mass_times)
    return Score(tok, pag, mistakes)


def extractor_recall(pages: Sequence[Page]) -> tuple[int, int]:
    found = sum(hi is not None for p in pages for hi in p.token_hour)
    return found, sum(len(p.tokens) for p in pages)


def _day_keys(reading: Reading, saturday_apart: bool) -> set[str]:
    """The gold schedule's day keys (sunday / weekday / saturday) of the days a reading names. The gold
    counts Saturday among weekdays unless the page gives Saturday apart (``saturday_apart``): then "w piątek
    i sobotę" is weekday and Saturday, and so is a Saturday-evening Mass of Sunday (Sunday too). A holy days'
    list of its own ("Msze w Święta:") is no Sunday; the Sunday order an occasion gives by reference ("Msze
    według porządku niedzielnego: 7.00, 9.00") is Sunday's, as the site's schedule takes it."""
    if reading.sunday_order:
        return {"sunday"}
    if reading.days is None or reading.kind != "regular":
        return set()
    days = set(reading.days.days)
    if reading.days.generic and len(days) == len(WEEK):
        days.discard("sun")  # "codziennie": the weekdays
    keys = {"sunday"} if "sun" in days else set()
    if days & set(WEEK[:5]) or ("sat" in days and not saturday_apart):
        keys.add("weekday")
    if saturday_apart and ("sat" in days or reading.vigil):
        keys.add("saturday")
    return keys


def schedule_recall(pages: Sequence[Page]) -> tuple[int, int, int, int]:
    """Of the gold schedules' (day, time) pairs, how many the rules label mass on that day; and of the
    pairs they report at a time the schedule lists, how many the schedule has: (found, total, right,
    reported)."""
    found = total = right = reported = 0
    for p in pages:
        if not p.schedule:
            continue
        apart = "saturday" in p.schedule
        got = {
            (key, h.time)
            for h, d in zip(p.hours, p.decisions, strict=True)
            if d.is_mass
            for key in _day_keys(d.reading, apart)
        }
        gold = {(day, t) for day, times in p.schedule.items() for t in times}
        total += len(gold)
        found += len(gold & got)
        times = {t for _, t in gold}
        at_times = {g for g in got if g[1] in times}
        reported += len(at_times)
        right += len(at_times & gold)
    return found, total, right, reported


def _pairs(days: Sequence[str], time: str) -> set[tuple[str, str]]:
    return {(d, time) for d in days}


def structured(p: Page) -> bool:
    """Gold pages whose Mass tokens carry the structure (days, church, season, kind...)."""
    return any(t["label"] == "mass" for t in p.tokens) and all(
        "days" in t for t in p.tokens if t["label"] == "mass"
    )


def schedule_pairs(pages: Sequence[Page], pred: Predictor) -> dict[str, Any]:
    """On pages that state a weekly schedule: of its (day-of-week, time) pairs, how many are reported, and of
    the reported pairs whose time the schedule lists, how many carry a right day."""
    found = total = right = reported = 0
    for p in pages:
        if not p.schedule or not structured(p):
            continue
        gold: set[tuple[str, str]] = set()
        for t, i in zip(p.tokens, p.token_hour, strict=True):
            if t["label"] == "mass" and t.get("kind") == "regular":
                gold |= _pairs(t["days"], t.get("time") or (p.hours[i].time if i is not None else t["text"]))
        got: set[tuple[str, str]] = set()
        for i, h in enumerate(p.hours):
            r = p.decisions[i].reading
            if pred(p, i) and r.kind == "regular" and r.days is not None:
                got |= _pairs(r.days.ordered(), h.time)
        times = {t for _, t in gold}
        total += len(gold)
        found += len(gold & got)
        in_schedule = {g for g in got if g[1] in times}
        reported += len(in_schedule)
        right += len(in_schedule & gold)
    return {
        "pairs": total,
        "pairs_found": found,
        "pair_recall": round(found / total, 4) if total else 1.0,
        "reported_in_schedule": reported,
        "reported_right_day": right,
        "day_precision": round(right / reported, 4) if reported else 1.0,
    }


def field_agreement(pages: Sequence[Page], pred: Predictor) -> dict[str, dict[str, Any]]:
    """For gold Mass tokens the system also labels mass: how often each field of the reading agrees."""
    fields: dict[str, list[int]] = {
        k: [0, 0] for k in ("days", "vigil", "church", "season", "kind", "date", "tags")
    }
    for p in pages:
        if not structured(p):
            continue
        for t, i in zip(p.tokens, p.token_hour, strict=True):
            if t["label"] != "mass" or i is None or not pred(p, i):
                continue
            r = p.decisions[i].reading
            got = {
                "days": set(r.days.ordered()) if r.days is not None else set(),
                "vigil": r.vigil,
                "church": r.church is not None,
                "season": r.season is not None,
                "kind": r.kind,
                "date": r.date_text(),
                "tags": set(r.tags),
            }
            want = {
                "days": set(t.get("days") or ()),
                "vigil": bool(t.get("vigil")),
                "church": t.get("church") is not None,
                "season": t.get("season") is not None,
                "kind": t.get("kind"),
                "date": t.get("date"),
                "tags": set(t.get("tags") or ()),
            }
            for k in fields:
                if k == "date" and want["kind"] != "one_off":
                    continue
                fields[k][1] += 1
                fields[k][0] += got[k] == want[k]
    return {k: _ratio(a, n) for k, (a, n) in fields.items()}


def cross_scores(pages: Sequence[Page], k: int, seed: int = 0, threshold: float | None = None) -> float:
    """Site-grouped K-fold CV: every page's hours scored by a classifier trained, with `msze train`'s
    defaults, on the pages of the other folds' sites. Returns the threshold the folds' models use."""
    from msze.classifier import dataset as ds
    from msze.cli import train

    parser = argparse.ArgumentParser()
    train.add_arguments(parser)
    targs = parser.parse_args([] if threshold is None else ["--threshold", str(threshold)])
    site = {p.id: ds.site_of(p.url) or f"page:{p.id}" for p in pages}
    for fold in ds.site_folds(site.values(), k, seed=seed):
        rows = [
            {"id": p.id, "url": p.url, "text": p.text, "tokens": p.tokens}
            for p in pages
            if site[p.id] not in fold
        ]
        clf = train.train_classifier(ds.from_realpages(rows), targs)
        for p in pages:
            if site[p.id] in fold:
                p.scores = list(clf.score_hours(p.text, p.hours)) if p.hours else []
    return float(targs.threshold)


def thesis_recall(pages: Sequence[Page]) -> int:
    """Gold tokens the thesis extractor alone (regex + borders) finds, for comparison."""
    found = 0
    for p in pages:
        spans = find_hours_thesis(p.text)
        found += sum(any(a < t["end"] and t["start"] < b for a, b in spans) for t in p.tokens)
    return found


def threshold_curve(pages: Sequence[Page], steps: int = 101) -> list[tuple[float, Confusion, Confusion]]:
    """(threshold, classifier-alone confusion, union confusion) at evenly spaced thresholds, token level."""
    out = []
    for k in range(steps):
        th = k / (steps - 1)
        out.append((th, score(pages, classifier_pred(th)).tokens, score(pages, union_pred(th)).tokens))
    return out


def plot_curve(curve: list[tuple[float, Confusion, Confusion]], chosen: float, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xs = [c[0] for c in curve]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ax.plot(xs, [c[1].precision for c in curve], label="classifier precision", color="tab:blue")
    ax.plot(xs, [c[1].recall for c in curve], label="classifier recall", color="tab:orange")
    ax.plot(xs, [c[2].precision for c in curve], "--", label="rules ∪ classifier precision", color="tab:blue")
    ax.plot(xs, [c[2].recall for c in curve], "--", label="rules ∪ classifier recall", color="tab:orange")
    ax.axvline(chosen, color="gray", linestyle=":", label=f"threshold {chosen:.2f}")
    ax.set_xlabel("classifier threshold")
    ax.set_ylabel("token-level score")
    ax.set_ylim(0, 1.02)
    ax.legend(loc="lower left", fontsize=8)
    ax.set_title("Mass-start tokens: precision and recall vs threshold")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def _ratio(found: int, total: int) -> dict[str, float | int]:
    return {"found": found, "total": total, "recall": round(found / total, 4) if total else 1.0}


def _fmt(name: str, c: Confusion) -> str:
    return (
        f"  {name:<28} P={c.precision:.3f} R={c.recall:.3f} F1={c.f1:.3f} acc={c.accuracy:.3f} "
        f"MCC={c.mcc:.3f}  (tp={c.tp} fp={c.fp} fn={c.fn} tn={c.tn})"
    )


def run(args: argparse.Namespace) -> int:
    if args.figures or args.check or args.report:
        return _run_quality(args)
    if args.sites is not None:
        return _run_sites(args)
    try:
        pages, classifier = _inputs(args)
    except _UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    prepare(pages, classifier)
    threshold = classifier.threshold if classifier is not None else None
    if args.cv:
        threshold = cross_scores(pages, args.cv, args.seed, args.threshold)
    preds: dict[str, Predictor] = {"rules": rules_pred}
    if threshold is not None:
        preds["classifier"] = classifier_pred(threshold)
        preds["rules ∪ classifier"] = union_pred(threshold)
        preds["rules ∪ classifier (no cue)"] = union_pred(threshold, "uncued")
    systems = {name: score(pages, pred) for name, pred in preds.items()}
    if args.plot and threshold is not None:
        plot_curve(threshold_curve(pages), threshold, args.plot)
    result = _result(pages, threshold, systems)
    result["cv"] = args.cv
    result["structure"] = {
        name: {"schedule": schedule_pairs(pages, pred), "fields": field_agreement(pages, pred)}
        for name, pred in preds.items()
        if name != "classifier"
    }
    if args.json:
        result["mistakes"] = {name: s.mistakes for name, s in systems.items()}
        print(json.dumps(result, ensure_ascii=False))
    else:
        _report(result, systems, args)
    return 0


def _report_structure(structure: dict[str, Any]) -> None:
    """The reading of each Mass hour: (day, time) pairs of the stated schedules, and field agreement."""
    for name, figures in structure.items():
        sched = figures["schedule"]
        if not sched["pairs"]:
            continue
        print(
            f"{name}: schedule (day-of-week, time) pairs found {sched['pair_recall']:.3f} "
            f"({sched['pairs_found']}/{sched['pairs']}); reported pairs at a schedule time with a right day "
            f"{sched['day_precision']:.3f} ({sched['reported_right_day']}/{sched['reported_in_schedule']})"
        )
        agree = ", ".join(
            f"{k} {v['recall']:.3f} ({v['found']}/{v['total']})"
            for k, v in figures["fields"].items()
            if v["total"]
        )
        print(f"  agreement on the Mass tokens both label mass: {agree}")


ALL_FILES = "all files"


def _run_sites(args: argparse.Namespace) -> int:
    from msze.cli import evaluate_sites

    if args.gold or args.cv or args.plot:
        print("error: --sites takes no gold pages, --cv or --plot", file=sys.stderr)
        return 2
    try:
        sets = _site_files(args.sites, args.texts) if args.sites else _data_sites(args.texts)
        classifier = load_classifier(args.model, args.threshold) if args.model else None
    except OSError as exc:
        print(f"error: cannot read sites file: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 - a broken file or model: one line
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.sites and len(sets) > 1:  # each file, then all of them together
        sets[ALL_FILES] = [parish for parishes in sets.values() for parish in parishes]
    results = {}
    for name, parishes in sets.items():
        figures = evaluate_sites.score_sites(parishes, classifier).as_dict()
        figures["classifier"] = args.model
        results[name] = figures
        if not args.json:
            print(f"{name}:")
            evaluate_sites.report(figures)
    if args.json and args.sites:  # the files' figures together, each file's under "files" when several
        combined = results.pop(ALL_FILES, None) or next(iter(results.values()))
        print(json.dumps({**combined, "files": results if len(results) > 1 else {}}, ensure_ascii=False))
    elif args.json:
        print(json.dumps(results, ensure_ascii=False))
    return 0


def _site_files(paths: list[str], texts: list[str] | None) -> dict[str, list[dict[str, Any]]]:
    """The parishes of each sites file given, their texts joined (msze.cli.evaluate_sites.join_files)."""
    from msze.cli.evaluate_sites import join_files
    from msze.labels.texts import JoinReport, TextStore

    report = JoinReport()
    sets = join_files(paths, TextStore(texts), report)
    _say_unjoined(report)
    return sets


def _data_sites(texts: list[str] | None) -> dict[str, list[dict[str, Any]]]:
    """data/realsites (web parishes, texts joined) and data/diocesan (rows of the thesis's TSVs)."""
    from msze.labels.sets import join_diocesan, join_sites, label_files
    from msze.labels.texts import JoinReport, TextStore

    web, diocesan = JoinReport(), JoinReport()
    sets = {
        "web parishes (data/realsites)": join_sites(label_files("realsites"), TextStore(texts), web),
        "diocesan rows (data/diocesan)": join_diocesan(label_files("diocesan"), diocesan),
    }
    for report in (web, diocesan):
        _say_unjoined(report)
    return sets


def _say_unjoined(report: Any) -> None:
    for line in report.missing:
        print(f"warning: no text for label {line}; left out", file=sys.stderr)
    for line in report.changed:
        print(f"warning: the text of label {line} changed since it was labelled; left out", file=sys.stderr)


def _run_quality(args: argparse.Namespace) -> int:
    from msze.cli import quality
    from msze.cli.extract import default_model
    from msze.labels.texts import SHARED_TEXTS

    classifier = load_classifier(args.model or default_model(), args.threshold)
    # The guarded figures are those of the texts every machine has: ../shared/data, not a local folder.
    roots = args.texts or [SHARED_TEXTS]
    figures = quality.compute(classifier, roots=roots)
    if args.figures:
        quality.write(figures, args.figures)
        print(f"figures written to {args.figures}")
    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            f.write(quality.report(classifier, roots=args.texts))  # every text there is, local ones too
        print(f"misses written to {args.report}")
    if not args.check:
        return 0
    with open(args.check, encoding="utf-8") as f:
        fallen = quality.regressions(json.load(f), figures)
    for line in fallen:
        print(line)
    if fallen:
        print(f"evaluate: {sum(not x.startswith(' ') for x in fallen)} figure(s) fell below {args.check}")
        return 1
    print(f"evaluate: no figure fell below {args.check}")
    return 0


def _data_pages(texts: list[str] | None) -> list[Page]:
    """data/realpages' labels with their texts joined (those without one are named on stderr)."""
    from msze.labels.sets import join_pages, label_files
    from msze.labels.texts import JoinReport, TextStore

    report = JoinReport()
    records = join_pages(label_files("realpages"), TextStore(texts), report)
    _say_unjoined(report)
    if not records:
        raise _UsageError("no labelled page has its text here: give GOLD.jsonl files, or --texts DIR")
    return [
        Page(
            str(r["id"]),
            r["text"],
            r.get("tokens", []),
            list(r.get("mass_times", [])),
            r.get("schedule"),
            r["url"],
        )
        for r in records
    ]


class _UsageError(Exception):
    """A gold file or model that cannot be used: one line, exit status 2."""


def _inputs(args: argparse.Namespace) -> tuple[list[Page], HourScorer | None]:
    """The gold pages and the classifier (None without --model)."""
    try:
        pages = load_gold(args.gold) if args.gold else _data_pages(args.texts)
    except OSError as exc:
        raise _UsageError(f"cannot read gold file: {exc}") from exc
    except ValueError as exc:
        raise _UsageError(str(exc)) from exc
    if args.plot and not args.model:
        raise _UsageError("--plot needs --model")
    if args.plot and importlib.util.find_spec("matplotlib") is None:
        raise _UsageError("--plot needs matplotlib: pip install 'msze[plot]'")
    if not args.model:
        return pages, None
    try:
        return pages, load_classifier(args.model, args.threshold)
    except Exception as exc:  # noqa: BLE001 - any load failure is reported the same way
        raise _UsageError(f"cannot load model {args.model}: {exc}") from exc


def _result(pages: list[Page], threshold: float | None, systems: dict[str, Score]) -> dict[str, Any]:
    found, total = extractor_recall(pages)
    found_pairs, total_pairs, right_pairs, reported_pairs = schedule_recall(pages)
    return {
        "pages": len(pages),
        "gold_tokens": total,
        "gold_tokens_found": found,
        "extractor_recall": round(found / total, 4) if total else 1.0,
        "thesis_extractor_recall": round(thesis_recall(pages) / total, 4) if total else 1.0,
        "schedule_day_recall": _ratio(found_pairs, total_pairs),
        "schedule_day_precision": {
            "right": right_pairs,
            "reported": reported_pairs,
            "precision": round(right_pairs / reported_pairs, 4) if reported_pairs else 1.0,
        },
        "hours_found": sum(len(p.hours) for p in pages),
        "threshold": threshold,
        "systems": {
            name: {"tokens": s.tokens.as_dict(), "pages": s.pages.as_dict()} for name, s in systems.items()
        },
    }


def _report(result: dict[str, Any], systems: dict[str, Score], args: argparse.Namespace) -> None:
    total, found = result["gold_tokens"], result["gold_tokens_found"]
    print(f"{result['pages']} pages, {total} gold clock-time tokens, {result['hours_found']} hours extracted")
    print(f"hour extractor recall of gold tokens: {result['extractor_recall']:.4f} ({found}/{total})")
    print(f"  (the thesis regex and borders alone: {result['thesis_extractor_recall']:.4f})")
    if result["threshold"] is not None:
        cv = f", {result['cv']}-fold site-grouped cross-validation" if result["cv"] else ""
        print(f"classifier threshold: {result['threshold']:.3f}{cv}")
    sched, days = result["schedule_day_recall"], result["schedule_day_precision"]
    if sched["total"]:
        print(
            f"rules: gold schedule (day, time) pairs found with the right day: {sched['recall']:.4f} "
            f"({sched['found']}/{sched['total']}); reported pairs at a schedule time with a right day: "
            f"{days['precision']:.4f} ({days['right']}/{days['reported']})"
        )
    print("Mass start, token level:")
    for name, s in systems.items():
        print(_fmt(name, s.tokens))
    print("Mass times, page level (distinct HH:MM per page; no true negatives, so no accuracy/MCC):")
    for name, s in systems.items():
        c = s.pages
        scores = f"P={c.precision:.3f} R={c.recall:.3f} F1={c.f1:.3f}"
        print(f"  {name:<28} {scores}  (tp={c.tp} fp={c.fp} fn={c.fn})")
    _report_structure(result["structure"])
    if args.mistakes:
        for name, s in systems.items():
            print(f"\nmistakes of {name} ({len(s.mistakes)}):")
            for m in s.mistakes[: args.mistakes]:
                print(f"  {m['page']:<6} {m['kind']:<22} {m['time']} [{m['reason']}]  {m['context']}")
    if args.plot:
        print(f"\nplot written to {args.plot}")
