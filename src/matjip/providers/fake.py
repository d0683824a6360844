"""A scripted LLM for tests and offline demos (provider ``fake``), in the spirit of pydantic-ai's
``FunctionModel``/``TestModel``.

Replies are chosen per stage: ``script={"grade": reply}`` repeats one reply; a list
``script={"grade": [r1, r2]}`` is consumed in order (then the function or the default answers).
A reply may be a ``dict`` or a Pydantic model (sent as JSON), a ``str`` (sent verbatim — so
malformed JSON is easy to script), :class:`Chunks` (stream deltas, possibly with an exception
in the middle), an exception instance (raised as the provider failure), or a callable
``(FakeCall) -> reply``. Every call is kept in :attr:`FakeLLM.calls`.

Without a script or a function, a call fails with :class:`~matjip.errors.ValidationFailure`.
The fake knows nothing of any prompt: a user of it that wants default replies passes a function
(the agent's stage-aware replies live in :mod:`matjip.agent.stages.fakes`).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Union

from pydantic import BaseModel

from matjip.errors import ProviderError, ValidationFailure
from matjip.providers.base import (
    CallRecord,
    Message,
    T,
    TextStream,
    error_text,
    parse_json_reply,
    rough_tokens,
)


class Chunks(list[Union[str, BaseException]]):  # noqa: UP007 - runtime generic base
    """Stream deltas in order; an exception element is raised at that point of the stream."""


Reply = Any  # dict | BaseModel | str | Chunks | BaseException | Callable[[FakeCall], Reply]


@dataclass
class FakeCall:
    stage: str
    messages: list[Message]
    schema: type[BaseModel] | None = None
    stream: bool = False

    @property
    def prompt(self) -> str:
        return "\n\n".join(m["content"] for m in self.messages)

    @property
    def user(self) -> str:
        users = [m["content"] for m in self.messages if m["role"] == "user"]
        return users[-1] if users else ""


def _no_reply(call: FakeCall) -> Reply:
    return ValidationFailure(f"fake LLM has no reply for stage {call.stage!r}")


def split_text(text: str, size: int = 8) -> list[str | BaseException]:
    return [text[i : i + size] for i in range(0, len(text), size)]


@dataclass
class FakeLLM:
    """Scripted replies per stage (see the module docstring)."""

    script: Mapping[str, Reply] = field(default_factory=dict)
    function: Callable[[FakeCall], Reply] | None = None
    model: str = "fake"
    provider: str = "fake"
    calls: list[FakeCall] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._queues: dict[str, list[Reply]] = {}
        self._fixed: dict[str, Reply] = {}
        for stage, reply in self.script.items():
            if isinstance(reply, list) and not isinstance(reply, Chunks):
                self._queues[stage] = list(reply)
            else:
                self._fixed[stage] = reply

    def calls_for(self, stage: str) -> list[FakeCall]:
        return [c for c in self.calls if c.stage == stage]

    def _reply(self, call: FakeCall) -> Reply:
        with self._lock:
            self.calls.append(call)
            queue = self._queues.get(call.stage)
            if queue:
                reply = queue.pop(0)
            elif call.stage in self._fixed:
                reply = self._fixed[call.stage]
            elif self.function is not None:
                reply = self.function
            else:
                reply = _no_reply
        while callable(reply) and not isinstance(reply, BaseException | type):
            reply = reply(call)
        return reply

    def _record(self, call: FakeCall, out: str, error: BaseException | None = None) -> CallRecord:
        return CallRecord(
            stage=call.stage,
            provider=self.provider,
            model=self.model,
            input_tokens=rough_tokens(call.prompt),
            output_tokens=rough_tokens(out),
            cost_usd=None,
            latency_ms=0.0,
            ok=error is None,
            error=None if error is None else error_text(error),
        )

    @staticmethod
    def _as_text(reply: Reply) -> str:
        if isinstance(reply, BaseModel):
            return reply.model_dump_json()
        if isinstance(reply, dict | list) and not isinstance(reply, Chunks):
            return json.dumps(reply, ensure_ascii=False)
        if isinstance(reply, Chunks):
            return "".join(x for x in reply if isinstance(x, str))
        return str(reply)

    def complete_json(
        self, messages: Sequence[Message], schema: type[T], *, stage: str
    ) -> tuple[T, CallRecord]:
        call = FakeCall(stage, list(messages), schema)
        reply = self._reply(call)
        if isinstance(reply, BaseException):
            exc = (
                reply
                if isinstance(reply, ProviderError | ValidationFailure)
                else ProviderError(error_text(reply))
            )
            exc.record = self._record(call, "", exc)
            raise exc
        text = self._as_text(reply)
        try:
            value = parse_json_reply(text, schema)  # a failure carries the reply as ``raw``
        except ValidationFailure as exc:
            exc.record = self._record(call, text, exc)
            raise
        return value, self._record(call, text)

    def stream_text(self, messages: Sequence[Message], *, stage: str) -> TextStream:
        call = FakeCall(stage, list(messages), None, stream=True)

        def pieces(ts: TextStream) -> Iterator[str]:
            reply = self._reply(call)
            out: list[str] = []
            try:
                if isinstance(reply, BaseException):
                    raise reply if isinstance(reply, ProviderError) else ProviderError(error_text(reply))
                items: Sequence[str | BaseException] = (
                    reply if isinstance(reply, Chunks) else split_text(self._as_text(reply))
                )
                for item in items:
                    if isinstance(item, BaseException):
                        raise item if isinstance(item, ProviderError) else ProviderError(error_text(item))
                    out.append(item)
                    yield item
            except ProviderError as exc:
                ts.record = self._record(call, "".join(out), exc)
                exc.record = ts.record
                raise
            finally:
                if ts.record is None:
                    ts.record = self._record(call, "".join(out))

        return TextStream(pieces)

    def close(self) -> None:
        return None
