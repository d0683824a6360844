"""The enrichment seam (docs/design.md): what an enricher returns and the protocol it follows.

Today there is one implementation, :class:`~matjip.ingest.enrich.offline.OfflineEnricher`
(Kiwi morphemes + curated lexicons + rules). An LLM-based extractor will implement the same
:class:`Enricher` protocol in a later issue (it arrives with the LLM providers); the ingest
pipeline only ever talks to the protocol, so swapping one for the other is a setting
(:func:`~matjip.ingest.enrich.registry.get_enricher` builds one by name).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from pydantic import BaseModel, Field, field_validator

from matjip.documents import ENRICH_FIELDS, EnrichField, Evidence
from matjip.ingest.crawl import CrawlDocument


def dedupe(values: Sequence[str]) -> list[str]:
    """Strip, drop empties and duplicates, keep first-seen order."""
    out: dict[str, None] = {}
    for v in values:
        s = v.strip()
        if s:
            out.setdefault(s, None)
    return list(out)


class Enrichment(BaseModel):
    """Extra facets of one restaurant, each value backed by at least one :class:`Evidence`."""

    review_food: list[str] = Field(default_factory=list)
    convenience: list[str] = Field(default_factory=list)
    atmosphere: list[str] = Field(default_factory=list)
    occasion: list[str] = Field(default_factory=list)
    features: list[str] = Field(default_factory=list)
    evidence: list[Evidence] = Field(default_factory=list)
    # reviews that speak AGAINST a value ("주차가 어려워요"), kept or not; ``support`` counts them
    against: list[Evidence] = Field(default_factory=list)

    @field_validator(*ENRICH_FIELDS)
    @classmethod
    def _dedupe(cls, v: list[str]) -> list[str]:
        return dedupe(v)

    def values(self, field: EnrichField) -> list[str]:
        result: list[str] = getattr(self, field)
        return result

    def evidence_for(self, field: EnrichField, value: str) -> list[Evidence]:
        return [e for e in self.evidence if e.field == field and e.value == value]

    def is_empty(self) -> bool:
        return not any(self.values(f) for f in ENRICH_FIELDS)


@runtime_checkable
class Enricher(Protocol):
    """Turns crawl documents into :class:`Enrichment`.

    Implementations: ``offline`` (:class:`~matjip.ingest.enrich.offline.OfflineEnricher`).
    An LLM-based extractor will implement this same protocol later (with the providers);
    it must keep the contract: deduplicated values and evidence for every value.
    ``name`` goes into the ingest content hash, so changing enrichers re-processes records.
    """

    name: str

    def enrich(self, doc: CrawlDocument) -> Enrichment:
        """Enrich one document."""
        ...

    def enrich_many(self, docs: Sequence[CrawlDocument]) -> list[Enrichment]:
        """Enrich a batch (one result per input, same order); implementations batch their work."""
        ...
