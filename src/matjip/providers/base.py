"""The provider interface every LLM client implements, and what one call leaves behind.

Two operations are enough for every stage:

* :meth:`LLMClient.complete_json` — structured output: the reply must be one JSON object that
  validates against a Pydantic model. Bad JSON or a schema violation raises
  :class:`~matjip.errors.ValidationFailure` (the tokens were still spent, so the exception
  carries a :class:`CallRecord` and the raw text).
* :meth:`LLMClient.stream_text` — free text, token by token, as a :class:`TextStream`; once the
  stream is exhausted (or fails) its ``record`` holds the :class:`CallRecord`.

Transport problems raise :class:`~matjip.errors.ProviderError` (or
:class:`~matjip.errors.ProviderTimeout`); every exception raised by a client carries the
record of the failed call in its ``record`` field (see :func:`record_of`).

Retries (429 and 5xx, connection errors) follow :class:`RetryPolicy`: exponential backoff with
jitter, honouring ``Retry-After``. Read timeouts are not retried: a slow provider would blow the
turn's time budget, and the stage falls back to its offline twin instead.
"""

from __future__ import annotations

import email.utils
import json
import random
import re
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypedDict, TypeVar, runtime_checkable

from pydantic import BaseModel, ValidationError

from matjip.errors import MatjipError, ProviderError, ValidationFailure
from matjip.providers.pricing import cost_usd

Role = Literal["system", "user", "assistant"]


class Message(TypedDict):
    role: Role
    content: str


T = TypeVar("T", bound=BaseModel)


class CallRecord(BaseModel):
    """One LLM (or web) call as it appears in the trace."""

    stage: str
    provider: str
    model: str
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost_usd: float | None = None
    latency_ms: float = 0.0
    ok: bool = True
    error: str | None = None
    attempts: int = 1

    def short(self) -> str:
        tokens = f"{self.input_tokens or 0}→{self.output_tokens or 0} tok"
        cost = f", ${self.cost_usd:.6f}" if self.cost_usd is not None else ""
        status = "ok" if self.ok else f"failed: {self.error}"
        return f"{self.stage} {self.provider}/{self.model} {tokens}{cost}, {self.latency_ms:.0f} ms, {status}"


def finished_call(
    stage: str,
    provider: str,
    model: str,
    started: float,
    *,
    attempts: int,
    input_tokens: int | None = None,
    output_tokens: int | None = None,
    error: str | None = None,
) -> CallRecord:
    """The record of a call that began at ``started`` (a ``time.perf_counter()`` reading) and
    ends now, priced from ``model`` and the token counts (no price when either is unknown)."""
    return CallRecord(
        stage=stage,
        provider=provider,
        model=model,
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        cost_usd=cost_usd(model, input_tokens, output_tokens),
        latency_ms=round((time.perf_counter() - started) * 1000, 1),
        ok=error is None,
        error=error,
        attempts=attempts,
    )


def record_of(exc: BaseException) -> CallRecord | None:
    """The :class:`CallRecord` a client put in ``exc.record``, if any."""
    rec = exc.record if isinstance(exc, ProviderError | ValidationFailure) else None
    return rec if isinstance(rec, CallRecord) else None


class TextStream(Iterator[str]):
    """An iterator of text deltas whose :attr:`record` is set once it ends (or fails)."""

    def __init__(self, pieces: Callable[[TextStream], Iterator[str]]) -> None:
        self.record: CallRecord | None = None
        self._it = pieces(self)
        self._closed = False

    def __iter__(self) -> TextStream:
        return self

    def __next__(self) -> str:
        return next(self._it)

    def close(self) -> None:
        """Stop early (closes the underlying HTTP response); ``record`` is still set."""
        if not self._closed:
            self._closed = True
            close = getattr(self._it, "close", None)
            if close is not None:
                close()

    def text(self) -> str:
        """Consume the rest of the stream and return it joined."""
        return "".join(self)


@runtime_checkable
class LLMClient(Protocol):
    """A chat model with structured output and streaming."""

    provider: str
    model: str

    def complete_json(
        self, messages: Sequence[Message], schema: type[T], *, stage: str
    ) -> tuple[T, CallRecord]:
        """One JSON object validated into ``schema``; raises ProviderError/ValidationFailure."""
        ...

    def stream_text(self, messages: Sequence[Message], *, stage: str) -> TextStream:
        """Text deltas; ``.record`` is available when the stream is exhausted."""
        ...


# --- retries --------------------------------------------------------------------------------

RETRY_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504})


@dataclass(frozen=True)
class RetryPolicy:
    """Exponential backoff with full jitter: ``base * 2**attempt * (1 + U(0, jitter))``, capped.

    A ``Retry-After`` the server sends is honoured; if it asks for more than ``max_delay_s`` the
    call gives up at once (waiting would cost the turn more than the offline fallback does).
    """

    max_retries: int = 2
    base_s: float = 0.5
    max_delay_s: float = 8.0
    jitter: float = 0.5
    sleep: Callable[[float], None] = time.sleep

    def delay(self, attempt: int, retry_after: float | None = None) -> float | None:
        """Seconds to wait before retry number ``attempt + 1``; ``None`` means give up."""
        if attempt >= self.max_retries:
            return None
        if retry_after is not None:
            return retry_after if retry_after <= self.max_delay_s else None
        d = self.base_s * (2**attempt) * (1.0 + random.uniform(0.0, self.jitter))
        return min(d, self.max_delay_s)


def parse_retry_after(value: str | None) -> float | None:
    """Seconds from a ``Retry-After`` header (delta-seconds or an HTTP date)."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


# --- JSON helpers ---------------------------------------------------------------------------

_FENCE = re.compile(r"^\s*```(?:json|JSON)?\s*\n?(.*?)\n?\s*```\s*$", re.DOTALL)


def extract_json_text(text: str) -> str:
    """The JSON object in a reply: strips Markdown code fences and text around the object."""
    m = _FENCE.match(text)
    if m:
        text = m.group(1)
    text = text.strip()
    if text.startswith("{"):
        return text
    start, end = text.find("{"), text.rfind("}")
    if start >= 0 and end > start:
        return text[start : end + 1]
    return text


def parse_json_reply(text: str | None, schema: type[T]) -> T:
    """Validate a model reply into ``schema``; raises :class:`ValidationFailure` with the reason
    (and the reply in its ``raw`` field)."""
    if text is None or not text.strip():
        raise ValidationFailure("empty reply", raw=text)
    candidate = extract_json_text(text)
    try:
        data = json.loads(candidate)
    except json.JSONDecodeError as exc:
        raise ValidationFailure(f"invalid JSON: {exc.msg} at position {exc.pos}", raw=text) from exc
    if not isinstance(data, dict):
        raise ValidationFailure(f"reply is a JSON {type(data).__name__}, not an object", raw=text)
    try:
        return schema.model_validate(data)
    except ValidationError as exc:
        parts = []
        for err in exc.errors()[:5]:
            loc = ".".join(str(p) for p in err["loc"]) or "(root)"
            parts.append(f"{loc}: {err['msg']}")
        raise ValidationFailure("schema violation: " + "; ".join(parts), raw=text) from exc


def inline_schema(schema: type[BaseModel]) -> dict[str, Any]:
    """The JSON schema of ``schema`` with ``$ref``s inlined and titles dropped.

    Providers differ in how much JSON Schema they accept; a flat schema without references is
    understood by OpenAI, Gemini, vLLM, llama.cpp and Ollama alike.
    """
    raw = schema.model_json_schema()
    defs: dict[str, Any] = raw.pop("$defs", {})

    def walk(node: Any, in_properties: bool = False) -> Any:
        if isinstance(node, dict):
            if "$ref" in node and not in_properties:
                name = str(node["$ref"]).rsplit("/", 1)[-1]
                return walk(defs[name])
            if in_properties:  # keys here are property names (a property may be called "title")
                return {k: walk(v) for k, v in node.items()}
            return {k: walk(v, k == "properties") for k, v in node.items() if k != "title"}
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    out = walk(raw)
    assert isinstance(out, dict)
    return out


def error_text(exc: BaseException) -> str:
    """A short, single-line description of ``exc`` for records and notes (no secrets)."""
    msg = str(exc).replace("\n", " ").strip()
    if isinstance(exc, MatjipError):
        return msg[:300] or type(exc).__name__
    return f"{type(exc).__name__}: {msg}"[:300]


def rough_tokens(text: str) -> int:
    """A rough token count for fakes and providers that report none (≈ 1 token per 2 chars of Korean)."""
    return max(1, len(text) // 2) if text else 0
