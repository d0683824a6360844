"""Size caps applied to every crawl record before it is processed (settings
``ingest_max_field_chars`` and ``ingest_max_record_chars``).

One huge field must not stall a crawl: each text field is cut to ``max_field_chars``, and the free
text of a record (description, then reviews in order) to ``max_record_chars`` in
total — reviews past the budget are dropped. A record that was cut carries the ``truncated`` flag
(:attr:`matjip.documents.Restaurant.flags`); :func:`cap_document` says which fields were cut.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from matjip.ingest.crawl import CrawlDocument
from matjip.settings import Settings

TRUNCATED_FLAG = "truncated"
_SCALARS = ("title", "category", "address", "roadAddress", "telephone", "businessHours", "search_keyword")


@dataclass(frozen=True)
class IngestLimits:
    max_field_chars: int = 20_000
    max_record_chars: int = 200_000

    @classmethod
    def from_settings(cls, settings: Settings) -> IngestLimits:
        return cls(settings.ingest_max_field_chars, settings.ingest_max_record_chars)


def cap_document(doc: CrawlDocument, limits: IngestLimits) -> tuple[CrawlDocument, list[str]]:
    """``doc`` within the limits, and the names of the fields that were cut (empty: unchanged)."""
    field_max = limits.max_field_chars
    budget = limits.max_record_chars
    cut: list[str] = []
    update: dict[str, Any] = {}
    for name in _SCALARS:
        value = getattr(doc, name)
        if isinstance(value, str) and len(value) > field_max:
            update[name] = value[:field_max]
            cut.append(name)

    def take(text: str, where: str) -> str:
        nonlocal budget
        allowed = max(0, min(field_max, budget))
        if len(text) > allowed:
            cut.append(where)
            text = text[:allowed]
        budget -= len(text)
        return text

    if doc.description:
        description = take(doc.description, "description")
        if description != doc.description:
            update["description"] = description
    if sum(len(r) for r in doc.reviews) > budget or any(len(r) > field_max for r in doc.reviews):
        reviews = []
        for i, review in enumerate(doc.reviews):
            kept = take(review, f"reviews[{i}]")
            if kept.strip():
                reviews.append(kept)
        update["reviews"] = reviews
    else:
        budget -= sum(len(r) for r in doc.reviews)
    if any(len(m.name) > field_max or len(m.price) > field_max for m in doc.menus):
        menus = []
        for i, menu in enumerate(doc.menus):
            if len(menu.name) > field_max or len(menu.price) > field_max:
                cut.append(f"menus[{i}]")
                menu = menu.model_copy(
                    update={"name": menu.name[:field_max], "price": menu.price[:field_max]}
                )
            menus.append(menu)
        update["menus"] = menus
    if not cut:
        return doc, []
    return doc.model_copy(update=update), cut
