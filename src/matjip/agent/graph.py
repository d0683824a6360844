"""The agent graph, wired in one place (docs/design.md's flow chart).

query_input → understand → need_search ─┬─ search ──→ check_session → plan ─┬─(follow-up)→ check_duplicate ─┬─ duplicate → update_session
                                        │                                  │                               └─ new ──┐
                                        │                                  └─(first)──────────────────────────────────┤
                                        │                                                   route by intent: search_general | search_compare | search_information
                                        │                                                                          ↓
                                        │                                  evaluate_relevance ─┬─ relevant ──────────→ update_session → generate → END
                                        │                                                      ├─ relax → (search again)
                                        │                                                      └─ irrelevant → web_search → update_session
                                        └─ context | clarify | reply ──────────────────────────────────────────────→ generate → END
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.graph import END, START, StateGraph

from matjip.agent.configuration import Resources
from matjip.agent.models import TraceEntry
from matjip.agent.nodes.evaluate import evaluate_relevance, route_after_grade, update_session, web_search
from matjip.agent.nodes.generate import generate
from matjip.agent.nodes.search import (
    check_duplicate,
    plan,
    relax,
    search_compare,
    search_general,
    search_information,
)
from matjip.agent.nodes.understand import check_session, need_search, query_input, understand
from matjip.agent.state import CHECKPOINT_MODELS, AgentState

NodeFn = Callable[[AgentState, Resources], dict[str, Any]]


def collect_node_calls(res: Resources, state: AgentState) -> dict[str, Any]:
    """Trace detail of the LLM and web calls one node made: ``{"llm": {...}, "web": [...]}``;
    ``{}`` when the node made no call."""
    out: dict[str, Any] = {}
    if res.llm is not None:
        got = res.llm.drain(state)
        if got.get("calls") or got.get("notes"):
            out["llm"] = got
    if res.web is not None:
        calls = res.web.drain()
        if calls:
            out["web"] = list(calls)
    return out


def traced(name: str, fn: NodeFn, res: Resources) -> Callable[[AgentState], dict[str, Any]]:
    """Run a node, time it and append its decision to the per-turn trace."""

    def run(state: AgentState) -> dict[str, Any]:
        started = time.perf_counter()
        update = fn(state, res)
        ms = (time.perf_counter() - started) * 1000
        decision = str(update.pop("_decision", ""))
        detail = update.pop("_detail", {}) or {}
        if res.llm is not None or res.web is not None:
            calls = collect_node_calls(res, state)
            if calls:
                detail = {**detail, **calls}
                update["llm_calls"] = int(state.get("llm_calls") or 0) + len(
                    calls.get("llm", {}).get("calls", [])
                )
        base = update.get("trace") if name == "query_input" else state.get("trace")
        entry = TraceEntry(node=name, ms=round(ms, 3), decision=decision, detail=detail)
        update["trace"] = [*(base or []), entry]
        return update

    run.__name__ = name
    return run


def _route_need(state: AgentState) -> str:
    return "search" if state.get("decision") == "search" else "generate"


def _route_plan(state: AgentState) -> str:
    return "check_duplicate" if state.get("is_followup") else _route_intent(state)


def _route_intent(state: AgentState) -> str:
    plan = state.get("plan")
    intent = plan.intent if plan is not None else "search"
    return {"compare": "search_compare", "information": "search_information"}.get(intent, "search_general")


def _route_duplicate(state: AgentState) -> str:
    return "update_session" if state.get("duplicate_of") is not None else _route_intent(state)


def checkpoint_serializer() -> JsonPlusSerializer:
    """LangGraph's serializer, allowed to rebuild the state's models (:data:`CHECKPOINT_MODELS`)
    from a checkpoint besides its own safe types; any other class stays its serialized fields."""
    return JsonPlusSerializer(allowed_msgpack_modules=CHECKPOINT_MODELS)


def build_graph(res: Resources, checkpointer: Any = None) -> Any:
    g: StateGraph[AgentState] = StateGraph(AgentState)
    nodes: dict[str, NodeFn] = {
        "query_input": query_input,
        "understand": understand,
        "need_search": need_search,
        "check_session": check_session,
        "plan": plan,
        "check_duplicate": check_duplicate,
        "search_general": search_general,
        "search_compare": search_compare,
        "search_information": search_information,
        "evaluate_relevance": evaluate_relevance,
        "relax": relax,
        "web_search": web_search,
        "update_session": update_session,
        "generate": generate,
    }
    for name, fn in nodes.items():
        g.add_node(name, traced(name, fn, res))  # type: ignore[call-overload]
    searches = ["search_general", "search_compare", "search_information"]
    g.add_edge(START, "query_input")
    g.add_edge("query_input", "understand")
    g.add_edge("understand", "need_search")
    g.add_conditional_edges("need_search", _route_need, {"search": "check_session", "generate": "generate"})
    g.add_edge("check_session", "plan")
    g.add_conditional_edges("plan", _route_plan, ["check_duplicate", *searches])
    g.add_conditional_edges("check_duplicate", _route_duplicate, ["update_session", *searches])
    for s in searches:
        g.add_edge(s, "evaluate_relevance")
    max_steps = res.config.max_relax_steps
    g.add_conditional_edges(
        "evaluate_relevance",
        lambda st: route_after_grade(st, max_steps),
        {"relevant": "update_session", "relax": "relax", "irrelevant": "web_search"},
    )
    g.add_conditional_edges(
        "relax",
        # a relaxed plan is always searched; past the maximum nothing was left to relax
        lambda st: "web_search" if int(st.get("relax_step") or 0) > max_steps else _route_intent(st),
        [*searches, "web_search"],
    )
    g.add_edge("web_search", "update_session")
    g.add_edge("update_session", "generate")
    g.add_edge("generate", END)
    return g.compile(checkpointer=checkpointer)
