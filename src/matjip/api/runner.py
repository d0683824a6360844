"""Run the (synchronous, CPU-bound) agent off the event loop, with a deadline per turn.

``Agent.stream`` is a blocking generator. One worker thread from a bounded pool iterates it
from start to end (the generator stays on one thread, so context variables set by the graph
stay valid) and hands each event to the event loop through an ``asyncio.Queue``. The async
side waits for events with the turn's remaining time; when the deadline passes it raises
:class:`~matjip.errors.TurnTimeout` and tells the worker to stop at the next event.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import AsyncGenerator, Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

from matjip.agent.models import TurnEvent, TurnResult
from matjip.errors import TurnCancelled, TurnFailed, TurnTimeout
from matjip.providers.guard import TurnCommit, cancel_scope, commit_scope

log = logging.getLogger("matjip.api")


class AgentLike(Protocol):
    """What the API needs from an agent (``matjip.agent.service.Agent`` or a test double)."""

    def stream(
        self, message: str, session_id: str | None = None, location: dict[str, float] | None = None
    ) -> Iterator[TurnEvent]: ...


class Heartbeat:
    """Yielded by :meth:`TurnRunner.events` while waiting, so SSE can send keep-alive comments."""


_DONE = object()
_STARTED = object()

Disconnected = Callable[[], Awaitable[bool]]


class TurnRunner:
    """Owns the worker pool for agent turns."""

    def __init__(
        self,
        max_workers: int = 16,
        heartbeat_s: float = 15.0,
        poll_s: float = 1.0,
        commit_grace_s: float = 5.0,
    ) -> None:
        self.max_workers = max_workers
        self.commit_grace_s = commit_grace_s
        self.heartbeat_s = heartbeat_s
        self.poll_s = poll_s  # how often a waiting turn asks whether its client is still there
        self._pool: ThreadPoolExecutor | None = None
        self._pool_lock = threading.Lock()

    @property
    def pool(self) -> ThreadPoolExecutor:
        with self._pool_lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(
                    max_workers=self.max_workers, thread_name_prefix="matjip-turn"
                )
            return self._pool

    def close(self) -> None:
        with self._pool_lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    async def events(
        self,
        agent: AgentLike,
        message: str,
        session_id: str | None,
        location: dict[str, float] | None,
        timeout_s: float,
        *,
        heartbeats: bool = False,
        disconnected: Disconnected | None = None,
    ) -> AsyncGenerator[TurnEvent | Heartbeat, None]:
        """The turn's events. The deadline counts from the call (the request's arrival): time in
        the queue counts. The turn is abandoned and cancelled — its state is not saved, no further
        provider call, the worker stops at its next event — when the deadline passes, when the
        consumer stops listening, or when ``disconnected()`` (polled every ``poll_s`` while
        waiting) says the client left."""
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[Any] = asyncio.Queue()
        stop = threading.Event()
        commit = TurnCommit()

        def put(item: object) -> None:
            try:
                loop.call_soon_threadsafe(queue.put_nowait, item)
            except RuntimeError:  # the loop is gone (shutdown): nobody is listening any more
                stop.set()

        def work() -> None:
            if stop.is_set():  # cancelled while queued: never start
                put(_DONE)
                return
            put(_STARTED)
            with cancel_scope(stop), commit_scope(commit):
                gen = agent.stream(message, session_id, location)
                try:
                    for event in gen:
                        if stop.is_set():
                            break
                        put(event)
                except BaseException as exc:
                    put(TurnFailed(exc))
                finally:
                    try:
                        gen.close()  # type: ignore[attr-defined]
                    except Exception:
                        log.debug("closing the turn generator failed", exc_info=True)
                    put(_DONE)

        arrived = time.monotonic()
        deadline = arrived + timeout_s
        last_beat = arrived

        def expired(now: float) -> bool:
            """Past the deadline and abandoned (a turn saving its state gets a short grace)."""
            if now < deadline:
                return False
            if commit.abandon():
                stop.set()
                return True
            if commit.state == "committed" or now < deadline + self.commit_grace_s:
                return False  # saved (or saving): deliver it
            stop.set()
            return True

        loop.run_in_executor(self.pool, work)
        try:
            while True:
                now = time.monotonic()
                if expired(now):
                    raise TurnTimeout
                wait = self.poll_s if disconnected is not None else self.heartbeat_s
                wait = min(wait, max(deadline - now, 0.05))
                if heartbeats:
                    wait = min(wait, max(0.0, last_beat + self.heartbeat_s - now))
                try:
                    item = await asyncio.wait_for(queue.get(), max(wait, 0.001))
                except TimeoutError:
                    now = time.monotonic()
                    if expired(now):
                        raise TurnTimeout from None
                    if disconnected is not None and await disconnected():
                        commit.abandon()
                        log.info("client left; turn cancelled")
                        return
                    if heartbeats and now - last_beat >= self.heartbeat_s:
                        last_beat = now
                        yield Heartbeat()
                    continue
                if item is _STARTED:
                    continue
                if item is _DONE:
                    return
                if isinstance(item, TurnFailed):
                    raise item
                yield item
        finally:
            commit.abandon()  # the consumer stopped listening before the end: never saved
            stop.set()

    async def run(
        self,
        agent: AgentLike,
        message: str,
        session_id: str | None,
        location: dict[str, float] | None,
        timeout_s: float,
        disconnected: Disconnected | None = None,
    ) -> TurnResult:
        """Run a whole turn; return the final :class:`TurnResult` (the ``end`` event's data)."""
        result: TurnResult | None = None
        async for event in self.events(
            agent, message, session_id, location, timeout_s, disconnected=disconnected
        ):
            if isinstance(event, TurnEvent) and event.event == "end":
                result = TurnResult.model_validate(event.data)
        if result is None:
            if disconnected is not None and await disconnected():
                raise TurnFailed(TurnCancelled("the client left before the turn ended"))
            raise TurnFailed(RuntimeError("the agent ended the turn without a result"))
        return result
