"""A place by name, offline: a town, a district, a street or a postcode turned into coordinates from the
project's own directory (the parishes' addresses and the places stage's coordinates), never from a remote
geocoder. A town, a district, a postcode or a street is the centre of the parishes it holds.

`Gazetteer.from_rows` builds it from (city, address, voivodeship, lat, lng) rows; `find` answers a typed name,
`suggest` the names that start with what is typed so far (the search form's <datalist>).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import Connection, select

from msze.search.db import parishes
from msze.utils.text import fold

POSTCODE_RE = re.compile(r"\b(\d{2})-?(\d{3})\b", re.ASCII)
STREET_PREFIX_RE = re.compile(r"^(ul|ulica|al|aleja|aleje|pl|plac|os|osiedle|rynek)\b\.?\s*", re.IGNORECASE)
# words of a typed place that name no place: street kinds ("ul."), house numbers ("4", "12a", "3/5")
_NOISE = frozenset({"ul", "ulica", "al", "aleja", "aleje", "pl", "plac", "os", "osiedle"})
_WORD_RE = re.compile(r"\w+")
_VOIVODESHIP_RE = re.compile(r"\s*\(woj\.[^)]*\)\s*$")
_PARTIAL_POSTCODE_RE = re.compile(r"^(\d{2})-?(\d{0,3})$", re.ASCII)
KINDS = {"town": "miejscowość", "district": "dzielnica", "postcode": "kod pocztowy", "street": "ulica"}
KIND_ORDER = ("town", "district", "postcode", "street")  # a name that is both a town and a street is the town


@dataclass(frozen=True, slots=True)
class Place:
    """A named place: its label as shown, its kind (KINDS), the centre of its parishes, how many they are."""

    label: str
    kind: str
    lat: float
    lng: float
    parishes: int


def place_key(text: str) -> str:
    """A typed or stored place name reduced to its words: folded, no street kinds, no house numbers
    ("ul. Lipowa 4, Łódź" -> "lipowa lodz"; "Kraków-Bieńczyce" -> "krakow bienczyce")."""
    words = _WORD_RE.findall(fold(text))
    return " ".join(w for w in words if w not in _NOISE and not any(ch.isdigit() for ch in w))


def postcode(text: str) -> str | None:
    """The postcode written in `text` as "NN-NNN" ("90001" too), or None."""
    match = POSTCODE_RE.search(text)
    return f"{match.group(1)}-{match.group(2)}" if match else None


class Gazetteer:
    """Place names of one directory, each with the centre of its parishes."""

    def __init__(self, places: Iterable[Place]) -> None:
        self.by_key: dict[str, list[Place]] = {}
        for place in places:
            for key in _keys(place):
                self.by_key.setdefault(key, []).append(place)
        for found in self.by_key.values():
            found.sort(key=lambda p: (KIND_ORDER.index(p.kind), -p.parishes, p.label))
        self.keys = sorted(self.by_key)

    @classmethod
    def from_rows(cls, rows: Iterable[tuple[str, str, str, float | None, float | None]]) -> Gazetteer:
        """From (city, address lines joined by "\\n", voivodeship, lat, lng) of each parish; those without
        coordinates are left out."""
        rows = [r for r in rows if r[3] is not None and r[4] is not None]
        cities = {fold(city) for city, *_ in rows}
        groups: dict[tuple[str, str, str], list[tuple[float, float]]] = {}  # (kind, label, voivodeship)
        for city, address, voivodeship, lat, lng in rows:
            for kind, label in _names(city, address, cities):
                groups.setdefault((kind, label, voivodeship), []).append((lat, lng))
        labels_per_name: dict[tuple[str, str], int] = {}
        for kind, label, _voivodeship in groups:
            labels_per_name[(kind, label)] = labels_per_name.get((kind, label), 0) + 1
        places = []
        for (kind, label, voivodeship), points in groups.items():
            shown = label
            if labels_per_name[(kind, label)] > 1 and voivodeship:  # "Nowa Wieś" in two voivodeships
                shown = f"{label} (woj. {voivodeship})"
            lat = sum(p[0] for p in points) / len(points)
            lng = sum(p[1] for p in points) / len(points)
            places.append(Place(shown, kind, round(lat, 5), round(lng, 5), len(points)))
        return cls(places)

    def find(self, text: str) -> Place | None:
        """The place `text` names: its postcode when it has one, else the town, district or street whose
        words it is (a town with the most parishes first); None when the directory has no such place."""
        code = postcode(text)
        if code is not None:
            found = self.by_key.get(code)
            return found[0] if found else None
        key = place_key(text)
        found = self.by_key.get(key)
        if found:
            return found[0]
        # "Nowa Wieś (woj. pomorskie)": a label as `suggest` shows it
        stripped = place_key(_VOIVODESHIP_RE.sub("", text))
        wanted = fold(text.strip())
        return next((p for p in self.by_key.get(stripped, []) if fold(p.label) == wanted), None)

    def suggest(self, text: str, limit: int = 8) -> list[Place]:
        """Up to `limit` places whose name starts with what `text` says so far, towns and the larger first."""
        partial = _PARTIAL_POSTCODE_RE.match(text.strip())
        key = partial.group(1) + "-" + partial.group(2) if partial else place_key(text)
        key = key.rstrip("-")
        if len(key) < 2:
            return []
        start = bisect_left(self.keys, key)
        hits: list[Place] = []
        for name in self.keys[start:]:
            if not name.startswith(key) or len(hits) > 200:
                break
            hits.extend(self.by_key[name])
        hits = list(dict.fromkeys(hits))  # a district is under its own name and its town's
        hits.sort(key=lambda p: (KIND_ORDER.index(p.kind), -p.parishes, p.label))
        return hits[:limit]


def _keys(place: Place) -> list[str]:
    """What a place is found by: a postcode by itself; a name by its words, a district also without its town
    ("bienczyce"), a street also without its town ("lipowa")."""
    if place.kind == "postcode":
        return [postcode(place.label) or ""]
    label = _VOIVODESHIP_RE.sub("", place.label)
    keys = [place_key(label)]
    if place.kind == "district":
        keys.append(place_key(re.split(r"[\s-]", label, maxsplit=1)[-1]))
    elif place.kind == "street":
        keys.append(place_key(label.rsplit(",", 1)[0]))
    return [key for key in dict.fromkeys(keys) if key]


def _names(city: str, address: str, cities: set[str]) -> list[tuple[str, str]]:
    """The (kind, label) names one parish lies in: its town, its district ("Kraków-Bieńczyce" when "Kraków" is
    a town of the directory), its postcode and its street."""
    names = []
    town = re.split(r"[\s-]", city, maxsplit=1)[0]
    if town == city or fold(town) not in cities:
        names.append(("town", city))
    else:  # a district: it counts for its town as well
        names += [("town", town), ("district", city)]
    lines = [line.strip() for line in address.split("\n") if line.strip()]
    for line in lines:
        code = postcode(line)
        if code is not None:
            names.append(("postcode", f"{code} {city}"))
            break
    for line in lines:
        match = STREET_PREFIX_RE.match(line)
        if match:
            street = re.sub(r"\s+\d+\w*(?:\s*[/-]\s*\d+\w*)?\s*$", "", line).strip(" ,")
            if place_key(street):
                names.append(("street", f"{street}, {city}"))
            break
    return names


def gazetteer(conn: Connection) -> Gazetteer:
    """The gazetteer of the database's parishes."""
    p = parishes.c
    return Gazetteer.from_rows(conn.execute(select(p.city, p.address, p.voivodeship, p.lat, p.lng)).all())
