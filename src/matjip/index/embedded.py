"""The embedded search backend: exact numpy filters, tantivy BM25, numpy vectors, fused — one
directory, loaded into the process. :class:`EmbeddedIndex` composes the modules that do the work:

=============================================  ===============================================
:mod:`~matjip.index.columns`                   a document as one row: filter columns, strings,
                                               tantivy filter terms; value vocabularies
:mod:`~matjip.index.storage`                   the files of a version; reading one as a snapshot
:mod:`~matjip.index.writer`                    writing a version: a build, an append, a delete
:mod:`~matjip.index.snapshot`                  the immutable state one search reads
:mod:`~matjip.index.filters`                   the hard filters: the candidate set C
:mod:`~matjip.index.bm25`                      exact BM25 inside C (tantivy, paged)
:mod:`~matjip.index.vectors`                   exact cosine inside C (numpy)
:mod:`~matjip.index.embedded_candidates`       C as the ranking's candidate source
:mod:`~matjip.index.ranking`                   the ranking, shared with the PostgreSQL backend
:mod:`~matjip.index.layout`                    versions on disk: pointer, pins, manifest
=============================================  ===============================================

Layout of an index directory::

    meta.json        format version, embedder name + dim, row count, vocabularies, timestamps
    columns.npz      per-row filter columns (coordinates, codes, bitmasks, prices, hours, prior),
                     where each row's strings start, the alive rows by place id
    strings.u8       per-row strings (place ids, titles, normalised menu and address text),
                     memory-mapped; strings.json names their layout (:mod:`~matjip.index.strings`)
    docs.tsv         one line per row: BM25 terms, a tab, the document JSON (read for hits only)
    vectors.f32      row-major float32 unit vectors (memory-mapped; with vectors.i8, its rows are
                     read by pread, so its pages stay out of the process's resident set)
    vectors.q8       the same, int8 and dimension-major, with vectors.q8scale (optional)
    vectors.i8       the same int8 codes row-major (optional)
    vectors.sign     one sign bit per dimension (minus vectors.center), for dense queries (optional)
    tantivy/         BM25 over pre-analysed terms ("whitespace" tokenizer), a ``row`` fast field
    embedder/        whatever the embedder saved after ``fit``

Rows are append-only: an upsert writes a new row and tombstones the old one (``alive``), a
delete tombstones. A rebuild (:meth:`EmbeddedIndex.build`) compacts.

Search (see :meth:`EmbeddedIndex.search`):

1. **Hard filters, exact, in numpy** (:mod:`~matjip.index.filters`). Geo: bounding-box prefilter
   on the coordinate columns, then haversine on the box only. Cuisine and sub-category: integer
   codes. Convenience: a bitmask (all-of). Price: a per-row bitmask of 5,000-won price buckets
   decides every row with a price in a bucket inside the band (or none in a bucket it touches);
   the rest get the per-row min/max, then an exact per-menu check (vectorised over the menu
   prices). Title, menu
   and region: the plain-Python predicates of :mod:`matjip.index.reference` on the candidates
   when they are few, else a whole-index mask (vectorised substring search over the column's
   joined text — for menus over the distinct entries, then their rows), kept in a per-snapshot
   LRU cache. Opening hours: an interval table (grouped by day) evaluated vectorised, cached per
   minute of the week. The result is the candidate set C (``total_candidates``).
2. **BM25 (tantivy) without letting filters change it** (:mod:`~matjip.index.bm25`): index-wide
   statistics, filters as constant-score-0 clauses (geo cells, codes, bigrams of substring
   filters, the price buckets a band touches), hits intersected with C, pages read until the
   best ``BM25_DEPTH`` inside C are certain — the BM25 list over C is exact, never a sample.
3. **Vectors** (:mod:`~matjip.index.vectors`). Cosine (dot of unit vectors) over the rows of C
   only (above a quarter of the rows, one pass over the whole matrix); top ``VECTOR_DEPTH``. A
   sparse query vector over many candidates reads the int8 dimension-major copy
   (:mod:`~matjip.index.quantized`) of its non-zero dimensions first and scores exactly only the
   candidates whose error bound lets them reach the top: the same list, a fraction of the reads.
   When its weights are small integer multiples of one step (the hash embedder's), the codes are
   summed exactly in int16 and the rows narrowed by those sums before any float bound. A
   dense query vector (the default embedder's) over ≥ 32k candidates reads one sign bit per
   dimension (:mod:`~matjip.index.signs`) and scores exactly the 16k nearest by weighted sign
   mismatches: an approximation (recall@50 0.993 against the exact scan at 1M, README). With
   the row-major codes (``vectors.i8``) the candidates left are scored from them with an error
   bound and only those that can reach the top (a few hundred at 1M) are read from
   ``vectors.f32``, by ``pread``: the same list as scoring them all exactly.
4. **Fusion and ranking** (:func:`matjip.index.ranking.rank`, the same in both backends): RRF
   (k = settings.rrf_k) or a min-max convex combination (settings.weight_bm25 / weight_vector),
   chosen by settings.fusion. Candidates in neither list follow by prior. Without text,
   candidates are ranked by the prior (:func:`matjip.index.ranking.trust`: reviews, rating with
   its count, the '맛' tag, complete information; exact title matches first) or by distance for
   ``sort="distance"``; ties go to the nearer one.
5. **Scores** are mapped to [0, 1] as documented on :class:`matjip.index.request.SearchHit`.
"""

from __future__ import annotations

import copy
import threading
import time
import weakref
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import numpy as np

from matjip.documents import Restaurant
from matjip.errors import IndexDamagedError, IndexNotBuiltError, SearchIndexError
from matjip.index import layout, writer
from matjip.index.analyzer import query_terms
from matjip.index.backend import BuildProgress
from matjip.index.bm25 import FIRST_FETCH, ROW_SET_MAX
from matjip.index.embed.base import Embedder
from matjip.index.embedded_candidates import EmbeddedCandidates
from matjip.index.filters import PY_CHECK_MAX, candidates
from matjip.index.ranking import BM25_DEPTH, SearchMode, rank
from matjip.index.request import SearchHit, SearchRequest, SearchResponse
from matjip.index.snapshot import Snapshot
from matjip.index.storage import BACKEND_NAME, dir_bytes, read_snapshot
from matjip.index.vectors import SCAN_MIN
from matjip.settings import Settings

__all__ = ["BACKEND_NAME", "BM25_DEPTH", "BuildProgress", "EmbeddedIndex", "SearchMode"]


def _fork(embedder: Embedder) -> Embedder:
    """A copy of ``embedder`` whose learnt state can be replaced (``load``) without touching the
    original, which searches on the previous version keep using."""
    twin = copy.copy(embedder)
    parts = getattr(twin, "parts", None)
    if isinstance(parts, list):
        twin.parts = [_fork(p) for p in parts]  # type: ignore[attr-defined]
    return twin


_PINNED: ContextVar[tuple[int, Snapshot] | None] = ContextVar("matjip_pinned_snapshot", default=None)
"""The snapshot a turn reads (:meth:`EmbeddedIndex.pinned`), with the index it belongs to."""


class EmbeddedIndex:
    """The default search backend: one directory, loaded into the process.

    ``EmbeddedIndex(directory, embedder, settings)`` is inert; call :meth:`build` (from documents) or
    :meth:`load` (from disk) before searching. The keyword-only arguments tune the search's code
    paths (defaults: the constants of the same names in :mod:`~matjip.index.ranking`,
    :mod:`~matjip.index.bm25`, :mod:`~matjip.index.filters` and :mod:`~matjip.index.vectors`);
    results do not depend on them,
    except that ``bm25_depth`` is how many BM25 hits take part in fusion. Searches may run
    concurrently from many threads; writes (:meth:`upsert`, :meth:`delete`) are serialised and swap in a new snapshot atomically.
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
        scan_min: int = SCAN_MIN,
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
        self.scan_min = scan_min
        self._snap: Snapshot | None = None
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
        final = self.directory
        final.parent.mkdir(parents=True, exist_ok=True)
        layout.cleanup(final)
        tmp = layout.new_version_dir(final)
        writer.write_build(tmp, docs, self.embedder, progress, state)
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
            snap = read_snapshot(d, restore_embedder, embedder or self.embedder)
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

    def _require(self) -> Snapshot:
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
            for name in ("addr_keys", "menu_vocab", "title_keys", "kind_keys"):  # substring search texts
                self._snap.blob(name)
            for name in ("open_iv", "break_iv"):  # opening hours by day
                self._snap.by_day(name)
            self._snap.price_bits()  # menu-price buckets
            self._snap.by_latitude()  # geo boxes as a slice of the rows by latitude
            self._snap.cache_vectors()  # the float rows re-scored by pread: cached pages, not disk
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
            self._commit(s, d, writer.append_docs(s, d, batch, self.embedder), state)
            return len(batch)

    def delete(self, ids: Iterable[str]) -> int:
        with self._write_lock:
            s = self._require()
            rows = [(pid, s.pid_row[pid]) for pid in dict.fromkeys(ids) if pid in s.pid_row]
            if not rows:
                return 0
            d = layout.copy_version(s.directory, self.directory)
            self._commit(s, d, writer.tombstone(s, d, rows))
            return len(rows)

    def _commit(
        self, s: Snapshot, d: Path, version: writer.Version, state: dict[str, Any] | None = None
    ) -> None:
        """Finish the new version ``d`` (manifest last), switch to it, load it."""
        writer.finish_version(s, d, version, state)
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
            "disk_bytes": dir_bytes(s.directory),
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
        idx, dist = candidates(s, req, self.timezone, self.py_check_max)
        total = len(idx)
        hits: list[SearchHit] = []
        if total:
            source = EmbeddedCandidates(
                s, req, idx, dist, self.bm25_depth, self.first_fetch, self.row_set_max, self.scan_min
            )
            hits = rank(source, req, total, mode=mode, settings=self.settings, clock=self._clock or self._now)
        return SearchResponse(
            hits=hits,
            total_candidates=total,
            took_ms=round((time.perf_counter() - started) * 1000, 3),
            backend=BACKEND_NAME,
            embedder=self.embedder.name,
        )
