"""Plan, duplicate check, per-intent search strategies and relaxation (seed 000 §3.4–3.10, §6; seed 004)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from matjip.agent.configuration import Resources
from matjip.agent.models import SearchPlan
from matjip.agent.nodes.common import emit, hit_record, state_plan, turn_now
from matjip.agent.plan import to_requests, validate_plan
from matjip.agent.state import AgentState, CompareGroup, HitRecord
from matjip.index.request import SearchHit
from matjip.nlu.models import NLUResult, TimeSpec


def _open_at(time_spec: TimeSpec | None, now: datetime) -> tuple[datetime | None, str | None]:
    if time_spec is None:
        return None, None
    label = time_spec.label
    if time_spec.kind == "now":
        return now, label or "지금"
    weekday = time_spec.weekday
    minute = time_spec.minute
    day = now
    if weekday is not None:
        day = now + timedelta(days=(int(weekday) - now.weekday()) % 7)
    if minute is None:
        minute = now.hour * 60 + now.minute
    when = day.replace(hour=int(minute) // 60 % 24, minute=int(minute) % 60, second=0, microsecond=0)
    return when, label


def offline_plan(state: AgentState, res: Resources) -> dict[str, Any]:
    """The raw plan the offline planner writes from NLU + location (validated afterwards)."""
    nlu = state.get("nlu") or NLUResult()
    ents = nlu.entities
    ctx = state.get("location")
    location: dict[str, Any] | None = None
    if ctx is not None:
        location = {
            "name": ctx.name or ctx.display_name or "지정 위치",
            "lat": ctx.lat,
            "lon": ctx.lon,
            "radius_m": ctx.radius_m,
            "mode": ctx.mode,
            "region_terms": ctx.region_terms,
        }
    price_min = nlu.price.min_won if nlu.price is not None else None
    price_max = nlu.price.max_won if nlu.price is not None else None
    open_at, open_label = _open_at(nlu.time, turn_now(state, res))
    intent = nlu.intent
    cuisine, menu, convenience = list(ents.category), list(ents.menu), list(ents.convenience)
    atmosphere, occasion = list(ents.atmosphere), list(ents.occasion)
    searches = state.get("searches") or []
    if state.get("refine") and searches:
        # narrowing: keep the previous search's topic and place, add this turn's constraints
        prev = searches[-1].get("plan") or SearchPlan()
        cuisine = list(dict.fromkeys([*prev.cuisine, *cuisine]))
        menu = list(dict.fromkeys([*prev.menu, *menu]))
        convenience = list(dict.fromkeys([*prev.convenience, *convenience]))
        atmosphere = list(dict.fromkeys([*prev.atmosphere, *atmosphere]))
        occasion = list(dict.fromkeys([*prev.occasion, *occasion]))
        intent = "search"
        if location is None and prev.location is not None:
            location = prev.location.model_dump(mode="json")
        if nlu.price is None and (prev.price_min is not None or prev.price_max is not None):
            price_min, price_max = prev.price_min, prev.price_max
    k = (
        nlu.count
        if nlu.count
        else (
            res.config.information_k if intent == "information" and not ents.title else res.config.default_k
        )
    )
    return {
        "intent": intent,
        "location": location,
        "titles": list(ents.title),
        "cuisine": cuisine,
        "menu": menu,
        "convenience": convenience,
        "atmosphere": atmosphere,
        "occasion": occasion,
        "semantic": "",
        "price_min": price_min,
        "price_max": price_max,
        "open_at": open_at,
        "open_label": open_label,
        "k": k,
        "per_title_k": res.config.compare_k,
        "sort": nlu.order or "relevance",
    }


def plan(state: AgentState, res: Resources) -> dict[str, Any]:
    """Write the plan (offline planner, or the LLM planner when configured) and validate it."""
    raw: Any = None
    notes: list[str] = []
    if res.llm is not None and res.llm.plans:
        raw, notes = res.llm.write_plan(state, offline_plan(state, res))
    if raw is None:
        raw = offline_plan(state, res)
    validated, repairs = validate_plan(
        raw,
        cuisines=res.cuisines or None,
        conveniences=res.conveniences or None,
        fallback_text=state.get("query", ""),
        timezone=res.timezone,
    )
    all_notes = [*notes, *repairs]
    emit("plan", validated.model_dump(mode="json"))
    return {
        "plan": validated,
        "plan_notes": [*(state.get("plan_notes") or []), *all_notes],
        "_decision": f"{validated.intent}/{validated.strategy} k={validated.k}"
        + (f" ({len(all_notes)} repairs)" if all_notes else ""),
        "_detail": {"repairs": all_notes} if all_notes else {},
    }


def check_duplicate(state: AgentState, res: Resources) -> dict[str, Any]:
    """Reuse an earlier search whose validated plan is equivalent (seed 000 §3.4)."""
    current = state_plan(state)
    sig = current.signature()
    for i, rec in enumerate(reversed(state.get("searches") or [])):
        if rec.get("signature") == sig:
            idx = len(state.get("searches") or []) - 1 - i
            return {
                "duplicate_of": idx,
                "hits": rec.get("hits") or [],
                "_decision": f"same as search #{idx + 1}; reusing its results",
            }
    return {"duplicate_of": None, "_decision": "new search"}


def _origin(plan: SearchPlan) -> str | None:
    return plan.location.name if plan.location else None


def _records(hits: list[SearchHit], plan: SearchPlan) -> list[HitRecord]:
    return [hit_record(h, _origin(plan)) for h in hits]


def _rating_key(h: SearchHit) -> float:
    d = h.document
    return (d.rating or 0.0) + 0.001 * (d.review_count or 0)


def search_general(state: AgentState, res: Resources) -> dict[str, Any]:
    """All entities as filters, atmosphere/occasion as semantic text, k results (seed 000 §6)."""
    p = state_plan(state)
    req = to_requests(p)[0]
    resp = res.index.search(req)
    hits = list(resp.hits)
    if p.sort == "rating":
        hits.sort(key=_rating_key, reverse=True)
    return {
        "hits": _records(hits, p),
        "_decision": f"{len(hits)} hits of {resp.total_candidates} candidates",
        "_detail": {"took_ms": resp.took_ms, "candidates": resp.total_candidates},
    }


def search_compare(state: AgentState, res: Resources) -> dict[str, Any]:
    """One query per title, ``per_title_k`` each, deduplicated (seed 000 §6)."""
    p = state_plan(state)
    seen: set[str] = set()
    records: list[HitRecord] = []
    groups: list[CompareGroup] = []
    for title, req in zip(p.titles, to_requests(p), strict=True):
        resp = res.index.search(req)
        ids = []
        for h in resp.hits:
            if h.document.place_id in seen:
                continue
            seen.add(h.document.place_id)
            records.append(hit_record(h, _origin(p)))
            ids.append(h.document.place_id)
        groups.append({"title": title, "ids": ids})
    return {
        "hits": records,
        "compare_groups": groups,
        "_decision": ", ".join(f"{g['title']}: {len(g['ids'])}" for g in groups),
    }


def search_information(state: AgentState, res: Resources) -> dict[str, Any]:
    """The named restaurant first (exact name, then branch); location-only → 5 results."""
    p = state_plan(state)
    if not p.titles:
        return search_general(state, res)
    records: list[HitRecord] = []
    for title, req in zip(p.titles, to_requests(p), strict=True):
        resp = res.index.search(req)
        hits = list(resp.hits)
        norm = title.replace(" ", "")
        hits.sort(key=lambda h: (h.document.title.replace(" ", "") != norm, -h.score))
        records += _records(hits, p)
    return {"hits": records, "_decision": f"{len(records)} hits for {', '.join(p.titles)}"}


_SOFTNESS = ("open_at", "price", "convenience", "menu", "cuisine")
_LABEL = {
    "open_at": "영업시간",
    "price": "가격",
    "convenience": "편의",
    "menu": "메뉴",
    "cuisine": "음식 종류",
}


def _km(m: int) -> str:
    return f"{m / 1000:g}km" if m >= 1000 else f"{m}m"


def relax(state: AgentState, res: Resources) -> dict[str, Any]:
    """Nothing relevant: widen the radius, then drop the softest constraint, and say so."""
    p = state_plan(state)
    step = int(state.get("relax_step") or 0) + 1
    notes = list(state.get("relax_notes") or [])
    update: dict[str, Any] = {"relax_step": step}
    loc = p.location
    cfg = res.config
    if p.strategy == "title" and loc is not None:
        p = p.model_copy(update={"location": None, "strategy": "title"})
        notes.append(f"{loc.name} 근처에서는 찾지 못해서 전체 지역에서 찾았어요.")
    elif (
        loc is not None
        and loc.mode == "near"
        and loc.radius_m is not None
        and loc.radius_m < cfg.widen_cap_m
        and not any("넓혔어요" in n for n in notes)
    ):
        wider = int(min(loc.radius_m * cfg.widen_factor, cfg.widen_cap_m))
        p = p.model_copy(update={"location": loc.model_copy(update={"radius_m": wider})})
        notes.append(f"{loc.name} {_km(loc.radius_m)} 안에는 없어서 {_km(wider)}까지 넓혔어요.")
    else:
        dropped = None
        for name in _SOFTNESS:
            if name == "open_at" and p.open_at is not None:
                p = p.model_copy(update={"open_at": None})
                dropped = f"영업시간({p.open_label or '요청 시간'})"
            elif name == "price" and (p.price_min is not None or p.price_max is not None):
                p = p.model_copy(update={"price_min": None, "price_max": None})
                dropped = "가격"
            elif name == "convenience" and p.convenience:
                dropped = f"편의 '{p.convenience[-1]}'"
                p = p.model_copy(update={"convenience": p.convenience[:-1]})
            elif name == "menu" and p.menu:
                dropped = f"메뉴 '{p.menu[-1]}'"
                p = p.model_copy(
                    update={"menu": p.menu[:-1], "semantic": (p.semantic + " " + p.menu[-1]).strip()}
                )
            elif name == "cuisine" and p.cuisine:
                dropped = f"음식 종류 '{', '.join(p.cuisine)}'"
                p = p.model_copy(
                    update={"cuisine": [], "semantic": (p.semantic + " " + " ".join(p.cuisine)).strip()}
                )
            if dropped:
                break
        if dropped:
            notes.append(f"모든 조건에 맞는 곳이 없어서 {dropped} 조건을 빼고 찾았어요.")
        else:
            update["relax_step"] = cfg.max_relax_steps
            update["_decision"] = "nothing left to relax"
            return update
    p = p.model_copy(update={"relaxed": notes[-5:]})
    update["plan"] = p
    update["relax_notes"] = notes
    update["_decision"] = notes[-1]
    emit("plan", p.model_dump(mode="json"))
    return update
