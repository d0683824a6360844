"""Fusing ranked lists (BM25, vector) into one ranking.

Each list is ``(ids, scores)`` with ids in rank order (best first). Both fusions return
``(ids, fused)`` sorted by fused score, descending; ties keep the order of first appearance.

- :func:`rrf` — reciprocal-rank fusion, ``Σ_i w_i / (k + rank_i)`` with 1-based ranks (Cormack
  et al. 2009; Elasticsearch's ``rrf`` retriever uses k=60). Uses ranks only, so it is immune to
  the very different scales of BM25 and cosine. The default (settings ``fusion="rrf"``).
- :func:`convex` — ``Σ_i w_i · minmax_i(score)``, with each list min-max normalised over its own
  entries (an id absent from a list contributes 0 for it). Sensitive to score gaps, which can
  be better when one list is confident; selected with ``fusion="convex"``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
Ranked = tuple[IntArray, FloatArray]


def _merge(lists: Sequence[Ranked], contrib: Sequence[FloatArray]) -> Ranked:
    order: dict[int, int] = {}
    for ids, _ in lists:
        for i in ids.tolist():
            order.setdefault(i, len(order))
    if not order:
        return np.zeros(0, np.int64), np.zeros(0, np.float64)
    fused = np.zeros(len(order), np.float64)
    for (ids, _), c in zip(lists, contrib, strict=True):
        if len(ids):
            pos = np.fromiter((order[i] for i in ids.tolist()), np.int64, len(ids))
            np.add.at(fused, pos, c)
    all_ids = np.fromiter(order.keys(), np.int64, len(order))
    idx = np.argsort(-fused, kind="stable")
    return all_ids[idx], fused[idx]


def rrf(lists: Sequence[Ranked], k: int = 60, weights: Sequence[float] | None = None) -> Ranked:
    """Reciprocal-rank fusion of ranked lists."""
    w = list(weights) if weights is not None else [1.0] * len(lists)
    contrib = [
        wi / (k + np.arange(1, len(ids) + 1, dtype=np.float64)) for (ids, _), wi in zip(lists, w, strict=True)
    ]
    return _merge(lists, contrib)


def minmax(scores: FloatArray) -> FloatArray:
    """Scale to [0, 1]; a constant list maps to all ones (every entry is that list's best)."""
    if len(scores) == 0:
        return scores.astype(np.float64)
    lo, hi = float(scores.min()), float(scores.max())
    if hi - lo <= 1e-12:
        return np.ones(len(scores), np.float64)
    return (scores.astype(np.float64) - lo) / (hi - lo)


def convex(lists: Sequence[Ranked], weights: Sequence[float]) -> Ranked:
    """Weighted sum of per-list min-max normalised scores."""
    contrib = [wi * minmax(scores) for (_, scores), wi in zip(lists, weights, strict=True)]
    return _merge(lists, contrib)
