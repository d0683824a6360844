"""The typed agent state: its models survive the checkpointer (SQLite, across agents), every model
it holds is registered with LangGraph's serializer, and sessions saved as plain JSON still load."""

from __future__ import annotations

import types
from pathlib import Path
from typing import Annotated, Any, Union, get_args, get_origin, get_type_hints

from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from pydantic import BaseModel
from typing_extensions import is_typeddict

from matjip.agent.models import (
    Card,
    Choice,
    Clarification,
    Grade,
    LocationContext,
    PlanLocation,
    SearchPlan,
    TraceEntry,
    WebSource,
)
from matjip.agent.serde import checkpoint_serializer
from matjip.agent.service import Agent
from matjip.agent.state import CHECKPOINT_MODELS, AgentState, upgrade_conversation
from matjip.nlu.models import NLUResult
from matjip.settings import Settings


def _models_in(tp: Any, seen: set[Any]) -> set[type[BaseModel]]:
    """Pydantic models a state annotation holds (through unions, containers and typed dicts)."""
    if tp in seen:
        return set()
    seen.add(tp)
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return {tp}
    if is_typeddict(tp):
        return {m for hint in get_type_hints(tp).values() for m in _models_in(hint, seen)}
    origin = get_origin(tp)
    if origin is Annotated:
        return _models_in(get_args(tp)[0], seen)
    if origin in (Union, types.UnionType, list, dict, tuple):
        return {m for arg in get_args(tp) for m in _models_in(arg, seen)}
    return set()


def test_every_state_model_is_registered_with_the_serializer() -> None:
    held = _models_in(AgentState, set())
    assert {NLUResult, SearchPlan, LocationContext, Grade, Clarification} <= held
    assert held == set(CHECKPOINT_MODELS)


def _one_of_each() -> dict[str, Any]:
    from datetime import datetime
    from zoneinfo import ZoneInfo

    plan = SearchPlan(
        strategy="radius",
        location=PlanLocation(name="잠실역", lat=37.5133, lon=127.1001, radius_m=1000),
        cuisine=["한식"],
        open_at=datetime(2026, 11, 21, 19, 0, tzinfo=ZoneInfo("Asia/Seoul")),
        open_label="저녁",
    )
    return {
        "nlu": NLUResult(intent="search", location_mode="in"),
        "plan": plan,
        "location": LocationContext(type="CONTEXTUAL", name="송파구", mode="in", region_terms=["송파구"]),
        "location_history": [LocationContext(type="GPS", lat=37.5, lon=127.0, radius_m=1000)],
        "grade": Grade(overall_relevance="relevant", reason="ok", tier="confident", top_score=0.9),
        "clarification": Clarification(question="?", name="양평역", choices=[Choice(index=1, label="a")]),
        "pending": None,
        "searches": [
            {"turn": 1, "query": "q", "intent": "search", "signature": plan.signature(), "plan": plan}
        ],
        "cards": [Card(id="1", name="가게", cuisine="한식")],
        "web_sources": [WebSource(title="t", content="c", url="https://example.com")],
        "trace": [TraceEntry(node="plan", ms=1.5, decision="search/radius k=3", detail={"repairs": []})],
    }


def test_the_serializer_rebuilds_the_models() -> None:
    values = _one_of_each()
    serde = checkpoint_serializer()
    back = serde.loads_typed(serde.dumps_typed(values))
    assert back == values
    assert isinstance(back["plan"], SearchPlan) and isinstance(back["searches"][0]["plan"], SearchPlan)
    assert back["plan"].open_at == values["plan"].open_at
    # what registration buys: a serializer that allows only LangGraph's own types keeps the fields
    strict = JsonPlusSerializer(allowed_msgpack_modules=None)
    assert isinstance(strict.loads_typed(strict.dumps_typed(values))["plan"], dict)


def test_typed_state_persists_to_sqlite_and_a_new_agent_resumes_it(
    sample_settings: Settings, sample_agent: Agent, tmp_path: Path
) -> None:
    settings = sample_settings.model_copy(update={"data_dir": tmp_path})
    res = sample_agent.resources
    first_agent = Agent(settings, res, persist=True)
    try:
        first = first_agent.ask("잠실역 근처 주차되는 한식집")
        asked = first_agent.ask("양평 맛집")
    finally:
        first_agent.close()
    assert (tmp_path / "sessions.sqlite").exists()
    assert first.plan is not None and first.location is not None and first.grade is not None
    assert asked.clarification is not None

    second_agent = Agent(settings, res, persist=True)
    try:
        st = second_agent.graph.get_state({"configurable": {"thread_id": first.session_id}}).values
        assert isinstance(st["nlu"], NLUResult) and st["nlu"].model_dump(mode="json") == first.nlu
        assert isinstance(st["plan"], SearchPlan) and st["plan"] == first.plan
        assert isinstance(st["location"], LocationContext) and st["location"] == first.location
        assert isinstance(st["grade"], Grade) and st["grade"] == first.grade
        assert st["location_history"] == [first.location]
        assert st["searches"][-1]["plan"] == first.plan
        assert st["cards"] == first.cards and st["trace"] == first.trace
        pending = second_agent.graph.get_state({"configurable": {"thread_id": asked.session_id}}).values
        assert isinstance(pending["clarification"], Clarification)
        assert pending["clarification"] == asked.clarification == pending["pending"]

        follow = second_agent.ask("두 번째 집 어디야?", first.session_id)
        assert follow.decision == "context" and first.cards[1].name in follow.answer
        chosen = second_agent.ask("1", asked.session_id)
        assert chosen.resumed and chosen.plan is not None and chosen.plan.location is not None
    finally:
        second_agent.close()


def test_sessions_saved_as_plain_json_are_upgraded() -> None:
    typed = _one_of_each()
    typed["pending"] = typed["clarification"]
    legacy = {
        "pending": typed["pending"].model_dump(mode="json"),
        "location_history": [
            {"type": "CONTEXTUAL", "name": "송파구", "is_nearby": False, "region_terms": ["송파구"]}
        ],
        "searches": [{**typed["searches"][0], "plan": typed["plan"].model_dump(mode="json")}],
    }
    up = upgrade_conversation(legacy)
    assert up["pending"] == typed["pending"]
    assert up["location_history"][0].mode == "in"  # the pre-`mode` bool
    assert up["searches"][0]["plan"] == typed["plan"]
    assert upgrade_conversation(typed) == {}


def test_location_context_json_keeps_is_nearby() -> None:
    ctx = LocationContext(type="CONTEXTUAL", name="송파구", mode="in")
    data = ctx.model_dump(mode="json")
    assert data["mode"] == "in" and data["is_nearby"] is False
    assert LocationContext.model_validate(data) == ctx
