import gzip

from msze.archive.jsonl import read_numbered, read_objects


def test_torn_and_non_object_lines_are_skipped_and_reported(tmp_path):
    path = tmp_path / "pages.jsonl"
    path.write_text('{"url": "a"}\n\n[1, 2]\n{"url": "b"}\n{"url": "c", "te', encoding="utf-8")
    bad: list[str] = []
    assert [o["url"] for o in read_objects(path, on_bad=bad.append)] == ["a", "b"]
    assert bad == ["[1, 2]", '{"url": "c", "te']


def test_gzip_and_undecodable_bytes(tmp_path):
    path = tmp_path / "pages.jsonl.gz"
    with gzip.open(path, "wb") as f:
        f.write('{"text": "Msza św."}\n'.encode() + b'{"text": "\xb9"}\n')
    assert [o["text"] for o in read_objects(path)] == ["Msza św.", "\ufffd"]


def test_gzip_cut_short_keeps_the_lines_before(tmp_path):
    """A .jsonl.gz of a killed crawl: EOFError from gzip lost every line of the file."""
    path = tmp_path / "pages.jsonl.gz"
    data = gzip.compress("".join(f'{{"url": "u{i}"}}\n' for i in range(500)).encode())
    path.write_bytes(data[:-40])
    bad: list[str] = []
    urls = [o["url"] for o in read_objects(path, on_bad=bad.append)]
    assert urls == [f"u{i}" for i in range(len(urls))] and len(urls) >= 400
    assert "gzip stream cut short" in bad[-1]
    numbers: list[int] = []
    numbered = list(read_numbered(path, on_bad=lambda n, _line: numbers.append(n)))
    assert numbered[-1] == (len(urls), {"url": urls[-1]})
    assert numbers[-1] == len(urls) + len(numbers)  # the line after the last one read (and any torn one)
