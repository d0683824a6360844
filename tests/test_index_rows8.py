"""The row-major int8 codes of the vectors (``vectors.i8``, ``index/quantized.py``) and the float
rows read by ``pread`` (``Snapshot.float_rows``): a dense query's candidates are scored from the
codes with an error bound and only those that can reach the top are read from ``vectors.f32`` —
the list (rows, order, scores) is the one scoring every candidate exactly gives, and the float
matrix's mapping stays out of the process's resident set (the 1M RSS target, README)."""

from __future__ import annotations

import dataclasses
import zlib
from pathlib import Path

import numpy as np
import pytest

from fakes.embedder import FakeEmbedder
from matjip.index import layout, quantized, vectors
from matjip.index.embedded import EmbeddedIndex
from matjip.index.quantized import Quantized, row_bounded
from matjip.index.request import SearchRequest
from matjip.index.snapshot import Snapshot
from matjip.index.vectors import MAPPED_MAX, SPARSE_SHARE, reads_rows, top_vectors
from matjip.settings import Settings
from support.index import make_corpus

DIM = 64


class DenseEmbedder(FakeEmbedder):
    """Dense vectors as the default embedder's are: the normalised mean of one fixed random vector
    per word (seeded by the word), every dimension non-zero."""

    def _one(self, text: str) -> np.ndarray:
        words = text.split() or [""]
        acc = np.full(self.dim, 0.2, dtype=np.float64)
        for w in words:
            acc += np.random.default_rng(zlib.crc32(w.encode())).standard_normal(self.dim) / len(words)
        return (acc / np.linalg.norm(acc)).astype(np.float32)


QUERIES = [
    "분위기 좋은 이탈리안 레스토랑 기념일 파스타",
    "얼큰한 국밥 순대국 해장국 맛집",
    "회식 고깃집 삼겹살 단체석 주차",
    "조용한 카페 디저트 케이크",
    "혼자 가기 좋은 라멘 돈까스",
    "짜장면 짬뽕 탕수육 배달",
]


@pytest.fixture(autouse=True)
def _rows_at_any_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """These corpora are small: read them as a float matrix above ``MAPPED_MAX`` is read."""
    monkeypatch.setattr(vectors, "MAPPED_MAX", 0)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIndex:
    index = EmbeddedIndex(tmp_path_factory.mktemp("r") / "index", DenseEmbedder(dim=DIM), Settings())
    return index.build(make_corpus(900))


def _without_rows(s: Snapshot) -> Snapshot:
    """The same snapshot as an index written before ``vectors.i8``: every candidate scored
    exactly from the float matrix."""
    q8 = s.quantized
    assert q8 is not None
    return dataclasses.replace(s, quantized=Quantized(q8.codes, q8.scale, None))


def test_the_row_major_codes_are_the_dimension_major_ones_transposed(built: EmbeddedIndex) -> None:
    s = built._require()
    q8 = s.quantized
    assert q8 is not None and q8.rows is not None and q8.rows.shape == (s.n, DIM)
    assert np.array_equal(q8.rows, q8.codes.T)
    rebuilt = q8.rows.astype(np.float32) * q8.scale[:, None]
    assert np.all(np.abs(rebuilt - s.vectors) <= q8.scale[:, None] / 2 + 1e-7)


def test_a_dense_query_gets_the_exact_list_through_the_codes(built: EmbeddedIndex) -> None:
    s = built._require()
    plain = _without_rows(s)
    rng = np.random.default_rng(11)
    narrowed = 0
    for text in QUERIES:
        qv = np.asarray(built.embedder.embed_query(text), dtype=np.float32)
        assert np.count_nonzero(qv) > SPARSE_SHARE * len(qv), text
        for _ in range(8):
            idx = np.flatnonzero(rng.random(s.n) < rng.choice([0.05, 0.3, 1.0])).astype(np.int64)
            depth = int(rng.choice([1, 5, 10, 50]))
            fast = top_vectors(s, qv, idx, depth)
            exact = top_vectors(plain, qv, idx, depth)
            assert fast[0].tolist() == exact[0].tolist(), (text, depth)
            assert fast[1].tolist() == exact[1].tolist(), (text, depth)
            keep = row_bounded(s.quantized, qv, idx, min(depth, len(idx)))  # type: ignore[arg-type]
            narrowed += keep is not None and len(keep) < len(idx) // 2
    assert narrowed >= 20, "the bound hardly left a candidate out"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_bound_keeps_every_row_that_can_reach_the_top(seed: int) -> None:
    """Random unit rows, a third of them copies of others (ties at the cut): every row whose
    exact float64 cosine reaches the depth-th best is kept."""
    rng = np.random.default_rng(seed)
    vecs = rng.standard_normal((3000, 48)).astype(np.float32)
    vecs[2000:] = vecs[rng.integers(0, 2000, 1000)]
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    codes, scale = quantized.quantize(vecs)
    q8 = Quantized(np.ascontiguousarray(codes.T), scale, codes)
    for _ in range(10):
        qv = rng.standard_normal(48).astype(np.float32)
        qv /= np.linalg.norm(qv)
        idx = np.sort(rng.choice(3000, int(rng.integers(100, 3000)), replace=False)).astype(np.int64)
        depth = int(rng.choice([1, 10, 50]))
        keep = row_bounded(q8, qv, idx, depth)
        assert keep is not None and np.all(np.diff(keep) > 0) and set(keep.tolist()) <= set(idx.tolist())
        exact = vecs[idx].astype(np.float64) @ qv.astype(np.float64)
        kth = np.sort(exact)[-depth]
        assert set(idx[exact >= kth - 1e-6].tolist()) <= set(keep.tolist())
        assert len(keep) < len(idx)


def test_float_rows_are_the_matrix_rows(built: EmbeddedIndex) -> None:
    s = built._require()
    assert s.vectors_file is not None
    vecs = np.asarray(s.vectors)
    for rows in ([5, 6, 7, 8, 30], [400, 3, 3, 4, 899, 0], [s.n - 1], list(range(0, s.n, 3)), []):
        want = vecs[np.asarray(rows, dtype=np.int64)].reshape(len(rows), DIM)
        got = s.float_rows(np.asarray(rows, dtype=np.int64))
        assert got.dtype == np.float32 and np.array_equal(got, want), rows


def _resident_kb(path: Path) -> int:
    """The resident kB of this process's mappings of ``path`` (``/proc/self/smaps``)."""
    total, inside = 0, False
    for line in Path("/proc/self/smaps").read_text().splitlines():
        head = line.split()
        if head and "-" in head[0] and len(head) >= 5 and not head[0].endswith(":"):
            inside = len(head) >= 6 and head[-1] == str(path)
        elif inside and line.startswith("Rss:"):
            total += int(head[1])
    return total


@pytest.mark.skipif(not Path("/proc/self/smaps").is_file(), reason="Linux /proc only")
def test_searches_leave_the_float_matrix_out_of_the_resident_set(tmp_path: Path) -> None:
    EmbeddedIndex(tmp_path / "index", DenseEmbedder(dim=DIM), Settings()).build(make_corpus(600))
    fresh = EmbeddedIndex(tmp_path / "index", DenseEmbedder(dim=DIM), Settings()).load()
    s = fresh._require()
    path = (s.directory / "vectors.f32").resolve()
    fresh.warm()  # its whole-index search and the page-cache advice map nothing either
    assert s.cache_vectors()
    for text in QUERIES:
        assert fresh.search(SearchRequest(text=text, k=10)).hits
        assert fresh.search(SearchRequest(text=text, k=10), mode="vector").hits
    assert _resident_kb(path) == 0
    # the measurement sees the mapping when it is read (an index without the codes reads it)
    top_vectors(
        _without_rows(s), np.asarray(fresh.embedder.embed_query(QUERIES[0]), np.float32), s.alive_rows
    )
    assert _resident_kb(path) > 0


def test_an_ingest_appends_the_row_major_codes_and_an_older_index_gets_them(tmp_path: Path) -> None:
    docs = make_corpus(80)
    index = EmbeddedIndex(tmp_path / "index", DenseEmbedder(dim=DIM), Settings()).build(docs[:50])
    d = index._require().directory
    want = [h.document.place_id for h in index.search(SearchRequest(text=QUERIES[1], k=5)).hits]
    (d / quantized.ROWS_FILE).unlink()  # as written before vectors.i8
    layout.write_manifest(d)
    old = EmbeddedIndex(tmp_path / "index", DenseEmbedder(dim=DIM), Settings()).load()
    q8 = old._require().quantized
    assert q8 is not None and q8.rows is None
    assert [h.document.place_id for h in old.search(SearchRequest(text=QUERIES[1], k=5)).hits] == want
    old.upsert(docs[50:])
    s = old._require()
    q8 = s.quantized
    assert q8 is not None and q8.rows is not None and q8.n == s.n > 50
    codes = quantized.quantize(np.asarray(s.vectors))[0]
    assert np.array_equal(q8.rows, codes) and np.array_equal(q8.codes, codes.T)
    old.upsert([docs[0].model_copy(update={"title": "새 이름 국밥"})])  # appended to the copy kept
    s = old._require()
    assert s.quantized is not None and s.quantized.rows is not None
    assert np.array_equal(s.quantized.rows, quantized.quantize(np.asarray(s.vectors))[0])


def test_the_bound_holds_where_rounding_errs_most() -> None:
    """Rows built so that every component lies almost half a step from its code — rounded down in
    half of the rows, up in the other half — against a query of equal weights: each approximate
    cosine is off by nearly the whole bound, the rows rounded down look better than better rows
    rounded up, and still every row that reaches the exact top is kept."""
    rng = np.random.default_rng(7)
    dim, n = 32, 400
    codes = rng.integers(20, 100, (n, dim)).astype(np.float64)
    codes[:, 0] = 127  # fixes each row's scale: its largest component is 127 steps
    half = np.where(np.arange(n)[:, None] % 2 == 0, 0.49, -0.49) * np.ones((1, dim))
    half[:, 0] = 0.0
    vecs = codes + half
    vecs = (vecs / np.linalg.norm(vecs, axis=1, keepdims=True)).astype(np.float32)
    got_codes, scale = quantized.quantize(vecs)
    assert np.array_equal(got_codes, codes.astype(np.int8))  # each component half a step from its code
    q8 = Quantized(np.ascontiguousarray(got_codes.T), scale, got_codes)
    qv = np.full(dim, 1 / np.sqrt(dim), dtype=np.float32)
    idx = np.arange(n, dtype=np.int64)
    approx = q8.row_scores(qv, idx).astype(np.float64)
    exact = vecs.astype(np.float64) @ qv.astype(np.float64)
    bound = quantized.error_bound(scale, qv)
    assert np.all(np.abs(approx - exact) <= bound)
    assert np.abs(approx - exact).max() >= 0.9 * (scale * 0.5 * np.abs(qv).sum()).max()  # nearly all of it
    for depth in (1, 5, 20, 60):
        keep = row_bounded(q8, qv, idx, depth)
        assert keep is not None
        kth = np.sort(exact)[-depth]
        assert set(np.flatnonzero(exact >= kth).tolist()) <= set(keep.tolist()), depth


def test_a_small_float_matrix_is_read_through_its_mapping(
    built: EmbeddedIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Below ``MAPPED_MAX`` the codes are not read (a gather from the few mapped MB is cheaper);
    the hits and their scores are the same either way."""
    s = built._require()
    assert reads_rows(s)
    fast = [built.search(SearchRequest(text=q, k=10)).hits for q in QUERIES]
    monkeypatch.setattr(vectors, "MAPPED_MAX", MAPPED_MAX)
    assert not reads_rows(s)
    for text, hits in zip(QUERIES, fast, strict=True):
        again = built.search(SearchRequest(text=text, k=10)).hits
        assert [(h.document.place_id, h.score, h.vector) for h in again] == [
            (h.document.place_id, h.score, h.vector) for h in hits
        ]
