"""Polylines for seed 003's route strategy (issue 14): length, sampling at an interval, and where a
point lies relative to the line (how far along, how far off). Points are ``(lat, lon)`` pairs.

Distances are great-circle metres; the projection onto a segment uses a local equirectangular
plane, exact enough for the tens of kilometres of a route in the city.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from matjip.geo.distance import haversine_m

Point = tuple[float, float]
_M_PER_DEG = 111_320.0


def length_m(line: Sequence[Point]) -> float:
    return sum(haversine_m(a[0], a[1], b[0], b[1]) for a, b in itertools.pairwise(line))


def straight(a: Point, b: Point) -> list[Point]:
    """Seed 003's fallback when no routing provider answers: the straight line (an estimate)."""
    return [a, b]


def sample(line: Sequence[Point], interval_m: float, max_points: int = 24) -> list[Point]:
    """Points every ``interval_m`` along ``line``, both ends included; the interval grows when more
    than ``max_points`` would be needed."""
    total = length_m(line)
    if total <= 0 or len(line) < 2:
        return [line[0]] if line else []
    step = max(interval_m, total / max(1, max_points - 1))
    out: list[Point] = [line[0]]
    target = step
    walked = 0.0
    for a, b in itertools.pairwise(line):
        seg = haversine_m(a[0], a[1], b[0], b[1])
        while seg > 0 and target <= walked + seg:
            f = (target - walked) / seg
            out.append((a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f))
            target += step
        walked += seg
    if haversine_m(out[-1][0], out[-1][1], line[-1][0], line[-1][1]) > step / 4:
        out.append(line[-1])
    return out[:max_points]


def locate(line: Sequence[Point], p: Point) -> tuple[float, float]:
    """``(along_m, offset_m)``: how far along ``line`` the point nearest to ``p`` is, and how far
    ``p`` is from it."""
    best = (0.0, math.inf)
    walked = 0.0
    for a, b in itertools.pairwise(line):
        k = math.cos(math.radians((a[0] + b[0]) / 2)) * _M_PER_DEG
        ax, ay = a[1] * k, a[0] * _M_PER_DEG
        bx, by = b[1] * k, b[0] * _M_PER_DEG
        px, py = p[1] * k, p[0] * _M_PER_DEG
        dx, dy = bx - ax, by - ay
        seg2 = dx * dx + dy * dy
        t = 0.0 if seg2 == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / seg2))
        off = math.hypot(px - (ax + t * dx), py - (ay + t * dy))
        seg = math.sqrt(seg2)
        if off < best[1]:
            best = (walked + t * seg, off)
        walked += seg
    return best


def detour_m(line: Sequence[Point], p: Point) -> float:
    """The extra distance of going via ``p``: for a straight line from A to B, |AP| + |PB| − |AB|;
    along a polyline, to the nearest point of the line, off to ``p`` and back (2 × the offset)."""
    if len(line) == 2:
        (a, b) = line
        return max(
            0.0,
            haversine_m(a[0], a[1], p[0], p[1]) + haversine_m(p[0], p[1], b[0], b[1]) - haversine_m(*a, *b),
        )
    return 2 * locate(line, p)[1]
