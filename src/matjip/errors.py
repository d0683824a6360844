"""The exception hierarchy, in one place: every exception class of matjip is defined here.

Everything matjip raises on purpose for a caller to report derives from :class:`MatjipError`, so
callers (the CLI, the HTTP API) can turn it into a readable message without a traceback. A few
exceptions are signals between two parts of one layer rather than errors to report; they derive
from :class:`Exception` directly and never leave the layer that catches them::

    Exception
    ├── MatjipError                   base of every error matjip raises on purpose
    │   ├── ConfigurationError        a setting is missing or invalid
    │   │   └── CollectKeyError       a collector's API key is missing or refused (401/403)
    │   ├── IngestError               input could not be read at all
    │   │   └── RecordError           one input record is malformed (source, line, reason)
    │   ├── StoreError                the document store is missing, locked or incompatible
    │   │   ├── DatabaseUnavailable   the PostgreSQL server is unreachable (restart, failover)
    │   │   └── ConversationMoved     a turn's state was not saved: the conversation moved on
    │   ├── SearchIndexError          the search index is missing or unusable
    │   │   ├── IndexNotBuiltError    no index in the data directory yet
    │   │   ├── IndexDamagedError     the index fails its self-check (manifest, sizes, checksums)
    │   │   └── EmbedderMismatchError the index was built with another embedder
    │   ├── PlaceNotFoundError        a place name did not resolve in the gazetteer
    │   ├── QuotaReached              a collector used its daily quota (calls); resume tomorrow
    │   ├── ProviderError             a remote provider (LLM, web search) failed (record)
    │   │   ├── ProviderTimeout       … did not answer in time
    │   │   ├── BudgetExceeded        the per-turn LLM budget is spent
    │   │   ├── ProviderBusy          every provider slot is taken (no waiting: answer offline)
    │   │   ├── CircuitOpen           the provider failed repeatedly; calls are skipped for a while
    │   │   ├── TurnCancelled         the turn was cancelled (client gone, timed out): no new call
    │   │   └── HTTPStatusFailure     … answered with an error status (status)
    │   ├── ValidationFailure         an LLM reply failed its schema (raw, record)
    │   └── ServerError               a running `matjip serve` answered `matjip ask` with an error
    ├── Ungrounded                    agent: a streamed answer piece failed the grounding check
    ├── TurnTimeout                   api: a turn did not finish within its deadline
    ├── TurnFailed                    api: the agent raised during a turn (cause)
    └── ProblemError                  api: answer a request with RFC 9457 problem details

Context travels in constructor fields, never in attributes set from outside the class:
:class:`ProviderError` and :class:`ValidationFailure` take the ``record`` of the failed call (a
:class:`matjip.providers.base.CallRecord`, read it with :func:`matjip.providers.base.record_of`);
a client that learns the record only after the failure sets the field before re-raising.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class MatjipError(Exception):
    """Base class of every error matjip raises on purpose."""


class ServerError(MatjipError):
    """A running ``matjip serve`` that ``matjip ask`` reused answered with an error (its detail)."""


class ConfigurationError(MatjipError):
    """A setting is missing or invalid."""


class CollectKeyError(ConfigurationError):
    """A collector's API key is missing or the API refused it: one line naming the key and source."""


class QuotaReached(MatjipError):
    """A collector's daily call quota is used (ours or the API's 429): the run stops, state is kept."""

    def __init__(self, message: str, calls: int = 0) -> None:
        super().__init__(message)
        self.calls = calls


class IngestError(MatjipError):
    """Input could not be read at all (a bad record is a reject, not an error)."""


class RecordError(IngestError):
    """One input record is malformed; carries where and why."""

    def __init__(self, source: str, line: int, reason: str) -> None:
        super().__init__(f"{source}:{line}: {reason}")
        self.source = source
        self.line = line
        self.reason = reason


class StoreError(MatjipError):
    """The document store is missing, locked or from an incompatible version."""


class DatabaseUnavailable(StoreError):
    """The PostgreSQL server cannot be reached (it restarts, fails over or is down): retry later."""


class ConversationMoved(StoreError):
    """A turn's state was not saved because the conversation moved on meanwhile (another turn of
    the same session was saved first, or this turn was abandoned: timed out, client gone)."""


class SearchIndexError(MatjipError):
    """The search index is missing or unusable."""


class IndexNotBuiltError(SearchIndexError):
    """No index exists in the data directory yet."""


class IndexDamagedError(SearchIndexError):
    """The index is damaged or half-written: it fails its self-check against its manifest, or a
    file cannot be read. ``matjip ingest`` (and every command that opens the index) rebuilds it
    from the document store."""


class EmbedderMismatchError(SearchIndexError):
    """The index was built with a different embedder than the one configured."""


class PlaceNotFoundError(MatjipError):
    """A place name did not resolve in the gazetteer."""


class ProviderError(MatjipError):
    """A remote provider (LLM, web search) failed.

    ``record`` is the :class:`~matjip.providers.base.CallRecord` of the failed call (the tokens
    may have been spent), when the client knows it.
    """

    def __init__(self, message: str = "", *, record: Any = None) -> None:
        super().__init__(message)
        self.record = record


class ProviderTimeout(ProviderError):
    """A remote provider did not answer in time."""


class BudgetExceeded(ProviderError):
    """The per-turn LLM budget is spent."""


class ProviderBusy(ProviderError):
    """Every provider slot (``settings.llm_max_concurrency``) is taken; the stage answers offline."""


class CircuitOpen(ProviderError):
    """The provider failed repeatedly; calls are skipped until the breaker's cooldown ends."""


class TurnCancelled(ProviderError):
    """The turn was cancelled (its client left or it timed out); no further provider call is made."""


class HTTPStatusFailure(ProviderError):
    """The provider answered with an error status."""

    def __init__(self, status: int, detail: str, *, record: Any = None) -> None:
        super().__init__(f"HTTP {status}: {detail}", record=record)
        self.status = status


class ValidationFailure(MatjipError):
    """An LLM output failed validation against its schema.

    ``raw`` is the reply text that failed (``None`` when there was none); ``record`` as for
    :class:`ProviderError`.
    """

    def __init__(self, message: str = "", *, raw: str | None = None, record: Any = None) -> None:
        super().__init__(message)
        self.raw = raw
        self.record = record


class Ungrounded(Exception):
    """A streamed answer piece failed the grounding check; ``issues`` are the
    :class:`~matjip.agent.stages.grounding.GroundingIssue` found (the message names the first five)."""

    def __init__(self, issues: Sequence[object]) -> None:
        super().__init__("; ".join(str(i) for i in issues[:5]))
        self.issues = list(issues)


class TurnTimeout(Exception):
    """The turn did not finish within ``turn_timeout_s``."""


class TurnFailed(Exception):
    """The agent raised; ``cause`` is the original exception (logged, never shown)."""

    def __init__(self, cause: BaseException) -> None:
        super().__init__(type(cause).__name__)
        self.cause = cause


class ProblemError(Exception):
    """Raise from a route to answer with a problem details response (``matjip.api.problems``)."""

    def __init__(
        self,
        status: int,
        detail: str = "",
        *,
        kind: str | None = None,
        title: str | None = None,
        headers: dict[str, str] | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.kind = kind
        self.title = title
        self.headers = headers or {}
        self.extra = extra or {}
