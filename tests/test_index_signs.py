"""The sign bits of the vectors (``index/signs.py``): a dense query's first pass. Its distances are
the weighted sign mismatches worked out here without packing; the list a dense query gets through
it, re-scored exactly, holds the exact scan's best rows (recall against a plain numpy scan); the
files are written at build and appended at ingest."""

from __future__ import annotations

import zlib
from pathlib import Path

import numpy as np
import pytest

from fakes.embedder import FakeEmbedder
from matjip.index import signs
from matjip.index.embedded import EmbeddedIndex
from matjip.index.snapshot import Snapshot
from matjip.index.vectors import SPARSE_SHARE, top_vectors
from matjip.settings import Settings
from support.index import make_corpus

DIM = 256


class WordMeanEmbedder(FakeEmbedder):
    """Dense vectors as the default embedder's are: the normalised mean of one fixed random
    vector per word (seeded by the word), all ``dim`` dimensions non-zero, plus a shared offset."""

    def _one(self, text: str) -> np.ndarray:
        words = text.split() or [""]
        acc = np.full(self.dim, 0.3, dtype=np.float64)
        for w in words:
            acc += np.random.default_rng(zlib.crc32(w.encode())).standard_normal(self.dim) / len(words)
        return (acc / np.linalg.norm(acc)).astype(np.float32)


QUERIES = [
    "분위기 좋은 이탈리안 레스토랑에서 기념일 저녁 파스타와 스테이크",
    "비 오는 날 생각나는 얼큰한 국밥이랑 순대국 해장국 맛집",
    "회식하기 좋은 넓은 고깃집 삼겹살 목살 단체석 주차 가능",
    "조용하고 아늑한 카페 디저트 케이크 커피 맛있는 곳 추천",
    "혼자 가기 좋은 라멘 우동 돈까스 일식 점심 가성비",
    "아이랑 가기 좋은 패밀리 레스토랑 뷔페 놀이방 있는 곳",
    "매운 떡볶이 튀김 순대 분식집 학교 앞 오래된 노포",
    "바다가 보이는 횟집 물회 해산물 조개구이 전망 좋은",
    "24시간 하는 감자탕 뼈해장국 새벽 늦게까지 영업",
    "채식 메뉴가 있는 샐러드 비건 건강식 브런치 카페",
    "중국집 짜장면 짬뽕 탕수육 배달 포장 가능한 곳",
    "치킨 맥주 호프 술집 야장 분위기 친구들이랑",
]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIndex:
    index = EmbeddedIndex(tmp_path_factory.mktemp("s") / "index", WordMeanEmbedder(dim=DIM), Settings())
    return index.build(make_corpus(1500))


def _exact_top(vecs: np.ndarray, qv: np.ndarray, idx: np.ndarray, depth: int) -> list[float]:
    """The best ``depth`` cosines among the rows ``idx``, in float64, best first."""
    sims = vecs[idx].astype(np.float64) @ qv.astype(np.float64)
    return sorted(sims.tolist(), reverse=True)[:depth]


def _recall(vecs: np.ndarray, qv: np.ndarray, rows: np.ndarray, best: list[float]) -> float:
    """The share of ``rows`` among the exact best (their cosine reaches the last best one; rows
    tied in float32 may swap)."""
    sims = vecs[rows].astype(np.float64) @ qv.astype(np.float64)
    return float(np.mean(sims >= best[-1] - 1e-6))


def test_distances_are_the_weighted_sign_mismatches(built: EmbeddedIndex) -> None:
    s = built._require()
    sg = s.signs
    assert sg is not None and sg.codes.shape == ((DIM + 63) // 64, s.n)
    vecs = np.asarray(s.vectors)
    for text in QUERIES[:4]:
        qv = np.asarray(built.embedder.embed_query(text), dtype=np.float32)
        a = np.abs(qv)
        level = np.minimum(np.rint(a / (a.max() / 3.5)), 3)  # 0..3 by |q|, as documented
        mismatch = (qv[None, :] > 0) != (vecs > sg.center[None, :])
        want = (mismatch * level[None, :]).sum(axis=1)
        assert sg.distances(qv, None).tolist() == want.astype(int).tolist()
        rows = np.arange(3, s.n, 7)
        assert sg.distances(qv, rows).tolist() == want[rows].astype(int).tolist()


def test_a_dense_query_keeps_the_exact_best_rows(built: EmbeddedIndex) -> None:
    """Re-scoring the nearest third by the sign bits: recall@10 against the exact scan ≥ 0.98
    (this corpus's texts share most words, so its best rows are close: a tenth gives 0.91; random
    rows would give a third; 1M rows of the default embedder: README), and the exact best rows
    when every row is re-scored."""
    s = built._require()
    vecs = np.asarray(s.vectors)
    rng = np.random.default_rng(5)
    rescore = s.n // 3
    recalls: list[float] = []
    for text in QUERIES:
        qv = np.asarray(built.embedder.embed_query(text), dtype=np.float32)
        assert np.count_nonzero(qv) > SPARSE_SHARE * len(qv), text
        for share in (1.0, 0.6):
            idx = np.arange(s.n) if share == 1.0 else np.flatnonzero(rng.random(s.n) < share)
            best = _exact_top(vecs, qv, idx, 10)
            rows, sims = top_vectors(s, qv, idx, 10, dense_min=0, rescore=rescore)
            assert len(rows) == 10 and set(rows.tolist()) <= set(idx.tolist())
            recalls.append(_recall(vecs, qv, rows, best))
            assert np.allclose(sims, vecs[rows].astype(np.float64) @ qv, atol=1e-5)  # scores are exact
            whole, wsims = top_vectors(s, qv, idx, 10, dense_min=0, rescore=len(idx))
            assert _recall(vecs, qv, whole, best) == 1.0 and np.allclose(wsims, best, atol=1e-5)
    assert sum(recalls) / len(recalls) >= 0.98, recalls


def test_the_first_pass_narrows_the_rows(built: EmbeddedIndex) -> None:
    s = built._require()
    assert s.signs is not None
    qv = np.asarray(built.embedder.embed_query(QUERIES[0]), dtype=np.float32)
    dist = s.signs.distances(qv, None)
    keep = signs.nearest(dist, 100)
    assert 100 <= len(keep) < s.n // 2 and np.all(np.diff(keep) > 0)
    assert dist[keep].max() <= np.sort(dist)[99] and np.all(
        dist[np.setdiff1d(np.arange(s.n), keep)] > dist[keep].max()
    )


def test_an_ingest_appends_the_signs_with_the_same_centre(tmp_path: Path) -> None:
    docs = make_corpus(120)
    index = EmbeddedIndex(tmp_path / "index", WordMeanEmbedder(dim=DIM), Settings()).build(docs[:80])
    first = index._require().signs
    assert first is not None
    center = first.center.copy()
    index.upsert(docs[80:])
    s: Snapshot = index._require()
    assert s.signs is not None and s.signs.n == s.n
    assert np.array_equal(s.signs.center, center)
    vecs = np.asarray(s.vectors)
    bits = vecs > center[None, :]
    for w in range(s.signs.codes.shape[0]):
        for r in (0, 79, 80, s.n - 1):
            word = int(s.signs.codes[w, r])
            got = [(word.to_bytes(8, "little")[b // 8] >> (7 - b % 8)) & 1 for b in range(64)]
            assert got[: min(64, DIM - 64 * w)] == bits[r, 64 * w : 64 * w + 64].astype(int).tolist()
