"""One session writer for every worker (issue 23, target 3): a worker's turns send their rows to the
writer process, which writes them in its group commit; a session that moved on is still refused
(409) through it; a worker whose writer is gone — not started, killed, or killed after committing
but before answering — writes the row itself, and a row already written is not reported as
overtaken."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import ormsgpack
import pytest

from matjip.agent.checkpoints import SqliteCheckpoints, empty_checkpoint
from matjip.agent.retention import Retention
from matjip.agent.service import open_sessions
from matjip.agent.session_writer import Writer, WriterClient, WriterUnavailable
from matjip.errors import ConversationMoved
from matjip.settings import Settings


def _store(path: Path) -> SqliteCheckpoints:
    store = SqliteCheckpoints(open_sessions(path))
    Retention(store, max_age_days=30)
    return store


def _config(thread: str) -> dict[str, Any]:
    return {"configurable": {"thread_id": thread, "checkpoint_ns": ""}}


def _rows(path: Path, sql: str, *args: object) -> list[tuple[Any, ...]]:
    with sqlite3.connect(path) as conn:
        return list(conn.execute(sql, args))


class _Running:
    """A :class:`Writer` serving in a thread of this process (the writer process's loop)."""

    def __init__(self, writer: Writer) -> None:
        self.writer = writer
        self.thread = threading.Thread(target=writer.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.writer.close()
        self.thread.join(5)
        self.writer.store.close()
        self.writer.store.conn.close()


def test_a_workers_rows_are_written_by_the_writer_and_a_moved_session_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "sessions.sqlite"
    address = str(tmp_path / "w.sock")
    running = _Running(Writer(_store(path), address))
    writer_statements: list[str] = []
    running.writer.store.conn.set_trace_callback(writer_statements.append)
    worker = _store(path)
    worker.remote = WriterClient(address)
    worker_statements: list[str] = []
    worker.conn.set_trace_callback(worker_statements.append)
    try:
        first = worker.put(_config("s"), empty_checkpoint(), {}, {})
        second = empty_checkpoint()
        worker.put(first, second, {}, {})
        with pytest.raises(ConversationMoved):  # a turn from the first checkpoint: overtaken
            worker.put(first, empty_checkpoint(), {}, {})
        # the worker's own connection wrote nothing: the writer did, in its transactions
        assert not [s for s in worker_statements if s.startswith(("BEGIN", "INSERT"))], worker_statements
        assert sum(s.startswith("BEGIN IMMEDIATE") for s in writer_statements) == 3
        assert _rows(path, "SELECT checkpoint_id FROM checkpoints WHERE thread_id = 's'") == [(second["id"],)]
        assert _rows(path, "SELECT turns FROM session_activity WHERE thread_id = 's'") == [(2,)]
        assert worker.get_tuple(_config("s")).checkpoint["id"] == second["id"]  # type: ignore[union-attr]
    finally:
        worker.close()
        worker.conn.close()
        running.stop()


def test_the_writers_of_several_workers_share_its_group_commit(tmp_path: Path) -> None:
    path = tmp_path / "sessions.sqlite"
    address = str(tmp_path / "w.sock")
    running = _Running(Writer(_store(path), address))
    statements: list[str] = []
    running.writer.store.conn.set_trace_callback(statements.append)
    workers = [_store(path) for _ in range(2)]
    for w in workers:
        w.remote = WriterClient(address)
    saved: dict[str, str] = {}

    def turn(worker: SqliteCheckpoints, thread: str) -> None:
        saved[thread] = worker.put(_config(thread), empty_checkpoint(), {}, {})["configurable"][
            "checkpoint_id"
        ]

    threads = [threading.Thread(target=turn, args=(workers[i % 2], f"s{i}")) for i in range(6)]
    try:
        with running.writer.store.lock:  # the first turn's batch waits: the other five queue meanwhile
            for t in threads:
                t.start()
            deadline = time.monotonic() + 10
            while len(running.writer.store._pending) < 1 and time.monotonic() < deadline:
                time.sleep(0.01)
            time.sleep(1.0)
        for t in threads:
            t.join(10)
        # the first alone, then the five that queued in one (three at most on a slow machine): never
        # one transaction a row
        assert 2 <= sum(s.startswith("BEGIN IMMEDIATE") for s in statements) <= 3
        assert sorted(_rows(path, "SELECT thread_id, checkpoint_id FROM checkpoints")) == sorted(
            saved.items()
        )
    finally:
        for w in workers:
            w.close()
            w.conn.close()
        running.stop()


def test_without_a_writer_a_worker_writes_its_rows_itself(tmp_path: Path) -> None:
    path = tmp_path / "sessions.sqlite"
    worker = _store(path)
    worker.remote = WriterClient(str(tmp_path / "none.sock"))  # not started (or dead)
    try:
        with pytest.raises(WriterUnavailable):
            worker.remote.write(("s", "", "x", None, "msgpack", b"", b"{}"), "None")
        first = worker.put(_config("s"), empty_checkpoint(), {}, {})
        with pytest.raises(ConversationMoved):  # compared and set here as well
            worker.put(_config("s"), empty_checkpoint(), {}, {})
        assert _rows(path, "SELECT checkpoint_id FROM checkpoints") == [
            (first["configurable"]["checkpoint_id"],)
        ]
    finally:
        worker.close()
        worker.conn.close()


def test_a_row_already_written_is_written_again_not_reported_as_overtaken(tmp_path: Path) -> None:
    path = tmp_path / "sessions.sqlite"
    store = _store(path)
    checkpoint = empty_checkpoint()
    row = ("s", "", checkpoint["id"], None, "msgpack", b"state", b"{}")
    assert store.write_rows([(row, "None")]) == [None]
    assert store.write_rows([(row, "None")]) == [None]  # the writer committed it, then died: written again
    later = ("s", "", empty_checkpoint()["id"], checkpoint["id"], "msgpack", b"state 2", b"{}")
    assert store.write_rows([(later, checkpoint["id"])]) == [None]
    (moved,) = store.write_rows([(row, "None")])
    assert isinstance(moved, ConversationMoved)  # no longer the latest
    assert _rows(path, "SELECT checkpoint_id FROM checkpoints") == [(later[2],)]
    store.close()
    store.conn.close()


class _DiesAfterCommitting(Writer):
    """A writer killed between its commit and its answers."""

    def _write(self, batch: list[tuple[socket.socket, bytes]]) -> None:
        rows = [ormsgpack.unpackb(request) for _, request in batch]
        assert self.store.write_rows([(tuple(r[:-1]), str(r[-1])) for r in rows]) == [None] * len(rows)
        for conn, _ in batch:
            self._drop(conn)


def test_a_row_the_writer_committed_before_dying_is_saved_once_and_the_turn_succeeds(tmp_path: Path) -> None:
    path = tmp_path / "sessions.sqlite"
    address = str(tmp_path / "w.sock")
    running = _Running(_DiesAfterCommitting(_store(path), address))
    worker = _store(path)
    worker.remote = WriterClient(address)
    try:
        checkpoint = empty_checkpoint()
        saved = worker.put(_config("s"), checkpoint, {}, {})
        assert saved["configurable"]["checkpoint_id"] == checkpoint["id"]
        assert _rows(path, "SELECT checkpoint_id FROM checkpoints") == [(checkpoint["id"],)]
        assert _rows(path, "SELECT turns FROM session_activity") == [(2,)]  # written twice, one row
    finally:
        worker.close()
        worker.conn.close()
        running.stop()


# -- matjip serve --workers 2: the supervisor's writer ---------------------------------------------


def _writer_pids(log: str) -> list[int]:
    return [int(p) for p in re.findall(r"session writer started \[(\d+)\]", log)]


@pytest.mark.slow
def test_served_turns_go_through_the_writer_and_survive_its_kill_9(
    sample_settings: Settings, tmp_path: Path
) -> None:
    from support.workers import chat_turn, two_embedded_workers

    with two_embedded_workers(sample_settings.data_dir, tmp_path) as server:
        first, _ = chat_turn(server.base, "잠실 카페", None)
        sid, kinds = first["session_id"], first["frame"]["kinds"]
        (writer,) = _writer_pids(server.log.read_text(errors="replace"))
        # the writer stopped: a turn cannot end (its save waits for the writer's answer) …
        os.kill(writer, signal.SIGSTOP)
        try:
            with pytest.raises(httpx.TimeoutException):
                chat_turn(server.base, "다른 데는 없어?", sid, timeout=3)
        finally:
            os.kill(writer, signal.SIGCONT)
        time.sleep(0.5)
        # … killed: the workers write themselves, and the supervisor starts another writer
        os.kill(writer, signal.SIGKILL)
        for _ in range(4):
            more, _ = chat_turn(server.base, "다른 데는 없어?", sid)
            assert more["session_id"] == sid and more["frame"]["kinds"] == kinds
        for _ in range(60):  # a wait for the new writer's start-up, not a timed assertion
            if len(_writer_pids(server.log.read_text(errors="replace"))) == 2:
                break
            time.sleep(0.5)
        assert len(_writer_pids(server.log.read_text(errors="replace"))) == 2, server.tail()
        more, _ = chat_turn(server.base, "다른 데는 없어?", sid)
        assert more["frame"]["kinds"] == kinds


# -- a session's next read in the same process: the state it saved, not the row decoded again --------

TALK = [
    "잠실 카페",
    "다른 데는 없어?",
    "첫 번째 거기 몇 시까지 해?",
    "강남역 일식 맛집",
    "거기 주차 돼?",
    "더 싼 데",
]


def _talk(settings: Settings, keep_decoded: bool, decode: Any) -> list[tuple[str, list[str]]]:
    """The conversation on an agent whose sessions are ``settings``' own file; each turn's answer and
    cards, and (with the decoded state kept) that the kept state is what its row decodes to."""
    from datetime import datetime

    from matjip.agent.service import Agent

    agent = Agent(settings, sequential=True)
    store = agent._checkpointer
    assert isinstance(store, SqliteCheckpoints)
    store.keep_decoded = keep_decoded
    now = datetime(2026, 11, 28, 12, 30)
    out: list[tuple[str, list[str]]] = []
    sid: str | None = None
    try:
        for message in TALK:
            end = [ev for ev in agent.stream(message, sid, now=now) if ev.event == "end"][-1].data
            sid = str(end["session_id"])
            out.append((str(end["answer"]), [str(c["name"]) for c in end["cards"]]))
            if keep_decoded:
                kept = store._decoded[(sid, "")]
                row = _rows(
                    settings.sessions_path,
                    "SELECT type, checkpoint FROM checkpoints WHERE thread_id = ?",
                    sid,
                )
                assert decode(row[-1])["channel_values"] == kept.checkpoint["channel_values"]
    finally:
        agent.close()
    return out


def test_a_session_continues_from_its_kept_state_as_from_its_row(
    sample_settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import matjip.agent.checkpoints as checkpoints

    reads: list[int] = []
    original = checkpoints.loads_typed
    monkeypatch.setattr(checkpoints, "loads_typed", lambda data: (reads.append(1), original(data))[1])
    runs = {}
    for keep in (False, True):
        data = tmp_path / f"data-{keep}"
        shutil.copytree(sample_settings.data_dir, data)
        reads.clear()
        runs[keep] = _talk(sample_settings.model_copy(update={"data_dir": data}), keep, original)
        runs[f"reads {keep}"] = len(reads)  # type: ignore[assignment]
    assert runs[True] == runs[False]  # the same answers and cards, turn by turn
    assert runs["reads False"] == len(TALK) - 1  # every turn but the first decoded its session's row
    assert runs["reads True"] == 0  # none: each read was handed the state the turn before saved


def test_a_session_writer_that_cannot_start_is_given_up_on(tmp_path: Path) -> None:
    from matjip.commands.workers import Supervisor

    supervisor = Supervisor(
        Settings(data_dir=tmp_path / "data"), "127.0.0.1", 0, 2, log_level="info", access_log=False
    )
    assert supervisor.writer_address is not None  # sessions in SQLite: a writer for the workers
    supervisor.writer_address = str(tmp_path / "missing" / "w.sock")  # its socket cannot be bound
    supervisor._start_writer()
    assert supervisor._writer is None
    supervisor._keep_writer()  # and not started again
    assert supervisor._writer is None
    shutil.rmtree(str(supervisor._writer_dir))
