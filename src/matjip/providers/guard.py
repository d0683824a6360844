"""Guards around every LLM call of a turn: a concurrency limit, a circuit breaker, cancellation.

* **Concurrency limit** (``settings.llm_max_concurrency``): at most that many provider calls at
  once per process. A call that finds every slot taken does not wait: it fails at once with
  :class:`~matjip.errors.ProviderBusy`, and the stage falls back to its offline twin. So turns
  never queue behind a slow provider, and the turn workers (sized for offline turns *plus* this
  limit, see :mod:`matjip.api.runner`) stay free for offline work.
* **Circuit breaker** (``llm_circuit_failures`` consecutive failures — timeouts, transport
  errors, 429 and 5xx — open it for ``llm_circuit_cooldown_s`` seconds): while open, calls fail at
  once with :class:`~matjip.errors.CircuitOpen` instead of each spending its retries; after the
  cooldown one trial call is let through (half-open) and its outcome closes or reopens it.
* **Cancellation**: :func:`cancel_scope` binds a ``threading.Event`` to the running turn (a
  context variable, copied into LangGraph's worker threads); once set (the client left, the turn
  timed out) no new call starts and a running stream stops at its next piece
  (:class:`~matjip.errors.TurnCancelled`).
* **Commit or abandon, once**: :class:`TurnCommit` (bound with :func:`commit_scope`) decides
  whether a turn's state is saved. The checkpoint write happens inside
  :meth:`TurnCommit.committing`; the runner calls :meth:`TurnCommit.abandon` before it reports a
  timeout or drops a client. Whichever comes first wins, so a turn whose client got an error was
  never saved, and a saved turn is always delivered.
"""

from __future__ import annotations

import contextvars
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

from pydantic import BaseModel

from matjip.errors import (
    BudgetExceeded,
    CircuitOpen,
    ConversationMoved,
    HTTPStatusFailure,
    ProviderBusy,
    ProviderError,
    TurnCancelled,
)
from matjip.providers.base import CallRecord, LLMClient, Message, TextStream

T = TypeVar("T", bound=BaseModel)

_cancel: contextvars.ContextVar[threading.Event | None] = contextvars.ContextVar(
    "matjip_cancel", default=None
)


@contextmanager
def cancel_scope(event: threading.Event) -> Iterator[None]:
    """Calls made inside (in this context and contexts copied from it) stop once ``event`` is set."""
    token = _cancel.set(event)
    try:
        yield
    finally:
        _cancel.reset(token)


class TurnCommit:
    """The one decision of a turn: its state is saved (committed) or it is abandoned, never both."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._state = "running"
        self.saved: dict[str, Any] | None = None  # the channel values the turn saved (when committed)

    @property
    def state(self) -> str:
        return self._state

    def abandon(self) -> bool:
        """Abandon the turn unless its state is being saved or was saved. Never blocks: False while
        a save is in progress (ask again) or after it (the turn's result must be delivered)."""
        if not self._lock.acquire(blocking=False):
            return False
        try:
            if self._state == "committed":
                return False
            self._state = "abandoned"
            return True
        finally:
            self._lock.release()

    @contextmanager
    def committing(self) -> Iterator[None]:
        """Save inside: raises :class:`~matjip.errors.ConversationMoved` when the turn was
        abandoned; marks it committed when the block ends without an exception."""
        with self._lock:
            if self._state == "abandoned":
                raise ConversationMoved("the turn was abandoned (timed out or the client left); not saved")
            yield
            self._state = "committed"


_commit: contextvars.ContextVar[TurnCommit | None] = contextvars.ContextVar("matjip_commit", default=None)


@contextmanager
def commit_scope(commit: TurnCommit) -> Iterator[None]:
    """Checkpoint writes made inside (and in contexts copied from it) go through ``commit``."""
    token = _commit.set(commit)
    try:
        yield
    finally:
        _commit.reset(token)


def turn_commit() -> TurnCommit:
    """The running turn's :class:`TurnCommit` (a fresh one outside a turn: always saves)."""
    return _commit.get() or TurnCommit()


def bound_commit() -> TurnCommit | None:
    """The :class:`TurnCommit` bound by :func:`commit_scope`, if any."""
    return _commit.get()


_events: contextvars.ContextVar[Callable[[Any], None] | None] = contextvars.ContextVar(
    "matjip_events", default=None
)


@contextmanager
def event_scope(sink: Callable[[Any], None]) -> Iterator[None]:
    """A turn run inside may hand its events to ``sink`` the moment they happen (the API's
    runner: a streamed answer goes out chunk by chunk while the node that writes it still runs)
    instead of yielding them when its node ends."""
    token = _events.set(sink)
    try:
        yield
    finally:
        _events.reset(token)


def bound_events() -> Callable[[Any], None] | None:
    """The sink bound by :func:`event_scope`, if any."""
    return _events.get()


def check_cancelled() -> None:
    event = _cancel.get()
    if event is not None and event.is_set():
        raise TurnCancelled("the turn was cancelled (client gone or timed out); no provider call made")


def counts_as_outage(exc: BaseException) -> bool:
    """Failures that say the provider is unavailable (not that one reply was bad)."""
    if isinstance(exc, HTTPStatusFailure):
        return exc.status == 429 or exc.status >= 500
    if isinstance(exc, ProviderBusy | CircuitOpen | TurnCancelled | BudgetExceeded):
        return False
    return isinstance(exc, ProviderError)  # a timeout, an unreachable host


class CircuitBreaker:
    def __init__(self, failures: int, cooldown_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.threshold = max(1, failures)
        self.cooldown_s = cooldown_s
        self.clock = clock
        self._lock = threading.Lock()
        self._failures = 0
        self._open_until: float | None = None
        self._trial = False

    @property
    def state(self) -> str:
        with self._lock:
            if self._open_until is None:
                return "closed"
            return "open" if self.clock() < self._open_until else "half-open"

    def before(self) -> None:
        with self._lock:
            if self._open_until is None:
                return
            if self.clock() < self._open_until or self._trial:
                raise CircuitOpen(
                    f"provider circuit open after {self._failures} consecutive failures; "
                    f"offline until the cooldown ({self.cooldown_s:g}s) ends"
                )
            self._trial = True  # half-open: this call is the trial

    def success(self) -> None:
        with self._lock:
            self._failures = 0
            self._open_until = None
            self._trial = False

    def failure(self) -> None:
        with self._lock:
            self._failures += 1
            self._trial = False
            if self._failures >= self.threshold:
                self._open_until = self.clock() + self.cooldown_s


class GuardedClient:
    """An :class:`~matjip.providers.base.LLMClient` wrapped in the guards of this module."""

    def __init__(self, inner: LLMClient, *, max_concurrency: int, breaker: CircuitBreaker) -> None:
        self.inner = inner
        self.provider = inner.provider
        self.model = inner.model
        self.breaker = breaker
        self._slots = threading.BoundedSemaphore(max(1, max_concurrency))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def _enter(self) -> None:
        check_cancelled()
        self.breaker.before()
        if not self._slots.acquire(blocking=False):
            raise ProviderBusy("every provider slot is busy (settings.llm_max_concurrency); answered offline")

    def _outcome(self, exc: BaseException | None) -> None:
        if exc is None:
            self.breaker.success()
        elif counts_as_outage(exc):
            self.breaker.failure()

    def complete_json(
        self, messages: Sequence[Message], schema: type[T], *, stage: str
    ) -> tuple[T, CallRecord]:
        self._enter()
        try:
            out = self.inner.complete_json(messages, schema, stage=stage)
        except BaseException as exc:
            self._outcome(exc)
            raise
        finally:
            self._slots.release()
        self._outcome(None)
        return out

    def stream_text(self, messages: Sequence[Message], *, stage: str) -> TextStream:
        self._enter()
        try:
            inner = self.inner.stream_text(messages, stage=stage)
        except BaseException as exc:
            self._slots.release()
            self._outcome(exc)
            raise
        released = False

        def release(exc: BaseException | None) -> None:
            nonlocal released
            if not released:
                released = True
                self._slots.release()
                self._outcome(exc)

        def pieces(outer: TextStream) -> Iterator[str]:
            try:
                for piece in inner:
                    check_cancelled()
                    yield piece
            except BaseException as exc:
                outer.record = inner.record
                inner.close()
                release(exc if not isinstance(exc, GeneratorExit) else None)
                raise
            outer.record = inner.record
            release(None)

        stream = TextStream(pieces)
        original_close = stream.close

        def close() -> None:
            original_close()
            inner.close()
            stream.record = stream.record or inner.record
            release(None)

        stream.close = close  # type: ignore[method-assign]
        return stream
