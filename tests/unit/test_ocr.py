"""OCR of schedule images (msze/extraction/ocr.py): the time mending on strings, and Tesseract on images drawn
here (msze/testing/schedule_image.py). Without Debian's tesseract-ocr-pol the image tests fail saying so."""

from __future__ import annotations

import os

import pytest

from msze.extraction.ocr import BROKEN, NO_TEXT, OK, clean_ocr_times, ocr_image, ocr_workers
from msze.extraction.page import extract
from msze.testing.schedule_image import FONTS, Schedule, Style, plain_image, render_schedule, varied_samples


@pytest.mark.parametrize(
    ("ocr", "mended"),
    [
        ("Niedziela 7.3O", "Niedziela 7.30"),
        ("l8.00 i 19.OO", "18.00 i 19.00"),
        ("1O:OO", "10:00"),
        ("godz. I2:3O", "godz. 12:30"),
        ("Msze: 7³⁰ i 18⁰⁰", "Msze: 7:30 i 18:00"),
        ("Niedziele: 730 900 1100 1800", "Niedziele: 7:30 9:00 11:00 18:00"),
    ],
)
def test_ocr_misreadings_of_times_are_mended(ocr: str, mended: str) -> None:
    assert clean_ocr_times(ocr) == mended


@pytest.mark.parametrize(
    "text",
    [
        "Rok 1930, tel. 730 100 200",  # no schedule words: numbers stay numbers
        "Parafia założona w 1945",
        "Niedziela 1945 r.",  # "r." after it: a year, not a time
        "lo.oo",  # no digit at all
        "Niedziela 25.99",  # not a clock time
        "Msza 7:30 ul. Długa 12/730",
    ],
)
def test_other_numbers_are_left_alone(text: str) -> None:
    assert clean_ocr_times(text) == text


def test_a_rendered_schedule_reads_back_as_its_mass_times(tesseract: None) -> None:
    schedule = Schedule()
    image = render_schedule(schedule, Style(font=FONTS[1], size=24, rotation=1.2, quality=35, noise=40))
    ocr = ocr_image(image)
    assert ocr.status == OK and 0.5 < ocr.confidence <= 1
    found = extract(clean_ocr_times(ocr.text))
    assert set(found.masses) == schedule.times()


def test_an_image_without_text_and_a_broken_one_are_statuses(tesseract: None) -> None:
    assert ocr_image(plain_image(400, 300)).status == NO_TEXT
    broken = ocr_image(b"\xff\xd8\xff\xe0 not really a JPEG")
    assert broken.status == BROKEN and broken.error


def test_varied_generated_schedules_read_at_the_accuracy_target(tesseract: None) -> None:
    """Six of benchmarks/bench_ocr.py's images (fonts, sizes, rotation, JPEG noise, two columns): the Mass
    times found reach the issue's targets P >= 0.95, R >= 0.90 (the benchmark prints them on 60)."""
    tp = fp = fn = 0
    samples = varied_samples(6, seed=0)
    assert {style.columns for _, style in samples} == {1, 2}
    assert len({style.font for _, style in samples}) == 6
    for schedule, style in samples:
        ocr = ocr_image(render_schedule(schedule, style))
        found = set(extract(clean_ocr_times(ocr.text)).masses)
        true = schedule.times()
        tp, fp, fn = tp + len(true & found), fp + len(found - true), fn + len(true - found)
    assert tp / (tp + fp) >= 0.95 and tp / (tp + fn) >= 0.90, (tp, fp, fn)


def test_tesseract_runs_with_one_openmp_thread_unless_told(tesseract: None, monkeypatch) -> None:
    image = plain_image(400, 300)
    monkeypatch.delenv("OMP_THREAD_LIMIT", raising=False)
    ocr_image(image)
    assert os.environ["OMP_THREAD_LIMIT"] == "1"  # inherited by the tesseract child
    monkeypatch.setenv("OMP_THREAD_LIMIT", "2")
    ocr_image(image)
    assert os.environ["OMP_THREAD_LIMIT"] == "2"


def test_ocr_concurrency_zero_is_one_child_a_core(monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: 6)
    assert ocr_workers(0) == 6 and ocr_workers(2) == 2
    monkeypatch.setattr(os, "cpu_count", lambda: None)
    assert ocr_workers(0) == 1
