"""msze.utils.tsv: one dialect for the places TSV, written by the exporter and read back by every reader."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from msze.cli.urls import collect_urls
from msze.directory.deon_parser import CHURCH_COLUMNS, read_records, read_tsv, to_tsv_row
from msze.exporters import TsvItemExporter
from msze.search.db import clean_text
from msze.search.loader import LoadReport, read_parish_file
from msze.utils import tsv

THESIS = Path(__file__).resolve().parents[3] / "shared" / "data" / "thesis"
HOSTILE_NAMES = [
    'Kaplica "Na Górce"',
    '"Klaryski"',
    "Św.\tJana",
    "Matki Bożej\nBolesnej",
    "Ducha\rŚwiętego",
    "Ducha\r\nŚwiętego",
    "=HYPERLINK(1)",
    "Bożego Ciała\ufeff",
    '"',
    "Ąę śćźż ŁÓŃ",
]
cell = st.text(st.characters(blacklist_categories=("Cs",)) | st.sampled_from('\t\n\r"=|\ufeff'), max_size=12)


def lines_of(text: str) -> list[tuple[int, str]]:
    return list(enumerate(io.StringIO(text, newline="\n"), 1))  # as tsv.open_rows reads a file


@given(st.lists(st.lists(cell, min_size=1, max_size=5), max_size=5))
def test_any_rows_come_back_cell_for_cell(rows):
    text = "".join(tsv.format_row(cells) for cells in rows)
    assert [cells for _, cells in tsv.read_rows(lines_of(text))] == rows


def test_a_cell_is_quoted_only_when_it_must_be_and_lines_end_with_a_newline():
    assert tsv.format_row(["Św. Jana", "a|b", "=1", ""]) == "Św. Jana\ta|b\t=1\t\n"
    assert tsv.format_row(['Kaplica "Na Górce"', "a\rb"]) == '"Kaplica ""Na Górce"""\t"a\rb"\n'


def test_a_stray_carriage_return_outside_quotes_is_one_lines_cells_and_numbers_count_lines():
    text = 'a\rb\tc\n"two\nlines"\td\n\ne\n'
    assert list(tsv.read_rows(lines_of(text))) == [
        (1, ["a\rb", "c"]),
        (2, ["two\nlines", "d"]),
        (4, []),
        (5, ["e"]),
    ]


def places(names: list[str]) -> list[dict]:
    return [
        {
            "name": name,
            "city": f"Miasto {i}",
            "url": f"https://parafia{i}.example.pl/",
            "address": [f"ul. {name}", "00-001 Miasto|Wieś"],  # a "|" joins address lines: it splits this one
            "diocese": "płocka",
            "decanate": "",
            "voivodeship": "mazowieckie",
            "place_id": f"pid{i}",
            "status": "OK",
            "lat": "52.1",
            "lng": "19.2",
            "start_url": f"https://parafia{i}.example.pl/",
            "church": name,
        }
        for i, name in enumerate(names)
    ]


def export(path: Path, records: list[dict], bom: bool = False) -> Path:
    """The records as `-o path:tsv` writes them (a BOM first when an editor saved it so)."""
    with path.open("wb") as handle:
        exporter = TsvItemExporter(handle)
        exporter.start_exporting()
        for record in records:
            exporter.export_item(record)
        exporter.finish_exporting()
    if bom:
        path.write_bytes("\ufeff".encode() + path.read_bytes())
    return path


@pytest.mark.parametrize("bom", [False, True])
def test_hostile_names_survive_the_exporter_and_every_reader(tmp_path, bom):
    records = places(HOSTILE_NAMES)
    path = export(tmp_path / "places.tsv", records, bom)
    expected = [{**r, "address": [f"ul. {r['name']}", "00-001 Miasto", "Wieś"]} for r in records]
    assert list(read_tsv(path)) == expected == list(read_records(path))
    report = LoadReport()
    loaded = list(read_parish_file(path, report))
    assert report.bad_lines == [] and len(loaded) == len(records)
    assert [(p.name, p.church, p.city) for p in loaded] == [
        (clean_text(r["name"]), clean_text(r["name"]), r["city"]) for r in records
    ]  # the loader cleans whitespace; the quotes stay as they are in the name
    urls = collect_urls(read_records(path))
    assert (urls.rows, urls.urls) == (len(records), [r["url"] for r in records])


def test_the_exporter_writes_the_modules_lines(tmp_path):
    records = places(HOSTILE_NAMES[:3])
    text = export(tmp_path / "places.tsv", records).read_text(encoding="utf-8")
    header = tsv.format_row([title for title, _ in CHURCH_COLUMNS])
    assert text == header + "".join(tsv.format_row(to_tsv_row(r, CHURCH_COLUMNS)) for r in records)


@pytest.mark.skipif(not THESIS.is_dir(), reason="the thesis data (../shared/data/thesis) is not here")
@pytest.mark.parametrize("name", ["deon.fixed.tsv", "extended.tsv"])
def test_the_thesis_files_read_as_csv_quoted_tsv(name):
    """QUOTE_NONE-looking, but two of its cells are csv-quoted (doubled quotes inside): they are unquoted,
    every other line reads as its tab-split cells and is written back byte for byte."""
    path = THESIS / name
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    rows = list(tsv.open_rows(str(path)))
    assert len(rows) == len(lines) == 10131
    quoted = {number for number, cells in rows if tsv.format_row(cells) != lines[number - 1]}
    plain = [cells for number, cells in rows if number not in quoted]
    assert plain == [line.rstrip("\n").split("\t") for i, line in enumerate(lines, 1) if i not in quoted]
    assert all('"' in lines[number - 1] for number in quoted) and len(quoted) == 2
    klaryski = 'Wniebowzięcia NMP - "Klaryski" - kościół rektorski '
    assert klaryski in [record["name"] for record in read_tsv(path)]
    report = LoadReport()
    names = [parish.name for parish in read_parish_file(path, report)]
    assert clean_text(klaryski) in names and len(names) == 10129
    assert len(report.bad_lines) == 1 and "no parish name or city" in report.bad_lines[0]  # an empty city
