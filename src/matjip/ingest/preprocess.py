"""Crawl document → restaurant document (docs/design.md), one record at a time.

The parsing steps live in their own small modules (category, price, coords, hours, clean);
this module only composes them with the enricher and the summary.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from matjip.documents import Evidence, MenuItem, Restaurant
from matjip.ingest.category import classify_category
from matjip.ingest.clean import clean_title, normalize_space
from matjip.ingest.coords import geocode_address, parse_coordinates
from matjip.ingest.crawl import CrawlDocument
from matjip.ingest.enrich import Enricher, Enrichment
from matjip.ingest.hours import parse_business_hours
from matjip.ingest.price import parse_price
from matjip.ingest.summary import build_summary
from matjip.kinds import kinds
from matjip.vocab import vocab

# Bump when preprocessing changes in a way that must re-process stored documents.
PIPELINE_VERSION = "4"  # 2: restaurant kinds; 3: menu badges ("추천") dropped; 4: clause-aware review reading, hours kinds (issue 12)


def preprocess(doc: CrawlDocument) -> Restaurant:
    """Everything of (no enrichment, no summary)."""
    flags: list[str] = []
    cat = classify_category(doc.category, doc.title)
    coords = parse_coordinates(doc.mapx, doc.mapy)
    if coords is None and doc.address.strip():
        coords = geocode_address(normalize_space(doc.address))
        if coords is not None:
            flags.append("approximate_coordinates")  # the centroid of its dong (issue 12)
    if coords is None:
        flags.append("no_coordinates")
    lat, lon = coords if coords else (None, None)
    menus: list[MenuItem] = []
    for m in doc.menus:
        name = normalize_space(m.name)
        if not name or vocab().is_menu_badge(name):  # "추천": a crawl badge, not a dish
            continue
        parsed = parse_price(m.price)
        menus.append(
            MenuItem(
                name=name, price=parsed.value, price_text=m.price.strip(), price_is_range=parsed.is_range
            )
        )
    if not menus:
        flags.append("no_menu")
    hours = parse_business_hours(doc.businessHours)
    if doc.businessHours and (hours is None or not hours.parsed):
        flags.append("hours_unparsed")
    if hours is not None and hours.implausible:
        flags.append("hours_implausible")
    address = normalize_space(doc.address)
    road = normalize_space(doc.roadAddress)
    if not address and not road:
        flags.append("no_address")
    return Restaurant(
        place_id=doc.place_id,
        title=clean_title(doc.title),
        category=normalize_space(doc.category),
        cuisine=cat.cuisine,
        sub_category=cat.sub_category,
        address=address,
        roadAddress=road,
        lat=lat,
        lon=lon,
        telephone=(doc.telephone or "").strip() or None,
        menus=menus,
        reviews=list(doc.reviews),  # verbatim: evidence offsets point into these texts
        description=doc.description,  # verbatim, as above
        rating=doc.rating,
        review_count=doc.reviewCount,
        review_keywords={k: int(v) for k, v in doc.reviewKeywords.items()},
        hours=hours,
        flags=flags,
        source=doc.source,
        search_keyword=doc.search_keyword,
        extra=doc.extra_fields,
    )


def kind_evidence(r: Restaurant) -> list[Evidence]:
    """The restaurant's kinds (matjip.kinds) as evidence: category path, name or menu share."""
    return [
        Evidence(field="kind", value=k.kind, source=k.source, span=k.span)
        for k in kinds().classify(r.category, r.title, [m.name for m in r.menus])
    ]


def with_kinds(r: Restaurant) -> Restaurant:
    """``r`` with its kinds and their evidence (what :func:`finish` adds at ingest)."""
    kind_ev = kind_evidence(r)
    others = [ev for ev in r.evidence if ev.field != "kind"]
    return r.model_copy(update={"kinds": [ev.value for ev in kind_ev], "evidence": [*kind_ev, *others]})


def finish(r: Restaurant, e: Enrichment) -> Restaurant:
    """Attach the kinds, enrichment and the summary."""
    kind_ev = kind_evidence(r)
    r = r.model_copy(
        update={
            "kinds": [ev.value for ev in kind_ev],
            "review_food": e.review_food,
            "convenience": e.convenience,
            "atmosphere": e.atmosphere,
            "occasion": e.occasion,
            "features": e.features,
            "evidence": [*kind_ev, *e.evidence],
            "evidence_against": e.against,
        }
    )
    r.summary = build_summary(r)
    return r


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """Python's cycle collector paused for one batch. Reading reviews allocates about a million
    short-lived objects per batch (morphemes, spans, votes), none of them in a cycle, so the
    collector frees nothing; it would still run hundreds of times and walk every live object, about
    15 % of the ingest time (``bench/ingest.py``). Reference counting frees them as before. The
    objects the batch keeps (its documents, new cache entries) are then collected once, young
    generation only, so the batch pays for them rather than the code after it."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
            gc.collect(0)


def to_restaurants(docs: Sequence[CrawlDocument], enricher: Enricher) -> list[Restaurant]:
    """Preprocess, enrich (batched) and summarise a batch of crawl documents."""
    with _no_cycle_collection():
        base = [preprocess(d) for d in docs]
        enrichments = enricher.enrich_many(docs)
        return [finish(r, e) for r, e in zip(base, enrichments, strict=True)]


def to_restaurant(doc: CrawlDocument, enricher: Enricher) -> Restaurant:
    return to_restaurants([doc], enricher)[0]
