"""The vectors of the embedded index quantised to int8, stored dimension-major, for a fast scan
of sparse query vectors (:func:`matjip.index.vectors.top_vectors` re-scores the best exactly).

``vectors.q8`` holds a ``(dim, n)`` int8 matrix: dimension ``d`` of every row is one contiguous
run of ``n`` bytes, so a query vector with few non-zero dimensions (the hash embedder's: ~15 of
256) reads only those runs — a megabyte each at 1M rows — instead of the whole float matrix.
``vectors.q8scale`` holds each row's scale (float32): row ``r``'s vector is
``scale[r] * q8[:, r]`` within ``scale[r] / 2`` in every component, which bounds the error of an
approximate cosine (:func:`error_bound`). Both are derived from ``vectors.f32`` and optional: an
index written without them searches by the exact scan alone.

``vectors.i8`` holds the same codes row-major (``n × dim``, a quarter of the float matrix): a dense
query's candidates are scored from it with the same bound (:func:`row_bounded`), and only the few
that can reach the top are read from ``vectors.f32`` — by ``pread``, not through the mapping, so
the float matrix never becomes resident in the process (at 1M rows: 1 GB of mapped pages fewer;
the row-major codes 0.26 GB). Optional as well: an index without it reads the float matrix as
before.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import numpy.typing as npt

Q8_FILE = "vectors.q8"
SCALE_FILE = "vectors.q8scale"
ROWS_FILE = "vectors.i8"
ROW_BLOCK = 32_768  # rows scored per step from the row-major codes
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
    """``vectors.q8``, ``vectors.i8`` and ``vectors.q8scale`` in ``directory`` for the (n, dim)
    ``vectors``; the first rows are copied from ``old`` (a previous version's, of fewer rows) when
    given (its row-major codes are made from ``vectors`` when it has none)."""
    n, dim = vectors.shape
    start = old.n if old is not None else 0
    path, rpath = directory / Q8_FILE, directory / ROWS_FILE
    tmp, rtmp = path.with_suffix(".q8.tmp"), rpath.with_suffix(".i8.tmp")
    scales = np.zeros(n, dtype=np.float32)
    if n and dim:
        q8 = np.memmap(tmp, dtype=np.int8, mode="w+", shape=(dim, n))
        rows = np.memmap(rtmp, dtype=np.int8, mode="w+", shape=(n, dim))
        if old is not None and start:
            q8[:, :start] = old.codes
            scales[:start] = old.scale
        row_start = start if old is not None and old.rows is not None else 0
        if row_start:
            assert old is not None and old.rows is not None
            rows[:row_start] = old.rows
        for lo in range(min(start, row_start), n, CHUNK):
            hi = min(n, lo + CHUNK)
            codes, scale = quantize(vectors[lo:hi])
            rows[lo:hi] = codes
            if hi > start:
                q8[:, max(lo, start) : hi] = codes[max(lo, start) - lo :].T
                scales[max(lo, start) : hi] = scale[max(lo, start) - lo :]
        q8.flush()
        rows.flush()
        del q8, rows
    else:
        tmp.write_bytes(b"")
        rtmp.write_bytes(b"")
    tmp.replace(path)
    rtmp.replace(rpath)
    stmp = directory / (SCALE_FILE + ".tmp")
    stmp.write_bytes(scales.tobytes())
    stmp.replace(directory / SCALE_FILE)


def write_rows(directory: Path, vectors: npt.NDArray[np.float32]) -> None:
    """Only ``vectors.i8`` (the row-major codes) for the (n, dim) ``vectors``: for an index written
    before that file, whose ``vectors.q8`` and scales stay as they are (the same codes)."""
    n, dim = vectors.shape
    rpath = directory / ROWS_FILE
    rtmp = rpath.with_suffix(".i8.tmp")
    if n and dim:
        rows = np.memmap(rtmp, dtype=np.int8, mode="w+", shape=(n, dim))
        for lo in range(0, n, CHUNK):
            rows[lo : lo + CHUNK] = quantize(vectors[lo : lo + CHUNK])[0]
        rows.flush()
        del rows
    else:
        rtmp.write_bytes(b"")
    rtmp.replace(rpath)


class Quantized:
    """The mapped ``vectors.q8`` (dim × n int8) and ``vectors.q8scale`` (n float32) of a version."""

    def __init__(self, codes: I8Array, scale: F32Array, rows: I8Array | None = None) -> None:
        self.codes = codes
        self.scale = scale
        self.rows = rows  # the same codes row-major (n × dim), when written
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
        rpath = directory / ROWS_FILE
        rows = None
        if rpath.is_file() and rpath.stat().st_size == n * dim:
            rows = np.asarray(np.memmap(rpath, dtype=np.int8, mode="r", shape=(n, dim)))
        return cls(codes, scale, rows)

    def row_scores(self, qv: F32Array, idx: IntArray) -> F32Array:
        """``scale[r] · (q8[r] · qv)`` for the rows ``idx`` from the row-major codes (in blocks):
        the cosine of each row to the query, within :func:`error_bound`."""
        rows = self.rows
        assert rows is not None
        out = np.empty(len(idx), dtype=np.float32)
        q = np.asarray(qv, dtype=np.float32)
        contiguous = len(idx) > 0 and int(idx[-1]) - int(idx[0]) + 1 == len(idx)
        for lo in range(0, len(idx), ROW_BLOCK):
            hi = min(len(idx), lo + ROW_BLOCK)
            if contiguous:
                block = rows[int(idx[lo]) : int(idx[lo]) + hi - lo]
            else:
                block = np.take(rows, idx[lo:hi], axis=0)
            # einsum, not BLAS (see vectors.similarities): memory-bound, and threads collapse
            out[lo:hi] = np.einsum("ij,j->i", block.astype(np.float32), q)
        out *= self.scale[idx]
        return out

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


def row_bounded(q8: Quantized, qv: F32Array, idx: IntArray, depth: int) -> IntArray | None:
    """The rows of ``idx`` (ascending) whose cosine to ``qv`` may reach the best ``depth`` — a
    superset of those and of every tie at the cut — by the row-major codes: an approximate cosine
    of every row with :func:`error_bound`, kept when its upper bound reaches the ``depth``-th best
    lower bound. None when the index has no row-major codes or ``depth`` leaves none out."""
    if q8.rows is None or depth <= 0 or depth >= len(idx):
        return None
    approx = q8.row_scores(qv, idx).astype(np.float64)
    err = error_bound(q8.scale[idx], qv)
    lower = approx - err
    cut = np.partition(lower, len(lower) - depth)[len(lower) - depth]
    keep: IntArray = idx[approx + err >= cut]
    return keep


def error_bound(scale: F32Array, weights: F32Array) -> FloatArray:
    """How far an approximate cosine can be from the exact one (each component is within half
    a step of its code; plus :data:`SLACK` for float32 rounding)."""
    l1 = float(np.abs(weights).sum())
    return scale.astype(np.float64) * (0.5 * l1) + SLACK * (1.0 + l1)
