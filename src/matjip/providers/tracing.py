"""Optional LangSmith tracing and the per-node trace details of LLM and web calls.

LangSmith switches on with its standard variables (read by :class:`~matjip.settings.Settings`,
from the environment or ``.env``)::

    LANGSMITH_TRACING=true
    LANGSMITH_API_KEY=lsv2_...
    LANGSMITH_PROJECT=matjip            # optional (default project otherwise)
    LANGSMITH_ENDPOINT=https://api.smith.langchain.com   # optional

and the ``langsmith`` package (``pip install 'matjip[langsmith]'``). When the variables are
absent, the package is missing, or anything in it fails, tracing is a no-op: a turn never
breaks because of observability. LangGraph traces the graph and its nodes by itself; this
module adds one ``llm`` run per provider call (with token usage) and one ``tool`` run per web
search, nested under the current node's run. The provider clients get a :class:`TracingConfig`
(via :class:`~matjip.providers.config.LLMOptions` or
:meth:`TavilyClient.from_settings <matjip.providers.tavily.TavilyClient.from_settings>`). The
``langsmith`` package (and so LangGraph) reads these variables from the process environment
itself: set in ``.env`` only, they switch matjip's runs on but the package uploads nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from matjip.settings import LANGSMITH_DEFAULT_ENDPOINT, Settings, secret

if TYPE_CHECKING:
    from matjip.providers.base import CallRecord

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TracingConfig:
    """LangSmith settings of one client; the default is off."""

    requested: bool = False  # LANGSMITH_TRACING
    api_key: str | None = field(default=None, repr=False)
    project: str | None = None
    endpoint: str = LANGSMITH_DEFAULT_ENDPOINT

    @classmethod
    def from_settings(cls, settings: Settings) -> TracingConfig:
        return cls(
            requested=settings.langsmith_tracing,
            api_key=secret(settings.langsmith_api_key),
            project=settings.langsmith_project or None,
            endpoint=settings.langsmith_endpoint or LANGSMITH_DEFAULT_ENDPOINT,
        )


OFF = TracingConfig()


def enabled(config: TracingConfig) -> bool:
    """True when LangSmith tracing is requested (``LANGSMITH_TRACING``) and a key is present."""
    return config.requested and bool(config.api_key)


def _trace_cm() -> Any:
    try:
        from langsmith import trace
    except Exception:  # package missing or broken
        return None
    return trace


class Span:
    """A handle for one traced call; :meth:`end` never raises."""

    def __init__(self, run: Any = None) -> None:
        self._run = run

    def end(self, record: CallRecord | None, output: Any = None) -> None:
        if self._run is None:
            return
        try:
            outputs: dict[str, Any] = {"output": output}
            if record is not None:
                outputs["usage_metadata"] = {
                    "input_tokens": record.input_tokens or 0,
                    "output_tokens": record.output_tokens or 0,
                    "total_tokens": (record.input_tokens or 0) + (record.output_tokens or 0),
                }
                self._run.add_metadata(
                    {
                        "ls_provider": record.provider,
                        "ls_model_name": record.model,
                        "cost_usd": record.cost_usd,
                        "latency_ms": record.latency_ms,
                        "attempts": record.attempts,
                    }
                )
            self._run.end(outputs=outputs, error=None if record is None or record.ok else record.error)
        except Exception as exc:  # pragma: no cover - defensive
            log.debug("langsmith span end failed: %s", exc)


@contextmanager
def span(
    name: str,
    *,
    run_type: str = "llm",
    inputs: Mapping[str, Any] | None = None,
    tags: Sequence[str] = (),
    metadata: Mapping[str, Any] | None = None,
    config: TracingConfig = OFF,
) -> Iterator[Span]:
    """A LangSmith run around one call when ``config`` enables tracing, else a no-op :class:`Span`."""
    if not enabled(config):
        yield Span()
        return
    trace = _trace_cm()
    if trace is None:
        yield Span()
        return
    try:
        cm = trace(
            name,
            run_type=run_type,
            inputs=dict(inputs or {}),
            tags=["matjip", *tags],
            metadata=dict(metadata or {}),
            project_name=config.project,
        )
        run = cm.__enter__()
    except Exception as exc:
        log.debug("langsmith trace start failed: %s", exc)
        yield Span()
        return
    try:
        yield Span(run)
    finally:
        try:
            cm.__exit__(None, None, None)
        except Exception as exc:  # pragma: no cover - defensive
            log.debug("langsmith trace exit failed: %s", exc)


def record_call(
    record: CallRecord,
    messages: Sequence[Mapping[str, Any]] | None = None,
    output: Any = None,
    *,
    config: TracingConfig,
) -> None:
    """Send one finished provider call to LangSmith as an ``llm`` run (no-op when ``config`` is off).

    Calls are recorded after they finish (streams included), so no tracing context ever spans a
    generator that the caller may consume from another thread or context.
    """
    if not enabled(config):
        return
    with span(
        f"llm:{record.stage}",
        run_type="llm" if record.provider != "tavily" else "tool",
        inputs={"messages": list(messages or [])},
        tags=[record.stage, record.provider],
        metadata={"stage": record.stage},
        config=config,
    ) as s:
        s.end(record, output)


def describe(config: TracingConfig) -> dict[str, Any]:
    """What the server log should say at startup (no secrets)."""
    return {
        "langsmith": enabled(config),
        "package": _trace_cm() is not None,
        "project": config.project,
        "endpoint": config.endpoint,
    }
