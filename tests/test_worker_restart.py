"""A worker restart loses no conversation (issue 26, embedded backend).

One ``matjip serve`` on the embedded index (sessions in the data directory's SQLite) answers 8
conversations; it is stopped while they talk and started again. Every conversation continues
afterwards: a follow-up about "the first one" names the first card its client was last shown, every
turn the client saw answered is in the saved conversation and no failed one is.
"""

from __future__ import annotations

import shutil
import sqlite3
import threading
import time
from pathlib import Path

import httpx
import pytest

from matjip.agent.checkpoints import SqliteCheckpoints
from matjip.settings import Settings
from support.workers import Worker

pytestmark = pytest.mark.slow

KINDS = ("치킨", "카페", "고깃집", "중국집", "일식", "분식", "술집", "국밥")
JSON = {"Accept": "application/json"}


class Talk:
    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.session_id: str | None = None
        self.answered = 0
        self.last_answer: str | None = None
        self.last_cards: list[dict[str, object]] = []
        self.failures: list[str] = []

    def turn(self, worker: Worker, message: str) -> httpx.Response | None:
        body: dict[str, object] = {"message": message}
        if self.session_id:
            body["session_id"] = self.session_id
        try:
            r = httpx.post(worker.base + "/v1/chat", json=body, headers=JSON, timeout=60)
        except httpx.HTTPError as exc:  # the worker is down: the client sees no answer
            self.failures.append(type(exc).__name__)
            return None
        if r.status_code != 200:
            self.failures.append(str(r.status_code))
            return r
        data = r.json()
        self.session_id = data["session_id"]
        self.answered += 1
        self.last_answer = data["answer"]
        if data.get("cards"):
            self.last_cards = data["cards"]
        return r


def test_a_worker_restart_loses_no_conversation(sample_settings: Settings, tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(sample_settings.data_dir, data)
    worker = Worker(data, None, tmp_path)
    try:
        worker.wait_up()
        talks = [Talk(k) for k in KINDS]
        for t in talks:
            r = t.turn(worker, f"잠실 {t.kind}")
            assert r is not None and r.status_code == 200, r and r.text
        stop = threading.Event()

        def talk(t: Talk) -> None:
            n = 0
            while not stop.is_set():
                t.turn(worker, "다른 데는 없어?" if n % 2 == 0 else f"잠실 {t.kind}")
                n += 1
                time.sleep(0.2)

        threads = [threading.Thread(target=talk, args=(t,)) for t in talks]
        for th in threads:
            th.start()
        time.sleep(2)
        worker.stop()  # SIGTERM: a restart (deploy); turns in flight finish or fail
        time.sleep(1)
        worker.start()
        worker.wait_up()
        time.sleep(2)
        stop.set()
        for th in threads:
            th.join()

        assert any(t.failures for t in talks), "the restart produced no failed turn: not exercised"
        conn = sqlite3.connect(data / "sessions.sqlite", check_same_thread=False)
        try:
            store = SqliteCheckpoints(conn)
            asked: dict[str, object] = {}
            for t in talks:
                assert t.session_id is not None
                saved = store.get_tuple({"configurable": {"thread_id": t.session_id}})
                assert saved is not None
                messages = saved.checkpoint["channel_values"].get("messages") or []
                answers = [m.get("content") for m in messages if m.get("role") == "assistant"]
                asked[t.kind] = answers[-1] if answers else None
        finally:
            conn.close()
        # the conversation's saved state ends with the last answer its client received: no failed
        # turn was saved after it, and no answered one was lost
        assert asked == {t.kind: t.last_answer for t in talks}, [(t.kind, t.failures) for t in talks]
        for t in talks:
            assert t.session_id is not None
            name = str(t.last_cards[0]["name"])
            r = t.turn(worker, "첫 번째 거기 몇 시까지 해?")
            assert r is not None and r.status_code == 200
            assert name in str(r.json()["answer"]), (name, r.json()["answer"][:200])
    finally:
        worker.stop()
