"""``POST /v1/chat``: one conversation turn, streamed as Server-Sent Events or answered as JSON."""

from __future__ import annotations

from collections.abc import AsyncIterator
from functools import partial

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse

from matjip.agent.models import MoreResult
from matjip.api.problems import problem_responses
from matjip.api.schemas import CHAT_EVENTS, CHAT_SSE_EXAMPLE, ChatRequest, ResultsRequest, sse_schema
from matjip.api.state import Api
from matjip.api.turns import FLUSH, buffered, run_turn, sse_frame, turn_events
from matjip.errors import ProblemError
from matjip.settings import redact_data, secret_values
from matjip.wording import say, text

router = APIRouter(tags=["chat"])

SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no", "Connection": "keep-alive"}

SSE_DESCRIPTION = """\
Run one conversation turn.

**Response format** depends on the `Accept` header: `application/json` returns the whole
`TurnResult` as JSON when the turn is over; anything else (`text/event-stream`, `*/*`, or no
header) streams **Server-Sent Events** as the turn runs. Every event's `data` is JSON, except
`end` whose data is the literal `[DONE]`. Events, in order:

| event | data |
|---|---|
| `session` | `{"session_id": "…"}`: send it back as `session_id` to continue the conversation |
| `plan` | the validated search plan (may repeat when the search is relaxed) |
| `results` | restaurant cards: id, name, cuisine, distance_m, lat/lon, matched constraints, top menus with prices, hours_today |
| `clarification` | when the agent asks back: `question` and `choices` (send a choice's `index` or label as the next message) |
| `answer` | a chunk of the answer text (many; concatenated they are the whole answer) |
| `answer_reset` | `{"reason": …}`: discard the answer text shown so far; the answer starts again (only when an LLM answer fails its grounding check mid-stream) |
| `trace` | per-node timings and decisions |
| `error` | problem details (RFC 9457), e.g. status 504 when the turn exceeds the time limit |
| `end` | `[DONE]`; always the last event |

A `: keep-alive` comment is sent while a slow turn (LLM provider) has nothing new to say.
"""


def wants_json(accept: str | None) -> bool:
    """True when the client prefers ``application/json`` over ``text/event-stream``."""
    if not accept:
        return False
    json_q = sse_q = 0.0
    for item in accept.split(","):
        parts = [p.strip() for p in item.split(";")]
        media = parts[0].lower()
        q = 1.0
        for param in parts[1:]:
            if param.lower().startswith("q="):
                try:
                    q = float(param[2:])
                except ValueError:
                    q = 0.0
        if media in ("application/json", "application/problem+json"):
            json_q = max(json_q, q)
        elif media in ("text/event-stream", "text/*", "*/*"):
            sse_q = max(sse_q, q if media == "text/event-stream" else q - 0.001)
    return json_q > 0 and json_q > sse_q


def check_text(text: str, field: str) -> str:
    """400 when ``text`` cannot be encoded as UTF-8 (a lone UTF-16 surrogate such as ``"\\ud800"``)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ProblemError(
            400,
            say("api.error.invalid_text", field=field, position=exc.start),
            kind="invalid-text",
            extra={"field": field},
        ) from None
    return text


def check_message(message: str, max_chars: int, field: str = "message") -> str:
    check_text(message, field)
    if not message.strip():
        raise ProblemError(
            422, text("api.error.empty_message"), kind="validation-error", extra={"field": field}
        )
    if len(message) > max_chars:
        raise ProblemError(
            422,
            say("api.error.message_too_long", length=f"{len(message):,}", max_chars=f"{max_chars:,}"),
            kind="message-too-long",
            extra={"field": field, "max_chars": max_chars},
        )
    return message


@router.post(
    "/v1/chat",
    summary="Chat (SSE stream or JSON)",
    description=SSE_DESCRIPTION,
    response_model=None,
    responses={
        200: {
            "description": "An SSE stream (default) or, with `Accept: application/json`, the turn's result.",
            "content": {
                "text/event-stream": {
                    "schema": sse_schema(
                        "One Server-Sent Event: `event: <name>` and `data: <JSON>` lines, a blank line after "
                        "it; the events and their order are described above (`end`'s data is `[DONE]`).",
                        CHAT_SSE_EXAMPLE,
                        CHAT_EVENTS,
                    )
                },
                "application/json": {"schema": {"$ref": "#/components/schemas/TurnResult"}},
            },
        },
        **problem_responses(400, 413, 422, 429, 503, 504),
    },
)
async def chat(body: ChatRequest, request: Request, api: Api) -> Response:
    message = check_message(body.message, api.settings.max_message_chars)
    agent = await api.require_agent()
    location = body.location.model_dump() if body.location else None
    if wants_json(request.headers.get("accept")):
        result = await run_turn(api, agent, message, body.session_id, location, request.is_disconnected)
        return JSONResponse(redact_data(result.model_dump(mode="json")))

    async def frames() -> AsyncIterator[bytes | None]:
        secrets = secret_values()  # once per turn, not per frame
        async for event, data in turn_events(
            api, agent, message, body.session_id, location, request.url.path, flushes=True
        ):
            yield None if event == FLUSH else sse_frame(event, data, secrets)

    return StreamingResponse(buffered(frames()), media_type="text/event-stream", headers=SSE_HEADERS)


@router.post(
    "/v1/results",
    summary="More results (더 보기) or another order (가까운 순 / 평점 순 / 가격 순)",
    response_model=MoreResult,
    responses=problem_responses(413, 422, 429, 503),
)
async def more_results(body: ResultsRequest, api: Api) -> MoreResult:
    """The session's last search again, as a validated plan with ``sort`` and ``exclude_ids``
    (the places already shown). The session's context follows: "네 번째 집" is the fourth card
    on screen afterwards. ``exhausted`` is true when fewer cards than a page came back."""
    agent = await api.require_agent()
    more = getattr(agent, "more", None)
    if not callable(more):
        raise ProblemError(503, text("api.error.more_unavailable"), kind="not-available")
    result = await anyio.to_thread.run_sync(partial(more, body.session_id, body.sort, body.exclude_ids))
    assert isinstance(result, MoreResult)
    return result
