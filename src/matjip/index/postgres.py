"""The PostgreSQL search backend: the :class:`~matjip.index.backend.SearchBackend` of the embedded
index, over one database that many API workers share.

- **Schema** by the append-only migrations of :mod:`matjip.index.pg_sql` (extensions ``cube``,
  ``earthdistance``, ``vector``); every statement comes from that module's whitelist, every value
  is a bound parameter.
- **Tables**: ``matjip_docs`` (the document JSON, the vector, the BM25 terms; what COPY writes),
  and derived from it in SQL by every write, ``matjip_rows`` (the narrow filter columns, a few
  hundred bytes a row) and ``matjip_postings`` (term, row, tf, field norm); with
  ``MATJIP_DATABASE_HNSW`` an HNSW index on the vectors is made after a build's COPY
  (:mod:`matjip.index.postgres_rows` encodes a row).
- **Hard filters, exact, in SQL** over ``matjip_rows``, clause for clause the predicates of
  :mod:`matjip.index.reference`: geo by a latitude/longitude box (B-tree indexes), then the exact
  haversine (skipped inside an inner box well within the circle); kinds and conveniences as
  GIN-indexed ``text[]``; menu, title parts and addresses as ``LIKE`` substring tests over the
  same normalised keys the embedded index keeps (a menu's rows first narrowed by a GIN index on
  its character bigrams); prices as a
  multirange of points; opening hours as an ``int4multirange`` of the open minutes of the week,
  built at ingest by the rule of :meth:`WeeklySchedule.is_open`; a region's outline test runs in
  Python on the coordinates and enters the query as a bound array of rows.
- **One statement a search** (:mod:`matjip.index.postgres_search`): the candidates materialised
  once, then the count, the BM25 list, the vector list, the best by prior and the nearest from
  them (only the parts the request uses); then the hit rows. BEGIN goes with the index meta and
  the search statement (made with the meta the last read saw, made again when the snapshot's
  differs), COMMIT with the hit rows (pipelined): two round trips; a kNN or text search, one (its
  statement brings the hit rows of the BM25 and vector lists' first rows, the COMMIT goes with the
  BEGIN; a hit past them is read in a read of its own, checked to be of the same index version);
  the pool hands out a connection back a moment ago without a check statement
  (:func:`~matjip.index.postgres_pool.quick_check`).
- **BM25** over the same Kiwi morphemes (the postings), with tantivy's formula (k1 1.2, b 0.75,
  its field-norm buckets, average length over the documents), so both backends score alike; the
  SQL orders by a double-precision score and the best ``BM25_DEPTH`` (+ a margin) are re-scored
  here in float32 as tantivy does.
- **Vectors** with pgvector: an exact inner-product scan over the candidates (so a filter never
  loses a hit); with ``MATJIP_DATABASE_HNSW``, an unfiltered search's list (every row a
  candidate) comes from the HNSW index, in the search statement (approximate: recall against the
  exact scan measured by ``bench/pg_recall.py``, README; a filtered list stays exact, its
  candidates' codes scored in the filter scan cost less than a walk); the best ``VECTOR_DEPTH``
  (+ a margin) re-scored here.
- **Ranking, fusion and scores**: :func:`matjip.index.ranking.rank`, shared with the embedded
  backend, over this backend's candidate source, so both return the same ranking.
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
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar
from zoneinfo import ZoneInfo

import numpy as np

from matjip.documents import Restaurant
from matjip.errors import ConfigurationError, EmbedderMismatchError, IndexNotBuiltError
from matjip.index import pg_sql
from matjip.index.analyzer import analyze_documents, embedding_text, query_terms
from matjip.index.backend import BuildProgress
from matjip.index.batches import batched
from matjip.index.embed.base import Embedder
from matjip.index.postgres_pool import connection_pool as connection_pool
from matjip.index.postgres_pool import migrate as migrate
from matjip.index.postgres_pool import read_urls as read_urls
from matjip.index.postgres_pool import setup_lock as setup_lock
from matjip.index.postgres_pool import url_label as url_label
from matjip.index.postgres_rows import doc_row
from matjip.index.postgres_rows import open_minutes as open_minutes
from matjip.index.postgres_search import (
    DocFreqs,
    PgCandidates,
    SearchStatement,
    filter_params,
    polygon_rows,
)
from matjip.index.ranking import SearchMode, rank
from matjip.index.request import SearchHit, SearchRequest, SearchResponse
from matjip.settings import Settings, secret

log = logging.getLogger(__name__)

BACKEND_NAME = "postgres"
REPLICA_WAIT_S = 1.0  # the longest a read waits for a replica's connection before going elsewhere
REPLICA_RETRY_S = 5.0  # a replica that failed is probed every so often until it answers again
COPY_BATCH = 1000


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
        self.load_seconds: float | None = None
        self._stats: tuple[int, int] | None = None
        self._last_stats: tuple[int, int, str] | None = None  # the index meta the last read saw
        self._doc_freqs = DocFreqs()
        self.hnsw = settings.database_hnsw  # unfiltered searches' vector lists from the HNSW index
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
        search_options = {"options": pg_sql.SEARCH_OPTIONS}
        self.pool = connection_pool(
            url, settings, name="matjip", max_size=size, kwargs=search_options, quick=True
        )
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
                    kwargs={"application_name": "matjip-read", **search_options},
                    quick=True,
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

    def _read(
        self,
        work: Callable[[Any, tuple[Any, ...] | None], _T],
        head: Head | None = None,
        local: str | None = None,
    ) -> _T:
        """``work(conn, meta)`` in one read-only snapshot: on a replica that answers and has
        replayed enough, else on the primary. ``meta`` is the index meta of that snapshot.
        ``head``: a statement sent with the BEGIN and the index meta (the same round trip); its
        rows are ``head.rows`` when ``work`` runs. ``local``: a constant ``SET LOCAL`` statement for
        the read's transaction, sent with the BEGIN."""
        if self.replicas:
            for source in self._read_order():
                try:
                    with source.pool.connection(timeout=REPLICA_WAIT_S) as conn:
                        result = self._snapshot(conn, source, work, head, local)
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
            result = self._snapshot(conn, None, work, head, local)
        self.primary_reads += 1
        return result  # type: ignore[return-value]

    def _snapshot(
        self,
        conn: Any,
        source: ReadSource | None,
        work: Callable[..., Any],
        head: Head | None = None,
        local: str | None = None,
    ) -> Any:
        """``work(conn, meta)`` in one read-only transaction. BEGIN, the index meta and the
        ``head`` statement go in one round trip; the COMMIT goes with the work's last statement
        when it says so (:meth:`_run_ending`), else alone."""
        from psycopg.pq import TransactionStatus

        try:
            meta = self._begin(conn, head, local)
            result = _BEHIND if source is not None and self._behind(conn, source, meta) else work(conn, meta)
        except BaseException:
            with suppress(Exception):
                conn.execute(pg_sql.ABORT_READ)
            raise
        if conn.info.transaction_status != TransactionStatus.IDLE:
            self._run(conn, pg_sql.END_READ)
        return result

    def _begin(self, conn: Any, head: Head | None = None, local: str | None = None) -> tuple[Any, ...] | None:
        """BEGIN the read and read the index meta in it, with the ``local`` setting and the ``head``
        statement when given, pipelined (one round trip)."""
        if self.statements is not None:
            self.statements.extend((pg_sql.BEGIN_READ, *((local,) if local else ()), pg_sql.READ_META))
            if head is not None:
                self.statements.extend((head.sql, *((pg_sql.END_READ,) if head.ending else ())))
        with conn.pipeline():
            conn.execute(pg_sql.BEGIN_READ)
            if local:
                conn.execute(local)
            cur = conn.execute(pg_sql.READ_META)
            # a statement with its hit rows comes back in binary (the vectors as bytes, not hex text
            # twice their size; numbers as sent, bit for bit): it carries the most bytes
            head_cur = conn.execute(head.sql, head.params, binary=head.ending) if head is not None else None
            if head is not None and head.ending:
                conn.execute(pg_sql.END_READ)
        rows = cur.fetchall()
        if head is not None and head_cur is not None:
            head.rows = list(head_cur.fetchall())
        return rows[0] if rows else None

    def _run_ending(self, conn: Any, sql: str, params: dict[str, Any] | None = None) -> list[tuple[Any, ...]]:
        """The read's last statement and its COMMIT, pipelined (one round trip)."""
        if self.statements is not None:
            self.statements.extend((sql, pg_sql.END_READ))
        with conn.pipeline():
            cur = conn.execute(sql, params or {})
            conn.execute(pg_sql.END_READ)
        return list(cur.fetchall())

    def _alone(self, conn: Any, stats: tuple[int, int, str]) -> Callable[..., list[tuple[Any, ...]]]:
        """Runs a statement after the read on ``conn`` ended (with its search statement) in a read
        of its own — BEGIN, the index meta, the statement and COMMIT pipelined, one round trip —
        whose index version must be ``stats``' (every write starts a new one: the same version is
        the same rows); else the search reads again (:class:`_ReadAgain`)."""

        def run(
            sql: str, params: dict[str, Any] | None = None, *, last: bool = False
        ) -> list[tuple[Any, ...]]:
            return self._run_alone(conn, sql, params, stats)

        return run

    def _run_alone(
        self, conn: Any, sql: str, params: dict[str, Any] | None, stats: tuple[int, int, str]
    ) -> list[tuple[Any, ...]]:
        if self.statements is not None:
            self.statements.extend((pg_sql.BEGIN_READ, pg_sql.READ_META, sql, pg_sql.END_READ))
        with conn.pipeline():
            conn.execute(pg_sql.BEGIN_READ)
            meta_cur = conn.execute(pg_sql.READ_META)
            cur = conn.execute(sql, params or {})
            conn.execute(pg_sql.END_READ)
        meta = meta_cur.fetchall()
        rows = list(cur.fetchall())
        if not meta or self._version(meta[0]) != stats:
            raise _ReadAgain
        return rows

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
            self._run(conn, pg_sql.DROP_VECTOR_INDEX)
            self._run(conn, pg_sql.vector_column(dim))
            self._run(conn, pg_sql.VECTOR_STORAGE)
            done = 0
            for batch in batched(ordered, COPY_BATCH):
                self._copy(conn, batch)
                done += len(batch)
                report("write", done, total)
            self._derive_all(conn, report, total)
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
            self._run(conn, pg_sql.ANALYZE_INDEX)
            self._wrote(conn)
        self._built_at = built[4] if built else None
        self._stats = None
        return self

    def _derive_all(self, conn: Any, report: BuildProgress, total: int) -> None:
        """After a build's COPY: the narrow filter rows, the BM25 postings, and with
        ``MATJIP_DATABASE_HNSW`` the HNSW index."""
        report("rows", 0, total)
        self._run(conn, pg_sql.DERIVE_ROWS_ALL)
        self._run(conn, pg_sql.DERIVE_KEYS_ALL)
        self._run(conn, pg_sql.DERIVE_POSTINGS_ALL)
        self._run(conn, pg_sql.DERIVE_VECTORS_ALL)
        if not self.hnsw:
            return
        report("vector index", 0, total)
        self._run(conn, pg_sql.BUILD_MEMORY)
        self._run(conn, pg_sql.CREATE_VECTOR_INDEX)
        report("vector index", total, total)

    def _forget(self, conn: Any, ids: list[str]) -> None:
        """The derived rows and postings of ``ids``, then their documents, deleted."""
        self._run(conn, pg_sql.DROP_POSTINGS, {"ids": ids})
        self._run(conn, pg_sql.DROP_VECTORS, {"ids": ids})
        self._run(conn, pg_sql.DROP_KEYS, {"ids": ids})
        self._run(conn, pg_sql.DROP_ROWS, {"ids": ids})
        self._run(conn, pg_sql.DELETE_DOCS, {"ids": ids})

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
            ids = list(latest)
            self._forget(conn, ids)
            for part in batched(batch, COPY_BATCH):
                self._copy(conn, part)
            self._run(conn, pg_sql.DERIVE_ROWS, {"ids": ids})
            self._run(conn, pg_sql.DERIVE_KEYS, {"ids": ids})
            self._run(conn, pg_sql.DERIVE_POSTINGS, {"ids": ids})
            self._run(conn, pg_sql.DERIVE_VECTORS, {"ids": ids})
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
            self._forget(conn, wanted)
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
        early = self._early_search(req, mode)

        def read(conn: Any, meta: tuple[Any, ...] | None) -> tuple[int, list[SearchHit]]:
            stats = self._version(meta)
            self._last_stats = stats

            def run(
                sql: str, params: dict[str, Any] | None = None, *, last: bool = False
            ) -> list[tuple[Any, ...]]:
                return self._run_ending(conn, sql, params) if last else self._run(conn, sql, params)

            head_rows = early[1].rows if early is not None else None
            if early is not None and early[0].stats == stats and head_rows is not None:
                source = early[0]
                # the statement ran in this snapshot, with this snapshot's meta; a statement with
                # its hit rows ended the read: any statement more (a hit past the rows that carry
                # theirs) runs in a read of its own, of the same index version (else all again)
                source.run = self._alone(conn, stats) if early[1].ending else run
                total = source.take(early[1].statement, head_rows)
            elif early is not None and early[1].ending:
                raise _ReadAgain  # the snapshot is gone with the statement made for another meta
            else:
                params, names = filter_params(req, self.timezone, lambda key: polygon_rows(run, key))
                if names is None:
                    return 0, []
                source = PgCandidates(
                    run, self.embedder, req, params, names, stats, self._doc_freqs, hnsw=self.hnsw
                )
                total = source.fetch(mode)
            if not total:
                return 0, []
            return total, rank(source, req, total, mode=mode, settings=self.settings, clock=self.clock)

        local = self.walk_setting(req)
        try:
            total, hits = self._read(read, early[1] if early is not None else None, local)
        except _ReadAgain:  # a read that ended with its statement needs more, and the index moved on
            early = self._early_search(req, mode, hits=False)
            total, hits = self._read(read, early[1] if early is not None else None, local)
        return SearchResponse(
            hits=hits,
            total_candidates=total,
            took_ms=round((time.perf_counter() - started) * 1000, 3),
            backend=BACKEND_NAME,
            embedder=self.embedder.name,
        )

    def walk_setting(self, req: SearchRequest) -> str | None:
        """The HNSW walk's setting for ``req``'s read: a shorter candidate list when no filter narrows
        the rows (``pg_sql.UNFILTERED_WALK``), else the search connections' own."""
        if not self.hnsw:
            return None
        _, names = filter_params(req, self.timezone, lambda key: [])
        return pg_sql.UNFILTERED_WALK if names == [] else None

    def _early_search(
        self, req: SearchRequest, mode: SearchMode, *, hits: bool = True
    ) -> tuple[PgCandidates, Head] | None:
        """The search statement made before the read, with the index meta the last read saw, so
        it goes with the BEGIN (one round trip less); the read checks that its snapshot's meta is
        the same (else it makes the statement again). None when the statement needs a statement
        before it (a region's outline test, a term's document frequency not cached) or no read
        was made yet. ``hits``: a kNN or text search's statement brings its hit rows and ends the read."""
        stats = self._last_stats
        if stats is None or (req.region is not None and req.region.polygon_place):
            return None
        params, names = filter_params(req, self.timezone, lambda key: [])
        if names is None:
            return None
        source = PgCandidates(
            _unbound, self.embedder, req, params, names, stats, self._doc_freqs, hnsw=self.hnsw
        )
        statement = source.statement(mode, cached_only=True, hits=hits)
        if statement is None:
            return None
        return source, Head(statement)


class Head:
    """A statement sent with a read's BEGIN (:meth:`PostgresIndex._begin`) and, once sent, its rows."""

    def __init__(self, statement: SearchStatement) -> None:
        self.statement = statement
        self.sql = statement.sql
        self.params = statement.params
        self.ending = statement.hits  # the read's COMMIT goes with it (a kNN or text search: one round trip)
        self.rows: list[tuple[Any, ...]] | None = None


def _unbound(sql: str, params: dict[str, Any] | None = None, *, last: bool = False) -> list[tuple[Any, ...]]:
    raise RuntimeError("a statement before the read began")


class _ReadAgain(Exception):
    """A read that ended with its first statement needed another one, and the index moved on to
    another version in between: the search reads again, the plain way (its statements in one
    snapshot)."""


def open_postgres(settings: Settings, embedder: Embedder) -> PostgresIndex:
    """The index of ``settings`` for answering: the primary, and the read replicas when configured."""
    return PostgresIndex(database_url(settings), embedder, settings, read_urls=read_urls(settings))


def database_url(settings: Settings) -> str:
    url = secret(settings.database_url)
    if not url:
        raise ConfigurationError("MATJIP_BACKEND=postgres needs MATJIP_DATABASE_URL (postgresql://…)")
    return url
