"""Outlines: (multi)polygons in lon/lat with point-in-polygon tests, areas and centroids.

The gazetteer's regions (Seoul, its gu and legal dongs) carry a :class:`Shape`; membership is ray
casting with the even-odd rule, vectorised over many points by :meth:`Shape.contains_many`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True, eq=False)
class _Ring:
    x: FloatArray
    y: FloatArray
    x2: FloatArray
    y2: FloatArray

    @classmethod
    def of(cls, coords: Sequence[Sequence[float]]) -> _Ring:
        arr = np.asarray(coords, dtype=np.float64)[:, :2]
        x = np.ascontiguousarray(arr[:, 0])
        y = np.ascontiguousarray(arr[:, 1])
        return cls(x, y, np.concatenate((x[-1:], x[:-1])), np.concatenate((y[-1:], y[:-1])))

    def crossings(self, px: float, py: float) -> int:
        cond = (self.y > py) != (self.y2 > py)
        if not cond.any():
            return 0
        x, y, x2, y2 = self.x[cond], self.y[cond], self.x2[cond], self.y2[cond]
        xint = (x2 - x) * (py - y) / (y2 - y) + x
        return int(np.count_nonzero(px < xint))

    def crossings_many(self, px: FloatArray, py: FloatArray) -> npt.NDArray[np.int64]:
        py_ = py[:, None]
        cond = (self.y[None, :] > py_) != (self.y2[None, :] > py_)
        with np.errstate(divide="ignore", invalid="ignore"):
            xint = (self.x2 - self.x)[None, :] * (py_ - self.y[None, :]) / (self.y2 - self.y)[
                None, :
            ] + self.x[None, :]
        hits = cond & (px[:, None] < xint)
        result: npt.NDArray[np.int64] = hits.sum(axis=1)
        return result

    def area_centroid(self) -> tuple[float, float, float]:
        """Unsigned area (deg²) and centroid (x, y) of the ring."""
        cross = self.x2 * self.y - self.x * self.y2
        a = float(cross.sum()) / 2.0
        if abs(a) < 1e-15:
            return 0.0, float(self.x.mean()), float(self.y.mean())
        cx = float(((self.x2 + self.x) * cross).sum()) / (6.0 * a)
        cy = float(((self.y2 + self.y) * cross).sum()) / (6.0 * a)
        return abs(a), cx, cy


@dataclass(frozen=True, eq=False)
class _Polygon:
    rings: tuple[_Ring, ...]  # exterior first, then holes (even-odd rule)
    bbox: tuple[float, float, float, float]  # min_x, min_y, max_x, max_y

    @classmethod
    def of(cls, rings: Sequence[Sequence[Sequence[float]]]) -> _Polygon:
        rs = tuple(_Ring.of(r) for r in rings if len(r) >= 3)
        ext = rs[0]
        return cls(rs, (float(ext.x.min()), float(ext.y.min()), float(ext.x.max()), float(ext.y.max())))


@dataclass(frozen=True, eq=False)
class Shape:
    """A (multi)polygon in lon/lat with point-in-polygon tests by ray casting (even-odd rule)."""

    polygons: tuple[_Polygon, ...]

    @classmethod
    def from_geojson(cls, geometry: dict[str, Any]) -> Shape:
        kind = geometry["type"]
        coords = geometry["coordinates"]
        if kind == "Polygon":
            return cls((_Polygon.of(coords),))
        if kind == "MultiPolygon":
            return cls(tuple(_Polygon.of(p) for p in coords))
        raise ValueError(f"unsupported geometry type {kind}")

    @classmethod
    def union(cls, shapes: Iterable[Shape]) -> Shape:
        """Several non-overlapping shapes as one (a point is inside if it is inside any)."""
        return cls(tuple(p for s in shapes for p in s.polygons))

    @property
    def bbox(self) -> tuple[float, float, float, float]:
        return (
            min(p.bbox[0] for p in self.polygons),
            min(p.bbox[1] for p in self.polygons),
            max(p.bbox[2] for p in self.polygons),
            max(p.bbox[3] for p in self.polygons),
        )

    def contains(self, lat: float, lon: float) -> bool:
        for poly in self.polygons:
            x0, y0, x1, y1 = poly.bbox
            if not (x0 <= lon <= x1 and y0 <= lat <= y1):
                continue
            if sum(r.crossings(lon, lat) for r in poly.rings) % 2 == 1:
                return True
        return False

    def contains_many(self, lats: npt.ArrayLike, lons: npt.ArrayLike, chunk: int = 2048) -> BoolArray:
        """Vectorised :meth:`contains`; NaN coordinates are outside."""
        la = np.asarray(lats, dtype=np.float64)
        lo = np.asarray(lons, dtype=np.float64)
        inside = np.zeros(la.shape, dtype=np.bool_)
        for poly in self.polygons:
            x0, y0, x1, y1 = poly.bbox
            idx = np.flatnonzero((lo >= x0) & (lo <= x1) & (la >= y0) & (la <= y1) & ~inside)
            for start in range(0, len(idx), chunk):
                part = idx[start : start + chunk]
                total = np.zeros(len(part), dtype=np.int64)
                for ring in poly.rings:
                    total += ring.crossings_many(lo[part], la[part])
                inside[part[total % 2 == 1]] = True
        return inside

    def area_centroid(self) -> tuple[float, float, float]:
        """Area (deg², holes subtracted) and the area-weighted centroid ``(lat, lon)``."""
        total = sx = sy = 0.0
        for poly in self.polygons:
            for i, ring in enumerate(poly.rings):
                a, cx, cy = ring.area_centroid()
                sign = 1.0 if i == 0 else -1.0
                total += sign * a
                sx += sign * a * cx
                sy += sign * a * cy
        if total <= 0:
            ring = self.polygons[0].rings[0]
            return 0.0, float(ring.y.mean()), float(ring.x.mean())
        return total, sy / total, sx / total
