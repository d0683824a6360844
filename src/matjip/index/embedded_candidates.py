"""The candidates of one request in one snapshot of the embedded index: the
:class:`~matjip.index.ranking.CandidateSource` that the shared ranking reads (BM25 by
:mod:`matjip.index.bm25`, vectors by :mod:`matjip.index.vectors`, the prior and distances from
the snapshot's columns)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from matjip.index import fusion
from matjip.index.bm25 import FIRST_FETCH, ROW_SET_MAX, top_hits
from matjip.index.embed.base import Embedder
from matjip.index.filters import member, title_exact_rows
from matjip.index.ranking import BM25_DEPTH, HitRow
from matjip.index.request import SearchRequest
from matjip.index.snapshot import Snapshot
from matjip.index.vectors import SCAN_MIN, top_vectors

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


@dataclass
class EmbeddedCandidates:
    """The rows ``idx`` (ascending) of ``s`` that pass every hard filter of ``req`` and, with a
    geo filter, their distances ``dist``; the BM25 knobs of :func:`~matjip.index.bm25.top_hits`
    and the vector knob of :func:`~matjip.index.vectors.top_vectors`."""

    s: Snapshot
    req: SearchRequest
    idx: IntArray
    dist: FloatArray | None
    bm25_depth: int = BM25_DEPTH
    first_fetch: int = FIRST_FETCH
    row_set_max: int = ROW_SET_MAX
    scan_min: int = SCAN_MIN
    _boost: BoolArray | None = field(default=None, repr=False)

    @property
    def embedder(self) -> Embedder:
        embedder: Embedder = self.s.embedder
        return embedder

    @property
    def dim(self) -> int:
        return int(self.s.vectors.shape[1])

    def bm25(self, terms: Sequence[str]) -> fusion.Ranked:
        return top_hits(
            self.s,
            terms,
            self.req,
            self.idx,
            depth=self.bm25_depth,
            first_fetch=self.first_fetch,
            row_set_max=self.row_set_max,
        )

    def vector(self, qv: npt.NDArray[np.float32]) -> fusion.Ranked:
        return top_vectors(self.s, qv, self.idx, scan_min=self.scan_min)

    def nearest(self, k: int) -> list[int]:
        idx, dist = self.idx, self.dist
        assert dist is not None
        pos = np.arange(len(idx))
        if len(idx) > max(k, 64):  # only the k nearest (and ties) need sorting
            pos = np.flatnonzero(dist <= np.partition(dist, k - 1)[k - 1])
        d_order = np.lexsort((idx[pos], -self.s.cols["prior"][idx[pos]], dist[pos]))[:k]
        return [int(r) for r in idx[pos[d_order]].tolist()]

    def by_prior(self, k: int, exclude: Sequence[int] | None = None) -> list[int]:
        idx, dist, boost = self.idx, self.dist, self._title_boost()
        if exclude is not None:
            rest = ~np.isin(idx, exclude)
            idx = idx[rest]
            dist = dist[rest] if dist is not None else None
            boost = boost[rest] if boost is not None else None
        return [int(r) for r in idx[top_by_prior(self.s, idx, dist, k, boost)].tolist()]

    def _title_boost(self) -> BoolArray | None:
        """Per candidate: does its title match the request's title exactly (those come first)?"""
        title = self.req.title
        if title is None:
            return None
        if self._boost is None:
            self._boost = member(self.idx, title_exact_rows(self.s, title))
        return self._boost

    def distances(self, rows: IntArray) -> FloatArray:
        if self.dist is not None and len(rows):
            out: FloatArray = self.dist[np.searchsorted(self.idx, rows)]
            return out
        return np.zeros(len(rows))

    def hit_rows(self, rows: list[int]) -> list[HitRow]:
        s = self.s
        dist_of: dict[int, float] = {}
        if self.dist is not None:
            at = np.searchsorted(self.idx, np.asarray(rows, dtype=np.int64))
            dist_of = dict(zip(rows, self.dist[at].tolist(), strict=True))
        vecs = s.float_rows(np.asarray(rows, dtype=np.int64))  # by pread: the mapping untouched
        return [
            HitRow(doc, terms, vec, float(s.cols["prior"][r]), dist_of.get(r))
            for r, vec, (doc, terms) in zip(rows, vecs, s.read_docs(rows), strict=True)
        ]


def top_by_prior(
    s: Snapshot, idx: IntArray, dist: FloatArray | None, k: int, boost: BoolArray | None = None
) -> IntArray:
    """Exact top-k positions (into ``idx``) by (boost, prior) desc, then distance, then row."""
    key = s.cols["prior"][idx].astype(np.float64)
    if boost is not None:
        key = key + boost.astype(np.float64) * 10.0
    pos = np.arange(len(idx))
    if len(idx) > max(k, 64):
        kth = np.partition(-key, k - 1)[k - 1]
        pos = np.flatnonzero(-key <= kth)
    d = dist[pos] if dist is not None else np.zeros(len(pos))
    order = np.lexsort((idx[pos], d, -key[pos]))
    out: IntArray = pos[order][:k]
    return out
