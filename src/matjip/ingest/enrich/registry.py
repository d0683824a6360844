"""Build an enricher from its configured name (``matjip ingest --enrich``, ``MATJIP_ENRICH``).

Names: ``offline`` (:class:`~matjip.ingest.enrich.offline.OfflineEnricher`, the default) and
``llm`` (:class:`~matjip.ingest.enrich.llm.LLMEnricher`, needs a configured LLM provider). The
implementations are imported only when their name is asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from matjip.errors import ConfigurationError
from matjip.ingest.enrich.base import Enricher

if TYPE_CHECKING:
    from matjip.settings import Settings

ENRICHERS: tuple[str, ...] = ("offline", "llm")


def get_enricher(name: str, settings: Settings | None = None) -> Enricher:
    """The enricher called ``name``: ``"offline"``, or ``"llm"`` (needs ``settings`` with a
    configured LLM provider)."""
    key = name.strip().lower()
    if key == "offline":
        from matjip.ingest.enrich.native import offline_module

        # the compiled copy of matjip.ingest.enrich.offline when built from these sources
        enricher: Enricher = offline_module(settings.native if settings else True).OfflineEnricher(settings)
        return enricher
    if key == "llm":
        from matjip.ingest.enrich.llm import LLMEnricher

        if settings is None:
            raise ConfigurationError("the llm enricher needs the settings of one of the LLM providers")
        return LLMEnricher.from_settings(settings)
    raise ConfigurationError(f"unknown enricher {name!r}; available: {', '.join(ENRICHERS)}")
