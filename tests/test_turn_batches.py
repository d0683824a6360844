"""A turn's events reach the client in batches (issue 23, part 3: the event loop's share of a
worker's CPU): the turn's thread hands its events to the event loop with one wake-up per batch,
the SSE writers send a batch in one write, and the secrets a stream is redacted with are read
once per turn, not once per frame.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from typing import Any

import anyio
import pytest

from matjip.agent.models import TurnEvent, TurnResult
from matjip.api import create_app
from matjip.api.runner import Flush, Handoff, TurnRunner
from matjip.settings import Settings

ANSWERS = 30


class GatedAgent:
    """``session`` first; then, once ``go`` is set, ``ANSWERS`` answer chunks, ``trace`` and
    ``end`` at once (as the agent streams a template answer)."""

    def __init__(self) -> None:
        self.go = threading.Event()

    def stream(
        self, message: str, session_id: str | None = None, location: dict[str, float] | None = None
    ) -> Iterator[TurnEvent]:
        yield TurnEvent(event="session", data={"session_id": "s1"})
        assert self.go.wait(10)
        answer = ""
        for i in range(ANSWERS):
            answer += f"{i},"
            yield TurnEvent(event="answer", data=f"{i},")
        yield TurnEvent(event="trace", data=[])
        yield TurnEvent(event="end", data=TurnResult(session_id="s1", answer=answer).model_dump(mode="json"))


def test_events_produced_together_arrive_as_one_batch() -> None:
    agent = GatedAgent()
    runner = TurnRunner(max_workers=1)

    async def main() -> list[str]:
        seen: list[str] = []
        async for ev in runner.events(agent, "q", None, None, 30, flushes=True):
            if isinstance(ev, Flush):  # the thread waits for `go`: nothing more for now
                seen.append("FLUSH")
                agent.go.set()
                time.sleep(0.3)  # the loop is busy: the thread produces everything meanwhile
                continue
            assert isinstance(ev, TurnEvent)
            seen.append(ev.event)
        return seen

    try:
        seen = anyio.run(main)
    finally:
        runner.close()
    # in order, all of them; a flush when the thread had nothing more, none inside the batch
    assert seen == ["session", "FLUSH", *["answer"] * ANSWERS, "trace", "end"]


def test_a_handoff_wakes_the_loop_once_per_batch_and_never_misses_a_put() -> None:
    async def main() -> tuple[list[int], int, int]:
        handoff = Handoff(asyncio.get_running_loop())
        got: list[int] = []
        stalls = 0

        def produce() -> None:
            for i in range(2000):
                handoff.put(i)
                if i % 97 == 0:
                    time.sleep(0.001)  # sometimes the loop catches up and waits

        thread = threading.Thread(target=produce)
        thread.start()
        while len(got) < 2000:
            items = handoff.take()
            if items:
                got.extend(items)
                continue
            if not await handoff.wait(2.0):  # a put that did not wake a waiting loop
                stalls += 1
        thread.join()
        return got, stalls, handoff.wakeups

    got, stalls, wakeups = anyio.run(main)
    assert got == list(range(2000)) and stalls == 0
    assert wakeups < 2000 / 10  # not one per item


class _Capture:
    """The body messages of one ASGI response."""

    def __init__(self) -> None:
        self.bodies: list[bytes] = []

    async def send(self, message: dict[str, Any]) -> None:
        if message["type"] == "http.response.body" and message.get("body"):
            self.bodies.append(message["body"])


async def _post(app: Any, path: str, body: bytes, capture: _Capture) -> None:
    sent = False

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.sleep(3600)
        return {"type": "http.disconnect"}

    scope = {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.4"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"content-type", b"application/json"), (b"accept", b"text/event-stream")],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }
    await app(scope, receive, capture.send)


class _ReleasingAgent(GatedAgent):
    """Lets the rest of the turn go once the consumer has its first event, and holds the loop
    meanwhile (the thread then produces the rest as one batch)."""

    def stream(
        self, message: str, session_id: str | None = None, location: dict[str, float] | None = None
    ) -> Iterator[TurnEvent]:
        events = super().stream(message, session_id, location)
        yield next(events)
        self.go.set()
        yield from events


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v1/chat", b'{"message": "q"}'),
        ("/v1/chat/completions", b'{"messages": [{"role": "user", "content": "q"}], "stream": true}'),
    ],
    ids=["chat", "openai"],
)
def test_a_streamed_turn_is_written_in_a_few_chunks_not_one_per_event(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, path: str, body: bytes
) -> None:
    import matjip.settings

    reads = 0
    real = matjip.settings.environment_values

    def counted(*args: Any, **kwargs: Any) -> list[str]:
        nonlocal reads
        reads += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(matjip.settings, "environment_values", counted)
    monkeypatch.setenv("MATJIP_TEST_API_KEY", "sk-stream-secret-1234")
    agent = _ReleasingAgent()
    settings = Settings(data_dir=tmp_path / "data", _env_file=None)  # type: ignore[call-arg]
    app = create_app(settings, agent=agent)
    capture = _Capture()
    anyio.run(_post, app, path, body, capture)
    text = b"".join(capture.bodies).decode()
    assert text.count("0,") and text.count("29,") and "[DONE]" in text
    # ~35 events; in a few writes (the first events, the batch of answers, the end)
    assert len(capture.bodies) <= 6, len(capture.bodies)
    # the environment's secrets were read for the stream once, not per frame
    assert reads <= 2, reads
