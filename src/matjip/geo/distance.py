"""Great-circle distances on a spherical Earth (mean radius 6,371,008.8 m).

The error of the spherical model against WGS84 is below 0.5 %, far less than the uncertainty of
a "near 강남역" search; nothing here needs an ellipsoid. Coordinates are WGS84 degrees.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

EARTH_RADIUS_M = 6_371_008.8

FloatArray = npt.NDArray[np.float64]


def haversine_m(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Distance in metres between two points."""
    p1 = math.radians(lat1)
    p2 = math.radians(lat2)
    dp = p2 - p1
    dl = math.radians(lon2 - lon1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_M * math.asin(min(1.0, math.sqrt(h)))


def haversine_m_array(lat: float, lon: float, lats: npt.ArrayLike, lons: npt.ArrayLike) -> FloatArray:
    """Distances in metres from one point to many (vectorised; NaN coordinates give NaN)."""
    la = np.radians(np.asarray(lats, dtype=np.float64))
    lo = np.radians(np.asarray(lons, dtype=np.float64))
    p1 = math.radians(lat)
    h = np.sin((la - p1) / 2) ** 2 + math.cos(p1) * np.cos(la) * np.sin((lo - math.radians(lon)) / 2) ** 2
    result: FloatArray = 2 * EARTH_RADIUS_M * np.arcsin(np.minimum(1.0, np.sqrt(h)))
    return result


def bounding_box(lat: float, lon: float, radius_m: float) -> tuple[float, float, float, float]:
    """``(min_lat, max_lat, min_lon, max_lon)`` of a box that contains the circle of ``radius_m``.

    Uses the exact spherical extent in longitude (the circle is widest north of the centre in
    the northern hemisphere, not at the centre's latitude). Near a pole, or when the box would
    cross the antimeridian, the longitude range becomes the whole ``[-180, 180]``.
    """
    if radius_m < 0:
        raise ValueError("radius_m must be non-negative")
    angular = radius_m / EARTH_RADIUS_M
    dlat = math.degrees(angular)
    min_lat = lat - dlat
    max_lat = lat + dlat
    if max_lat >= 90.0 or min_lat <= -90.0 or angular >= math.pi / 2:
        return max(min_lat, -90.0), min(max_lat, 90.0), -180.0, 180.0
    dlon = math.degrees(math.asin(min(1.0, math.sin(angular) / math.cos(math.radians(lat)))))
    min_lon = lon - dlon
    max_lon = lon + dlon
    if min_lon < -180.0 or max_lon > 180.0:
        return min_lat, max_lat, -180.0, 180.0
    return min_lat, max_lat, min_lon, max_lon


def destination(lat: float, lon: float, bearing_deg: float, distance_m: float) -> tuple[float, float]:
    """The point ``distance_m`` away from ``(lat, lon)`` on the initial bearing (degrees from north)."""
    angular = distance_m / EARTH_RADIUS_M
    p1 = math.radians(lat)
    b = math.radians(bearing_deg)
    p2 = math.asin(math.sin(p1) * math.cos(angular) + math.cos(p1) * math.sin(angular) * math.cos(b))
    l2 = math.radians(lon) + math.atan2(
        math.sin(b) * math.sin(angular) * math.cos(p1), math.cos(angular) - math.sin(p1) * math.sin(p2)
    )
    lon2 = (math.degrees(l2) + 540.0) % 360.0 - 180.0
    return math.degrees(p2), lon2
