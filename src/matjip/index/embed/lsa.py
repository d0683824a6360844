"""LSA embeddings learnt from the corpus at index time: TF-IDF over Kiwi morphemes + truncated SVD.

Terms are content morphemes (nouns, verb/adjective stems, roots, adverbs, foreign words) keyed
by form and coarse tag. Weights are ``(1 + log tf) · idf`` with L2-normalised rows; a
randomised SVD (numpy only: Halko et al. with power iterations, sparse products done in row
blocks) keeps the top ``k ≤ 256`` right singular vectors ``V``. A text's vector is its TF-IDF row
times ``V Σ^{-1/2}`` (half-way between plain projection and the classic ``Σ^{-1}`` fold-in),
zero-padded to 256 so the dimension never depends on the corpus size.

It learns what co-occurs in *this* corpus (``돈코츠`` with ``라멘``, ``단체석`` with ``삼겹살``) and
knows nothing else: words absent from the corpus get no vector.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Final

import numpy as np

from matjip.errors import SearchIndexError
from matjip.index.embed._tokens import morphs_of, normalize_rows, saved_arrays
from matjip.text.kiwi import Morph
from matjip.words import word_set

FILE_NAME = "lsa.npz"
_FORMAT = 1
DIM = 256
_TAGS: Final = word_set("index_tags", "lsa_terms")


def _terms(morphs: Sequence[Morph]) -> list[str]:
    out: list[str] = []
    for m in morphs:
        tag = m.tag.split("-", 1)[0]
        if tag in _TAGS:
            form = m.form.lower() if tag == "SL" else m.form
            out.append(f"{form}/{tag[:2]}")
    return out


class _Csr:
    """Minimal compressed-sparse-row matrix: just what the randomised SVD needs."""

    def __init__(self, indptr: np.ndarray, indices: np.ndarray, data: np.ndarray, n_cols: int) -> None:
        self.indptr = indptr
        self.indices = indices
        self.data = data
        self.shape = (len(indptr) - 1, n_cols)

    @classmethod
    def from_rows(cls, rows: Sequence[dict[int, float]], n_cols: int) -> _Csr:
        indptr = np.zeros(len(rows) + 1, dtype=np.int64)
        indptr[1:] = np.cumsum([len(r) for r in rows])
        indices = np.fromiter((c for r in rows for c in r), dtype=np.int64, count=int(indptr[-1]))
        data = np.fromiter((v for r in rows for v in r.values()), dtype=np.float64, count=int(indptr[-1]))
        return cls(indptr, indices, data, n_cols)

    def transpose(self) -> _Csr:
        n_rows = self.shape[0]
        row_of = np.repeat(np.arange(n_rows, dtype=np.int64), np.diff(self.indptr))
        order = np.argsort(self.indices, kind="stable")
        counts = np.bincount(self.indices, minlength=self.shape[1])
        indptr = np.zeros(self.shape[1] + 1, dtype=np.int64)
        indptr[1:] = np.cumsum(counts)
        return _Csr(indptr, row_of[order], self.data[order], n_rows)

    def matmul(self, dense: np.ndarray, block_bytes: int = 32 << 20) -> np.ndarray:
        """``self @ dense`` for a dense (n_cols, k) matrix, in row blocks of bounded temporary size."""
        out = np.zeros((self.shape[0], dense.shape[1]), dtype=np.float64)
        block_nnz = max(1, block_bytes // (8 * max(1, dense.shape[1])))
        start = 0
        n = self.shape[0]
        while start < n:
            stop = int(np.searchsorted(self.indptr, self.indptr[start] + block_nnz, side="right")) - 1
            stop = min(max(stop, start + 1), n)
            lo, hi = int(self.indptr[start]), int(self.indptr[stop])
            if hi > lo:
                contrib = self.data[lo:hi, None] * dense[self.indices[lo:hi]]
                row_of = np.repeat(np.arange(start, stop), np.diff(self.indptr[start : stop + 1]))
                _accumulate(out, row_of, contrib)
            start = stop
        return out


def _accumulate(out: np.ndarray, rows: np.ndarray, contrib: np.ndarray) -> None:
    """``out[rows] += contrib`` for sorted ``rows`` (segment sums, faster than ``np.add.at``)."""
    starts = np.flatnonzero(np.r_[True, rows[1:] != rows[:-1]])
    out[rows[starts]] += np.add.reduceat(contrib, starts, axis=0)


def _orthonormalize(y: np.ndarray) -> np.ndarray:
    """An orthonormal basis of ``y``'s columns via its Gram matrix, applied twice for accuracy.

    (Much faster than ``np.linalg.qr`` on tall matrices with the OpenBLAS numpy ships, and
    accurate enough for a randomised range finder.)
    """
    for _ in range(2):
        evals, evecs = np.linalg.eigh(y.T @ y)
        keep = evals > max(float(evals[-1]), 1e-30) * 1e-10
        y = y @ (evecs[:, keep] / np.sqrt(evals[keep]))
    return y


def randomized_svd(
    a: _Csr, k: int, *, oversample: int = 16, n_iter: int = 2, seed: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """Top ``k`` singular values and right singular vectors (``(k,)``, ``(n_cols, k)``) of ``a``."""
    rng = np.random.default_rng(seed)
    at = a.transpose()
    n_cols = a.shape[1]
    ell = min(k + oversample, min(a.shape))
    q = _orthonormalize(a.matmul(rng.standard_normal((n_cols, ell))))
    for _ in range(n_iter):
        z = _orthonormalize(at.matmul(q))
        q = _orthonormalize(a.matmul(z))
    b_t = at.matmul(q)  # (n_cols, ell) = (Qᵀ A)ᵀ; its SVD through the small Gram matrix
    evals, evecs = np.linalg.eigh(b_t.T @ b_t)
    order = np.argsort(evals)[::-1][:k]
    s = np.sqrt(np.maximum(evals[order], 0.0))
    v = b_t @ (evecs[:, order] / np.where(s > 0, s, 1.0))
    return s, v


class LsaEmbedder:
    """TF-IDF + truncated SVD learnt on the corpus (``fit``), saved as ``lsa.npz``."""

    name = "lsa"
    dim = DIM

    def __init__(self, *, k: int = DIM, min_df: int = 2, sigma_power: float = -0.5) -> None:
        self._k = min(k, DIM)
        self._min_df = min_df
        self._sigma_power = sigma_power
        self._vocab: dict[str, int] = {}
        self._idf: np.ndarray | None = None
        self._proj: np.ndarray | None = None  # (n_terms, DIM) float32

    def fit(self, texts: Sequence[str]) -> None:
        docs = [_terms(ms) for ms in morphs_of(texts)]
        df: Counter[str] = Counter()
        for terms in docs:
            df.update(set(terms))
        min_df = self._min_df if len(docs) >= 50 else 1  # tiny corpora keep every term
        kept = sorted(t for t, c in df.items() if c >= min_df)
        vocab = {t: i for i, t in enumerate(kept)}
        n = len(docs)
        idf = np.array([math.log((1 + n) / (1 + df[t])) + 1.0 for t in kept], dtype=np.float64)
        rows = [self._row(terms, vocab, idf) for terms in docs]
        rows = [r for r in rows if r]
        proj = np.zeros((len(kept), DIM), dtype=np.float32)
        if rows and kept:
            a = _Csr.from_rows(rows, len(kept))
            k = min(self._k, a.shape[0] - 1, a.shape[1] - 1)
            if k >= 1:
                s, v = randomized_svd(a, k)
                keep = s > s[0] * 1e-6
                scale = np.zeros_like(s)
                scale[keep] = s[keep] ** self._sigma_power
                proj[:, :k] = (v * scale).astype(np.float32)
        self._vocab, self._idf, self._proj = vocab, idf, proj

    @staticmethod
    def _row(terms: Sequence[str], vocab: dict[str, int], idf: np.ndarray) -> dict[int, float]:
        tf = Counter(vocab[t] for t in terms if t in vocab)
        row = {j: (1.0 + math.log(c)) * float(idf[j]) for j, c in sorted(tf.items())}
        norm = math.sqrt(sum(v * v for v in row.values()))
        return {j: v / norm for j, v in row.items()} if norm > 0 else {}

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        if self._proj is None or self._idf is None:
            raise SearchIndexError("the LSA embedder is not fitted: call fit() or load() first")
        out = np.zeros((len(texts), DIM), dtype=np.float32)
        for i, ms in enumerate(morphs_of(texts)):
            row = self._row(_terms(ms), self._vocab, self._idf)
            if row:
                cols = np.fromiter(row.keys(), dtype=np.int64, count=len(row))
                vals = np.fromiter(row.values(), dtype=np.float32, count=len(row))
                out[i] = vals @ self._proj[cols]
        return normalize_rows(out)

    def embed_query(self, text: str) -> np.ndarray:
        out: np.ndarray = self.embed_documents([text])[0]
        return out

    def save(self, directory: Path) -> None:
        if self._proj is None or self._idf is None:
            raise SearchIndexError("the LSA embedder is not fitted: nothing to save")
        directory.mkdir(parents=True, exist_ok=True)
        terms = sorted(self._vocab, key=self._vocab.__getitem__)
        np.savez(
            directory / FILE_NAME,
            format=np.array(_FORMAT),
            terms=np.array(terms, dtype=str),
            idf=self._idf,
            proj=self._proj,
        )

    def load(self, directory: Path) -> None:
        with saved_arrays(directory / FILE_NAME, "lsa", _FORMAT) as z:
            terms = z["terms"].tolist()
            self._idf = z["idf"].astype(np.float64)
            self._proj = z["proj"].astype(np.float32)
        self._vocab = {t: i for i, t in enumerate(terms)}
