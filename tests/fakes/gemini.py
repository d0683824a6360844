"""Real-shaped Gemini REST bodies: ``generateContent`` and ``streamGenerateContent?alt=sse``."""

from __future__ import annotations

import json
from typing import Any

from fakes.http import Reply

MODEL = "gemini-2.5-flash-lite"


def response(
    text: str,
    *,
    prompt_tokens: int = 150,
    candidates_tokens: int = 25,
    finish: str | None = "STOP",
    usage: bool = True,
) -> dict[str, Any]:
    cand: dict[str, Any] = {"content": {"parts": [{"text": text}], "role": "model"}, "index": 0}
    if finish:
        cand["finishReason"] = finish
    body: dict[str, Any] = {"candidates": [cand], "modelVersion": MODEL, "responseId": "mOZ1aKnNFqSa1dkP"}
    if usage:
        body["usageMetadata"] = {
            "promptTokenCount": prompt_tokens,
            "candidatesTokenCount": candidates_tokens,
            "totalTokenCount": prompt_tokens + candidates_tokens,
            "promptTokensDetails": [{"modality": "TEXT", "tokenCount": prompt_tokens}],
        }
    return body


def json_reply(obj: Any, **kw: Any) -> Reply:
    return Reply(body=response(json.dumps(obj, ensure_ascii=False), **kw))


def text_reply(text: str, **kw: Any) -> Reply:
    return Reply(body=response(text, **kw))


def stream_reply(pieces: list[str], *, prompt_tokens: int = 180, candidates_tokens: int = 33) -> Reply:
    chunks = []
    for i, p in enumerate(pieces):
        last = i == len(pieces) - 1
        body = response(
            p,
            finish="STOP" if last else None,
            usage=last,
            prompt_tokens=prompt_tokens,
            candidates_tokens=candidates_tokens,
        )
        chunks.append(f"data: {json.dumps(body, ensure_ascii=False)}\r\n\r\n".encode())
    return Reply(chunks=chunks)


def error_reply(status: int, message: str = "error", *, retry_after: str | None = None) -> Reply:
    statuses = {400: "INVALID_ARGUMENT", 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE"}
    headers = {"retry-after": retry_after} if retry_after is not None else {}
    return Reply(
        status=status,
        headers=headers,
        body={"error": {"code": status, "message": message, "status": statuses.get(status, "UNKNOWN")}},
    )
