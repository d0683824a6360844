"""Relevance evaluation (docs/design.md tiers), web fallback and session update."""

from __future__ import annotations

from typing import Any

from matjip.agent.configuration import Resources
from matjip.agent.grader import kind_proven, offline_grade, tier
from matjip.agent.models import Grade, WebSource
from matjip.agent.nodes.common import card_for, emit, shown_for, state_plan, turn_now
from matjip.agent.nodes.strategies import strategy_card_fields
from matjip.agent.state import AgentState, SearchRecord
from matjip.wording import text


def evaluate_relevance(state: AgentState, res: Resources) -> dict[str, Any]:
    p = state_plan(state)
    hits = state.get("hits") or []
    if p.overseas or p.strategy == "course" or (not hits and state.get("live_cards")):
        # places abroad come from a live provider (or none); a course's stops were each chosen by
        # role, time and distance: neither is graded as one result list
        why = (
            "course stops chosen by role, time and distance"
            if p.strategy == "course" and hits
            else "live provider results (not graded)"
        )
        chosen = Grade(overall_relevance="relevant", reason=why, tier="confident")
        return {"grade": chosen, "_decision": f"{p.strategy}: not graded ({len(hits)} stops)"}
    band, why = tier([float(h.get("score") or 0.0) for h in hits], res.config)
    shown = shown_for(hits, res)
    grade: Grade | None
    if band == "empty":
        grade = Grade(overall_relevance="irrelevant", reason=why, tier="empty")
    elif band == "confident":
        grade = offline_grade(shown, p)  # hard constraints are re-checked even when confident
        grade.tier = "confident"
        grade.reason = why + "\n" + grade.reason
    else:
        grade = None
        if band == "grader" and res.llm is not None and res.llm.grades:
            grade = res.llm.grade(state, shown, p)
        if grade is None:
            grade = offline_grade(shown, p)
        assert grade is not None
        grade.tier = "grader" if band == "grader" else "insufficient"
        grade.reason = why + "\n" + grade.reason
        if grade.tier == "insufficient" and res.web is None and kind_proven(shown, grade, p):
            # with a web provider the weak scores still bring its sources in, under the caveat
            grade.tier = "grader"
            grade.reason += "\n" + text("grade.tier.kind_proven")
    grade.top_score = max((float(h.get("score") or 0.0) for h in hits), default=0.0)
    keep = {d.document_id for d in grade.document_scores if d.relevance == "relevant"}
    kept = [h for h in hits if h["id"] in keep]
    web_wanted = False
    if grade.tier == "insufficient" and grade.overall_relevance == "relevant":
        # docs/design.md: weak scores have consequences — a caveat in the answer, and the web fallback
        web_wanted = res.web is not None
        grade.reason += "\n" + text("grade.tier.low_web" if web_wanted else "grade.tier.low_no_web")
    return {
        "grade": grade,
        "hits": kept,
        "web_wanted": web_wanted,
        "_decision": f"{grade.tier}: {grade.overall_relevance} ({len(kept)}/{len(hits)})",
    }


def route_after_grade(state: AgentState, max_steps: int) -> str:
    grade = state.get("grade")
    if grade is not None and grade.overall_relevance == "relevant":
        return "irrelevant" if state.get("web_wanted") else "relevant"
    if int(state.get("relax_step") or 0) < max_steps:
        return "relax"
    return "irrelevant"


def web_search(state: AgentState, res: Resources) -> dict[str, Any]:
    """docs/design.md: the web fallback; a seam that answers 'no web source configured' offline."""
    if res.web is None:
        return {"web_sources": [], "_decision": "no web source configured"}
    try:
        sources = res.web.search(state.get("query", ""))
    except Exception as exc:  # a provider failure never breaks the turn
        return {"web_sources": [], "_decision": f"web search failed: {type(exc).__name__}"}
    return {
        "web_sources": [WebSource(title=s.title, content=s.content, url=s.url) for s in sources],
        "_decision": f"{len(sources)} web sources",
    }


def update_session(state: AgentState, res: Resources) -> dict[str, Any]:
    """Store this turn's search and its relevant results for follow-ups (docs/design.md)."""
    hits = state.get("hits") or []
    update: dict[str, Any] = {}
    searches = list(state.get("searches") or [])
    p = state.get("plan")
    if p is not None and state.get("duplicate_of") is None:
        rec: SearchRecord = {
            "turn": int(state.get("turn") or 0),
            "query": state.get("query", ""),
            "intent": p.intent,
            "signature": p.signature(),
            "plan": p,
            "frame": state.get("frame") or p,
            "hits": hits,
            "cheaper": bool(state.get("cheaper")),
        }
        searches = [*searches, rec][-20:]
        update["searches"] = searches
    lookup = p is not None and bool(p.titles) and p.intent in ("information", "compare")
    if hits and lookup and state.get("context"):
        # a question about named restaurants keeps the list shown before (its numbers stay valid)
        update["focus"] = hits[0]["id"]
    elif hits:
        update["context"] = hits
        update["focus"] = hits[0]["id"] if len(hits) == 1 or (p and p.intent == "information") else None
        kept = state.get("focus")
        in_list = any(h["id"] == kept for h in hits)
        # "2번 메뉴" → "더 싼 데는?" → "아까 거기": a refinement whose list leaves out the one in focus
        update["focus_before"] = kept if state.get("refine") and kept and not in_list else None
        if update["focus"] is None and state.get("refine") and in_list:
            # "세 번째 어때" → "룸 있는 데로": a refinement that still shows the one in focus keeps
            # "거기" pointing at it
            update["focus"] = kept
    loc = state.get("location")
    if loc is not None:
        history = list(state.get("location_history") or [])
        if not history or history[-1] != loc:
            history.append(loc)
        update["location_history"] = history[-10:]
    now = turn_now(state, res)
    records = {h["id"]: h for h in hits}
    cards = [
        card_for(s, now, p).model_copy(update=strategy_card_fields(records[s.doc.place_id]))
        for s in shown_for(hits, res)
    ]
    live = state.get("live_cards") or []
    if live:
        # live providers' places (marked with their source, never stored in the index)
        cards = sorted([*cards, *live], key=lambda c: (c.day_group or 0, c.stop or 0))
    update["cards"] = cards  # the turn result reuses them
    web = state.get("web_sources") or []
    shown: list[dict[str, Any]] = [c.model_dump(mode="json") for c in cards]
    for w in web:
        shown.append(
            {
                "id": w.url or w.title,
                "name": w.title,
                "cuisine": text("answer.web.cuisine"),
                "source_type": "web",
                "url": w.url,
                "matched": [],
                "menus": [],
            }
        )
    emit("results", shown)
    update["_decision"] = f"{len(hits)} documents in context" + (f", {len(web)} web" if web else "")
    return update
