"""directory.deon_parser: listing and parish-page parsing, the thesis TSV/JSONL layouts, on our snippets."""

from __future__ import annotations

import json

from msze.directory.deon_parser import (
    PARISH_COLUMNS,
    PLACE_COLUMNS,
    clean,
    parish_key,
    parse_address,
    parse_listing,
    read_records,
    read_tsv,
    to_tsv_row,
    write_tsv,
)

LISTING = """
<table><tr><th>Parafia</th><th>Miejscowość</th><th>Województwo</th><th>Diecezja</th><th>Dekanat</th></tr>
<tr><td class="temat"><a href="/parafie-koscioly/parafia,7.html"> Św. Jadwigi
   Królowej </a></td><td>Nowa Wieś</td><td>mazowieckie</td><td>płocka</td><td>Sierpc</td></tr>
<tr><td class="temat first"><a href="parafia,8.html">Matki Bożej Różańcowej</a></td><td>Zalesie</td>
  <td></td><td>łowicka</td></tr>
<tr><td class="temat">bez linku</td><td>X</td></tr>
</table>
<div class="pager"><a href="strona,1.html">poprzednia</a> <a href="strona,3.html">następna</a></div>
"""

PARISH = """<h1>Parafia</h1><div class="adres adres2">Adres:</div>
<div class="row">Św. Jadwigi&nbsp;Królowej<br/>
  ul. Kościelna 3<br>09-200 Nowa Wieś<br>  <br>woj. mazowieckie</div><div class="row">inne</div>"""


def test_listing_rows_cells_and_missing_cell():
    page = parse_listing(LISTING, "https://www.deon.pl/parafie-koscioly/strona,2.html")
    assert [r.name for r in page.rows] == ["Św. Jadwigi Królowej", "Matki Bożej Różańcowej"]
    first, second = page.rows
    assert first.url == "https://www.deon.pl/parafie-koscioly/parafia,7.html"
    assert (first.city, first.voivodeship, first.diocese, first.decanate) == (
        "Nowa Wieś",
        "mazowieckie",
        "płocka",
        "Sierpc",
    )
    assert first.missing_cells == 0
    assert (second.city, second.voivodeship, second.diocese, second.decanate) == (
        "Zalesie",
        "",
        "łowicka",
        "",
    )
    assert second.missing_cells == 1
    assert page.next_url == "https://www.deon.pl/parafie-koscioly/strona,3.html"


def test_next_link_by_rel_and_last_page_has_none():
    html = '<a href="strona,4.html" rel="next">›</a>'
    assert (
        parse_listing(html, "http://x/parafie-koscioly/").next_url
        == "http://x/parafie-koscioly/strona,4.html"
    )
    assert parse_listing('<a href="strona,1.html">poprzednia</a>', "http://x/").next_url is None


def test_address_lines_keep_nbsp_and_drop_blank_lines():
    assert parse_address(PARISH) == [
        "Św. Jadwigi\xa0Królowej",
        "ul. Kościelna 3",
        "09-200 Nowa Wieś",
        "woj. mazowieckie",
    ]
    assert parse_address("<div class='adres'>x</div><div class='row'>y</div>") == []


def test_clean_squeezes_ascii_whitespace_only():
    assert clean("  a \n\t b\xa0c ") == "a b\xa0c"
    assert clean(None) == ""


def test_tsv_round_trip_in_thesis_layout(tmp_path):
    record = {
        "name": 'NMP "Królowej" Polski',
        "city": "Lipno",
        "address": ["NMP Królowej Polski", "ul. Długa 1", "87-600 Lipno"],
        "diocese": "włocławska",
        "decanate": "",
        "voivodeship": "kujawsko-pomorskie",
    }
    path = tmp_path / "p.tsv"
    write_tsv(path, [record], PARISH_COLUMNS)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "Parafia\tMiejscowość\tAdres\tDiecezja\tDekanat\tWojewództwo"
    assert "NMP Królowej Polski|ul. Długa 1|87-600 Lipno" in lines[1]
    assert list(read_tsv(path)) == [record]


def test_reads_extended_layout_with_unlabelled_status_column(tmp_path):
    path = tmp_path / "extended.tsv"
    thesis = PLACE_COLUMNS[: PLACE_COLUMNS.index(("status", "status"))]  # its status column has no name
    header = "\t".join(title for title, _ in thesis)
    row = "\t".join(
        ["Bożego Ciała", "Hel", "http://parafia.example/", "Bożego Ciała|ul. Helska 2|84-150 Hel"]
        + ["gdańska", "Morski", "pomorskie", "pid1", "OK"]
    )
    garbled = "NOT_FOUND\tx\t\ty\tz\tw\tv\tu\tt\ts\tNOT_FOUND"
    path.write_text(f"{header}\n{row}\n{garbled}\n", encoding="utf-8")
    records = list(read_records(path))
    assert len(records) == 1
    assert records[0]["status"] == "OK"
    assert records[0]["url"] == "http://parafia.example/"
    assert records[0]["address"] == ["Bożego Ciała", "ul. Helska 2", "84-150 Hel"]
    assert to_tsv_row(records[0], PLACE_COLUMNS)[-4:] == ["pid1", "OK", "", ""]  # no coordinates in it


def test_jsonl_records_skip_truncated_last_line(tmp_path):
    path = tmp_path / "p.jsonl"
    good = {"name": "Św. Anny", "city": "Wola", "address": ["Św. Anny", "Wola 5"]}
    path.write_text(json.dumps(good, ensure_ascii=False) + '\n{"name": "Św. Ro', encoding="utf-8")
    assert list(read_records(path)) == [good]


def test_parish_key_distinguishes_same_name_in_other_town():
    a = {"name": "Bł. Czesława", "city": "Opole", "address": ["Bł. Czesława", "ul. Hallera 2"]}
    b = {"name": "Bł. Czesława", "city": "Górażdże", "address": "Bł. Czesława|ul. Dworcowa 1"}
    assert parish_key(a) != parish_key(b)
    assert parish_key(b) == ("Bł. Czesława", "Górażdże", "Bł. Czesława|ul. Dworcowa 1")
