"""Collected places as crawl records (docs/design.md, the crawl document) and their merge.

A record carries the crawl fields ``matjip ingest`` reads (``place_id``, ``title``, ``category`` as
``"한식>국밥"``, ``address``, ``roadAddress``, ``mapx``/``mapy`` as WGS84 × 10⁷ strings, ``telephone``,
``menus``, ``businessHours``, ``reviewKeywords``, ``reviews``, ``rating``, ``reviewCount``), the
``source`` (``kakao``, ``naver`` or ``kakao+naver``) and ``provenance`` (the id each source gave it).
"""

from __future__ import annotations

import hashlib
import html
import re
from collections import defaultdict
from collections.abc import Iterable
from typing import Any, Final

from pydantic import BaseModel, Field

from matjip.geo.distance import haversine_m
from matjip.words import word_map

# the root of Kakao's category paths ("음식점 > 한식 > 국밥"): every collected place is one
CATEGORY_ROOTS = ("음식점",)
SAME_PLACE_M = 100.0
_TAG = re.compile(r"<[^>]+>")
_NAME_NOISE = re.compile(r"[^0-9a-z가-힣]")
_ADDRESS_NOISE = re.compile(r"[\s,.\-()]")
# Naver writes "서울특별시 …", Kakao "서울 …": the first word compared in its short form
# a full sido name → its short name ("서울특별시" → "서울")
_SIDO_SHORT: Final = {
    full: short for short, fulls in word_map("record_regions", "sido_short").items() for full in fulls
}


class CollectedPlace(BaseModel):
    """One place in the crawl format, plus where it came from."""

    place_id: str
    title: str
    category: str = ""
    address: str = ""
    roadAddress: str = ""
    mapx: str | None = None
    mapy: str | None = None
    telephone: str | None = None
    menus: list[dict[str, str]] = Field(default_factory=list)
    businessHours: str | None = None
    reviewKeywords: dict[str, int] = Field(default_factory=dict)
    reviews: list[str] = Field(default_factory=list)
    rating: float | None = None
    reviewCount: int | None = None
    description: str = ""
    place_url: str | None = None
    category_group: str | None = None  # Kakao's FD6 (음식점) / CE7 (카페)
    source: str
    provenance: dict[str, str] = Field(default_factory=dict)

    @property
    def lon(self) -> float | None:
        return from_e7(self.mapx)

    @property
    def lat(self) -> float | None:
        return from_e7(self.mapy)

    def record(self) -> dict[str, Any]:
        return self.model_dump(exclude_none=True)


def to_e7(value: float) -> str:
    """WGS84 degrees as the crawl format's integer string (127.0530139 → "1270530139")."""
    return str(round(value * 10_000_000))


def from_e7(text: str | None) -> float | None:
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    return value / 10_000_000 if abs(value) > 1000 else value


def crawl_category(path: str) -> str:
    """``"음식점 > 한식 > 국밥"`` → ``"한식>국밥"`` (root dropped, no spaces around '>')."""
    parts = [p.strip() for p in path.split(">") if p.strip()]
    if len(parts) > 1 and parts[0] in CATEGORY_ROOTS:
        parts = parts[1:]
    return ">".join(parts)


def strip_tags(text: str) -> str:
    """Naver's titles mark the query words: ``"<b>국밥</b>집"`` → ``"국밥집"``."""
    return html.unescape(_TAG.sub("", text or "")).strip()


def name_key(name: str) -> str:
    """A name compared across sources: lower case, letters and digits only."""
    return _NAME_NOISE.sub("", name.lower())


def address_key(address: str) -> str:
    words = (address or "").split()
    if words:
        words[0] = _SIDO_SHORT.get(words[0], words[0])
    return _ADDRESS_NOISE.sub("", "".join(words))


def naver_place_id(title: str, address: str, mapx: str | None, mapy: str | None) -> str:
    """Naver's local search gives no id: a stable one from the name and the address (or point)."""
    where = address_key(address) or f"{mapx},{mapy}"
    return "naver-" + hashlib.sha1(f"{name_key(title)}|{where}".encode()).hexdigest()[:16]


def _same_place(a: CollectedPlace, b: CollectedPlace) -> bool:
    if name_key(a.title) != name_key(b.title):
        return False
    for x, y in ((a.roadAddress, b.roadAddress), (a.address, b.address)):
        if x and y and address_key(x) == address_key(y):
            return True
    if None in (a.lat, a.lon, b.lat, b.lon):
        return False
    return haversine_m(a.lat, a.lon, b.lat, b.lon) <= SAME_PLACE_M  # type: ignore[arg-type]


def _sources(p: CollectedPlace) -> set[str]:
    return set(p.provenance) or set(p.source.split("+"))


def _combine(base: CollectedPlace, other: CollectedPlace) -> CollectedPlace:
    """``base`` with the empty fields filled from ``other`` and both sources' provenance."""
    data = base.model_dump()
    extra = other.model_dump()
    for name, value in extra.items():
        if name in ("place_id", "source", "provenance"):
            continue
        if data.get(name) in (None, "", [], {}) and value not in (None, "", [], {}):
            data[name] = value
    provenance = {**other.provenance, **base.provenance}
    data["provenance"] = provenance
    order = ("kakao", "naver")
    data["source"] = "+".join(sorted(provenance, key=lambda s: (order.index(s) if s in order else 9, s)))
    return CollectedPlace.model_validate(data)


def merge_places(places: Iterable[CollectedPlace]) -> list[CollectedPlace]:
    """One record per restaurant. Within a source the id decides (the last record of an id wins);
    across sources the same restaurant is the same normalised name at ≤ 100 m or at the same address.
    A Kakao record is the base (its id is the place_id); the others fill its empty fields."""
    by_id: dict[tuple[str, str], CollectedPlace] = {}
    for p in places:
        by_id[(p.source, p.place_id)] = p
    ordered = sorted(by_id.values(), key=lambda p: (0 if "kakao" in _sources(p) else 1, p.place_id))
    groups: dict[str, list[CollectedPlace]] = defaultdict(list)
    out: list[CollectedPlace] = []
    for p in ordered:
        bucket = groups[name_key(p.title)]
        for i, q in enumerate(bucket):
            if not (_sources(p) & _sources(q)) and _same_place(q, p):
                bucket[i] = _combine(q, p)
                break
        else:
            bucket.append(p)
    for bucket in groups.values():
        out.extend(bucket)
    out.sort(key=lambda p: p.place_id)
    return out
