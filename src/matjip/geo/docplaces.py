"""Dongs the gazetteer has no point for, placed by the restaurants themselves (issue 24, class 1).

The gazetteer's Gyeonggi and Incheon dongs are administrative (행정동) with a centroid each; the legal
dongs of their new towns (하남 학암동, 성남 창곡동) have no point of their own, and "학암동 카페" found no
place. The documents do know where they are: a jibun address or the parenthesis of a road address
names the legal dong ("경기 하남시 학암동 670", "… 위례학암로 35 (학암동)"), and where the crawl keeps no
such address, the branch names of chains and the names of the roads are named after it ("○○
위례창곡점", "위례학암로14번길"). A dong's position is the medoid of those restaurants, per si/gun/gu,
kept only when most of them lie close together (a road through a city, or a chain's branch word
used all over, is no dong's position).

Built once from the documents when the gazetteer is (``matjip.agent.cache``) and kept on it
(:attr:`matjip.geo.gazetteer.Gazetteer.document_dongs`).
"""

from __future__ import annotations

import re
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final

from matjip.geo.distance import haversine_m
from matjip.geo.names import address_dongs, parse_address_region
from matjip.geo.places import RADIUS_DONG_M, RADIUS_HOT_PLACE_M, Place, PlaceType
from matjip.words import words

# A dong's restaurants: this share of them within this distance of their medoid, else no position.
CLUSTER_M: Final = 1500.0
CLUSTER_SHARE: Final = 0.6
# Evidence from branch and road names only: at least this many restaurants at two addresses or more.
MIN_BY_WORDS: Final = 3
_MAX_MEDOID_POINTS: Final = 300
# A place named only by branch and road words ("○○ 위례중앙광장점"): at least this many characters (a
# two-letter word is too often something else)
MIN_NAME_CHARS: Final = 3

_BRANCH = re.compile(r"^([가-힣]{2,})점$")
_NOT_BRANCH: Final = frozenset(words("gazetteer", "branch_stems_not_places"))
_ROAD = re.compile(r"^([가-힣]{2,}?)(?:대로|로|길)(?:\d+(?:번)?[가-힣]?길)?$")
_DONG_NAME = re.compile(r"^([가-힣]{2,})동$")


@dataclass(frozen=True)
class DocPoint:
    """One restaurant's position and the si/gun/gu its address names."""

    lat: float
    lon: float
    sido: str
    sigungu: str
    address: str


@dataclass
class DocumentDongs:
    """Restaurant positions by the dong their address names, and by their branch and road words."""

    named: dict[str, list[DocPoint]] = field(default_factory=dict)  # "학암동" -> points
    words: dict[str, list[DocPoint]] = field(default_factory=dict)  # "위례학암" -> points

    @classmethod
    def from_documents(
        cls, rows: Iterable[tuple[str, str, str, float | None, float | None]]
    ) -> DocumentDongs:
        """``rows``: (title, jibun address, road address, lat, lon) of each document."""
        named: dict[str, list[DocPoint]] = defaultdict(list)
        worded: dict[str, list[DocPoint]] = defaultdict(list)
        for title, address, road, lat, lon in rows:
            if lat is None or lon is None:
                continue
            sido, sigungu = parse_address_region(road or address)
            if not sido or not sigungu:
                continue
            point = DocPoint(lat, lon, sido, sigungu, road or address)
            for dong in dict.fromkeys([*address_dongs(address), *address_dongs(road)]):
                named[dong].append(point)
            for word in _words(title, road):
                worded[word].append(point)
        return cls(dict(named), dict(worded))

    def places(self, name: str) -> list[Place]:
        """The places of a dong name ("학암동"), one per si/gun/gu whose restaurants place it, most
        restaurants first; none when the name is no dong's or its restaurants lie apart."""
        points = self.named.get(name, [])
        by_words = False
        if not points:
            m = _DONG_NAME.match(name)
            if m is None:
                return []
            stem = m.group(1)
            points = [p for w, ps in self.words.items() if w.endswith(stem) for p in ps]
            by_words = True
        groups: dict[tuple[str, str], list[DocPoint]] = defaultdict(list)
        for p in points:
            groups[(p.sido, p.sigungu)].append(p)
        found: list[tuple[int, Place]] = []
        for (sido, sigungu), group in groups.items():
            if by_words and (len(group) < MIN_BY_WORDS or len({p.address for p in group}) < 2):
                continue
            centre = _cluster_centre(group)
            if centre is None:
                continue
            lat, lon, n = centre
            found.append((n, _place(name, sido, sigungu, lat, lon, n, by_words)))
        found.sort(key=lambda t: -t[0])
        return [p for _, p in found]

    def named_place(self, word: str) -> Place | None:
        """ "위례중앙광장", "잠실장미상가": a name no dong carries that at least ``MIN_BY_WORDS`` restaurants
        at two addresses or more carry as their branch word ("○○ 위례중앙광장점") or their road's — the
        median point of the close ones (a square may straddle two cities: no grouping by si/gun/gu; the
        region is the one most of them lie in); None when they lie apart."""
        group = self.words.get(word, [])
        if len(word) < MIN_NAME_CHARS or len(group) < MIN_BY_WORDS or len({p.address for p in group}) < 2:
            return None
        if _cluster_centre(group) is None:
            return None
        medoid = _medoid(group[:_MAX_MEDOID_POINTS])
        near = [p for p in group if haversine_m(p.lat, p.lon, medoid.lat, medoid.lon) <= CLUSTER_M]
        lat, lon = statistics.median(p.lat for p in near), statistics.median(p.lon for p in near)
        regions = Counter((p.sido, p.sigungu) for p in near)
        (sido, sigungu), _ = regions.most_common(1)[0]
        return Place(
            key=f"document_place:{sido}:{sigungu}:{word}",
            name=word,
            type=PlaceType.LANDMARK,
            lat=round(lat, 6),
            lon=round(lon, 6),
            sido=sido,
            sigungu=sigungu,
            default_radius_m=RADIUS_HOT_PLACE_M,
            display_name=f"{word} ({sido} {sigungu})",
            source=f"the branch and road names of {len(near)} restaurants in the data (median)",
        )


def _words(title: str, road: str) -> list[str]:
    """The branch word of a title ("○○ 위례창곡점" -> 위례창곡) and the road word of a road address
    ("경기 하남시 위례학암로14번길 35" -> 위례학암)."""
    out: list[str] = []
    parts = title.split()
    if len(parts) > 1 and (m := _BRANCH.match(parts[-1])) and m.group(1) not in _NOT_BRANCH:
        out.append(m.group(1))
    for token in road.split()[1:4]:
        if (m := _ROAD.match(token)) and not token.endswith(("시", "군", "구")):
            out.append(m.group(1))
            break
    return out


def _cluster_centre(points: list[DocPoint]) -> tuple[float, float, int] | None:
    """The medoid of the points close to the medoid of all (lat, lon, how many), or None when too
    few of them are close."""
    sample = points[:_MAX_MEDOID_POINTS]
    medoid = _medoid(sample)
    near = [p for p in points if haversine_m(p.lat, p.lon, medoid.lat, medoid.lon) <= CLUSTER_M]
    if len(near) < CLUSTER_SHARE * len(points):
        return None
    centre = _medoid(near[:_MAX_MEDOID_POINTS])
    return centre.lat, centre.lon, len(near)


def _medoid(points: list[DocPoint]) -> DocPoint:
    return min(points, key=lambda p: sum(haversine_m(p.lat, p.lon, q.lat, q.lon) for q in points))


def _place(name: str, sido: str, sigungu: str, lat: float, lon: float, n: int, by_words: bool) -> Place:
    how = "branch and road names" if by_words else "addresses"
    return Place(
        key=f"document_dong:{sido}:{sigungu}:{name}",
        name=name,
        type=PlaceType.LEGAL_DONG,
        lat=round(lat, 6),
        lon=round(lon, 6),
        aliases=[f"{sigungu} {name}", f"{sigungu.split()[0].removesuffix('시')} {name}"],
        sido=sido,
        sigungu=sigungu,
        dong=name,
        default_radius_m=RADIUS_DONG_M,
        display_name=f"{name} (법정동, {sido} {sigungu})",
        source=f"the {how} of {n} restaurants in the data (medoid)",
    )
