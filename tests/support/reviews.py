"""Reading a place's reviews with the offline enricher, as the review-fact tests of each round do."""

from __future__ import annotations

from typing import Any

from matjip.ingest.crawl import CrawlDocument
from matjip.ingest.enrich import Enrichment, OfflineEnricher

ENRICHER = OfflineEnricher()


def read(*texts: str) -> Enrichment:
    """The reviews of one place as one document."""
    raw: dict[str, Any] = {"place_id": "p1", "title": "테스트식당", "category": "", "reviews": list(texts)}
    [e] = ENRICHER.enrich_many([CrawlDocument.model_validate(raw)])
    return e
