"""The PostgreSQL backend's opt-in HNSW path (``MATJIP_DATABASE_HNSW``): a build makes the index, an
unfiltered search's vector list comes from it (a branch of the search statement: no statement more
than the exact path's), a filtered one's is the exact path's (its statements, its codes), and on a
corpus the index walks whole its lists score as the exact scan's. The default path's equality with the
embedded backend is the conformance suite's (``tests/test_index_postgres.py``)."""

from __future__ import annotations

import pytest

from fakes.embedder import FakeEmbedder
from matjip.index import pg_sql, postgres_search
from matjip.index.postgres import PostgresIndex
from matjip.index.request import PriceRange, SearchRequest
from matjip.settings import Settings
from support.index import make_corpus
from support.pgserver import PgServer

pytestmark = pytest.mark.postgres


def _vector_scores(pg: PostgresIndex, req: SearchRequest) -> tuple[list[float], list[str]]:
    pg.search(req, mode="vector")  # the meta seen once: the statement goes with the BEGIN
    pg.statements = []
    try:
        hits = pg.search(req, mode="vector").hits
        return [round(h.vector or 0.0, 6) for h in hits], list(pg.statements)
    finally:
        pg.statements = None


def test_hnsw_lists_score_as_the_exact_scan(pg_server: PgServer, monkeypatch: pytest.MonkeyPatch) -> None:
    docs = make_corpus(n=300)
    settings = Settings(_env_file=None, database_hnsw=True)  # type: ignore[call-arg]
    pg = PostgresIndex(pg_server.database("hnsw"), FakeEmbedder(), settings).build(docs)
    try:
        with pg.pool.connection() as conn:
            row = conn.execute("SELECT to_regclass('matjip_vectors_hnsw')").fetchone()
            assert row is not None and row[0] is not None
        for req in (
            SearchRequest(text="분위기 좋은 데이트", k=10),
            SearchRequest(text="가족 모임 갈비", k=5, price=PriceRange(max_won=30_000)),
        ):
            pg.hnsw = True
            approx, executed = _vector_scores(pg, req)
            names = ["price"] if req.price is not None else []
            # the index's list is a branch of the search statement: no statement more than the
            # exact path's; a filtered list is the exact path's (the codes of matjip_keys)
            search = pg_sql.compose(
                pg_sql.search_template(not names, ["vector"], bool(names), hits=True), names
            )
            assert search in executed
            assert ("code <#>" in search) == bool(names)
            if not names:
                assert pg.search(req, mode="vector").total_candidates == len(docs)
            pg.hnsw = False
            exact, exact_executed = _vector_scores(pg, req)
            # an unfiltered walk's shorter candidate list is set with the read's BEGIN (pipelined:
            # no round trip more); a filtered walk keeps the connection's deeper one
            assert (pg_sql.UNFILTERED_WALK in executed) == (not names)
            assert [s for s in executed if s != pg_sql.UNFILTERED_WALK] == exact_executed
            assert approx == exact
    finally:
        pg.close()


def test_unfiltered_walk_setting_lasts_one_read(pg_server: PgServer) -> None:
    """The unfiltered walk's ``ef_search`` (``pg_sql.UNFILTERED_WALK``: its rows are the walk's
    first, measured recall ≥ 0.99 at 600, README "HNSW") is a ``SET LOCAL`` of the read's
    transaction: a filtered search on the same pooled connection (exact: it does not walk) has the
    connection's 1000 again, and the exact path never sets it."""
    docs = make_corpus(n=120)
    settings = Settings(_env_file=None, database_hnsw=True)  # type: ignore[call-arg]
    pg = PostgresIndex(pg_server.database("hnsw_walk"), FakeEmbedder(), settings, pool_size=1).build(docs)
    try:
        assert pg_sql.UNFILTERED_WALK.startswith("SET LOCAL hnsw.ef_search = ")
        short = int(pg_sql.UNFILTERED_WALK.rsplit(" ", 1)[1])
        assert postgres_search.ANN_LIMIT <= short < 1000
        unfiltered = SearchRequest(text="분위기 좋은 데이트", k=5)
        filtered = SearchRequest(text="분위기 좋은 데이트", k=5, price=PriceRange(max_won=30_000))
        assert pg.walk_setting(unfiltered) == pg_sql.UNFILTERED_WALK
        assert pg.walk_setting(filtered) is None
        seen: list[str] = []
        begin = pg._begin

        def spy(conn, head=None, local=None):  # type: ignore[no-untyped-def]
            out = begin(conn, head, local)
            seen.append(conn.execute("SHOW hnsw.ef_search").fetchone()[0])
            return out

        pg._begin = spy  # type: ignore[method-assign]
        pg.search(unfiltered)
        pg.search(filtered)
        with pg.pool.connection() as conn:
            after = conn.execute("SHOW hnsw.ef_search").fetchone()
        assert seen == [str(short), "1000"]
        assert after is not None and after[0] == "1000"
        pg.hnsw = False
        assert pg.walk_setting(unfiltered) is None
    finally:
        pg.close()


def test_search_connections_walk_deep_enough(pg_server: PgServer) -> None:
    """A search connection's HNSW walk keeps a candidate list of 1000 rows (pgvector's largest
    ``ef_search``; an unfiltered search's read sets its own shorter one, above), of which the
    statement takes the vector list's rows and a margin (re-ordered exactly); the iterative scan
    keeps the exact order."""
    settings = Settings(_env_file=None, database_hnsw=True)  # type: ignore[call-arg]
    pg = PostgresIndex(pg_server.database("hnsw_settings"), FakeEmbedder(), settings)
    try:
        with pg.pool.connection() as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            ef = conn.execute("SHOW hnsw.ef_search").fetchone()
            scan = conn.execute("SHOW hnsw.iterative_scan").fetchone()
        assert ef is not None and int(ef[0]) >= 1000 >= postgres_search.ANN_LIMIT
        assert scan is not None and scan[0] == "strict_order"
    finally:
        pg.close()
