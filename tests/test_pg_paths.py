"""The PostgreSQL backend's shortcuts stay exact (issue 23, part 2): the geo filter skips the
haversine for rows in a box inside the circle, and a menu filter takes its rows from a GIN index
on the menu's character bigrams. Each path is forced here (the planner may not pick it on a small
corpus) and checked against the brute-force reference and the embedded backend."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from fakes.embedder import FakeEmbedder
from matjip.documents import Restaurant
from matjip.geo.distance import haversine_m
from matjip.index import pg_sql
from matjip.index.embedded import EmbeddedIndex
from matjip.index.postgres import PostgresIndex
from matjip.index.postgres_search import INNER_MAX_M, bigrams, filter_params, inner_box
from matjip.index.request import GeoFilter, PriceRange, RegionFilter, SearchRequest
from matjip.settings import Settings
from support.index import demo_sample
from support.index_checks import check
from support.pgserver import PgServer

Pair = tuple[PostgresIndex, EmbeddedIndex, list[Restaurant]]


@pytest.mark.parametrize("lat", [-62.0, -1.0, 0.0, 0.3, 37.55, 60.0, 75.0])
@pytest.mark.parametrize("radius", [1.0, 40.0, 1000.0, 4999.0, 30_000.0, 99_000.0])
def test_inner_box_lies_inside_the_circle(lat: float, radius: float) -> None:
    lon = 126.97
    lo_lat, hi_lat, lo_lon, hi_lon = inner_box(lat, lon, radius)
    assert lo_lat < hi_lat and lo_lon < hi_lon
    for i in range(11):  # the box's edges, corners included
        for y, x in (
            (lo_lat + (hi_lat - lo_lat) * i / 10, lo_lon),
            (lo_lat + (hi_lat - lo_lat) * i / 10, hi_lon),
            (lo_lat, lo_lon + (hi_lon - lo_lon) * i / 10),
            (hi_lat, lo_lon + (hi_lon - lo_lon) * i / 10),
        ):
            assert haversine_m(lat, lon, y, x) <= 0.99 * radius
    # not a uselessly small box: its north-south half-side is 0.7 of the radius
    assert haversine_m(lat, lon, hi_lat, lon) == pytest.approx(0.7 * radius, rel=1e-3)


def test_inner_box_empty_where_its_bound_does_not_hold() -> None:
    for lat, radius in ((37.5, INNER_MAX_M * 1.5), (89.0, 1000.0), (-85.0, 500.0)):
        lo_lat, hi_lat, lo_lon, hi_lon = inner_box(lat, 127.0, radius)
        assert lo_lat > hi_lat and lo_lon > hi_lon


def test_menu_needles_become_bigrams() -> None:
    """Needles of two or more characters add the bigram clause; one-character needles cannot."""
    tz = Settings(_env_file=None).timezone  # type: ignore[call-arg]
    from zoneinfo import ZoneInfo

    p, names = filter_params(SearchRequest(menu=["김치 찌개", "밥"]), ZoneInfo(tz), lambda key: [])
    assert names is not None and "menu_grams" in names
    assert p["menu_grams"] == sorted(bigrams("김치찌개"))
    p, names = filter_params(SearchRequest(menu=["밥"]), ZoneInfo(tz), lambda key: [])
    assert names is not None and "menu_grams" not in names


def test_region_needles_become_bigrams() -> None:
    """A region of address needles alone adds the bigrams every needle holds (issue 23, thirteenth
    round); with an outline's rows (which need not hold a needle) it cannot."""
    tz = Settings(_env_file=None).timezone  # type: ignore[call-arg]
    from zoneinfo import ZoneInfo

    region = RegionFilter(name="강남구", terms=["강남구", "강남"])
    p, names = filter_params(SearchRequest(region=region), ZoneInfo(tz), lambda key: [])
    assert names is not None and "region_grams" in names
    assert p["region_grams"] == sorted(bigrams(" 강남구") & bigrams(" 강남"))
    p, names = filter_params(SearchRequest(region=region), ZoneInfo(tz), lambda key: [1, 2])
    assert names is not None and "region_grams" not in names


@pytest.fixture(scope="module")
def forced(pg_server: PgServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pair]:
    """A demo sample on both backends; the PostgreSQL one on one connection that never scans a
    table sequentially, so filters run through the indexes."""
    docs = demo_sample(every=10)
    st_ = Settings(_env_file=None)  # type: ignore[call-arg]
    pg = PostgresIndex(pg_server.database("paths"), FakeEmbedder(), st_, pool_size=1).build(docs)
    emb = EmbeddedIndex(Path(tmp_path_factory.mktemp("paths")) / "index", FakeEmbedder(), st_).build(docs)
    with pg.pool.connection() as conn:
        conn.execute("SET enable_seqscan = off")
        conn.commit()
    try:
        yield pg, emb, docs
    finally:
        pg.close()


def _menu_words(docs: list[Restaurant]) -> list[str]:
    names = [m.name for d in docs for m in d.menus if len(m.name.replace(" ", "")) >= 4]
    words = [names[0][:1], names[1][:2], names[2][1:4], names[3], names[4][-2:] + " "]
    return [w for w in words if w.strip()]


@pytest.mark.postgres
def test_menu_filter_through_the_bigram_index(forced: Pair) -> None:
    pg, emb, docs = forced
    with pg.pool.connection() as conn:
        plan = "\n".join(
            str(r[0])
            for r in conn.execute(
                "EXPLAIN " + pg_sql.compose("count", ["menu", "menu_grams"]),
                {"menu": ["%치즈%"], "menu_grams": ["치즈"]},
            ).fetchall()
        )
    assert "matjip_rows_menu_grams" in plan
    words = _menu_words(docs)
    found = 0
    for w in words:
        for req in (SearchRequest(menu=[w], k=30), SearchRequest(menu=[w], text="맛집", k=10)):
            found += len(check(pg, docs, req))  # type: ignore[arg-type]
            a, b = pg.search(req), emb.search(req)
            assert [h.document.place_id for h in a.hits] == [h.document.place_id for h in b.hits]
    req = SearchRequest(menu=[words[1], words[2]], k=30)
    check(pg, docs, req)  # type: ignore[arg-type]
    assert found > 0


@pytest.mark.postgres
def test_region_filter_through_the_address_bigram_index(forced: Pair) -> None:
    """A district's rows from the GIN index on the address's bigrams (matjip_keys', and
    matjip_rows' with a filter it lacks), then the exact LIKE: the candidates and hits of the
    brute-force reference and the embedded backend."""
    pg, emb, docs = forced
    with pg.pool.connection() as conn:
        for template, names, index in (
            ("search-keys/some/prior", ["region", "region_grams"], "matjip_keys_addr_grams"),
            ("count", ["region", "region_grams"], "matjip_rows_addr_grams"),
        ):
            plan = "\n".join(
                str(r[0])
                for r in conn.execute(
                    "EXPLAIN " + pg_sql.compose(template, names),
                    {
                        "region_needles": ["% 강남구%"],
                        "region_seqs": [],
                        "region_grams": sorted(bigrams(" 강남구")),
                        "boost_key": None,
                        "all_rows": False,
                        "terms": [],
                        "weights": [],
                        "want_prior": True,
                        "prior_limit": 10,
                        "geo_on": False,
                        "geo_lat": None,
                        "geo_lon": None,
                    },
                ).fetchall()
            )
            assert index in plan, plan
    words = sorted({w for d in docs for w in d.display_address.split()[1:3] if len(w) >= 2})
    assert words
    menu = next(m.name for d in docs for m in d.menus if len(m.name) >= 2)
    found = 0
    for w in [*words[:6], "없는구"]:
        for req in (
            SearchRequest(region=RegionFilter(name=w, terms=[w]), k=30),
            SearchRequest(region=RegionFilter(name=w, terms=[w, w[:2]]), text="맛집", k=10),
            SearchRequest(region=RegionFilter(name=w, terms=[w]), menu=[menu[:2]], k=10),
        ):
            found += len(check(pg, docs, req))  # type: ignore[arg-type]
            a, b = pg.search(req), emb.search(req)
            assert a.total_candidates == b.total_candidates, req
            assert [h.document.place_id for h in a.hits] == [h.document.place_id for h in b.hits], req
    assert found > 0


@pytest.mark.postgres
def test_geo_filter_with_the_inner_box(forced: Pair) -> None:
    """Circles whose inner box holds rows, and a row just inside and just outside (1 cm) the circle
    (closer than that the SQL and numpy haversines may round apart, as before the inner box)."""
    pg, emb, docs = forced
    located = [d for d in docs if d.lat is not None and d.lon is not None]
    c = located[len(located) // 2]
    assert c.lat is not None and c.lon is not None
    far = sorted(haversine_m(c.lat, c.lon, d.lat, d.lon) for d in located)  # type: ignore[arg-type]
    for radius in (far[5], far[5] - 0.01, far[len(far) // 3], 800.0, 3000.0):
        req = SearchRequest(geo=GeoFilter(lat=c.lat, lon=c.lon, radius_m=radius), k=40)
        check(pg, docs, req)  # type: ignore[arg-type]
        a, b = pg.search(req), emb.search(req)
        assert a.total_candidates == b.total_candidates
        assert [h.document.place_id for h in a.hits] == [h.document.place_id for h in b.hits]


def test_search_variants_hold_only_their_parts() -> None:
    some_knn = pg_sql.QUERIES[pg_sql.search_template(False, ["vector"])]
    assert "matjip_postings" not in some_knn and "FROM c JOIN matjip_vectors" in some_knn
    all_text = pg_sql.QUERIES[pg_sql.search_template(True, ["bm25", "vector"])]
    assert "JOIN c ON" not in all_text and "FROM matjip_vectors x" in all_text
    assert "FROM c JOIN matjip_vectors" not in all_text
    full = pg_sql.QUERIES[pg_sql.search_template(False, list(pg_sql.SEARCH_PARTS))]
    assert full.count("UNION ALL") == 5  # two BM25 lists (few or many candidates), vector, prior, nearest


@pytest.mark.postgres
def test_search_variants_answer_as_the_full_statement(forced: Pair, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each request through its variant and through the full statement: the same response."""
    pg, _, docs = forced
    located = next(d for d in docs if d.lat is not None and d.lon is not None)
    assert located.lat is not None and located.lon is not None
    geo = GeoFilter(lat=located.lat, lon=located.lon, radius_m=2000)
    requests = [
        (SearchRequest(text="국밥 맛집", k=10), "hybrid"),
        (SearchRequest(text="국밥 맛집", k=10), "vector"),
        (SearchRequest(text="국밥 맛집", k=10), "bm25"),
        (SearchRequest(text="파스타", geo=geo, k=5), "hybrid"),
        (SearchRequest(geo=geo, k=10), "hybrid"),
        (SearchRequest(text="파스타", geo=geo, k=5), "vector"),
        (SearchRequest(geo=geo, sort="distance", text="카페", k=5), "hybrid"),
        (SearchRequest(cuisine=["한식"], k=8), "hybrid"),
        (SearchRequest(text="국밥", price=PriceRange(min_won=5000, max_won=15000), k=8), "hybrid"),
    ]
    got = [pg.search(r, mode=m) for r, m in requests]  # type: ignore[arg-type]
    # the full statement scans matjip_rows: the variants over matjip_keys (geo, cuisine, price) too
    monkeypatch.setattr(
        pg_sql,
        "search_template",
        lambda all_rows, parts, keys=False, hits=False: "search+hits" if hits else "search",
    )
    for (r, m), a in zip(requests, got, strict=True):
        b = pg.search(r, mode=m)  # type: ignore[arg-type]
        assert a.total_candidates == b.total_candidates > 0
        assert [(h.document.place_id, h.score) for h in a.hits] == [
            (h.document.place_id, h.score) for h in b.hits
        ]


@pytest.mark.postgres
def test_price_filter_box_and_overlap(forced: Pair) -> None:
    """The price filter's box (cheapest and dearest menu price, fixed-width columns) only narrows:
    bands of one price, bands ending at a place's cheapest or dearest price, bands between two
    prices that no menu holds, and open-ended ones agree with the reference and the embedded
    backend; places without prices never pass."""
    pg, emb, docs = forced
    with pg.pool.connection() as conn:
        rows = conn.execute("SELECT prices, price_min, price_max FROM matjip_rows").fetchall()
    priced = [(sorted(p), lo, hi) for p, lo, hi in rows if p]
    assert priced and all(lo == p[0] and hi == p[-1] for p, lo, hi in priced)
    assert all(lo is None and hi is None for p, lo, hi in rows if not p)
    every = sorted({v for p, _, _ in priced for v in p})
    gaps = [(a + 1, b - 1) for a, b in itertools.pairwise(every) if b - a > 2][:3]
    p0, p1 = priced[0][0], priced[len(priced) // 2][0]
    bands = [(p0[0], p0[0]), (p0[-1], p0[-1]), (p1[0] - 1, p1[0]), (p1[-1], p1[-1] + 1), *gaps]
    bands += [(None, p1[0]), (p1[-1], None)]
    for low, high in bands:
        req = SearchRequest(price=PriceRange(min_won=low, max_won=high), k=40)
        check(pg, docs, req)  # type: ignore[arg-type]
        a, b = pg.search(req), emb.search(req)
        assert a.total_candidates == b.total_candidates
        assert [h.document.place_id for h in a.hits] == [h.document.place_id for h in b.hits]


@pytest.mark.postgres
def test_vectors_arrive_bit_for_bit(pg_server: PgServer) -> None:
    """pgvector's binary form gives the stored float4s exactly (the text form's round trip did too)."""
    import numpy as np

    from matjip.index.postgres_search import unpack_vector

    values = [[0.1, -0.0, 1 / 3, -2.5e-38, 3.4e38], [float(np.float32(1e-45)), 7.0, -1.0, 0.0, 123.456]]
    import psycopg

    with psycopg.connect(pg_server.database("vectors_binary"), autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        for v in values:
            sent, text = conn.execute(
                "SELECT vector_send(%(v)s::real[]::vector), %(v)s::real[]::vector::real[]", {"v": v}
            ).fetchone()  # type: ignore[misc]
            got = unpack_vector(sent)
            assert got.dtype == np.float32
            assert got.view(np.uint32).tolist() == np.asarray(text, np.float32).view(np.uint32).tolist()
            assert got.view(np.uint32).tolist() == np.asarray(v, np.float32).view(np.uint32).tolist()


@pytest.mark.postgres
def test_a_version_3_database_upgrades_to_the_narrow_rows(
    pg_server: PgServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An index built under migration 3 is migrated in place by migration 4 (matjip_rows made
    again, fixed-width columns first, the price box) and then answers as the embedded backend."""
    import psycopg

    docs = demo_sample(every=20)
    st_ = Settings(_env_file=None)  # type: ignore[call-arg]
    url = pg_server.database("upgrade4")
    with monkeypatch.context() as m:
        m.setattr(pg_sql, "MIGRATIONS", pg_sql.MIGRATIONS[:3])
        m.setattr(pg_sql, "DERIVE_ROWS_ALL", pg_sql._DERIVE_ROWS_ALL_2)
        # the build of that version's code: no matjip_keys (migration 5) yet
        m.setattr(pg_sql, "DERIVE_KEYS_ALL", "SELECT 1")
        m.setattr(pg_sql, "TRUNCATE_DOCS", pg_sql.TRUNCATE_DOCS.replace(" matjip_keys,", ""))
        m.setattr(pg_sql, "ANALYZE_INDEX", pg_sql.ANALYZE_INDEX.replace(" matjip_keys,", ""))
        PostgresIndex(url, FakeEmbedder(), st_).build(docs).close()

    def columns() -> list[str]:
        with psycopg.connect(url) as conn:
            rows = conn.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_name = 'matjip_rows' "
                "ORDER BY ordinal_position"
            ).fetchall()
        return [str(r[0]) for r in rows]

    assert "price_min" not in columns()
    pg = PostgresIndex(url, FakeEmbedder(), st_).load()
    try:
        assert columns()[:7] == ["seq", "lat", "lon", "prior", "hours_known", "price_min", "price_max"]
        emb = EmbeddedIndex(tmp_path / "index", FakeEmbedder(), st_).build(docs)
        located = next(d for d in docs if d.lat is not None and d.lon is not None)
        assert located.lat is not None and located.lon is not None
        prices = sorted(m.price for d in docs for m in d.menus if m.price)
        requests = [
            SearchRequest(text="국밥 맛집", k=10),
            SearchRequest(
                price=PriceRange(min_won=prices[len(prices) // 3], max_won=prices[len(prices) // 2]), k=20
            ),
            SearchRequest(geo=GeoFilter(lat=located.lat, lon=located.lon, radius_m=3000), text="카페", k=10),
            SearchRequest(cuisine=["한식"], k=8),
        ]
        assert pg.count() == len(docs)
        for req in requests:
            a, b = pg.search(req), emb.search(req)
            assert a.total_candidates == b.total_candidates > 0
            assert [h.document.place_id for h in a.hits] == [h.document.place_id for h in b.hits]
    finally:
        pg.close()


def test_narrow_filters_scan_matjip_keys() -> None:
    """A request whose every filter is on matjip_keys' columns (box, price, hours, cuisine,
    address) takes its candidates from there; one with a menu filter keeps matjip_rows."""
    from zoneinfo import ZoneInfo

    from matjip.index.postgres_search import DocFreqs, PgCandidates

    def search_sql(req: SearchRequest) -> str:
        params, names = filter_params(req, ZoneInfo("Asia/Seoul"), lambda key: [])
        assert names is not None
        source = PgCandidates(
            lambda *a, **k: [], FakeEmbedder(), req, params, names, (10, 100, "v"), DocFreqs()
        )
        statement = source.statement("hybrid")
        assert statement is not None
        return statement.sql

    price = PriceRange(min_won=5000, max_won=9000)
    narrow = search_sql(SearchRequest(price=price, cuisine=["한식"], k=5))
    assert "FROM matjip_keys d" in narrow and "FROM matjip_rows d" not in narrow
    wide = search_sql(SearchRequest(price=price, menu=["국밥"], k=5))
    assert "FROM matjip_rows d" in wide and "matjip_keys" not in wide
