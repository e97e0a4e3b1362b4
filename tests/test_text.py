from msze.hours import find_hours
from msze.text import html_to_text


def test_links_images_emphasis_lists_and_tables_are_plain():
    html = """<html><body><h2>Msze <b>święte</b></h2>
    <ul><li><i>Niedziele</i>: 8:00, 10:00</li><li>Dni powszednie: 18:00</li></ul>
    <ol><li>pierwsza</li></ol>
    <p>Więcej <a href="/ogloszenia">w ogłoszeniach</a> <img src="k.jpg" alt="kościół"></p>
    <table><tr><td>Sobota</td><td>7:30</td></tr></table></body></html>"""
    text = html_to_text(html)
    assert "Msze święte" in text
    assert "Niedziele: 8:00, 10:00" in text
    assert "Dni powszednie: 18:00" in text
    assert "*" not in text and "#" not in text and "1." not in text
    assert "ogloszenia" not in text and "k.jpg" not in text and "kościół" not in text
    assert "w ogłoszeniach" in text
    assert "Sobota 7:30" in text  # cells kept apart, no table markup
    assert "|" not in text


def test_superscript_minutes_become_a_time():
    text = html_to_text("<p>Niedziela: 7<sup>30</sup>, 9 <sup><u>00</u></sup>, 18<sub>45</sub></p>")
    assert [h.time for h in find_hours(text)] == ["07:30", "09:00", "18:45"]


def test_no_markdown_escaping_and_nbsp():
    text = html_to_text("<p>7. Msza&nbsp;św. o 18.00</p><p>- 8.00 *</p>")
    assert "7. Msza św. o 18.00" in text
    assert "\\" not in text


def test_line_structure_kept():
    text = html_to_text("<div>Sobota<br>18:00</div><p>Niedziela</p><p>9:00</p>")
    lines = [line for line in text.splitlines() if line]
    assert lines == ["Sobota", "18:00", "Niedziela", "9:00"]


def test_empty_and_garbage():
    assert html_to_text("") == ""
    assert html_to_text("<<<>>>") is not None
    assert html_to_text("<p>\x00\x01 18:00</p>").count("18:00") == 1
