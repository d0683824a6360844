"""Session retention: a conversation keeps what it needs and old conversations go away.

* Bounded history: ``query_input`` keeps the last ``settings.session_max_turns`` turns of
  ``messages`` (the other conversation fields are bounded where they are written).
* Latest checkpoint only: after every turn the session's older checkpoints (and their pending
  writes) are deleted — a turn needs the latest state, nothing before it.
* Age: sessions idle longer than ``settings.session_max_age_days`` are deleted when the agent
  starts and every :data:`PRUNE_EVERY` turns (``matjip stats`` reports the sizes).

Activity is recorded in a ``session_activity`` table next to LangGraph's tables in
``sessions.sqlite``. With the in-memory checkpointer (tests, evaluation) the same rules apply to
its dictionaries.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

PRUNE_EVERY = 200  # turns between two age prunes in a running process

_ACTIVITY = (
    "CREATE TABLE IF NOT EXISTS session_activity (thread_id TEXT PRIMARY KEY, updated_at REAL NOT NULL, "
    "turns INTEGER NOT NULL DEFAULT 0)"
)
# a group commit's sessions (a JSON list) keep only the checkpoint it wrote for each (a JSON list)
_DELETE_OLDER = (
    "DELETE FROM {table} WHERE thread_id IN (SELECT value FROM json_each(?1)) "
    "AND checkpoint_id NOT IN (SELECT value FROM json_each(?2))"
)
_ACTIVE = (
    "INSERT INTO session_activity (thread_id, updated_at, turns) SELECT value, ?2, 1 FROM json_each(?1) "
    "WHERE true ON CONFLICT(thread_id) DO UPDATE SET updated_at = excluded.updated_at, turns = turns + 1"
)


class Retention:
    """Applies the retention rules to one checkpointer (SqliteSaver or InMemorySaver)."""

    def __init__(self, checkpointer: Any, max_age_days: float, clock: Any = time.time) -> None:
        self.saver = checkpointer
        self.max_age_s = max_age_days * 86_400.0
        self.clock = clock
        self._turns = 0
        self._guard = threading.Lock()
        self._memory_activity: dict[str, float] = {}
        conn = self._conn()
        if conn is not None:
            with self._lock():
                conn.execute(_ACTIVITY)
                conn.commit()
        # a saver that takes a hook into its write transaction (``SqliteCheckpoints``): a turn's
        # rows are written there, in the same transaction as its checkpoint, not in a second one
        self._in_put = conn is not None and hasattr(checkpointer, "on_put")
        if self._in_put:
            checkpointer.on_put = self.record_turns

    def record_turns(self, conn: sqlite3.Connection, written: list[tuple[str, str]]) -> None:
        """Inside the transaction that wrote them, for every (session, checkpoint) of a group
        commit (one per session): the session's other checkpoints (and their pending writes)
        deleted, its activity recorded — three statements whatever their number."""
        threads = json.dumps([t for t, _ in written])
        kept = json.dumps([c for _, c in written])
        conn.execute(_DELETE_OLDER.format(table="checkpoints"), (threads, kept))
        conn.execute(_DELETE_OLDER.format(table="writes"), (threads, kept))
        conn.execute(_ACTIVE, (threads, self.clock()))

    def _conn(self) -> sqlite3.Connection | None:
        conn = getattr(self.saver, "conn", None)
        return conn if isinstance(conn, sqlite3.Connection) else None

    def _lock(self) -> Any:
        return getattr(self.saver, "lock", None) or self._guard

    def after_turn(self, thread_id: str) -> None:
        """Keep only the latest checkpoint of ``thread_id``; record its activity; now and then prune."""
        now = self.clock()
        conn = self._conn()
        if self._in_put:
            pass  # written with the turn's checkpoint (record_turn)
        elif conn is not None:
            with self._lock():
                row = conn.execute(
                    "SELECT checkpoint_id FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = '' "
                    "ORDER BY checkpoint_id DESC LIMIT 1",
                    (thread_id,),
                ).fetchone()
                if row is not None:
                    conn.execute(
                        "DELETE FROM checkpoints WHERE thread_id = ? AND checkpoint_id != ?",
                        (thread_id, row[0]),
                    )
                    conn.execute(
                        "DELETE FROM writes WHERE thread_id = ? AND checkpoint_id != ?", (thread_id, row[0])
                    )
                conn.execute(
                    "INSERT INTO session_activity (thread_id, updated_at, turns) VALUES (?, ?, 1) "
                    "ON CONFLICT(thread_id) DO UPDATE SET updated_at = excluded.updated_at, turns = turns + 1",
                    (thread_id, now),
                )
                conn.commit()
        else:
            self._prune_memory_thread(thread_id)
            self._memory_activity[thread_id] = now
        with self._guard:
            self._turns += 1
            due = self._turns % PRUNE_EVERY == 0
        if due:
            self.prune()

    def _prune_memory_thread(self, thread_id: str) -> None:
        storage = getattr(self.saver, "storage", None)
        if not isinstance(storage, dict) or thread_id not in storage:
            return
        for ns, checkpoints in storage[thread_id].items():
            if not isinstance(checkpoints, dict) or len(checkpoints) <= 1:
                continue
            latest = max(checkpoints)
            for cid in [c for c in checkpoints if c != latest]:
                del checkpoints[cid]
                writes = getattr(self.saver, "writes", None)
                if isinstance(writes, dict):
                    writes.pop((thread_id, ns, cid), None)

    def prune(self) -> int:
        """Delete sessions idle longer than the maximum age; returns how many."""
        if self.max_age_s <= 0:
            return 0
        cutoff = self.clock() - self.max_age_s
        conn = self._conn()
        if conn is not None:
            with self._lock():
                old = [
                    r[0]
                    for r in conn.execute(
                        "SELECT thread_id FROM session_activity WHERE updated_at < ?", (cutoff,)
                    )
                ]
                for tid in old:
                    conn.execute("DELETE FROM checkpoints WHERE thread_id = ?", (tid,))
                    conn.execute("DELETE FROM writes WHERE thread_id = ?", (tid,))
                    conn.execute("DELETE FROM session_activity WHERE thread_id = ?", (tid,))
                conn.commit()
            return len(old)
        old = [t for t, at in self._memory_activity.items() if at < cutoff]
        for tid in old:
            delete = getattr(self.saver, "delete_thread", None)
            if callable(delete):
                delete(tid)
            self._memory_activity.pop(tid, None)
        return len(old)


def session_stats(path: Path) -> dict[str, Any]:
    """Sizes of the session store: sessions, checkpoints, bytes on disk (file + WAL)."""
    out: dict[str, Any] = {"path": str(path), "sessions": 0, "checkpoints": 0, "bytes": 0}
    if not path.exists():
        return out
    out["bytes"] = sum(p.stat().st_size for p in (path, path.with_name(path.name + "-wal")) if p.exists())
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
    except sqlite3.Error:
        return out
    try:
        out["sessions"] = conn.execute("SELECT COUNT(DISTINCT thread_id) FROM checkpoints").fetchone()[0]
        out["checkpoints"] = conn.execute("SELECT COUNT(*) FROM checkpoints").fetchone()[0]
        out["checkpoint_bytes"] = conn.execute(
            "SELECT COALESCE(SUM(LENGTH(checkpoint)), 0) FROM checkpoints"
        ).fetchone()[0]
    except sqlite3.Error as exc:
        out["error"] = str(exc)
    finally:
        conn.close()
    return out
