"""Without Tesseract, its Polish data, pdftoppm or chromium, the tests that need them fail saying what to
install (conftest.require_tesseract, require_chromium): they are never skipped."""

from __future__ import annotations

import shutil

import pytesseract
import pytest
from conftest import require_chromium, require_tesseract


def test_a_missing_chromium_fails_with_what_to_install() -> None:
    with pytest.raises(pytest.fail.Exception, match="apt-get install chromium"):
        require_chromium("/nonexistent/chromium")


def test_a_missing_tesseract_fails_with_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pytesseract.pytesseract, "tesseract_cmd", "/nonexistent/tesseract")
    with pytest.raises(pytest.fail.Exception, match="tesseract is missing: apt-get install tesseract-ocr"):
        require_tesseract()


def test_a_missing_pdftoppm_fails_with_what_to_install(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    tesseract = shutil.which("tesseract")
    if tesseract is None:
        pytest.fail("tesseract is missing: apt-get install tesseract-ocr tesseract-ocr-pol poppler-utils")
    monkeypatch.setattr(pytesseract.pytesseract, "tesseract_cmd", tesseract)
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty folder: no pdftoppm on it
    with pytest.raises(pytest.fail.Exception, match="pdftoppm is missing: .*poppler-utils"):
        require_tesseract()
