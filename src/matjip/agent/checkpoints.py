"""Sessions in ``sessions.sqlite`` without importing LangGraph: LangGraph's checkpoint tables and
serialization, read and written for :class:`matjip.agent.graph.SequentialGraph`.

LangGraph's ``SqliteSaver`` pulls in ``langchain_core`` (callbacks, tracers, ``requests``…) on
import — about a quarter of a cold ``matjip ask``'s imports. A one-question process needs only
two things of it: read a session's latest checkpoint and write the next one. This module does
exactly that, in the same tables (``checkpoints``, ``writes``) with the same rows:

- the checkpoint is serialized as LangGraph's ``JsonPlusSerializer`` does it: msgpack, with the
  state's Pydantic models (:data:`matjip.agent.state.CHECKPOINT_MODELS`) as its extension type 5
  ``(module, name, model_dump(), "model_validate_json")``; anything else in a value (a datetime,
  a set, a class it does not know) hands the whole value to LangGraph's own serializer, so what
  is written and read is always what LangGraph would write and read (tests compare the bytes);
- the metadata is JSON; checkpoint ids are LangGraph's time-ordered UUIDv6, channel versions its
  ``"<counter>.<random>"`` strings, so the latest checkpoint stays the greatest id whichever
  runner wrote it.

A session written here continues under LangGraph (``matjip chat``, ``matjip serve``) and the other
way round.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import ormsgpack
from pydantic import BaseModel

from matjip.agent.serde import checkpoint_serializer
from matjip.agent.state import CHECKPOINT_MODELS
from matjip.errors import ConversationMoved
from matjip.providers.guard import turn_commit

FORMAT = 4  # LangGraph's checkpoint format (langgraph.pregel._checkpoint.LATEST_VERSION)
EXT_PYDANTIC_V2 = 5  # LangGraph's msgpack extension code for a Pydantic v2 model
_PACK_OPTIONS = (
    ormsgpack.OPT_NON_STR_KEYS
    | ormsgpack.OPT_PASSTHROUGH_DATACLASS
    | ormsgpack.OPT_PASSTHROUGH_DATETIME
    | ormsgpack.OPT_PASSTHROUGH_ENUM
    | ormsgpack.OPT_PASSTHROUGH_UUID
    | ormsgpack.OPT_REPLACE_SURROGATES
)
_MODELS: dict[tuple[str, str], type[BaseModel]] = {(m.__module__, m.__name__): m for m in CHECKPOINT_MODELS}

# the tables of langgraph.checkpoint.sqlite.SqliteSaver.setup()
_SCHEMA = """
CREATE TABLE IF NOT EXISTS checkpoints (
    thread_id TEXT NOT NULL,
    checkpoint_ns TEXT NOT NULL DEFAULT '',
    checkpoint_id TEXT NOT NULL,
    parent_checkpoint_id TEXT,
    type TEXT,
    checkpoint BLOB,
    metadata BLOB,
    PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id)
);
CREATE TABLE IF NOT EXISTS writes (
    thread_id TEXT NOT NULL,
    checkpoint_ns TEXT NOT NULL DEFAULT '',
    checkpoint_id TEXT NOT NULL,
    task_id TEXT NOT NULL,
    task_path TEXT NOT NULL DEFAULT '',
    idx INTEGER NOT NULL,
    channel TEXT NOT NULL,
    type TEXT,
    value BLOB,
    PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, task_id, idx)
);
"""


class _Unsupported(Exception):
    """A value this codec does not write or read itself: LangGraph's serializer takes it."""


# --- serialization ---------------------------------------------------------------------------


def _default(obj: Any) -> ormsgpack.Ext:
    if isinstance(obj, BaseModel) and (type(obj).__module__, type(obj).__name__) in _MODELS:
        model = (type(obj).__module__, type(obj).__name__, obj.model_dump(), "model_validate_json")
        return ormsgpack.Ext(EXT_PYDANTIC_V2, _pack(model))
    raise _Unsupported(type(obj).__name__)


def _pack(value: Any) -> bytes:
    return ormsgpack.packb(value, default=_default, option=_PACK_OPTIONS)


def _ext_hook(code: int, data: bytes) -> Any:
    if code != EXT_PYDANTIC_V2:
        raise _Unsupported(f"msgpack extension {code}")
    module, name, fields, _method = ormsgpack.unpackb(
        data, ext_hook=_ext_hook, option=ormsgpack.OPT_NON_STR_KEYS
    )
    cls = _MODELS.get((module, name))
    if cls is None:
        raise _Unsupported(f"{module}.{name}")
    try:
        return cls(**fields)
    except Exception:  # as LangGraph: a model that no longer validates keeps its fields
        return cls.model_construct(**fields)


def dumps_typed(value: Any) -> tuple[str, bytes]:
    """``JsonPlusSerializer.dumps_typed`` for checkpoints of the agent state."""
    if value is not None and not isinstance(value, (bytes, bytearray)):
        try:
            return "msgpack", _pack(value)
        except (ormsgpack.MsgpackEncodeError, _Unsupported):
            pass
    return checkpoint_serializer().dumps_typed(value)


def loads_typed(data: tuple[str, bytes]) -> Any:
    """``JsonPlusSerializer.loads_typed`` (with the agent's allowed models)."""
    type_, payload = data
    if type_ == "msgpack":
        try:
            return ormsgpack.unpackb(payload, ext_hook=_ext_hook, option=ormsgpack.OPT_NON_STR_KEYS)
        except (ormsgpack.MsgpackDecodeError, _Unsupported, ValueError, TypeError):
            pass
    return checkpoint_serializer().loads_typed(data)


# --- ids and versions ------------------------------------------------------------------------

_last_timestamp: int | None = None
_id_lock = threading.Lock()


def uuid6(clock_seq: int | None = None) -> str:
    """A time-ordered UUID version 6, as LangGraph makes checkpoint ids
    (``langgraph.checkpoint.base.id.uuid6``, after uuid6-python)."""
    global _last_timestamp
    with _id_lock:
        timestamp = time.time_ns() // 100 + 0x01B21DD213814000
        if _last_timestamp is not None and timestamp <= _last_timestamp:
            timestamp = _last_timestamp + 1
        _last_timestamp = timestamp
    seq = random.getrandbits(14) if clock_seq is None else clock_seq
    node = random.getrandbits(48)
    value = ((timestamp >> 12) & 0xFFFFFFFFFFFF) << 80
    value |= (timestamp & 0x0FFF) << 64
    value |= (seq & 0x3FFF) << 48
    value |= node & 0xFFFFFFFFFFFF
    value &= ~(0xC000 << 48)  # variant
    value |= 0x8000 << 48
    value &= ~(0xF000 << 64)  # version 6
    value |= 6 << 76
    return str(uuid.UUID(int=value))


def next_version(current: str | int | None) -> str:
    """``SqliteSaver.get_next_version``: ``"<counter + 1>.<random>"``."""
    if current is None:
        counter = 0
    elif isinstance(current, int):
        counter = current
    else:
        counter = int(current.split(".")[0])
    return f"{counter + 1:032}.{random.random():016}"


def empty_checkpoint() -> dict[str, Any]:
    from datetime import UTC, datetime

    return {
        "v": FORMAT,
        "id": uuid6(clock_seq=-2),
        "ts": datetime.now(UTC).isoformat(),
        "channel_values": {},
        "channel_versions": {},
        "versions_seen": {},
        "updated_channels": None,
    }


# --- the store -------------------------------------------------------------------------------


@dataclass(frozen=True)
class SavedCheckpoint:
    """The part of LangGraph's ``CheckpointTuple`` a turn reads."""

    config: dict[str, Any]
    checkpoint: dict[str, Any]
    metadata: dict[str, Any] = field(default_factory=dict)


_LATEST = (
    "SELECT checkpoint_id FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = ? "
    "ORDER BY checkpoint_id DESC LIMIT 1"
)


class WriterLock:
    """The session database's writers on this machine take turns on a lock file
    (``sessions.sqlite.writer``, ``flock``) before SQLite's write lock.

    Without it, a writer that finds the database locked by another process (``matjip serve
    --workers N``) is left to SQLite's busy handler, which sleeps 1, 2, 5, 10, 15, 20, 25 … ms
    between tries whatever the other writer's commit takes (~1 ms): with two workers the write
    lock's wait averaged 4–5 ms a turn (up to 80 ms), the saver's in-process lock held meanwhile.
    A writer waiting on ``flock`` is woken the moment the lock is released, and the kernel
    releases the lock of a process that dies (``kill -9``), so nobody waits for a dead writer.
    A database without a file (``:memory:``), or a system without ``fcntl``, has no lock file."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._lock = threading.Lock()  # flock is per open file: the threads of one process queue here
        self._fd: int | None = None
        path = next((str(r[2]) for r in conn.execute("PRAGMA database_list") if r[1] == "main"), "")
        try:
            import fcntl  # noqa: F401
        except ImportError:  # not POSIX: SQLite's busy handler alone
            return
        if path:
            with contextlib.suppress(OSError):  # a read-only directory: SQLite's busy handler alone
                self._fd = os.open(path + ".writer", os.O_RDWR | os.O_CREAT, 0o600)

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        with self._lock:
            if self._fd is None:
                yield
                return
            import fcntl

            fcntl.flock(self._fd, fcntl.LOCK_EX)  # blocks without the GIL
            try:
                yield
            finally:
                fcntl.flock(self._fd, fcntl.LOCK_UN)

    def close(self) -> None:
        with self._lock:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None


@contextlib.contextmanager
def compare_and_set(
    conn: sqlite3.Connection, thread_id: str, ns: str, parent: object, writer: WriterLock | None = None
) -> Iterator[None]:
    """One write transaction that goes ahead only while ``parent`` (the checkpoint the turn
    started from) is still the session's latest: SQLite's compare and set, for several processes
    on one ``sessions.sqlite`` (``matjip serve --workers N``, ``matjip ask --local`` beside a
    server). ``writer`` (the database's :class:`WriterLock`) is taken first, so the writers of
    this machine queue in the kernel instead of in SQLite's sleeping busy handler; then ``BEGIN
    IMMEDIATE`` takes the database's write lock, so no other process writes between the check
    and the write; the write inside commits (or this does, at the end). A turn another process
    overtook raises :class:`~matjip.errors.ConversationMoved` and writes nothing, so a
    conversation never branches (PostgreSQL: ``agent/savers.py``)."""
    with writer.held() if writer is not None else contextlib.nullcontext():
        if conn.in_transaction:
            conn.commit()
        conn.execute("BEGIN IMMEDIATE")
        try:
            row = conn.execute(_LATEST, (thread_id, ns)).fetchone()
            if row is not None and str(row[0]) != str(parent):
                raise ConversationMoved(
                    f"session {thread_id}: another turn was saved meanwhile; this turn's state was not saved"
                )
            yield
        except BaseException:
            conn.rollback()
            raise
        else:
            if conn.in_transaction:
                conn.commit()


# sessions whose last saved checkpoint a process keeps decoded (get_tuple): ~0.2 MB each (a ~45 kB
# row decoded), so ~50 MB at most a worker
DECODED_SESSIONS = 256

# turns this process writes between two WAL checkpoints, which run outside the write locks
# (SQLite's automatic one would run inside the commit that fills 1000 pages)
WAL_CHECKPOINT_TURNS = 64

PutHook = Callable[[sqlite3.Connection, list[tuple[str, str]]], None]

# the checkpoints of a group commit in one statement, each row (thread, ns, id, parent id, type,
# checkpoint, metadata, ``str(parent)``) written only while the checkpoint it started from is still
# its session's latest, or the session has none: the compare and set inside the statement (SQLite
# reads the SELECT before it writes), so a batch costs one statement, and one GIL hand-back inside the
# locks, whatever its size (``rowcount`` short: some turn was overtaken, or its row is
# there already: the session writer committed it, then died before answering, and the worker writes it
# itself — ``_write_rows`` finds it written, not overtaken)
_PUT_IF_LATEST = (
    "INSERT OR REPLACE INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, "
    "type, checkpoint, metadata) SELECT column1, column2, column3, column4, column5, column6, column7 "
    "FROM (VALUES {rows}) WHERE coalesce((SELECT checkpoint_id FROM checkpoints WHERE thread_id = column1 "
    "AND checkpoint_ns = column2 ORDER BY checkpoint_id DESC LIMIT 1), column8) = column8"
)
_ROW = "(?, ?, ?, ?, ?, ?, ?, ?)"
_WRITTEN = (
    "SELECT checkpoint_id FROM checkpoints WHERE thread_id IN (SELECT value FROM json_each(?)) "
    "AND checkpoint_id IN (SELECT value FROM json_each(?))"
)


@dataclass
class _Write:
    """One turn's checkpoint row, queued for a group commit. ``wake`` is set when a writer has
    handled it (``done``; ``error`` set when it was not written) or when it is this turn's thread's
    turn to write the queue (``lead``)."""

    row: tuple[Any, ...]
    parent: str
    wake: threading.Event = field(default_factory=threading.Event)
    lead: bool = False
    done: bool = False
    error: BaseException | None = None


class RemoteWriter(Protocol):
    """Where a process's session rows are written for it (a session writer's client)."""

    def write(self, row: tuple[Any, ...], parent: str) -> None: ...

    def close(self) -> None: ...


class SqliteCheckpoints:
    """The latest checkpoint of a session, read and written in LangGraph's SQLite tables; the
    subset of ``SqliteSaver`` that :class:`matjip.agent.graph.SequentialGraph` and
    :class:`matjip.agent.retention.Retention` use (``conn``, ``lock``, ``get_tuple``, ``put``,
    ``get_next_version``).

    Built for many turns at once (``matjip serve``, each worker one instance, all on one file):

    - reads (``get_tuple``, a turn's start) go through connections of their own (one per reading
      thread at a time), so a read never waits behind a write of this process (its lock, the
      machine's writer lock, the commit) nor behind another read; WAL lets it read the last
      committed state meanwhile — the write's compare and set is what keeps a conversation from
      branching, not the read;
    - writes are a group commit: a turn's ``put`` queues its row; one thread at a time (the
      leader, a turn that found no write going on, or the one the previous leader handed over to)
      takes the machine's writer lock and SQLite's, and only then takes every row queued so far —
      the turns that arrived while it waited for the other worker's write go into the same
      transaction. Each row is compared and set on its own (one statement); what ``on_put`` adds
      (:class:`~matjip.agent.retention.Retention`: older checkpoints deleted, activity recorded)
      is a few statements for the whole batch. A ``put`` returns only after the transaction with
      its row committed (a turn's answer is never reported done before its session is saved).
      Few statements inside the locks matter: each one gives up the GIL and waits to get it back
      from the process's other turns, and both workers' writes queue on the one lock."""

    on_put: PutHook | None = None
    # a session writer process (``matjip serve --workers N``, :mod:`matjip.agent.session_writer`):
    # rows go there, and are written here only when it does not answer
    remote: RemoteWriter | None = None
    keep_decoded = True  # hand a session's next read what this process saved (get_tuple)

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.lock = threading.Lock()  # held by the thread writing a batch
        self.writer = WriterLock(conn)
        self._path = _file_of(conn)
        self._readers: list[sqlite3.Connection] = []  # idle read connections
        self._readers_lock = threading.Lock()
        self._closed = False
        self._pending: list[_Write] = []  # puts waiting for the next group commit
        self._pending_lock = threading.Lock()
        self._writing = False  # a leader is writing (or about to): a new put waits for its turn
        self._unchecked = 0  # turns written since the last WAL checkpoint
        self._checkpointing = False
        # per session, the checkpoint this process saved last, decoded (see get_tuple)
        self._decoded: dict[tuple[str, str], SavedCheckpoint] = {}
        self._decoded_lock = threading.Lock()
        with self.lock:
            if self._path:
                conn.execute("PRAGMA wal_autocheckpoint=0")  # ours run outside the locks (_maybe_checkpoint)
            conn.executescript(_SCHEMA)
            with contextlib.suppress(sqlite3.OperationalError):  # as SqliteSaver: tables made before
                conn.execute("ALTER TABLE writes ADD COLUMN task_path TEXT NOT NULL DEFAULT ''")  # task_path
            conn.commit()

    def get_next_version(self, current: str | None, channel: object = None) -> str:
        return next_version(current)

    def get_tuple(self, config: Mapping[str, Any]) -> SavedCheckpoint | None:
        """The session's latest checkpoint. When it is the one this process saved last for the
        session (its id read alone, no blob), the saved objects are handed over instead of decoding
        the row again (~0.7 ms of a turn's CPU: every model of the state validated anew); the entry
        goes to this read, so a turn that changes them in place and then fails is never read from
        it again (its next read decodes the row), and a saved turn leaves its own state."""
        conf = config["configurable"]
        thread_id, ns = str(conf["thread_id"]), str(conf.get("checkpoint_ns", ""))
        with self._decoded_lock:
            kept = self._decoded.pop((thread_id, ns), None)
        if kept is not None:
            with self._reading() as conn:
                latest = conn.execute(_LATEST, (thread_id, ns)).fetchone()
            if latest is not None and str(latest[0]) == kept.config["configurable"]["checkpoint_id"]:
                return kept
        with self._reading() as conn:
            row = conn.execute(
                "SELECT checkpoint_id, type, checkpoint, metadata FROM checkpoints "
                "WHERE thread_id = ? AND checkpoint_ns = ? ORDER BY checkpoint_id DESC LIMIT 1",
                (thread_id, ns),
            ).fetchone()
        if row is None:
            return None
        checkpoint_id, type_, blob, metadata = row
        return SavedCheckpoint(
            {"configurable": {"thread_id": thread_id, "checkpoint_ns": ns, "checkpoint_id": checkpoint_id}},
            loads_typed((type_, blob)),
            json.loads(metadata) if metadata is not None else {},
        )

    @contextlib.contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """A read connection for this read alone (an in-memory database: the write connection,
        under the write lock, as another connection would not see it)."""
        if not self._path:
            with self.lock:
                yield self.conn
            return
        with self._readers_lock:
            conn = self._readers.pop() if self._readers else None
        if conn is None:
            conn = sqlite3.connect(self._path, check_same_thread=False, timeout=30)
        try:
            yield conn
        finally:
            with self._readers_lock:
                if self._closed:
                    conn.close()
                else:
                    self._readers.append(conn)

    def put(
        self,
        config: Mapping[str, Any],
        checkpoint: Mapping[str, Any],
        metadata: Mapping[str, Any],
        new_versions: Mapping[str, Any],
    ) -> dict[str, Any]:
        conf = config["configurable"]
        thread_id, ns = str(conf["thread_id"]), str(conf.get("checkpoint_ns", ""))
        try:  # dumps_typed, knowing whether this codec wrote it (only then is it kept decoded)
            type_, blob, own = "msgpack", _pack(dict(checkpoint)), True
        except (ormsgpack.MsgpackEncodeError, _Unsupported):
            (type_, blob), own = checkpoint_serializer().dumps_typed(dict(checkpoint)), False
        meta = {k: v.replace("\u0000", "") if isinstance(v, str) else v for k, v in metadata.items()}
        row = (
            thread_id,
            ns,
            str(checkpoint["id"]),
            conf.get("checkpoint_id"),
            type_,
            blob,
            json.dumps(meta, ensure_ascii=False).encode("utf-8", "ignore"),
        )
        write = _Write(row, str(conf.get("checkpoint_id")))
        commit = turn_commit()
        with commit.committing():
            self._commit(write)
            if write.error is not None:
                raise write.error
            commit.saved = dict(checkpoint["channel_values"])
        saved = {"thread_id": thread_id, "checkpoint_ns": ns, "checkpoint_id": str(checkpoint["id"])}
        if own:
            self._keep_decoded(SavedCheckpoint({"configurable": saved}, dict(checkpoint), json.loads(row[6])))
        return {"configurable": dict(saved)}

    def _keep_decoded(self, saved: SavedCheckpoint) -> None:
        """Keep what a turn saved for the session's next read in this process (the oldest
        sessions' entries go beyond :data:`DECODED_SESSIONS`). Only a checkpoint this codec wrote
        itself, whose decoding gives back the same values (``msgpack``, no LangGraph fallback)."""
        if not self.keep_decoded:
            return
        conf = saved.config["configurable"]
        key = (conf["thread_id"], conf["checkpoint_ns"])
        with self._decoded_lock:
            self._decoded.pop(key, None)
            self._decoded[key] = saved
            while len(self._decoded) > DECODED_SESSIONS:
                self._decoded.pop(next(iter(self._decoded)))

    def write_rows(self, rows: list[tuple[tuple[Any, ...], str]]) -> list[BaseException | None]:
        """Checkpoint rows (each as :meth:`put` makes it, with the checkpoint it started from) in
        one write transaction — the session writer's entry, whose one thread batches whatever its
        workers sent meanwhile: per row ``None`` once committed, else why not (a
        :class:`~matjip.errors.ConversationMoved` when its session moved on). The WAL checkpoint
        that falls due runs in a thread of its own, so the next batch does not wait for it."""
        writes = [_Write(row, parent) for row, parent in rows]
        with self._pending_lock:
            self._pending.extend(writes)
        with self.lock:
            self._write_batch()
        due = self._unchecked >= WAL_CHECKPOINT_TURNS and not self._checkpointing
        if due:
            threading.Thread(target=self._maybe_checkpoint, daemon=True, name="wal-checkpoint").start()
        return [w.error if w.done else RuntimeError("the session write was not done") for w in writes]

    def _commit(self, write: _Write) -> None:
        """Through the session writer when there is one (it answers once committed), else here."""
        if self.remote is not None:
            try:
                self.remote.write(write.row, write.parent)
                return
            except ConversationMoved as exc:
                write.error = exc
                return
            except Exception:  # no writer (it died, or is starting again): this process writes
                pass
        self._commit_here(write)

    def _commit_here(self, write: _Write) -> None:
        """Queue ``write`` and return once a transaction with it committed (or failed): written
        by this thread when no write is going on or when the previous writer hands over to it,
        else by the writer of the batch it joins."""
        with self._pending_lock:
            self._pending.append(write)
            if not self._writing:
                self._writing = write.lead = True
        if not write.lead:
            write.wake.wait()
            if write.done:
                return
        try:
            with self.lock:
                self._write_batch()
        finally:
            self._hand_over()
        self._maybe_checkpoint()

    def _hand_over(self) -> None:
        """After a batch: the first row still queued (it came after the batch was taken) leads
        the next one; with none queued, the next put leads."""
        with self._pending_lock:
            waiting = next((w for w in self._pending if not w.done), None)
            if waiting is None:
                self._writing = False
                return
            waiting.lead = True
        waiting.wake.set()

    def _write_batch(self) -> None:
        """Every queued row in one write transaction, taken once this thread holds the machine's
        writer lock and SQLite's: each row only while the checkpoint it started from is still its
        session's latest (else it gets :class:`~matjip.errors.ConversationMoved` and writes
        nothing); one failure of the transaction fails them all (nothing written)."""
        failure: BaseException = RuntimeError("the session write was interrupted")
        committed = False
        batch: list[_Write] = []
        try:
            with self.writer.held():
                if self.conn.in_transaction:
                    self.conn.commit()
                self.conn.execute("BEGIN IMMEDIATE")
                try:
                    with self._pending_lock:
                        batch, self._pending = self._pending, []
                    written = self._write_rows(batch)
                    if written and self.on_put is not None:
                        self.on_put(self.conn, written)
                    self.conn.commit()
                    committed = True
                    with self._pending_lock:
                        self._unchecked += len(written)
                except BaseException:
                    self.conn.rollback()
                    raise
        except Exception as exc:
            failure = exc
        finally:
            if not batch:  # failed before taking the queue: this thread's own row fails with it
                with self._pending_lock:
                    batch, self._pending = self._pending, []
            for write in batch:
                if not committed and write.error is None:
                    write.error = failure
                write.done = True
                write.wake.set()

    def _maybe_checkpoint(self) -> None:
        """Every :data:`WAL_CHECKPOINT_TURNS` turns written, a WAL checkpoint (copying the WAL's
        pages into the database file, and its fsync) by the turn that wrote the last batch, once it
        has let go of the write locks and handed the queue over: SQLite's automatic checkpoint ran
        inside whichever commit filled 1000 pages (every ~40–70 turns), with the machine's writer
        lock held, so every worker's turns waited for it (a 4 MB copy and two fsyncs). A passive
        checkpoint blocks no reader or writer; one that finds the WAL busy leaves the rest for the
        next. (In a thread of its own it cost more: its fsync of the WAL ran while the next
        commits appended to it.)"""
        with self._pending_lock:
            if not self._path or self._checkpointing or self._unchecked < WAL_CHECKPOINT_TURNS:
                return
            self._unchecked = 0
            self._checkpointing = True
        try:
            with self._reading() as conn:
                conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        except sqlite3.Error:  # the next one tries again
            pass
        finally:
            self._checkpointing = False

    def _write_rows(self, batch: list[_Write]) -> list[tuple[str, str]]:
        """The batch's rows in one statement; (session, checkpoint id) of each one written. A row
        whose session moved on meanwhile gets :class:`~matjip.errors.ConversationMoved`."""
        sql = _PUT_IF_LATEST.format(rows=", ".join([_ROW] * len(batch)))
        params = [value for write in batch for value in (*write.row, write.parent)]
        rows = [(str(w.row[0]), str(w.row[2])) for w in batch]
        if self.conn.execute(sql, params).rowcount == len(batch):
            return rows
        threads, ids = json.dumps([t for t, _ in rows]), json.dumps([c for _, c in rows])
        written = {str(r[0]) for r in self.conn.execute(_WRITTEN, (threads, ids))}
        for write, (thread_id, checkpoint_id) in zip(batch, rows, strict=True):
            if checkpoint_id not in written:
                write.error = ConversationMoved(
                    f"session {thread_id}: another turn was saved meanwhile; this turn's state was not saved"
                )
        return [row for row in rows if row[1] in written]

    def close(self) -> None:
        """Close the read connections and the lock file (the caller owns ``conn``)."""
        with self._readers_lock:
            self._closed = True
            readers, self._readers = self._readers, []
        for reader in readers:
            reader.close()
        self.writer.close()
        if self.remote is not None:
            self.remote.close()


def _file_of(conn: sqlite3.Connection) -> str:
    """The file of ``conn``'s main database ("" for an in-memory one, which another connection
    would not see)."""
    return next((str(r[2]) for r in conn.execute("PRAGMA database_list") if r[1] == "main"), "")
