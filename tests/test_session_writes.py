"""Session writes under many turns at once (issue 23, target 3): a turn's checkpoint and its
retention rows go in one transaction, turns queued behind a write share its transaction (group
commit) yet each is still compare-and-set, and reads do not wait behind writes."""

from __future__ import annotations

import sqlite3
import sys
import threading
import time
from pathlib import Path
from typing import Any

from matjip.agent.checkpoints import SqliteCheckpoints, WriterLock, empty_checkpoint
from matjip.agent.retention import Retention
from matjip.agent.service import open_sessions
from matjip.errors import ConversationMoved
from matjip.settings import Settings


def _store(path: Path) -> tuple[SqliteCheckpoints, list[str]]:
    """A store on ``path`` with its retention, and the SQL statements its connection runs."""
    store = SqliteCheckpoints(open_sessions(path))
    Retention(store, max_age_days=30)
    statements: list[str] = []
    store.conn.set_trace_callback(statements.append)
    return store, statements


def _config(thread: str, checkpoint_id: str | None = None) -> dict[str, Any]:
    conf = {"thread_id": thread, "checkpoint_ns": ""}
    return {"configurable": {**conf, "checkpoint_id": checkpoint_id} if checkpoint_id else conf}


def _rows(path: Path, sql: str, *args: object) -> list[tuple[Any, ...]]:
    with sqlite3.connect(path) as conn:
        return list(conn.execute(sql, args))


def test_a_turn_writes_its_checkpoint_and_retention_rows_in_one_transaction(tmp_path: Path) -> None:
    path = tmp_path / "sessions.sqlite"
    store, statements = _store(path)
    first = store.put(_config("s"), empty_checkpoint(), {}, {})
    statements.clear()
    second = empty_checkpoint()
    store.put(first, second, {}, {})
    # one BEGIN IMMEDIATE, one COMMIT: the old checkpoint deleted and the activity counted inside
    assert sum(s.startswith("BEGIN IMMEDIATE") for s in statements) == 1
    assert sum(s.strip().upper() == "COMMIT" for s in statements) == 1
    assert _rows(path, "SELECT checkpoint_id FROM checkpoints WHERE thread_id = 's'") == [(second["id"],)]
    assert _rows(path, "SELECT turns FROM session_activity WHERE thread_id = 's'") == [(2,)]
    store.close()
    store.conn.close()


def test_turns_queued_behind_a_write_share_one_transaction_and_each_is_compared(tmp_path: Path) -> None:
    path = tmp_path / "sessions.sqlite"
    store, statements = _store(path)
    starts = {t: store.put(_config(t), empty_checkpoint(), {}, {}) for t in ("a", "b", "c")}
    store.put(starts["c"], empty_checkpoint(), {}, {})  # session c moved on: a turn from its start is stale
    statements.clear()
    outcome: dict[str, object] = {}
    news = {t: empty_checkpoint() for t in starts}

    def turn(thread: str) -> None:
        try:
            outcome[thread] = store.put(starts[thread], news[thread], {}, {})["configurable"]["checkpoint_id"]
        except ConversationMoved as exc:
            outcome[thread] = exc

    threads = [threading.Thread(target=turn, args=(t,)) for t in starts]
    with store.lock:  # a write in progress: the three turns queue behind it
        for t in threads:
            t.start()
        deadline = time.monotonic() + 10
        while len(store._pending) < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert len(store._pending) == 3
    for t in threads:
        t.join(10)
    assert sum(s.startswith("BEGIN IMMEDIATE") for s in statements) == 1
    assert outcome["a"] == news["a"]["id"] and outcome["b"] == news["b"]["id"]
    assert isinstance(outcome["c"], ConversationMoved)  # and the others were saved all the same
    assert _rows(path, "SELECT checkpoint_id FROM checkpoints WHERE thread_id = 'a'") == [(news["a"]["id"],)]
    assert news["c"]["id"] not in {r[0] for r in _rows(path, "SELECT checkpoint_id FROM checkpoints")}
    store.close()
    store.conn.close()


def test_turns_that_arrive_while_the_write_waits_for_another_worker_join_its_transaction(
    tmp_path: Path,
) -> None:
    """The queue is taken once the writer holds the machine's writer lock, not before it waits:
    the turns finished meanwhile (while the other worker wrote) go into the same transaction."""
    path = tmp_path / "sessions.sqlite"
    store, statements = _store(path)
    starts = {t: store.put(_config(t), empty_checkpoint(), {}, {}) for t in ("a", "b", "c")}
    statements.clear()
    other_worker = WriterLock(sqlite3.connect(path))  # its own open file: flock excludes it
    saved: dict[str, str] = {}

    def turn(thread: str) -> None:
        saved[thread] = store.put(starts[thread], empty_checkpoint(), {}, {})["configurable"]["checkpoint_id"]

    threads = {t: threading.Thread(target=turn, args=(t,)) for t in starts}
    with other_worker.held():  # another worker is writing
        threads["a"].start()
        deadline = time.monotonic() + 10
        while not store.lock.locked() and time.monotonic() < deadline:  # a's write waits for the lock
            time.sleep(0.01)
        threads["b"].start()
        threads["c"].start()
        while len(store._pending) < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert len(store._pending) == 3
    for t in threads.values():
        t.join(10)
    assert sum(s.startswith("BEGIN IMMEDIATE") for s in statements) == 1
    assert sorted(saved) == ["a", "b", "c"]
    for thread, checkpoint_id in saved.items():
        assert _rows(path, "SELECT checkpoint_id FROM checkpoints WHERE thread_id = ?", thread) == [
            (checkpoint_id,)
        ]
    assert _rows(path, "SELECT thread_id, turns FROM session_activity ORDER BY thread_id") == [
        ("a", 2),
        ("b", 2),
        ("c", 2),
    ]
    other_worker.close()
    store.close()
    store.conn.close()


def test_wal_checkpoints_run_outside_the_write_locks(tmp_path: Path, monkeypatch: Any) -> None:
    """SQLite's automatic checkpoint would copy the WAL into the database inside the commit that
    fills it, every worker's writes waiting meanwhile; the store checkpoints every few turns once
    the writer has let go of its lock and of the machine's writer lock."""
    import contextlib
    import fcntl

    from matjip.agent import checkpoints

    monkeypatch.setattr(checkpoints, "WAL_CHECKPOINT_TURNS", 3)
    path = tmp_path / "sessions.sqlite"
    store, _ = _store(path)
    assert store.conn.execute("PRAGMA wal_autocheckpoint").fetchone() == (0,)
    seen: list[tuple[bool, bool]] = []  # per checkpoint: the store's write lock held, the machine's free
    original = store._reading

    def machine_lock_free() -> bool:
        with open(str(path) + ".writer", "rb") as f:
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return False
            fcntl.flock(f, fcntl.LOCK_UN)
            return True

    @contextlib.contextmanager
    def reading() -> Any:
        with original() as conn:
            conn.set_trace_callback(
                lambda sql: (
                    seen.append((store.lock.locked(), machine_lock_free()))
                    if "wal_checkpoint" in sql
                    else None
                )
            )
            yield conn
            conn.set_trace_callback(None)

    monkeypatch.setattr(store, "_reading", reading)
    saved = store.put(_config("s"), empty_checkpoint(), {}, {})
    for _ in range(7):
        saved = store.put(saved, empty_checkpoint(), {}, {})
    assert seen == [(False, True), (False, True)]  # after the 3rd and the 6th turn written
    with sqlite3.connect(path) as conn:  # the WAL was copied into the database file
        busy, frames, copied = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    assert busy == 0 and frames == copied
    latest = store.get_tuple(_config("s"))
    assert latest is not None and latest.checkpoint["id"] == saved["configurable"]["checkpoint_id"]
    store.close()
    store.conn.close()


def test_a_read_does_not_wait_behind_a_write(tmp_path: Path) -> None:
    path = tmp_path / "sessions.sqlite"
    store, _ = _store(path)
    saved = store.put(_config("s"), empty_checkpoint(), {}, {})
    read: list[Any] = []
    with store.lock:  # a writer holds the store (waiting for the machine's writer lock, committing …)
        reader = threading.Thread(target=lambda: read.append(store.get_tuple(_config("s"))))
        reader.start()
        reader.join(5)
        assert not reader.is_alive()
    assert read[0].checkpoint["id"] == saved["configurable"]["checkpoint_id"]
    store.close()
    store.conn.close()


def test_a_sequential_turn_streams_node_events_while_the_node_runs(sample_settings: Settings) -> None:
    """Under an event scope (the API's runner) the answer chunks of a streamed (LLM) answer go out
    while the answering node still runs, not when it returns; the generator does not repeat them."""
    from matjip.agent.service import Agent
    from matjip.providers.guard import event_scope

    settings = sample_settings.model_copy(update={"llm_provider": "fake"})
    agent = Agent(settings, persist=False, sequential=True)
    live: list[tuple[str, bool]] = []

    def sink(event: Any) -> None:
        frame, inside = sys._getframe(1), False
        while frame is not None and not inside:
            inside = frame.f_code.co_filename.replace("\\", "/").endswith("agent/nodes/generate.py")
            frame = frame.f_back
        live.append((event.event, inside))

    with event_scope(sink):
        yielded = [ev.event for ev in agent.stream("강남역 일식 맛집")]
    agent.close()
    answers = [inside for name, inside in live if name == "answer"]
    assert answers and all(answers)
    assert "answer" not in yielded and yielded[0] == "session" and yielded[-2:] == ["trace", "end"]


def test_the_api_runs_turns_in_sequence(sample_settings: Settings) -> None:
    """No LangGraph runtime (its executor threads, ~6 ms of CPU a turn here) in a served turn."""
    from matjip.agent.graph import SequentialGraph
    from matjip.api.state import _load_agent

    agent = _load_agent(sample_settings)
    try:
        assert isinstance(getattr(agent, "graph", None), SequentialGraph)
    finally:
        agent.close()  # type: ignore[attr-defined]
