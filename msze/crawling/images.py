"""Which images of a parish page may be its schedule, worth OCR (msze/extraction/ocr.py).

An image is a candidate when its file name, alt text, title, caption or the heading above it speaks of the
schedule or announcements, or when it is a large image of a page titled as the schedule whose text gives no
times. Logos, icons and galleries never are. No Scrapy here; the parish spider adapts it.
"""

from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

CANDIDATE = "candidate"
SCHEDULE_CUE = re.compile(
    r"porz[aą]d|msz[aeyiy]|msze|og[lł]osze|nabo[zż]e[nń]|harmonogram|rozk[lł]ad|godzin", re.IGNORECASE
)
_SKIP = (
    ("logo", re.compile(r"logo|herb|favicon", re.IGNORECASE)),
    ("icon", re.compile(r"ikon|icon|sprite|button|przycisk|strzal|arrow", re.IGNORECASE)),
    ("gallery", re.compile(r"galeri|gallery|album|zdjeci|zdjęci|foto|thumb|miniatur", re.IGNORECASE)),
)
MIN_SIDE = 200  # px: a smaller image (by its width/height attributes) is an icon or a thumbnail
LARGE_SIDE = 400  # px: an uncued image of a schedule page must be at least this wide to be read
_TIME = re.compile(r"\b([01]?\d|2[0-3])[:.][0-5]\d\b")


def judge_image(
    src: str, words: str, width: int | None, height: int | None, schedule_page: bool = False
) -> str:
    """CANDIDATE, or why not: "logo", "icon", "gallery", "small" or "no_cue". `words` are the image's alt,
    title, caption and nearest heading; `schedule_page`: the page is titled as the schedule and has no times
    in its text (then a large image needs no cue of its own)."""
    path = unquote(urlsplit(src).path)
    name = path.rsplit("/", 1)[-1]
    for reason, pattern in _SKIP:  # the whole path: a gallery's photos are in its folder, named DSC_0042
        if pattern.search(path) or pattern.search(words):
            return reason
    if (width is not None and width < MIN_SIDE) or (height is not None and height < MIN_SIDE):
        return "small"
    if SCHEDULE_CUE.search(name.replace("_", " ").replace("-", " ")) or SCHEDULE_CUE.search(words):
        return CANDIDATE
    if schedule_page and (width or 0) >= LARGE_SIDE:
        return CANDIDATE
    return "no_cue"


def judged_first(names: list[str], cap: int) -> list[int]:
    """The indexes of a page's images to judge, at most `cap` (0: all): those whose file name or alt text
    speaks of the schedule first, then the rest, each in page order. Judging one image searches the page
    for the heading above it, so a gallery page of hundreds of thumbnails is bounded by the cap."""
    order = range(len(names))
    if not cap or len(names) <= cap:
        return list(order)
    return sorted(order, key=lambda i: not SCHEDULE_CUE.search(names[i]))[:cap]


def is_schedule_page(title: str, text: str) -> bool:
    """A page titled as the schedule (its <title> or first heading) whose text has no clock time."""
    return bool(SCHEDULE_CUE.search(title)) and not _TIME.search(text)


def pixels(value: str | None) -> int | None:
    """An HTML width/height attribute in pixels ("300", "300px"), None when absent or relative."""
    match = re.fullmatch(r"\s*(\d{1,5})\s*(?:px)?\s*", value or "")
    return int(match.group(1)) if match else None
