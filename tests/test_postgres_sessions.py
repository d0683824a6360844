"""Several workers on one database: two ``matjip serve`` processes, each with its own data
directory, share the PostgreSQL index and sessions, so a conversation started on one continues
on the other (the LangGraph Postgres checkpointer; the OpenAI endpoint's conversation map too)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import httpx
import pytest

from support.demo import write_sample
from support.pgserver import PgServer
from support.records import ingest_postgres
from support.workers import Worker

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


@pytest.fixture(scope="module")
def two_workers(
    pg_server: PgServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, str, str]]:
    url = pg_server.database("workers")
    root = tmp_path_factory.mktemp("workers")
    sample = root / "sample.jsonl"
    write_sample(sample, every=10)
    a, b = root / "a", root / "b"
    ingest_postgres(sample, a, url, root)  # no .env from the working tree
    b.mkdir()
    shutil.copy(a / "documents.sqlite", b / "documents.sqlite")  # worker b's own store (its NLU vocabulary)
    workers = [Worker(a, url, root), Worker(b, url, root)]
    try:
        for worker in workers:
            worker.wait_up()
        yield workers[0].base, workers[1].base, url
    finally:
        for worker in workers:
            worker.proc.terminate()
        for worker in workers:
            worker.proc.wait(timeout=30)


def test_a_conversation_continues_on_another_worker(two_workers: tuple[str, str, str]) -> None:
    a, b, _ = two_workers
    headers = {"Accept": "application/json"}
    first = httpx.post(a + "/v1/chat", json={"message": "홍대 카페"}, headers=headers, timeout=60).json()
    assert first["cards"] and first["frame"]["kinds"] == ["카페"]
    sid = first["session_id"]
    more = httpx.post(
        b + "/v1/chat", json={"message": "다른 데는 없어?", "session_id": sid}, headers=headers, timeout=60
    ).json()
    assert more["session_id"] == sid
    assert more["searched"] and more["cards"]
    assert more["frame"]["kinds"] == ["카페"]  # the frame of the turn served by the other worker
    assert not {c["id"] for c in first["cards"]} & {c["id"] for c in more["cards"]}
    # and back on the first worker: it sees the turn the second one served
    third = httpx.post(
        a + "/v1/chat", json={"message": "다른데", "session_id": sid}, headers=headers, timeout=60
    ).json()
    assert not {c["id"] for c in [*first["cards"], *more["cards"]]} & {c["id"] for c in third["cards"]}


def test_a_fresh_session_on_the_other_worker_has_no_context(two_workers: tuple[str, str, str]) -> None:
    """The control: without the session id the follow-up has nothing to continue."""
    _, b, _ = two_workers
    alone = httpx.post(
        b + "/v1/chat",
        json={"message": "다른 데는 없어?"},
        headers={"Accept": "application/json"},
        timeout=60,
    ).json()
    assert not (alone.get("frame") or {}).get("kinds")


def test_openai_conversations_are_shared(two_workers: tuple[str, str, str]) -> None:
    import psycopg

    a, b, url = two_workers
    q1 = {"role": "user", "content": "홍대 카페"}
    r1 = httpx.post(a + "/v1/chat/completions", json={"model": "matjip-agent", "messages": [q1]}, timeout=60)
    answer = r1.json()["choices"][0]["message"]["content"]
    with psycopg.connect(url) as conn:
        sessions = {r[0] for r in conn.execute("SELECT session_id FROM matjip_conversation_pool").fetchall()}
    assert len(sessions) == 1
    messages = [q1, {"role": "assistant", "content": answer}, {"role": "user", "content": "다른 데는 없어?"}]
    r2 = httpx.post(
        b + "/v1/chat/completions", json={"model": "matjip-agent", "messages": messages}, timeout=60
    )
    assert r2.status_code == 200
    with psycopg.connect(url) as conn:
        after = {r[0] for r in conn.execute("SELECT session_id FROM matjip_conversation_pool").fetchall()}
    assert after == sessions  # the second worker continued the same session
