"""Crawl coordinates to (latitude, longitude) (docs/design.md, step 3).

The Naver local-search API gives ``mapx`` (longitude) and ``mapy`` (latitude) as WGS84 degrees
times 10^7 written as integers: ``"1271551201"`` is 127.1551201, ``"375630641"`` is 37.5630641.
Decimal degrees (``"127.155"``) are accepted as they are. Anything that does not land inside
:data:`KOREA_BOUNDS` is rejected with ``None``: the old API's KATECH projected numbers
(``"314417"``), zeros, garbage, a missing value. Because Korea's latitude and longitude ranges
do not overlap, a swapped pair is recognised and put right.

A document with an address but no usable coordinates is placed at the centroid of its dong
(:func:`geocode_address`, the gazetteer's administrative dong centroids); preprocessing flags it
``approximate_coordinates`` and answers say distances to it are approximate.
"""

from __future__ import annotations

import csv
import math
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

from matjip.words import word_map


@dataclass(frozen=True)
class Bounds:
    lat_min: float
    lat_max: float
    lon_min: float
    lon_max: float

    def contains(self, lat: float, lon: float) -> bool:
        return self.lat_min <= lat <= self.lat_max and self.lon_min <= lon <= self.lon_max


KOREA_BOUNDS: Final = Bounds(lat_min=33.0, lat_max=38.7, lon_min=124.5, lon_max=132.0)

_SCALE: Final = 10**7
_INTEGER = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.[0-9]*|\.[0-9]+)")


def _degrees(text: str | None) -> float | None:
    if text is None:
        return None
    s = str(text).strip()  # tolerate numbers despite the annotation
    if _INTEGER.fullmatch(s):
        if len(s.lstrip("+-")) > 12:  # far outside any coordinate; avoid huge ints
            return None
        return int(s) / _SCALE
    if _DECIMAL.fullmatch(s):
        value = float(s)
        return value if math.isfinite(value) else None
    return None


def parse_coordinates(mapx: str | None, mapy: str | None) -> tuple[float, float] | None:
    """``(lat, lon)`` inside :data:`KOREA_BOUNDS`, or ``None``. Never raises."""
    lon = _degrees(mapx)
    lat = _degrees(mapy)
    if lon is None or lat is None:
        return None
    if KOREA_BOUNDS.contains(lat, lon):
        return (lat, lon)
    if KOREA_BOUNDS.contains(lon, lat):  # given the other way round
        return (lon, lat)
    return None


# --- address fallback (issue 12) ----------------------------------------------------------------
CENTROIDS_FILE: Final = (
    Path(__file__).resolve().parents[1] / "data" / "gazetteer" / "admin_dong_centroids_2022.csv"
)
_SIDO_ALIASES: Final[dict[str, str]] = {
    alias: sido for sido, aliases in word_map("address_regions", "sido_aliases").items() for alias in aliases
}
_DONG_STEM = re.compile(r"^(.+?)(?:제?\d+)?(?:본)?(?:동|가|읍|면)$")


def _stem(name: str) -> str:
    m = _DONG_STEM.match(name)
    return m.group(1) if m else name


@cache
def _centroids() -> dict[tuple[str, str], list[tuple[str, float, float]]]:
    """(sido, sigungu without spaces) → [(admin dong, lat, lon)] from the gazetteer's dong centroids."""
    out: dict[tuple[str, str], list[tuple[str, float, float]]] = {}
    with CENTROIDS_FILE.open(encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh):
            key = (row["sidonm"], row["sggnm"].replace(" ", ""))
            out.setdefault(key, []).append((row["emd_nm"], float(row["lat"]), float(row["lon"])))
    return out


def geocode_address(address: str) -> tuple[float, float] | None:
    """Approximate ``(lat, lon)`` of a lot-number address ("서울 송파구 가락동 123") from the centroids of
    the administrative dongs of its legal dong (가락동 → 가락본동, 가락1동, 가락2동), or None when the
    address names no dong the gazetteer knows (road addresses, places outside the capital area)."""
    words = address.split()
    if len(words) < 3:
        return None
    sido = _SIDO_ALIASES.get(words[0], words[0])
    table = _centroids()
    for n_sgg in (2, 1):  # "수원시 장안구" before "송파구"
        if len(words) < 1 + n_sgg + 1:
            continue
        dongs = table.get((sido, "".join(words[1 : 1 + n_sgg])))
        if not dongs:
            continue
        dong = words[1 + n_sgg]
        if not dong.endswith(("동", "가", "읍", "면")):
            return None
        stem = _stem(dong)
        hits = [(lat, lon) for name, lat, lon in dongs if name == dong or _stem(name) == stem]
        if not hits:
            return None
        return (sum(h[0] for h in hits) / len(hits), sum(h[1] for h in hits) / len(hits))
    return None
