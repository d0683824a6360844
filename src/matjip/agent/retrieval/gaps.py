"""What a search could not see, said in the answer: breaks the crawl rarely records, places of
unknown hours, places without coordinates, a place the index does not cover at all."""

from __future__ import annotations

from datetime import datetime

from matjip.agent.configuration import Resources
from matjip.agent.models import SearchPlan
from matjip.agent.plan import to_requests
from matjip.agent.retrieval.fetch import Found
from matjip.agent.retrieval.filters import NO_BREAK, all_kinds_if_qualified, break_on
from matjip.index.request import MAX_K, SearchRequest
from matjip.wording import say, text


def no_break(f: Found, now: datetime) -> None:
    """ "브레이크타임 없는": the crawl rarely writes a break down, so only a break it states rules a
    place out, one it states there is none for comes first, and the answer says so (``now``: the
    turn's time, the day when no time was asked)."""
    if not f.plan.no_break:
        return
    day = (f.plan.open_at or now).weekday()
    before = len(f.hits)
    f.hits = [h for h in f.hits if not break_on(h.document, day)]
    f.hits.sort(key=lambda h: 0 if NO_BREAK.search(h.document.hours.raw if h.document.hours else "") else 1)
    removed = before - len(f.hits)
    f.notes.append(
        say("search.no_break.unknown_removed", removed=removed)
        if removed
        else text("search.no_break.unknown")
    )


def covers(p: SearchPlan, res: Resources) -> bool:
    """Does the index hold any restaurant at the plan's place (whatever the other filters)?"""
    base = to_requests(p.model_copy(update={"location": p.location}))[0]
    bare = SearchRequest(geo=base.geo, region=base.region, k=1)
    return (bare.geo is None and bare.region is None) or res.index.search(bare).total_candidates > 0


def unknown_hours(f: Found, res: Resources) -> int:
    """How many places would have passed the opening-time filter had their hours been known."""
    req = f.req
    assert req.open_at is not None
    unknown = (
        res.index.search(
            req.model_copy(
                update={"open_at": req.open_at.model_copy(update={"include_unknown": True}), "k": 1}
            )
        ).total_candidates
        - f.resp.total_candidates
    )
    return max(0, unknown)


def no_coordinates(f: Found, res: Resources) -> int:
    """Places matching everything but the distance that have no coordinates (an address-only
    crawl): a nearness search cannot find them."""
    rest = res.index.search(f.req.model_copy(update={"geo": None, "k": MAX_K, "sort": "relevance"}))
    return sum(1 for h in rest.hits if h.document.lat is None and all_kinds_if_qualified(h, f.plan))
