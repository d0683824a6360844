"""The immutable searchable state of one version of an embedded index.

A :class:`Snapshot` is what one search reads: the mapped columns, the strings, the vocabularies,
the vectors, the tantivy searcher, ``docs.tsv`` held open, and the derived structures built on
first use (substring-search texts, opening intervals by day, cached masks). Writes never change
a snapshot: they build the next version and load a new one.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import tantivy

from matjip.documents import Restaurant
from matjip.index.columns import Vocab, price_buckets
from matjip.index.quantized import Quantized
from matjip.index.signs import Signs
from matjip.index.strings import StringColumn

IntArray = npt.NDArray[np.int64]

CACHE_SIZE = 1024
CACHE_BYTES = 160 << 20  # what the cached arrays may hold in all (128 whole-index masks at 1M rows)


class LRU:
    """A thread-safe LRU map for per-snapshot masks and row lists, bounded by entries and by the
    bytes of the arrays it holds: at 1M rows a whole-index mask is 1 MB and a rare kind's rows a
    few kB, so a count alone either holds too few small entries or too many large ones."""

    def __init__(self, size: int = CACHE_SIZE, max_bytes: int = CACHE_BYTES) -> None:
        self.size = size
        self.max_bytes = max_bytes
        self._d: OrderedDict[object, Any] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, key: object) -> Any:
        with self._lock:
            v = self._d.get(key)
            if v is not None:
                self._d.move_to_end(key)
            return v

    def put(self, key: object, value: Any) -> None:
        with self._lock:
            old = self._d.pop(key, None)
            self._bytes += _nbytes(value) - _nbytes(old)
            self._d[key] = value
            while len(self._d) > 1 and (len(self._d) > self.size or self._bytes > self.max_bytes):
                _, dropped = self._d.popitem(last=False)
                self._bytes -= _nbytes(dropped)


def _nbytes(value: Any) -> int:
    return int(value.nbytes) if isinstance(value, np.ndarray) else 0


class Blob:
    """Many short texts joined by newlines, for fast substring search across all of them.

    Held as an array of code points: a search is a few vectorised comparisons over the whole
    text (anchored on the needle's rarest character), so its cost does not grow with the
    number of matches (a Python ``str.find`` loop took ~0.7 µs a match: ~40 ms for a district
    matching half of 100k addresses).
    """

    def __init__(self, texts: Sequence[str]) -> None:
        joined = texts.joined() if isinstance(texts, StringColumn) else None  # one newline after each
        lined = joined is not None
        if joined is None:
            joined = "\n".join(texts)
        codes = np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32)
        self.max_code = int(codes.max()) if len(codes) else 0
        self.codes: np.ndarray = codes.astype(np.uint16) if self.max_code < 1 << 16 else codes
        # character frequencies (the basic plane; others count as rare), to pick the anchor
        self.freq = np.bincount(self.codes[self.codes < 1 << 16], minlength=1 << 16)
        if lined:
            ends = np.flatnonzero(codes == 10)
            lens = np.diff(np.concatenate([[-1], ends])).astype(np.int64)
        else:
            lens = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts)) + 1
        # starts[i] is where text i begins; starts[-1] is past the end
        self.starts: IntArray = np.concatenate([[0], np.cumsum(lens)]).astype(np.int64)

    def find(self, needle: str) -> IntArray:
        """Indices of the texts containing ``needle`` (which must not contain a newline),
        ascending."""
        if not needle or "\n" in needle:
            return np.zeros(0, np.int64)
        nd = [ord(c) for c in needle]
        m = len(self.codes) - len(nd) + 1  # possible start positions
        if m <= 0 or max(nd) > self.max_code:
            return np.zeros(0, np.int64)
        order = sorted(range(len(nd)), key=lambda i: int(self.freq[nd[i]]) if nd[i] < 1 << 16 else 0)
        a = order[0]
        pos = np.flatnonzero(self.codes[a : a + m] == nd[a])  # match start positions, ascending
        for i in order[1:]:
            if not len(pos):
                break
            pos = pos[self.codes[pos + i] == nd[i]]
        rows = np.searchsorted(self.starts, pos, side="right") - 1  # no match spans a newline
        if len(rows) > 1:
            rows = rows[np.concatenate([[True], rows[1:] != rows[:-1]])]
        out: IntArray = rows.astype(np.int64)
        return out


@dataclass
class Snapshot:
    directory: Path
    meta: dict[str, Any]
    cols: dict[str, np.ndarray]
    strings: dict[str, Sequence[str]]
    vocab: Vocab
    vectors: np.ndarray
    index: tantivy.Index
    searcher: tantivy.Searcher
    schema: tantivy.Schema
    n: int = 0
    doc_off: IntArray = field(default_factory=lambda: np.zeros(1, np.int64))
    price_off: IntArray = field(default_factory=lambda: np.zeros(1, np.int64))
    alive_rows: IntArray = field(default_factory=lambda: np.zeros(0, np.int64))
    pid_row: Mapping[str, int] = field(default_factory=dict)  # place id → alive row (built here when empty)
    cache: LRU = field(default_factory=LRU)
    menu_off: IntArray = field(default_factory=lambda: np.zeros(1, np.int64))
    embedder: Any = None  # the embedder whose state matches this version's vectors
    quantized: Quantized | None = None  # the int8 dimension-major copy of the vectors, when written
    signs: Signs | None = None  # one sign bit per dimension of the vectors, when written
    docs_file: Any = None  # docs.tsv, open for the snapshot's life (survives a switch of versions)
    vectors_file: Any = None  # vectors.f32, open likewise: rows read by pread (float_rows)
    pin: Path | None = None  # the marker that keeps the version on disk while it is loaded
    _blobs: dict[str, Blob] = field(default_factory=dict)
    _by_day: dict[str, tuple[np.ndarray, IntArray]] = field(default_factory=dict)
    _price_bits: npt.NDArray[np.uint32] | None = None
    _by_lat: tuple[npt.NDArray[np.int32], npt.NDArray[np.float64]] | None = None

    def price_bits(self) -> npt.NDArray[np.uint32]:
        """Per row, a bitmask of the price buckets (:data:`~matjip.index.columns.PRICE_EDGES`)
        its menu prices fall in (built on first use)."""
        bits = self._price_bits
        if bits is None:
            bits = np.zeros(self.n, dtype=np.uint32)
            vals = self.cols["price_val"]
            if len(vals):
                one = np.left_shift(np.uint32(1), price_buckets(vals).astype(np.uint32))
                # each priced row's prices are one run of `vals` (unpriced rows have none)
                priced = np.flatnonzero(self.cols["price_count"] > 0)
                bits[priced] = np.bitwise_or.reduceat(one, self.price_off[priced])
            self._price_bits = bits
        return bits

    def box_rows(
        self, min_lat: float, max_lat: float, min_lon: float, max_lon: float, most: int
    ) -> IntArray | None:
        """The rows (ascending) inside the box, or None when more than ``most`` rows lie in its
        latitude band: the band is a slice of the rows ordered by latitude (built on first use),
        then its longitudes are tested."""
        order, lats = self.by_latitude()
        lo = int(np.searchsorted(lats, min_lat, side="left"))
        hi = int(np.searchsorted(lats, max_lat, side="right"))
        if hi - lo > most:
            return None
        band = order[lo:hi]
        lon = self.cols["lon"][band]
        out: IntArray = np.sort(band[(lon >= min_lon) & (lon <= max_lon)]).astype(np.int64, copy=False)
        return out

    def by_latitude(self) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.float64]]:
        """The rows ordered by latitude (rows without one last) and their latitudes, in that order
        (built on first use)."""
        hit = self._by_lat
        if hit is None:
            lat = self.cols["lat"]
            order = np.argsort(lat, kind="stable").astype(np.int32)
            hit = self._by_lat = (order, lat[order])
        return hit

    def blob(self, name: str) -> Blob:
        """The joined text of a string column (built on first use)."""
        b = self._blobs.get(name)
        if b is None:
            b = self._blobs[name] = Blob(self.strings[name])
        return b

    def by_day(self, name: str) -> tuple[np.ndarray, IntArray]:
        """An interval table (``open_iv`` or ``break_iv``: row, day, start, end) sorted by day,
        and per-day offsets: day d's intervals are ``table[off[d]:off[d + 1]]``, ordered by row
        (built on first use)."""
        hit = self._by_day.get(name)
        if hit is None:
            iv = self.cols[name]
            table = iv[np.lexsort((iv[:, 0], iv[:, 1]))]
            off = np.searchsorted(table[:, 1], np.arange(8)).astype(np.int64)
            hit = self._by_day[name] = (table, off)
        return hit

    def __post_init__(self) -> None:
        self.n = len(self.strings["place_ids"])
        self.doc_off = np.concatenate([[0], np.cumsum(self.cols["doc_len"])]).astype(np.int64)
        self.price_off = np.concatenate([[0], np.cumsum(self.cols["price_count"])]).astype(np.int64)
        alive = self.cols["alive"]
        self.alive_rows = np.flatnonzero(alive).astype(np.int64)
        if not self.pid_row:  # an index written before the place-id order was stored
            pids = self.strings["place_ids"]
            self.pid_row = {pids[r]: r for r in self.alive_rows.tolist()}
        counts = np.bincount(self.cols["menu_pairs"][:, 0], minlength=len(self.strings["menu_vocab"]))
        self.menu_off = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)

    def float_rows(self, rows: IntArray) -> npt.NDArray[np.float32]:
        """The float vectors of ``rows`` (len × dim), read from ``vectors.f32`` by ``pread`` (one
        call per run of consecutive rows) rather than through its mapping: the pages stay in the
        shared page cache and out of the process's resident set, where the mapping's fault-around
        would map 16 pages around each row read (a few thousand scattered rows map the whole
        file). Without the open file (an index built in memory), from the mapping."""
        rows = np.asarray(rows, dtype=np.int64)
        dim = int(self.vectors.shape[1])
        if self.vectors_file is None or not len(rows) or not dim:
            out_mapped: npt.NDArray[np.float32] = np.take(self.vectors, rows, axis=0)
            return out_mapped
        order = None
        if len(rows) > 1 and bool(np.any(rows[1:] < rows[:-1])):
            order = np.argsort(rows, kind="stable")
            rows = rows[order]
        out = np.empty((len(rows), dim), dtype=np.float32)
        view = memoryview(out.data).cast("B")
        size = dim * 4
        breaks = np.flatnonzero(rows[1:] != rows[:-1] + 1) + 1
        starts = [0, *breaks.tolist()]
        ends = [*breaks.tolist(), len(rows)]
        fd = self.vectors_file.fileno()
        for a, b in zip(starts, ends, strict=True):
            if os.preadv(fd, [view[a * size : b * size]], int(rows[a]) * size) != (b - a) * size:
                raise OSError(f"{self.directory}: vectors.f32 is shorter than its {self.n} rows")
        if order is not None:
            back = np.empty_like(out)
            back[order] = out
            out = back
        return out

    def cache_vectors(self) -> bool:
        """Ask the kernel to read ``vectors.f32`` into the page cache ahead (asynchronously): the
        rows :meth:`float_rows` reads are then cached pages, not disk reads, and the pages are
        shared by every process and never in one's resident set. False where it cannot."""
        advise = getattr(os, "posix_fadvise", None)
        if self.vectors_file is None or advise is None:
            return False
        advise(self.vectors_file.fileno(), 0, 0, os.POSIX_FADV_WILLNEED)
        return True

    def read_docs(self, rows: Sequence[int]) -> list[tuple[Restaurant, list[str]]]:
        out: list[tuple[Restaurant, list[str]]] = []
        fd = self.docs_file.fileno()
        for r in rows:
            raw = os.pread(fd, int(self.doc_off[r + 1] - self.doc_off[r]), int(self.doc_off[r]))
            tab = raw.index(b"\t")
            out.append((Restaurant.model_validate_json(raw[tab + 1 :]), raw[:tab].decode("utf-8").split()))
        return out
