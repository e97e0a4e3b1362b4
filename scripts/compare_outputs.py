"""Identical outputs: this tree's extraction against another revision's, byte for byte.

    .venv/bin/python scripts/compare_outputs.py --against 0d0e780

Both trees run in child processes (REV's msze exported by benchmarks/revision.py) over the same inputs, with
the classifier model msze/models/hours.ftz of this tree, and write one JSON line per output:

- every labelled page's `msze extract`-style result (hours, masses, confessions) from its text
  (data/realpages, texts joined from ../shared/data and ../data, or $MSZE_TEXTS);
- the generated pages of benchmarks/fakeweb.py from their HTML: extract() (text included, so html_to_text
  is compared), and each site's pages through the crawl's page steps (language, template) with its
  consolidated schedule;
- every labelled parish's consolidated schedule, as `msze evaluate --sites` builds it (data/realsites and
  data/diocesan, joined to their texts the same way; a label whose text is not here is left out).

Prints how many outputs of each kind were compared and every difference; exits 1 on a difference.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
MODEL = ROOT / "msze" / "models" / "hours.ftz"


def _dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True)


def emit(inputs: dict[str, Any], out: Path) -> None:
    """The child's part: every output of the msze on PYTHONPATH, one `kind<TAB>key<TAB>JSON` line each."""
    from msze.archive.reprocess import page_steps
    from msze.classifier.model import HourClassifier
    from msze.cli.evaluate_sites import parish_schedule
    from msze.extraction.page import extract
    from msze.extraction.schedule import consolidate

    classifier = HourClassifier.load(inputs["model"])
    with open(out, "w", encoding="utf-8") as f:

        def write(kind: str, key: str, obj: Any) -> None:
            f.write(f"{kind}\t{key}\t{_dumps(obj)}\n")

        for key, text in inputs["realpages"]:
            x = extract(text, classifier)
            write("page", key, {"masses": x.masses, "hours": x.hours, "confessions": x.confessions})
        for site, pages in inputs["fakeweb"].items():
            for url, html in pages:
                x = extract("", classifier, html=html)
                write("html page", url, {"text": x.text, "masses": x.masses, "hours": x.hours})
            steps = page_steps(classifier)
            done = [steps.run({"url": url, "html": html, "domain": site}) for url, html in pages]
            for page in done:
                write("site page", page["url"], page)
            write("site schedule", site, consolidate(done))
        for key, parish in inputs["parishes"]:
            write("parish", key, parish_schedule(parish, classifier))


def labelled_inputs() -> dict[str, list[tuple[str, Any]]]:
    """The labelled pages' texts and parishes (with their pages' texts) found on this machine, by label."""
    from msze.cli.evaluate_sites import join_files
    from msze.labels.sets import join_pages, label_files
    from msze.labels.texts import JoinReport, TextStore

    os.chdir(ROOT)  # the label and text folders are relative to the repository's root
    store, report = TextStore(), JoinReport()
    pages = join_pages(label_files("realpages"), store, report)
    sets = join_files(label_files("realsites") + label_files("diocesan"), store, report)
    parishes = [
        (f"{Path(path).name}:{p.get('id') or p.get('source')}", p) for path, ps in sets.items() for p in ps
    ]
    if report.missing or report.changed:
        print(f"left out, no text here: {len(report.missing) + len(report.changed)} labels", file=sys.stderr)
    realpages = [(f"{p.get('id') or p['url']}", p["text"]) for p in pages]
    return {"realpages": realpages, "parishes": parishes}


def fakeweb_sites(count: int) -> dict[str, list[tuple[str, str]]]:
    """The (URL, HTML) pages of the first ``count`` working sites of the fake web."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import fakeweb

    sites: dict[str, list[tuple[str, str]]] = {}
    for n in range(count):
        spec = fakeweb.site_spec(n)
        if spec.fails or spec.drops:
            continue
        domain = fakeweb.host(n)
        sites[domain] = [(f"http://{domain}{p}", fakeweb.page_html(n, p).decode("utf-8")) for p in spec.pages]
    return sites


def _outputs(tree: Path, inputs_file: Path, out: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    cmd = [sys.executable, __file__, "--emit", str(inputs_file), str(out)]
    return subprocess.Popen(cmd, env=env, cwd=ROOT, text=True)


def _read(path: Path) -> dict[tuple[str, str], str]:
    with open(path, encoding="utf-8") as f:
        return {tuple(line.split("\t", 2)[:2]): line.split("\t", 2)[2] for line in f}  # type: ignore[misc]


def first_difference(old: Any, new: Any, where: str = "") -> str:
    """Where two JSON values first differ, and both sides there (shortened)."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(set(old) | set(new)):
            if old.get(key, "<missing>") != new.get(key, "<missing>"):
                return first_difference(
                    old.get(key, "<missing>"), new.get(key, "<missing>"), f"{where}.{key}"
                )
    if isinstance(old, list) and isinstance(new, list):
        for i, (a, b) in enumerate(zip(old, new, strict=False)):
            if a != b:
                return first_difference(a, b, f"{where}[{i}]")
        if len(old) != len(new):
            return f"{where}: {len(old)} items then, {len(new)} now"
    return f"{where}: then {_dumps(old)[:160]}, now {_dumps(new)[:160]}"


def compare(old: dict[tuple[str, str], str], new: dict[tuple[str, str], str]) -> list[str]:
    """Every key whose line differs (or is on one side only), with its first difference."""
    out = []
    for key in sorted(set(old) | set(new)):
        a, b = old.get(key), new.get(key)
        if a == b:
            continue
        if a is None or b is None:
            out.append(f"{key[0]} {key[1]}: only {'now' if a is None else 'then'}")
        else:
            out.append(f"{key[0]} {key[1]}{first_difference(json.loads(a), json.loads(b))}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", metavar="REV", help="the git revision to compare with")
    parser.add_argument("--sites", type=int, default=40, help="fake web sites whose pages are compared")
    parser.add_argument("--emit", nargs=2, metavar=("INPUTS", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.emit:
        emit(json.loads(Path(args.emit[0]).read_text(encoding="utf-8")), Path(args.emit[1]))
        return 0
    if not args.against:
        parser.error("--against REV is required")
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from revision import exported_tree

    inputs = {"model": str(MODEL), **labelled_inputs()}
    inputs["fakeweb"] = fakeweb_sites(args.sites)
    with exported_tree(args.against) as old_tree, tempfile.TemporaryDirectory() as tmp:
        inputs_file = Path(tmp) / "inputs.json"
        inputs_file.write_text(json.dumps(inputs, ensure_ascii=False), encoding="utf-8")
        children = [
            _outputs(tree, inputs_file, Path(tmp) / name) for tree, name in ((old_tree, "old"), (ROOT, "new"))
        ]
        if any(child.wait() != 0 for child in children):
            print("a child process failed", file=sys.stderr)
            return 2
        old, new = _read(Path(tmp) / "old"), _read(Path(tmp) / "new")
    kinds = Counter(kind for kind, _ in new)
    print(f"compared with {args.against}: " + ", ".join(f"{kind}: {n}" for kind, n in kinds.items()))
    differences = compare(old, new)
    for line in differences:
        print(f"  {line}")
    print(f"{len(differences)} differences" if differences else "identical")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
