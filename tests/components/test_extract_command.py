"""`python -m msze extract`: one JSON line per input, warnings and exit codes for bad input."""

import io
import json
import subprocess
import sys
from pathlib import Path

from schema_check import check

from msze.cli import main
from msze.cli.extract import default_model

HTML = """<html><head><meta charset="utf-8"></head><body>
<h2>Msze <b>święte</b></h2>
<table><tr><td>Niedziela</td><td>8<sup>00</sup>, 10<sup>30</sup></td></tr>
<tr><td>Dni powszednie</td><td>18<sup>00</sup></td></tr></table>
<p>Kancelaria czynna 16:00-17:00</p>
</body></html>"""


def run_extract(capsys, *args):
    """Rules only (--no-model): these tests pin the rules' result, whatever the committed model says."""
    status = main(["extract", "--no-model", *args])
    out, err = capsys.readouterr()
    return status, [json.loads(line) for line in out.splitlines()], err


def test_html_and_txt(tmp_path, capsys):
    page = tmp_path / "msze.html"
    page.write_text(HTML, encoding="utf-8")
    txt = tmp_path / "plain.txt"
    text = "Porządek Mszy św.:\nw niedziele 7.oo, 9.3o\n"
    txt.write_text(text, encoding="utf-8")
    status, rows, err = run_extract(capsys, str(page), str(txt))
    assert status == 0 and err == ""
    assert rows[0]["path"] == str(page)
    assert rows[0]["masses"] == ["08:00", "10:30", "18:00"]
    assert {h["label"] for h in rows[0]["hours"] if h["time"] in ("16:00", "17:00")} == {"other"}
    assert rows[1]["masses"] == ["07:00", "09:30"]
    for h in rows[1]["hours"]:  # spans index the .txt input unchanged
        assert text[h["start"] : h["end"]] == h["text"]


def test_cp1250_page_is_decoded(tmp_path, capsys):
    page = tmp_path / "stara.htm"
    page.write_bytes(
        '<meta charset="windows-1250"><p>Msze święte: niedziela 9:00, 11:00</p>'.encode("cp1250")
    )
    status, rows, _ = run_extract(capsys, str(page))
    assert status == 0 and rows[0]["masses"] == ["09:00", "11:00"]


def test_empty_binary_and_missing(tmp_path, capsys):
    empty = tmp_path / "empty.html"
    empty.write_bytes(b"")
    binary = tmp_path / "film.html"
    binary.write_bytes(b"\x00\x01\x02ftypmp42" * 100)
    status, rows, err = run_extract(capsys, str(empty), str(binary), str(tmp_path / "missing.html"))
    assert status == 1
    assert [r["masses"] for r in rows] == [[], []]
    assert "empty input" in err and "binary input skipped" in err
    assert "cannot read" in err and "missing.html" in err


def test_stdin(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO("<p>Msze św. o 18:00</p>".encode())))
    status, rows, _ = run_extract(capsys, "-")
    assert status == 0 and rows[0]["path"] == "-" and rows[0]["masses"] == ["18:00"]


def test_unloadable_model_is_a_clear_error(tmp_path, capsys):
    status = main(["extract", "--model", str(tmp_path / "nope.ftz"), str(tmp_path)])
    _, err = capsys.readouterr()
    assert status == 2 and "cannot load model" in err


def test_subprocess_entry_point(tmp_path):
    page = tmp_path / "p.html"
    page.write_text(HTML, encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-m", "msze", "extract", "--no-model", str(page)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert json.loads(out)["masses"] == ["08:00", "10:30", "18:00"]


def test_mixed_encodings_decode_line_by_line(tmp_path, capsys):
    page = tmp_path / "mieszana.html"
    utf8 = "<p>Msze święte: niedziela 9:00, 11:00</p>\n".encode()
    legacy = "<p>Kancelaria czynna: środa 16:00-17:00</p>\n".encode("cp1250")
    page.write_bytes(utf8 * 3 + legacy)
    status, rows, err = run_extract(capsys, str(page), "--text")
    assert status == 0 and rows[0]["masses"] == ["09:00", "11:00"]
    assert "święte" in rows[0]["text"] and "środa" in rows[0]["text"]
    assert "mixed encodings" in err


def test_default_model_scores_the_rest_and_labels_it_with_role_all(tmp_path, capsys):
    assert default_model() is not None, "the packaged model msze/models/hours.ftz is missing"
    page = tmp_path / "p.txt"
    page.write_text("Msze św.: 7.00, 18.00\nW piątek o 19.00 spotkanie.\n", encoding="utf-8")
    assert main(["extract", "--classifier-role", "score", str(page)]) == 0
    row = json.loads(capsys.readouterr().out)
    assert {h["source"] for h in row["hours"]} == {"rules"} and row["masses"] == ["07:00", "18:00"]
    [meeting] = [h for h in row["hours"] if h["time"] == "19:00"]
    assert meeting["label"] == "other" and 0.0 < meeting["score"] < 1.0  # the classifier's P(Mass start)
    assert main(["extract", "--classifier-role", "all", str(page)]) == 0
    row = json.loads(capsys.readouterr().out)
    assert {h["source"] for h in row["hours"]} == {"rules", "classifier"}
    assert {"07:00", "18:00"} <= set(row["masses"])


FILES = Path(__file__).parents[1] / "files" / "extraction"


def test_saved_schedule_page(capsys):
    status, rows, _ = run_extract(capsys, str(FILES / "porzadek-mszy.html"))
    assert status == 0
    (row,) = rows
    # table with superscript minutes, a seasonal variant and a filial chapel; confession, devotions, office
    # hours, phone and account numbers, a year and a date are not Masses
    assert row["masses"] == ["07:00", "07:30", "08:15", "09:00", "10:30", "12:00", "17:00", "18:00"]
    days = {(h["time"], h["day"]) for h in row["hours"] if h["label"] == "mass"}
    assert ("07:30", "sunday") in days and ("07:00", "weekday") in days
    # the output's hours, Mass times and confessions are a PageItem's
    page = {
        "url": "https://p.test/",
        "previous_url": None,
        "start_url": "https://p.test/",
        "domain": "p.test",
    }
    extracted = {k: row[k] for k in ("hours", "masses", "confessions")}
    check({**page, "depth": 0, "button_text": None, "html": "", **extracted}, "page")


def test_saved_announcements_page(capsys):
    status, rows, _ = run_extract(capsys, str(FILES / "ogloszenia.html"))
    assert status == 0
    (row,) = rows
    assert row["masses"] == ["07:00", "08:00", "09:00", "11:00", "18:00", "19:00"]
    others = {h["time"] for h in row["hours"] if h["label"] == "other"}
    assert others == {"16:00", "19:00"}  # the concert, the confirmation meeting


def test_page_html_parser_chokes_on_is_extracted_and_counted(tmp_path, capsys):
    """`<![ if !IE ]>` made html.parser raise: a traceback, and the inputs after it never extracted."""
    ie = tmp_path / "ie.html"
    ie.write_text(
        "<p>Msze święte: niedziela 9:00</p><![ if !IE ]><p>Dni powszednie 18:00</p>", encoding="utf-8"
    )
    page = tmp_path / "msze.html"
    page.write_text(HTML, encoding="utf-8")
    status, rows, err = run_extract(capsys, str(ie), str(page))
    assert status == 0
    assert [r["masses"] for r in rows] == [["09:00", "18:00"], ["08:00", "10:30", "18:00"]]
    assert f"warning: {ie}: text fallback: html2text: AssertionError" in err
    assert err.splitlines()[-1] == "extract: 2 inputs, 0 failed, 1 text fallbacks"


def test_an_input_that_fails_does_not_stop_the_others(tmp_path, capsys, monkeypatch):
    import msze.cli.extract as command

    real = command.extract

    def failing(text, classifier=None, **options):
        if "zepsuta" in text:
            raise RuntimeError("rules crashed\non two lines")
        return real(text, classifier, **options)

    monkeypatch.setattr(command, "extract", failing)
    bad = tmp_path / "zepsuta.txt"
    bad.write_text("zepsuta strona 7:00", encoding="utf-8")
    good = tmp_path / "dobra.txt"
    good.write_text("Msze św.: 7.00", encoding="utf-8")
    status, rows, err = run_extract(capsys, str(bad), str(good))
    assert status == 1 and [r["path"] for r in rows] == [str(good)]
    assert f"error: {bad}: RuntimeError: rules crashed on two lines\n" in err
    assert "Traceback" not in err and "extract: 2 inputs, 1 failed, 0 text fallbacks" in err


def test_a_reader_that_goes_away_ends_the_command_quietly(tmp_path):
    """`msze extract *.html | head -1`: no BrokenPipeError traceback when head stops reading."""
    import subprocess
    import sys

    pages = []
    for n in range(300):
        page = tmp_path / f"p{n}.txt"
        page.write_text("Msze św.: 7.00, 18.00\n" * 50, encoding="utf-8")
        pages.append(str(page))
    proc = subprocess.Popen(
        [sys.executable, "-m", "msze", "extract", "--no-model", *pages],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    assert proc.stdout.readline().startswith(b'{"path"')
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 1
    assert "Traceback" not in err and "BrokenPipeError" not in err
