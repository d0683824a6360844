"""OpenAI-compatible ``/v1/chat/completions`` and ``/v1/models`` so chat UIs and SDKs can talk to the agent.

The conversation maps onto an agent session (see :mod:`matjip.api.sessions`); the last user
message is the turn's question. Earlier messages are not replayed: the agent keeps the
conversation's context in its own session state.
"""

from __future__ import annotations

import functools
import json
import logging
import math
import time
import uuid
from collections.abc import AsyncIterator, Callable
from typing import Annotated, Any, TypeVar

import anyio
from fastapi import APIRouter, Header, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse

from matjip.api.database import is_database_failure, unavailable_problem
from matjip.api.problems import problem_responses
from matjip.api.routes.chat import SSE_HEADERS, check_message, check_text
from matjip.api.schemas import (
    OA_SSE_EXAMPLE,
    OAChatCompletion,
    OAChatRequest,
    OAChoice,
    OAModel,
    OAModelList,
    OAResponseMessage,
    OAUsage,
    sse_schema,
)
from matjip.api.sessions import SESSION_HEADER, client_namespace, echoed_session, user_session_id
from matjip.api.state import Api, ApiState
from matjip.api.turns import HEARTBEAT, run_turn, turn_events
from matjip.errors import ProblemError
from matjip.settings import redact

T = TypeVar("T")
log = logging.getLogger("matjip.api")

router = APIRouter(tags=["openai"])

MODEL_ID = "matjip-agent"
RESET_NOTE = "\n\n(답변을 다시 작성합니다)\n\n"
MODEL_CREATED = 1_735_689_600  # 2025-01-01T00:00:00Z, fixed so the listing is stable


def approx_tokens(text: str) -> int:
    """A rough token count (no tokenizer offline): about one token per 3 UTF-8 bytes of Korean text."""
    return math.ceil(len(text.encode()) / 3) if text else 0


def split_conversation(req: OAChatRequest) -> tuple[str, list[tuple[str, str]]]:
    """(the last user message, the messages before it as (role, text))."""
    for i, m in enumerate(req.messages):
        check_text(m.text(), f"messages[{i}].content")
    last = max((i for i, m in enumerate(req.messages) if m.role == "user" and m.text().strip()), default=None)
    if last is None:
        raise ProblemError(422, "messages에 내용이 있는 user 메시지가 없습니다.", kind="validation-error")
    history: list[tuple[str, str]] = [(str(m.role), m.text()) for m in req.messages[:last]]
    return req.messages[last].text(), history


async def conversation_call(
    api: ApiState, fn: Callable[..., T], *args: Any, required: bool = True
) -> T | None:
    """A conversation-pool call off the event loop (it may wait on PostgreSQL). A database failure
    marks the database down and answers 503 when ``required``; otherwise it is logged and skipped
    (the next request then starts from its echoed session header or a new session)."""
    try:
        return await anyio.to_thread.run_sync(functools.partial(fn, *args))
    except Exception as exc:
        if not is_database_failure(exc):
            raise
        api.database.note_failure(exc)
        if required:
            raise unavailable_problem() from None
        log.warning("conversation not remembered: %s", type(exc).__name__)
        return None


def _oa_error(status: int) -> str:
    return {
        400: "invalid_request_error",
        404: "not_found_error",
        413: "invalid_request_error",
        422: "invalid_request_error",
        429: "rate_limit_error",
    }.get(status, "server_error")


@router.get("/v1/models", response_model=OAModelList, summary="Models (OpenAI-compatible)")
async def list_models() -> OAModelList:
    return OAModelList(data=[OAModel(id=MODEL_ID, created=MODEL_CREATED)])


@router.get(
    "/v1/models/{model_id}",
    response_model=OAModel,
    summary="One model (OpenAI-compatible)",
    responses=problem_responses(404),
)
async def get_model(model_id: str) -> OAModel:
    if model_id != MODEL_ID:
        raise ProblemError(
            404, f"모델 '{model_id}'이(가) 없습니다. '{MODEL_ID}'를 사용하세요.", kind="not-found"
        )
    return OAModel(id=MODEL_ID, created=MODEL_CREATED)


@router.post(
    "/v1/chat/completions",
    summary="Chat completions (OpenAI-compatible, streaming and not)",
    response_model=None,
    responses={
        200: {
            "description": "A `chat.completion`, or with `stream: true` an SSE stream of `chat.completion.chunk` "
            "objects ending with `data: [DONE]`.",
            "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/OAChatCompletion"}},
                "text/event-stream": {
                    "schema": sse_schema(
                        "Server-Sent Events: `data: <chat.completion.chunk JSON>` lines, a blank line after each, "
                        'then `data: [DONE]`; an error mid-stream is a `data: {"error": …}` line.',
                        OA_SSE_EXAMPLE,
                    )
                },
            },
        },
        **problem_responses(400, 413, 422, 429, 503, 504),
    },
)
async def chat_completions(
    body: OAChatRequest,
    request: Request,
    api: Api,
    x_matjip_session: Annotated[
        str | None,
        Header(
            alias=SESSION_HEADER,
            max_length=128,
            description="Continue this session: echo the `X-Matjip-Session` header of an earlier response "
            "(sessions of another API key are ignored; a new session starts).",
        ),
    ] = None,
) -> Response:
    message, history = split_conversation(body)
    check_message(message, api.settings.max_message_chars, field="messages")
    namespace = client_namespace(request.headers.get("authorization"))
    echoed = echoed_session(x_matjip_session, namespace)
    if echoed is not None:
        session_id = echoed
    elif body.user:
        session_id = user_session_id(body.user, namespace)
    else:
        api.database.require()
        found = await conversation_call(api, api.conversations.session_for, history, namespace)
        session_id = found or api.conversations.new_session(namespace)
    agent = await api.require_agent()
    completion_id = "chatcmpl-" + uuid.uuid4().hex
    created = int(time.time())
    model = body.model or MODEL_ID
    prompt_tokens = sum(approx_tokens(m.text()) for m in body.messages)

    async def remember(answer: str) -> None:
        if not body.user:
            await conversation_call(
                api,
                api.conversations.remember,
                [*history, ("user", message), ("assistant", answer)],
                session_id,
                namespace,
                required=False,
            )

    if not body.stream:
        result = await run_turn(api, agent, message, session_id, None, request.is_disconnected)
        await remember(redact(result.answer))
        completion_tokens = approx_tokens(result.answer)
        completion = OAChatCompletion(
            id=completion_id,
            created=created,
            model=model,
            choices=[OAChoice(message=OAResponseMessage(content=redact(result.answer)))],
            usage=OAUsage(
                prompt_tokens=prompt_tokens,
                completion_tokens=completion_tokens,
                total_tokens=prompt_tokens + completion_tokens,
            ),
        )
        return JSONResponse(completion.model_dump(mode="json"), headers={SESSION_HEADER: session_id})

    include_usage = bool(body.stream_options and body.stream_options.include_usage)

    def chunk(delta: dict[str, Any], finish: str | None = None, usage: dict[str, int] | None = None) -> bytes:
        obj: dict[str, Any] = {
            "id": completion_id,
            "object": "chat.completion.chunk",
            "created": created,
            "model": model,
            "system_fingerprint": None,
            "choices": []
            if usage is not None
            else [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
        }
        if include_usage:
            obj["usage"] = usage
        return f"data: {redact(json.dumps(obj, ensure_ascii=False, separators=(',', ':')))}\n\n".encode()

    async def frames() -> AsyncIterator[bytes]:
        yield chunk({"role": "assistant", "content": ""})
        parts: list[str] = []
        async for event, data in turn_events(api, agent, message, session_id, None, request.url.path):
            if event == HEARTBEAT:
                yield b": keep-alive\n\n"
            elif event == "answer" and isinstance(data, str) and data:
                parts.append(redact(data))
                yield chunk({"content": data})
            elif event == "answer_reset" and parts:
                # deltas cannot be taken back: mark the restart visibly, then the answer follows
                parts.append(RESET_NOTE)
                yield chunk({"content": RESET_NOTE})
            elif event == "error":
                err = dict(data) if isinstance(data, dict) else {}
                status = int(err.get("status") or 500)
                payload = {
                    "error": {
                        "message": str(err.get("detail") or "error"),
                        "type": _oa_error(status),
                        "code": status,
                        "param": None,
                    }
                }
                yield f"data: {redact(json.dumps(payload, ensure_ascii=False))}\n\n".encode()
            elif event == "end":
                if data is not None:
                    await remember(redact(data.answer))
                    streamed = "".join(parts)
                    if streamed != redact(data.answer):  # the client will resend what it received
                        await remember(streamed)
                    yield chunk({}, "stop")
                    if include_usage:
                        completion_tokens = approx_tokens("".join(parts))
                        yield chunk(
                            {},
                            usage={
                                "prompt_tokens": prompt_tokens,
                                "completion_tokens": completion_tokens,
                                "total_tokens": prompt_tokens + completion_tokens,
                            },
                        )
                yield b"data: [DONE]\n\n"

    return StreamingResponse(
        frames(), media_type="text/event-stream", headers={**SSE_HEADERS, SESSION_HEADER: session_id}
    )
