"""Helpers shared by nodes: event emission, hit conversion, document lookup."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from langgraph.config import get_stream_writer

from matjip.agent.configuration import Resources
from matjip.agent.models import Card, SearchPlan, Shown, TurnEvent
from matjip.agent.state import AgentState, HitRecord
from matjip.index.request import SearchHit


def emit(event: str, data: Any) -> None:
    """Stream an event to whoever runs the graph (no-op when a node is called directly)."""
    try:
        writer = get_stream_writer()
    except RuntimeError:  # called outside a graph run
        return
    writer(TurnEvent(event=event, data=data).model_dump(mode="json"))  # type: ignore[arg-type]


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


def card_for(s: Shown, now: datetime) -> Card:
    from matjip.agent.answer import hours_today

    d = s.doc
    menus = [{"name": m.name, "price": m.price} for m in (d.priced_menus() or d.menus)[:3]]
    return Card(
        id=d.place_id,
        name=d.title,
        cuisine=d.cuisine,
        category=d.category,
        address=d.display_address,
        distance_m=s.distance_m,
        lat=d.lat,
        lon=d.lon,
        matched=list(s.matched),
        menus=menus,
        hours_today=hours_today(d, now),
        score=s.score,
        telephone=d.telephone,
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
