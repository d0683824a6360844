"""The exception hierarchy, in one place.

Everything matjip raises on purpose derives from :class:`MatjipError`, so callers
(the CLI, the HTTP API) can turn it into a readable message without a traceback.
"""

from __future__ import annotations


class MatjipError(Exception):
    """Base class of every error matjip raises on purpose."""


class ConfigurationError(MatjipError):
    """A setting is missing or invalid."""


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


class IndexError_(MatjipError):
    """The search index is missing or unusable."""


class IndexNotBuiltError(IndexError_):
    """No index exists in the data directory yet."""


class EmbedderMismatchError(IndexError_):
    """The index was built with a different embedder than the one configured."""


class PlaceNotFoundError(MatjipError):
    """A place name did not resolve in the gazetteer."""


class ProviderError(MatjipError):
    """A remote provider (LLM, web search) failed."""


class ProviderTimeout(ProviderError):
    """A remote provider did not answer in time."""


class BudgetExceeded(ProviderError):
    """The per-turn LLM budget is spent."""


class ValidationFailure(MatjipError):
    """An LLM output failed validation against its schema."""
