"""Enrichment (docs/design.md): review_food, convenience, atmosphere, occasion, features + evidence.

``get_enricher("offline")`` is the default; an LLM-based enricher will implement the same
:class:`Enricher` protocol later.
"""

from matjip.ingest.enrich.base import Enricher, Enrichment
from matjip.ingest.enrich.offline import OfflineEnricher
from matjip.ingest.enrich.registry import ENRICHERS, get_enricher

__all__ = ["ENRICHERS", "Enricher", "Enrichment", "OfflineEnricher", "get_enricher"]
