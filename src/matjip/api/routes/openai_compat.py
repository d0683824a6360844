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
from dataclasses import dataclass, field
from typing import Annotated, Any, TypeVar

import anyio
from fastapi import APIRouter, Header, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse

from matjip.api.database import is_database_failure, unavailable_problem
from matjip.api.problems import problem_responses
from matjip.api.routes.chat import SSE_HEADERS, check_message, check_text
from matjip.api.runner import AgentLike
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
from matjip.api.turns import FLUSH, HEARTBEAT, buffered, run_turn, turn_events
from matjip.errors import ProblemError
from matjip.settings import redact, secret_values
from matjip.wording import say, text

T = TypeVar("T")
log = logging.getLogger("matjip.api")

router = APIRouter(tags=["openai"])

MODEL_ID = "matjip-agent"
RESET_NOTE = text("api.openai.reset_note")
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
        raise ProblemError(422, text("api.error.no_user_message"), kind="validation-error")
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
            404, say("api.error.unknown_model", model=model_id, known=MODEL_ID), kind="not-found"
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
    session_id = await _session_for(api, body, history, namespace, x_matjip_session)
    agent = await api.require_agent()
    turn = _Turn(
        api=api,
        body=body,
        message=message,
        history=history,
        session_id=session_id,
        namespace=namespace,
        completion_id="chatcmpl-" + uuid.uuid4().hex,
        created=int(time.time()),
        prompt_tokens=sum(approx_tokens(m.text()) for m in body.messages),
    )
    if not body.stream:
        result = await run_turn(api, agent, message, session_id, None, request.is_disconnected)
        return JSONResponse(await turn.completion(result.answer), headers={SESSION_HEADER: session_id})
    return StreamingResponse(
        buffered(turn.frames(agent, request.url.path)),
        media_type="text/event-stream",
        headers={**SSE_HEADERS, SESSION_HEADER: session_id},
    )


async def _session_for(
    api: ApiState,
    body: OAChatRequest,
    history: list[tuple[str, str]],
    namespace: str,
    echoed_header: str | None,
) -> str:
    """The agent session of this conversation: the echoed session header, the request's ``user``,
    or the session remembered for these earlier messages (else a new one)."""
    echoed = echoed_session(echoed_header, namespace)
    if echoed is not None:
        return echoed
    if body.user:
        return user_session_id(body.user, namespace)
    api.database.require()
    found = await conversation_call(api, api.conversations.session_for, history, namespace)
    return found or api.conversations.new_session(namespace)


def _usage(prompt_tokens: int, completion_tokens: int) -> dict[str, int]:
    return {
        "prompt_tokens": prompt_tokens,
        "completion_tokens": completion_tokens,
        "total_tokens": prompt_tokens + completion_tokens,
    }


def _error_frame(data: object) -> bytes:
    """A mid-stream error as OpenAI's ``data: {"error": …}`` line."""
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
    return f"data: {redact(json.dumps(payload, ensure_ascii=False))}\n\n".encode()


@dataclass
class _Turn:
    """One chat completion: the turn's ids and the conversation it continues."""

    api: ApiState
    body: OAChatRequest
    message: str
    history: list[tuple[str, str]]
    session_id: str
    namespace: str
    completion_id: str
    created: int
    prompt_tokens: int
    # read once per turn: reading them scans the environment (per streamed chunk, most of the
    # event loop's CPU per turn)
    secrets: list[str] = field(default_factory=secret_values)

    @property
    def model(self) -> str:
        return self.body.model or MODEL_ID

    @property
    def include_usage(self) -> bool:
        return bool(self.body.stream_options and self.body.stream_options.include_usage)

    async def remember(self, answer: str) -> None:
        """The conversation with this answer, so its next request finds the session (not for ``user``)."""
        if not self.body.user:
            await conversation_call(
                self.api,
                self.api.conversations.remember,
                [*self.history, ("user", self.message), ("assistant", answer)],
                self.session_id,
                self.namespace,
                required=False,
            )

    async def completion(self, answer: str) -> dict[str, Any]:
        """The ``chat.completion`` of a turn that was not streamed."""
        await self.remember(redact(answer))
        completion_tokens = approx_tokens(answer)
        completion = OAChatCompletion(
            id=self.completion_id,
            created=self.created,
            model=self.model,
            choices=[OAChoice(message=OAResponseMessage(content=redact(answer)))],
            usage=OAUsage(**_usage(self.prompt_tokens, completion_tokens)),
        )
        return completion.model_dump(mode="json")

    def chunk(
        self, delta: dict[str, Any], finish: str | None = None, usage: dict[str, int] | None = None
    ) -> bytes:
        obj: dict[str, Any] = {
            "id": self.completion_id,
            "object": "chat.completion.chunk",
            "created": self.created,
            "model": self.model,
            "system_fingerprint": None,
            "choices": []
            if usage is not None
            else [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
        }
        if self.include_usage:
            obj["usage"] = usage
        payload = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
        return f"data: {redact(payload, self.secrets)}\n\n".encode()

    async def frames(self, agent: AgentLike, path: str) -> AsyncIterator[bytes | None]:
        """The SSE stream: a role chunk, the answer's deltas, the stop (and usage) chunk, ``[DONE]``;
        ``None`` where a batch of events ends (:func:`matjip.api.turns.buffered` writes it at once)."""
        yield self.chunk({"role": "assistant", "content": ""})
        parts: list[str] = []
        async for event, data in turn_events(
            self.api, agent, self.message, self.session_id, None, path, flushes=True
        ):
            if event == FLUSH:
                yield None
            elif event == HEARTBEAT:
                yield b": keep-alive\n\n"
            elif event == "answer" and isinstance(data, str) and data:
                parts.append(redact(data, self.secrets))
                yield self.chunk({"content": data})
            elif event == "answer_reset" and parts:
                # deltas cannot be taken back: mark the restart visibly, then the answer follows
                parts.append(RESET_NOTE)
                yield self.chunk({"content": RESET_NOTE})
            elif event == "error":
                yield _error_frame(data)
            elif event == "end":
                if data is not None:
                    async for frame in self._end(data.answer, parts):
                        yield frame
                yield b"data: [DONE]\n\n"

    async def _end(self, answer: str, parts: list[str]) -> AsyncIterator[bytes]:
        await self.remember(redact(answer, self.secrets))
        streamed = "".join(parts)
        if streamed != redact(answer, self.secrets):  # the client will resend what it received
            await self.remember(streamed)
        yield self.chunk({}, "stop")
        if self.include_usage:
            yield self.chunk({}, usage=_usage(self.prompt_tokens, approx_tokens("".join(parts))))
