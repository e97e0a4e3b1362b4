"""The search app's request parameters: each validated strictly, with a Polish message for the visitor.

`parse_params` reads a search (the form, /api/parishes, the CSV export); `parse_near`, `parse_radius`,
`parse_moment` and `parse_paging` the next-Masses requests. A value that cannot be understood raises
InvalidQuery, whose message the views answer with a 400.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from msze.search.calendar import WARSAW
from msze.search.db import DAYS, LANG_TAGS, clean_text
from msze.utils.text import fold

MAX_PER_PAGE = 100
DEFAULT_PER_PAGE = 20
MAX_PAGE = 1_000_000  # (MAX_PAGE - 1) * MAX_PER_PAGE is still an offset every backend takes
MAX_QUERY_LENGTH = 200
DEFAULT_RADIUS_KM = 10.0
MAX_RADIUS_KM = 100.0
MAX_WINDOW_DAYS = 14  # the longest `from`..`to` the next Masses are listed for
# `from`, `to` and `when` lie at most this many years before or after the server's now: no date arithmetic
# (the window's end, the next noon, a holy-day calendar) can then leave datetime's years 1..9999.
MOMENT_YEARS = 5
MOMENT_REACH = timedelta(days=366 * MOMENT_YEARS)
SERVICES = ("mass", "confession")

WEEKDAY = "weekday"  # the `day` filter's Monday–Friday
WORKDAYS = ("mon", "tue", "wed", "thu", "fri")
# Polish and English spellings a visitor or an API client may use for the `day` parameter (folded).
DAY_ALIASES = {
    **{code: code for code in DAYS},
    "niedziela": "sun", "niedziele": "sun", "sunday": "sun",
    "poniedzialek": "mon", "monday": "mon",
    "wtorek": "tue", "tuesday": "tue",
    "sroda": "wed", "wednesday": "wed",
    "czwartek": "thu", "thursday": "thu",
    "piatek": "fri", "friday": "fri",
    "sobota": "sat", "saturday": "sat",
    "swieto": "holiday", "swieta": "holiday",
    WEEKDAY: WEEKDAY, "powszedni": WEEKDAY, "dzien powszedni": WEEKDAY, "dni powszednie": WEEKDAY,
}  # fmt: skip
# ASCII digits only: `\d` alone also matches "١" or "٣", which int() would quietly read as 1 and 3.
_TIME_RE = re.compile(r"^([01]?\d|2[0-3])(?:[:.]([0-5]\d))?$", re.ASCII)


# The search form's label of each parameter: a visitor of the HTML pages reads about the field they filled in,
# never about a URL parameter.
FIELD_LABELS = {
    "q": "Parafia lub miejscowość", "city": "Miejscowość", "diocese": "Diecezja", "day": "Dzień",
    "from": "Od godziny", "to": "Do godziny", "near": "Twoja lokalizacja", "radius": "Promień (km)",
    "when": "Kiedy", "page": "Strona", "per_page": "Wyników na stronie", "place": "Miejsce",
    "service": "Szukam", "lang": "Język lub ryt",
}  # fmt: skip


class InvalidQuery(ValueError):
    """A query parameter that cannot be understood; the message is shown to the visitor (HTTP 400).

    `template` names the parameters as `{name}` placeholders, the subject as `{Kind}` and the value given as
    `{value}`: `str()` is the API's message ("Parametr „near” ..."), `for_form()` the page's ("Pole „Twoja
    lokalizacja” ...")."""

    def __init__(self, template: str, *names: str, value: str = "") -> None:
        self.template, self.names, self.value = template, names, repr(value[:20])
        super().__init__(self._render("Parametr", lambda name: name))

    def _render(self, kind: str, label) -> str:
        """The template filled in; the visitor's `value` only as an argument, never as a format string."""
        quoted = {name: f"„{label(name)}”" for name in self.names}
        return self.template.format(Kind=kind, value=self.value, **quoted)

    def for_form(self) -> str:
        """The message with the form's field labels."""
        return self._render("Pole", lambda name: FIELD_LABELS.get(name, name))


@dataclass(frozen=True)
class SearchParams:
    """A validated search: text filters, day categories, minute-of-day range and the page wanted."""

    q: str = ""
    city: str = ""
    diocese: str = ""
    days: tuple[str, ...] = ()
    time_from: int | None = None  # minutes after midnight, inclusive
    time_to: int | None = None  # inclusive
    near: tuple[float, float] | None = None  # (lat, lng): parishes within `radius` km, nearest first
    radius: float = DEFAULT_RADIUS_KM
    page: int = 1
    per_page: int = DEFAULT_PER_PAGE
    lang: tuple[str, ...] = ()  # LANG_TAGS: Masses in any of these languages or rites

    @property
    def filters_times(self) -> bool:
        return bool(self.days) or self.time_from is not None or self.time_to is not None or bool(self.lang)

    def as_args(self, **changes) -> dict[str, str]:
        """Query-string arguments that reproduce this search (for links to other pages and the CSV export)."""
        values = {
            "q": self.q,
            "city": self.city,
            "diocese": self.diocese,
            "day": ",".join(self.days),
            "from": format_minute(self.time_from) if self.time_from is not None else "",
            "to": format_minute(self.time_to) if self.time_to is not None else "",
            "near": f"{self.near[0]:.5f},{self.near[1]:.5f}" if self.near else "",
            "lang": ",".join(self.lang),
            "radius": f"{self.radius:g}" if self.near and self.radius != DEFAULT_RADIUS_KM else "",
            "page": str(self.page) if self.page != 1 else "",
            "per_page": str(self.per_page) if self.per_page != DEFAULT_PER_PAGE else "",
        }
        values.update({key: str(value) for key, value in changes.items()})
        return {key: value for key, value in values.items() if value}


def format_minute(minute: int) -> str:
    return f"{minute // 60:02d}:{minute % 60:02d}"


def parse_time(value: str, name: str) -> int | None:
    """ "17:00", "17.30" or "17" -> minutes after midnight; "" -> None; anything else -> InvalidQuery."""
    value = value.strip()
    if not value:
        return None
    match = _TIME_RE.match(value)
    if not match:
        raise InvalidQuery(
            f"{{Kind}} {{{name}}} musi być godziną w formacie GG:MM (np. 17:00), a jest: {{value}}",
            name,
            value=value,
        )
    return int(match.group(1)) * 60 + int(match.group(2) or 0)


def parse_near(value: str) -> tuple[float, float] | None:
    """ "52.2297,21.0122" -> (lat, lng); "" -> None; anything else -> InvalidQuery."""
    value = value.strip()
    if not value:
        return None
    parts = value.split(",")
    try:
        lat, lng = (float(p) for p in parts) if len(parts) == 2 and len(value) <= 40 else (None, None)
    except ValueError:
        lat = lng = None
    if lat is None or lng is None or not (-90 <= lat <= 90 and -180 <= lng <= 180):
        raise InvalidQuery(
            "{Kind} {near} musi mieć postać SZEROKOŚĆ,DŁUGOŚĆ (np. 52.23,21.01), a jest: {value}",
            "near",
            value=value,
        )
    return lat, lng


def parse_radius(value: str) -> float:
    """Kilometres, 0.1 to MAX_RADIUS_KM ("" -> the default)."""
    value = value.strip()
    if not value:
        return DEFAULT_RADIUS_KM
    try:
        radius = float(value.replace(",", ".")) if len(value) <= 10 else -1.0
    except ValueError:
        radius = -1.0
    if not 0.1 <= radius <= MAX_RADIUS_KM:
        raise InvalidQuery(
            f"{{Kind}} {{radius}} to kilometry od 0,1 do {MAX_RADIUS_KM:g}, a jest: {{value}}",
            "radius",
            value=value,
        )
    return radius


def parse_days(value: str) -> tuple[str, ...]:
    days: list[str] = []
    for part in value.split(","):
        part = fold(part)
        if not part or part in ("all", "wszystkie"):
            continue
        day = DAY_ALIASES.get(part)
        if day is None:
            allowed = ", ".join(sorted(set(DAY_ALIASES.values())))
            raise InvalidQuery(
                f"{{Kind}} {{day}}: nieznany dzień {{value}}; dozwolone: {allowed}", "day", value=part
            )
        if day not in days:
            days.append(day)
    return tuple(days)


def parse_int(value: str, name: str, default: int, maximum: int, clamp: bool = False) -> int:
    """A whole number 1..`maximum` written in ASCII digits ("" -> `default`); InvalidQuery otherwise.

    `str.isdigit` alone accepts "²" (which int() refuses) and int() of 5 000 digits raises, so only up to
    nine ASCII digits are read at all. Above `maximum`: `maximum` when `clamp`, else InvalidQuery.
    """
    value = value.strip()
    if not value:
        return default
    number = int(value) if value.isascii() and value.isdigit() and len(value) <= 9 else 0
    if number < 1 or (number > maximum and not clamp):
        raise InvalidQuery(
            f"{{Kind}} {{{name}}} musi być liczbą całkowitą od 1 do {maximum}, a jest: {{value}}",
            name,
            value=value,
        )
    return min(number, maximum)


def parse_params(args: Mapping[str, str]) -> SearchParams:
    """Validate request arguments (a Flask `request.args` or a dict); raise InvalidQuery with a message."""

    def text(name: str) -> str:
        value = clean_text(args.get(name) or "")
        if len(value) > MAX_QUERY_LENGTH:
            raise InvalidQuery(f"{{Kind}} {{{name}}} może mieć najwyżej {MAX_QUERY_LENGTH} znaków", name)
        return value

    time_from = parse_time(args.get("from") or "", "from")
    time_to = parse_time(args.get("to") or "", "to")
    if time_from is not None and time_to is not None and time_from > time_to:
        raise InvalidQuery("Godzina {from} jest późniejsza niż {to}", "from", "to")
    page, per_page = parse_paging(args)
    return SearchParams(
        q=text("q"),
        city=text("city"),
        diocese=text("diocese"),
        days=parse_days(args.get("day") or ""),
        near=parse_near(args.get("near") or ""),
        radius=parse_radius(args.get("radius") or ""),
        time_from=time_from,
        time_to=time_to,
        page=page,
        per_page=per_page,
        lang=parse_lang(args.get("lang") or ""),
    )


def parse_lang(value: str) -> tuple[str, ...]:
    """ "en", "en,uk", "latin" -> those tags (LANG_TAGS); anything else -> InvalidQuery."""
    tags = tuple(dict.fromkeys(part.strip().lower() for part in value.split(",") if part.strip()))
    unknown = [tag for tag in tags if tag not in LANG_TAGS]
    if unknown:
        allowed = ", ".join(LANG_TAGS)
        message = f"{{Kind}} {{lang}}: nieznany język lub ryt {{value}}; dozwolone: {allowed}"
        raise InvalidQuery(message, "lang", value=unknown[0])
    return tags


def parse_paging(args: Mapping[str, str]) -> tuple[int, int]:
    """(page, per_page) of a request: a page number from 1, and a page size clamped to MAX_PER_PAGE."""
    return (
        parse_int(args.get("page") or "", "page", 1, MAX_PAGE),
        parse_int(args.get("per_page") or "", "per_page", DEFAULT_PER_PAGE, MAX_PER_PAGE, clamp=True),
    )


def page_count(total: int, per_page: int) -> int:
    """Pages of `per_page` for `total` hits; one page for none."""
    return max(1, -(-total // per_page))


def parse_moment(value: str, name: str, now: datetime) -> datetime:
    """ "now", "" (now) or an ISO date-time ("2026-12-24T16:00", Warsaw time unless it says otherwise) at most
    MOMENT_YEARS from `now`; InvalidQuery otherwise (year 1 or 9999 would overflow the date arithmetic)."""
    value = value.strip()
    if value in ("", "now", "teraz"):
        return now.astimezone(WARSAW)
    try:
        moment = datetime.fromisoformat(value[:32])
    except ValueError:
        raise InvalidQuery(
            f"{{Kind}} {{{name}}} to data i godzina, np. 2026-12-24T16:00, a jest: {{value}}",
            name,
            value=value,
        ) from None
    try:
        moment = moment.replace(tzinfo=WARSAW) if moment.tzinfo is None else moment.astimezone(WARSAW)
        within = abs(moment - now) <= MOMENT_REACH
    except OverflowError:  # "0001-01-01T00:00+01:00" is still in year 0 in UTC
        within = False
    if not within:
        first, last = ((now + sign * MOMENT_REACH).astimezone(WARSAW).date() for sign in (-1, 1))
        raise InvalidQuery(
            f"{{Kind}} {{{name}}} może być najwyżej {MOMENT_YEARS} lat od dziś (od {first} do {last}), "
            "a jest: {value}",
            name,
            value=value,
        )
    return moment
