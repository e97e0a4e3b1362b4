import json
import os
import subprocess
import time
from pathlib import Path

from warc_samples import ENGLISH_HTML, SCHEDULE_HTML, write_project_style, write_wget_style

from msze.batch.jobs import JobDB
from msze.cli import main

OLD = time.time() - 3600  # an mtime well past --min-age


def write_pages(path: Path) -> Path:
    """A parish JSONL as the parish spider writes it (one PageItem a line), with a torn last line."""
    pages = [
        {"url": "http://swjozef.test/", "previous_url": None, "start_url": "http://swjozef.test/",
         "domain": "swjozef.test", "depth": 0, "button_text": None,
         "html": "<p>Parafia rzymskokatolicka św. Józefa w Dębinie. Zapraszamy na nabożeństwa.</p>"},
        {"url": "http://swjozef.test/msze.html", "previous_url": "http://swjozef.test/",
         "start_url": "http://swjozef.test/", "domain": "swjozef.test", "depth": 1,
         "button_text": "Msze święte",
         "html": SCHEDULE_HTML},
        {"url": "http://swjozef.test/en.html", "previous_url": "http://swjozef.test/",
         "start_url": "http://swjozef.test/", "domain": "swjozef.test", "depth": 1, "button_text": "English",
         "html": ENGLISH_HTML},
    ]  # fmt: skip
    for minute, page in enumerate(pages):  # fetched on 29 November, one page a minute
        page["crawled_at"] = f"2026-11-29T08:0{minute}:00Z"
    path.write_text("".join(json.dumps(p, ensure_ascii=False) + "\n" for p in pages) + '{"url": "http://swj')
    return path


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_process_jsonl_and_warcs_in_parallel(tmp_path, capsys):
    inputs = tmp_path / "in"
    inputs.mkdir()
    write_pages(inputs / "swjozef.test.jsonl")
    write_wget_style(inputs / "wget.warc.gz")
    write_project_style(inputs / "msze.archive.warc.gz")
    out = tmp_path / "out"
    assert main(["process", str(inputs), "--out", str(out), "--workers", "2"]) == 0
    printed = capsys.readouterr().out
    assert "3/3 files done, 0 failed" in printed

    jozef = read_jsonl(out / "swjozef.test.jsonl")
    assert len(jozef) == 3  # the torn line is skipped, nothing else lost
    schedule = next(p for p in jozef if p["url"].endswith("msze.html"))
    assert schedule["language"] == "pl" and schedule["has_schedule_hint"] is True
    assert {"07:00", "18:00"} <= set(schedule["masses"])
    assert "Porządek Mszy" in schedule["text"]
    assert {h["time"] for h in schedule["hours"] if h["label"] == "mass"} == set(schedule["masses"])
    assert len(read_jsonl(out / "wget.jsonl")) == 4
    assert len(read_jsonl(out / "msze.archive.jsonl")) == 2

    results = {r["domain"]: r for r in read_jsonl(out / "results.jsonl")}
    assert set(results) == {"swjozef.test", "parafia-jadwigi.pl"}
    jozef_result = results["swjozef.test"]
    assert jozef_result["start_url"] == "http://swjozef.test/" and jozef_result["status"] == "finished"
    assert jozef_result["crawled_at"] == "2026-11-29T08:02:00Z"  # its last page's fetch, not the file's mtime
    assert {"07:00", "18:00"} <= {m["time"] for m in jozef_result["masses"]}
    assert all(
        m["url"] == "http://swjozef.test/msze.html" for m in jozef_result["masses"] if m["time"] == "07:00"
    )
    assert "swjozef.test" in (out / "results.csv").read_text(encoding="utf-8")


def test_language_selection(tmp_path):
    inputs = write_pages(tmp_path / "swjozef.test.jsonl")
    out = tmp_path / "out"
    assert main(["process", str(inputs), "--out", str(out), "--lang", "pl", "--workers", "1"]) == 0
    pages = read_jsonl(out / "swjozef.test.jsonl")
    assert [p["url"].rsplit("/", 1)[-1] for p in pages] == ["", "msze.html"]
    assert {p["language"] for p in pages} == {"pl"}


def test_bad_input_reported_and_others_processed(tmp_path, capsys):
    good = write_pages(tmp_path / "swjozef.test.jsonl")
    bad = tmp_path / "zepsuty.warc.gz"
    bad.write_bytes(b"\x1f\x8b not really gzip")
    out = tmp_path / "out"
    assert main(["process", str(good), str(bad), str(tmp_path / "brak.jsonl"), "--out", str(out)]) == 1
    captured = capsys.readouterr()
    assert "FAILED" in captured.out and "zepsuty.warc.gz" in captured.out
    assert "brak.jsonl: no such file" in captured.err
    assert (out / "swjozef.test.jsonl").exists() and not (out / "zepsuty.jsonl").exists()


def test_usage_errors(tmp_path, capsys):
    assert main(["process"]) == 2
    assert main(["process", str(tmp_path), "--only-changed"]) == 2
    assert main(["process", str(tmp_path), "--out", str(tmp_path / "o")]) == 2  # empty folder: no input
    assert "no JSONL or WARC input" in capsys.readouterr().err
    pages = write_pages(tmp_path / "swjozef.test.jsonl")
    assert main(["process", str(pages), "--classifier", str(tmp_path / "brak.ftz")]) == 2
    assert "cannot load the hour classifier" in capsys.readouterr().err


def test_state_records_changes_between_runs(tmp_path, capsys):
    pages = write_pages(tmp_path / "swjozef.test.jsonl")
    state = tmp_path / "state.sqlite"
    args = ["process", str(pages), "--out", str(tmp_path / "out"), "--state", str(state), "--only-changed"]
    assert main(args) == 0
    capsys.readouterr()
    # The parish moves its evening Mass.
    pages.write_text(pages.read_text(encoding="utf-8").replace("18.00", "19.00"), encoding="utf-8")
    assert main(args) == 0
    results = read_jsonl(tmp_path / "out" / "results.jsonl")
    assert [r["change"]["status"] for r in results] == ["new", "changed"]
    assert (
        "weekday 19:00" in results[-1]["change"]["added"] or "sunday 19:00" in results[-1]["change"]["added"]
    )
    assert results[-1]["change"]["pages"] == {"unchanged": 2, "changed": 1}
    capsys.readouterr()
    assert main(["process", "--show-changes", "--state", str(state)]) == 0
    [line] = capsys.readouterr().out.splitlines()
    assert json.loads(line)["masses_changed"] is True


def test_folder_mode_takes_complete_files_once(tmp_path, capsys):
    folder = tmp_path / "crawls"
    folder.mkdir()
    done_file = write_pages(folder / "swjozef.test.jsonl")
    os.utime(done_file, (OLD, OLD))
    writing = write_project_style(folder / "jadwiga.warc.gz")  # just written: a crawler may still be at it
    db = tmp_path / "jobs.sqlite"
    args = [
        "process",
        "--folder",
        str(folder),
        "--min-age",
        "60",
        "--db",
        str(db),
        "--out",
        str(tmp_path / "out"),
    ]
    assert main(args) == 0
    assert "1/1 files done" in capsys.readouterr().out
    with JobDB(db, kind="process") as jobs:
        assert jobs.counts()["finished"] == 1
        row = jobs.get(str(done_file.resolve()))
        assert row["state"] == "finished" and row["pages"] == 3

    os.utime(writing, (OLD, OLD))  # now complete
    assert main(args) == 0
    assert "1/1 files done" in capsys.readouterr().out  # only the new one

    assert main(args) == 0
    assert "nothing new (2 files done)" in capsys.readouterr().out

    # A file replaced since (new size/mtime) is processed again.
    write_pages(done_file)
    with done_file.open("a") as f:
        f.write("\n")
    os.utime(done_file, (OLD + 5, OLD + 5))
    assert main(args) == 0
    assert "1/1 files done" in capsys.readouterr().out
    with JobDB(db, kind="process") as jobs:
        assert jobs.counts() == {"queued": 0, "running": 0, "finished": 2, "failed": 0}


class _ParishServer:
    """A parish site on 127.0.0.1 the way small parish servers answer: chunked gzip, ISO-8859-2, images."""

    def __init__(self):
        import gzip as gz
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        from warc_samples import ANNOUNCEMENTS_HTML, chunked

        index = b"<html><body><a href='/msze.html'>Msze</a> <a href='/ogloszenia.html'>Ogloszenia</a>"
        index += b" <img src='/logo.jpg'> <a href='/stara'>Stara strona</a></body></html>"

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def send(self, status, headers, body):
                self.send_response(status)
                for name, value in headers:
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self):  # noqa: N802
                if self.path == "/":
                    self.send(
                        200, [("Content-Type", "text/html"), ("Content-Length", str(len(index)))], index
                    )
                elif self.path == "/msze.html":
                    body = chunked(gz.compress(SCHEDULE_HTML.encode("utf-8")))
                    headers = [("Content-Type", "text/html; charset=utf-8"), ("Transfer-Encoding", "chunked")]
                    self.send(200, [*headers, ("Content-Encoding", "gzip")], body)
                elif self.path == "/ogloszenia.html":
                    body = ANNOUNCEMENTS_HTML.encode("iso-8859-2")
                    headers = [
                        ("Content-Type", "text/html; charset=iso-8859-2"),
                        ("Content-Length", str(len(body))),
                    ]
                    self.send(200, headers, body)
                elif self.path == "/logo.jpg":
                    self.send(
                        200, [("Content-Type", "image/jpeg"), ("Content-Length", "4")], b"\xff\xd8\xff\xe0"
                    )
                else:
                    self.send(301, [("Location", "/"), ("Content-Length", "0")], b"")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


def test_real_wget_warc(tmp_path):
    site = _ParishServer()
    try:
        subprocess.run(
            [
                "wget",
                "-q",
                "-r",
                "-l",
                "1",
                "-p",
                "-e",
                "robots=off",
                "--no-proxy",
                "--compression=auto",
                f"--warc-file={tmp_path / 'parafia'}",
                "--no-warc-keep-log",
                "-P",
                str(tmp_path / "mirror"),
                site.url,
            ],
            timeout=60,
        )  # fmt: skip  (wget exits 8 for the 301 loop target; the WARC is complete)
    finally:
        site.server.shutdown()
    warc = tmp_path / "parafia.warc.gz"
    assert warc.exists()
    out = tmp_path / "out"
    assert main(["process", str(warc), "--out", str(out), "--workers", "1"]) == 0
    pages = {p["url"].rsplit("/", 1)[-1]: p for p in read_jsonl(out / "parafia.jsonl")}
    assert {"", "msze.html", "ogloszenia.html"} <= set(pages)
    assert "logo.jpg" not in pages
    assert {"07:00", "18:00"} <= set(pages["msze.html"]["masses"])
    assert "Ogłoszenia duszpasterskie" in pages["ogloszenia.html"]["text"]


# --- nothing lost to bad input ----------------------------------------------------------------------------


def write_other_parish(path: Path) -> Path:
    """A second parish's JSONL (another domain), to tell two outputs apart."""
    path.parent.mkdir(parents=True, exist_ok=True)
    page = {
        "url": "http://swanna.test/msze.html",
        "start_url": "http://swanna.test/",
        "domain": "swanna.test",
        "html": "<p>Parafia św. Anny. Msze święte w niedziele o 8.30 i 12.00.</p>",
    }
    path.write_text(json.dumps(page, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def test_inputs_of_one_name_in_two_crawls_write_two_outputs(tmp_path, capsys):
    inputs = tmp_path / "in"
    (inputs / "crawlA" / "pages").mkdir(parents=True)
    write_pages(inputs / "crawlA" / "pages" / "parafia.jsonl")
    write_other_parish(inputs / "crawlB" / "pages" / "parafia.jsonl")
    out = tmp_path / "out"
    assert main(["process", str(inputs), "--out", str(out), "--workers", "2"]) == 0
    assert "2/2 files done" in capsys.readouterr().out
    assert sorted(p.name for p in out.glob("*.jsonl")) == [
        "crawlA__pages__parafia.jsonl",
        "crawlB__pages__parafia.jsonl",
        "results.jsonl",
    ]
    assert {p["domain"] for p in read_jsonl(out / "crawlA__pages__parafia.jsonl")} == {"swjozef.test"}
    assert [p["url"] for p in read_jsonl(out / "crawlB__pages__parafia.jsonl")] == [
        "http://swanna.test/msze.html"
    ]


def test_jsonl_and_warc_of_one_stem_write_two_outputs(tmp_path, capsys):
    inputs = tmp_path / "in"
    inputs.mkdir()
    write_pages(inputs / "x.jsonl")
    write_project_style(inputs / "x.warc.gz")
    out = tmp_path / "out"
    assert main(["process", str(inputs), "--out", str(out), "--workers", "1"]) == 0
    printed = capsys.readouterr().out
    assert f"-> {out / 'x.jsonl'}:" in printed and f"-> {out / 'x.warc.gz.jsonl'}:" in printed
    assert {p["domain"] for p in read_jsonl(out / "x.jsonl")} == {"swjozef.test"}
    assert {p["domain"] for p in read_jsonl(out / "x.warc.gz.jsonl")} == {"parafia-jadwigi.pl"}


def test_what_cannot_be_read_is_warned_and_counted_in_the_summary(tmp_path, capsys, monkeypatch):
    inputs = tmp_path / "in"
    inputs.mkdir()
    warc = write_wget_style(inputs / "wget.warc.gz")
    warc.write_bytes(warc.read_bytes()[: warc.stat().st_size // 2])  # a copy cut short
    pages = write_pages(inputs / "swjozef.test.jsonl")
    with pages.open("a", encoding="utf-8") as f:  # after the torn line 4: a record of the wrong type
        f.write('\n{"url": "http://swjozef.test/zly", "html": 5}\n')
    write_other_parish(inputs / "zamkniety" / "swanna.test.jsonl")
    (inputs / "stary.jsonl").symlink_to(tmp_path / "nie-ma.jsonl")  # dangling
    real_scandir = os.scandir

    def scandir(path="."):  # tests run as root, who can list a chmod 000 directory: refuse this one here
        if os.fspath(path).endswith("zamkniety"):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    out = tmp_path / "out"
    assert main(["process", str(inputs), "--out", str(out), "--workers", "1"]) == 0
    captured = capsys.readouterr()
    warnings = [line for line in captured.err.splitlines() if line.startswith("process: warning: ")]
    assert f"process: warning: {inputs / 'zamkniety'}: cannot list (Permission denied); skipped" in warnings
    assert (
        f"process: warning: {inputs / 'stary.jsonl'}: not a readable file (a dangling link?); skipped"
        in warnings
    )
    assert f'process: warning: {pages}:5: "html" is int, not a string; record skipped' in warnings
    assert any(line.startswith(f"process: warning: {warc}: cut short at byte ") for line in warnings)
    summary = captured.out.splitlines()[-1]
    assert summary.startswith("process: 2/2 files done, 0 failed;")
    assert summary.endswith("; 1 truncated file, 1 bad record, 1 torn line, 2 unreadable paths")
    assert len(read_jsonl(out / "swjozef.test.jsonl")) == 3 and read_jsonl(out / "wget.jsonl")
