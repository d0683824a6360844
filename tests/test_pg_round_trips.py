"""A PostgreSQL search in two round trips (issue 23, part 2): the search statement goes with the
read's BEGIN and index meta (made with the meta the last read saw, checked against the snapshot's),
the hit rows with the COMMIT (a kNN or text search in one: its hit rows come with the statement;
fourteenth round for text), and a connection back in the pool a moment ago is handed out without
a check of its own. Each shortcut stays exact: a stale guess of the meta makes the statement again,
a connection the server ended is replaced."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fakes.embedder import FakeEmbedder
from matjip.documents import Restaurant
from matjip.index.embedded import EmbeddedIndex
from matjip.index.postgres import PostgresIndex
from matjip.index.request import GeoFilter, SearchRequest
from matjip.settings import Settings
from support.index import demo_sample
from support.pgserver import PgServer

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def built(pg_server: PgServer) -> Iterator[tuple[str, list[Restaurant]]]:
    docs = demo_sample(every=15)
    url = pg_server.database("round_trips")
    PostgresIndex(url, FakeEmbedder(), Settings(_env_file=None)).build(docs[:-1]).close()  # type: ignore[call-arg]
    yield url, docs


def _requests(docs: list[Restaurant]) -> list[tuple[SearchRequest, str]]:
    located = next(d for d in docs if d.lat is not None and d.lon is not None)
    assert located.lat is not None and located.lon is not None
    geo = GeoFilter(lat=located.lat, lon=located.lon, radius_m=3000)
    return [
        (SearchRequest(text="국밥 맛집", k=10), "hybrid"),
        (SearchRequest(text="데이트 분위기", geo=geo, k=5), "hybrid"),
        (SearchRequest(text="데이트 분위기", geo=geo, k=5), "vector"),
        (SearchRequest(cuisine=["한식"], k=8), "hybrid"),
        (SearchRequest(text=docs[-1].title, k=5), "hybrid"),
    ]


def _round_trips(pg: PostgresIndex, req: SearchRequest, mode: Any) -> int:
    """Round trips of one search: BEGIN (pipelined with what goes with it), every statement run
    alone, and the last statement with the COMMIT."""
    calls = [0]
    names = ("_begin", "_run", "_run_ending", "_run_alone")
    wrapped = {name: getattr(pg, name) for name in names if hasattr(pg, name)}

    def counted(fn: Any) -> Any:
        def call(*a: Any, **kw: Any) -> Any:
            calls[0] += 1
            return fn(*a, **kw)

        return call

    for name, fn in wrapped.items():
        setattr(pg, name, counted(fn))
    try:
        pg.search(req, mode=mode)
    finally:
        for name in wrapped:
            delattr(pg, name)
    return calls[0]


def test_a_search_takes_two_round_trips(built: tuple[str, list[Restaurant]]) -> None:
    """Two round trips at most; one for a kNN search, and for a text search whose hits are among
    its lists' first rows (the test below)."""
    url, docs = built
    pg = PostgresIndex(url, FakeEmbedder(), Settings(_env_file=None), pool_size=1).load()  # type: ignore[call-arg]
    try:
        for req, mode in _requests(docs)[:4]:
            pg.search(req, mode=mode)  # the meta, the terms' document frequencies seen once
            trips = _round_trips(pg, req, mode)
            assert trips == 1 if mode == "vector" else trips <= 2 if req.text else trips == 2, req
    finally:
        pg.close()


def _text_requests(docs: list[Restaurant]) -> list[SearchRequest]:
    located = [d for d in docs if d.lat is not None and d.lon is not None]
    out = [
        SearchRequest(text="데이트 분위기", k=10),
        SearchRequest(text="국밥 맛집", k=5),
        SearchRequest(text="국밥", k=3, cuisine=["한식"]),
        SearchRequest(text="조용한 대화 카페", k=10, exclude_cuisine=["없는요리"]),
    ]
    for d in located[:4]:
        assert d.lat is not None and d.lon is not None
        out.append(
            SearchRequest(text="회식 단체 고기", geo=GeoFilter(lat=d.lat, lon=d.lon, radius_m=2500), k=5)
        )
    return out


@pytest.mark.parametrize("hit_margin", [200, -2])
def test_a_text_search_brings_its_hit_rows_in_one_round_trip(
    built: tuple[str, list[Restaurant]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hit_margin: int
) -> None:
    """A text search (issue 23, fourteenth round): the hit rows of the BM25 and vector lists'
    first rows come with the search statement and the COMMIT with the BEGIN, one round trip; the
    same hits in the same order, with the same scores, as the embedded backend (every row carries
    its hit row here). A hit past those rows (too few carry theirs) is read in one more round trip,
    a read of its own of the same index version, as exact."""
    from matjip.index import postgres_search

    monkeypatch.setattr(postgres_search, "HIT_MARGIN", hit_margin)
    url, docs = built
    st_ = Settings(_env_file=None)  # type: ignore[call-arg]
    pg = PostgresIndex(url, FakeEmbedder(), st_, pool_size=1).load()
    emb = EmbeddedIndex(tmp_path / "index", FakeEmbedder(), st_).build(docs[:-1])
    try:
        for req in _text_requests(docs):
            pg.search(req)  # the meta, the terms' document frequencies seen once
            trips = _round_trips(pg, req, "hybrid")
            a, b = pg.search(req), emb.search(req)
            assert a.hits and a.total_candidates == b.total_candidates, req
            assert [h.document.place_id for h in a.hits] == [h.document.place_id for h in b.hits], req
            assert [(h.score, h.bm25, h.vector) for h in a.hits] == [
                (h.score, h.bm25, h.vector) for h in b.hits
            ], req
            assert [h.distance_m for h in a.hits] == pytest.approx([h.distance_m for h in b.hits]), req
            assert [h.document for h in a.hits] == [h.document for h in b.hits], req
            # the margin short of the hits: one more round trip, the rows read on their own
            assert trips == (1 if hit_margin >= 0 else 2), (req, trips)
    finally:
        pg.close()


def test_hit_rows_read_after_a_write_make_the_search_read_again(
    built: tuple[str, list[Restaurant]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write between a text search's statement (which ended its read) and the read of a hit
    row past the rows that carried theirs: that read sees another index version, so the search
    reads again, in one snapshot; the answer is the new index's, as the embedded backend gives it."""
    from matjip.index import postgres_search

    monkeypatch.setattr(postgres_search, "HIT_MARGIN", -2)
    url, docs = built
    st_ = Settings(_env_file=None)  # type: ignore[call-arg]
    reader = PostgresIndex(url, FakeEmbedder(), st_, pool_size=1).load()
    writer = PostgresIndex(url, FakeEmbedder(), st_).load()
    alone = reader._run_alone
    wrote: list[bool] = []

    def write_first(*a: Any, **kw: Any) -> Any:
        if not wrote:
            writer.upsert([docs[-1]])
            wrote.append(True)
        return alone(*a, **kw)

    req = SearchRequest(text=docs[-1].title, k=5)
    try:
        reader.search(req)  # the meta, the terms' document frequencies seen once
        monkeypatch.setattr(reader, "_run_alone", write_first)
        a = reader.search(req)
        assert wrote
        b = EmbeddedIndex(tmp_path / "index", FakeEmbedder(), st_).build(docs).search(req)
        assert a.total_candidates == b.total_candidates
        assert [h.document.place_id for h in a.hits] == [h.document.place_id for h in b.hits]
        assert docs[-1].place_id in [h.document.place_id for h in a.hits]
    finally:
        reader.close()
        writer.delete([docs[-1].place_id])
        writer.close()


def _knn_requests(docs: list[Restaurant]) -> list[SearchRequest]:
    located = [d for d in docs if d.lat is not None and d.lon is not None]
    out = [SearchRequest(text="데이트 분위기", k=10), SearchRequest(text="국밥", k=3, cuisine=["한식"])]
    for d in located[:4]:
        assert d.lat is not None and d.lon is not None
        out.append(SearchRequest(text="조용한 대화", geo=GeoFilter(lat=d.lat, lon=d.lon, radius_m=2500), k=5))
    return out


@pytest.mark.parametrize("hit_margin", [8, -2])
def test_a_knn_search_brings_its_hit_rows_in_one_round_trip(
    built: tuple[str, list[Restaurant]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hit_margin: int
) -> None:
    """A kNN search (the vector list alone): the hit rows of the list's first rows come with the
    search statement and the COMMIT with the BEGIN, one round trip; the same hits in the same
    order, with the same scores, as the embedded backend. With too few rows carrying their hit rows
    (a hit the server's order puts past them), those are read in one more round trip, as exact."""
    from matjip.index import postgres_search

    monkeypatch.setattr(postgres_search, "HIT_MARGIN", hit_margin)
    url, docs = built
    st_ = Settings(_env_file=None)  # type: ignore[call-arg]
    pg = PostgresIndex(url, FakeEmbedder(), st_, pool_size=1).load()
    emb = EmbeddedIndex(tmp_path / "index", FakeEmbedder(), st_).build(docs[:-1])
    try:
        for req in _knn_requests(docs):
            pg.search(req, mode="vector")  # the meta seen once
            trips = _round_trips(pg, req, "vector")
            a, b = pg.search(req, mode="vector"), emb.search(req, mode="vector")
            assert a.total_candidates == b.total_candidates, req
            assert [h.document.place_id for h in a.hits] == [h.document.place_id for h in b.hits], req
            assert [h.score for h in a.hits] == [h.score for h in b.hits], req
            assert [h.distance_m for h in a.hits] == pytest.approx([h.distance_m for h in b.hits]), req
            assert [h.document for h in a.hits] == [h.document for h in b.hits], req
            # the margin short of the hits: the first read ends with its statement, then the hit
            # rows in a read of their own (of the same index version)
            expected = 1 if hit_margin >= 0 or len(a.hits) <= req.k + hit_margin else 2
            assert trips == expected, (req, trips)
    finally:
        pg.close()


def test_a_knn_search_reads_back_k_and_a_margin_of_vectors(
    built: tuple[str, list[Restaurant]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A kNN search shows its list's first k rows: the statement sends back k + MARGIN vectors
    (each a kilobyte to the client), not the fused list's depth, and the hits stay the embedded
    backend's, in the same order (issue 23, thirteenth round)."""
    from matjip.index import postgres_search
    from matjip.index.postgres_search import MARGIN

    seen: list[int] = []
    take = postgres_search.PgCandidates.take

    def counted(self: Any, statement: Any, rows: list[tuple[Any, ...]]) -> int:
        if statement.hits:
            seen.append(sum(1 for r in rows if int(r[0]) == 2))
        return take(self, statement, rows)

    monkeypatch.setattr(postgres_search.PgCandidates, "take", counted)
    url, docs = built
    st_ = Settings(_env_file=None)  # type: ignore[call-arg]
    pg = PostgresIndex(url, FakeEmbedder(), st_, pool_size=1).load()
    emb = EmbeddedIndex(tmp_path / "index", FakeEmbedder(), st_).build(docs[:-1])
    try:
        for req in _knn_requests(docs):
            pg.search(req, mode="vector")  # the meta seen once
            seen.clear()
            a, b = pg.search(req, mode="vector"), emb.search(req, mode="vector")
            assert seen and all(n <= req.k + MARGIN for n in seen), (req, seen)
            assert a.total_candidates == b.total_candidates, req
            assert [h.document.place_id for h in a.hits] == [h.document.place_id for h in b.hits], req
            assert [h.score for h in a.hits] == [h.score for h in b.hits], req
    finally:
        pg.close()


def test_a_stale_meta_makes_the_statement_again(built: tuple[str, list[Restaurant]], tmp_path: Path) -> None:
    """A write by another process between two searches: the statement made with the old meta is
    not used; the answer is the new index's, as the embedded backend gives it."""
    url, docs = built
    st_ = Settings(_env_file=None)  # type: ignore[call-arg]
    reader = PostgresIndex(url, FakeEmbedder(), st_).load()
    writer = PostgresIndex(url, FakeEmbedder(), st_).load()
    try:
        for req, mode in _requests(docs):
            reader.search(req, mode=mode)
        writer.upsert([docs[-1]])
        emb = EmbeddedIndex(tmp_path / "index", FakeEmbedder(), st_).build(docs)
        for req, mode in _requests(docs):
            a, b = reader.search(req, mode=mode), emb.search(req, mode=mode)  # type: ignore[arg-type]
            assert a.total_candidates == b.total_candidates
            assert [h.document.place_id for h in a.hits] == [h.document.place_id for h in b.hits]
        assert docs[-1].place_id in [h.document.place_id for h in reader.search(_requests(docs)[-1][0]).hits]
    finally:
        reader.close()
        writer.delete([docs[-1].place_id])
        writer.close()


def test_a_connection_the_server_ended_is_replaced(built: tuple[str, list[Restaurant]]) -> None:
    """The quick check hands out a connection back a moment ago only while its socket is quiet: one
    the server terminated meanwhile is checked, dropped and replaced, and the search answers."""
    import psycopg

    url, docs = built
    pg = PostgresIndex(url, FakeEmbedder(), Settings(_env_file=None), pool_size=1).load()  # type: ignore[call-arg]
    try:
        req = _requests(docs)[0][0]
        expected = [h.document.place_id for h in pg.search(req).hits]
        with pg.pool.connection() as conn:
            pid = conn.info.backend_pid
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%(pid)s)", {"pid": pid})
        time.sleep(0.3)
        assert [h.document.place_id for h in pg.search(req).hits] == expected
        with pg.pool.connection() as conn:
            assert conn.info.backend_pid != pid
    finally:
        pg.close()


def test_the_quick_check_holds_with_more_than_1024_files_open(built: tuple[str, list[Restaurant]]) -> None:
    """``select`` takes no descriptor above 1,023: with that many files open (a long-lived server, or
    the test suite itself) every quick check raised and the pool gave no connection at all."""
    import resource

    from matjip.index.postgres_pool import connection_pool

    url, _ = built
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1200:
        pytest.skip(f"the hard limit of open files is {hard}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1200), hard))
    held = [open(__file__, "rb") for _ in range(1100)]  # noqa: SIM115 - held open on purpose
    pool = connection_pool(url, Settings(_env_file=None), name="many-files", max_size=2, quick=True)  # type: ignore[call-arg]
    try:
        for _ in range(3):  # the second and third take a connection that came back a moment ago
            with pool.connection() as conn:
                assert conn.execute("SELECT 1").fetchone() == (1,)
                assert conn.pgconn.socket > 1023
    finally:
        pool.close()
        for f in held:
            f.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
