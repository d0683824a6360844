"""The embedded search backend: exact numpy filters, tantivy BM25, numpy vectors, fused.

Layout of an index directory::

    meta.json        format version, embedder name + dim, row count, vocabularies, timestamps
    columns.npz      per-row filter columns (coordinates, codes, bitmasks, prices, hours, prior)
    strings.json     per-row strings: place ids, titles, normalised menu and address text
    docs.tsv         one line per row: BM25 terms, a tab, the document JSON (read for hits only)
    vectors.f32      row-major float32 unit vectors (memory-mapped)
    tantivy/         BM25 over pre-analysed terms ("whitespace" tokenizer), a ``row`` fast field
    embedder/        whatever the embedder saved after ``fit``

Rows are append-only: an upsert writes a new row and tombstones the old one (``alive``), a
delete tombstones. A rebuild (:meth:`EmbeddedIndex.build`) compacts.

Search (see :meth:`EmbeddedIndex.search`):

1. **Hard filters, exact, in numpy.** Geo: bounding-box prefilter on the coordinate columns,
   then haversine on the box only. Cuisine and sub-category: integer codes. Convenience: a
   bitmask (all-of). Price: per-row min/max prefilter, then an exact per-menu check
   (vectorised over the menu prices) where the min/max cannot decide. Title, menu and
   region: the plain-Python predicates of :mod:`matjip.index.reference` on the candidates
   when they are few, else a whole-index mask (vectorised substring search over the column's
   joined text — for menus over the distinct entries, then their rows), kept in a
   per-snapshot LRU cache. Opening hours: an interval table (grouped by day) evaluated
   vectorised, cached per minute of the week. The result is the candidate set C
   (``total_candidates``).
2. **BM25 (tantivy) without letting filters change it.** Filters never enter scoring: BM25
   statistics are index-wide and filter clauses are constant-score 0. A small C (up to
   ``ROW_SET_MAX``) is passed to tantivy itself, as a term set on the ``row`` field. Otherwise
   the filters tantivy can express coarsely become ``Must`` clauses, so tantivy walks only a
   superset of C: geo cells covering the bounding box, cuisine, sub-category and convenience
   terms, and for the substring filters (menu, title, region) every character bigram of the
   needle, indexed per menu entry / title / address. Hits are intersected with C. The first
   page is sized from C's share of the index (at most ``FIRST_FETCH``); while a full page
   leaves fewer than ``BM25_DEPTH`` hits inside C, the next page is read (tantivy offset, the
   total read growing ×4) until the best ``BM25_DEPTH`` hits inside C are certain (every
   unread hit scores no higher) or everything was read — so the BM25 list over C is exact,
   never a sample.
3. **Vectors.** Cosine (dot of unit vectors) over the rows of C only (above a quarter of
   the rows, one pass over the whole matrix); top ``VECTOR_DEPTH``.
4. **Fusion** of the two lists: RRF (k = settings.rrf_k) or a min-max convex combination
   (settings.weight_bm25 / weight_vector), chosen by settings.fusion. Candidates in neither list
   follow by prior. Without text, candidates are ranked by the prior (:func:`matjip.index.ranking.trust`:
   reviews, rating with its count, the '맛' tag, complete information; exact title matches first) or by distance for ``sort="distance"``; ties go to the
   nearer one.
5. **Scores** are mapped to [0, 1] as documented on :class:`matjip.index.request.SearchHit`.
"""

from __future__ import annotations

import copy
import io
import json
import math
import os
import struct
import threading
import time
import weakref
import zipfile
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence, Sized
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar
from zoneinfo import ZoneInfo

import numpy as np
import numpy.typing as npt
import tantivy

from matjip.documents import Restaurant
from matjip.errors import EmbedderMismatchError, IndexDamagedError, IndexNotBuiltError, SearchIndexError
from matjip.geo.distance import bounding_box, haversine_m_array
from matjip.index import fusion, layout
from matjip.index.analyzer import analyze_documents, embedding_text, query_terms
from matjip.index.backend import BuildProgress
from matjip.index.batches import batched
from matjip.index.embed.base import Embedder
from matjip.index.ranking import BM25_DEPTH, VECTOR_DEPTH, HitRow, SearchMode, rank, trust
from matjip.index.reference import (
    menu_entries,
    normalize_key,
    normalize_phrase,
    polygon_place,
    title_exact,
    title_matches,
    title_words,
)
from matjip.index.request import OpenAt, SearchHit, SearchRequest, SearchResponse
from matjip.settings import Settings

FORMAT_VERSION = 5  # 4: restaurant kinds; 5: the prior is index.ranking.trust
BACKEND_NAME = "embedded"


IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

GEO_LEVELS = (0.005, 0.02, 0.08)  # cell sizes (degrees) of the coarse tantivy geo restriction; kept in meta
MAX_GEO_CELLS = 64
FIRST_FETCH = 2000  # first tantivy page; grows x4 while the top BM25_DEPTH inside C is uncertain
ROW_SET_MAX = 200  # up to this many candidates, restrict tantivy by their row ids (~5 µs per row)
PY_CHECK_MAX = 2000  # per-candidate Python checks up to this many, else a cached full mask
CACHE_SIZE = 128
NO_PRICE_MIN = np.iinfo(np.int64).max
NO_PRICE_MAX = -1
_SEP = "\x1f"

T = TypeVar("T")


def _cell_terms(lat: float, lon: float, levels: Sequence[float] = GEO_LEVELS) -> list[str]:
    return [f"g{i}:{math.floor(lat / s)}:{math.floor(lon / s)}" for i, s in enumerate(levels)]


def _query_cells(lat: float, lon: float, radius_m: float, levels: Sequence[float]) -> list[str] | None:
    """Cell terms covering the circle's bounding box at the finest level with few cells."""
    min_lat, max_lat, min_lon, max_lon = bounding_box(lat, lon, radius_m)
    if min_lon <= -180.0 and max_lon >= 180.0:
        return None
    for i, s in enumerate(levels):
        i0, i1 = math.floor(min_lat / s), math.floor(max_lat / s)
        j0, j1 = math.floor(min_lon / s), math.floor(max_lon / s)
        if (i1 - i0 + 1) * (j1 - j0 + 1) <= MAX_GEO_CELLS:
            return [f"g{i}:{a}:{b}" for a in range(i0, i1 + 1) for b in range(j0, j1 + 1)]
    return None


def _any_price_in(vals: IntArray, off: IntArray, rows: IntArray, lo: int, hi: int) -> BoolArray:
    """Per row: does any of its menu prices (``vals[off[r]:off[r + 1]]``) lie in [lo, hi]?

    Vectorised over the rows' concatenated price slices (a per-row Python loop took ~5 µs a row,
    40 ms for a loose price band over 100k documents)."""
    starts, ends = off[rows], off[rows + 1]
    counts = ends - starts
    total = int(counts.sum())
    if total == 0:
        return np.zeros(len(rows), dtype=np.bool_)
    seg = np.cumsum(counts) - counts  # where each row's slice begins in the gathered array
    pos = np.arange(total, dtype=np.int64) + np.repeat(starts - seg, counts)
    v = vals[pos]
    inside = np.concatenate([[0], np.cumsum((v >= lo) & (v <= hi))])
    out: BoolArray = inside[seg + counts] > inside[seg]
    return out


def _bigrams(texts: Iterable[str]) -> set[str]:
    """Character bigrams of each text (never across texts): a text containing a substring of
    two or more characters contains all of that substring's bigrams."""
    return {t[i : i + 2] for t in texts for i in range(len(t) - 1)}


class _LRU:
    """A small thread-safe LRU map for per-snapshot masks."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.size = size
        self._d: OrderedDict[object, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: object) -> Any:
        with self._lock:
            v = self._d.get(key)
            if v is not None:
                self._d.move_to_end(key)
            return v

    def put(self, key: object, value: Any) -> None:
        with self._lock:
            self._d[key] = value
            self._d.move_to_end(key)
            while len(self._d) > self.size:
                self._d.popitem(last=False)


# -- per-row columns ------------------------------------------------------------------------


@dataclass
class _Vocab:
    """Value vocabularies (normalised keys; codes are list positions). They only grow."""

    cuisine: list[str] = field(default_factory=list)
    cuisine_display: list[str] = field(default_factory=list)
    sub: list[str] = field(default_factory=list)
    conv: list[str] = field(default_factory=list)
    conv_display: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._maps: dict[str, dict[str, int]] = {
            kind: {k: i for i, k in enumerate(getattr(self, kind))} for kind in ("cuisine", "sub", "conv")
        }

    def code(self, kind: str, value: str) -> int:
        """The code of ``value``, added to the vocabulary when new."""
        key = normalize_key(value)
        m = self._maps[kind]
        c = m.get(key)
        if c is None:
            keys: list[str] = getattr(self, kind)
            c = m[key] = len(keys)
            keys.append(key)
            if kind != "sub":
                display: list[str] = getattr(self, kind + "_display")
                display.append(value)
        return c

    def lookup(self, kind: str, value: str) -> int | None:
        return self._maps[kind].get(normalize_key(value))

    @property
    def conv_words(self) -> int:
        return max(1, (len(self.conv) + 63) // 64)

    def to_json(self) -> dict[str, list[str]]:
        return {
            "cuisine": list(self.cuisine),
            "cuisine_display": list(self.cuisine_display),
            "sub": list(self.sub),
            "conv": list(self.conv),
            "conv_display": list(self.conv_display),
        }

    @classmethod
    def from_json(cls, d: dict[str, list[str]]) -> _Vocab:
        return cls(**{k: list(v) for k, v in d.items()})

    def copy(self) -> _Vocab:
        return _Vocab.from_json(self.to_json())


_STRING_COLUMNS = ("place_ids", "titles", "title_keys", "menu_keys", "addr_keys", "kind_keys")


class _Rows:
    """Columns for a batch of new rows, as Python lists (converted with :meth:`arrays`)."""

    def __init__(
        self,
        vocab: _Vocab,
        menu_vocab: list[str],
        first_row: int,
        geo_levels: Sequence[float] = GEO_LEVELS,
    ) -> None:
        self.vocab = vocab
        self.geo_levels = tuple(geo_levels)
        self.menu_vocab = menu_vocab  # distinct normalised menu entries; grows in place
        self._menu_ids = {m: i for i, m in enumerate(menu_vocab)}
        self.menu_pairs: list[tuple[int, int]] = []  # (entry id, row)
        self.first_row = first_row
        self.n = 0
        self.lat: list[float] = []
        self.lon: list[float] = []
        self.cuisine: list[int] = []
        self.sub: list[int] = []
        self.conv: list[list[int]] = []
        self.price_min: list[int] = []
        self.price_max: list[int] = []
        self.price_count: list[int] = []
        self.price_val: list[int] = []
        self.hours_known: list[bool] = []
        self.open_iv: list[tuple[int, int, int, int]] = []  # row, day, start, end
        self.break_iv: list[tuple[int, int, int, int]] = []
        self.prior: list[float] = []
        self.doc_len: list[int] = []
        self.strings: dict[str, list[str]] = {k: [] for k in _STRING_COLUMNS}

    def add(self, doc: Restaurant, terms: Sequence[str]) -> tuple[int, str, list[str]]:
        """Add a row; returns (row, the docs.tsv line, the tantivy filter terms)."""
        row = self.first_row + self.n
        self.n += 1
        lat, lon = doc.lat, doc.lon
        has_geo = lat is not None and lon is not None and math.isfinite(lat) and math.isfinite(lon)
        self.lat.append(float(lat) if has_geo and lat is not None else math.nan)
        self.lon.append(float(lon) if has_geo and lon is not None else math.nan)
        cu = self.vocab.code("cuisine", doc.cuisine)
        self.cuisine.append(cu)
        sub_key = normalize_key(doc.sub_category or "")
        self.sub.append(self.vocab.code("sub", doc.sub_category or "") if sub_key else -1)
        conv_codes = sorted({self.vocab.code("conv", c) for c in doc.convenience if normalize_key(c)})
        self.conv.append(conv_codes)
        prices = [int(m.price) for m in doc.menus if m.price is not None]
        self.price_val.extend(prices)
        self.price_count.append(len(prices))
        self.price_min.append(min(prices) if prices else int(NO_PRICE_MIN))
        self.price_max.append(max(prices) if prices else NO_PRICE_MAX)
        h = doc.hours
        self.hours_known.append(bool(h is not None and h.parsed and h.days))
        if h is not None:
            for day, dh in h.days.items():
                for r in dh.open:
                    self.open_iv.append((row, int(day), r.start, r.end))
                for b in dh.breaks:
                    self.break_iv.append((row, int(day), b.start, b.end))
        self.prior.append(trust(doc))
        s = self.strings
        s["place_ids"].append(doc.place_id)
        s["titles"].append(" ".join(doc.title.split()))
        s["title_keys"].append("".join(title_words(doc.title)))
        entries = menu_entries(doc)
        s["menu_keys"].append(_SEP.join(entries))
        for e in dict.fromkeys(entries):
            eid = self._menu_ids.get(e)
            if eid is None:
                eid = self._menu_ids[e] = len(self.menu_vocab)
                self.menu_vocab.append(e)
            self.menu_pairs.append((eid, row))
        addrs = [" " + normalize_phrase(a) for a in (doc.address, doc.road_address) if a.strip()]
        s["addr_keys"].append(_SEP.join(addrs))
        s["kind_keys"].append(_SEP + _SEP.join(normalize_key(k) for k in doc.kinds) + _SEP)
        # "<BM25 terms, space-separated>\t<document JSON>" (terms never contain tabs or newlines)
        line = " ".join(terms) + "\t" + doc.model_dump_json(by_alias=True)
        data = (line + "\n").encode("utf-8")
        self.doc_len.append(len(data))
        filt = [f"cu:{self.vocab.cuisine[cu]}"]
        if sub_key:
            filt.append(f"sb:{sub_key}")
        filt.extend(f"cv:{self.vocab.conv[c]}" for c in conv_codes)
        if has_geo and lat is not None and lon is not None:
            filt.extend(_cell_terms(lat, lon, self.geo_levels))
        filt.extend("mb:" + g for g in _bigrams(entries))
        filt.extend("ab:" + g for g in _bigrams(addrs))
        filt.extend("tb:" + g for g in _bigrams([s["title_keys"][-1]]))
        return row, line, filt

    def arrays(self) -> dict[str, np.ndarray]:
        n = self.n
        w = self.vocab.conv_words
        bits = np.zeros((n, w), dtype=np.uint64)
        for i, codes in enumerate(self.conv):
            for c in codes:
                bits[i, c // 64] |= np.uint64(1) << np.uint64(c % 64)

        def iv(rows: list[tuple[int, int, int, int]]) -> np.ndarray:
            return np.asarray(rows, dtype=np.int32).reshape(-1, 4)

        return {
            "lat": np.asarray(self.lat, dtype=np.float64),
            "lon": np.asarray(self.lon, dtype=np.float64),
            "alive": np.ones(n, dtype=np.bool_),
            "cuisine": np.asarray(self.cuisine, dtype=np.int32),
            "sub": np.asarray(self.sub, dtype=np.int32),
            "conv_bits": bits,
            "price_min": np.asarray(self.price_min, dtype=np.int64),
            "price_max": np.asarray(self.price_max, dtype=np.int64),
            "price_count": np.asarray(self.price_count, dtype=np.int64),
            "price_val": np.asarray(self.price_val, dtype=np.int64),
            "hours_known": np.asarray(self.hours_known, dtype=np.bool_),
            "open_iv": iv(self.open_iv),
            "break_iv": iv(self.break_iv),
            "prior": np.asarray(self.prior, dtype=np.float32),
            "doc_len": np.asarray(self.doc_len, dtype=np.int64),
            "menu_pairs": np.asarray(self.menu_pairs, dtype=np.int64).reshape(-1, 2),
        }


def _concat(old: dict[str, np.ndarray], new: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    out: dict[str, np.ndarray] = {}
    for k, v in new.items():
        o = old.get(k)
        if o is None:
            out[k] = v
            continue
        if k == "conv_bits" and o.shape[1] != v.shape[1]:
            w = max(o.shape[1], v.shape[1])
            o = np.pad(o, ((0, 0), (0, w - o.shape[1])))
            v = np.pad(v, ((0, 0), (0, w - v.shape[1])))
        out[k] = np.concatenate([o, v])
    return out


def _finish_columns(cols: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Sort the (menu entry, row) pairs by entry so each entry's rows are one slice."""
    pairs = cols["menu_pairs"]
    cols["menu_pairs"] = pairs[np.argsort(pairs[:, 0], kind="stable")]
    return cols


class _Blob:
    """Many short texts joined by newlines, for fast substring search across all of them.

    Held as an array of code points: a search is a few vectorised comparisons over the whole
    text (anchored on the needle's rarest character), so its cost does not grow with the
    number of matches (a Python ``str.find`` loop took ~0.7 µs a match: ~40 ms for a district
    matching half of 100k addresses).
    """

    def __init__(self, texts: Sequence[str]) -> None:
        codes = np.frombuffer("\n".join(texts).encode("utf-32-le"), dtype=np.uint32)
        self.max_code = int(codes.max()) if len(codes) else 0
        self.codes: np.ndarray = codes.astype(np.uint16) if self.max_code < 1 << 16 else codes
        # character frequencies (the basic plane; others count as rare), to pick the anchor
        self.freq = np.bincount(self.codes[self.codes < 1 << 16], minlength=1 << 16)
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


# -- the immutable searchable state ---------------------------------------------------------


@dataclass
class _Snapshot:
    directory: Path
    meta: dict[str, Any]
    cols: dict[str, np.ndarray]
    strings: dict[str, list[str]]
    vocab: _Vocab
    vectors: np.ndarray
    index: tantivy.Index
    searcher: tantivy.Searcher
    schema: tantivy.Schema
    n: int = 0
    doc_off: IntArray = field(default_factory=lambda: np.zeros(1, np.int64))
    price_off: IntArray = field(default_factory=lambda: np.zeros(1, np.int64))
    alive_rows: IntArray = field(default_factory=lambda: np.zeros(0, np.int64))
    pid_row: dict[str, int] = field(default_factory=dict)
    cache: _LRU = field(default_factory=_LRU)
    menu_off: IntArray = field(default_factory=lambda: np.zeros(1, np.int64))
    embedder: Any = None  # the embedder whose state matches this version's vectors
    docs_file: Any = None  # docs.tsv, open for the snapshot's life (survives a switch of versions)
    pin: Path | None = None  # the marker that keeps the version on disk while it is loaded
    _blobs: dict[str, _Blob] = field(default_factory=dict)
    _by_day: dict[str, tuple[np.ndarray, IntArray]] = field(default_factory=dict)

    def blob(self, name: str) -> _Blob:
        """The joined text of a string column (built on first use)."""
        b = self._blobs.get(name)
        if b is None:
            b = self._blobs[name] = _Blob(self.strings[name])
        return b

    def by_day(self, name: str) -> tuple[np.ndarray, IntArray]:
        """An interval table (``open_iv`` or ``break_iv``: row, day, start, end) sorted by day,
        and per-day offsets: day d's intervals are ``table[off[d]:off[d + 1]]`` (built on
        first use)."""
        hit = self._by_day.get(name)
        if hit is None:
            iv = self.cols[name]
            table = iv[np.argsort(iv[:, 1], kind="stable")]
            off = np.searchsorted(table[:, 1], np.arange(8)).astype(np.int64)
            hit = self._by_day[name] = (table, off)
        return hit

    def __post_init__(self) -> None:
        self.n = len(self.strings["place_ids"])
        self.doc_off = np.concatenate([[0], np.cumsum(self.cols["doc_len"])]).astype(np.int64)
        self.price_off = np.concatenate([[0], np.cumsum(self.cols["price_count"])]).astype(np.int64)
        alive = self.cols["alive"]
        self.alive_rows = np.flatnonzero(alive).astype(np.int64)
        pids = self.strings["place_ids"]
        self.pid_row = {pids[r]: r for r in self.alive_rows.tolist()}
        counts = np.bincount(self.cols["menu_pairs"][:, 0], minlength=len(self.strings["menu_vocab"]))
        self.menu_off = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)

    def read_docs(self, rows: Sequence[int]) -> list[tuple[Restaurant, list[str]]]:
        out: list[tuple[Restaurant, list[str]]] = []
        fd = self.docs_file.fileno()
        for r in rows:
            raw = os.pread(fd, int(self.doc_off[r + 1] - self.doc_off[r]), int(self.doc_off[r]))
            tab = raw.index(b"\t")
            out.append((Restaurant.model_validate_json(raw[tab + 1 :]), raw[:tab].decode("utf-8").split()))
        return out


def _schema() -> tantivy.Schema:
    sb = tantivy.SchemaBuilder()
    sb.add_text_field("body", tokenizer_name="whitespace", index_option="freq")
    sb.add_text_field("filt", tokenizer_name="raw", index_option="basic")
    sb.add_text_field("pid", tokenizer_name="raw", index_option="basic")
    sb.add_unsigned_field("row", indexed=True, fast=True)
    return sb.build()


def _tantivy_doc(row: int, pid: str, terms: Sequence[str], filt: Sequence[str]) -> tantivy.Document:
    d = tantivy.Document()
    d.add_text("body", " ".join(terms))
    for f in filt:
        d.add_text("filt", f)
    d.add_text("pid", pid)
    d.add_unsigned("row", row)
    return d


def _write_json(path: Path, obj: object) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(obj, ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, path)


ALIGN = 64  # where each array's data starts in columns.npz (so a mapped array is aligned)
_ALIGN_EXTRA_ID = 0xD935  # the zip extra field zipalign pads with; readers skip it


def _save_columns(directory: Path, cols: dict[str, np.ndarray], strings: dict[str, list[str]]) -> None:
    """``columns.npz`` as ``np.savez`` writes it (uncompressed ``.npy`` members, ``np.load`` reads
    it), each member's data starting at a multiple of :data:`ALIGN` in the file (padding in the
    zip extra field), so :func:`_map_columns` maps aligned arrays."""
    tmp = directory / "columns.tmp.npz"
    with tmp.open("wb") as fh, zipfile.ZipFile(fh, "w", zipfile.ZIP_STORED, allowZip64=True) as zf:
        for name, arr in cols.items():
            buf = io.BytesIO()
            np.lib.format.write_array(buf, np.asanyarray(arr), allow_pickle=False)
            data = buf.getvalue()
            info = zipfile.ZipInfo(name + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
            zip64 = 20 if len(data) * 1.05 > zipfile.ZIP64_LIMIT else 0  # zipfile then appends its own extra
            start = fh.tell() + 30 + len(info.filename.encode()) + zip64
            pad = -start % ALIGN
            if 0 < pad < 4:
                pad += ALIGN
            if pad:
                info.extra = struct.pack("<HH", _ALIGN_EXTRA_ID, pad - 4) + bytes(pad - 4)
            zf.writestr(info, data)
    os.replace(tmp, directory / "columns.npz")
    _write_json(directory / "strings.json", strings)


def _map_columns(path: Path) -> dict[str, np.ndarray]:
    """``columns.npz`` memory-mapped, read-only: ``np.savez`` stores each array uncompressed
    (a ``.npy`` member of a plain zip), so each is mapped where its data starts in the file. Every
    worker of ``matjip serve --workers N`` maps the same pages: the page cache holds the columns
    once, whatever N. A member that cannot be mapped (compressed, object dtype) is read."""
    out: dict[str, np.ndarray] = {}
    with zipfile.ZipFile(path) as zf, path.open("rb") as fh:
        for info in zf.infolist():
            name = info.filename.removesuffix(".npy")
            if info.compress_type != zipfile.ZIP_STORED:
                with zf.open(info) as member:
                    out[name] = np.lib.format.read_array(member)
                continue
            fh.seek(info.header_offset)
            local = fh.read(30)  # the local file header: its name and extra field lengths at 26..30
            name_len, extra_len = struct.unpack("<HH", local[26:30])
            fh.seek(info.header_offset + 30 + name_len + extra_len)
            version = np.lib.format.read_magic(fh)
            if version == (1, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_1_0(fh)
            else:
                shape, fortran, dtype = np.lib.format.read_array_header_2_0(fh)
            if dtype.hasobject or math.prod(shape) == 0:
                fh.seek(info.header_offset + 30 + name_len + extra_len)
                out[name] = np.lib.format.read_array(fh)
                continue
            mapped = np.memmap(
                path, dtype=dtype, mode="r", offset=fh.tell(), shape=shape, order="F" if fortran else "C"
            )
            # a plain ndarray view that keeps the map alive; an index written before the columns
            # were aligned is read into memory instead (an unaligned array is slow to compute on)
            out[name] = np.asarray(mapped) if mapped.flags.aligned else np.array(mapped)
    return out


def _fork(embedder: Embedder) -> Embedder:
    """A copy of ``embedder`` whose learnt state can be replaced (``load``) without touching the
    original, which searches on the previous version keep using."""
    twin = copy.copy(embedder)
    parts = getattr(twin, "parts", None)
    if isinstance(parts, list):
        twin.parts = [_fork(p) for p in parts]  # type: ignore[attr-defined]
    return twin


def _dir_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


_PINNED: ContextVar[tuple[int, _Snapshot] | None] = ContextVar("matjip_pinned_snapshot", default=None)
"""The snapshot a turn reads (:meth:`EmbeddedIndex.pinned`), with the index it belongs to."""


class EmbeddedIndex:
    """The default search backend: one directory, loaded into the process.

    ``EmbeddedIndex(directory, embedder, settings)`` is inert; call :meth:`build` (from documents) or
    :meth:`load` (from disk) before searching. The keyword-only arguments tune the search's code
    paths (defaults: the module constants of the same names); results do not depend on them,
    except that ``bm25_depth`` is how many BM25 hits take part in fusion. Searches may run concurrently from many threads;
    writes (:meth:`upsert`, :meth:`delete`) are serialised and swap in a new snapshot atomically.
    :meth:`build` refits the embedder in place, so rebuild in another process (or another
    instance with its own embedder) while this one serves searches, then :meth:`load`.
    Documents in hits are freshly decoded per search; callers may keep or modify them.
    """

    name = BACKEND_NAME

    def __init__(
        self,
        directory: Path,
        embedder: Embedder,
        settings: Settings,
        clock: Callable[[], datetime] | None = None,
        *,
        bm25_depth: int = BM25_DEPTH,
        first_fetch: int = FIRST_FETCH,
        row_set_max: int = ROW_SET_MAX,
        py_check_max: int = PY_CHECK_MAX,
    ) -> None:
        self.directory = Path(directory)
        self.embedder = embedder
        self.settings = settings  # fusion, list weights, time zone
        self.timezone = ZoneInfo(settings.timezone)  # of opening hours and of "now"
        # a bound method stored on the instance would make a reference cycle, keeping a replaced
        # snapshot (and its pinned version on disk) alive until the garbage collector runs
        self._clock = clock
        self.bm25_depth = bm25_depth
        self.first_fetch = first_fetch
        self.row_set_max = row_set_max
        self.py_check_max = py_check_max
        self._snap: _Snapshot | None = None
        self._write_lock = threading.RLock()
        self._refresh_lock = threading.Lock()
        self.refresh_error: str | None = None
        self.load_seconds: float | None = None

    def _now(self) -> datetime:
        return datetime.now(self.timezone)

    # -- lifecycle ------------------------------------------------------------------------

    @staticmethod
    def exists(directory: Path) -> bool:
        return (Path(directory) / "meta.json").is_file()

    @classmethod
    def open(cls, directory: Path, embedder: Embedder, settings: Settings) -> EmbeddedIndex:
        return cls(directory, embedder, settings).load()

    def build(
        self,
        docs: Iterable[Restaurant],
        progress: BuildProgress | None = None,
        *,
        state: dict[str, Any] | None = None,
    ) -> EmbeddedIndex:
        """(Re)build the whole index from ``docs`` (the last copy of a place id wins), persist it
        in a new version directory (with ``state`` as ``store_state.json``), switch the pointer to
        it (:mod:`matjip.index.layout`) and load it."""
        report = progress or (lambda stage, done, total: None)
        total = len(docs) if isinstance(docs, Sized) else None
        started = time.perf_counter()
        final = self.directory
        final.parent.mkdir(parents=True, exist_ok=True)
        layout.cleanup(final)
        tmp = layout.new_version_dir(final)
        tmp.mkdir(parents=True)
        (tmp / "tantivy").mkdir()
        schema = _schema()
        index = tantivy.Index(schema, path=str(tmp / "tantivy"))
        writer = index.writer(heap_size=256_000_000, num_threads=1)
        vocab = _Vocab()
        rows = _Rows(vocab, [], 0)
        texts: list[str] = []
        latest: dict[str, int] = {}
        dead: list[int] = []
        done = 0
        with (tmp / "docs.tsv").open("w", encoding="utf-8") as fh:
            for batch in batched(docs, 1000):
                for doc, terms in zip(batch, analyze_documents(batch), strict=True):
                    prev = latest.get(doc.place_id)
                    if prev is not None:
                        dead.append(prev)
                        writer.delete_documents_by_term("pid", doc.place_id)
                    row, line, filt = rows.add(doc, terms)
                    latest[doc.place_id] = row
                    fh.write(line + "\n")
                    writer.add_document(_tantivy_doc(row, doc.place_id, terms, filt))
                    texts.append(embedding_text(doc))
                done += len(batch)
                report("analyze", done, total)
        writer.commit()
        writer.wait_merging_threads()
        if texts:
            report("fit", 0, len(texts))
            self.embedder.fit(texts)
            report("fit", len(texts), len(texts))
        dim = int(self.embedder.dim)
        with (tmp / "vectors.f32").open("wb") as vf:
            for i in range(0, len(texts), 1024):
                chunk = texts[i : i + 1024]
                vecs = np.asarray(self.embedder.embed_documents(chunk), dtype=np.float32).reshape(
                    len(chunk), dim
                )
                vf.write(np.ascontiguousarray(vecs).tobytes())
                report("embed", min(len(texts), i + 1024), len(texts))
        (tmp / "embedder").mkdir()
        self.embedder.save(tmp / "embedder")
        cols = _finish_columns(rows.arrays())
        if dead:
            cols["alive"][np.asarray(dead, dtype=np.int64)] = False
        _save_columns(tmp, cols, {**rows.strings, "menu_vocab": rows.menu_vocab})
        now = datetime.now(UTC).isoformat(timespec="seconds")
        meta = {
            "format": FORMAT_VERSION,
            "backend": BACKEND_NAME,
            "embedder": {"name": self.embedder.name, "dim": dim},
            "rows": rows.n,
            "geo_levels": list(GEO_LEVELS),
            "vocab": vocab.to_json(),
            "built_at": now,
            "updated_at": now,
            "build_seconds": round(time.perf_counter() - started, 2),
        }
        _write_json(tmp / "meta.json", meta)
        if state is not None:
            _write_json(tmp / "store_state.json", state)
        layout.write_manifest(tmp)
        report("write", rows.n, rows.n)
        with self._write_lock:
            layout.switch(final, tmp)
            layout.cleanup(final)
            self._snap = None
            return self._load(restore_embedder=False)

    def load(self, directory: Path | None = None) -> EmbeddedIndex:
        """Load the index from ``directory`` (default: the constructor's), restoring the
        embedder's learnt state from it."""
        if directory is not None:
            self.directory = Path(directory)
        return self._load(restore_embedder=True)

    def _load(self, restore_embedder: bool, embedder: Embedder | None = None) -> EmbeddedIndex:
        started = time.perf_counter()
        d = layout.current(self.directory)
        if d is None or not (d / "meta.json").is_file():
            raise IndexNotBuiltError(f"no search index in {self.directory}; `matjip ingest` builds it")
        layout.verify(d)
        try:
            snap = self._read_snapshot(d, restore_embedder, embedder or self.embedder)
        except SearchIndexError:
            raise
        except Exception as exc:  # a file the manifest vouched for cannot be read after all
            raise IndexDamagedError(
                f"the search index in {d} cannot be read ({type(exc).__name__}: {exc}); {layout.RECOVERY}"
            ) from exc
        snap.pin = layout.pin(d)
        weakref.finalize(snap, layout.unpin, snap.pin)  # a snapshot nobody holds keeps nothing on disk
        old, self._snap = self._snap, snap
        self.embedder = snap.embedder
        if old is not None and old.pin != snap.pin:
            layout.unpin(old.pin)
        self.load_seconds = time.perf_counter() - started
        return self

    def _read_snapshot(self, d: Path, restore_embedder: bool, embedder: Embedder) -> _Snapshot:
        meta = json.loads((d / "meta.json").read_text(encoding="utf-8"))
        if meta.get("format") != FORMAT_VERSION:
            raise SearchIndexError(
                f"{d}: index format {meta.get('format')} is not supported (expected {FORMAT_VERSION}); "
                f"{layout.RECOVERY}"
            )
        built = meta["embedder"]
        if built["name"] != embedder.name:
            raise EmbedderMismatchError(
                f"the index in {d} was built with embedder {built['name']!r} (dim {built['dim']}), "
                f"but embedder {embedder.name!r} is configured; `matjip ingest` rebuilds the index, or set "
                f"MATJIP_EMBEDDER={built['name']}"
            )
        if restore_embedder and (d / "embedder").is_dir():
            embedder.load(d / "embedder")
        if int(embedder.dim) != int(built["dim"]):
            raise EmbedderMismatchError(
                f"the index in {d} holds {built['dim']}-dimensional vectors from {built['name']!r}, "
                f"but the configured embedder produces {embedder.dim}; `matjip ingest` rebuilds the index"
            )
        cols = _map_columns(d / "columns.npz")
        strings = json.loads((d / "strings.json").read_text(encoding="utf-8"))
        n = int(meta["rows"])
        dim = int(built["dim"])
        if n and dim:
            # a plain ndarray view of the mapping (it keeps the map alive): indexing an np.memmap
            # goes through the subclass machinery, ~2x slower for a large gather
            vectors: np.ndarray = np.asarray(
                np.memmap(d / "vectors.f32", dtype=np.float32, mode="r", shape=(n, dim))
            )
        else:
            vectors = np.zeros((n, dim), dtype=np.float32)
        index = tantivy.Index.open(str(d / "tantivy"))
        index.reload()
        snap = _Snapshot(
            directory=d,
            meta=meta,
            cols=cols,
            strings=strings,
            vocab=_Vocab.from_json(meta["vocab"]),
            vectors=vectors,
            index=index,
            searcher=index.searcher(),
            schema=index.schema,
            embedder=embedder,
            docs_file=(d / "docs.tsv").open("rb"),
        )
        if snap.n != n:
            raise SearchIndexError(
                f"{d}: index files disagree ({snap.n} rows vs {n} in meta.json); {layout.RECOVERY}"
            )
        return snap

    @contextmanager
    def pinned(self) -> Iterator[None]:
        """Every search and lookup inside (one agent turn, in this context) reads one version,
        even when another process switches the index meanwhile: a turn never mixes two versions."""
        snap = self._require()
        token = _PINNED.set((id(self), snap))
        try:
            yield
        finally:
            _PINNED.reset(token)

    def _require(self) -> _Snapshot:
        pinned = _PINNED.get()
        if pinned is not None and pinned[0] == id(self):
            return pinned[1]
        snap = self._snap
        if snap is None:
            if self.exists(self.directory):
                self.load()
            else:
                raise IndexNotBuiltError(f"no search index in {self.directory}; `matjip ingest` builds it")
            assert self._snap is not None
            return self._snap
        if layout.current(self.directory) != snap.directory:
            self.refresh()
        return self._snap or snap

    def refresh(self) -> bool:
        """Load the version the pointer now leads to, when another process switched it (a
        rebuild or an ingest). Searches running meanwhile finish on the snapshot they started
        with; one that starts after the swap sees only the new version. True when it switched."""
        if not self._refresh_lock.acquire(blocking=False):
            return False  # another thread is loading it; keep answering from the current one
        try:
            snap = self._snap
            target = layout.current(self.directory)
            if snap is None or target is None or target == snap.directory:
                return False
            fresh = _fork(self.embedder)
            try:
                self._load(restore_embedder=True, embedder=fresh)
            except SearchIndexError as exc:
                self.refresh_error = str(exc)
                return False
            self.refresh_error = None
            return True
        finally:
            self._refresh_lock.release()

    def health(self) -> str | None:
        """Why this index is not fine right now (``None``: it is): the pointer leads nowhere, or
        the version it leads to fails its size check, or a newer version could not be loaded."""
        target = layout.current(self.directory)
        if target is None:
            return f"the search index in {self.directory} is missing; {layout.RECOVERY}"
        try:
            layout.verify(target, checksums=False)
        except IndexDamagedError as exc:
            return str(exc)
        return self.refresh_error

    def warm(self) -> None:
        """Load Kiwi (the analyzer's, shared), prime the embedder and build the substring-search
        texts, so the first real search is not slow. Not part of :meth:`load`: Kiwi takes
        seconds and is shared by the process."""
        query_terms("맛집 데이트")
        warm = getattr(self.embedder, "warm", None)
        if callable(warm):
            warm()
        self.embedder.embed_query("맛집 데이트")
        if self._snap is not None and self.count():
            for name in ("addr_keys", "menu_vocab", "title_keys"):  # substring search texts
                self._snap.blob(name)
            for name in ("open_iv", "break_iv"):  # opening hours by day
                self._snap.by_day(name)
            self.search(SearchRequest(text="맛집", k=1))

    def close(self) -> None:
        """Nothing to release: a snapshot's files close (and its version is unpinned) when the
        last search holding it ends."""

    # -- writes ---------------------------------------------------------------------------

    def upsert(self, docs: Iterable[Restaurant], *, state: dict[str, Any] | None = None) -> int:
        """Add or replace documents: in a new version (a copy of the current one), switched to
        when complete. ``state`` is written as the new version's ``store_state.json``."""
        latest: dict[str, Restaurant] = {}
        for doc in docs:
            latest[doc.place_id] = doc
        if not latest:
            return 0
        batch = list(latest.values())
        with self._write_lock:
            s = self._require()
            d = layout.copy_version(s.directory, self.directory)
            terms = analyze_documents(batch)
            dim = int(self.embedder.dim)
            vecs = np.asarray(
                self.embedder.embed_documents([embedding_text(x) for x in batch]), dtype=np.float32
            ).reshape(len(batch), dim)
            vocab = s.vocab.copy()
            rows = _Rows(vocab, list(s.strings["menu_vocab"]), s.n, s.meta["geo_levels"])
            writer = tantivy.Index.open(str(d / "tantivy")).writer(heap_size=64_000_000, num_threads=1)
            lines: list[str] = []
            replaced: list[int] = []
            for doc, t in zip(batch, terms, strict=True):
                old = s.pid_row.get(doc.place_id)
                if old is not None:
                    replaced.append(old)
                writer.delete_documents_by_term("pid", doc.place_id)
                row, line, filt = rows.add(doc, t)
                lines.append(line)
                writer.add_document(_tantivy_doc(row, doc.place_id, t, filt))
            writer.commit()
            writer.wait_merging_threads()
            # append to the row files, first cutting anything a crashed write left behind
            with (d / "docs.tsv").open("r+b") as fh:
                fh.truncate(int(s.doc_off[-1]))
                fh.seek(0, os.SEEK_END)
                fh.write("".join(x + "\n" for x in lines).encode("utf-8"))
            with (d / "vectors.f32").open("a+b") as vf:
                vf.truncate(s.n * dim * 4)
                vf.seek(0, os.SEEK_END)
                vf.write(np.ascontiguousarray(vecs).tobytes())
            cols = _finish_columns(_concat(dict(s.cols), rows.arrays()))
            if replaced:
                cols["alive"][np.asarray(replaced, dtype=np.int64)] = False
            strings = {k: s.strings[k] + rows.strings[k] for k in _STRING_COLUMNS}
            strings["menu_vocab"] = rows.menu_vocab
            self._commit(s, d, cols, strings, vocab, s.n + rows.n, state)
            return len(batch)

    def delete(self, ids: Iterable[str]) -> int:
        with self._write_lock:
            s = self._require()
            rows = [(pid, s.pid_row[pid]) for pid in dict.fromkeys(ids) if pid in s.pid_row]
            if not rows:
                return 0
            d = layout.copy_version(s.directory, self.directory)
            writer = tantivy.Index.open(str(d / "tantivy")).writer(heap_size=32_000_000, num_threads=1)
            for pid, _ in rows:
                writer.delete_documents_by_term("pid", pid)
            writer.commit()
            writer.wait_merging_threads()
            cols = dict(s.cols)
            cols["alive"] = cols["alive"].copy()
            cols["alive"][np.asarray([r for _, r in rows], dtype=np.int64)] = False
            self._commit(s, d, cols, s.strings, s.vocab, s.n)
            return len(rows)

    def _commit(
        self,
        s: _Snapshot,
        d: Path,
        cols: dict[str, np.ndarray],
        strings: dict[str, list[str]],
        vocab: _Vocab,
        n: int,
        state: dict[str, Any] | None = None,
    ) -> None:
        """Finish the new version ``d`` (manifest last), switch to it, load it."""
        _save_columns(d, cols, strings)
        meta = dict(s.meta)
        meta["rows"] = n
        meta["vocab"] = vocab.to_json()
        meta["updated_at"] = datetime.now(UTC).isoformat(timespec="seconds")
        _write_json(d / "meta.json", meta)
        if state is not None:
            _write_json(d / "store_state.json", state)
        layout.write_manifest(d)
        layout.switch(self.directory, d)
        layout.cleanup(self.directory)
        self._load(restore_embedder=False, embedder=s.embedder)

    # -- reads ----------------------------------------------------------------------------

    def count(self) -> int:
        return len(self._require().alive_rows)

    def get(self, place_id: str) -> Restaurant | None:
        s = self._require()
        row = s.pid_row.get(place_id)
        if row is None:
            return None
        return s.read_docs([row])[0][0]

    def ids(self) -> list[str]:
        s = self._require()
        pids = s.strings["place_ids"]
        return [pids[r] for r in s.alive_rows.tolist()]

    def stats(self) -> dict[str, Any]:
        s = self._require()
        alive = s.cols["alive"]
        cuisine_counts = np.bincount(s.cols["cuisine"][alive], minlength=len(s.vocab.cuisine))
        return {
            "backend": BACKEND_NAME,
            "directory": str(self.directory),
            "documents": int(alive.sum()),
            "rows": s.n,
            "tombstones": int(s.n - alive.sum()),
            "embedder": dict(s.meta["embedder"]),
            "fusion": self.settings.fusion,
            "with_coordinates": int((~np.isnan(s.cols["lat"]) & alive).sum()),
            "with_hours": int((s.cols["hours_known"] & alive).sum()),
            "with_prices": int(((s.cols["price_count"] > 0) & alive).sum()),
            "cuisines": {
                s.vocab.cuisine_display[i]: int(c) for i, c in enumerate(cuisine_counts.tolist()) if c
            },
            "convenience_values": len(s.vocab.conv),
            "sub_categories": len(s.vocab.sub),
            "tantivy_segments": s.searcher.num_segments,
            "disk_bytes": _dir_bytes(s.directory),
            "built_at": s.meta.get("built_at"),
            "updated_at": s.meta.get("updated_at"),
            "build_seconds": s.meta.get("build_seconds"),
            "load_seconds": round(self.load_seconds, 3) if self.load_seconds is not None else None,
        }

    # -- search ---------------------------------------------------------------------------

    def search(self, req: SearchRequest, mode: SearchMode = "hybrid") -> SearchResponse:
        """Search. ``mode`` is a backend knob for ablations and benchmarks: "bm25" or "vector"
        ranks text with that list alone (filters and scores are unchanged)."""
        started = time.perf_counter()
        s = self._require()
        idx, dist = self._candidates(s, req)
        total = len(idx)
        hits: list[SearchHit] = []
        if total:
            source = _Candidates(self, s, req, idx, dist)
            hits = rank(source, req, total, mode=mode, settings=self.settings, clock=self._clock or self._now)
        return SearchResponse(
            hits=hits,
            total_candidates=total,
            took_ms=round((time.perf_counter() - started) * 1000, 3),
            backend=BACKEND_NAME,
            embedder=self.embedder.name,
        )

    # hard filters -------------------------------------------------------------------------

    def _candidates(self, s: _Snapshot, req: SearchRequest) -> tuple[IntArray, FloatArray | None]:
        """Rows passing every hard filter (ascending) and, with geo, their distances."""
        cols = s.cols
        empty = np.zeros(0, np.int64), (np.zeros(0) if req.geo else None)
        # 1. cheap whole-column tests, combined into one mask
        mask: BoolArray | None = None

        def both(m: BoolArray) -> None:
            nonlocal mask
            mask = m if mask is None else mask & m

        if req.geo is not None:
            min_lat, max_lat, min_lon, max_lon = bounding_box(req.geo.lat, req.geo.lon, req.geo.radius_m)
            lat, lon = cols["lat"], cols["lon"]
            both((lat >= min_lat) & (lat <= max_lat) & (lon >= min_lon) & (lon <= max_lon))
        if req.near_any:
            boxes = [bounding_box(c.lat, c.lon, c.radius_m) for c in req.near_any]
            lat, lon = cols["lat"], cols["lon"]
            both(
                (lat >= min(b[0] for b in boxes))
                & (lat <= max(b[1] for b in boxes))
                & (lon >= min(b[2] for b in boxes))
                & (lon <= max(b[3] for b in boxes))
            )
        if req.cuisine:
            codes = [c for c in (s.vocab.lookup("cuisine", v) for v in req.cuisine) if c is not None]
            if not codes:
                return empty
            lut = np.zeros(len(s.vocab.cuisine) + 1, dtype=np.bool_)
            lut[codes] = True
            both(lut[cols["cuisine"]])
        if req.sub_category:
            codes = self._sub_codes(s, req.sub_category)
            if not codes:
                return empty
            lut = np.zeros(len(s.vocab.sub) + 1, dtype=np.bool_)  # code -1 (none) hits the last slot
            lut[codes] = True
            both(lut[cols["sub"]])
        if req.convenience:
            need = np.zeros(cols["conv_bits"].shape[1], dtype=np.uint64)
            for v in req.convenience:
                c = s.vocab.lookup("conv", v)
                if c is None or c // 64 >= len(need):
                    return empty
                need[c // 64] |= np.uint64(1) << np.uint64(c % 64)
            for w in np.flatnonzero(need).tolist():
                both((cols["conv_bits"][:, w] & need[w]) == need[w])
        idx: IntArray = (
            s.alive_rows if mask is None else np.flatnonzero(mask & cols["alive"]).astype(np.int64)
        )
        dist: FloatArray | None = None

        def keep(m: BoolArray) -> None:
            nonlocal idx, dist
            idx = idx[m]
            if dist is not None:
                dist = dist[m]

        # 2. exact tests on the survivors
        if req.geo is not None:
            dist = haversine_m_array(req.geo.lat, req.geo.lon, cols["lat"][idx], cols["lon"][idx])
            keep(dist <= req.geo.radius_m)
        if req.price is not None:
            lo, hi = req.price.low, req.price.high
            pmin, pmax = cols["price_min"][idx], cols["price_max"][idx]
            keep((pmin <= hi) & (pmax >= lo))
            pmin, pmax = cols["price_min"][idx], cols["price_max"][idx]
            sure = ((pmin >= lo) & (pmin <= hi)) | ((pmax >= lo) & (pmax <= hi))
            if not sure.all():
                ok = sure.copy()
                unsure = np.flatnonzero(~sure)
                ok[unsure] = _any_price_in(cols["price_val"], s.price_off, idx[unsure], lo, hi)
                keep(ok)
        if req.exclude_ids:
            gone = [s.pid_row[p] for p in req.exclude_ids if p in s.pid_row]
            if gone:
                keep(~np.isin(idx, gone))
        if req.title is not None:
            keep(self._title_mask(s, req.title, idx))
        if req.menu:
            for term in req.menu:
                keep(self._menu_mask(s, term, idx))
        if req.kind:
            keep(self._kind_mask(s, req.kind, idx))
        if req.near_any and len(idx):
            # after the kind: a route's circles are many, the rows of a kind along it few
            rest = np.arange(len(idx))
            inside = np.zeros(len(idx), dtype=np.bool_)
            for circle in req.near_any:
                if not len(rest):
                    break
                near = haversine_m_array(
                    circle.lat, circle.lon, cols["lat"][idx[rest]], cols["lon"][idx[rest]]
                )
                hit = near <= circle.radius_m
                inside[rest[hit]] = True
                rest = rest[~hit]  # a row inside one circle needs no other
            keep(inside)
        if req.exclude_kind:
            keep(~self._kind_mask(s, req.exclude_kind, idx))
        if req.exclude_cuisine:
            codes = [c for c in (s.vocab.lookup("cuisine", v) for v in req.exclude_cuisine) if c is not None]
            if codes:
                keep(~np.isin(cols["cuisine"][idx], codes))
        for term in req.exclude_menu:
            keep(~self._menu_mask(s, term, idx))
        if req.exclude_title:
            keys = [normalize_key(t) for t in req.exclude_title if normalize_key(t)]
            titles = s.strings["title_keys"]
            keep(
                np.fromiter((not any(k in titles[r] for k in keys) for r in idx.tolist()), np.bool_, len(idx))
            )
        if req.region is not None:
            keep(self._region_mask(s, req, idx))
        if req.open_at is not None:
            status = self._open_window(s, req.open_at)[idx]
            keep((status == 1) | ((status == -1) & req.open_at.include_unknown))
        return idx, dist

    @staticmethod
    def _sub_codes(s: _Snapshot, values: Sequence[str]) -> list[int]:
        keys = [normalize_key(v) for v in values]
        return [i for i, sub in enumerate(s.vocab.sub) if sub and any(k and k in sub for k in keys)]

    def _string_mask(
        self,
        s: _Snapshot,
        key: object,
        idx: IntArray,
        pred: Callable[[int], bool],
        all_rows: Callable[[], IntArray],
    ) -> BoolArray:
        """``pred`` on each candidate when they are few; otherwise a whole-index mask built from
        ``all_rows()`` (a substring search over the joined column) and kept in the LRU cache."""
        full = s.cache.get(key)
        if full is None and len(idx) > self.py_check_max:
            full = np.zeros(s.n, dtype=np.bool_)
            full[all_rows()] = True
            s.cache.put(key, full)
        if full is not None:
            out: BoolArray = full[idx]
            return out
        return np.fromiter((pred(r) for r in idx.tolist()), dtype=np.bool_, count=len(idx))

    def _title_mask(self, s: _Snapshot, title: str, idx: IntArray) -> BoolArray:
        words = title_words(title)
        longest = max(words, key=len) if words else ""
        titles, keys = s.strings["titles"], s.strings["title_keys"]

        def pred(r: int) -> bool:
            return longest in keys[r] and title_matches(titles[r], title)

        def all_rows() -> IntArray:
            rows = s.blob("title_keys").find(longest)  # every match contains its longest word
            return np.asarray([r for r in rows.tolist() if title_matches(titles[r], title)], dtype=np.int64)

        return self._string_mask(s, ("title", title), idx, pred, all_rows)

    @staticmethod
    def _kind_mask(s: _Snapshot, values: Sequence[str], idx: IntArray) -> BoolArray:
        """Rows of ``idx`` of any of the kinds; each kind's rows are found once per snapshot."""
        rows: list[IntArray] = []
        for v in values:
            key = _SEP + normalize_key(v) + _SEP
            hit = s.cache.get(("kind", key))
            if hit is None:
                kinds = s.strings["kind_keys"]
                hit = np.fromiter((i for i, t in enumerate(kinds) if key in t), np.int64)
                s.cache.put(("kind", key), hit)
            rows.append(hit)
        if not rows:
            return np.zeros(len(idx), dtype=np.bool_)
        return np.isin(idx, np.concatenate(rows))

    def _menu_mask(self, s: _Snapshot, term: str, idx: IntArray) -> BoolArray:
        key = normalize_key(term)
        menus = s.strings["menu_keys"]

        def pred(r: int) -> bool:
            return key in menus[r]

        def all_rows() -> IntArray:
            entries = s.blob("menu_vocab").find(key)  # distinct entries, then their rows
            if not len(entries):
                return np.zeros(0, np.int64)
            pairs, off = s.cols["menu_pairs"], s.menu_off
            return np.concatenate([pairs[off[e] : off[e + 1], 1] for e in entries.tolist()])

        return self._string_mask(s, ("menu", key), idx, pred, all_rows)

    def _region_mask(self, s: _Snapshot, req: SearchRequest, idx: IntArray) -> BoolArray:
        region = req.region
        assert region is not None
        needles = [" " + normalize_phrase(t) for t in region.terms if t.strip()]
        addrs = s.strings["addr_keys"]

        def pred(r: int) -> bool:
            a = addrs[r]
            return any(n in a for n in needles)

        def all_rows() -> IntArray:
            found = [s.blob("addr_keys").find(n) for n in needles]
            return np.concatenate(found) if found else np.zeros(0, np.int64)

        mask = self._string_mask(s, ("region", tuple(needles)), idx, pred, all_rows)
        if region.polygon_place:
            place = polygon_place(region.polygon_place)
            if place is not None:
                from matjip.geo import get_gazetteer

                rest = np.flatnonzero(~mask)
                inside = get_gazetteer().contains_points(
                    place, s.cols["lat"][idx[rest]], s.cols["lon"][idx[rest]]
                )
                if inside is not None:
                    mask = mask.copy()
                    mask[rest[np.asarray(inside, dtype=np.bool_)]] = True
        return mask

    def _open_window(self, s: _Snapshot, open_at: OpenAt) -> npt.NDArray[np.int8]:
        """Per row over the filter's instants: 1 open at one of them, 0 closed at all, -1 unknown."""
        out: npt.NDArray[np.int8] | None = None
        for when in open_at.instants():
            st = self._open_status(s, when)
            out = st if out is None else np.maximum(out, st)
        assert out is not None
        return out

    def _open_status(self, s: _Snapshot, when: datetime) -> npt.NDArray[np.int8]:
        """Per row: 1 open, 0 closed, -1 unknown — :meth:`WeeklySchedule.is_open`, vectorised."""
        when = when.astimezone(self.timezone)
        wd = when.weekday()
        minute = when.hour * 60 + when.minute
        key = ("open", wd, minute)
        hit = s.cache.get(key)
        if hit is not None:
            cached: npt.NDArray[np.int8] = hit
            return cached
        (o, o_off), (b, b_off) = s.by_day("open_iv"), s.by_day("break_iv")
        today = np.zeros(s.n, dtype=np.bool_)
        o_today = o[o_off[wd] : o_off[wd + 1]]
        today[o_today[(o_today[:, 2] <= minute) & (minute < o_today[:, 3]), 0]] = True
        in_break = np.zeros(s.n, dtype=np.bool_)
        b_today = b[b_off[wd] : b_off[wd + 1]]
        in_break[b_today[(b_today[:, 2] <= minute) & (minute < b_today[:, 3]), 0]] = True
        overnight = np.zeros(s.n, dtype=np.bool_)
        yd = (wd - 1) % 7
        o_yday = o[o_off[yd] : o_off[yd + 1]]
        overnight[o_yday[(o_yday[:, 3] > 1440) & (minute + 1440 < o_yday[:, 3]), 0]] = True
        is_open = (today & ~in_break) | overnight
        status = np.where(s.cols["hours_known"], is_open.astype(np.int8), np.int8(-1)).astype(np.int8)
        s.cache.put(key, status)
        return status

    # ranking ----------------------------------------------------------------------------

    def _bm25(
        self, s: _Snapshot, terms: Sequence[str], req: SearchRequest, idx: IntArray
    ) -> tuple[IntArray, FloatArray]:
        """The best ``bm25_depth`` BM25 hits inside the candidates ``idx`` (exact), best first."""
        depth, first_fetch = self.bm25_depth, self.first_fetch
        schema = s.schema
        text_q = tantivy.Query.boolean_query(
            [(tantivy.Occur.Should, tantivy.Query.term_query(schema, "body", t)) for t in terms]
        )
        inside_share = len(idx) / max(1, len(s.alive_rows))  # of the hits, expected inside C
        if len(idx) <= self.row_set_max and len(idx) < len(s.alive_rows):
            restrict = [tantivy.Query.term_set_query(schema, "row", idx.tolist())]
            inside_share = 1.0
        else:
            restrict = self._restrictions(s, req)
        query = text_q
        if restrict:
            query = tantivy.Query.boolean_query(
                [(tantivy.Occur.Must, text_q)]
                + [(tantivy.Occur.Must, tantivy.Query.const_score_query(q, 0.0)) for q in restrict]
            )
        member = np.zeros(s.n, dtype=np.bool_)
        member[idx] = True
        # The first page: enough for `depth` hits inside C if C's share of the hits is its
        # share of the index (a restriction only raises it), with a margin; at most `first_fetch`.
        # It is only a guess for speed: while a full page holds fewer than `depth` hits
        # inside C, the next page is read (offset paging, so no hit is converted twice), the
        # total read growing x4 per page, until the best `depth` inside C are certain (every
        # unread hit scores no higher) or every match was read.
        limit = min(first_fetch, max(depth, math.ceil(1.5 * depth / max(inside_share, 1e-9)) + 32))
        offset = 0
        total_docs = max(1, s.searcher.num_docs)
        found = 0
        row_pages: list[IntArray] = []
        score_pages: list[FloatArray] = []
        while True:
            hits = s.searcher.search(query, limit=limit, offset=offset, count=False).hits
            rows = np.asarray(
                s.searcher.fast_field_values("row", [a for _, a in hits]), dtype=np.int64
            ).reshape(-1)
            scores = np.asarray([sc for sc, _ in hits], dtype=np.float64)
            valid = rows < s.n
            inside = np.zeros(len(rows), dtype=np.bool_)
            inside[valid] = member[rows[valid]]
            row_pages.append(rows[inside])
            score_pages.append(scores[inside])
            found += int(inside.sum())
            if len(hits) < limit or found >= depth or offset + limit >= total_docs:
                break
            offset += limit
            limit = 3 * offset
        if len(row_pages) == 1:
            return row_pages[0][:depth], score_pages[0][:depth]
        return np.concatenate(row_pages)[:depth], np.concatenate(score_pages)[:depth]

    def _restrictions(self, s: _Snapshot, req: SearchRequest) -> list[tantivy.Query]:
        """Coarse tantivy clauses implied by the hard filters (each a superset of the exact one)."""
        schema = s.schema
        out: list[tantivy.Query] = []

        def any_of(values: Sequence[str]) -> tantivy.Query:
            return tantivy.Query.term_set_query(schema, "filt", list(values))

        if req.geo is not None:
            cells = _query_cells(req.geo.lat, req.geo.lon, req.geo.radius_m, s.meta["geo_levels"])
            if cells:
                out.append(any_of(cells))
        if req.cuisine:
            codes = [c for c in (s.vocab.lookup("cuisine", v) for v in req.cuisine) if c is not None]
            out.append(any_of([f"cu:{s.vocab.cuisine[c]}" for c in codes]))
        if req.sub_category:
            out.append(any_of([f"sb:{s.vocab.sub[c]}" for c in self._sub_codes(s, req.sub_category)]))
        for v in req.convenience:
            out.append(tantivy.Query.term_query(schema, "filt", f"cv:{normalize_key(v)}"))

        def all_bigrams(prefix: str, text: str) -> tantivy.Query | None:
            grams = sorted(_bigrams([text]))
            if not grams:
                return None
            return tantivy.Query.boolean_query(
                [(tantivy.Occur.Must, tantivy.Query.term_query(schema, "filt", prefix + g)) for g in grams]
            )

        # substring filters: a row passing one has every bigram of the needle (single characters
        # have none and add no clause)
        for term in req.menu:
            q = all_bigrams("mb:", normalize_key(term))
            if q is not None:
                out.append(q)
        if req.title is not None:
            words = title_words(req.title)
            q = all_bigrams("tb:", max(words, key=len)) if words else None
            if q is not None:
                out.append(q)
        if req.region is not None and not req.region.polygon_place:
            alternatives = [all_bigrams("ab:", " " + normalize_phrase(t)) for t in req.region.terms]
            if alternatives and all(a is not None for a in alternatives):
                out.append(
                    tantivy.Query.boolean_query([(tantivy.Occur.Should, a) for a in alternatives if a])
                )
        return out

    def _vector(
        self, s: _Snapshot, qv: npt.NDArray[np.float32], idx: IntArray
    ) -> tuple[IntArray, FloatArray]:
        # einsum, not BLAS: a threaded gemv is no faster here (memory-bound) and collapses when
        # the cores are shared with other requests or processes (measured 0.3 ms -> 8 ms).
        # (Splitting the whole-matrix scan over Python threads: 9 -> 7 ms alone on 2 cores, but
        # -5-10% throughput and a worse p95 with concurrent searches; not done.)
        # Above ~a quarter of the rows, one pass over the whole matrix (~7 ms at 100k x 256)
        # beats gathering the rows (random 1 KB rows cost ~3x per row, measured at 100k).
        if len(idx) > s.n // 4:
            sims = np.einsum("ij,j->i", s.vectors, qv)[idx].astype(np.float64)
        else:
            sims = np.einsum("ij,j->i", np.take(s.vectors, idx, axis=0), qv).astype(np.float64)
        depth = min(VECTOR_DEPTH, len(idx))
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

    def _by_prior(
        self,
        s: _Snapshot,
        idx: IntArray,
        dist: FloatArray | None,
        k: int,
        boost: BoolArray | None = None,
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


class _Candidates:
    """The candidates of one request in one snapshot: the :class:`~matjip.index.ranking.CandidateSource`
    the shared ranking reads."""

    def __init__(
        self, index: EmbeddedIndex, s: _Snapshot, req: SearchRequest, idx: IntArray, dist: FloatArray | None
    ) -> None:
        self.index = index
        self.s = s
        self.req = req
        self.idx = idx
        self.dist = dist
        self._boost: BoolArray | None = None

    @property
    def embedder(self) -> Embedder:
        embedder: Embedder = self.s.embedder
        return embedder

    @property
    def dim(self) -> int:
        return int(self.s.vectors.shape[1])

    def bm25(self, terms: Sequence[str]) -> fusion.Ranked:
        return self.index._bm25(self.s, terms, self.req, self.idx)

    def vector(self, qv: npt.NDArray[np.float32]) -> fusion.Ranked:
        return self.index._vector(self.s, qv, self.idx)

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
        return [int(r) for r in idx[self.index._by_prior(self.s, idx, dist, k, boost)].tolist()]

    def _title_boost(self) -> BoolArray | None:
        """Per candidate: does its title match the request's title exactly (ranked first)?"""
        title = self.req.title
        if title is None:
            return None
        if self._boost is None:
            titles, idx = self.s.strings["titles"], self.idx
            self._boost = np.fromiter(
                (title_exact(titles[r], title) for r in idx.tolist()), np.bool_, len(idx)
            )
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
        return [
            HitRow(doc, terms, s.vectors[r], float(s.cols["prior"][r]), dist_of.get(r))
            for r, (doc, terms) in zip(rows, s.read_docs(rows), strict=True)
        ]
