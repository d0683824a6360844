"""Gemini through the ``google-genai`` SDK (``pip install 'matjip[gemini]'``).

``client.models.generate_content`` with ``response_mime_type="application/json"`` and the
inlined JSON schema (``response_json_schema``) for structured output, and
``generate_content_stream`` for text. The SDK's own retries are left off (it does not retry
unless ``retry_options`` is given); this client retries 429/5xx and connection errors with the
same :class:`~matjip.providers.base.RetryPolicy` as the OpenAI-compatible one, honouring
``Retry-After``. ``base_url`` (``MATJIP_LLM_BASE_URL``) points the SDK elsewhere — a proxy, or a
local server replaying Gemini REST responses in tests.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator, Sequence
from typing import Any

from matjip.errors import ConfigurationError, ProviderError, ProviderTimeout, ValidationFailure
from matjip.providers import tracing
from matjip.providers.base import (
    RETRY_STATUS,
    CallRecord,
    Message,
    RetryPolicy,
    T,
    TextStream,
    error_text,
    finished_call,
    inline_schema,
    parse_json_reply,
    parse_retry_after,
)


def _httpx_types(name: str) -> tuple[type[BaseException], ...]:
    """The exception class ``name`` of each HTTP library the SDK may use (httpx, httpx2)."""
    out: list[type[BaseException]] = []
    for mod in ("httpx", "httpx2"):
        try:
            module = __import__(mod)
            out.append(getattr(module, name))
        except (ImportError, AttributeError):
            continue
    return tuple(out)


_TIMEOUTS = _httpx_types("TimeoutException")
_TRANSPORT = _httpx_types("TransportError")


class GeminiClient:
    provider = "gemini"

    def __init__(
        self,
        *,
        model: str,
        api_key: str | None,
        base_url: str | None = None,
        timeout_s: float = 20.0,
        retry: RetryPolicy | None = None,
        temperature: float | None = None,
        httpx_client: Any = None,
        tracing_config: tracing.TracingConfig = tracing.OFF,
    ) -> None:
        try:
            from google import genai
            from google.genai import errors, types
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise ConfigurationError(
                "llm_provider=gemini needs the google-genai package: pip install 'matjip[gemini]'"
            ) from exc
        if not api_key:
            raise ConfigurationError(
                "llm_provider=gemini needs GEMINI_API_KEY (or GOOGLE_API_KEY; environment or .env)"
            )
        self._tracing = tracing_config
        self.model = model
        self.timeout_s = timeout_s
        self.retry = retry or RetryPolicy()
        self.temperature = temperature
        self._types = types
        self._errors = errors
        http_options = types.HttpOptions(
            base_url=base_url or None,
            timeout=max(1, int(timeout_s * 1000)),
            httpx_client=httpx_client,
        )
        self._client = genai.Client(api_key=api_key, http_options=http_options)

    # --- plumbing --------------------------------------------------------------------------

    def _contents(self, messages: Sequence[Message]) -> tuple[str | None, list[Any]]:
        t = self._types
        system = "\n\n".join(m["content"] for m in messages if m["role"] == "system") or None
        contents = [
            t.Content(role="model" if m["role"] == "assistant" else "user", parts=[t.Part(text=m["content"])])
            for m in messages
            if m["role"] != "system"
        ]
        return system, contents

    def _config(self, system: str | None, schema: type[T] | None) -> Any:
        kwargs: dict[str, Any] = {}
        if system:
            kwargs["system_instruction"] = system
        if self.temperature is not None:
            kwargs["temperature"] = self.temperature
        if schema is not None:
            kwargs["response_mime_type"] = "application/json"
            if "response_json_schema" in self._types.GenerateContentConfig.model_fields:
                kwargs["response_json_schema"] = inline_schema(schema)
            else:  # older google-genai: the SDK converts the Pydantic model itself
                kwargs["response_schema"] = schema
        return self._types.GenerateContentConfig(**kwargs)

    def _retry_delay(self, exc: BaseException, attempt: int) -> float | None:
        """Seconds to wait before retrying after ``exc``, or None when it must not be retried."""
        if isinstance(exc, self._errors.APIError):
            code = getattr(exc, "code", None)
            if code not in RETRY_STATUS:
                return None
            headers = getattr(getattr(exc, "response", None), "headers", None)
            retry_after = parse_retry_after(headers.get("retry-after") if headers is not None else None)
            return self.retry.delay(attempt, retry_after)
        if isinstance(exc, _TRANSPORT) and not isinstance(exc, _TIMEOUTS):
            return self.retry.delay(attempt)
        return None

    def _translate(self, exc: BaseException, attempts: int) -> ProviderError:
        if isinstance(exc, ProviderError):
            return exc
        if isinstance(exc, _TIMEOUTS):
            return ProviderTimeout(f"gemini did not answer within {self.timeout_s:g}s ({type(exc).__name__})")
        if isinstance(exc, self._errors.APIError):
            return ProviderError(
                f"gemini HTTP {getattr(exc, 'code', '?')}: {str(getattr(exc, 'message', '') or exc)[:200]}"
                f" (after {attempts} attempt(s))"
            )
        return ProviderError(f"gemini call failed: {type(exc).__name__}: {str(exc)[:200]}")

    def _record(
        self, stage: str, started: float, usage: Any, *, attempts: int, error: str | None = None
    ) -> CallRecord:
        tin = getattr(usage, "prompt_token_count", None) if usage is not None else None
        cand = getattr(usage, "candidates_token_count", None) if usage is not None else None
        thoughts = getattr(usage, "thoughts_token_count", None) if usage is not None else None
        tout = None if cand is None and thoughts is None else (cand or 0) + (thoughts or 0)
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
        system, contents = self._contents(messages)
        config = self._config(system, schema)
        started = time.perf_counter()
        attempt = 0
        usage: Any = None
        try:
            while True:
                try:
                    response = self._client.models.generate_content(
                        model=self.model, contents=contents, config=config
                    )
                    break
                except Exception as exc:
                    delay = self._retry_delay(exc, attempt)
                    if delay is None:
                        raise self._translate(exc, attempt + 1) from exc
                    self.retry.sleep(delay)
                    attempt += 1
            usage = getattr(response, "usage_metadata", None)
            try:
                text = response.text
            except Exception as exc:  # SDK raises on odd candidates
                raise ValidationFailure(f"reply has no text: {exc}") from exc
            if text is None:
                reason = None
                if response.candidates:
                    reason = getattr(response.candidates[0], "finish_reason", None)
                raise ValidationFailure(f"reply has no text (finish_reason={reason})")
            value = parse_json_reply(text, schema)  # a failure carries the reply as ``raw``
        except (ProviderError, ValidationFailure) as exc:
            record = self._record(stage, started, usage, attempts=attempt + 1, error=error_text(exc))
            tracing.record_call(record, messages, config=self._tracing)
            exc.record = record
            raise
        record = self._record(stage, started, usage, attempts=attempt + 1)
        tracing.record_call(record, messages, value.model_dump(mode="json"), config=self._tracing)
        return value, record

    # --- streaming -------------------------------------------------------------------------

    def stream_text(self, messages: Sequence[Message], *, stage: str) -> TextStream:
        system, contents = self._contents(messages)
        config = self._config(system, None)

        def pieces(ts: TextStream) -> Iterator[str]:
            started = time.perf_counter()
            attempt = 0
            usage: Any = None
            out: list[str] = []
            it: Iterator[Any] | None = None
            try:
                while True:  # retry only until the first chunk arrives
                    try:
                        it = iter(
                            self._client.models.generate_content_stream(
                                model=self.model, contents=contents, config=config
                            )
                        )
                        first = next(it, None)
                        break
                    except Exception as exc:
                        delay = self._retry_delay(exc, attempt)
                        if delay is None:
                            raise self._translate(exc, attempt + 1) from exc
                        self.retry.sleep(delay)
                        attempt += 1
                chunk = first
                assert it is not None
                while chunk is not None:
                    if getattr(chunk, "usage_metadata", None) is not None:
                        usage = chunk.usage_metadata
                    try:
                        text = chunk.text
                    except Exception:
                        text = None
                    if text:
                        out.append(text)
                        yield text
                    try:
                        chunk = next(it, None)
                    except Exception as exc:
                        raise self._translate(exc, attempt + 1) from exc
            except ProviderError as exc:
                ts.record = self._record(stage, started, usage, attempts=attempt + 1, error=error_text(exc))
                exc.record = ts.record
                raise
            finally:
                close = getattr(it, "close", None)
                if close is not None:
                    with contextlib.suppress(Exception):
                        close()
                if ts.record is None:
                    ts.record = self._record(stage, started, usage, attempts=attempt + 1)
                tracing.record_call(ts.record, messages, "".join(out), config=self._tracing)

        return TextStream(pieces)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._client.close()
