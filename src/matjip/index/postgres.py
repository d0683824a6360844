"""The PostgreSQL search backend: the :class:`~matjip.index.backend.SearchBackend` of the embedded
index, over one database that many API workers share.

- **Schema** by the append-only migrations of :mod:`matjip.index.pg_sql` (extensions ``cube``,
  ``earthdistance``, ``vector``); every statement comes from that module's whitelist, every value
  is a bound parameter.
- **Hard filters, exact, in SQL**, clause for clause the predicates of
  :mod:`matjip.index.reference`: geo by ``earth_box`` on a GiST index over ``ll_to_earth`` (a
  superset), then the exact haversine; kinds and conveniences as GIN-indexed ``text[]``; menu,
  title parts and addresses as substring tests over the same normalised keys the embedded index
  keeps; opening hours as an ``int4multirange`` of the open minutes of the week, built at ingest
  by the rule of :meth:`WeeklySchedule.is_open`; a region's outline test runs in Python on the
  coordinates and enters the query as a bound array of rows.
- **BM25** over the same Kiwi morphemes (``terms text[]`` with per-term frequencies, GIN), with
  tantivy's formula (k1 1.2, b 0.75, its field-norm buckets, average length over the documents),
  so both backends score alike; the SQL orders by a double-precision score and the best
  ``BM25_DEPTH`` (+ a margin) are re-scored here in float32 as tantivy does.
- **Vectors** with pgvector: exact inner-product search over the filtered rows (no approximate
  index, so filters never lose hits), the best ``VECTOR_DEPTH`` (+ a margin) re-scored here.
- **Ranking, fusion and scores**: :func:`matjip.index.ranking.rank`, shared with the embedded
  backend, over this module's candidate source (the filtered rows as SQL: BM25, vectors, nearest,
  by prior, distances, hit rows), so both return the same ranking.
- **Read replicas** (``MATJIP_DATABASE_READ_URLS``): reads (search, count, get, stats) go round
  robin to streaming replicas, each read one ``REPEATABLE READ`` snapshot in which the index meta is
  read with the rows, so a replica replaying a new version never mixes two; a replica that fails is
  skipped until a background probe reaches it again, one behind this process's own writes or behind
  the index build its embedder was loaded from is passed over, and when none answers the primary
  serves (logged).
  Writes (build, upsert, delete) and :meth:`PostgresIndex.load` always use the primary.

Row order (``seq``) is insertion order, as the embedded index's rows are.
"""

from __future__ import annotations

import itertools
import logging
import math
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

import numpy as np
import numpy.typing as npt

from matjip.documents import Restaurant
from matjip.errors import ConfigurationError, EmbedderMismatchError, IndexNotBuiltError
from matjip.index import fusion, pg_sql
from matjip.index.analyzer import analyze_documents, embedding_text, query_terms
from matjip.index.backend import BuildProgress
from matjip.index.batches import batched
from matjip.index.embed.base import Embedder
from matjip.index.ranking import BM25_DEPTH, VECTOR_DEPTH, HitRow, SearchMode, rank, trust
from matjip.index.reference import (
    BRANCH_SUFFIXES,
    MAX_BRANCH_CHARS,
    menu_entries,
    normalize_key,
    normalize_phrase,
    polygon_place,
    title_words,
)
from matjip.index.request import SearchHit, SearchRequest, SearchResponse
from matjip.settings import Settings, secret

log = logging.getLogger(__name__)

BACKEND_NAME = "postgres"
DF_CACHE = 50_000  # terms whose document frequency is kept per index version
DF_VERSIONS = 4  # index versions whose frequencies are kept (replicas may be at different ones)
REPLICA_WAIT_S = 1.0  # the longest a read waits for a replica's connection before going elsewhere
REPLICA_RETRY_S = 5.0  # a replica that failed is probed every so often until it answers again
MARGIN = 32  # extra rows read past a cut, re-ordered here exactly
COPY_BATCH = 1000
K1 = np.float32(1.2)
B = np.float32(0.75)
WEEK = 7 * 1440
_SEP = "\x1f"

# tantivy's field-norm buckets (src/fieldnorm/code.rs): a document length is stored as the
# largest bucket value not above it
FIELD_NORMS: tuple[int, ...] = (
    *range(41),
    *(42, 44, 46, 48, 50, 52, 54, 56, 60, 64, 68, 72, 76, 80, 84, 88, 96, 104, 112, 120, 128, 136, 144),
    *(152, 168, 184, 200, 216, 232, 248, 264, 280, 312, 344, 376, 408, 440, 472, 504, 536, 600, 664),
    *(728, 792, 856, 920, 984, 1048, 1176, 1304, 1432, 1560, 1688, 1816, 1944, 2072, 2328, 2584, 2840),
    *(3096, 3352, 3608, 3864, 4120, 4632, 5144, 5656, 6168, 6680, 7192, 7704, 8216, 9240, 10264, 11288),
    *(12312, 13336, 14360, 15384, 16408, 18456, 20504, 22552, 24600, 26648, 28696, 30744, 32792, 36888),
    *(40984, 45080, 49176, 53272, 57368, 61464, 65560, 73752, 81944, 90136, 98328, 106520, 114712),
)
_NORMS = np.asarray(FIELD_NORMS, dtype=np.int64)

FloatArray = npt.NDArray[np.float64]


def fieldnorm(length: int) -> int:
    """The decoded tantivy field norm of a document of ``length`` tokens."""
    return int(_NORMS[int(np.searchsorted(_NORMS, length, side="right")) - 1])


def idf(doc_freq: int, docs: int) -> np.float32:
    """tantivy's BM25 idf, in float32."""
    x = (np.float32(docs - doc_freq) + np.float32(0.5)) / (np.float32(doc_freq) + np.float32(0.5))
    return np.float32(np.log(np.float32(1.0) + x))


def open_minutes(doc: Restaurant) -> tuple[bool, list[tuple[int, int]]]:
    """Whether the hours are known, and the minutes of the week (Monday 00:00 = 0) when the place
    is open, as disjoint sorted ranges [lo, hi) — :meth:`WeeklySchedule.is_open` for every minute:
    a day's ranges minus that day's breaks, plus past-midnight parts of the day before."""
    h = doc.hours
    if h is None or not h.parsed or not h.days:
        return False, []
    spans: list[tuple[int, int]] = []
    for day, dh in h.days.items():
        base = int(day) * 1440
        breaks = sorted((b.start, min(b.end, 1440)) for b in dh.breaks if b.start < min(b.end, 1440))
        for r in dh.open:
            lo, hi = r.start, min(r.end, 1440)
            pieces = [(lo, hi)] if lo < hi else []
            for bs, be in breaks:
                nxt: list[tuple[int, int]] = []
                for a, c in pieces:
                    if be <= a or bs >= c:
                        nxt.append((a, c))
                        continue
                    if a < bs:
                        nxt.append((a, bs))
                    if be < c:
                        nxt.append((be, c))
                pieces = nxt
            spans.extend((base + a, base + c) for a, c in pieces)
            if r.end > 1440:  # past midnight: the next day from 00:00
                nb = ((int(day) + 1) % 7) * 1440
                spans.append((nb, nb + min(r.end - 1440, 1440)))
    spans.sort()
    merged: list[tuple[int, int]] = []
    for a, c in spans:
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], c))
        else:
            merged.append((a, c))
    return True, merged


def _multirange(spans: Sequence[tuple[int, int]]) -> str:
    return "{" + ",".join(f"[{a},{c})" for a, c in spans) + "}"


def _vector_text(v: npt.NDArray[np.float32]) -> str:
    return "[" + ",".join(repr(float(x)) for x in v.tolist()) + "]"


def doc_row(doc: Restaurant, terms: Sequence[str], vector: npt.NDArray[np.float32]) -> tuple[Any, ...]:
    """The ``matjip_docs`` row of a document (the columns of :data:`pg_sql.COPY_DOCS`, in order)."""
    lat, lon = doc.lat, doc.lon
    has_geo = lat is not None and lon is not None and math.isfinite(lat) and math.isfinite(lon)
    words = title_words(doc.title)
    prefixes: list[str] = []
    acc = ""
    for w in words:
        acc += w
        prefixes.append(acc)
    entries = menu_entries(doc)
    addrs = [" " + normalize_phrase(a) for a in (doc.address, doc.road_address) if a.strip()]
    prices = [int(m.price) for m in doc.menus if m.price is not None]
    known, spans = open_minutes(doc)
    counts: dict[str, int] = {}
    for t in terms:
        counts[t] = counts.get(t, 0) + 1
    return (
        doc.place_id,
        doc.model_dump_json(by_alias=True),
        float(lat) if has_geo and lat is not None else None,
        float(lon) if has_geo and lon is not None else None,
        normalize_key(doc.cuisine),
        normalize_key(doc.sub_category or ""),
        sorted({normalize_key(c) for c in doc.convenience if normalize_key(c)}),
        sorted({normalize_key(k) for k in doc.kinds}),
        " ".join(doc.title.split()),
        "".join(words),
        sorted(set(words)),
        prefixes,
        _SEP.join(entries),
        _SEP.join(addrs),
        prices,
        len(prices),
        known,
        _multirange(spans),
        float(np.float32(trust(doc))),
        list(counts),
        list(counts.values()),
        len(terms),
        fieldnorm(len(terms)),
        _vector_text(vector),
    )


def migrate(conn: Any) -> int:
    """Bring the schema up to date (append-only migrations); returns the version."""
    with conn.transaction():
        conn.execute(pg_sql.LOCK_MIGRATIONS, {"key": pg_sql.MIGRATION_LOCK})
        conn.execute(pg_sql.CREATE_VERSION_TABLE)
        row = conn.execute(pg_sql.SCHEMA_VERSION).fetchone()
        version = int(row[0]) if row else 0
        for i, sql in enumerate(pg_sql.MIGRATIONS, start=1):
            if i <= version:
                continue
            conn.execute(sql)
            conn.execute(pg_sql.RECORD_VERSION, {"version": i})
            version = i
    return version


SETUP_LOCK_WAIT_S = 120


def connection_pool(
    url: str,
    settings: Settings,
    *,
    name: str,
    max_size: int,
    kwargs: dict[str, Any] | None = None,
) -> Any:
    """A psycopg pool that survives the database restarting, the same for every pool of matjip:
    a connection is checked before it is handed out (a broken one is dropped and replaced), a
    request waits at most ``database_timeout_s`` for one, a new connection may take at most
    ``database_connect_timeout_s``, and reconnection attempts give up after a few seconds instead
    of backing off for minutes, so the next request after the database is back connects at once."""
    try:
        from psycopg_pool import ConnectionPool
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ConfigurationError("PostgreSQL needs psycopg: pip install 'psycopg[binary,pool]'") from e
    return ConnectionPool(
        url,
        min_size=1,
        max_size=max_size,
        kwargs={"autocommit": True, "connect_timeout": settings.database_connect_timeout_s, **(kwargs or {})},
        check=ConnectionPool.check_connection,
        timeout=settings.database_timeout_s,
        reconnect_timeout=max(1.0, 2 * settings.database_probe_s),
        open=True,
        name=name,
    )


@contextmanager
def setup_lock(conn: Any) -> Iterator[None]:
    """Hold the set-up advisory lock on ``conn`` (autocommit) for the block: workers that start
    together create their tables one after another (``CREATE TABLE IF NOT EXISTS`` and LangGraph's
    migration table both fail when two sessions race on them).

    The lock is polled, never waited on inside a statement: LangGraph's ``CREATE INDEX CONCURRENTLY``
    waits for every open transaction, so a worker blocked in ``pg_advisory_lock`` would deadlock it."""
    deadline = time.monotonic() + SETUP_LOCK_WAIT_S
    while True:
        row = conn.execute(pg_sql.TRY_LOCK_SETUP, {"key": pg_sql.SETUP_LOCK}).fetchone()
        got = row["got"] if isinstance(row, dict) else row[0]
        if got:
            break
        if time.monotonic() > deadline:
            raise TimeoutError(f"another worker held the set-up lock for over {SETUP_LOCK_WAIT_S} s")
        time.sleep(0.05)
    try:
        yield
    finally:
        conn.execute(pg_sql.UNLOCK_SETUP, {"key": pg_sql.SETUP_LOCK})


def read_urls(settings: Settings) -> list[str]:
    """The replica URLs of ``MATJIP_DATABASE_READ_URLS`` (comma-separated), in order."""
    return [u.strip() for u in (secret(settings.database_read_urls) or "").split(",") if u.strip()]


def url_label(url: str, fallback: str) -> str:
    """``host:port/database`` of a URL, never its user or password (for logs and stats)."""
    try:
        parts = urlsplit(url)
        if parts.scheme.startswith("postgres") and parts.hostname:
            return f"{parts.hostname}{f':{parts.port}' if parts.port else ''}{parts.path}"
    except ValueError:
        pass
    return fallback


class ReadSource:
    """A read replica: its pool, whether it answers, and the reads it served."""

    def __init__(self, label: str, url: str, pool: Any) -> None:
        self.label = label
        self.url = url
        self.pool = pool
        self.down = False  # reads skip it until its probe connects again
        self.reads = 0
        self.passed_over = 0  # reads it could not serve because it had not replayed enough yet
        self.warned_build = False


_T = TypeVar("_T")
_BEHIND = object()
_PINNED: ContextVar[tuple[int, int] | None] = ContextVar("matjip_pinned_replica", default=None)
"""The replica a turn reads from first (:meth:`PostgresIndex.pinned`), with the index it belongs to."""


class PostgresIndex:
    """The search backend over a PostgreSQL database (see the module docstring).

    ``PostgresIndex(url, embedder, settings)`` opens a connection pool and migrates the schema;
    :meth:`build` fills it from documents, :meth:`load` restores the embedder's learnt state
    from the database. Safe to search from many threads and many processes. ``read_urls``: read
    replicas of ``url`` for searches (the module docstring).
    """

    name = BACKEND_NAME

    def __init__(
        self,
        url: str,
        embedder: Embedder,
        settings: Settings,
        clock: Callable[[], datetime] | None = None,
        *,
        pool_size: int | None = None,
        read_urls: Sequence[str] = (),
    ) -> None:
        import psycopg

        self.url = url
        self.embedder = embedder
        self.settings = settings
        self.timezone = ZoneInfo(settings.timezone)
        self.clock = clock or (lambda: datetime.now(self.timezone))
        self.bm25_depth = BM25_DEPTH
        self.load_seconds: float | None = None
        self._stats: tuple[int, int] | None = None
        self._lock = threading.Lock()
        self._df: OrderedDict[str, dict[str, int]] = OrderedDict()  # index version → term → docs
        self.statements: list[str] | None = None  # when a list, every executed statement is appended
        self._db_error = psycopg.OperationalError
        # a replica cancels a query that conflicts with replay: retried elsewhere, the replica stays up
        self._conflict = (psycopg.errors.SerializationFailure, psycopg.errors.QueryCanceled)
        self._built_at: datetime | None = None  # the build the embedder's state was loaded from
        self._written_lsn: str | None = None  # the primary's WAL position after this process's last write
        self.primary_reads = 0
        self._on_primary = False
        self._rr = itertools.count()
        self._health = threading.Lock()
        self._closed = threading.Event()
        size = pool_size or settings.database_pool_size
        self.pool = connection_pool(url, settings, name="matjip", max_size=size)
        with self.pool.connection() as conn:
            migrate(conn)
        self.replicas = [
            ReadSource(
                url_label(u, f"replica {i}"),
                u,
                connection_pool(
                    u,
                    settings,
                    name=f"matjip-read-{i}",
                    max_size=size,
                    kwargs={"application_name": "matjip-read"},
                ),
            )
            for i, u in enumerate(read_urls, start=1)
        ]

    def close(self) -> None:
        self._closed.set()
        self.pool.close()
        for source in self.replicas:
            source.pool.close()

    def health(self) -> str | None:
        """Always None: whether the database answers is the service's own probe
        (:mod:`matjip.api.database`), and a replica that fails is skipped on its own."""
        return None

    # -- where reads go -------------------------------------------------------------------

    @contextmanager
    def pinned(self) -> Iterator[None]:
        """Reads inside (one agent turn, in this context) try the same replica first, so a turn
        does not step back and forth between replicas that replayed different versions."""
        if not self.replicas:
            yield
            return
        token = _PINNED.set((id(self), next(self._rr) % len(self.replicas)))
        try:
            yield
        finally:
            _PINNED.reset(token)

    def _read_order(self) -> list[ReadSource]:
        """Replicas to try, round robin (the turn's pinned one first), without those that failed."""
        n = len(self.replicas)
        pinned = _PINNED.get()
        start = pinned[1] if pinned is not None and pinned[0] == id(self) else next(self._rr) % n
        order = [self.replicas[(start + i) % n] for i in range(n)]
        return [s for s in order if not s.down]

    def _read(self, work: Callable[[Any, tuple[Any, ...] | None], _T]) -> _T:
        """``work(conn, meta)`` in one read-only snapshot: on a replica that answers and has
        replayed enough, else on the primary. ``meta`` is the index meta of that snapshot."""
        if self.replicas:
            for source in self._read_order():
                try:
                    with source.pool.connection(timeout=REPLICA_WAIT_S) as conn:
                        result = self._snapshot(conn, source, work)
                except self._db_error as exc:
                    if isinstance(exc, self._conflict):
                        log.info(
                            "a read on replica %s was cancelled (%s): retried elsewhere", source.label, exc
                        )
                    else:
                        self._replica_failed(source, exc)
                    continue
                if result is not _BEHIND:
                    source.reads += 1
                    return result  # type: ignore[return-value]
            self._primary_serves()
        with self.pool.connection() as conn:
            result = self._snapshot(conn, None, work)
        self.primary_reads += 1
        return result  # type: ignore[return-value]

    def _snapshot(self, conn: Any, source: ReadSource | None, work: Callable[..., Any]) -> Any:
        self._run(conn, pg_sql.BEGIN_READ)
        try:
            meta = self._meta(conn)
            result = _BEHIND if source is not None and self._behind(conn, source, meta) else work(conn, meta)
        except BaseException:
            with suppress(Exception):
                conn.execute(pg_sql.ABORT_READ)
            raise
        self._run(conn, pg_sql.END_READ)
        return result

    def _behind(self, conn: Any, source: ReadSource, meta: tuple[Any, ...] | None) -> bool:
        """Whether the replica lacks what this process has seen on the primary: the index, the
        build its embedder was loaded from, or this process's own last write."""
        behind = meta is None or (self._built_at is not None and meta[4] < self._built_at)
        if not behind:
            source.warned_build = False
        elif not source.warned_build:
            source.warned_build = True
            log.warning(
                "read replica %s holds an older index build than the primary: reads go elsewhere until "
                "it catches up",
                source.label,
            )
        if not behind and self._written_lsn is not None:
            behind = not self._run(conn, pg_sql.REPLAYED, {"lsn": self._written_lsn})[0][0]
        if behind:
            source.passed_over += 1
        return behind

    def _replica_failed(self, source: ReadSource, exc: Exception) -> None:
        """Skip ``source`` until a background probe connects to it again (at once, then every
        ``REPLICA_RETRY_S``): reads never wait for a replica that is away."""
        with self._health:
            if source.down:
                return
            source.down = True
        log.warning("read replica %s does not answer (%s): reads go elsewhere", source.label, exc)
        threading.Thread(target=self._probe, args=(source,), name="matjip-replica-probe", daemon=True).start()

    def _probe(self, source: ReadSource) -> None:
        import psycopg

        while not self._closed.is_set():
            try:
                with psycopg.connect(
                    source.url, autocommit=True, connect_timeout=self.settings.database_connect_timeout_s
                ) as conn:
                    conn.execute(pg_sql.PROBE).fetchone()
            except psycopg.Error:
                self._closed.wait(REPLICA_RETRY_S)
                continue
            with self._health:
                source.down = False
                back = self._on_primary
                self._on_primary = False
            log.warning("read replica %s answers again", source.label)
            if back:
                log.warning("searches are back on the read replicas")
            return

    def _primary_serves(self) -> None:
        if not self._on_primary and all(s.down for s in self.replicas):
            with self._health:
                if not self._on_primary:
                    self._on_primary = True
                    log.warning("no read replica answers: searches go to the primary")

    def _wrote(self, conn: Any) -> None:
        """Remember the primary's WAL position after a write (read-your-writes on replicas)."""
        if self.replicas:
            self._written_lsn = str(self._run(conn, pg_sql.WRITTEN_LSN)[0][0])

    # -- statements ----------------------------------------------------------------------

    def _run(self, conn: Any, sql: str, params: dict[str, Any] | None = None) -> list[tuple[Any, ...]]:
        if self.statements is not None:
            self.statements.append(sql)
        cur = conn.execute(sql, params or {})
        return list(cur.fetchall()) if cur.description is not None else []

    # -- lifecycle ------------------------------------------------------------------------

    def _meta(self, conn: Any) -> tuple[Any, ...] | None:
        rows = self._run(conn, pg_sql.READ_META)
        return rows[0] if rows else None

    def load(self) -> PostgresIndex:
        """Check the stored embedder and restore its learnt state from the database."""
        started = time.perf_counter()
        with self.pool.connection() as conn:
            meta = self._meta(conn)
            if meta is None:
                raise IndexNotBuiltError("no search index in the database; build it first (matjip ingest)")
            name, dim = meta[0], int(meta[1])
            self._built_at = meta[4]
            if name != self.embedder.name:
                raise EmbedderMismatchError(
                    f"the database index was built with embedder {name!r} (dim {dim}), but embedder "
                    f"{self.embedder.name!r} is configured; rebuild it or set MATJIP_EMBEDDER={name}"
                )
            files = self._run(conn, pg_sql.READ_FILES)
        with tempfile.TemporaryDirectory(prefix="matjip-embedder-") as tmp:
            for path, data in files:
                target = Path(tmp) / str(path)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(bytes(data))
            self.embedder.load(Path(tmp))
        if int(self.embedder.dim) != dim:
            raise EmbedderMismatchError(
                f"the database index holds {dim}-dimensional vectors, but the configured embedder "
                f"produces {self.embedder.dim}; rebuild the index"
            )
        self.load_seconds = time.perf_counter() - started
        return self

    def build(self, docs: Iterable[Restaurant], progress: BuildProgress | None = None) -> PostgresIndex:
        """(Re)build from ``docs`` (the last copy of a place id wins, in its position), in one
        transaction: readers see the old index until it commits."""
        report = progress or (lambda stage, done, total: None)
        started = time.perf_counter()
        latest: dict[str, tuple[int, Restaurant]] = {}
        for i, d in enumerate(docs):
            latest[d.place_id] = (i, d)
        ordered = [d for _, d in sorted(latest.values(), key=lambda x: x[0])]
        total = len(ordered)
        texts = [embedding_text(d) for d in ordered]
        if texts:
            report("fit", 0, total)
            self.embedder.fit(texts)
            report("fit", total, total)
        dim = int(self.embedder.dim)
        with self.pool.connection() as conn, conn.transaction():
            self._run(conn, pg_sql.TRUNCATE_DOCS)
            self._run(conn, pg_sql.RESET_SEQ)
            done = 0
            for batch in batched(ordered, COPY_BATCH):
                self._copy(conn, batch)
                done += len(batch)
                report("write", done, total)
            with tempfile.TemporaryDirectory(prefix="matjip-embedder-") as tmp:
                self.embedder.save(Path(tmp))
                for p in sorted(Path(tmp).rglob("*")):
                    if p.is_file():
                        rel = str(p.relative_to(tmp))
                        self._run(conn, pg_sql.SAVE_FILE, {"path": rel, "data": p.read_bytes()})
            self._run(
                conn,
                pg_sql.SAVE_META,
                {
                    "embedder": self.embedder.name,
                    "dim": dim,
                    "build_seconds": round(time.perf_counter() - started, 2),
                },
            )
            self._run(conn, pg_sql.REFRESH_COUNTS)
            built = self._meta(conn)
        with self.pool.connection() as conn:
            self._wrote(conn)
        self._built_at = built[4] if built else None
        self._stats = None
        return self

    def _copy(self, conn: Any, batch: Sequence[Restaurant]) -> None:
        """Analyse, embed and COPY one batch of new rows (seq follows the batch order)."""
        terms = analyze_documents(batch)
        dim = int(self.embedder.dim)
        vecs = np.asarray(
            self.embedder.embed_documents([embedding_text(x) for x in batch]), dtype=np.float32
        ).reshape(len(batch), dim)
        if self.statements is not None:
            self.statements.append(pg_sql.COPY_DOCS)
        with conn.cursor() as cur, cur.copy(pg_sql.COPY_DOCS) as copy:
            for doc, t, v in zip(batch, terms, vecs, strict=True):
                copy.write_row(doc_row(doc, t, v))

    def upsert(self, docs: Iterable[Restaurant]) -> int:
        latest: dict[str, Restaurant] = {}
        for doc in docs:
            latest[doc.place_id] = doc
        if not latest:
            return 0
        batch = list(latest.values())
        with self.pool.connection() as conn, conn.transaction():
            self._require(conn)
            self._run(conn, pg_sql.DELETE_DOCS, {"ids": list(latest)})
            for part in batched(batch, COPY_BATCH):
                self._copy(conn, part)
            self._run(conn, pg_sql.REFRESH_COUNTS)
        with self.pool.connection() as conn:
            self._wrote(conn)
        self._stats = None
        return len(batch)

    def delete(self, ids: Iterable[str]) -> int:
        wanted = list(dict.fromkeys(ids))
        if not wanted:
            return 0
        with self.pool.connection() as conn, conn.transaction():
            self._require(conn)
            found = self._run(conn, pg_sql.EXISTING_IDS, {"ids": wanted})
            self._run(conn, pg_sql.DELETE_DOCS, {"ids": wanted})
            self._run(conn, pg_sql.REFRESH_COUNTS)
        with self.pool.connection() as conn:
            self._wrote(conn)
        self._stats = None
        return len(found)

    def _require(self, conn: Any) -> tuple[int, int, str]:
        return self._version(self._meta(conn))

    @staticmethod
    def _version(meta: tuple[Any, ...] | None) -> tuple[int, int, str]:
        """Documents, BM25 tokens, and the index version (the time of the last write)."""
        if meta is None:
            raise IndexNotBuiltError("no search index in the database; build it first (matjip ingest)")
        return int(meta[2]), int(meta[3]), str(meta[5])

    def warm(self) -> None:
        query_terms("맛집 데이트")
        self.embedder.embed_query("맛집 데이트")
        if self.count():
            self.search(SearchRequest(text="맛집", k=1))

    # -- reads ----------------------------------------------------------------------------

    def count(self) -> int:
        return self._read(lambda conn, meta: self._version(meta)[0])

    def get(self, place_id: str) -> Restaurant | None:
        rows = self._read(lambda conn, meta: self._run(conn, pg_sql.GET_DOC, {"id": place_id}))
        return Restaurant.model_validate_json(rows[0][0]) if rows else None

    def ids(self) -> list[str]:
        return self._read(lambda conn, meta: [str(r[0]) for r in self._run(conn, pg_sql.ALL_IDS)])

    def stats(self) -> dict[str, Any]:
        def read(conn: Any, meta: tuple[Any, ...] | None) -> tuple[Any, ...]:
            if meta is None:
                raise IndexNotBuiltError("no search index in the database; build it first (matjip ingest)")
            row = self._run(conn, pg_sql.STATS)[0]
            cuisines = {str(r[1]): int(r[2]) for r in self._run(conn, pg_sql.CUISINE_COUNTS)}
            conv = int(self._run(conn, pg_sql.CONVENIENCE_VALUES)[0][0])
            return meta, row, cuisines, conv

        meta, (n, with_coords, with_hours, with_prices, subs, size), cuisines, conv = self._read(read)
        return {
            "backend": BACKEND_NAME,
            "documents": int(n),
            "rows": int(n),
            "tombstones": 0,
            "embedder": {"name": meta[0], "dim": int(meta[1])},
            "fusion": self.settings.fusion,
            "with_coordinates": int(with_coords),
            "with_hours": int(with_hours),
            "with_prices": int(with_prices),
            "cuisines": cuisines,
            "convenience_values": conv,
            "sub_categories": int(subs),
            "disk_bytes": int(size),
            "built_at": meta[4].isoformat(timespec="seconds") if meta[4] else None,
            "updated_at": meta[5].isoformat(timespec="seconds") if meta[5] else None,
            "build_seconds": meta[6],
            "load_seconds": round(self.load_seconds, 3) if self.load_seconds is not None else None,
            "reads": {
                "primary": self.primary_reads,
                "replicas": [
                    {
                        "replica": s.label,
                        "answers": not s.down,
                        "reads": s.reads,
                        "passed_over": s.passed_over,
                    }
                    for s in self.replicas
                ],
            },
        }

    # -- search ---------------------------------------------------------------------------

    def search(self, req: SearchRequest, mode: SearchMode = "hybrid") -> SearchResponse:
        started = time.perf_counter()

        def read(conn: Any, meta: tuple[Any, ...] | None) -> tuple[int, list[SearchHit]]:
            docs_n, tokens, version = self._version(meta)
            params, names = self._filters(conn, req)
            if names is None:
                return 0, []
            total = int(self._run(conn, pg_sql.compose("count", names), params)[0][0])
            if not total:
                return 0, []
            source = _Candidates(self, conn, req, params, names, (docs_n, tokens, version))
            return total, rank(source, req, total, mode=mode, settings=self.settings, clock=self.clock)

        total, hits = self._read(read)
        return SearchResponse(
            hits=hits,
            total_candidates=total,
            took_ms=round((time.perf_counter() - started) * 1000, 3),
            backend=BACKEND_NAME,
            embedder=self.embedder.name,
        )

    def _filters(self, conn: Any, req: SearchRequest) -> tuple[dict[str, Any], list[str] | None]:
        """Bound parameters and the names of the filter clauses; None when nothing can pass."""
        p: dict[str, Any] = {"geo_on": req.geo is not None, "geo_lat": None, "geo_lon": None}
        names: list[str] = []
        if req.geo is not None:
            names.append("geo")
            p.update(
                geo_lat=req.geo.lat,
                geo_lon=req.geo.lon,
                geo_radius=req.geo.radius_m,
                # earth_box measures on a 6378.168 km sphere: widen it to stay a superset
                geo_box=req.geo.radius_m * 1.01 + 10.0,
            )
        if req.near_any:
            from matjip.geo.distance import bounding_box

            names.append("near_any")
            boxes = [bounding_box(c.lat, c.lon, c.radius_m * 1.01 + 10.0) for c in req.near_any]
            p.update(
                near_lat=[c.lat for c in req.near_any],
                near_lon=[c.lon for c in req.near_any],
                near_radius=[c.radius_m for c in req.near_any],
                near_min_lat=min(b[0] for b in boxes),
                near_max_lat=max(b[1] for b in boxes),
                near_min_lon=min(b[2] for b in boxes),
                near_max_lon=max(b[3] for b in boxes),
            )
        if req.region is not None:
            names.append("region")
            p["region_needles"] = [" " + normalize_phrase(t) for t in req.region.terms if t.strip()]
            p["region_seqs"] = self._polygon_rows(conn, req.region.polygon_place)
        if req.cuisine:
            names.append("cuisine")
            p["cuisine"] = [normalize_key(v) for v in req.cuisine]
        if req.sub_category:
            names.append("sub_category")
            p["sub_category"] = [normalize_key(v) for v in req.sub_category]
        if req.menu:
            names.append("menu")
            p["menu"] = [normalize_key(t) for t in req.menu]
        if req.kind:
            names.append("kind")
            p["kind"] = [normalize_key(v) for v in req.kind]
        if req.exclude_kind:
            names.append("exclude_kind")
            p["exclude_kind"] = [normalize_key(v) for v in req.exclude_kind]
        if req.exclude_cuisine:
            names.append("exclude_cuisine")
            p["exclude_cuisine"] = [normalize_key(v) for v in req.exclude_cuisine]
        if req.exclude_menu:
            names.append("exclude_menu")
            p["exclude_menu"] = [normalize_key(t) for t in req.exclude_menu]
        if req.exclude_title:
            keys = [normalize_key(t) for t in req.exclude_title if normalize_key(t)]
            if keys:
                names.append("exclude_title")
                p["exclude_title"] = keys
        if req.convenience:
            names.append("convenience")
            p["convenience"] = [normalize_key(v) for v in req.convenience]
        p["boost_key"] = None
        if req.title is not None:
            words = title_words(req.title)
            if not words:
                return p, None
            key = "".join(words)
            names.append("title")
            p.update(
                title_key=key,
                title_len=len(key),
                title_branch=MAX_BRANCH_CHARS,
                title_suffixes=list(BRANCH_SUFFIXES),
                title_words=sorted(set(words)),
                boost_key=key,
            )
        if req.price is not None:
            names.append("price")
            p.update(price_low=req.price.low, price_high=req.price.high)
        if req.open_at is not None:
            names.append("open_at")
            minutes = []
            for when in req.open_at.instants():
                t = when.astimezone(self.timezone)
                minutes.append(t.weekday() * 1440 + t.hour * 60 + t.minute)
            p.update(open_minutes=minutes, open_unknown=req.open_at.include_unknown)
        if req.exclude_ids:
            names.append("exclude_ids")
            p["exclude_ids"] = list(req.exclude_ids)
        return p, names

    def _polygon_rows(self, conn: Any, key: str | None) -> list[int]:
        """Rows whose coordinates lie inside the gazetteer outline ``key`` (tested in Python)."""
        if not key:
            return []
        place = polygon_place(key)
        if place is None:
            return []
        from matjip.geo import get_gazetteer

        rows = self._run(conn, pg_sql.COORDINATES)
        if not rows:
            return []
        seqs = np.asarray([r[0] for r in rows], dtype=np.int64)
        inside = get_gazetteer().contains_points(
            place, np.asarray([r[1] for r in rows], np.float64), np.asarray([r[2] for r in rows], np.float64)
        )
        if inside is None:
            return []
        return [int(s) for s in seqs[np.asarray(inside, dtype=np.bool_)].tolist()]

    # ranking ----------------------------------------------------------------------------

    def _dist(
        self, req: SearchRequest, lats: Sequence[float | None], lons: Sequence[float | None]
    ) -> FloatArray:
        from matjip.geo.distance import haversine_m_array

        assert req.geo is not None
        la = np.asarray([math.nan if v is None else v for v in lats], dtype=np.float64)
        lo = np.asarray([math.nan if v is None else v for v in lons], dtype=np.float64)
        return haversine_m_array(req.geo.lat, req.geo.lon, la, lo)

    def _bm25(
        self,
        conn: Any,
        terms: list[str],
        params: dict[str, Any],
        names: list[str],
        stats: tuple[int, int, str],
    ) -> tuple[npt.NDArray[np.int64], FloatArray]:
        """The best ``bm25_depth`` BM25 hits inside the candidates, tantivy's scores, best first."""
        docs_n, tokens, version = stats
        df = self._doc_freq(conn, terms, version)
        n = max(1, docs_n)
        weights = {t: idf(df.get(t, 0), n) * (np.float32(1.0) + K1) for t in terms}
        avg = np.float32(tokens) / np.float32(n)
        rows = self._run(
            conn,
            pg_sql.compose("bm25", [*names, "terms"]),
            {
                **params,
                "terms": terms,
                "weights": [float(weights[t]) for t in terms],
                "k1": float(K1),
                "b": float(B),
                "avgdl": float(avg) if avg > 0 else 1.0,
                "limit": self.bm25_depth + MARGIN,
            },
        )
        if not rows:
            return np.zeros(0, np.int64), np.zeros(0, np.float64)
        seqs = np.asarray([r[0] for r in rows], dtype=np.int64)
        scores = np.zeros(len(rows), dtype=np.float32)
        for i, (_, doc_terms, tfs, norm) in enumerate(rows):
            tf_of = dict(zip(doc_terms, tfs, strict=True))
            cache = K1 * ((np.float32(1.0) - B) + (B * np.float32(norm)) / avg)
            total = np.float32(0.0)
            for t in terms:
                tf = tf_of.get(t)
                if tf:
                    f = np.float32(tf)
                    total = np.float32(total + weights[t] * (f / (f + cache)))
            scores[i] = total
        order = np.lexsort((seqs, -scores.astype(np.float64)))[: self.bm25_depth]
        return seqs[order], scores[order].astype(np.float64)

    def _doc_freq(self, conn: Any, terms: list[str], version: str) -> dict[str, int]:
        """Documents holding each term, cached per index version (any write starts a new one; the
        last few are kept, as replicas may be at different ones). ``version`` was read in the same
        snapshot as ``conn``'s rows, so counts never come from another version."""
        with self._lock:
            cache = self._df.get(version)
            if cache is None:
                cache = self._df[version] = {}
                while len(self._df) > DF_VERSIONS:
                    self._df.popitem(last=False)
            else:
                self._df.move_to_end(version)
            known = {t: cache[t] for t in terms if t in cache}
        missing = [t for t in terms if t not in known]
        if missing:
            found = {str(t): int(n) for t, n in self._run(conn, pg_sql.DOC_FREQ, {"terms": missing})}
            with self._lock:
                if len(cache) > DF_CACHE:
                    cache.clear()
                cache.update({t: found.get(t, 0) for t in missing})
            known.update({t: found.get(t, 0) for t in missing})
        return {t: known[t] for t in terms}

    def _vector(
        self, conn: Any, qv: npt.NDArray[np.float32], params: dict[str, Any], names: list[str]
    ) -> tuple[npt.NDArray[np.int64], FloatArray]:
        rows = self._run(
            conn,
            pg_sql.compose("vector", names),
            {**params, "qv": [float(x) for x in qv.tolist()], "limit": VECTOR_DEPTH + MARGIN},
        )
        if not rows:
            return np.zeros(0, np.int64), np.zeros(0, np.float64)
        seqs = np.asarray([r[0] for r in rows], dtype=np.int64)
        mat = np.asarray([r[1] for r in rows], dtype=np.float32).reshape(len(rows), -1)
        sims = np.einsum("ij,j->i", mat, qv).astype(np.float64)
        order = np.lexsort((seqs, -sims))[: min(VECTOR_DEPTH, len(rows))]
        return seqs[order], sims[order]

    def _by_prior(
        self, conn: Any, req: SearchRequest, params: dict[str, Any], names: list[str], k: int
    ) -> list[int]:
        rows = self._run(conn, pg_sql.compose("prior", names), {**params, "limit": k + MARGIN})
        if not rows:
            return []
        seqs = np.asarray([r[0] for r in rows], dtype=np.int64)
        key = np.asarray([np.float32(r[1]) for r in rows], dtype=np.float32).astype(np.float64)
        key = key + np.asarray([bool(r[4]) for r in rows], dtype=np.float64) * 10.0
        d = self._dist(req, [r[2] for r in rows], [r[3] for r in rows]) if req.geo else np.zeros(len(rows))
        order = np.lexsort((seqs, d, -key))[:k]
        return [int(s) for s in seqs[order].tolist()]


class _Candidates:
    """The candidates of one request in one read snapshot (the filter clauses ``names`` with their
    bound ``params``): the :class:`~matjip.index.ranking.CandidateSource` the shared ranking reads."""

    def __init__(
        self,
        index: PostgresIndex,
        conn: Any,
        req: SearchRequest,
        params: dict[str, Any],
        names: list[str],
        stats: tuple[int, int, str],
    ) -> None:
        self.index = index
        self.conn = conn
        self.req = req
        self.params = params
        self.names = names
        self.stats = stats

    @property
    def embedder(self) -> Embedder:
        return self.index.embedder

    @property
    def dim(self) -> int:
        return int(self.index.embedder.dim)

    def bm25(self, terms: Sequence[str]) -> fusion.Ranked:
        return self.index._bm25(self.conn, list(terms), self.params, self.names, self.stats)

    def vector(self, qv: npt.NDArray[np.float32]) -> fusion.Ranked:
        return self.index._vector(self.conn, qv, self.params, self.names)

    def nearest(self, k: int) -> list[int]:
        ix = self.index
        rows = ix._run(
            self.conn, pg_sql.compose("distance", self.names), {**self.params, "limit": k + MARGIN}
        )
        seqs = np.asarray([r[0] for r in rows], dtype=np.int64)
        prior = np.asarray([np.float32(r[1]) for r in rows], dtype=np.float32)
        d = ix._dist(self.req, [r[2] for r in rows], [r[3] for r in rows])
        return [int(s) for s in seqs[np.lexsort((seqs, -prior, d))[:k]].tolist()]

    def by_prior(self, k: int, exclude: Sequence[int] | None = None) -> list[int]:
        if exclude is None:
            return self.index._by_prior(self.conn, self.req, self.params, self.names, k)
        rest = {**self.params, "chosen": list(exclude)}
        return self.index._by_prior(self.conn, self.req, rest, [*self.names, "not_chosen"], k)

    def distances(self, rows: npt.NDArray[np.int64]) -> FloatArray:
        if self.req.geo is None or not len(rows):
            return np.zeros(len(rows))
        located = self.index._run(self.conn, pg_sql.QUERIES["locate"], {"seqs": rows.tolist()})
        loc = {int(r[0]): (r[1], r[2]) for r in located}
        seqs = [int(s) for s in rows.tolist()]
        return self.index._dist(self.req, [loc[s][0] for s in seqs], [loc[s][1] for s in seqs])

    def hit_rows(self, rows: list[int]) -> list[HitRow]:
        ix = self.index
        found = {int(r[0]): r for r in ix._run(self.conn, pg_sql.QUERIES["rows"], {"seqs": rows})}
        out: list[HitRow] = []
        for seq in rows:
            _, raw, doc_terms, vec, lat, lon, prior32 = found[seq]
            distance = float(ix._dist(self.req, [lat], [lon])[0]) if self.req.geo is not None else None
            doc = Restaurant.model_validate_json(raw)
            out.append(HitRow(doc, doc_terms, vec, float(np.float32(prior32)), distance))
        return out


def open_postgres(settings: Settings, embedder: Embedder) -> PostgresIndex:
    """The index of ``settings`` for answering: the primary, and the read replicas when configured."""
    return PostgresIndex(database_url(settings), embedder, settings, read_urls=read_urls(settings))


def database_url(settings: Settings) -> str:
    url = secret(settings.database_url)
    if not url:
        raise ConfigurationError("MATJIP_BACKEND=postgres needs MATJIP_DATABASE_URL (postgresql://…)")
    return url
