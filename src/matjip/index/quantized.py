"""The vectors of the embedded index quantised to int8, stored dimension-major, for a fast scan
of sparse query vectors (:func:`matjip.index.vectors.top_vectors` re-scores the best exactly).

``vectors.q8`` holds a ``(dim, n)`` int8 matrix: dimension ``d`` of every row is one contiguous
run of ``n`` bytes, so a query vector with few non-zero dimensions (the hash embedder's: ~15 of
256) reads only those runs — a megabyte each at 1M rows — instead of the whole float matrix.
``vectors.q8scale`` holds each row's scale (float32): row ``r``'s vector is
``scale[r] * q8[:, r]`` within ``scale[r] / 2`` in every component, which bounds the error of an
approximate cosine (:func:`error_bound`). Both are derived from ``vectors.f32`` and optional: an
index written without them searches by the exact scan alone.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import numpy.typing as npt

Q8_FILE = "vectors.q8"
SCALE_FILE = "vectors.q8scale"
CHUNK = 65_536  # rows quantised per step of a build
INT_SUM_MAX = 250  # Σ|k| of integer weights: int16 sums of int8 codes never overflow (250 · 127 < 2^15)
INT_REST_MAX = 0.05  # integer weights only when their remainders are at most this share of |w|₁
SLACK = 1e-4  # per unit of the query's L1 norm, added to every bound: float32 rounding of both cosines

FloatArray = npt.NDArray[np.float64]
F32Array = npt.NDArray[np.float32]
I8Array = npt.NDArray[np.int8]
IntArray = npt.NDArray[np.int64]


def quantize(vecs: npt.NDArray[np.float32]) -> tuple[I8Array, F32Array]:
    """Rows of ``vecs`` as int8 codes (rows × dim) and their scales: ``max |v| / 127`` per row."""
    vecs = np.asarray(vecs, dtype=np.float32)
    peak = np.abs(vecs).max(axis=1) if vecs.shape[1] else np.zeros(len(vecs), np.float32)
    scale = (peak / 127.0).astype(np.float32)
    safe = np.where(scale > 0, scale, np.float32(1.0))
    codes = np.clip(np.rint(vecs / safe[:, None]), -127, 127).astype(np.int8)
    return codes, scale


def write(directory: Path, vectors: npt.NDArray[np.float32], old: Quantized | None = None) -> None:
    """``vectors.q8`` and ``vectors.q8scale`` in ``directory`` for the (n, dim) ``vectors``; the
    first rows are copied from ``old`` (a previous version's, of fewer rows) when given."""
    n, dim = vectors.shape
    start = old.n if old is not None else 0
    path = directory / Q8_FILE
    tmp = path.with_suffix(".q8.tmp")
    if n and dim:
        q8 = np.memmap(tmp, dtype=np.int8, mode="w+", shape=(dim, n))
        scales = np.zeros(n, dtype=np.float32)
        if old is not None and start:
            q8[:, :start] = old.codes
            scales[:start] = old.scale
        for lo in range(start, n, CHUNK):
            hi = min(n, lo + CHUNK)
            codes, scale = quantize(vectors[lo:hi])
            q8[:, lo:hi] = codes.T
            scales[lo:hi] = scale
        q8.flush()
        del q8
    else:
        tmp.write_bytes(b"")
        scales = np.zeros(n, dtype=np.float32)
    tmp.replace(path)
    stmp = directory / (SCALE_FILE + ".tmp")
    stmp.write_bytes(scales.tobytes())
    stmp.replace(directory / SCALE_FILE)


class Quantized:
    """The mapped ``vectors.q8`` (dim × n int8) and ``vectors.q8scale`` (n float32) of a version."""

    def __init__(self, codes: I8Array, scale: F32Array) -> None:
        self.codes = codes
        self.scale = scale
        self.n = int(scale.shape[0])

    @classmethod
    def open(cls, directory: Path, n: int, dim: int) -> Quantized | None:
        """The version's quantised vectors, or None when it has none (an older index) or they do
        not match its ``n`` rows of ``dim``."""
        path, spath = directory / Q8_FILE, directory / SCALE_FILE
        if not n or not dim or not path.is_file() or not spath.is_file():
            return None
        if path.stat().st_size != n * dim or spath.stat().st_size != 4 * n:
            return None
        codes = np.asarray(np.memmap(path, dtype=np.int8, mode="r", shape=(dim, n)))
        scale = np.asarray(np.memmap(spath, dtype=np.float32, mode="r", shape=(n,)))
        return cls(codes, scale)

    def approximate(self, dims: IntArray, weights: F32Array, idx: IntArray | None) -> F32Array:
        """``Σ_d weights[d] · q8[dims[d], r]`` for every row (``idx`` None) or the rows ``idx``,
        times each row's scale: the cosine of each row to the query, within :func:`error_bound`."""
        if idx is None:
            acc = np.zeros(self.n, dtype=np.float32)
            tmp = np.empty(self.n, dtype=np.float32)
            for d, w in zip(dims.tolist(), weights.tolist(), strict=True):
                np.multiply(self.codes[d], np.float32(w), out=tmp)
                acc += tmp
            acc *= self.scale
            return acc
        acc = np.zeros(len(idx), dtype=np.float32)
        for d, w in zip(dims.tolist(), weights.tolist(), strict=True):
            acc += self.codes[d][idx] * np.float32(w)
        acc *= self.scale[idx]
        return acc


def integer_weights(weights: F32Array) -> tuple[float, npt.NDArray[np.int64], float] | None:
    """``weights`` as ``step · k + e`` with small integers ``k`` (the hash embedder's query vectors:
    every weight ±1, ±2, … times one step): ``(step, k, Σ|e|)``, or None when they are not."""
    w = np.asarray(weights, dtype=np.float64)
    step = float(np.abs(w).min()) if len(w) else 0.0
    if step <= 0.0:
        return None
    k = np.rint(w / step).astype(np.int64)
    rest = float(np.abs(w - step * k).sum())
    if int(np.abs(k).sum()) > INT_SUM_MAX or rest > INT_REST_MAX * float(np.abs(w).sum()):
        return None
    return step, k, rest


def bounded_rows(
    q8: Quantized, weights: F32Array, dims: IntArray, idx: IntArray, depth: int
) -> IntArray | None:
    """The rows of ``idx`` (ascending) whose cosine may reach the best ``depth`` (a superset of
    those and of every tie at the cut), from integer sums of the codes; None when ``weights`` are
    not small integer multiples of one step (:func:`integer_weights`).

    With ``w = step · k + e``, row ``r``'s approximate cosine is ``step · scale[r] · S[r]``,
    ``S[r] = Σ k[d] · q8[d, r]`` summed exactly in int16, and the exact cosine lies within
    ``scale[r] · H + SLACK · (1 + |w|₁)`` of it, ``H = step · |k|₁ / 2 + 127 · Σ|e|`` (each code
    within half a step; ``|v[d]| <= 127 · scale[r]``). The rows are first narrowed by ``S`` alone
    against a lower estimate of the cut (the ``depth``-th best lower bound among the rows of the
    highest ``S``), using the largest scale, so the float bounds are computed for few rows."""
    split = integer_weights(weights)
    if split is None or depth <= 0 or depth >= len(idx):
        return None
    step, k, rest = split
    whole = len(idx) > q8.n // 4
    sums = np.zeros(q8.n if whole else len(idx), dtype=np.int16)
    for d, kd in zip(dims.tolist(), k.tolist(), strict=True):
        col = q8.codes[d] if whole else q8.codes[d][idx]
        if kd == 1:
            np.add(sums, col, out=sums)
        elif kd == -1:
            np.subtract(sums, col, out=sums)
        elif kd:
            np.add(sums, col.astype(np.int16) * np.int16(kd), out=sums)
    if whole and len(idx) != q8.n:
        sums = sums[idx]
    half = step * 0.5 * float(np.abs(k).sum()) + 127.0 * rest
    slack = SLACK * (1.0 + float(np.abs(weights).sum()))
    scale = q8.scale
    # a lower estimate of the cut: the depth-th best lower bound among the rows of highest S
    s_top = np.partition(sums, len(sums) - depth)[len(sums) - depth]  # depth rows have S >= s_top
    top = np.flatnonzero(sums >= s_top)
    rows_top = idx[top]
    cut0 = np.partition(_lower(scale[rows_top], sums[top], step, half, slack), len(top) - depth)[
        len(top) - depth
    ]
    smax = float(scale.max()) if q8.n else 0.0
    if cut0 - slack <= 0.0 or smax <= 0.0:
        return None
    # upper[r] <= smax · (step · S[r] + half) + slack, so S[r] below this cannot reach cut0
    need = math.floor(((cut0 - slack) / smax - half) / step) - 1
    pos = np.flatnonzero(sums >= need)
    rows = idx[pos]
    sc, sm = scale[rows].astype(np.float64), sums[pos].astype(np.float64)
    approx = step * sc * sm
    err = sc * half + slack
    lower = approx - err
    cut = np.partition(lower, len(lower) - depth)[len(lower) - depth]
    keep: IntArray = rows[approx + err >= cut]
    return keep


def _lower(
    scale: F32Array, sums: npt.NDArray[np.int16], step: float, half: float, slack: float
) -> FloatArray:
    sc = scale.astype(np.float64)
    out: FloatArray = step * sc * sums.astype(np.float64) - (sc * half + slack)
    return out


def error_bound(scale: F32Array, weights: F32Array) -> FloatArray:
    """How far an approximate cosine can be from the exact one (each component is within half
    a step of its code; plus :data:`SLACK` for float32 rounding)."""
    l1 = float(np.abs(weights).sum())
    return scale.astype(np.float64) * (0.5 * l1) + SLACK * (1.0 + l1)
