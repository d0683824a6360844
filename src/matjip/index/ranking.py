"""How much a local would trust a place: the one ranking policy (docs/design.md, "Ranking").

"맛집" means good places first. Among the places that match a request, a local picks the one many
people have reviewed, rated well by many, tagged for its taste, with its hours and menu known — not
a place with two reviews and no hours. :func:`trust` turns that evidence into one number in [0, 1];
both index backends store it as the document's prior (the order of a request without text, and the
fill-up of a ranked list) and every search node ranks with it through :func:`local_key` (within
the distance the question allows, a little nearer is a little better). :func:`leading_evidence`
is the evidence that puts a place first, which a card says ("리뷰 218건").
"""

from __future__ import annotations

import math

from matjip.documents import Restaurant

# weights of the evidence (they sum to 1)
W_VOLUME = 0.55  # how many people reviewed it
W_RATING = 0.20  # its rating, shrunk toward the prior by how few rated it
W_TASTE = 0.15  # visitors' '맛' tag
W_COMPLETE = 0.10  # parsed hours and a priced menu: a place someone keeps up to date

VOLUME_SATURATES = 300  # reviews: log-scaled, full marks from here (the crawl's 99th percentile is ~80)
TASTE_SATURATES = 100  # '맛' tag votes
TASTE_TAG = "맛"
RATING_PRIOR = 3.8  # a rating is pulled toward this by RATING_PRIOR_WEIGHT phantom reviews
RATING_PRIOR_WEIGHT = 5
NO_RATING = 0.4  # the rating part of a place without a rating
DISTANCE_WEIGHT = 0.25  # at the edge of the radius a place keeps 75 % of its trust
INNER_SHARE = 0.7  # beyond this share of the radius (the outer ring) ...
RING_FACTOR = 0.6  # ... a place keeps this share of its trust: near a station means near


def _log_share(n: float, full: float) -> float:
    return min(1.0, math.log1p(max(0.0, n)) / math.log1p(full))


def rating_quality(doc: Restaurant) -> float:
    """The rating on [0, 1] (3.0 → 0, 5.0 → 1), shrunk toward :data:`RATING_PRIOR` when few rated."""
    if doc.rating is None:
        return NO_RATING
    n = max(0, doc.review_count or 0)
    shrunk = (doc.rating * n + RATING_PRIOR * RATING_PRIOR_WEIGHT) / (n + RATING_PRIOR_WEIGHT)
    return min(1.0, max(0.0, (shrunk - 3.0) / 2.0))


def completeness(doc: Restaurant) -> float:
    """½ for parsed weekly hours, ½ for a priced menu."""
    hours = 0.5 if doc.hours is not None and doc.hours.parsed and doc.hours.days else 0.0
    menu = 0.5 if any(m.price is not None for m in doc.menus) else 0.0
    return hours + menu


def trust(doc: Restaurant) -> float:
    """The evidence a local trusts, in [0, 1]: review volume, rating with its count, the '맛' tag,
    complete information (weights above)."""
    return (
        W_VOLUME * _log_share(doc.review_count or 0, VOLUME_SATURATES)
        + W_RATING * rating_quality(doc)
        + W_TASTE * _log_share(doc.review_keywords.get(TASTE_TAG, 0), TASTE_SATURATES)
        + W_COMPLETE * completeness(doc)
    )


def local_key(doc: Restaurant, distance_m: float | None = None, radius_m: float | None = None) -> float:
    """The sort key of a place among matching ones (lower first): its trust, discounted by up to
    :data:`DISTANCE_WEIGHT` at the edge of the radius the question allows and by
    :data:`RING_FACTOR` in the outer ring (only a much better-known place beats a nearer one)."""
    score = trust(doc)
    if distance_m is not None and radius_m:
        share = min(1.0, max(0.0, distance_m / radius_m))
        score *= 1.0 - DISTANCE_WEIGHT * share
        if share > INNER_SHARE:
            score *= RING_FACTOR
    return -round(score, 6)


def leading_evidence(doc: Restaurant) -> tuple[str, int] | None:
    """What a card says about why a place is up front: ("reviews", n) or ("taste", n) — the review
    count, else the '맛' tag count — or None when it has neither."""
    if doc.review_count:
        return "reviews", int(doc.review_count)
    taste = int(doc.review_keywords.get(TASTE_TAG, 0))
    return ("taste", taste) if taste else None
