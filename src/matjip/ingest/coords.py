"""Crawl coordinates to (latitude, longitude) (docs/design.md, step 3).

The Naver local-search API gives ``mapx`` (longitude) and ``mapy`` (latitude) as WGS84 degrees
times 10^7 written as integers: ``"1271551201"`` is 127.1551201, ``"375630641"`` is 37.5630641.
Decimal degrees (``"127.155"``) are accepted as they are. Anything that does not land inside
:data:`KOREA_BOUNDS` is rejected with ``None``: the old API's KATECH projected numbers
(``"314417"``), zeros, garbage, a missing value. Because Korea's latitude and longitude ranges
do not overlap, a swapped pair is recognised and put right.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Final


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
