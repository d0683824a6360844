"""Query input, NLU + location understanding, and the need-search decision (docs/design.md).

Offline, NLU runs before the need-search decision because the decision reads its signals
(ordinals, pronouns, new places or menus); it costs about a millisecond.
"""

from __future__ import annotations

import re
from typing import Any

from langgraph.types import Overwrite

from matjip.agent.configuration import Resources
from matjip.agent.coverage import outside_place
from matjip.agent.location import choice_context, pick_choice, resolve
from matjip.agent.models import LocationContext
from matjip.agent.state import PER_TURN_RESET, AgentState, upgrade_conversation
from matjip.index.request import GeoFilter, RegionFilter, SearchRequest
from matjip.nlu.kinds import detect_kinds
from matjip.nlu.models import NLUResult
from matjip.nlu.normalize import normalize_query
from matjip.nlu.romanized import koreanize_places

_HANGUL = re.compile(r"[가-힣]")
_LATIN = re.compile(r"[A-Za-z]")


def query_input(state: AgentState, res: Resources) -> dict[str, Any]:
    """Normalise the raw message and classify unusable input; reset per-turn fields."""
    text = normalize_query(state.get("query") or "")
    update: dict[str, Any] = {**PER_TURN_RESET, **upgrade_conversation(state)}
    update["turn"] = int(state.get("turn") or 0) + 1
    update["now"] = state.get("now") or res.now().isoformat()
    said = {"role": "user", "content": text[:2000]}
    kept = max(0, 2 * res.config.max_history_turns - 2)  # room for this turn's question and answer
    prior = list(state.get("messages") or [])
    # bounded history (agent/retention.py): past the limit, the list is replaced, not appended to
    update["messages"] = Overwrite([*prior[len(prior) - kept :], said]) if len(prior) > kept else [said]
    notes: list[str] = []
    if len(text) > res.config.max_query_chars:
        notes.append("too_long")
        text = text[: res.config.max_query_chars]
    if not text:
        update["reply"] = "empty"
    elif state.get("pending") and text.strip(" .").isdigit():
        pass  # "2" answers a pending clarification
    elif _LATIN.search(text):
        # English or mixed: romanised place names become Korean ones; dish words are read by the
        # kinds vocabulary, which lists English words too
        text = koreanize_places(text)
        if not _HANGUL.search(text) and not detect_kinds(text).kinds:
            update["reply"] = "not_korean"
    elif not _HANGUL.search(text):
        update["reply"] = "no_content"
    update["query"] = text
    update["_decision"] = update["reply"] or ("truncated" if notes else "ok")
    update["plan_notes"] = notes
    return update


def understand(state: AgentState, res: Resources) -> dict[str, Any]:
    """Intent and entities (NLU), then location: GPS, named place, carry-over or clarification."""
    if state.get("reply"):
        return {"_decision": "skipped"}
    text = state["query"]
    gps_raw = state.get("gps")
    gps = (float(gps_raw["lat"]), float(gps_raw["lon"])) if gps_raw else None
    history = list(state.get("location_history") or [])
    pending = state.get("pending")
    if pending is not None:
        if pending.kind == "place":
            choice = pick_choice(text, pending)
            if choice is not None:
                nlu = res.nlu.parse(pending.pending_query)
                ctx = choice_context(choice, pending, res.gazetteer, pending.pending_query)
                return {
                    "nlu": nlu,
                    "query": pending.pending_query,
                    "location": ctx,
                    "pending": None,
                    "resumed": True,
                    "_decision": f"clarification resolved: {choice.label}",
                }
        elif pending.kind == "gps" and gps is not None:
            nlu = res.nlu.parse(pending.pending_query)
            outcome = resolve(nlu, pending.pending_query, gps, history, res.gazetteer)
            if outcome.context is not None:
                return {
                    "nlu": nlu,
                    "query": pending.pending_query,
                    "location": outcome.context,
                    "pending": None,
                    "resumed": True,
                    "_decision": "gps received",
                }
    nlu = res.nlu.parse(text)
    if res.llm is not None and res.llm.understands and not nlu.smalltalk:
        nlu = res.llm.understand(state, text, nlu)
    update: dict[str, Any] = {"nlu": nlu}
    has_new_content = bool(
        nlu.entities.location or nlu.entities.title or nlu.entities.menu or nlu.entities.category
    )
    if pending is not None and not has_new_content and not nlu.smalltalk:
        # the answer did not pick a candidate: ask again
        update["clarification"] = pending
        update["_decision"] = "clarification unresolved; asking again"
        return update
    if pending is not None:
        update["pending"] = None
    outcome = resolve(nlu, text, gps, history, res.gazetteer, covered=lambda p: _covered(p, res))
    # a place far outside the data is said so, never searched as a menu word or elsewhere
    outside = outside_place(text) if not nlu.entities.title else None
    if outcome.clarification is not None:
        update["clarification"] = outcome.clarification
        update["_decision"] = (
            f"clarify {outcome.clarification.kind}: {outcome.clarification.name or ''}".strip()
        )
    elif outside is not None:
        update["reply"] = f"outside:{outside}"
        update["_decision"] = f"{outside} is outside the data"
    elif outcome.unknown_place:
        update["reply"] = f"unknown_place:{outcome.unknown_place}"
        update["_decision"] = f"unknown place {outcome.unknown_place}"
    elif outcome.context is not None and res.web is None and not _context_covered(outcome.context, res):
        # with a web provider the search runs and finds nothing, and the web fallback answers
        name = outcome.context.name or outcome.context.display_name or "그곳"
        update["reply"] = f"outside:{name}"
        update["_decision"] = f"no restaurant in the data around {name}"
    else:
        update["location"] = outcome.context
        update["location_carried"] = outcome.carried
        update["plan_notes"] = [*(state.get("plan_notes") or []), *outcome.notes]
        update["_decision"] = f"{nlu.intent} (conf {nlu.confidence:.2f})" + (
            f", location {outcome.context.display_name or outcome.context.name}" if outcome.context else ""
        )
    return update


def _context_covered(ctx: LocationContext, res: Resources) -> bool:
    """Does the index hold a restaurant in the resolved place (radius or region)?"""
    if ctx.type == "GPS" or ctx.lat is None or ctx.lon is None:
        return True
    key = f"ctx:{ctx.mode}:{ctx.lat:.5f},{ctx.lon:.5f}:{ctx.radius_m}:{','.join(ctx.region_terms)}"
    hit = res.coverage.get(key)
    if hit is None:
        if ctx.mode == "in" and ctx.region_terms:
            req = SearchRequest(region=RegionFilter(name=ctx.name or "지역", terms=ctx.region_terms), k=1)
        else:
            radius = float(min(max(ctx.radius_m or 1000, 100), 3000))
            req = SearchRequest(geo=GeoFilter(lat=ctx.lat, lon=ctx.lon, radius_m=radius), k=1)
        hit = res.coverage[key] = res.index.search(req).total_candidates > 0
    return hit


def _covered(place: Any, res: Resources) -> bool:
    """Does the index hold any restaurant around ``place``? (cached per index, in the resources)"""
    key = getattr(place, "key", None) or f"{place.lat},{place.lon}"
    hit = res.coverage.get(key)
    if hit is None:
        radius = float(min(max(getattr(place, "default_radius_m", 1000) or 1000, 100), 20_000))
        resp = res.index.search(
            SearchRequest(geo=GeoFilter(lat=place.lat, lon=place.lon, radius_m=radius), k=1)
        )
        hit = res.coverage[key] = resp.total_candidates > 0
    return hit


def _context_titles(state: AgentState, res: Resources) -> dict[str, str]:
    out: dict[str, str] = {}
    for h in state.get("context") or []:
        doc = res.index.get(h["id"])
        if doc is not None:
            out[doc.place_id] = doc.title.replace(" ", "")
    return out


def need_search(state: AgentState, res: Resources) -> dict[str, Any]:
    """Search, or answer from the conversation's context (docs/design.md); an LLM may overrule
    the offline decision between the two when configured."""
    out = _need_search_offline(state, res)
    if (
        res.llm is not None
        and res.llm.decides
        and state.get("context")
        and out.get("decision") in ("search", "context")
    ):
        llm = res.llm.decide(state, out["decision"] == "search")
        if llm is not None:
            out = {
                "decision": "search" if llm["need_search"] else "context",
                "_decision": f"llm: {llm['reason']}",
            }
    return out


def _need_search_offline(state: AgentState, res: Resources) -> dict[str, Any]:
    if state.get("reply"):
        return {"decision": "reply", "_decision": "reply"}
    if state.get("clarification") is not None:
        return {"decision": "clarify", "_decision": "clarify"}
    nlu = state.get("nlu") or NLUResult()
    ents = nlu.entities
    context = state.get("context") or []
    new_topic = bool(ents.location or ents.menu or ents.category)
    if nlu.smalltalk and not (new_topic or ents.title):
        return {"decision": "reply", "reply": f"smalltalk:{nlu.smalltalk}", "_decision": "smalltalk"}
    narrowing = bool(
        nlu.time is not None or nlu.price is not None or ents.atmosphere or ents.occasion
    ) or bool(ents.convenience and not nlu.ask)
    narrow_previous = context and narrowing and not new_topic and not ents.title
    if narrow_previous and nlu.ordinal is None and not nlu.ask and state.get("searches"):
        return {"decision": "search", "refine": True, "_decision": "search (narrow the previous search)"}
    if context:
        refers = nlu.ordinal is not None or nlu.pronoun_ref
        if refers and not new_topic and not nlu.followup_place:
            return {"decision": "context", "_decision": "answer from context (reference)"}
        titles = ents.title
        if titles and not new_topic:
            known = _context_titles(state, res)
            wanted = [t.replace(" ", "") for t in titles]
            if all(any(w in k for k in known.values()) for w in wanted):
                return {"decision": "context", "_decision": "answer from context (known restaurant)"}
        about_results = (nlu.ask or ents.convenience) and not (new_topic or titles)
        if about_results and not nlu.followup_place and (nlu.intent != "search" or nlu.ask):
            return {"decision": "context", "_decision": "answer from context (question about results)"}
    has_anything = (
        not ents.is_empty()
        or state.get("location") is not None
        or nlu.price is not None
        or nlu.time is not None
    )
    if not has_anything and not context:
        return {"decision": "reply", "reply": "no_content", "_decision": "nothing to search for"}
    if not has_anything and context:
        return {"decision": "context", "_decision": "answer from context (no new entities)"}
    return {"decision": "search", "_decision": "search"}


def check_session(state: AgentState, res: Resources) -> dict[str, Any]:
    """First turn of the conversation, or a follow-up (docs/design.md)."""
    followup = bool(state.get("searches"))
    return {"is_followup": followup, "_decision": "follow-up" if followup else "first search"}
