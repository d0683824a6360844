"""Run the (synchronous, CPU-bound) agent off the event loop, with a deadline per turn.

``Agent.stream`` is a blocking generator. One worker thread from a bounded pool iterates it
from start to end (the generator stays on one thread, so context variables set by the graph
stay valid) and hands its events to the event loop in batches (:class:`Handoff`): the loop is
woken once for whatever the thread produced meanwhile, not once per event (a turn streams ~40
events, most of them answer chunks produced together; a wake-up per event made the event loop
take ~45 % of a worker's CPU). The async side waits for events with the turn's remaining time;
when the deadline passes it raises :class:`~matjip.errors.TurnTimeout` and tells the worker to
stop at the next event. With ``flushes=True`` it yields :class:`Flush` after each batch, so a
writer sends the batch's frames in one write.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import deque
from collections.abc import AsyncGenerator, Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

from matjip.agent.models import TurnEvent, TurnResult
from matjip.errors import TurnCancelled, TurnFailed, TurnTimeout
from matjip.providers.guard import TurnCommit, cancel_scope, commit_scope, event_scope

log = logging.getLogger("matjip.api")


class AgentLike(Protocol):
    """What the API needs from an agent (``matjip.agent.service.Agent`` or a test double)."""

    def stream(
        self, message: str, session_id: str | None = None, location: dict[str, float] | None = None
    ) -> Iterator[TurnEvent]: ...


class Heartbeat:
    """Yielded by :meth:`TurnRunner.events` while waiting, so SSE can send keep-alive comments."""


class Flush:
    """Yielded by :meth:`TurnRunner.events` (``flushes=True``) after the events of one batch, when
    it is about to wait: a writer sends what it buffered since the last ``Flush`` in one write."""


class Handoff:
    """Items from a turn's thread to the event loop, in batches. ``put`` (any thread) appends and
    wakes the loop only when it is not already woken; ``take`` (the loop) takes everything there
    is; ``wait`` (the loop) waits for the next ``put`` after a ``take`` found nothing."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._items: deque[Any] = deque()
        self._lock = threading.Lock()
        self._woken = False  # a wake-up is on its way: a put need not send another
        self._waiter: asyncio.Future[None] | None = None
        self.wakeups = 0  # how many times a put woke the loop (tests, diagnostics)

    def put(self, item: object) -> bool:
        """Append ``item``; False when the loop is gone (shutdown: nobody is listening any more)."""
        with self._lock:
            self._items.append(item)
            if self._woken:
                return True
            self._woken = True
            self.wakeups += 1
        try:
            self._loop.call_soon_threadsafe(self._wake)
        except RuntimeError:
            return False
        return True

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def take(self) -> list[Any]:
        """Everything put so far, in order; when nothing, the next ``put`` wakes the loop."""
        with self._lock:
            items = list(self._items)
            self._items.clear()
            if not items:
                self._woken = False
        return items

    async def wait(self, timeout_s: float) -> bool:
        """Wait for a ``put`` (call after ``take`` returned nothing); False after ``timeout_s``."""
        self._waiter = waiter = self._loop.create_future()
        try:
            await asyncio.wait_for(waiter, timeout_s)
            return True
        except TimeoutError:
            return False
        finally:
            self._waiter = None


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
        flushes: bool = False,
    ) -> AsyncGenerator[TurnEvent | Heartbeat | Flush, None]:
        """The turn's events. The deadline counts from the call (the request's arrival): time in
        the queue counts. The turn is abandoned and cancelled — its state is not saved, no further
        provider call, the worker stops at its next event — when the deadline passes, when the
        consumer stops listening, or when ``disconnected()`` (polled every ``poll_s`` while
        waiting) says the client left. ``flushes``: a :class:`Flush` after each batch of events."""
        handoff = Handoff(asyncio.get_running_loop())
        stop = threading.Event()
        commit = TurnCommit()

        def put(item: object) -> None:
            if not handoff.put(item):  # the loop is gone (shutdown): nobody is listening any more
                stop.set()

        def work() -> None:
            if stop.is_set():  # cancelled while queued: never start
                put(_DONE)
                return
            put(_STARTED)
            with cancel_scope(stop), commit_scope(commit), event_scope(put):  # events as they happen
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

        asyncio.get_running_loop().run_in_executor(self.pool, work)
        try:
            unflushed = False
            while True:
                items = handoff.take()
                for item in items:
                    if expired(time.monotonic()):
                        raise TurnTimeout
                    if item is _STARTED:
                        continue
                    if item is _DONE:
                        return
                    if isinstance(item, TurnFailed):
                        raise item
                    unflushed = True
                    yield item
                if items:
                    continue  # take again: only a take that finds nothing lets the next put wake us
                if flushes and unflushed:
                    unflushed = False
                    yield Flush()
                    continue  # the writer may have waited: take what came meanwhile
                now = time.monotonic()
                if expired(now):
                    raise TurnTimeout
                wait = self.poll_s if disconnected is not None else self.heartbeat_s
                wait = min(wait, max(deadline - now, 0.05))
                if heartbeats:
                    wait = min(wait, max(0.0, last_beat + self.heartbeat_s - now))
                if await handoff.wait(max(wait, 0.001)):
                    continue
                now = time.monotonic()
                if expired(now):
                    raise TurnTimeout from None
                if disconnected is not None and await disconnected():
                    commit.abandon()
                    log.info("client left; turn cancelled")
                    return
                if heartbeats and now - last_beat >= self.heartbeat_s:
                    last_beat = now
                    unflushed = True
                    yield Heartbeat()
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
