import gzip

from msze.jsonl import read_objects


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
