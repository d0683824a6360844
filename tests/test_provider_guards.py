"""Issue 13, defect 9: slow or failing providers do not starve the service.

* the turn timeout counts from when a worker starts the turn, not from when it was queued;
* a provider concurrency limit separate from offline turns: a turn that finds every provider slot
  taken answers offline at once, while the slow call goes on;
* cancellation: once the client has left, no new provider call starts;
* a circuit breaker: after repeated failures the provider is skipped (no retries per turn).
Providers are real HTTP servers (``tests/fakes``); no assertion is about elapsed time.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from pydantic import BaseModel

from fakes.http import ReplayServer, Script
from fakes.openai import error_reply
from matjip.agent.models import TurnEvent
from matjip.api.runner import TurnRunner
from matjip.errors import CircuitOpen, HTTPStatusFailure, ProviderBusy, TurnCancelled, TurnTimeout
from matjip.providers.base import CallRecord
from matjip.providers.guard import CircuitBreaker, GuardedClient, cancel_scope
from matjip.settings import Settings


class Out(BaseModel):
    ok: bool = True


class CountingClient:
    provider = "fake"
    model = "counting"

    def __init__(self, fail: BaseException | None = None) -> None:
        self.calls = 0
        self.fail = fail

    def complete_json(self, messages: Any, schema: Any, *, stage: str) -> tuple[Any, CallRecord]:
        self.calls += 1
        if self.fail is not None:
            raise self.fail
        return schema(), CallRecord(stage=stage, provider="fake", model="counting", ok=True)

    def stream_text(self, messages: Any, *, stage: str) -> Any:
        raise NotImplementedError


def test_circuit_breaker_opens_then_lets_one_trial_through() -> None:
    now = [0.0]
    inner = CountingClient(fail=HTTPStatusFailure(503, "down"))
    client = GuardedClient(inner, max_concurrency=4, breaker=CircuitBreaker(2, 30, clock=lambda: now[0]))
    for _ in range(2):
        with pytest.raises(HTTPStatusFailure):
            client.complete_json([], Out, stage="grade")
    for _ in range(5):
        with pytest.raises(CircuitOpen):
            client.complete_json([], Out, stage="grade")
    assert inner.calls == 2
    now[0] = 31.0  # cooldown over: one trial call, which succeeds and closes the circuit
    inner.fail = None
    client.complete_json([], Out, stage="grade")
    assert client.breaker.state == "closed" and inner.calls == 3


def test_cancelled_turns_make_no_provider_call() -> None:
    inner = CountingClient()
    client = GuardedClient(inner, max_concurrency=4, breaker=CircuitBreaker(5, 30))
    stop = threading.Event()
    with cancel_scope(stop):
        client.complete_json([], Out, stage="generate")
        stop.set()
        with pytest.raises(TurnCancelled):
            client.complete_json([], Out, stage="generate")
    assert inner.calls == 1


def test_a_full_provider_answers_busy_instead_of_queueing() -> None:
    gate = threading.Event()

    class Slow(CountingClient):
        def complete_json(self, messages: Any, schema: Any, *, stage: str) -> tuple[Any, CallRecord]:
            gate.wait(30)
            return super().complete_json(messages, schema, stage=stage)

    client = GuardedClient(Slow(), max_concurrency=1, breaker=CircuitBreaker(5, 30))
    worker = threading.Thread(target=client.complete_json, args=([], Out), kwargs={"stage": "generate"})
    worker.start()
    while client._slots._value:  # type: ignore[attr-defined]  # wait until the slow call holds the slot
        worker.join(0.01)
    with pytest.raises(ProviderBusy):
        client.complete_json([], Out, stage="generate")
    gate.set()
    worker.join(30)
    client.complete_json([], Out, stage="generate")  # the slot is free again


class CallingAgent:
    """Each answer piece costs one provider call, made through a guarded client."""

    def __init__(self) -> None:
        self.inner = CountingClient()
        self.client = GuardedClient(self.inner, max_concurrency=4, breaker=CircuitBreaker(5, 30))
        self.gate = threading.Event()
        self.finished = threading.Event()

    def stream(
        self, message: str, session_id: str | None = None, location: Any = None
    ) -> Iterator[TurnEvent]:
        try:
            yield TurnEvent(event="session", data={"session_id": "s"})
            for i in range(5):
                if i == 1:
                    self.gate.wait(30)
                self.client.complete_json([], Out, stage="generate")
                yield TurnEvent(event="answer", data=str(i))
        finally:
            self.finished.set()


def test_a_turn_whose_client_left_stops_calling_the_provider() -> None:
    agent = CallingAgent()
    runner = TurnRunner(max_workers=2)

    async def main() -> None:
        events = runner.events(agent, "q", None, None, 30)
        async for ev in events:
            if isinstance(ev, TurnEvent) and ev.event == "answer":
                break  # the client leaves after the first piece
        await events.aclose()

    try:
        anyio.run(main)
        agent.gate.set()
        assert agent.finished.wait(30)
    finally:
        runner.close()
    assert agent.inner.calls == 1


def test_a_json_turn_is_cancelled_when_the_client_disconnects() -> None:
    agent = CallingAgent()
    runner = TurnRunner(max_workers=2, poll_s=0.01)
    gone = [False]

    async def disconnected() -> bool:
        if agent.inner.calls >= 1:
            gone[0] = True
        return gone[0]

    async def main() -> None:
        from matjip.errors import TurnFailed

        with pytest.raises(TurnFailed):
            await runner.run(agent, "q", None, None, 30, disconnected)

    try:
        anyio.run(main)
        agent.gate.set()
        assert agent.finished.wait(30)
    finally:
        runner.close()
    assert agent.inner.calls == 1


def test_the_timeout_counts_from_the_request_s_arrival(api_fake_agent: Any) -> None:
    """One worker, busy with a slow turn; a queued turn whose deadline passes while it waits times
    out without ever starting (issue 26: time in the queue counts, and a timed-out turn frees its
    place instead of running later)."""
    runner = TurnRunner(max_workers=1)
    outcome: list[str] = []
    waited: list[float] = []

    async def main() -> None:
        async def slow() -> None:
            await runner.run(api_fake_agent, "slow", None, None, 30)
            outcome.append("slow")

        async def queued() -> None:
            start = time.monotonic()
            try:
                await runner.run(api_fake_agent, "강남역 스시", None, None, 0.3)
                outcome.append("queued ran")
            except TurnTimeout:
                waited.append(time.monotonic() - start)
                outcome.append("queued timed out")

        async with anyio.create_task_group() as tg:
            tg.start_soon(slow)
            await anyio.sleep(0.05)
            tg.start_soon(queued)
            await anyio.sleep(0.8)  # the queued turn's deadline passed while it waited
            api_fake_agent.release.set()

    try:
        anyio.run(main)
    finally:
        runner.close()
    assert sorted(outcome) == ["queued timed out", "slow"]
    assert waited[0] < 0.8  # reported before the busy worker was released, not after
    assert api_fake_agent.calls == 1  # the queued turn never started


@pytest.fixture
def failing_provider() -> Iterator[ReplayServer]:
    with ReplayServer(Script(error_reply(503, "upstream down"))) as srv:
        yield srv


def test_unreachable_provider_trips_the_breaker_in_the_real_agent(
    sample_settings: Settings, failing_provider: ReplayServer
) -> None:
    from matjip.agent.service import Agent
    from matjip.api import create_app

    settings = sample_settings.model_copy(
        update={
            "rate_limit_per_minute": 0,
            "llm_provider": "openai",
            "llm_base_url": failing_provider.url + "/v1",
            "llm_max_retries": 0,
            "llm_circuit_failures": 2,
            "llm_circuit_cooldown_s": 600,
        }
    )
    agent = Agent(settings, persist=False)
    try:
        with TestClient(create_app(settings, agent=agent)) as client:
            answers = [
                client.post("/v1/chat", json={"message": q}, headers={"Accept": "application/json"}).json()
                for q in ("강남역 일식 맛집", "홍대 고기집", "잠실 치킨집", "건대 라멘", "신촌 카페")
            ]
    finally:
        agent.close()
    assert all(a["answer"] for a in answers)  # offline answers throughout
    assert len(failing_provider.script.seen) == 2  # then the circuit is open: no more calls
    import json

    traces = json.dumps([a["trace"] for a in answers[-2:]], ensure_ascii=False)
    assert "CircuitOpen" in traces, traces
    _ = time
