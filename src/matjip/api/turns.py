"""One conversation turn as the API sees it: ordered events, failures as problem details."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from contextlib import aclosing
from typing import Any

from matjip.agent.answer import split_chunks
from matjip.agent.models import TurnEvent, TurnResult
from matjip.api.database import DatabaseMonitor, is_database_failure, unavailable_problem
from matjip.api.problems import problem_body
from matjip.api.runner import AgentLike, Disconnected, Flush, Heartbeat
from matjip.api.state import ApiState
from matjip.errors import (
    ConfigurationError,
    ConversationMoved,
    ProblemError,
    ProviderError,
    ProviderTimeout,
    SearchIndexError,
    StoreError,
    TurnFailed,
    TurnTimeout,
)
from matjip.settings import redact
from matjip.wording import say, text

log = logging.getLogger("matjip.api")

HEARTBEAT = "heartbeat"  # a pseudo event: SSE writers turn it into a comment line
FLUSH = "flush"  # a pseudo event (``flushes=True``): send what was buffered, in one write


def reset_reason(data: Any) -> str:
    """The kind of failure only ("ungrounded answer", "ProviderError"): provider texts stay in the log."""
    text = str(data or "")
    if text:
        log.info("streamed answer reset: %s", text)
    return text.split(":", 1)[0].strip()[:80] or "reset"


def failure_problem(
    exc: TurnTimeout | TurnFailed, timeout_s: float, database: DatabaseMonitor | None = None
) -> ProblemError:
    """Map a failed turn to a problem; log the cause (with traceback) server-side. A failed turn
    was never saved (:class:`matjip.providers.guard.TurnCommit`): the client may simply retry."""
    if isinstance(exc, TurnTimeout):
        return ProblemError(
            504,
            say("api.error.turn_timeout", timeout_s=timeout_s),
            kind="turn-timeout",
        )
    cause = exc.cause
    if isinstance(cause, ConversationMoved):
        log.warning("turn not saved: %s", cause)
        return ProblemError(
            409,
            text("api.error.conversation_moved"),
            kind="conversation-moved",
        )
    if is_database_failure(cause):
        log.warning("turn failed on the database: %s", type(cause).__name__)
        if database is not None:
            database.note_failure(cause)
        return unavailable_problem()
    if isinstance(cause, SearchIndexError | StoreError | ConfigurationError):
        log.warning("turn failed: %s", cause)
        return ProblemError(503, str(cause), kind="index-unavailable")
    if isinstance(cause, ProviderTimeout):
        log.warning("provider timeout: %s", cause)
        return ProblemError(504, text("api.error.provider_timeout"), kind="provider-timeout")
    if isinstance(cause, ProviderError):
        log.warning("provider error: %s", cause)
        return ProblemError(502, text("api.error.provider_failed"), kind="provider-error")
    log.error("turn failed", exc_info=(type(cause), cause, cause.__traceback__))
    return ProblemError(500, text("api.error.turn_failed"), kind="internal-error")


def problem_dict(p: ProblemError, instance: str | None = None) -> dict[str, Any]:
    return problem_body(p.status, p.detail, kind=p.kind, title=p.title, instance=instance, extra=p.extra)


async def run_turn(
    api: ApiState,
    agent: AgentLike,
    message: str,
    session_id: str | None,
    location: dict[str, float] | None,
    disconnected: Disconnected | None = None,
) -> TurnResult:
    """A whole turn, or a :class:`ProblemError` (504 on timeout). ``disconnected`` (the request's
    ``is_disconnected``) cancels the turn when the client leaves."""
    timeout = api.settings.turn_timeout_s
    try:
        return await api.runner.run(agent, message, session_id, location, timeout, disconnected)
    except (TurnTimeout, TurnFailed) as exc:
        raise failure_problem(exc, timeout, api.database) from None


async def turn_events(
    api: ApiState,
    agent: AgentLike,
    message: str,
    session_id: str | None,
    location: dict[str, float] | None,
    instance: str,
    *,
    flushes: bool = False,
) -> AsyncIterator[tuple[str, Any]]:
    """``(event, data)`` pairs in the documented order.

    session → plan → results → clarification → answer… → trace → (error) → end. An ``answer_reset``
    between answers means "discard the answer text so far" (an LLM answer failed its grounding
    check after it started streaming; the template answer follows). ``end``'s data is
    the final :class:`TurnResult` (writers decide what to send). When the agent produced its
    answer without streaming it (an LLM answer), the answer is sent here in chunks. A failure
    becomes an ``error`` event with problem details, followed by ``end`` with ``None``.
    ``flushes``: a ``FLUSH`` pseudo event after each batch of events the turn produced together
    (:func:`buffered`); the last events (``trace``, ``end``) are followed by none.
    """
    timeout = api.settings.turn_timeout_s
    answered = False
    trace: Any = None
    result: TurnResult | None = None
    try:
        async with aclosing(
            api.runner.events(agent, message, session_id, location, timeout, heartbeats=True, flushes=flushes)
        ) as events:
            async for ev in events:
                if isinstance(ev, Flush):
                    yield FLUSH, None
                    continue
                if isinstance(ev, Heartbeat):
                    yield HEARTBEAT, None
                    continue
                assert isinstance(ev, TurnEvent)
                if ev.event == "answer":
                    answered = True
                    yield "answer", ev.data
                elif ev.event == "answer_reset":
                    # a streamed (LLM) answer was abandoned; the template answer follows
                    answered = False
                    yield "answer_reset", {"reason": reset_reason(ev.data)}
                elif ev.event == "trace":
                    trace = ev.data
                elif ev.event == "end":
                    result = TurnResult.model_validate(ev.data)
                    if not answered and result.answer:
                        for piece in split_chunks(result.answer):
                            yield "answer", piece
                    if trace is None:
                        trace = [t.model_dump(mode="json") for t in result.trace]
                    yield "trace", trace
                elif ev.event == "error":
                    yield "error", ev.data
                else:
                    yield ev.event, ev.data
    except (TurnTimeout, TurnFailed) as exc:
        yield "error", problem_dict(failure_problem(exc, timeout, api.database), instance)
        result = None
    yield "end", result


async def buffered(frames: AsyncIterator[bytes | None]) -> AsyncIterator[bytes]:
    """Join the frames between two ``None`` (a ``FLUSH``) into one body chunk: one write (and one
    pass through the middleware) per batch of events instead of per event."""
    buffer: list[bytes] = []
    async for frame in frames:
        if frame is not None:
            buffer.append(frame)
        elif buffer:
            yield b"".join(buffer)
            buffer.clear()
    if buffer:
        yield b"".join(buffer)


def sse_frame(event: str, data: Any, secrets: list[str] | None = None) -> bytes:
    """One Server-Sent Event. Data is JSON, except ``end`` whose data is the literal ``[DONE]``.
    ``secrets``: :func:`~matjip.settings.secret_values` read once for the whole stream (reading
    them scans the environment: per frame, that was most of the event loop's CPU per turn)."""
    if event == HEARTBEAT:
        return b": keep-alive\n\n"
    payload = "[DONE]" if event == "end" else json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return f"event: {event}\ndata: {redact(payload, secrets)}\n\n".encode()
