"""The int8 dimension-major copy of the vectors (``index/quantized.py``): a sparse query's
vector list read through it is the exact scan's list — the same rows, order and scores — and an
index written without the copy still loads and searches alike."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from fakes.embedder import FakeEmbedder
from matjip.documents import Restaurant
from matjip.index import quantized
from matjip.index.embedded import EmbeddedIndex
from matjip.index.request import SearchRequest
from matjip.index.vectors import SPARSE_SHARE, _bounded, top_vectors
from matjip.settings import Settings
from support.index import make_corpus

QUERIES = [
    "국밥 맛집",
    "데이트",
    "조용한 카페",
    "치킨",
    "회식 고기",
    "분위기 좋은 술집",
    "짬뽕",
    "초밥 오마카세",
]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[EmbeddedIndex, list[Restaurant]]:
    docs = make_corpus()
    index = EmbeddedIndex(tmp_path_factory.mktemp("q") / "index", FakeEmbedder(), Settings())
    return index.build(docs), docs


def test_the_copy_holds_every_vector_within_half_a_step(
    built: tuple[EmbeddedIndex, list[Restaurant]],
) -> None:
    s = built[0]._require()
    q8 = s.quantized
    assert q8 is not None and q8.codes.shape == (s.vectors.shape[1], s.n)
    rebuilt = q8.codes.T.astype(np.float32) * q8.scale[:, None]
    assert np.all(np.abs(rebuilt - s.vectors) <= q8.scale[:, None] / 2 + 1e-7)


def test_a_sparse_query_gets_the_exact_list(built: tuple[EmbeddedIndex, list[Restaurant]]) -> None:
    index, _ = built
    s = index._require()
    rng = random.Random(3)
    bounded = 0
    for text in QUERIES:
        qv = np.asarray(index.embedder.embed_query(text), dtype=np.float32)
        assert np.count_nonzero(qv) <= SPARSE_SHARE * len(qv), text
        for _ in range(12):
            idx = np.asarray(sorted(rng.sample(range(s.n), rng.randint(1, s.n))), dtype=np.int64)
            depth = rng.choice([1, 3, 10, 50])
            exact = top_vectors(s, qv, idx, depth, scan_min=10**9)
            fast = top_vectors(s, qv, idx, depth, scan_min=0)
            assert fast[0].tolist() == exact[0].tolist(), (text, depth)
            assert fast[1].tolist() == exact[1].tolist(), (text, depth)
            bounded += len(_bounded(s, qv, idx, min(depth, len(idx)))) < len(idx)
    assert bounded, "the bound never left a candidate out"


def test_searches_are_the_same_through_the_copy(built: tuple[EmbeddedIndex, list[Restaurant]]) -> None:
    index, _ = built
    fast = EmbeddedIndex(index.directory, FakeEmbedder(), index.settings, scan_min=0).load()
    for text in QUERIES:
        req = SearchRequest(text=text, k=10)
        a, b = index.search(req), fast.search(req)
        assert [(h.document.place_id, h.score, h.vector) for h in a.hits] == [
            (h.document.place_id, h.score, h.vector) for h in b.hits
        ]


def test_an_index_without_the_copy_loads_and_an_ingest_keeps_it_without(tmp_path: Path) -> None:
    docs = make_corpus(60)
    index = EmbeddedIndex(tmp_path / "index", FakeEmbedder(), Settings()).build(docs)
    d = index._require().directory
    want = [h.document.place_id for h in index.search(SearchRequest(text="국밥 맛집", k=5)).hits]
    for name in (quantized.Q8_FILE, quantized.SCALE_FILE):
        (d / name).unlink()
    from matjip.index import layout

    layout.write_manifest(d)
    old = EmbeddedIndex(tmp_path / "index", FakeEmbedder(), Settings(), scan_min=0).load()
    assert old._require().quantized is None
    assert [h.document.place_id for h in old.search(SearchRequest(text="국밥 맛집", k=5)).hits] == want
    old.upsert([docs[0].model_copy(update={"title": "새 이름 국밥"})])
    assert old._require().quantized is None


def test_an_ingest_appends_to_the_copy(tmp_path: Path) -> None:
    docs = make_corpus(60)
    index = EmbeddedIndex(tmp_path / "index", FakeEmbedder(), Settings()).build(docs[:40])
    index.upsert(docs[40:])
    s = index._require()
    q8 = s.quantized
    assert q8 is not None and q8.n == s.n
    codes, scale = quantized.quantize(np.asarray(s.vectors))
    assert np.array_equal(q8.codes, codes.T) and np.array_equal(q8.scale, scale)


def test_an_index_of_an_older_format_is_refused_so_it_is_rebuilt(tmp_path: Path) -> None:
    """Format 8 added the dish forms to the menu entries (words/menu.toml ``menu_forms``): an index of
    format 5–7 lacks them, so loading it raises (``sync.ensure_index`` / ``update_index`` rebuild it); format 10
    added the 점심특선 forms."""
    import json

    from matjip.errors import SearchIndexError
    from matjip.index import layout
    from matjip.index.storage import FORMAT_VERSION

    docs = make_corpus(20)
    index = EmbeddedIndex(tmp_path / "index", FakeEmbedder(), Settings()).build(docs)
    d = index._require().directory
    meta = json.loads((d / "meta.json").read_text(encoding="utf-8"))
    assert meta["format"] == FORMAT_VERSION == 10
    (d / "meta.json").write_text(json.dumps({**meta, "format": 7}), encoding="utf-8")
    layout.write_manifest(d)
    with pytest.raises(SearchIndexError, match="format 7 is not supported"):
        EmbeddedIndex(tmp_path / "index", FakeEmbedder(), Settings()).load()


def _random_unit(n: int, dim: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    v = rng.standard_normal((n, dim)).astype(np.float32)
    v[rng.random((n, dim)) < 0.6] = 0.0  # sparse-ish rows, as hashed texts are
    v[:, 0] += 0.01  # no all-zero row
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def test_integer_weights_are_steps_of_the_smallest() -> None:
    split = quantized.integer_weights(np.asarray([0.25, -0.5, 0.25, 0.75], dtype=np.float32))
    assert split is not None
    step, k, rest = split
    assert step == 0.25 and k.tolist() == [1, -2, 1, 3] and rest < 1e-9
    assert quantized.integer_weights(np.asarray([0.3, 0.7], dtype=np.float32)) is None  # 0.7 = 2.33 steps
    assert quantized.integer_weights(np.asarray([0.0], dtype=np.float32)) is None


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_integer_sums_keep_every_row_that_can_reach_the_top(seed: int) -> None:
    """The rows :func:`quantized.bounded_rows` keeps hold the exact best ``depth`` and every tie
    at the cut — for the whole index, a large share of it and a few rows — and leave most out."""
    n, dim = 5000, 48
    vecs = _random_unit(n, dim, seed)
    codes, scale = quantized.quantize(vecs)
    q8 = quantized.Quantized(np.ascontiguousarray(codes.T), scale)
    rng = np.random.default_rng(seed)
    left_out = 0
    for _ in range(20):
        dims = np.sort(rng.choice(dim, size=int(rng.integers(2, 12)), replace=False))
        k = rng.choice([-2, -1, 1, 1, 1, 2, 3], size=len(dims)).astype(np.float64)
        k[0] = -1.0  # the smallest weight is the step
        weights = (k / np.linalg.norm(k)).astype(np.float32)
        qv = np.zeros(dim, dtype=np.float32)
        qv[dims] = weights
        share = rng.choice([1.0, 0.5, 0.05])
        idx = np.flatnonzero(rng.random(n) < share).astype(np.int64)
        for depth in (1, 10, 100):
            keep = quantized.bounded_rows(q8, weights, dims.astype(np.int64), idx, depth)
            sims = vecs[idx] @ qv
            cut = np.sort(sims)[::-1][depth - 1]
            if keep is None:  # only when the cut is too low for the sums to exclude anything
                assert cut < 0.05, (seed, depth, cut)
                continue
            assert np.all(np.diff(keep) > 0) and set(keep.tolist()) <= set(idx.tolist())
            must = set(idx[sims >= cut - 1e-6].tolist())
            assert must <= set(keep.tolist()), (seed, depth, len(must - set(keep.tolist())))
            left_out += len(keep) < len(idx) // 2
    assert left_out > 30, "the sums never narrowed the rows"
