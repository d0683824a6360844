"""Several worker processes on one machine (issue 23, target 3): ``matjip serve --workers N``.

The workers share one port, the memory-mapped embedded index and the data directory's SQLite
sessions; a conversation continues on whichever worker a turn lands on, a turn overtaken by another
worker is not saved over it, and a worker that dies is replaced.
"""

from __future__ import annotations

import mmap
import os
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import pytest

from matjip.errors import ConversationMoved
from matjip.settings import Settings

JSON = {"Accept": "application/json"}


# -- sessions: compare and set across processes (each connection stands for one worker) ------


def _langgraph_saver(path: Path) -> Any:
    from matjip.agent.savers import sqlite_saver
    from matjip.agent.serde import checkpoint_serializer
    from matjip.agent.service import open_sessions

    return sqlite_saver(open_sessions(path), checkpoint_serializer())


def _sequential_saver(path: Path) -> Any:
    from matjip.agent.checkpoints import SqliteCheckpoints
    from matjip.agent.service import open_sessions

    return SqliteCheckpoints(open_sessions(path))


@pytest.mark.parametrize("saver", [_langgraph_saver, _sequential_saver], ids=["langgraph", "sequential"])
def test_a_turn_overtaken_by_another_worker_is_not_saved(
    tmp_path: Path, saver: Callable[[Path], Any]
) -> None:
    from langgraph.checkpoint.base import empty_checkpoint

    path = tmp_path / "sessions.sqlite"
    one, two = saver(path), saver(path)  # two workers, each with its own connection
    start = {"configurable": {"thread_id": "s", "checkpoint_ns": ""}}
    first = empty_checkpoint()
    turn1 = one.put(start, first, {}, {})
    # both workers start a turn from turn 1; worker one saves first
    mine, theirs = empty_checkpoint(), empty_checkpoint()
    assert one.put(turn1, mine, {}, {})["configurable"]["checkpoint_id"] == mine["id"]
    with pytest.raises(ConversationMoved):
        two.put(turn1, theirs, {}, {})
    latest = two.get_tuple(start)
    assert latest is not None and latest.checkpoint["id"] == mine["id"]
    # a turn that starts from the latest saves, on either worker
    after = empty_checkpoint()
    two.put(latest.config, after, {}, {})
    saved = one.get_tuple(start)
    assert saved is not None and saved.checkpoint["id"] == after["id"]
    one.conn.close()
    two.conn.close()


def test_a_remembered_openai_history_continues_one_request_across_workers(tmp_path: Path) -> None:
    from matjip.api.sessions import ConversationSessions

    path = tmp_path / "openai_conversations.sqlite"
    one, two = ConversationSessions(path), ConversationSessions(path)
    history = [("user", "잠실 치킨"), ("assistant", "치킨집 3곳을 찾았어요.")]
    sid = one.new_session()
    one.remember(history, sid)
    assert two.session_for(history) == sid  # the next request landed on the other worker
    # it was taken: the worker that remembered it does not hand it out a second time
    assert one.session_for(history) != sid
    one.close()
    two.close()


# -- the embedded index: memory-mapped, once in the page cache for every worker ----------------


def test_the_embedded_index_columns_and_vectors_are_memory_mapped(sample_settings: Settings) -> None:
    from matjip.index import open_index

    index = open_index(sample_settings)
    snap = index._require()  # type: ignore[attr-defined]
    assert snap.vectors.size and isinstance(snap.vectors.base, np.memmap)
    mapped = {name: arr for name, arr in snap.cols.items() if arr.size}
    assert mapped and all(isinstance(a.base, mmap.mmap) for a in mapped.values()), [
        n for n, a in mapped.items() if not isinstance(a.base, mmap.mmap)
    ]
    # one map (one file descriptor) for the whole file, not one per array
    assert len({id(a.base) for a in mapped.values()}) == 1
    assert all(a.flags.aligned and not a.flags.writeable for a in mapped.values())
    with np.load(snap.directory / "columns.npz") as z:  # still a plain .npz
        for name in z.files:
            assert z[name].tobytes() == snap.cols[name].tobytes(), name


# -- matjip serve --workers 2 ------------------------------------------------------------------


def test_a_worker_socket_gives_its_connections_tcp_nodelay() -> None:
    """Streamed chunks are not held back by Nagle's algorithm (~40 ms a chunk on a keep-alive
    connection otherwise: asyncio sets TCP_NODELAY only when the listener says it is TCP)."""
    import asyncio
    import socket

    from matjip.commands.workers import reuse_port_socket

    async def accept_one() -> int:
        sock = reuse_port_socket("127.0.0.1", 0, listen=True)
        port = sock.getsockname()[1]
        seen: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        def on_connect(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            raw = writer.get_extra_info("socket")
            seen.set_result(raw.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            writer.close()

        server = await asyncio.start_server(on_connect, sock=sock)
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            return await asyncio.wait_for(seen, 10)
        finally:
            writer.close()
            server.close()

    assert asyncio.run(accept_one()) != 0


async def _burst(base: str, n: int) -> list[int]:
    """``n`` connections opened at once (as a browser or a load balancer does): who answered."""
    import asyncio

    async def one() -> int:
        async with httpx.AsyncClient(base_url=base, timeout=30) as client:
            r = await client.get("/health")
            return int(r.headers["x-matjip-worker"])

    return list(await asyncio.gather(*(one() for _ in range(n))))


def _health_pids(base: str, tries: int = 12) -> set[int]:
    pids: set[int] = set()
    for _ in range(tries):
        try:
            r = httpx.get(base + "/health", timeout=5)
        except httpx.HTTPError:
            continue
        if r.status_code == 200 and r.json().get("index_loaded"):
            pids.add(int(r.json()["worker_pid"]))
            assert int(r.headers["x-matjip-worker"]) == r.json()["worker_pid"]
    return pids


@pytest.mark.slow
def test_two_workers_share_one_port_and_continue_a_conversation(
    sample_settings: Settings, tmp_path: Path
) -> None:
    from support.workers import chat_turn, two_embedded_workers

    with two_embedded_workers(sample_settings.data_dir, tmp_path) as server:
        first, pid = chat_turn(server.base, "잠실 카페", None)
        sid, kinds = first["session_id"], first["frame"]["kinds"]
        assert first["cards"] and kinds == ["카페"]
        served = {pid}
        for _ in range(40):  # new connections: the kernel hands each to either worker
            more, pid = chat_turn(server.base, "다른 데는 없어?", sid)
            served.add(pid)
            assert more["session_id"] == sid
            assert more["frame"]["kinds"] == kinds, more["frame"]  # the frame of turn 1, on any worker
            if len(served) == 2:
                break
        assert len(served) == 2, f"one worker ({served}) served all the turns"
        assert server.proc.pid not in served  # workers are processes of their own
        # a burst of connections is spread over the workers, not taken by whichever woke first
        import asyncio

        burst = asyncio.run(_burst(server.base, 16))
        assert set(burst) == served, burst

        # a worker that dies is replaced, and the conversation continues
        victim = served.pop()
        os.kill(victim, signal.SIGKILL)
        replaced: set[int] = set()
        for _ in range(240):  # a wait for the new worker's start-up, not a timed assertion
            replaced = _health_pids(server.base, tries=4) - {victim}
            if len(replaced) == 2:
                break
            time.sleep(0.5)
        assert len(replaced) == 2 and victim not in replaced, (replaced, server.tail())
        more, _ = chat_turn(server.base, "다른 데는 없어?", sid)
        assert more["frame"]["kinds"] == kinds
    assert server.proc.returncode is not None


# -- the session database's writers queue on a lock file, not in SQLite's busy handler ----------


def _hold_writer_lock(path: str, ready: Any, seconds: float) -> None:
    """Another worker (a process) in the middle of a session write: the writer lock held."""
    import sqlite3

    from matjip.agent.checkpoints import WriterLock

    lock = WriterLock(sqlite3.connect(path))
    with lock.held():
        ready.set()
        time.sleep(seconds)


@pytest.mark.parametrize("saver", [_langgraph_saver, _sequential_saver], ids=["langgraph", "sequential"])
def test_a_write_waits_for_another_workers_writer_lock_and_goes_on_when_it_dies(
    tmp_path: Path, saver: Callable[[Path], Any]
) -> None:
    import multiprocessing

    from langgraph.checkpoint.base import empty_checkpoint

    path = tmp_path / "sessions.sqlite"
    mine = saver(path)
    start = {"configurable": {"thread_id": "s", "checkpoint_ns": ""}}
    ctx = multiprocessing.get_context("spawn")
    ready = ctx.Event()
    holder = ctx.Process(target=_hold_writer_lock, args=(str(path), ready, 60.0))
    holder.start()
    try:
        assert ready.wait(60)
        done = threading.Event()
        writing = threading.Thread(target=lambda: (mine.put(start, empty_checkpoint(), {}, {}), done.set()))
        writing.start()
        assert not done.wait(0.5)  # queued behind the other worker's write (SQLite itself is free)
        os.kill(holder.pid or 0, signal.SIGKILL)  # that worker dies mid-write: the kernel frees its lock
        t0 = time.monotonic()
        assert done.wait(10)
        assert time.monotonic() - t0 < 2.0
        writing.join()
    finally:
        holder.kill()
        holder.join()
    assert mine.get_tuple(start) is not None
    mine.conn.close()
