"""Which images of a parish page are worth OCR (msze/crawling/images.py)."""

from __future__ import annotations

import pytest

from msze.crawling.images import CANDIDATE, is_schedule_page, judge_image, judged_first, pixels


@pytest.mark.parametrize(
    ("src", "words", "width", "height", "expected"),
    [
        ("/img/porzadek-mszy.jpg", "", None, None, CANDIDATE),
        ("/uploads/2024/11/scan0001.jpg", "Ogłoszenia parafialne", 900, 1200, CANDIDATE),
        ("/img/harmonogram_nabozenstw.png", "", 600, 400, CANDIDATE),
        ("/img/logo-parafii.png", "Msze święte", 300, 300, "logo"),
        ("/img/herb.png", "", None, None, "logo"),
        ("/img/ikona-msze.png", "", None, None, "icon"),
        ("/galeria/odpust/zdj12.jpg", "Msza odpustowa", 800, 600, "gallery"),
        ("/img/plan.jpg", "Godziny Mszy", 150, 400, "small"),
        ("/img/kosciol.jpg", "Nasz kościół", 800, 600, "no_cue"),
    ],
)
def test_an_image_is_judged_by_its_name_words_and_size(
    src: str, words: str, width: int | None, height: int | None, expected: str
) -> None:
    assert judge_image(src, words, width, height) == expected


def test_a_large_uncued_image_counts_only_on_a_schedule_page_without_times() -> None:
    assert judge_image("/img/dsc_0042.jpg", "", 800, 1100, schedule_page=True) == CANDIDATE
    assert judge_image("/img/dsc_0042.jpg", "", 300, 400, schedule_page=True) == "no_cue"
    assert is_schedule_page("Porządek nabożeństw", "Zapraszamy wszystkich parafian.")
    assert not is_schedule_page("Porządek nabożeństw", "W niedziele o 8.00 i 10.30.")
    assert not is_schedule_page("Historia parafii", "Kościół zbudowano w 1910 roku.")


@pytest.mark.parametrize(("value", "expected"), [("300", 300), (" 640px ", 640), ("50%", None), (None, None)])
def test_pixels_reads_only_absolute_sizes(value: str | None, expected: int | None) -> None:
    assert pixels(value) == expected


def test_a_page_over_the_cap_is_judged_schedule_names_first_in_page_order() -> None:
    names = [f"/galeria/zdj{i}.jpg " for i in range(60)]
    names[45] = "/img/ogloszenia-17-11.jpg "
    names[58] = "/img/x.jpg Porządek Mszy"
    judged = judged_first(names, 50)
    assert len(judged) == 50
    assert judged[:2] == [45, 58]
    assert judged[2:] == [i for i in range(60) if i not in (45, 58)][:48]


def test_a_page_within_the_cap_or_without_one_is_judged_whole() -> None:
    names = ["/a.jpg", "/b.jpg", "/porzadek.jpg"]
    assert judged_first(names, 3) == [0, 1, 2]
    assert judged_first(names, 0) == [0, 1, 2]
