"""Great-circle distances, bounding boxes and destinations (matjip.geo.distance)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matjip.geo.distance import EARTH_RADIUS_M, bounding_box, destination, haversine_m, haversine_m_array

GANGNAM = (37.497952, 127.027619)  # 강남역
YEOKSAM = (37.500622, 127.036456)  # 역삼역
SEOUL_CITY_HALL = (37.566295, 126.977945)
BUSAN_CITY_HALL = (35.179770, 129.075087)

lats = st.floats(min_value=-80.0, max_value=80.0, allow_nan=False)
lons = st.floats(min_value=-170.0, max_value=170.0, allow_nan=False)


def test_one_degree_of_latitude_is_pi_r_over_180() -> None:
    assert haversine_m(0.0, 0.0, 1.0, 0.0) == pytest.approx(math.pi * EARTH_RADIUS_M / 180, rel=1e-9)
    assert haversine_m(0.0, 0.0, 1.0, 0.0) == pytest.approx(111_195.08, abs=0.5)


def test_gangnam_to_yeoksam_is_about_800_m() -> None:
    d = haversine_m(*GANGNAM, *YEOKSAM)
    assert 700 < d < 900


def test_seoul_to_busan_is_about_325_km() -> None:
    assert haversine_m(*SEOUL_CITY_HALL, *BUSAN_CITY_HALL) == pytest.approx(325_000, rel=0.01)


def test_same_point_is_zero_and_antipodes_are_half_the_circumference() -> None:
    assert haversine_m(*GANGNAM, *GANGNAM) == 0.0
    assert haversine_m(0.0, 0.0, 0.0, 180.0) == pytest.approx(math.pi * EARTH_RADIUS_M, rel=1e-9)


@given(lats, lons, lats, lons)
def test_symmetric_and_non_negative(a: float, b: float, c: float, d: float) -> None:
    assert haversine_m(a, b, c, d) == pytest.approx(haversine_m(c, d, a, b), abs=1e-6)
    assert haversine_m(a, b, c, d) >= 0.0


@given(lats, lons, lats, lons, lats, lons)
def test_triangle_inequality(a: float, b: float, c: float, d: float, e: float, f: float) -> None:
    assert haversine_m(a, b, e, f) <= haversine_m(a, b, c, d) + haversine_m(c, d, e, f) + 1e-3


def test_array_matches_scalar_and_propagates_nan() -> None:
    rng = np.random.default_rng(7)
    la = rng.uniform(37.0, 38.0, 200)
    lo = rng.uniform(126.5, 127.5, 200)
    got = haversine_m_array(*GANGNAM, la, lo)
    want = np.array([haversine_m(*GANGNAM, a, b) for a, b in zip(la, lo, strict=True)])
    assert got.shape == (200,)
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-6)
    with_nan = haversine_m_array(*GANGNAM, np.array([np.nan, YEOKSAM[0]]), np.array([np.nan, YEOKSAM[1]]))
    assert math.isnan(with_nan[0])
    assert with_nan[1] == pytest.approx(haversine_m(*GANGNAM, *YEOKSAM))


@given(lats, lons, st.floats(0.0, 360.0), st.floats(0.0, 100_000.0))
def test_destination_is_at_the_requested_distance(
    lat: float, lon: float, bearing: float, dist: float
) -> None:
    lat2, lon2 = destination(lat, lon, bearing, dist)
    assert haversine_m(lat, lon, lat2, lon2) == pytest.approx(dist, abs=1e-3)


@settings(max_examples=300)
@given(lats, lons, st.floats(0.0, 100_000.0), st.floats(0.0, 360.0))
def test_bounding_box_contains_the_circle(lat: float, lon: float, radius: float, bearing: float) -> None:
    min_lat, max_lat, min_lon, max_lon = bounding_box(lat, lon, radius)
    assert min_lat <= lat <= max_lat
    assert min_lon <= lon <= max_lon
    for r in (radius, radius * 0.5):
        plat, plon = destination(lat, lon, bearing, r)
        eps = 1e-9
        assert min_lat - eps <= plat <= max_lat + eps
        assert min_lon - eps <= plon <= max_lon + eps


def test_bounding_box_is_tight_in_latitude_and_wider_in_longitude() -> None:
    min_lat, max_lat, min_lon, max_lon = bounding_box(*GANGNAM, 1000)
    assert haversine_m(min_lat, GANGNAM[1], *GANGNAM) == pytest.approx(1000, rel=1e-6)
    assert haversine_m(max_lat, GANGNAM[1], *GANGNAM) == pytest.approx(1000, rel=1e-6)
    # at 37.5° a degree of longitude is shorter than one of latitude
    assert (max_lon - min_lon) > (max_lat - min_lat)


def test_bounding_box_near_the_pole_spans_all_longitudes() -> None:
    assert bounding_box(89.9, 10.0, 50_000)[2:] == (-180.0, 180.0)


def test_negative_radius_is_an_error() -> None:
    with pytest.raises(ValueError):
        bounding_box(*GANGNAM, -1)
