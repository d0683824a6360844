"""The backend-neutral search request and response.

A :class:`SearchRequest` says *what* to find: hard filters (a document either passes or it does
not) plus free text that only ranks. Every backend (the embedded index today, Elasticsearch
later) must return only documents that pass every hard filter; the brute-force reference in
:mod:`matjip.index.reference` is the executable definition of each filter.

Mapping to an Elasticsearch query (docs/design.md), so a future ``ElasticsearchBackend`` can
translate a request field by field::

    text          → knn {field: embedding, query_vector: embed(text), k, num_candidates,
                         filter: [all hard filters below]}
                    + bool.should match {bm25_text: text} (analyzer: the Kiwi morpheme analyzer of
                      matjip.index.analyzer, installed as a custom analyzer or fed pre-tokenized);
                    fused with RRF (ES ``rank: {rrf: {rank_constant: 60}}``) or a linear combination
    geo           → bool.filter geo_distance {distance: "<radius_m>m", location: {lat, lon}}
    near_any      → bool.filter bool.should [geo_distance {…} per circle] (a route's samples, issue 14)
    region.terms  → bool.filter bool.should [match_phrase_prefix {address: term},
                                             match_phrase_prefix {roadAddress: term}]
                    (region.polygon_place → geo_shape filter on the place's polygon, OR-ed in)
    cuisine       → bool.filter terms {cuisine: [...]}                       (any of)
    sub_category  → bool.filter bool.should [wildcard {sub_category: "*v*"} ...] (any of)
    menu          → bool.filter one bool.should [wildcard {menu_norm: "*term*"},
                                                 wildcard {review_food_norm: "*term*"}] per term
                    (all terms; a keyword sub-field holding normalised names)
    convenience   → bool.filter one term {convenience: v} per value          (all of)
    title         → bool.filter bool.should [term {title_norm: q}, prefix {title_norm: q + branch},
                                             match {title: {query: q, operator: and}}]
    price         → bool.filter nested {path: menus, query: range {menus.price: {gte, lte}}}
    open_at       → bool.filter script/range on a per-weekday open-minutes field (or a
                    post-filter on the top hits), unknown hours kept when include_unknown
    exclude_ids   → bool.must_not ids {values: [...]}
    k             → size (and knn.k)
    sort=distance → sort [_geo_distance {location: {lat, lon}, order: asc}]
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Literal
from zoneinfo import ZoneInfo

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from matjip.documents import Restaurant
from matjip.settings import DEFAULT_TIMEZONE

# a request model has no settings: OpenAt normalises to the default zone, and the index converts
# to ``settings.timezone`` itself (the same zone unless MATJIP_TIMEZONE says otherwise)
SEOUL = ZoneInfo(DEFAULT_TIMEZONE)
MAX_K = 50
MAX_CIRCLES = 32  # circles of a ``near_any`` filter (the samples of a route)


def _clean_list(values: list[str]) -> list[str]:
    """Strip, drop empties and duplicates, keep order."""
    out: list[str] = []
    for v in values:
        s = " ".join(str(v).split())
        if s and s not in out:
            out.append(s)
    return out


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class GeoFilter(_Model):
    """A circle: documents whose coordinates lie within ``radius_m`` metres (great-circle)."""

    lat: float = Field(ge=-90, le=90)
    lon: float = Field(ge=-180, le=180)
    radius_m: float = Field(ge=100, le=20_000)

    def label(self) -> str:
        r = self.radius_m
        if r < 1000:
            return f"반경 {round(r)}m"
        km = r / 1000
        return f"반경 {km:g}km" if km == round(km, 1) else f"반경 {km:.1f}km"


class RegionFilter(_Model):
    """An administrative region matched on the address text.

    A document passes when any of ``terms`` occurs in its ``address`` or ``roadAddress`` at the
    start of a word (``"강남구"`` matches ``"서울 강남구 역삼동"``; ``"남구"`` does not match
    ``"강남구"``; ``"역삼"`` matches ``"역삼동"``). Comparison ignores case and Unicode width.
    ``terms`` usually come from :func:`matjip.geo.region_terms`; they default to ``[name]``
    unless ``polygon_place`` is given.

    ``polygon_place`` is a gazetteer place key (``Place.key``, e.g. ``"legal_dong:11680101"``):
    a document whose coordinates lie inside that place's outline passes too (OR). That is how a
    dong is searched, since road addresses carry no dong. An unknown key adds nothing.
    """

    name: str = Field(min_length=1)
    terms: list[str] = Field(default_factory=list)
    polygon_place: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _default_terms(cls, data: object) -> object:
        if isinstance(data, dict):
            terms = _clean_list(list(data.get("terms") or []))
            name = data.get("name")
            if not terms and not data.get("polygon_place") and isinstance(name, str):
                terms = _clean_list([name])
            data = {**data, "terms": terms}
        return data


class PriceRange(_Model):
    """Passes when at least one menu item has a known price within [min_won, max_won].

    A ranged price (``price_is_range``) is compared by its lower bound.
    """

    min_won: int | None = Field(default=None, ge=0)
    max_won: int | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _bounds(self) -> PriceRange:
        if self.min_won is None and self.max_won is None:
            raise ValueError("price needs min_won or max_won")
        if self.min_won is not None and self.max_won is not None and self.min_won > self.max_won:
            raise ValueError(f"min_won ({self.min_won}) > max_won ({self.max_won})")
        return self

    @property
    def low(self) -> int:
        return self.min_won if self.min_won is not None else 0

    @property
    def high(self) -> int:
        return self.max_won if self.max_won is not None else 2**62

    def label(self) -> str:
        if self.min_won is None:
            return f"가격≤{self.max_won}"
        if self.max_won is None:
            return f"가격≥{self.min_won}"
        return f"가격{self.min_won}~{self.max_won}"


class OpenAt(_Model):
    """Open at ``when`` — or, with ``until``, at some time from ``when`` to ``until`` (a meal or a
    whole day: "내일 점심", "토요일에 여는") — according to the parsed business hours
    (:meth:`WeeklySchedule.is_open`), checked at ``when`` and every 30 minutes before ``until``.

    ``when`` is converted to :data:`SEOUL` (the default time zone); a naive datetime is taken to
    be Seoul time. Documents whose hours are unknown (no hours, or unparsed) fail unless
    ``include_unknown`` is set (then their hit carries ``open_now=None`` and a lower score):
    unknown hours never count as open by default. Documents known to be closed never pass.
    """

    when: datetime
    until: datetime | None = None
    include_unknown: bool = False

    @field_validator("when", "until")
    @classmethod
    def _seoul(cls, v: datetime | None) -> datetime | None:
        if v is None:
            return None
        if v.tzinfo is None or v.utcoffset() is None:
            return v.replace(tzinfo=SEOUL)
        return v.astimezone(SEOUL)

    @model_validator(mode="after")
    def _window(self) -> OpenAt:
        if self.until is not None and not (self.when <= self.until <= self.when + timedelta(days=1)):
            raise ValueError("until must be after when, within a day")
        return self

    def instants(self) -> list[datetime]:
        """The times the filter checks: ``when``, then every 30 minutes before ``until`` (a window
        "아침" 07:00–10:00 asks for a place open before 10)."""
        out = [self.when]
        if self.until is not None:
            t = self.when + timedelta(minutes=30)
            while t < self.until:
                out.append(t)
                t += timedelta(minutes=30)
        return out


class SearchRequest(_Model):
    """What to search for. All filters are hard (AND-ed); ``text`` only ranks.

    - ``text``: free words for semantic + keyword ranking (atmosphere, occasion, anything the
      filters do not capture). Empty means "rank by prior" (or by distance).
    - ``cuisine``: exact ``Restaurant.cuisine`` values, any of.
    - ``sub_category``: substrings of ``Restaurant.sub_category``, any of.
    - ``menu``: every term must occur (normalised substring: case, width and spaces ignored) in
      some menu name or ``review_food`` entry; ``"라멘"`` matches ``"돈코츠라멘"``.
    - ``convenience``: the document must have all of these ``convenience`` values (exact).
    - ``title``: the restaurant name; ``"진대감"`` finds ``"진대감"``, ``"진대감 마포점"`` and
      ``"진대감마포점"`` but not ``"진대감갈비"`` (see :func:`matjip.index.reference.title_matches`).
    - ``kind``: restaurant kinds (``Restaurant.kinds``, see :mod:`matjip.kinds`), any of.
    - ``exclude_kind`` / ``exclude_cuisine``: kinds and cuisines a document must not have.
    - ``exclude_menu``: terms no menu name or ``review_food`` entry may contain (as ``menu``).
    - ``exclude_title``: name substrings (brands, chains) a document's name must not contain.
    - ``exclude_ids``: place ids never returned (e.g. already shown).
    - ``near_any``: the document lies within at least one of these circles (the samples of a route,
      seed 003); it sets no ``distance_m`` (the agent measures along the route itself).
    - ``sort``: ``"relevance"`` or ``"distance"`` (requires ``geo``).
    """

    text: str = Field(default="", max_length=2000)
    geo: GeoFilter | None = None
    near_any: list[GeoFilter] = Field(default_factory=list, max_length=MAX_CIRCLES)
    region: RegionFilter | None = None
    cuisine: list[str] = Field(default_factory=list)
    sub_category: list[str] = Field(default_factory=list)
    menu: list[str] = Field(default_factory=list)
    convenience: list[str] = Field(default_factory=list)
    title: str | None = None
    price: PriceRange | None = None
    open_at: OpenAt | None = None
    k: int = Field(default=3, ge=1, le=MAX_K)
    sort: Literal["relevance", "distance"] = "relevance"
    kind: list[str] = Field(default_factory=list)
    exclude_kind: list[str] = Field(default_factory=list)
    exclude_cuisine: list[str] = Field(default_factory=list)
    exclude_menu: list[str] = Field(default_factory=list)
    exclude_title: list[str] = Field(default_factory=list)
    exclude_ids: list[str] = Field(default_factory=list)

    @field_validator("text")
    @classmethod
    def _text(cls, v: str) -> str:
        return " ".join(v.split())

    @field_validator(
        "cuisine",
        "sub_category",
        "menu",
        "convenience",
        "kind",
        "exclude_kind",
        "exclude_cuisine",
        "exclude_menu",
        "exclude_title",
        "exclude_ids",
    )
    @classmethod
    def _lists(cls, v: list[str]) -> list[str]:
        return _clean_list(v)

    @field_validator("title")
    @classmethod
    def _title(cls, v: str | None) -> str | None:
        if v is None:
            return None
        s = " ".join(v.split())
        return s or None

    @model_validator(mode="after")
    def _sort_needs_geo(self) -> SearchRequest:
        if self.sort == "distance" and self.geo is None:
            raise ValueError("sort='distance' needs a geo filter (a point to measure from)")
        return self

    @property
    def has_hard_filters(self) -> bool:
        """True when any filter that restricts the result set is present (exclude_ids aside)."""
        return bool(
            self.geo
            or self.near_any
            or self.region
            or self.cuisine
            or self.sub_category
            or self.menu
            or self.kind
            or self.exclude_kind
            or self.exclude_cuisine
            or self.exclude_menu
            or self.exclude_title
            or self.convenience
            or self.title
            or self.price
            or self.open_at
        )


class SearchHit(BaseModel):
    """One result.

    ``score`` is in [0, 1] and comparable across queries, so the agent's sufficiency tiers
    (``sufficiency_top1`` 0.65, ``sufficiency_high`` 0.75) can be applied to it:

    - ``relevance`` r (only when the request has text) = weighted mean (settings
      ``weight_bm25``/``weight_vector``) of *coverage* (the share of the query's analysed terms
      found among the document's BM25 terms) and *semantic* = clip(cosine / 0.6, 0, 1);
    - with hard filters (every hit satisfies all of them): ``0.5 + 0.5·r`` with text, and
      ``0.75 + 0.25·prior`` without text (the request is fully answered; the prior, from rating,
      review count and visitor-tag counts, orders the hits);
    - without hard filters: ``r`` with text, ``0.5·prior`` without (a bare browse is no answer);
    - minus 0.05 when ``open_at`` was asked and the hours are unknown (``open_now`` is None).

    With ``sort="relevance"`` scores never increase down the list (each hit's score is capped by
    the one above it), so ``hits[0].score`` is the best. ``bm25`` is the raw BM25 score (None when
    the document is not among the best BM25 matches inside the candidates, or did not match),
    ``vector`` the raw cosine (None without text). ``distance_m`` is set when the request has a
    ``geo`` filter. ``open_now`` is whether the place is open at ``open_at.when`` when asked, else
    at the time of the search; None when its hours are unknown (not given, or not parsed).
    """

    document: Restaurant
    score: float = Field(ge=0.0, le=1.0)
    bm25: float | None = None
    vector: float | None = None
    distance_m: float | None = None
    matched: list[str] = Field(default_factory=list)
    open_now: bool | None = None


class SearchResponse(BaseModel):
    hits: list[SearchHit]
    total_candidates: int  # documents passing every hard filter (before k)
    took_ms: float
    backend: str
    embedder: str
