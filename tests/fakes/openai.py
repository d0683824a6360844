"""Real-shaped OpenAI chat-completions bodies: ``chat.completion`` and ``chat.completion.chunk`` SSE."""

from __future__ import annotations

import json
from typing import Any

from fakes.http import Reply

MODEL = "gpt-4o-mini"


def completion(
    content: str | None,
    *,
    prompt_tokens: int = 120,
    completion_tokens: int = 30,
    finish_reason: str = "stop",
    model: str = MODEL,
) -> dict[str, Any]:
    return {
        "id": "chatcmpl-AbC123",
        "object": "chat.completion",
        "created": 1735689600,
        "model": f"{model}-2024-07-18",
        "system_fingerprint": "fp_0ba0d124f1",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content, "refusal": None},
                "logprobs": None,
                "finish_reason": finish_reason,
            }
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


def json_reply(obj: Any, **kw: Any) -> Reply:
    return Reply(body=completion(json.dumps(obj, ensure_ascii=False), **kw))


def text_reply(text: str | None, **kw: Any) -> Reply:
    return Reply(body=completion(text, **kw))


def _chunk(delta: dict[str, Any], finish: str | None = None, model: str = MODEL) -> dict[str, Any]:
    return {
        "id": "chatcmpl-AbC124",
        "object": "chat.completion.chunk",
        "created": 1735689601,
        "model": f"{model}-2024-07-18",
        "system_fingerprint": "fp_0ba0d124f1",
        "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
    }


def sse(obj: Any) -> bytes:
    return f"data: {json.dumps(obj, ensure_ascii=False)}\n\n".encode()


def stream_chunks(
    pieces: list[str], *, prompt_tokens: int = 200, completion_tokens: int = 40, usage: bool = True
) -> list[bytes]:
    """The SSE events of a streamed completion: role, content deltas, finish, usage, [DONE]."""
    out = [sse(_chunk({"role": "assistant", "content": "", "refusal": None}))]
    out += [sse(_chunk({"content": p})) for p in pieces]
    out.append(sse(_chunk({}, finish="stop")))
    if usage:
        out.append(
            sse(
                {
                    "id": "chatcmpl-AbC124",
                    "object": "chat.completion.chunk",
                    "created": 1735689601,
                    "model": f"{MODEL}-2024-07-18",
                    "choices": [],
                    "usage": {
                        "prompt_tokens": prompt_tokens,
                        "completion_tokens": completion_tokens,
                        "total_tokens": prompt_tokens + completion_tokens,
                    },
                }
            )
        )
    out.append(b"data: [DONE]\n\n")
    return out


def stream_reply(pieces: list[str], **kw: Any) -> Reply:
    return Reply(chunks=stream_chunks(pieces, **kw))


def error_reply(
    status: int, message: str = "error", *, retry_after: str | None = None, kind: str = "server_error"
) -> Reply:
    headers = {"retry-after": retry_after} if retry_after is not None else {}
    return Reply(
        status=status,
        body={"error": {"message": message, "type": kind, "param": None, "code": None}},
        headers=headers,
    )


def echo_key_reply(seen: Any, *, proxy_key: str = "sk-proxy-upstream-7f3a9c1e5b2d") -> Reply:
    """A proxy that echoes the caller's key in its error text (some do: "Incorrect API key provided:
    sk-…"), and its own upstream key for good measure. Use as a ``Script`` reply (a callable)."""
    auth = seen.headers.get("authorization", "")
    key = auth.split(" ", 1)[1] if " " in auth else auth
    return error_reply(
        401,
        f"Incorrect API key provided: {key}. You can find your API key at https://platform.openai.com. "
        f"(upstream key {proxy_key}, request Authorization: {auth})",
        kind="invalid_request_error",
    )
