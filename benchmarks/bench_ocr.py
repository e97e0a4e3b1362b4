"""OCR accuracy and cost: generated schedule images read by the project's OCR and hour extraction.

    .venv/bin/python benchmarks/bench_ocr.py              # 60 images (seed 0)
    .venv/bin/python benchmarks/bench_ocr.py --images 12 --seed 3 --misses
    .venv/bin/python benchmarks/bench_ocr.py --images 9 --seed 5 --size 12 --min-width 0  # small, not scaled

Each image is drawn by msze/testing/schedule_image.py (`varied_samples`: six DejaVu faces, 18-36 px, up to
±2.5° of rotation, JPEG quality 25-90 with pixel noise, one or two columns, "7:00" or "7.00", some with an
office's hours under the schedule), so its Mass times are known. The crawl's path reads it: `ocr_image`
(Tesseract, Polish), `clean_ocr_times`, then `extract()` (hours, rules; no classifier). Printed:

- Mass times found (distinct "HH:MM" per image, summed over the images): precision P, recall R, F1, and the
  images read exactly; by layout (one or two columns) and by JPEG quality band;
- time per image (OCR, and the extraction after it) in ms and as a ratio to the baseline of the same run:
  html_to_text + extract() of one generated parish HTML page (benchmarks/fakeweb.py), i.e. "an image costs as
  much as N pages".

Targets: P >= 0.95, R >= 0.90. docs/ocr.md holds the table.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from fakeweb import generated_pages  # noqa: E402

from msze.extraction import ocr as ocr_module  # noqa: E402
from msze.extraction.ocr import OK, clean_ocr_times, ocr_image  # noqa: E402
from msze.extraction.page import extract  # noqa: E402
from msze.extraction.text import html_to_text  # noqa: E402
from msze.testing.schedule_image import Schedule, Style, render_schedule, varied_samples  # noqa: E402


@dataclass
class Read:
    style: Style
    true: set[str]
    found: set[str]
    ocr_s: float
    extract_s: float
    status: str


def read_image(schedule: Schedule, style: Style) -> Read:
    """One image drawn, read by OCR and extracted, timed."""
    image = render_schedule(schedule, style)
    started = time.perf_counter()
    ocr = ocr_image(image)
    ocr_s = time.perf_counter() - started
    started = time.perf_counter()
    found = set(extract(clean_ocr_times(ocr.text)).masses) if ocr.status == OK else set()
    return Read(style, schedule.times(), found, ocr_s, time.perf_counter() - started, ocr.status)


def scores(reads: list[Read]) -> tuple[float, float, float, int]:
    """Precision, recall, F1 of the Mass times over `reads`, and how many images were read exactly."""
    tp = sum(len(r.true & r.found) for r in reads)
    fp = sum(len(r.found - r.true) for r in reads)
    fn = sum(len(r.true - r.found) for r in reads)
    p = tp / (tp + fp) if tp + fp else 1.0
    r = tp / (tp + fn) if tp + fn else 1.0
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f1, sum(r_.true == r_.found for r_ in reads)


def baseline_page_s(pages: int = 20) -> float:
    """Seconds per generated parish HTML page through html_to_text + extract(): the run's baseline."""
    htmls = generated_pages(pages)
    started = time.perf_counter()
    for html in htmls:
        extract(html_to_text(html))
    return (time.perf_counter() - started) / len(htmls)


def table(groups: dict[str, list[Read]]) -> list[str]:
    lines = ["| images | n | Mass times | P | R | F1 | read exactly |", "|---|---|---|---|---|---|---|"]
    for name, reads in groups.items():
        if not reads:
            continue
        p, r, f1, exact = scores(reads)
        times = sum(len(x.true) for x in reads)
        lines.append(f"| {name} | {len(reads)} | {times} | {p:.3f} | {r:.3f} | {f1:.3f} | {exact} |")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--images", type=int, default=60)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--misses", action="store_true", help="print each image that was not read exactly")
    parser.add_argument("--size", type=int, help="text size in px: SIZE, SIZE+1, SIZE+2 in turn")
    parser.add_argument("--min-width", type=int, help=f"ocr.MIN_WIDTH (default {ocr_module.MIN_WIDTH})")
    args = parser.parse_args()
    if args.min_width is not None:
        ocr_module.MIN_WIDTH = args.min_width
    samples = varied_samples(args.images, args.seed)
    if args.size:
        samples = [
            (sc, dataclasses.replace(st, size=args.size + i % 3)) for i, (sc, st) in enumerate(samples)
        ]
    base = baseline_page_s()
    reads = [read_image(schedule, style) for schedule, style in samples]
    groups = {
        "all": reads,
        "one column": [r for r in reads if r.style.columns == 1],
        "two columns": [r for r in reads if r.style.columns == 2],
        "JPEG quality < 50": [r for r in reads if r.style.quality < 50],
        "JPEG quality >= 50": [r for r in reads if r.style.quality >= 50],
        "rotated >= 1.5°": [r for r in reads if abs(r.style.rotation) >= 1.5],
        "size < 24 px": [r for r in reads if r.style.size < 24],
    }
    print("\n".join(table(groups)))
    ocr_ms = [r.ocr_s * 1000 for r in reads]
    ext_ms = statistics.mean(r.extract_s for r in reads) * 1000
    print()
    print(f"baseline: one generated HTML page (html_to_text + extract) {base * 1000:.1f} ms")
    print(
        f"OCR per image: median {statistics.median(ocr_ms):.0f} ms, max {max(ocr_ms):.0f} ms "
        f"(x{statistics.median(ocr_ms) / 1000 / base:.0f} a page); extraction after it {ext_ms:.1f} ms "
        f"(x{ext_ms / 1000 / base:.2f} a page)"
    )
    statuses = {s: sum(r.status == s for r in reads) for s in {r.status for r in reads}}
    print(f"OCR statuses: {statuses}")
    if args.misses:
        for i, r in enumerate(reads):
            if r.true != r.found:
                missed, extra = sorted(r.true - r.found), sorted(r.found - r.true)
                print(f"image {i}: {r.style} missed {missed} extra {extra}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
