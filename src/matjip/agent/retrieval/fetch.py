"""The first requests of a general search, and the places found so far (:class:`Found`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from matjip.agent.configuration import Resources
from matjip.agent.models import SearchPlan
from matjip.agent.plan import to_requests
from matjip.agent.retrieval.filters import chain_names, kept
from matjip.geo.gazetteer import Place, PlaceType
from matjip.index.request import MAX_K, OpenAt, RegionFilter, SearchHit, SearchRequest, SearchResponse
from matjip.kinds import kinds

RERANK_DEPTH = 24  # places fetched for a search_general re-rank (at least)


@dataclass
class Found:
    """A general search in progress: the plan (its radius may be widened), the request and the
    wider page it fetched, the places kept so far and what the answer will say about them."""

    plan: SearchPlan
    req: SearchRequest  # the plan's request
    wide: SearchRequest  # the same with room to re-rank
    resp: SearchResponse  # what the first request returned
    hits: list[SearchHit]
    detail: dict[str, Any]  # for the trace
    notes: list[str] = field(default_factory=list)  # said in the answer
    plan_update: dict[str, Any] = field(default_factory=dict)  # what the grader must read
    farther: set[str] = field(default_factory=set)  # filled from a wider circle: after the near ones
    # near places only weakly of the kind (a menu line here and there) when the kind's own places were
    # fetched from a wider circle: after those
    stand_ins: set[str] = field(default_factory=set)
    listed: set[str] = field(default_factory=set)  # list the dish beside the kind: first
    # the kind asked by its dish ("쌀국수"): places of another kind known for the dish (topup.dish_anywhere)
    dish_known: set[str] = field(default_factory=set)

    def shown_ids(self) -> list[str]:
        """The request's excluded ids and every place kept so far (a top-up leaves them out)."""
        return [*self.req.exclude_ids, *(h.document.place_id for h in self.hits)]


def fetch(p: SearchPlan, res: Resources, wished_now: datetime | None = None) -> Found:
    """The plan's request with room to re-rank (by index.ranking) and filter, each kind of two
    fetched on its own too, the best-known places open at a time wished now (``wished_now``), and
    the places no filter rules out."""
    chains = chain_names(res) if p.exclude_chains else []
    req = to_requests(p, chains)[0]
    page_all = p.price_max is not None or bool(p.prefer_menu) or bool(p.any_kind) or p.sort == "price"
    more_k = MAX_K if page_all else min(MAX_K, max(RERANK_DEPTH, req.k * 3))
    wide = req.model_copy(update={"k": more_k}) if not p.titles else req
    resp = res.index.search(wide)
    fetched = list(resp.hits)
    if len(req.kind) > 1 and not p.titles:
        fetched += _each_kind(wide, fetched, res)
    family = [] if req.kind else kinds().first_kinds([], p.any_kind)
    if family and not p.titles:  # "밥집": any restaurant near may crowd the family's places out of the page
        fetched += _each_kind(wide.model_copy(update={"kind": family}), fetched, res)
    if wide.text and req.kind and not p.titles:
        fetched += _best_known(wide, fetched, res)
    if wished_now is not None and wide.open_at is None and not p.titles:
        fetched += _open_then(wide, wished_now, fetched, res)
    if p.qualifier and p.kinds and not p.titles:
        fetched += _qualified_lines(wide, p, fetched, res)
    dong = dong_asked(p, res)
    if dong is not None and p.location is not None and p.location.mode == "in" and not p.titles:
        fetched += _inside_dong(wide, dong, fetched, res)
    return Found(
        plan=p,
        req=req,
        wide=wide,
        resp=resp,
        hits=kept(fetched, p, res),
        detail={"took_ms": resp.took_ms, "candidates": resp.total_candidates},
    )


def dong_asked(p: SearchPlan, res: Resources) -> Place | None:
    """The legal dong the plan searches around ("풍납동 맛집": its point, no address terms), when the
    gazetteer has its outline; else None."""
    loc = p.location
    if loc is None or not loc.by_radius or loc.lat is None or loc.lon is None:
        return None
    return next(
        (
            c
            for c in res.gazetteer.lookup(loc.name)
            if c.type == PlaceType.LEGAL_DONG
            and abs(c.lat - loc.lat) < 1e-6
            and abs(c.lon - loc.lon) < 1e-6
            and res.gazetteer.shape(c) is not None
        ),
        None,
    )


def _inside_dong(
    wide: SearchRequest, dong: Place, fetched: list[SearchHit], res: Resources
) -> list[SearchHit]:
    """A dong asked as the area ("풍납동 맛집"): the circle around its point reaches across its border,
    and the page the words choose may hold none of the places inside it, so its best-known places
    inside the outline are re-ranked too (the re-rank puts the ones across the border after them)."""
    seen = {h.document.place_id for h in fetched}
    inside = wide.model_copy(
        update={"region": RegionFilter(name=dong.name, polygon_place=dong.key), "k": RERANK_DEPTH}
    )
    return [h for h in res.index.search(inside).hits if h.document.place_id not in seen]


def _best_known(wide: SearchRequest, fetched: list[SearchHit], res: Resources) -> list[SearchHit]:
    """A kind asked with words beside it ("회식할 고깃집"): the page the words choose may hold only
    barely-known places, so the kind's best-known places (by the prior, index.ranking.trust) are
    re-ranked too; the re-rank, not the words, decides which places a local would pick."""
    seen = {h.document.place_id for h in fetched}
    known = res.index.search(wide.model_copy(update={"text": "", "k": RERANK_DEPTH}))
    return [h for h in known.hits if h.document.place_id not in seen]


def _open_then(
    wide: SearchRequest, when: datetime, fetched: list[SearchHit], res: Resources
) -> list[SearchHit]:
    """A meal wished now ("석촌호수 아침 먹을 데" at 09:30; no filter — the wish is soft): the page the
    words and the prior choose may hold only places not open yet (audit r14 Q9: a dim sum house and a
    soba bar opening at 10:30 while a 185-review 국밥 house open since 08:00 lay 540 m off), so the
    best-known places open then are re-ranked too; the re-rank puts the open ones first."""
    seen = {h.document.place_id for h in fetched}
    page = wide.model_copy(update={"open_at": OpenAt(when=when), "k": RERANK_DEPTH})
    return [h for h in res.index.search(page).hits if h.document.place_id not in seen]


def _qualified_lines(
    wide: SearchRequest, p: SearchPlan, fetched: list[SearchHit], res: Resources
) -> list[SearchHit]:
    """ "한우 오마카세": the houses of any kind whose menu names the kind asked ('한우 오마카세(1인)' at a
    고깃집), for :func:`~.filters.kept` to keep those whose line names the food too."""
    seen = {h.document.place_id for h in fetched}
    head = kinds().by_name[p.kinds[0]].words[:1] if p.kinds[0] in kinds().by_name else []
    if not head:
        return []
    page = wide.model_copy(update={"kind": [], "menu": [*wide.menu, head[0]], "k": RERANK_DEPTH})
    return [h for h in res.index.search(page).hits if h.document.place_id not in seen]


def _each_kind(wide: SearchRequest, fetched: list[SearchHit], res: Resources) -> list[SearchHit]:
    """ "브런치 카페": each kind fetched on its own, so the likelier one cannot crowd the other out of
    the page that is re-ranked; the places not fetched yet."""
    seen = {h.document.place_id for h in fetched}
    out: list[SearchHit] = []
    for kind in wide.kind:
        for h in res.index.search(wide.model_copy(update={"kind": [kind]})).hits:
            if h.document.place_id not in seen:
                seen.add(h.document.place_id)
                out.append(h)
    return out
