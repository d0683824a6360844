"""Crawl coordinates to (lat, lon) (seed 000 §5.1, step 3)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matjip.ingest.coords import KOREA_BOUNDS, parse_coordinates

DEMO = Path(__file__).resolve().parents[1] / "src" / "matjip" / "data" / "kakao_capital.jsonl.gz"


def test_bounds() -> None:
    b = KOREA_BOUNDS
    assert (b.lat_min, b.lat_max, b.lon_min, b.lon_max) == (33.0, 38.7, 124.5, 132.0)


@pytest.mark.parametrize(
    ("mapx", "mapy", "expected"),
    [
        ("1271551201", "375630641", (37.5630641, 127.1551201)),  # seed 000 §2 example
        ("1270530139", "375037000", (37.5037, 127.0530139)),
        ("1271288628", "375522840", (37.552284, 127.1288628)),  # demo data, first record
        ("127.155", "37.563", (37.563, 127.155)),
        (" 126.9780 ", "37.5665", (37.5665, 126.978)),
        ("375630641", "1271551201", (37.5630641, 127.1551201)),  # swapped
        ("1265312345", "335000000", (33.5, 126.5312345)),  # Jeju
    ],
)
def test_parse(mapx: str, mapy: str, expected: tuple[float, float]) -> None:
    got = parse_coordinates(mapx, mapy)
    assert got is not None
    assert got == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize(
    ("mapx", "mapy"),
    [
        (None, None),
        (None, "375630641"),
        ("1271551201", None),
        ("", ""),
        ("0", "0"),  # seen in the demo data
        ("314417", "551979"),  # KATECH (old Naver API)
        ("1391234567", "356789012"),  # Tokyo: outside Korea
        ("-1271551201", "-375630641"),
        ("127.1", "40.0"),  # North of the bounds
        ("abc", "def"),
        ("1.2e9", "3.7e8"),
        ("nan", "nan"),
        ("inf", "37.5"),
        ("127,155", "37,563"),
    ],
)
def test_rejects(mapx: str | None, mapy: str | None) -> None:
    assert parse_coordinates(mapx, mapy) is None


@settings(max_examples=200)
@given(st.one_of(st.none(), st.text(max_size=20)), st.one_of(st.none(), st.text(max_size=20)))
def test_arbitrary_text_never_raises(mapx: str | None, mapy: str | None) -> None:
    got = parse_coordinates(mapx, mapy)
    assert got is None or KOREA_BOUNDS.contains(*got)


@settings(max_examples=200)
@given(st.integers(min_value=-(10**11), max_value=10**11), st.integers(min_value=-(10**11), max_value=10**11))
def test_scaled_integers_inside_bounds_or_none(x: int, y: int) -> None:
    got = parse_coordinates(str(x), str(y))
    if got is None:
        lon, lat = x / 1e7, y / 1e7
        assert not KOREA_BOUNDS.contains(lat, lon) and not KOREA_BOUNDS.contains(lon, lat)
    else:
        assert KOREA_BOUNDS.contains(*got)


@settings(max_examples=200)
@given(
    st.floats(min_value=KOREA_BOUNDS.lat_min, max_value=KOREA_BOUNDS.lat_max),
    st.floats(min_value=KOREA_BOUNDS.lon_min, max_value=KOREA_BOUNDS.lon_max),
)
def test_round_trip_of_scaled_wgs84(lat: float, lon: float) -> None:
    x, y = round(lon * 1e7), round(lat * 1e7)
    got = parse_coordinates(str(x), str(y))
    assert got is not None
    assert got == pytest.approx((y / 1e7, x / 1e7), abs=1e-12)


def test_demo_data_coordinates() -> None:
    parsed = missing = 0
    with gzip.open(DEMO, "rt", encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            got = parse_coordinates(rec.get("mapx"), rec.get("mapy"))
            if got is None:
                missing += 1
            else:
                parsed += 1
                # the demo data is the capital region: Seoul and around
                assert 37.0 < got[0] < 38.0 and 126.5 < got[1] < 127.5
    assert parsed > 11000
    assert missing < 400  # 288 records have no coordinates, 2 have "0"


def test_address_only_documents_get_approximate_dong_coordinates() -> None:
    """Issue 12: a lot-number address without coordinates is placed at its dong's centroid, flagged."""
    from matjip.ingest.coords import geocode_address
    from matjip.ingest.crawl import CrawlDocument
    from matjip.ingest.preprocess import preprocess

    garak = geocode_address("서울 송파구 가락동 123-4")  # 가락본동, 가락1동, 가락2동
    assert garak is not None and 37.48 < garak[0] < 37.51 and 127.10 < garak[1] < 127.13
    assert geocode_address("경기 수원시 장안구 정자동 1") is not None  # a two-word si/gu
    assert geocode_address("서울 송파구 올림픽로 35") is None  # a road address names no dong
    assert geocode_address("제주특별자치도 제주시 연동 1") is None  # outside the gazetteer
    doc = CrawlDocument.model_validate(
        {"place_id": "x", "title": "가락식당", "address": "서울 송파구 가락동 99"}
    )
    r = preprocess(doc)
    assert r.lat is not None and "approximate_coordinates" in r.flags and "no_coordinates" not in r.flags
    bare = preprocess(CrawlDocument.model_validate({"place_id": "y", "title": "어딘가"}))
    assert bare.lat is None and "no_coordinates" in bare.flags
