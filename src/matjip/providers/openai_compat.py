"""An OpenAI-compatible chat-completions client on plain httpx.

``POST {base_url}/chat/completions`` is spoken by OpenAI and by the usual local servers
(vLLM, Ollama's ``/v1``, llama.cpp's ``llama-server``, LM Studio), so one client covers them:

* structured output with ``response_format`` — ``json_schema`` (non-strict, the schema inlined)
  by default, ``json_object`` for servers that only know JSON mode, or ``none`` (the prompt
  alone asks for JSON); the reply is validated with Pydantic either way;
* streaming with ``stream: true``: server-sent events, one ``data: {chat.completion.chunk}``
  line per delta, ``data: [DONE]`` at the end; with ``stream_options.include_usage`` the last
  chunk (empty ``choices``) carries the token usage;
* retries on 429/5xx and connection errors (:class:`~matjip.providers.base.RetryPolicy`), no retry on
  read timeouts (:class:`~matjip.errors.ProviderTimeout`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Sequence
from typing import Any

import httpx

from matjip.errors import HTTPStatusFailure, ProviderError, ProviderTimeout, ValidationFailure
from matjip.providers import tracing
from matjip.providers.base import (
    CallRecord,
    Message,
    RetryPolicy,
    T,
    TextStream,
    error_text,
    finished_call,
    inline_schema,
    parse_json_reply,
)
from matjip.providers.config import OPENAI_DEFAULT_BASE_URL, JsonMode
from matjip.providers.http import send_with_retries


def _error_detail(resp: httpx.Response) -> str:
    try:
        data = resp.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        return resp.text[:200].replace("\n", " ")
    if isinstance(data, dict):
        err = data.get("error")
        if isinstance(err, dict):
            return str(err.get("message") or err.get("type") or err)[:200]
        if err:
            return str(err)[:200]
    return str(data)[:200]


def _content_text(content: Any) -> str | None:
    if content is None or isinstance(content, str):
        return content
    if isinstance(content, list):  # content parts
        return "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return str(content)


class OpenAICompatClient:
    """Chat completions over httpx. Thread-safe (one pooled :class:`httpx.Client`)."""

    def __init__(
        self,
        *,
        model: str,
        base_url: str = OPENAI_DEFAULT_BASE_URL,
        api_key: str | None = None,
        timeout_s: float = 20.0,
        retry: RetryPolicy | None = None,
        json_mode: JsonMode = "json_schema",
        stream_usage: bool = True,
        temperature: float | None = None,
        provider: str = "openai",
        transport: httpx.BaseTransport | None = None,
        extra_headers: dict[str, str] | None = None,
        tracing_config: tracing.TracingConfig = tracing.OFF,
    ) -> None:
        self._tracing = tracing_config
        self.provider = provider
        self.model = model
        self.base_url = base_url.rstrip("/")
        self.timeout_s = timeout_s
        self.retry = retry or RetryPolicy()
        self.json_mode = json_mode
        self.stream_usage = stream_usage
        self.temperature = temperature
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        headers.update(extra_headers or {})
        self._http = httpx.Client(timeout=httpx.Timeout(timeout_s), headers=headers, transport=transport)

    # --- request plumbing ------------------------------------------------------------------

    @property
    def url(self) -> str:
        return f"{self.base_url}/chat/completions"

    def _body(self, messages: Sequence[Message], *, stream: bool) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.model,
            "messages": [dict(m) for m in messages],
            "stream": stream,
        }
        if self.temperature is not None:
            body["temperature"] = self.temperature
        if stream and self.stream_usage:
            body["stream_options"] = {"include_usage": True}
        return body

    def _send(self, body: dict[str, Any], *, stream: bool) -> tuple[httpx.Response, int]:
        """POST with retries; returns the (successful) response and the number of attempts."""
        try:
            resp, attempts = send_with_retries(
                lambda: self._http.send(self._http.build_request("POST", self.url, json=body), stream=stream),
                self.retry,
            )
        except httpx.TimeoutException as exc:
            raise ProviderTimeout(
                f"{self.provider} did not answer within {self.timeout_s:g}s ({type(exc).__name__})"
            ) from exc
        except httpx.TransportError as exc:
            raise ProviderError(f"{self.provider} unreachable: {type(exc).__name__}: {exc}") from exc
        if resp.status_code < 400:
            return resp, attempts
        try:
            if stream:
                resp.read()
            detail = _error_detail(resp)
        finally:
            resp.close()
        raise HTTPStatusFailure(resp.status_code, f"{detail} (after {attempts} attempt(s))")

    def _record(
        self,
        stage: str,
        started: float,
        usage: dict[str, Any] | None,
        *,
        attempts: int,
        error: str | None = None,
    ) -> CallRecord:
        usage = usage or {}
        tin = usage.get("prompt_tokens")
        tout = usage.get("completion_tokens")
        tin = int(tin) if isinstance(tin, int | float) else None
        tout = int(tout) if isinstance(tout, int | float) else None
        return finished_call(
            stage,
            self.provider,
            self.model,
            started,
            attempts=attempts,
            input_tokens=tin,
            output_tokens=tout,
            error=error,
        )

    # --- structured output -----------------------------------------------------------------

    def complete_json(
        self, messages: Sequence[Message], schema: type[T], *, stage: str
    ) -> tuple[T, CallRecord]:
        body = self._body(messages, stream=False)
        if self.json_mode == "json_schema":
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": schema.__name__, "schema": inline_schema(schema), "strict": False},
            }
        elif self.json_mode == "json_object":
            body["response_format"] = {"type": "json_object"}
        started = time.perf_counter()
        attempts = 1
        usage: dict[str, Any] | None = None
        try:
            resp, attempts = self._send(body, stream=False)
            try:
                data = resp.json()
            except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                raise ProviderError(f"{self.provider} sent a body that is not JSON") from exc
            if not isinstance(data, dict):
                raise ProviderError(f"{self.provider} sent an unexpected body")
            usage = data.get("usage") if isinstance(data.get("usage"), dict) else None
            choices = data.get("choices") or []
            if not choices or not isinstance(choices[0], dict):
                raise ValidationFailure("reply has no choices")
            choice = choices[0]
            message = choice.get("message") or {}
            text = _content_text(message.get("content"))
            if text is None and message.get("refusal"):
                raise ValidationFailure(f"model refused: {str(message['refusal'])[:120]}")
            try:
                value = parse_json_reply(text, schema)  # a failure carries the reply as ``raw``
            except ValidationFailure as exc:
                if choice.get("finish_reason") != "length":
                    raise
                raise ValidationFailure(f"{exc} (reply cut off: finish_reason=length)", raw=text) from exc
        except (ProviderError, ValidationFailure) as exc:
            record = self._record(stage, started, usage, attempts=attempts, error=error_text(exc))
            tracing.record_call(record, messages, config=self._tracing)
            exc.record = record
            raise
        record = self._record(stage, started, usage, attempts=attempts)
        tracing.record_call(record, messages, value.model_dump(mode="json"), config=self._tracing)
        return value, record

    # --- streaming -------------------------------------------------------------------------

    def stream_text(self, messages: Sequence[Message], *, stage: str) -> TextStream:
        body = self._body(messages, stream=True)

        def pieces(ts: TextStream) -> Iterator[str]:
            started = time.perf_counter()
            attempts = 1
            usage: dict[str, Any] | None = None
            out: list[str] = []
            try:
                resp, attempts = self._send(body, stream=True)
                try:
                    for line in resp.iter_lines():
                        if not line or line.startswith(":") or not line.startswith("data:"):
                            continue
                        payload = line[5:].strip()
                        if payload == "[DONE]":
                            break
                        try:
                            chunk = json.loads(payload)
                        except json.JSONDecodeError as exc:
                            raise ProviderError(f"{self.provider} sent a malformed stream chunk") from exc
                        if not isinstance(chunk, dict):
                            continue
                        if chunk.get("error"):
                            raise ProviderError(f"{self.provider} stream error: {str(chunk['error'])[:200]}")
                        if isinstance(chunk.get("usage"), dict):
                            usage = chunk["usage"]
                        for choice in chunk.get("choices") or []:
                            delta = _content_text((choice.get("delta") or {}).get("content"))
                            if delta:
                                out.append(delta)
                                yield delta
                finally:
                    resp.close()
            except httpx.TimeoutException as exc:
                failure: ProviderError = ProviderTimeout(
                    f"{self.provider} stream stalled for {self.timeout_s:g}s"
                )
                ts.record = self._record(stage, started, usage, attempts=attempts, error=error_text(failure))
                failure.record = ts.record
                raise failure from exc
            except httpx.TransportError as exc:
                failure = ProviderError(f"{self.provider} stream broke: {type(exc).__name__}")
                ts.record = self._record(stage, started, usage, attempts=attempts, error=error_text(failure))
                failure.record = ts.record
                raise failure from exc
            except ProviderError as exc:
                ts.record = self._record(stage, started, usage, attempts=attempts, error=error_text(exc))
                exc.record = ts.record
                raise
            finally:
                if ts.record is None:  # finished, or closed early by the consumer
                    ts.record = self._record(stage, started, usage, attempts=attempts)
                tracing.record_call(ts.record, messages, "".join(out), config=self._tracing)

        return TextStream(pieces)

    def close(self) -> None:
        self._http.close()
