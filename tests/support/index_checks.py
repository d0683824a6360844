"""Reference checks of the index shared by the index tests (embedded and PostgreSQL): a search
agrees with the brute-force filter (``check``, ``check_response``), the BM25 list inside the
candidates is tantivy's own (``check_bm25``), random requests (``requests``) and the named
single and combined filter cases (``SINGLE``, ``COMBINED``) around 마포."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import strategies as st

from matjip.documents import Restaurant
from matjip.index import embedded
from matjip.index.bm25 import top_hits
from matjip.index.embedded import EmbeddedIndex
from matjip.index.filters import candidates
from matjip.index.reference import brute_force_filter
from matjip.index.request import SEOUL, GeoFilter, OpenAt, PriceRange, RegionFilter, SearchRequest
from support.index import CONVENIENCE

MAPO = (37.5566, 126.9236)


TEXTS = ["", "데이트", "회식 분위기", "조용한 파스타", "라멘 혼밥", "주차 되는 가족 식당", "zzz 없는말"]
MENU_TERMS = [
    "라멘",
    "파스타",
    "초밥",
    "찌개",
    "김밥",
    "떡볶이",
    "스테이크",
    "피자",
    "갈비",
    "국밥",
    "냉면",
    "치킨",
]
SUBS = ["초밥", "라멘", "고기", "피자", "국밥", "이탈리안", "족발", "회"]
TITLES = ["진대감", "맛나", "행복 크림파스타", "원조", "스타벅스", "교촌"]


def _haversine(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """An independent reference (not the product's function)."""
    r = 6_371_008.8
    p1, p2 = math.radians(lat1), math.radians(lat2)
    a = (
        math.sin((p2 - p1) / 2) ** 2
        + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    )
    return 2 * r * math.asin(math.sqrt(a))


@st.composite
def requests(draw: st.DrawFn, docs: list[Restaurant], cuisines: list[str], gus: list[str]) -> SearchRequest:
    kw: dict[str, Any] = {}
    located = [d for d in docs if d.lat is not None and d.lon is not None]
    if draw(st.booleans()):
        if draw(st.booleans()):
            c = draw(st.sampled_from(located))
            lat = c.lat + draw(st.floats(-0.01, 0.01))  # type: ignore[operator]
            lon = c.lon + draw(st.floats(-0.01, 0.01))  # type: ignore[operator]
        else:
            lat, lon = draw(st.floats(37.40, 37.70)), draw(st.floats(126.80, 127.20))
        kw["geo"] = GeoFilter(lat=lat, lon=lon, radius_m=draw(st.floats(100, 20_000)))
    if draw(st.integers(0, 4)) == 0:
        term = draw(st.sampled_from([*gus, "서울", "남구", "역삼"]))
        kw["region"] = RegionFilter(name=term)
    if draw(st.integers(0, 2)) == 0:
        kw["cuisine"] = draw(st.lists(st.sampled_from([*cuisines, "우주식"]), min_size=1, max_size=2))
    if draw(st.integers(0, 4)) == 0:
        kw["sub_category"] = draw(st.lists(st.sampled_from(SUBS), min_size=1, max_size=2))
    if draw(st.integers(0, 2)) == 0:
        kw["menu"] = draw(st.lists(st.sampled_from(MENU_TERMS), min_size=1, max_size=2))
    if draw(st.integers(0, 2)) == 0:
        kw["convenience"] = draw(st.lists(st.sampled_from(CONVENIENCE), min_size=1, max_size=2))
    if draw(st.integers(0, 5)) == 0:
        kw["title"] = draw(st.sampled_from(TITLES))
    if draw(st.integers(0, 3)) == 0:
        lo = draw(st.one_of(st.none(), st.integers(0, 40_000)))
        hi = draw(st.one_of(st.none(), st.integers(lo or 0, 80_000)))
        if lo is not None or hi is not None:
            kw["price"] = PriceRange(min_won=lo, max_won=hi)
    if draw(st.integers(0, 3)) == 0:
        minutes = draw(st.integers(0, 7 * 24 * 60 - 1))
        when = datetime(2025, 3, 2, 15, 0, tzinfo=UTC) + timedelta(minutes=minutes)
        until = (
            when + timedelta(minutes=draw(st.sampled_from([0, 90, 180, 600])))
            if draw(st.booleans())
            else None
        )
        kw["open_at"] = OpenAt(
            when=when, until=until if until != when else None, include_unknown=draw(st.booleans())
        )
    if draw(st.integers(0, 4)) == 0:
        kw["exclude_ids"] = [d.place_id for d in draw(st.lists(st.sampled_from(docs), max_size=5))]
    kind_names = ["고깃집", "치킨집", "카페", "중국집", "삼겹살", "횟집", "없는종류"]
    if draw(st.integers(0, 2)) == 0:
        kw["kind"] = draw(st.lists(st.sampled_from(kind_names), min_size=1, max_size=2))
    if draw(st.integers(0, 4)) == 0:
        kw["exclude_kind"] = draw(st.lists(st.sampled_from(kind_names), min_size=1, max_size=2))
    if draw(st.integers(0, 4)) == 0:
        kw["exclude_menu"] = draw(st.lists(st.sampled_from(MENU_TERMS), min_size=1, max_size=2))
    if draw(st.integers(0, 5)) == 0:
        kw["exclude_cuisine"] = draw(st.lists(st.sampled_from([*cuisines, "우주식"]), min_size=1, max_size=2))
    if draw(st.integers(0, 5)) == 0:
        kw["exclude_title"] = draw(st.lists(st.sampled_from(TITLES), min_size=1, max_size=2))
    kw["text"] = draw(st.sampled_from(TEXTS))
    kw["k"] = draw(st.integers(1, 20))
    if "geo" in kw and draw(st.booleans()):
        kw["sort"] = "distance"
    return SearchRequest(**kw)


def check_response(index: EmbeddedIndex, docs: list[Restaurant], req: SearchRequest) -> None:
    expected = brute_force_filter(docs, req)
    res = index.search(req)
    ids = [h.document.place_id for h in res.hits]
    assert len(ids) == len(set(ids))
    assert set(ids) <= expected, f"violations: {set(ids) - expected} for {req}"
    assert res.total_candidates == len(expected)
    assert len(ids) == min(req.k, len(expected))
    by_id = {d.place_id: d for d in docs}
    for h in res.hits:
        assert 0.0 <= h.score <= 1.0
        if req.geo is not None:
            d = by_id[h.document.place_id]
            assert d.lat is not None and d.lon is not None and h.distance_m is not None
            assert abs(h.distance_m - _haversine(req.geo.lat, req.geo.lon, d.lat, d.lon)) < 1.0
        else:
            assert h.distance_m is None
    if req.sort == "relevance":
        scores = [h.score for h in res.hits]
        assert scores == sorted(scores, reverse=True)
    else:  # the k nearest matches, nearest first
        assert req.geo is not None
        dists = [h.distance_m for h in res.hits]
        assert dists == sorted(dists)  # type: ignore[type-var]
        nearest = sorted(
            _haversine(req.geo.lat, req.geo.lon, by_id[p].lat, by_id[p].lon)  # type: ignore[arg-type]
            for p in expected
        )[: req.k]
        assert dists == pytest.approx(nearest, abs=1.0)


def check_bm25(index: EmbeddedIndex, docs: list[Restaurant], req: SearchRequest, depth: int) -> None:
    """The BM25 list inside the candidates is exactly the best ``depth`` matches of the unfiltered
    text query (straight from tantivy) that pass the filters, with the same scores."""
    import tantivy

    s = index._require()
    idx, _ = candidates(s, req, index.timezone, index.py_check_max)
    terms = embedded.query_terms(req.text)
    if not terms:
        return
    rows, scores = top_hits(
        s,
        terms,
        req,
        idx,
        depth=index.bm25_depth,
        first_fetch=index.first_fetch,
        row_set_max=index.row_set_max,
    )
    allowed = {s.pid_row[p] for p in brute_force_filter(docs, req)}
    assert set(idx.tolist()) == allowed
    text_q = tantivy.Query.boolean_query(
        [(tantivy.Occur.Should, tantivy.Query.term_query(s.schema, "body", t)) for t in terms]
    )
    hits = s.searcher.search(text_q, limit=s.n + 1, count=False).hits
    g_rows = s.searcher.fast_field_values("row", [a for _, a in hits])
    ref = [(int(r), sc) for (sc, _), r in zip(hits, g_rows, strict=True) if r in allowed][:depth]  # type: ignore[comparison-overlap]
    assert len(rows) == len(ref), req
    assert len(set(rows.tolist())) == len(rows), "a hit read twice"
    assert sorted(scores.tolist()) == pytest.approx(sorted(sc for _, sc in ref), rel=1e-6)
    if ref:  # identical above the cut (ties at the cut may be either)
        cut = ref[-1][1]
        got = {r for r, sc in zip(rows.tolist(), scores.tolist(), strict=True) if sc > cut + 1e-6}
        assert got == {r for r, sc in ref if sc > cut + 1e-6}


def check(index: EmbeddedIndex, corpus: list[Restaurant], req: SearchRequest) -> set[str]:
    """Hits obey the reference; as many as possible are returned; returns the hit ids."""
    expected = brute_force_filter(corpus, req)
    res = index.search(req)
    got = [h.document.place_id for h in res.hits]
    assert len(got) == len(set(got)), "duplicate hits"
    assert set(got) <= expected, f"hits violating a hard filter: {set(got) - expected}"
    assert res.total_candidates == len(expected)
    assert len(got) == min(req.k, len(expected))
    for h in res.hits:
        assert 0.0 <= h.score <= 1.0
    return set(got)


GEO = GeoFilter(lat=MAPO[0], lon=MAPO[1], radius_m=3000)
WHEN = datetime(2025, 3, 5, 12, 30, tzinfo=SEOUL)  # a Wednesday

SINGLE = {
    "geo": SearchRequest(geo=GEO, k=50),
    # a route's samples (issue 14): any of the circles
    "near_any": SearchRequest(
        near_any=[
            GeoFilter(lat=MAPO[0], lon=MAPO[1], radius_m=800),
            GeoFilter(lat=MAPO[0] + 0.02, lon=MAPO[1] + 0.03, radius_m=1500),
        ],
        k=50,
    ),
    "region": SearchRequest(region=RegionFilter(name="강남구"), k=50),
    "cuisine": SearchRequest(cuisine=["일식"], k=50),
    "cuisine_any": SearchRequest(cuisine=["일식", "중식"], k=50),
    "sub": SearchRequest(sub_category=["초밥"], k=50),
    "menu": SearchRequest(menu=["라멘"], k=50),
    "menu_all": SearchRequest(menu=["파스타", "스테이크"], k=50),
    "convenience": SearchRequest(convenience=["주차", "예약"], k=50),
    "title": SearchRequest(title="진대감", k=50),
    "price": SearchRequest(price=PriceRange(min_won=10000, max_won=15000), k=50),
    "price_max": SearchRequest(price=PriceRange(max_won=8000), k=50),
    "open": SearchRequest(open_at=OpenAt(when=WHEN), k=50),
    "open_known": SearchRequest(open_at=OpenAt(when=WHEN, include_unknown=False), k=50),
    "exclude": SearchRequest(exclude_ids=["s1", "s2", "h-pasta"], k=50),
    "unknown_cuisine": SearchRequest(cuisine=["우주식"], k=5),
    "unknown_convenience": SearchRequest(convenience=["헬리패드"], k=5),
}


COMBINED = [
    SearchRequest(geo=GEO, cuisine=["한식"], convenience=["주차"], k=10),
    SearchRequest(geo=GEO, menu=["라멘"], text="혼밥", k=10),
    SearchRequest(
        region=RegionFilter(name="마포구"), open_at=OpenAt(when=WHEN), price=PriceRange(max_won=20000)
    ),
    SearchRequest(cuisine=["양식"], menu=["파스타"], convenience=["예약"], text="데이트 분위기", k=5),
    SearchRequest(title="진대감", geo=GeoFilter(lat=MAPO[0], lon=MAPO[1], radius_m=2000)),
    SearchRequest(
        geo=GeoFilter(lat=37.5665, lon=126.978, radius_m=20000), text="회식", sort="distance", k=20
    ),
    SearchRequest(sub_category=["고기", "국밥"], open_at=OpenAt(when=WHEN.replace(hour=23)), k=20),
]
