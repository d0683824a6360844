"""Validation of the backend-neutral search request."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from pydantic import ValidationError

from matjip.index.request import (
    GeoFilter,
    OpenAt,
    PriceRange,
    RegionFilter,
    SearchHit,
    SearchRequest,
)


def test_defaults() -> None:
    req = SearchRequest()
    assert req.k == 3
    assert req.sort == "relevance"
    assert req.text == ""
    assert not req.has_hard_filters


@pytest.mark.parametrize("k", [0, 51, -1])
def test_k_bounds(k: int) -> None:
    with pytest.raises(ValidationError):
        SearchRequest(k=k)


@pytest.mark.parametrize("radius", [99, 20_001, 0])
def test_radius_bounds(radius: float) -> None:
    with pytest.raises(ValidationError):
        GeoFilter(lat=37.5, lon=127.0, radius_m=radius)


def test_coordinates_bounds() -> None:
    with pytest.raises(ValidationError):
        GeoFilter(lat=91, lon=127.0, radius_m=1000)
    with pytest.raises(ValidationError):
        GeoFilter(lat=37.5, lon=181, radius_m=1000)


def test_geo_label() -> None:
    assert GeoFilter(lat=37.5, lon=127.0, radius_m=1000).label() == "반경 1km"
    assert GeoFilter(lat=37.5, lon=127.0, radius_m=500).label() == "반경 500m"
    assert GeoFilter(lat=37.5, lon=127.0, radius_m=1500).label() == "반경 1.5km"


def test_price_range() -> None:
    with pytest.raises(ValidationError):
        PriceRange()
    with pytest.raises(ValidationError):
        PriceRange(min_won=20000, max_won=10000)
    with pytest.raises(ValidationError):
        PriceRange(max_won=-1)
    assert PriceRange(max_won=15000).label() == "가격≤15000"
    assert PriceRange(min_won=10000).label() == "가격≥10000"
    assert PriceRange(min_won=1, max_won=2).low == 1


def test_open_at_timezone() -> None:
    utc = datetime(2025, 1, 6, 3, 0, tzinfo=UTC)
    assert OpenAt(when=utc).when.hour == 12  # Seoul is UTC+9
    naive = OpenAt(when=datetime(2025, 1, 6, 12, 0))
    assert naive.when.utcoffset() == timedelta(hours=9)
    other = OpenAt(when=datetime(2025, 1, 6, 12, 0, tzinfo=timezone(timedelta(hours=1))))
    assert other.when.hour == 20


def test_sort_distance_needs_geo() -> None:
    with pytest.raises(ValidationError, match="geo"):
        SearchRequest(sort="distance")
    SearchRequest(sort="distance", geo=GeoFilter(lat=37.5, lon=127.0, radius_m=1000))


def test_lists_are_cleaned() -> None:
    req = SearchRequest(menu=[" 라멘 ", "", "라멘", "돈코츠  라멘"], convenience=["주차", "주차"])
    assert req.menu == ["라멘", "돈코츠 라멘"]
    assert req.convenience == ["주차"]
    assert SearchRequest(title="  ").title is None
    assert SearchRequest(text="  조용한   데이트 ").text == "조용한 데이트"


def test_unknown_field_rejected() -> None:
    with pytest.raises(ValidationError):
        SearchRequest.model_validate({"txt": "오타"})


def test_region_terms_default_to_name() -> None:
    assert RegionFilter(name="강남구").terms == ["강남구"]
    assert RegionFilter(name="분당", terms=["성남시 분당구"]).terms == ["성남시 분당구"]
    assert RegionFilter(name="역삼동", polygon_place="legal_dong:1168010100").terms == []


def test_has_hard_filters() -> None:
    assert SearchRequest(menu=["라멘"]).has_hard_filters
    assert not SearchRequest(text="데이트", exclude_ids=["1"]).has_hard_filters


def test_hit_score_bounds() -> None:
    from matjip.documents import Restaurant

    doc = Restaurant(place_id="1", title="t")
    with pytest.raises(ValidationError):
        SearchHit(document=doc, score=1.2)
