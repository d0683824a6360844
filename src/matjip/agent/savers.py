"""LangGraph's checkpoint savers, made safe for turns that time out and for several workers.

A turn's state is written once, at its end (``durability="exit"``). Two rules hold for that write:

* **Commit or abandon** (:class:`matjip.providers.guard.TurnCommit`): a turn the API has already
  reported as failed (timed out, client gone) never writes; a turn that is writing is delivered.
* **Compare and set** (shared by every worker): the write succeeds only while the checkpoint the
  turn started from is still the conversation's latest. Checked and written in one transaction —
  PostgreSQL under a per-conversation advisory lock, SQLite under its write lock (``BEGIN
  IMMEDIATE``, :func:`matjip.agent.checkpoints.compare_and_set`; the workers of one machine) — so a turn that was held up (a database
  restart) can never save its state over a newer turn another worker served meanwhile; it raises
  :class:`matjip.errors.ConversationMoved` instead and the conversation does not branch.

LangGraph is imported by the functions that build the savers, not at module import.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from matjip.errors import ConversationMoved
from matjip.providers.guard import turn_commit

_LATEST = (
    "SELECT checkpoint_id FROM checkpoints WHERE thread_id = %s AND checkpoint_ns = %s "
    "ORDER BY checkpoint_id DESC LIMIT 1"
)
_LOCK = "SELECT pg_advisory_xact_lock(hashtextextended(%s, 7157))"


class _SkipAbandonedWrites:
    """A saver mixin: the pending writes of an abandoned turn are not stored either."""

    def put_writes(
        self, config: Any, writes: Sequence[tuple[str, Any]], task_id: str, task_path: str = ""
    ) -> None:
        if turn_commit().state == "abandoned":
            return
        super().put_writes(config, writes, task_id, task_path)  # type: ignore[misc]


def sqlite_saver(conn: Any, serde: Any) -> Any:
    """``SqliteSaver`` whose writes go through the running turn's commit decision."""
    import threading

    from langgraph.checkpoint.sqlite import SqliteSaver

    from matjip.agent.checkpoints import WriterLock, compare_and_set

    class GuardedSqliteSaver(_SkipAbandonedWrites, SqliteSaver):
        def __init__(self, conn: Any, *, serde: Any = None) -> None:
            super().__init__(conn, serde=serde)
            self.lock = threading.RLock()  # type: ignore[assignment]  # held around SqliteSaver.put
            self.writer = WriterLock(conn)  # the machine's writers queue on a lock file, not in SQLite

        def put(self, config: Any, checkpoint: Any, metadata: Any, new_versions: Any) -> Any:
            conf = config["configurable"]
            thread_id, ns = str(conf["thread_id"]), str(conf.get("checkpoint_ns", ""))
            commit = turn_commit()
            with commit.committing(), self.lock:
                self.setup()  # its executescript would commit the transaction below
                with compare_and_set(self.conn, thread_id, ns, conf.get("checkpoint_id"), self.writer):
                    saved = super().put(config, checkpoint, metadata, new_versions)
                commit.saved = dict(checkpoint["channel_values"])
                return saved

    return GuardedSqliteSaver(conn, serde=serde)


def postgres_saver(pool: Any, serde: Any) -> Any:
    """``PostgresSaver`` over ``pool`` with commit-or-abandon and compare-and-set writes."""
    from langgraph.checkpoint.postgres import PostgresSaver

    class GuardedPostgresSaver(_SkipAbandonedWrites, PostgresSaver):
        def put(self, config: Any, checkpoint: Any, metadata: Any, new_versions: Any) -> Any:
            conf = config["configurable"]
            thread_id, ns = str(conf["thread_id"]), str(conf.get("checkpoint_ns", ""))
            parent = conf.get("checkpoint_id")
            commit = turn_commit()
            with commit.committing(), pool.connection() as conn, conn.transaction():
                conn.execute(_LOCK, (f"{thread_id}\n{ns}",))
                row = conn.execute(_LATEST, (thread_id, ns)).fetchone()
                latest = (row["checkpoint_id"] if isinstance(row, dict) else row[0]) if row else None
                if latest is not None and str(latest) != str(parent):
                    raise ConversationMoved(
                        f"session {thread_id}: another turn was saved meanwhile; this turn's state was not saved"
                    )
                saved = PostgresSaver(conn, serde=self.serde).put(config, checkpoint, metadata, new_versions)
                commit.saved = dict(checkpoint["channel_values"])
                return saved

    return GuardedPostgresSaver(pool, serde=serde)
