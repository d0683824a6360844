"""Each hard filter alone and combined, against the brute-force reference, plus named cases."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from fakes.embedder import FakeEmbedder
from matjip.documents import Restaurant
from matjip.geo.distance import haversine_m
from matjip.index.embedded import EmbeddedIndex
from matjip.index.filters import any_price_in
from matjip.index.reference import brute_force_filter, title_matches
from matjip.index.request import SEOUL, GeoFilter, OpenAt, PriceRange, RegionFilter, SearchRequest
from matjip.index.snapshot import Blob
from matjip.settings import Settings
from support.index import make_corpus, tuned
from support.index_checks import COMBINED, GEO, MAPO, SINGLE, WHEN, check


@pytest.fixture(scope="module")
def corpus() -> list[Restaurant]:
    return make_corpus()


@pytest.fixture(scope="module")
def index(corpus: list[Restaurant], tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIndex:
    return EmbeddedIndex(tmp_path_factory.mktemp("idx") / "index", FakeEmbedder(), Settings()).build(corpus)


@pytest.mark.parametrize("name", list(SINGLE))
def test_single_filter(index: EmbeddedIndex, corpus: list[Restaurant], name: str) -> None:
    check(index, corpus, SINGLE[name])


def test_filters_are_not_trivial(corpus: list[Restaurant]) -> None:
    """The single-filter cases above each select something and exclude something."""
    for name, req in SINGLE.items():
        n = len(brute_force_filter(corpus, req))
        if name.startswith("unknown"):
            assert n == 0
        else:
            assert 0 < n < len(corpus), name


@pytest.mark.parametrize("req", COMBINED, ids=range(len(COMBINED)))
def test_combined_filters(index: EmbeddedIndex, corpus: list[Restaurant], req: SearchRequest) -> None:
    check(index, corpus, req)


def test_geo_distances_and_sort(index: EmbeddedIndex, corpus: list[Restaurant]) -> None:
    req = SearchRequest(geo=GEO, sort="distance", k=50)
    res = index.search(req)
    by_id = {d.place_id: d for d in corpus}
    dists = []
    for h in res.hits:
        d = by_id[h.document.place_id]
        assert d.lat is not None and d.lon is not None
        ref = haversine_m(GEO.lat, GEO.lon, d.lat, d.lon)
        assert h.distance_m is not None and abs(h.distance_m - ref) < 1.0
        assert h.distance_m <= GEO.radius_m
        assert "반경 3km" in h.matched
        dists.append(h.distance_m)
    assert dists == sorted(dists)
    assert res.hits[0].document.place_id == "h-jin-mapo"  # at the centre


def test_title_branch_match(index: EmbeddedIndex) -> None:
    res = index.search(SearchRequest(title="진대감", k=5))
    ids = [h.document.place_id for h in res.hits]
    assert "h-jin-mapo" in ids  # "진대감 마포점"
    assert "h-jin-gangnam" in ids  # "진대감강남점"
    assert "h-jin-galbi" not in ids  # "진대감갈비" is another restaurant
    assert all("상호:진대감" in h.matched for h in res.hits)


@pytest.mark.parametrize(
    ("title", "query", "ok"),
    [
        ("진대감 마포점", "진대감", True),
        ("진대감", "진 대감", True),
        ("진대감(마포점)", "진대감", True),
        ("진대감마포점", "진대감", True),
        ("진대감 2호점", "진대감", True),
        ("진대감 마포점", "마포점 진대감", True),
        ("진대감 마포점", "진대감 마포점", True),
        ("BHC치킨 강남점", "bhc치킨", True),
        ("진대감갈비", "진대감", False),
        ("원조진대감", "진대감", False),
        ("진대감 마포점", "진대감 강남점", False),
        ("진대감", "", False),
    ],
)
def test_title_matches(title: str, query: str, ok: bool) -> None:
    assert title_matches(title, query) is ok


def test_title_exact_first(tmp_path: Path) -> None:
    docs = [
        Restaurant(place_id="b", title="진대감 마포점", rating=5.0, review_count=5000),
        Restaurant(place_id="a", title="진대감", rating=3.0, review_count=1),
    ]
    idx = EmbeddedIndex(tmp_path / "i", FakeEmbedder(), Settings()).build(docs)
    assert [h.document.place_id for h in idx.search(SearchRequest(title="진대감", k=2)).hits] == ["a", "b"]


def test_menu_substring(index: EmbeddedIndex) -> None:
    res = index.search(SearchRequest(menu=["라멘"], k=50))
    ids = {h.document.place_id for h in res.hits}
    assert "h-ramen" in ids  # "돈코츠라멘" contains "라멘"
    res = index.search(SearchRequest(menu=["돈코츠 라멘"], k=50))  # spaces ignored
    assert "h-ramen" in {h.document.place_id for h in res.hits}
    assert all("메뉴:돈코츠 라멘" in h.matched for h in res.hits)


def test_region_word_start(tmp_path: Path) -> None:
    docs = [
        Restaurant(place_id="gangnam", title="a", roadAddress="서울 강남구 테헤란로 1"),
        Restaurant(place_id="nam", title="b", roadAddress="부산 남구 수영로 1"),
        Restaurant(place_id="jibun", title="c", address="서울특별시 강남구 역삼동 1"),
    ]
    idx = EmbeddedIndex(tmp_path / "i", FakeEmbedder(), Settings()).build(docs)

    def ids(req: SearchRequest) -> set[str]:
        return {h.document.place_id for h in idx.search(req).hits}

    assert ids(SearchRequest(region=RegionFilter(name="남구"), k=10)) == {"nam"}
    assert ids(SearchRequest(region=RegionFilter(name="강남구"), k=10)) == {"gangnam", "jibun"}
    assert ids(SearchRequest(region=RegionFilter(name="역삼", terms=["역삼"]), k=10)) == {"jibun"}
    assert ids(SearchRequest(region=RegionFilter(name="서울", terms=["서울"]), k=10)) == {"gangnam", "jibun"}


def test_region_polygon(tmp_path: Path) -> None:
    """A gazetteer outline adds documents whose address does not name the region."""
    from matjip.geo import get_gazetteer

    gaz = get_gazetteer()
    place = next((p for p in gaz.lookup("마포구") if gaz.contains_point(p, MAPO[0], MAPO[1])), None)
    if place is None:
        pytest.skip("the gazetteer has no outline for 마포구")
    docs = [
        Restaurant(place_id="in", title="a", lat=MAPO[0], lon=MAPO[1]),
        Restaurant(place_id="out", title="b", lat=37.4979, lon=127.0276),  # 강남역
        Restaurant(place_id="addr", title="c", roadAddress="서울 마포구 양화로 1"),
    ]
    idx = EmbeddedIndex(tmp_path / "i", FakeEmbedder(), Settings()).build(docs)
    req = SearchRequest(region=RegionFilter(name="마포구", terms=["마포구"], polygon_place=place.key), k=10)
    assert {h.document.place_id for h in idx.search(req).hits} == {"in", "addr"}
    assert brute_force_filter(docs, req) == {"in", "addr"}


def test_price_filter_exact_per_menu(tmp_path: Path) -> None:
    from matjip.documents import MenuItem

    # min 5000 and max 50000 straddle the range, but no single item is inside it
    docs = [
        Restaurant(
            place_id="gap", title="a", menus=[MenuItem(name="x", price=5000), MenuItem(name="y", price=50000)]
        ),
        Restaurant(
            place_id="in", title="b", menus=[MenuItem(name="x", price=5000), MenuItem(name="z", price=12000)]
        ),
        Restaurant(place_id="none", title="c", menus=[MenuItem(name="x")]),
    ]
    idx = EmbeddedIndex(tmp_path / "i", FakeEmbedder(), Settings()).build(docs)
    res = idx.search(SearchRequest(price=PriceRange(min_won=10000, max_won=15000), k=10))
    assert [h.document.place_id for h in res.hits] == ["in"]
    assert res.hits[0].matched == ["가격10000~15000"]


def test_open_at_unknown_hours_flagged(index: EmbeddedIndex, corpus: list[Restaurant]) -> None:
    res = index.search(SearchRequest(open_at=OpenAt(when=WHEN), k=50))
    assert {h.open_now for h in res.hits} <= {True, None}
    for h in res.hits:
        assert ("영업중" in h.matched) is (h.open_now is True)
    strict = index.search(SearchRequest(open_at=OpenAt(when=WHEN, include_unknown=False), k=50))
    assert all(h.open_now is True for h in strict.hits)


def test_overnight_hours(tmp_path: Path) -> None:
    from matjip.documents import DayHours, TimeRange, WeeklySchedule

    late = WeeklySchedule(raw="x", parsed=True, days={1: DayHours(open=[TimeRange(start=1080, end=1560)])})
    docs = [Restaurant(place_id="late", title="a", hours=late)]
    idx = EmbeddedIndex(tmp_path / "i", FakeEmbedder(), Settings()).build(docs)
    tue_late = datetime(2025, 3, 4, 23, 0, tzinfo=SEOUL)  # Tuesday
    wed_1am = datetime(2025, 3, 5, 1, 0, tzinfo=SEOUL)
    wed_159 = datetime(2025, 3, 5, 1, 59, tzinfo=SEOUL)
    wed_2am = datetime(2025, 3, 5, 2, 0, tzinfo=SEOUL)  # the range ends at 26:00, exclusive
    for when, n in ((tue_late, 1), (wed_1am, 1), (wed_159, 1), (wed_2am, 0)):
        assert late.is_open(when) is bool(n)
        req = SearchRequest(open_at=OpenAt(when=when, include_unknown=False))
        assert len(idx.search(req).hits) == n, when


def test_matched_labels(index: EmbeddedIndex) -> None:
    req = SearchRequest(
        geo=GeoFilter(lat=MAPO[0], lon=MAPO[1], radius_m=1000),
        cuisine=["한식"],
        convenience=["주차"],
        menu=["갈비"],
        price=PriceRange(max_won=20000),
    )
    hit = index.search(req).hits[0]
    assert hit.document.place_id == "h-jin-mapo"
    assert hit.matched == ["반경 1km", "한식", "메뉴:갈비", "편의:주차", "가격≤20000"]
    assert hit.score >= 0.75  # every constraint satisfied


def test_exclude_ids(index: EmbeddedIndex) -> None:
    first = index.search(SearchRequest(title="진대감", k=1)).hits[0].document.place_id
    again = index.search(SearchRequest(title="진대감", k=5, exclude_ids=[first]))
    assert first not in {h.document.place_id for h in again.hits}


def test_no_text_ranks_by_prior(index: EmbeddedIndex) -> None:
    res = index.search(SearchRequest(cuisine=["양식"], k=10))
    scores = [h.score for h in res.hits]
    assert scores == sorted(scores, reverse=True)
    assert all(s >= 0.75 for s in scores)


# -- the vectorised kernels against plain Python ---------------------------------------------

_ALPHABET = "ab가나 😀\x1f"


@hyp_settings(max_examples=300, deadline=None)
@given(
    texts=st.lists(st.text(alphabet=_ALPHABET, max_size=8), max_size=12),
    needle=st.text(alphabet=_ALPHABET + "\n", max_size=4),
)
def test_blob_find_is_plain_substring_search(texts: list[str], needle: str) -> None:
    got = Blob(texts).find(needle)
    want = [i for i, t in enumerate(texts) if needle and "\n" not in needle and needle in t]
    assert got.dtype == np.int64
    assert got.tolist() == want


@hyp_settings(max_examples=200, deadline=None)
@given(
    prices=st.lists(st.lists(st.integers(0, 100), max_size=5), min_size=1, max_size=20),
    lo=st.integers(0, 100),
    width=st.integers(0, 60),
    data=st.data(),
)
def test_any_price_in_is_a_per_row_check(
    prices: list[list[int]], lo: int, width: int, data: st.DataObject
) -> None:
    hi = lo + width
    vals = np.asarray([p for row in prices for p in row], dtype=np.int64)
    off = np.concatenate([[0], np.cumsum([len(row) for row in prices])]).astype(np.int64)
    rows = sorted(data.draw(st.sets(st.integers(0, len(prices) - 1))))
    got = any_price_in(vals, off, np.asarray(rows, dtype=np.int64), lo, hi)
    assert got.tolist() == [any(lo <= p <= hi for p in prices[r]) for r in rows]


@pytest.mark.parametrize("py_check_max", [0, 10_000])
def test_exclude_title_both_paths(tmp_path: Path, py_check_max: int) -> None:
    """The title exclusions the agent sends with every request: per-row checks on few candidates,
    a cached whole-index mask on many (py_check_max 0); both drop exactly the titles containing a
    word, and the cached mask serves a second request over other candidates."""
    docs = [
        Restaurant(place_id="open", title="행복식당", rating=4.0),
        Restaurant(place_id="closed", title="행복식당 (휴업)", rating=4.0),
        Restaurant(place_id="gone", title="폐업한 국밥집", rating=4.0),
        Restaurant(place_id="pub", title="휴 업소", rating=4.0),  # spaces ignored: excluded too
        Restaurant(place_id="cafe", title="업소 휴게실", rating=4.0),
        Restaurant(place_id="gukbap", title="국밥집", rating=4.0),
    ]
    base = EmbeddedIndex(tmp_path / "i", FakeEmbedder(), Settings()).build(docs)
    idx = tuned(base, py_check_max=py_check_max)

    def ids(req: SearchRequest) -> set[str]:
        return {h.document.place_id for h in idx.search(req).hits}

    req = SearchRequest(exclude_title=["휴업", "폐업"], k=10)
    assert ids(req) == {"open", "cafe", "gukbap"} == set(brute_force_filter(docs, req))
    req = SearchRequest(title="국밥집", exclude_title=["휴업", "폐업"], k=10)
    assert ids(req) == {"gukbap"} == set(brute_force_filter(docs, req))
