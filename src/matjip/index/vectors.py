"""Vector search over the candidates of the embedded index: exact cosine (a dot of unit vectors)
with numpy over the memory-mapped matrix, the best ``depth`` first.

A sparse query vector (at most :data:`SPARSE_SHARE` of its dimensions non-zero, as the hash
embedder's are) over many candidates first reads the int8 dimension-major copy
(:mod:`matjip.index.quantized`) for those dimensions only: an approximate cosine of every
candidate with a bound on its error. Every candidate whose upper bound reaches the ``depth``-th
best lower bound is then scored exactly from the float matrix, so the list — rows, order, scores
— is the one the exact scan gives, never an approximation.

A dense query vector (the default embedder's) over at least :data:`DENSE_MIN` candidates first
reads one sign bit per dimension (:mod:`matjip.index.signs`): the :data:`~matjip.index.signs.RESCORE`
rows nearest by Hamming distance (ties at the cut included) are scored exactly, so the float
matrix is read for those rows only. That list is the exact scan's whenever the true best rows are
among them — an approximation, its recall against the exact scan measured (README, "A million
documents"; ``tests/test_index_signs.py``).

Where the index has the row-major int8 codes (``vectors.i8``) and its float matrix is larger than
:data:`MAPPED_MAX`, the candidates left (the sign pass's
16k, a filter's few thousand) are scored from them with an error bound first
(:func:`~matjip.index.quantized.row_bounded`), and only those that can reach the best ``depth``
(a few hundred at 1M) are read from the float matrix, by ``pread``
(:meth:`~matjip.index.snapshot.Snapshot.float_rows`): the same list as scoring them all exactly,
without the float matrix's pages in the process (the RSS target at 1M).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from matjip.index.quantized import bounded_rows, error_bound, row_bounded
from matjip.index.ranking import VECTOR_DEPTH
from matjip.index.signs import RESCORE, nearest
from matjip.index.snapshot import Snapshot

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

SPARSE_SHARE = 0.25  # a query vector with at most this share of non-zero dimensions is "sparse"
SCAN_MIN = 2000  # candidates from which a sparse query reads the quantised copy first
DENSE_MIN = 2 * RESCORE  # candidates from which a dense query reads the sign bits first
PREAD_MAX = 8192  # rows read from vectors.f32 by pread when the index has row-major codes
MAPPED_MAX = 64 << 20  # a float matrix up to this size is read through its mapping (resident: a few MB)


def top_vectors(
    s: Snapshot,
    qv: npt.NDArray[np.float32],
    idx: IntArray,
    depth: int = VECTOR_DEPTH,
    scan_min: int = SCAN_MIN,
    dense_min: int = DENSE_MIN,
    rescore: int = RESCORE,
) -> tuple[IntArray, FloatArray]:
    """The best ``depth`` of the candidates ``idx`` by cosine to ``qv``, best first (ties: lower row)."""
    depth = min(depth, len(idx))
    if depth < len(idx) and len(idx) >= scan_min:
        idx = _bounded(s, qv, idx, depth)
    if depth < len(idx) and len(idx) >= dense_min and s.signs is not None:
        idx = _nearest_signs(s, qv, idx, max(rescore, depth))
    if depth < len(idx) and reads_rows(s):
        idx = _row_bounded(s, qv, idx, depth)
    sims = similarities(s, qv, idx)
    if depth < len(idx):
        # the best `depth`; ties at the cut go to the lowest rows (idx is ascending), so the
        # list is a function of the scores alone (argpartition alone picks ties arbitrarily)
        kth = np.partition(-sims, depth - 1)[depth - 1]
        above = np.flatnonzero(-sims < kth)
        ties = np.flatnonzero(-sims == kth)
        top = np.concatenate([above, ties[: depth - len(above)]])
    else:
        top = np.arange(len(idx))
    top = top[np.lexsort((idx[top], -sims[top]))]
    return idx[top], sims[top]


def _bounded(s: Snapshot, qv: npt.NDArray[np.float32], idx: IntArray, depth: int) -> IntArray:
    """The candidates that may be among the best ``depth`` (ascending; a superset of them and
    of every tie at the cut), by the quantised copy when the query is sparse; else ``idx``."""
    q8 = s.quantized
    dims = np.flatnonzero(qv)
    if q8 is None or not len(dims) or len(dims) > SPARSE_SHARE * len(qv):
        return idx
    weights = np.asarray(qv[dims], dtype=np.float32)
    exact_sums = bounded_rows(q8, weights, dims, idx, depth)
    if exact_sums is not None:
        return exact_sums
    whole = len(idx) > s.n // 4
    approx = q8.approximate(dims, weights, None if whole else idx)
    if whole:
        approx = approx[idx]
    err = error_bound(q8.scale[idx], weights)
    lower = approx - err
    cut = np.partition(lower, len(lower) - depth)[len(lower) - depth]  # the depth-th best lower bound
    keep: IntArray = idx[approx + err >= cut]
    return keep


def reads_rows(s: Snapshot) -> bool:
    """Does a vector search of ``s`` score its candidates from the row-major codes and read the
    float rows by pread? Where the index has the codes and its float matrix is larger than
    :data:`MAPPED_MAX` (below it, the mapping's pages cost little and a gather is cheaper)."""
    q8 = s.quantized
    return q8 is not None and q8.rows is not None and int(s.vectors.nbytes) > MAPPED_MAX


def _row_bounded(s: Snapshot, qv: npt.NDArray[np.float32], idx: IntArray, depth: int) -> IntArray:
    """The candidates that may be among the best ``depth`` by the row-major codes (ascending; a
    superset of them and of every tie at the cut); ``idx`` when the index has none."""
    q8 = s.quantized
    assert q8 is not None
    keep = row_bounded(q8, np.asarray(qv, dtype=np.float32), idx, depth)
    return idx if keep is None else keep


def _nearest_signs(s: Snapshot, qv: npt.NDArray[np.float32], idx: IntArray, count: int) -> IntArray:
    """The ``count`` candidates nearest to ``qv`` by the Hamming distance of their sign bits
    (ascending, ties at the cut included): the rows the exact score then ranks."""
    signs = s.signs
    assert signs is not None
    whole = len(idx) > s.n // 4
    dist = signs.distances(qv, None if whole else idx)
    if whole and len(idx) != s.n:
        dist = dist[idx]
    keep: IntArray = idx[nearest(dist, count)]
    return keep


def similarities(s: Snapshot, qv: npt.NDArray[np.float32], idx: IntArray) -> FloatArray:
    """The cosine of each candidate to ``qv``."""
    # einsum, not BLAS: a threaded gemv is no faster here (memory-bound) and collapses when
    # the cores are shared with other requests or processes (measured 0.3 ms -> 8 ms).
    # (Splitting the whole-matrix scan over Python threads: 9 -> 7 ms alone on 2 cores, but
    # -5-10% throughput and a worse p95 with concurrent searches; not done.)
    # Above ~a quarter of the rows, one pass over the whole matrix (~7 ms at 100k x 256)
    # beats gathering the rows (random 1 KB rows cost ~3x per row, measured at 100k).
    # With row-major codes the rows left are few: read by pread, the mapping untouched.
    sims: FloatArray
    if reads_rows(s) and len(idx) <= PREAD_MAX:
        sims = np.einsum("ij,j->i", s.float_rows(idx), qv).astype(np.float64)
    elif len(idx) > s.n // 4:
        sims = np.einsum("ij,j->i", s.vectors, qv)[idx].astype(np.float64)
    else:
        sims = np.einsum("ij,j->i", np.take(s.vectors, idx, axis=0), qv).astype(np.float64)
    return sims
