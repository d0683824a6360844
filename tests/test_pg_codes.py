"""The PostgreSQL backend's vector list from matjip_keys' codes (issue 23, twelfth round): a search
whose every filter is on matjip_keys scores its candidates by their halfvec codes in the filter
scan, then exactly only those the codes' error bound lets reach the top. The list stays the exact
scan's, also where the codes order the rows otherwise than their vectors (rows apart by less than
halfvec's resolution), and the codes follow every write."""

from __future__ import annotations

import zlib
from collections.abc import Sequence

import numpy as np
import pytest

from fakes.embedder import FakeEmbedder
from matjip.index import pg_sql, postgres_search
from matjip.index.postgres import PostgresIndex
from matjip.index.request import SearchRequest
from matjip.settings import Settings
from support.index import make_corpus
from support.pgserver import PgServer

ULP = 2.0**-11  # halfvec's spacing between 0.5 and 1


class CrossedCodes(FakeEmbedder):
    """Vectors whose halfvec codes order the rows against their exact inner products with the
    query (2, 1, 0, …): half the rows hold 0.5 + (0.40…0.50)·ULP in dimension 0 (the code rounds
    it down to 0.5), the others 0.5 + (0.55…0.65)·ULP in dimension 1 (rounded up a whole ULP). By
    their vectors the first half come first (0.8·ULP and more against at most 0.65·ULP), by
    their codes the second (a whole ULP against nothing)."""

    def __init__(self) -> None:
        super().__init__(name="crossed", dim=32)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), np.float32)
        out[:, :4] = 0.5
        for i, t in enumerate(texts):
            h = zlib.crc32(t.encode())
            small = ((h >> 1) % 1000) / 10_000
            if h % 2:
                out[i, 0] = 0.5 + (0.40 + small) * ULP
            else:
                out[i, 1] = 0.5 + (0.55 + small) * ULP
        return out

    def embed_query(self, text: str) -> np.ndarray:
        q = np.zeros(self.dim, np.float32)
        q[:2] = (2.0, 1.0)
        return q


def _plain(all_rows: bool, parts: object, keys: bool = False, hits: bool = False) -> str:
    return "search+hits" if hits else "search"  # the full statement: the exact scan of matjip_rows


@pytest.mark.postgres
def test_codes_keep_the_exact_list_where_they_order_rows_otherwise(
    pg_server: PgServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    docs = make_corpus(n=300)
    st_ = Settings(_env_file=None)  # type: ignore[call-arg]
    pg = PostgresIndex(pg_server.database("codes_crossed"), CrossedCodes(), st_).build(docs)
    try:
        req = SearchRequest(text="국밥", exclude_cuisine=["없는요리"], k=20)  # every row, from matjip_keys
        exact = [pg.search(req, mode=m) for m in ("vector", "hybrid")]
        pg.statements = []
        coded = [pg.search(req, mode=m) for m in ("vector", "hybrid")]
        assert any("code <#>" in s for s in pg.statements)
        with monkeypatch.context() as m:
            m.setattr(pg_sql, "search_template", _plain)
            pg.statements = []
            exact = [pg.search(req, mode=mode) for mode in ("vector", "hybrid")]
            assert not any("code <#>" in s for s in pg.statements)
        pg.statements = None
        for a, b in zip(coded, exact, strict=True):
            assert a.total_candidates == b.total_candidates > 100  # more than the list's rows
            assert [(h.document.place_id, h.vector) for h in a.hits] == [
                (h.document.place_id, h.vector) for h in b.hits
            ]
        # the corpus does cross: the codes' own order puts other rows first
        with pg.pool.connection() as conn:
            rows = conn.execute(
                "SELECT k.seq FROM matjip_keys k ORDER BY k.code <#> %(q)s::real[]::halfvec, k.seq LIMIT 20",
                {"q": [2.0, 1.0] + [0.0] * 30},
            ).fetchall()
            by_code = {int(r[0]) for r in rows}
            rows = conn.execute(
                "SELECT v.seq FROM matjip_vectors v ORDER BY v.embedding <#> %(q)s::real[]::vector, v.seq LIMIT 20",
                {"q": [2.0, 1.0] + [0.0] * 30},
            ).fetchall()
            assert not by_code & {int(r[0]) for r in rows}
        # … and a bound too tight for the codes' rounding would lose the exact list's rows
        monkeypatch.setattr(postgres_search, "CODE_ERR", 0.0)
        monkeypatch.setattr(postgres_search, "CODE_ERR_ABS", 0.0)
        wrong = pg.search(req, mode="vector")
        assert [h.document.place_id for h in wrong.hits] != [h.document.place_id for h in exact[0].hits]
    finally:
        pg.close()


@pytest.mark.postgres
def test_codes_follow_every_write(pg_server: PgServer) -> None:
    """Build, upsert (changed texts) and delete: each row's code is its vector as halfvec, its
    norm the vector's, one row each."""
    docs = make_corpus(n=80)
    st_ = Settings(_env_file=None)  # type: ignore[call-arg]
    pg = PostgresIndex(pg_server.database("codes_writes"), FakeEmbedder(), st_).build(docs)

    def mismatches() -> tuple[int, int, int]:
        with pg.pool.connection() as conn:
            row = conn.execute(
                "SELECT (SELECT count(*) FROM matjip_keys), (SELECT count(*) FROM matjip_vectors), "
                "(SELECT count(*) FROM matjip_keys k JOIN matjip_vectors v ON v.seq = k.seq "
                "WHERE k.code = v.embedding::halfvec AND abs(k.vnorm - vector_norm(v.embedding)) < 1e-6)"
            ).fetchone()
        assert row is not None
        return int(row[0]), int(row[1]), int(row[2])

    try:
        assert mismatches() == (len(docs), len(docs), len(docs))
        changed = [d.model_copy(update={"summary": "새로 쓴 소개 " + d.place_id}) for d in docs[:10]]
        pg.upsert(changed)
        pg.delete([d.place_id for d in docs[10:15]])
        assert mismatches() == (len(docs) - 5,) * 3
        req = SearchRequest(text="새로 쓴 소개", exclude_cuisine=["없는요리"], k=10)
        got = {h.document.place_id for h in pg.search(req, mode="vector").hits}
        assert got & {d.place_id for d in changed}
    finally:
        pg.close()


def test_loose_statements_score_codes_first() -> None:
    """The variants over matjip_keys with a vector list score the codes in the filter scan and look
    up exact vectors only past the bound (with HNSW on too: a filtered list is exact); over
    matjip_rows the exact scan stays."""
    for parts in (["vector"], ["bm25", "vector"], ["bm25", "vector", "prior"]):
        sql = pg_sql.QUERIES[pg_sql.search_template(False, parts, keys=True)]
        assert "(d.code <#> %(qv)s::real[]::halfvec) AS adist" in sql
        assert "WHERE %(want_vector)s AND c.adist - %(code_err)s * (c.vnorm + 1) <=" in sql
        assert "FROM c JOIN matjip_vectors d ON d.seq = c.seq WHERE %(want_vector)s AND c.adist" in sql
        assert "code" not in pg_sql.QUERIES[pg_sql.search_template(False, parts)]
    text_only = pg_sql.QUERIES[pg_sql.search_template(False, ["bm25", "prior"], keys=True)]
    assert "code" not in text_only


def test_code_bound_scales_with_the_query() -> None:
    q = np.zeros(256, np.float32)
    q[3] = 3.0
    assert postgres_search.code_err(q, 256) == pytest.approx(3 * postgres_search.CODE_ERR + 1e-5)
    assert postgres_search.code_err(q, 1024) == pytest.approx(4 * (3 * postgres_search.CODE_ERR + 1e-5))
