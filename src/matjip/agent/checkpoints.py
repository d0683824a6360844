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
from typing import Any

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


PutHook = Callable[[sqlite3.Connection, str, str], None]


@dataclass
class _Write:
    """One turn's checkpoint row, queued for a group commit; ``done`` once a writer handled it
    (``error`` set when it was not written)."""

    row: tuple[Any, ...]
    done: bool = False
    error: BaseException | None = None


class SqliteCheckpoints:
    """The latest checkpoint of a session, read and written in LangGraph's SQLite tables; the
    subset of ``SqliteSaver`` that :class:`matjip.agent.graph.SequentialGraph` and
    :class:`matjip.agent.retention.Retention` use (``conn``, ``lock``, ``get_tuple``, ``put``,
    ``get_next_version``).

    Built for many turns at once (``matjip serve``, each worker one instance, all on one file):

    - a read (``get_tuple``, a turn's start) goes through a connection of its own, so it never
      waits behind a write of this process (its lock, the machine's writer lock, the commit);
      WAL lets it read the last committed state meanwhile — the write's compare and set is what
      keeps a conversation from branching, not the read;
    - a turn writes one transaction: the checkpoint, and what ``on_put`` adds to it in the same
      transaction (:class:`~matjip.agent.retention.Retention`: older checkpoints deleted, the
      session's activity), instead of a second write transaction after it."""

    on_put: PutHook | None = None

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.lock = threading.Lock()
        self.writer = WriterLock(conn)
        self._reader = _reader_for(conn)
        self._read_lock = threading.Lock() if self._reader is not None else self.lock
        self._pending: list[_Write] = []  # puts waiting for the next group commit
        self._pending_lock = threading.Lock()
        with self.lock:
            conn.executescript(_SCHEMA)
            with contextlib.suppress(sqlite3.OperationalError):  # as SqliteSaver: tables made before
                conn.execute("ALTER TABLE writes ADD COLUMN task_path TEXT NOT NULL DEFAULT ''")  # task_path
            conn.commit()

    def get_next_version(self, current: str | None, channel: object = None) -> str:
        return next_version(current)

    def get_tuple(self, config: Mapping[str, Any]) -> SavedCheckpoint | None:
        conf = config["configurable"]
        thread_id, ns = str(conf["thread_id"]), str(conf.get("checkpoint_ns", ""))
        with self._read_lock:
            row = (
                (self._reader or self.conn)
                .execute(
                    "SELECT checkpoint_id, type, checkpoint, metadata FROM checkpoints "
                    "WHERE thread_id = ? AND checkpoint_ns = ? ORDER BY checkpoint_id DESC LIMIT 1",
                    (thread_id, ns),
                )
                .fetchone()
            )
        if row is None:
            return None
        checkpoint_id, type_, blob, metadata = row
        return SavedCheckpoint(
            {"configurable": {"thread_id": thread_id, "checkpoint_ns": ns, "checkpoint_id": checkpoint_id}},
            loads_typed((type_, blob)),
            json.loads(metadata) if metadata is not None else {},
        )

    def put(
        self,
        config: Mapping[str, Any],
        checkpoint: Mapping[str, Any],
        metadata: Mapping[str, Any],
        new_versions: Mapping[str, Any],
    ) -> dict[str, Any]:
        conf = config["configurable"]
        thread_id, ns = str(conf["thread_id"]), str(conf.get("checkpoint_ns", ""))
        type_, blob = dumps_typed(dict(checkpoint))
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
        write = _Write(row)
        commit = turn_commit()
        with commit.committing():
            with self._pending_lock:
                self._pending.append(write)
            with self.lock:  # the first writer in writes for everyone queued behind it (group commit)
                if not write.done:
                    with self._pending_lock:
                        batch, self._pending = self._pending, []
                    self._write_batch(batch)
            if write.error is not None:
                raise write.error
            commit.saved = dict(checkpoint["channel_values"])
        return {
            "configurable": {"thread_id": thread_id, "checkpoint_ns": ns, "checkpoint_id": checkpoint["id"]}
        }

    def _write_batch(self, batch: list[_Write]) -> None:
        """The queued turns' checkpoints in one write transaction: each one only while the
        checkpoint it started from is still its session's latest (else it gets
        :class:`~matjip.errors.ConversationMoved` and writes nothing); one failure of the
        transaction fails them all (nothing written)."""
        failure: BaseException = RuntimeError("the session write was interrupted")
        committed = False
        try:
            with self.writer.held():
                if self.conn.in_transaction:
                    self.conn.commit()
                self.conn.execute("BEGIN IMMEDIATE")
                try:
                    for write in batch:
                        self._write_one(write)
                    self.conn.commit()
                    committed = True
                except BaseException:
                    self.conn.rollback()
                    raise
        except Exception as exc:
            failure = exc
        finally:
            for write in batch:
                if not committed and write.error is None:
                    write.error = failure
                write.done = True

    def _write_one(self, write: _Write) -> None:
        thread_id, ns, checkpoint_id, parent = write.row[:4]
        latest = self.conn.execute(_LATEST, (thread_id, ns)).fetchone()
        if latest is not None and str(latest[0]) != str(parent):
            write.error = ConversationMoved(
                f"session {thread_id}: another turn was saved meanwhile; this turn's state was not saved"
            )
            return
        self.conn.execute(
            "INSERT OR REPLACE INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, "
            "parent_checkpoint_id, type, checkpoint, metadata) VALUES (?, ?, ?, ?, ?, ?, ?)",
            write.row,
        )
        if self.on_put is not None:
            self.on_put(self.conn, thread_id, checkpoint_id)

    def close(self) -> None:
        """Close the read connection and the lock file (the caller owns ``conn``)."""
        if self._reader is not None:
            with self._read_lock:
                self._reader.close()
                self._reader = None
        self.writer.close()


def _reader_for(conn: sqlite3.Connection) -> sqlite3.Connection | None:
    """A second connection to ``conn``'s database file for reads, or None (an in-memory
    database, which another connection would not see)."""
    path = next((str(r[2]) for r in conn.execute("PRAGMA database_list") if r[1] == "main"), "")
    if not path:
        return None
    try:
        return sqlite3.connect(path, check_same_thread=False, timeout=30)
    except sqlite3.Error:
        return None
