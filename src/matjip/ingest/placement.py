"""A corpus pass over the crawl's coordinates before the records are processed (issue 24, audit r10 FA).

The local-search crawl sometimes gives one point to many restaurants along a road: 15 places on
서초구 강남대로 from No. 184 to No. 345 (1.6 km apart) share ``(127.0211737, 37.5111077)``, 25 on
마포구 동교로 from No. 77 to No. 267 share another. Such a point is a placeholder, not a position:
answers measured from it put 양재 restaurants 790 m from 신사동.

:func:`placements` finds these groups and places each of their records again:

* a **placeholder group** is a point shared by at least :data:`MIN_GROUP` records whose road-name
  addresses on one road lie at least :data:`MIN_SPREAD` building numbers apart (a number counts
  about ten metres along its road, so the group spans 100 m or more). Records of one building
  (법원로 114: a mall) share a point rightly and are left alone.
* each record of a group whose road puts it :data:`MIN_MOVE_M` or more away is put back **on its
  road** by its building number, between the two
  nearest restaurants of the same road whose points are their own — no point shared by two
  addresses apart on the road is taken for one (linear in the number), or
  at one of them when it is within :data:`NEAR_NUMBERS` numbers; the record is flagged
  ``estimated_coordinates`` (answers say the distance is estimated from the address).
  Measured leave-one-out on the demo crawl: median 36 m, 90th percentile 138 m from the true point.
* the others keep the shared point, flagged ``shared_coordinates`` (answers say the position is
  uncertain; moving them by a few hundred metres would be a guess the cards could not show).

The pass sees the records of one ingest run (every input file together).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final, Literal

from matjip.geo.distance import haversine_m
from matjip.ingest.coords import parse_coordinates

MIN_GROUP: Final = 3  # records sharing one point before it can be a placeholder
MIN_SPREAD: Final = 10  # building numbers (~100 m) between the farthest two on one road of a group
NEAR_NUMBERS: Final = 20  # one-sided: a restaurant of the same road this close in number gives its point
# a record is moved only when its road puts it at least this far from the shared point (beyond any
# "near" radius: 양재 branches said to be near 신사동); nearer, it keeps the point, said uncertain
MIN_MOVE_M: Final = 1000.0

# "서울 서초구 강남대로 222-6 2층" → road "서울 서초구 강남대로", number 222 (the sub-number is ignored)
_ROAD_ADDRESS: Final = re.compile(
    r"^(?P<road>(?:\S+\s+){1,3}?\S+(?:로|길))\s+(?P<number>\d+)(?:-\d+)?(?:\s|,|$)"
)

Flag = Literal["estimated_coordinates", "shared_coordinates"]


@dataclass(frozen=True)
class Placement:
    """Where one record of a placeholder group is put, and the flag that says how sure it is."""

    lat: float
    lon: float
    flag: Flag


@dataclass(frozen=True)
class Located:
    """The fields of one raw record the pass reads."""

    place_id: str
    mapx: str | None
    mapy: str | None
    road_address: str


def road_number(road_address: str) -> tuple[str, int] | None:
    """``("서울 강남대로", 222)`` for "서울 서초구 강남대로 222-6 2층"; ``None`` without a number.

    A road is named once per city, not per gu (강남대로 runs along 서초구 and 강남구 with one
    numbering), so the key keeps the province and a city (``시``/``군``) but drops the gu."""
    m = _ROAD_ADDRESS.match(" ".join(road_address.split()))
    if m is None:
        return None
    *region, road = m.group("road").split()
    city = [region[0], *(t for t in region[1:] if t.endswith(("시", "군")))]
    return " ".join([*city, road]), int(m.group("number"))


def _spread(members: list[tuple[str, int] | None]) -> bool:
    """Do addresses on one road at least :data:`MIN_SPREAD` numbers apart share the point?"""
    by_road: dict[str, list[int]] = defaultdict(list)
    for rn in members:
        if rn is not None:
            by_road[rn[0]].append(rn[1])
    return any(max(ns) - min(ns) >= MIN_SPREAD for ns in by_road.values())


def _is_placeholder(members: list[tuple[str, int] | None]) -> bool:
    return len(members) >= MIN_GROUP and _spread(members)


def _along(anchors: list[tuple[int, tuple[float, float]]], number: int) -> tuple[float, float] | None:
    """The point for ``number`` between the road's anchors (sorted by number), or ``None``."""
    below = [a for a in anchors if a[0] <= number]
    above = [a for a in anchors if a[0] >= number]
    if below and above:
        (n0, p0), (n1, p1) = below[-1], above[0]
        if n1 == n0:
            return p0
        t = (number - n0) / (n1 - n0)
        return (p0[0] + t * (p1[0] - p0[0]), p0[1] + t * (p1[1] - p0[1]))
    nearest = min(anchors, key=lambda a: abs(a[0] - number), default=None)
    if nearest is not None and abs(nearest[0] - number) <= NEAR_NUMBERS:
        return nearest[1]
    return None


def placements(records: Iterable[Located]) -> dict[str, Placement]:
    """``place_id → Placement`` for every record of a placeholder group (none for the others)."""
    rows = [(r.place_id, parse_coordinates(r.mapx, r.mapy), road_number(r.road_address)) for r in records]
    by_point: dict[tuple[float, float], list[int]] = defaultdict(list)
    for i, (_, point, _) in enumerate(rows):
        if point is not None:
            by_point[point].append(i)
    grouped: set[int] = set()
    doubtful: set[int] = set()  # two addresses apart on one point: one may be right, neither anchors
    for members in by_point.values():
        spread = [rows[i][2] for i in members]
        if _is_placeholder(spread):
            grouped.update(members)
        elif _spread(spread):
            doubtful.update(members)
    if not grouped:
        return {}
    anchors: dict[str, list[tuple[int, tuple[float, float]]]] = defaultdict(list)
    for i, (_, point, rn) in enumerate(rows):
        if i not in grouped and i not in doubtful and point is not None and rn is not None:
            anchors[rn[0]].append((rn[1], point))
    for road in anchors.values():
        road.sort(key=lambda a: a[0])
    out: dict[str, Placement] = {}
    for i in sorted(grouped):
        place_id, point, rn = rows[i]
        assert point is not None
        placed = _along(anchors.get(rn[0], []), rn[1]) if rn is not None else None
        if placed is not None and haversine_m(point[0], point[1], placed[0], placed[1]) >= MIN_MOVE_M:
            out[place_id] = Placement(placed[0], placed[1], "estimated_coordinates")
        else:
            out[place_id] = Placement(point[0], point[1], "shared_coordinates")
    return out


def located(place_id: str, data: Mapping[str, object]) -> Located:
    """The fields :func:`placements` reads, from one raw crawl record (any value types)."""

    def field(name: str) -> str | None:
        value = data.get(name)
        return None if value is None else str(value)

    return Located(place_id, field("mapx"), field("mapy"), field("roadAddress") or "")
