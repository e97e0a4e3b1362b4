from hypothesis import given, settings
from hypothesis import strategies as st

from msze.extraction.hours import find_hours
from msze.extraction.text import FALLBACK_LXML, FALLBACK_TAGS, Conversion, convert_html, html_to_text


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


# --- markup html.parser cannot tokenize: the text is never lost ---------------------

IE_PAGE = (
    "<html><head><title>Parafia</title></head><body><p>Porządek Mszy: niedziela 8<sup>00</sup>, 10.30</p>"
    "<![ if !IE ]><p>Dni powszednie 18.00</p><![ endif ]></body></html>"
)


def test_ie_conditional_comment_with_spaces_keeps_the_page():
    conversion = convert_html(IE_PAGE)
    assert [h.time for h in find_hours(conversion.text)] == ["08:00", "10:30", "18:00"]
    assert "Dni powszednie 18.00" in conversion.text.splitlines()  # the line structure kept too
    assert conversion.fallback == FALLBACK_LXML and "AssertionError" in conversion.error
    assert html_to_text(IE_PAGE) == conversion.text


def test_unclosed_head_does_not_hide_the_body():
    conversion = convert_html("<head><title>Parafia</title><p>Msze święte: 7.00, 18.00</p>")
    assert "Msze święte: 7.00, 18.00" in conversion.text and conversion.fallback == FALLBACK_LXML
    assert convert_html("<title>Parafia</title>").fallback is None  # nothing visible was lost: no fallback


def test_what_lxml_cannot_parse_still_gives_the_words():
    conversion = convert_html("<![ Msze o 18.00")  # html.parser asserts, lxml finds no document
    assert conversion.fallback == FALLBACK_TAGS and "Msze o 18.00" in conversion.text


def test_lone_surrogates_become_replacement_characters():
    text = html_to_text("<p>Msza \ud800o 18.00</p>")
    assert text.encode("utf-8") and "18.00" in text and "\ufffd" in text


def test_well_formed_pages_take_no_fallback():
    assert convert_html("<p>Msze: 7.00</p><![if !IE]><p>18.00</p><![endif]>") == Conversion(
        "Msze: 7.00\n\n18.00\n"
    )


def test_text_pipeline_counts_the_fallback():
    from conftest import project_crawler

    from msze.items import PageItem
    from msze.pipelines import TextConversionPipeline

    crawler = project_crawler()
    stage = TextConversionPipeline.from_crawler(crawler)
    item = stage.process_item(PageItem(url="http://parafia.test/msze", html=IE_PAGE))
    assert "Dni powszednie 18.00" in item["text"]
    stage.process_item(PageItem(url="http://parafia.test/", html="<p>Witamy</p>"))
    stats = crawler.stats.get_stats()
    assert stats["msze/text/fallback"] == 1 and stats["msze/text/pages"] == 2
    assert "msze/text/failed" not in stats and "msze/text/empty" not in stats


# --- fuzz: HTML-like junk between two paragraphs -----------------------------------------------------------

BEFORE = "Porządek Mszy świętych w niedzielę"
AFTER = "Zapraszamy wszystkich parafian"
_WORDISH = st.text(alphabet="aAz09 !-_.:=/'\"[]?&#;", max_size=12)
_NAME = st.sampled_from(
    ["", " ", "  ", "if", " if !IE ", "endif", "CDATA[", "cdata", "temp", "foo", "1", "-", "["]
)
_TAG = st.sampled_from(
    ["div", "p", "span", "b", "font", "table", "td", "tr", "ul", "ol", "li", "sup", "br", "a"]
)
_ATTRS = st.sampled_from(["", " a=b=c", ' "x"', " =x", " a=1 b", " class=''", " href=&amp", " a\x00=1", " /"])
_JUNK_PIECE = st.one_of(
    st.builds("<![{}{}]>".format, _NAME, _WORDISH),
    st.builds("<![{}{}>".format, _NAME, _WORDISH),
    st.builds("<![CDATA[{}]]>".format, _WORDISH),
    st.builds("<!{}>".format, _WORDISH.filter(lambda s: ">" not in s)),
    st.builds("<?{}>".format, _WORDISH.filter(lambda s: ">" not in s)),
    st.builds("<!--{}-->".format, _WORDISH.filter(lambda s: "--" not in s)),
    st.builds("<!--[if {}]>{}<![endif]-->".format, _WORDISH, _WORDISH),
    st.builds("<{}{}>{}</{}>".format, _TAG, _ATTRS, _WORDISH, _TAG),
    st.builds(
        "&{};".format, st.sampled_from(["amp", "nbsp", "foo", "#0", "#xD800", "#1114112", "#99999999999"])
    ),
    st.sampled_from(
        ["<", ">", "</", "</>", "< p>", "<p/", "&", "&#", "\x00", "\x01", "\ud800", "\udfff", "]]>"]
    ),
    st.sampled_from(["<![", "<![ ", "<![if", "<!", "<!DOCTYPE html>", "<!doctype", "<?xml?>", "<![endif]>"]),
)


@given(junk=st.lists(_JUNK_PIECE, max_size=8).map("".join))
@settings(max_examples=400, deadline=None)
def test_fuzz_junk_never_raises_and_keeps_the_paragraphs(junk):
    text = html_to_text(f"<p>{BEFORE}</p>{junk}<p>{AFTER}</p>")
    assert BEFORE in text and AFTER in text
    text.encode("utf-8")  # writable as UTF-8: no lone surrogate survives


_MARKUP_TOKENS = st.sampled_from([*"<>!?[]-/=\"'&#; x", "CDATA", "if", "p", "\x00", "\ud800"])


@given(st.lists(_MARKUP_TOKENS, max_size=40).map("".join))
@settings(max_examples=300, deadline=None)
def test_fuzz_markup_characters_never_raise(html):
    assert isinstance(convert_html(html).text, str)


def test_a_comment_that_never_closes_hides_nothing():
    text = html_to_text(f"<p>{BEFORE}</p><!--0><![]><p>{AFTER}</p>")
    assert BEFORE in text and AFTER in text
