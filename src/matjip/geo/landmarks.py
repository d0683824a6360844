"""Landmarks and everyday names: the typed reader of ``data/gazetteer/landmarks.tsv``.

The file is UTF-8, tab-separated, one row a line; lines starting with ``#`` and blank lines are
ignored, and the first other line is the header ``name, type, aliases, lat, lon, radius_m, region,
note`` (the last three may be left out at the end of a row). Columns:

``name``
    The official or usual name of a point place ("석촌호수", "롯데월드몰"). For an alias row: the exact
    name of the gazetteer place the aliases belong to ("잠실새내역", "영등포 타임스퀘어", "마포구").
``type``
    A point place (:data:`POINT_KINDS`): ``landmark``, ``mall``, ``market``, ``park``, ``street``,
    ``food_alley`` or ``area`` (a named neighbourhood or new town that is no administrative unit:
    위례신도시, 판교 테크노밸리). Or more names for a place the gazetteer already has
    (:data:`ALIAS_KINDS`): ``station_alias`` (a subway station), ``hot_place_alias`` (one of Seoul's
    hot places) or ``district_alias`` (a sido, si/gun/gu or dong).
``aliases``
    Other names, comma-separated ("올공,올팍"). Spaces inside a name do not matter for lookup.
``lat``, ``lon``
    WGS84. For a point place the point searched around; for an alias row the target's own point,
    which picks the right one of same-name places (양평역) and must lie within
    :data:`ALIAS_TARGET_MAX_M` of it.
``radius_m``
    Default search radius in metres; empty means the kind's default (:data:`DEFAULT_RADIUS_M`).
``region``
    Sido and si/gun/gu as in addresses ("경기 하남시", "경기 성남시 중원구") where the outlines would
    place the point wrongly (the Gyeonggi outlines are coarse); empty means "from the outlines".
``note``
    Free text: how the point was checked (restaurants naming the place, distance to the related
    station).

A point place becomes a :class:`~matjip.geo.gazetteer.Place` of type ``landmark`` (a radius search
around a point, never a region); its aliases are ordinary aliases, so a name two far-apart rows share
("법조타운": 문정, 서초) is ambiguous. Aliases of alias rows are curated: they rank above every official
name and are never ambiguous (see :class:`~matjip.geo.gazetteer.Gazetteer`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Final

from matjip.words import word_map, words


class LandmarkKind(StrEnum):
    LANDMARK = "landmark"
    MALL = "mall"
    MARKET = "market"
    PARK = "park"
    STREET = "street"
    FOOD_ALLEY = "food_alley"
    AREA = "area"
    STATION_ALIAS = "station_alias"
    HOT_PLACE_ALIAS = "hot_place_alias"
    DISTRICT_ALIAS = "district_alias"

    @property
    def is_alias(self) -> bool:
        return self in ALIAS_KINDS


ALIAS_KINDS: frozenset[LandmarkKind] = frozenset(
    {LandmarkKind.STATION_ALIAS, LandmarkKind.HOT_PLACE_ALIAS, LandmarkKind.DISTRICT_ALIAS}
)
POINT_KINDS: frozenset[LandmarkKind] = frozenset(k for k in LandmarkKind if k not in ALIAS_KINDS)

# Korean labels of the point kinds (Place.category of a landmark; data/words/gazetteer.toml).
KIND_LABELS: Final[dict[LandmarkKind, str]] = {
    LandmarkKind(kind): label for kind, (label,) in word_map("gazetteer", "landmark_kinds").items()
}

# A building or a park is "근처" within walking distance (as a station); streets, markets and food
# alleys are a few hundred metres long; an area (a new town) is 3-5 km across.
DEFAULT_RADIUS_M: dict[LandmarkKind, int] = {
    LandmarkKind.LANDMARK: 1000,
    LandmarkKind.MALL: 1000,
    LandmarkKind.PARK: 1000,
    LandmarkKind.MARKET: 700,
    LandmarkKind.STREET: 700,
    LandmarkKind.FOOD_ALLEY: 500,
    LandmarkKind.AREA: 2000,
}

ALIAS_TARGET_MAX_M = 1000.0
# (min lat, min lon, max lat, max lon): the capital area and a margin.
CAPITAL_AREA_BOX = (36.8, 125.9, 38.3, 127.9)
# The header row, column by column (data/words/gazetteer.toml).
HEADER: Final = words("gazetteer", "landmark_columns")
_REGION_SIDO = ("서울", "경기", "인천")
_REQUIRED = 5


class LandmarkFileError(ValueError):
    """A malformed row of the landmarks file (the message names the line)."""


@dataclass(frozen=True)
class LandmarkRow:
    """One row of the landmarks file."""

    name: str
    kind: LandmarkKind
    aliases: tuple[str, ...]
    lat: float
    lon: float
    radius_m: int | None = None
    region: str = ""
    note: str = ""
    line: int = 0

    @property
    def default_radius_m(self) -> int:
        """The search radius of a point place (the row's own or the kind's default)."""
        if self.radius_m is not None:
            return self.radius_m
        return DEFAULT_RADIUS_M.get(self.kind, 1000)

    @property
    def category(self) -> str:
        """The Korean label of a point kind ("쇼핑몰"); ``""`` for alias rows."""
        return KIND_LABELS.get(self.kind, "")


def _compact(text: str) -> str:
    return "".join(text.split()).lower()


def parse_landmarks(text: str, source: str = "landmarks.tsv") -> list[LandmarkRow]:
    """Rows of a landmarks file given as text; raises :class:`LandmarkFileError` on bad rows."""
    rows: list[LandmarkRow] = []
    header_seen = False
    point_names: dict[str, int] = {}
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        cells = [c.strip() for c in line.split("\t")]
        where = f"{source}:{lineno}"
        if not header_seen:
            if tuple(cells) != HEADER:
                raise LandmarkFileError(f"{where}: expected the header {'<TAB>'.join(HEADER)}")
            header_seen = True
            continue
        row = _parse_row(cells, where, lineno)
        if not row.kind.is_alias:
            key = _compact(row.name)
            if key in point_names:
                raise LandmarkFileError(f"{where}: {row.name!r} is already on line {point_names[key]}")
            point_names[key] = lineno
        rows.append(row)
    if not header_seen:
        raise LandmarkFileError(f"{source}: no header row")
    return rows


def _parse_row(cells: list[str], where: str, lineno: int) -> LandmarkRow:
    """One row after the header, checked cell by cell."""
    if not _REQUIRED <= len(cells) <= len(HEADER):
        raise LandmarkFileError(f"{where}: {len(cells)} columns, expected {_REQUIRED}-{len(HEADER)}")
    cells = cells + [""] * (len(HEADER) - len(cells))
    name, kind_s, aliases_s, lat_s, lon_s, radius_s, region, note = cells
    if len(_compact(name)) < 2:
        raise LandmarkFileError(f"{where}: empty or one-letter name {name!r}")
    kind = _parse_kind(kind_s, where)
    lat, lon = _parse_point(lat_s, lon_s, where)
    radius = _parse_radius(radius_s, kind, where)
    region = _parse_region(region, kind, where)
    aliases = _parse_aliases(aliases_s, name, kind, where)
    return LandmarkRow(name, kind, aliases, lat, lon, radius, region, note, lineno)


def _parse_kind(kind_s: str, where: str) -> LandmarkKind:
    try:
        return LandmarkKind(kind_s)
    except ValueError:
        kinds = ", ".join(k.value for k in LandmarkKind)
        raise LandmarkFileError(f"{where}: unknown type {kind_s!r} (one of {kinds})") from None


def _parse_point(lat_s: str, lon_s: str, where: str) -> tuple[float, float]:
    try:
        lat, lon = float(lat_s), float(lon_s)
    except ValueError:
        raise LandmarkFileError(f"{where}: lat/lon {lat_s!r}, {lon_s!r} are no numbers") from None
    lat0, lon0, lat1, lon1 = CAPITAL_AREA_BOX
    if not (lat0 <= lat <= lat1 and lon0 <= lon <= lon1):
        raise LandmarkFileError(f"{where}: {lat}, {lon} is outside the capital area (lat/lon swapped?)")
    return lat, lon


def _parse_radius(radius_s: str, kind: LandmarkKind, where: str) -> int | None:
    if not radius_s:
        return None
    if not radius_s.isdigit() or not 100 <= int(radius_s) <= 20_000:
        raise LandmarkFileError(f"{where}: radius_m {radius_s!r} is not 100-20000")
    if kind.is_alias:
        raise LandmarkFileError(f"{where}: an alias row has no radius of its own")
    return int(radius_s)


def _parse_region(region: str, kind: LandmarkKind, where: str) -> str:
    region = " ".join(region.split())
    if region and (kind.is_alias or len(region.split()) < 2 or region.split()[0] not in _REGION_SIDO):
        raise LandmarkFileError(
            f"{where}: region {region!r} is not '<서울|경기|인천> <si/gun/gu>' of a point place"
        )
    return region


def _parse_aliases(aliases_s: str, name: str, kind: LandmarkKind, where: str) -> tuple[str, ...]:
    aliases: list[str] = []
    for a in aliases_s.split(","):
        a = " ".join(a.split())
        if not a:
            continue
        if len(_compact(a)) < 2:
            raise LandmarkFileError(f"{where}: alias {a!r} is shorter than two letters")
        # an alias row may boost its target's own name ("종로" -> the legal dong 종로)
        if (a != name or kind.is_alias) and a not in aliases:
            aliases.append(a)
    if kind.is_alias and not aliases:
        raise LandmarkFileError(f"{where}: an alias row without aliases")
    return tuple(aliases)


def read_landmarks(path: Path) -> list[LandmarkRow]:
    """Rows of the landmarks file at ``path`` (see the module docstring for the format)."""
    return parse_landmarks(Path(path).read_text(encoding="utf-8-sig"), source=Path(path).name)
