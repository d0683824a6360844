"""Helpers shared by nodes: event emission, hit conversion, document lookup."""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from datetime import datetime
from typing import Any

from matjip.agent.configuration import Resources
from matjip.agent.models import Card, SearchPlan, Shown, TurnEvent
from matjip.agent.state import AgentState, HitRecord
from matjip.index.request import SearchHit
from matjip.vocab import vocab

stream_writer: ContextVar[Callable[[Any], None] | None] = ContextVar("matjip_stream_writer", default=None)
"""Where :func:`emit` sends events while :class:`matjip.agent.graph.SequentialGraph` runs a turn;
unset, events go to LangGraph's stream writer."""


def emit(event: str, data: Any) -> None:
    """Stream an event to whoever runs the graph (no-op when a node is called directly)."""
    writer = stream_writer.get()
    if writer is None:
        import sys

        if "langgraph.config" not in sys.modules:  # no LangGraph run in this process
            return
        from langgraph.config import get_stream_writer

        try:
            writer = get_stream_writer()
        except RuntimeError:  # called outside a graph run
            return
    writer(TurnEvent(event=event, data=data).model_dump(mode="json"))


def hit_record(hit: SearchHit, origin: str | None) -> HitRecord:
    return {
        "id": hit.document.place_id,
        "score": round(float(hit.score), 4),
        "distance_m": None if hit.distance_m is None else round(float(hit.distance_m), 1),
        "matched": list(hit.matched),
        "open_now": hit.open_now,
        "bm25": hit.bm25,
        "vector": hit.vector,
        "origin": origin,
    }


def shown_for(records: list[HitRecord], res: Resources) -> list[Shown]:
    out: list[Shown] = []
    for r in records:
        doc = res.index.get(r["id"])
        if doc is None:
            continue
        out.append(
            Shown(
                doc=doc,
                distance_m=r.get("distance_m"),
                matched=tuple(r.get("matched") or ()),
                open_now=r.get("open_now"),
                score=float(r.get("score") or 0.0),
            )
        )
    return out


def card_for(s: Shown, now: datetime, plan: SearchPlan | None = None) -> Card:
    """The card of a shown document; ``plan``'s location (when it has coordinates) is where the
    directions link starts."""
    from matjip.agent.answer import asked_day_hours, hours_today
    from matjip.agent.cardinfo import map_links, open_status, price_band, standing, walk_minutes

    d = s.doc
    dishes = [m for m in d.menus if not vocab().is_menu_badge(m.name)]
    priced = [m for m in dishes if m.price is not None]
    menus = [{"name": m.name, "price": m.price} for m in (priced or dishes)[:3]]
    loc = plan.location if plan is not None else None
    origin = (
        (loc.name, loc.lat, loc.lon)
        if loc is not None and loc.lat is not None and loc.lon is not None
        else None
    )
    links = map_links(d, origin)
    return Card(
        id=d.place_id,
        name=d.title,
        cuisine=d.cuisine,
        category=d.category,
        address=d.display_address,
        distance_m=s.distance_m,
        lat=d.lat,
        lon=d.lon,
        matched=list(dict.fromkeys(s.matched)),
        menus=menus,
        hours_today=hours_today(d, now),
        hours_asked=asked_day_hours(d, plan, now),
        score=s.score,
        telephone=d.telephone,
        url=links[0].url if links else None,
        map_links=links,
        open_status=open_status(d.hours, now),
        rating=d.rating if d.rating else None,
        review_count=d.review_count if d.review_count else None,
        standing=standing(d),
        price_band=price_band(d),
        walk_minutes=walk_minutes(s.distance_m) if origin is not None else None,
    )


def state_plan(state: AgentState) -> SearchPlan:
    """This turn's validated plan (the plan node runs before every node that calls this)."""
    plan = state.get("plan")
    if plan is None:
        raise LookupError("the state has no plan: the plan node has not run this turn")
    return plan


def turn_now(state: AgentState, res: Resources) -> datetime:
    raw = state.get("now")
    if raw:
        return datetime.fromisoformat(raw)
    return res.now()
