from msze.extraction.language import UNDETERMINED, detect_language, language_selected, parse_languages

POLISH = (
    "Porządek Mszy Świętych. W niedziele i święta: 7.00, 9.00, 10.30, 12.00 i 18.00. "
    "W dni powszednie: 7.00 i 18.00. Kancelaria parafialna czynna we wtorki i czwartki."
)
ENGLISH = "Holy Mass on Sundays at 9 am and 11 am. The parish office is open on Tuesdays and Thursdays."
GERMAN = "Heilige Messe am Sonntag um 9 Uhr und 11 Uhr. Das Pfarrbüro ist dienstags und donnerstags geöffnet."


def test_detects_polish_english_german():
    assert detect_language(POLISH) == "pl"
    assert detect_language(ENGLISH) == "en"
    assert detect_language(GERMAN) == "de"


def test_empty_and_numbers_only_are_undetermined():
    assert detect_language("") == UNDETERMINED
    assert detect_language(None) == UNDETERMINED
    assert detect_language("7.00 9.00 11.00 | 18.00 » «") == UNDETERMINED


def test_low_confidence_is_undetermined_when_asked():
    assert detect_language(POLISH, min_confidence=0.5) == "pl"
    assert detect_language("msze msze msze msze msze msze godz", min_confidence=1.01) == UNDETERMINED


def test_parse_and_select_languages():
    wanted = parse_languages(["pl,EN", " de "])
    assert wanted == {"pl", "en", "de"}
    assert language_selected("pl", wanted)
    assert not language_selected("uk", wanted)
    assert not language_selected(None, wanted)
    assert language_selected("uk", parse_languages(None))
