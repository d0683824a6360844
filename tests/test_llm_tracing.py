"""Trace details and usage accounting per turn; LangSmith on with its env variables, harmless off."""

from __future__ import annotations

import sys
import types
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from fakes import tavily as tfake
from fakes.http import Script
from matjip.agent.graph import collect_node_calls
from matjip.agent.models import SearchPlan, Shown
from matjip.agent.stages import LLMStages
from matjip.agent.stages.accounting import summarize, turn_usage
from matjip.agent.stages.fakes import default_reply
from matjip.agent.stages.schemas import NeedSearchOut
from matjip.providers import tracing
from matjip.providers.base import CallRecord, Message
from matjip.providers.fake import FakeLLM
from matjip.providers.tavily import TavilyClient
from matjip.providers.tracing import TracingConfig
from support.index import build_index_dir, hand_written, resources_over
from support.settings import settings_from_env

MSGS: list[Message] = [{"role": "user", "content": "hi"}]


def rec(stage: str, tin: int, tout: int, cost: float | None, ok: bool = True) -> dict[str, Any]:
    return CallRecord(
        stage=stage,
        provider="openai",
        model="gpt-4o-mini",
        input_tokens=tin,
        output_tokens=tout,
        cost_usd=cost,
        ok=ok,
    ).model_dump(mode="json")


TRACE = [
    {"node": "query_input", "ms": 0.1, "decision": "ok", "detail": {}},
    {
        "node": "evaluate_relevance",
        "ms": 300,
        "decision": "grader",
        "detail": {
            "llm": {
                "calls": [rec("grade", 900, 120, 0.0002)],
                "notes": ["grade: LLM graded 3/3 documents, 2 relevant"],
            }
        },
    },
    {"node": "web_search", "ms": 500, "decision": "2 web", "detail": {"web": [{"stage": "web"}]}},
    {
        "node": "generate",
        "ms": 900,
        "decision": "llm",
        "detail": {"llm": {"calls": [rec("generate", 1500, 400, 0.0004)], "notes": []}},
    },
]


def test_turn_usage_from_a_trace() -> None:
    u = turn_usage(TRACE)
    assert u.calls == 2 and u.input_tokens == 2400 and u.output_tokens == 520
    assert u.cost_usd == pytest.approx(0.0006) and u.web_calls == 1
    assert u.by_stage == {"grade": 1, "generate": 1}
    assert u.by_node == {"evaluate_relevance": 1, "generate": 1}
    assert turn_usage({"trace": TRACE}).calls == 2  # a TurnResult dict works too
    assert turn_usage([]).calls == 0 and turn_usage([]).cost_usd == 0.0


def test_unknown_cost_and_summary() -> None:
    local = [{"node": "generate", "detail": {"llm": {"calls": [rec("generate", 10, 10, None, ok=False)]}}}]
    u = turn_usage(local)
    assert u.cost_usd is None and u.failed == 1
    s = summarize([turn_usage(TRACE), u])
    assert s["turns"] == 2 and s["calls"] == 3 and s["max_calls_in_a_turn"] == 2
    assert s["cost_usd"] is None and s["by_stage"] == {"grade": 1, "generate": 2}


def test_collect_node_calls(tmp_path: Path) -> None:
    docs = hand_written()
    index_dir = build_index_dir(tmp_path / "index", docs)
    res = resources_over(index_dir, docs)
    res.llm = LLMStages(FakeLLM(function=default_reply), stages=["grade"]).bind(res)
    res.web = TavilyClient("tvly-test", transport=Script(tfake.search_reply("파스타", [])).transport())
    state = {"session_id": "s1", "turn": 1, "query": "이태원 파스타"}
    pasta = next(d for d in docs if d.place_id == "h-pasta")
    plan = SearchPlan(cuisine=["양식"], menu=["파스타"])
    assert res.llm.grade(state, [Shown(doc=pasta, distance_m=300.0, score=0.7)], plan) is not None

    out = collect_node_calls(res, state)
    assert list(out) == ["llm"] and out["llm"]["calls"][0]["stage"] == "grade"

    nothing = resources_over(index_dir, docs)  # no LLM, no web search
    assert collect_node_calls(nothing, {}) == {}


def _config(monkeypatch: pytest.MonkeyPatch, env: dict[str, str] | None = None) -> TracingConfig:
    """The tracing config of settings read from ``env`` (only)."""
    return TracingConfig.from_settings(settings_from_env(monkeypatch, env))


def test_langsmith_env_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    assert not tracing.enabled(_config(monkeypatch, {}))
    assert not tracing.enabled(_config(monkeypatch, {"LANGSMITH_TRACING": "true"}))  # no key
    assert tracing.enabled(
        _config(monkeypatch, {"LANGSMITH_TRACING": "true", "LANGSMITH_API_KEY": "lsv2_pt_x"})
    )
    assert not tracing.enabled(
        _config(monkeypatch, {"LANGSMITH_TRACING": "false", "LANGSMITH_API_KEY": "lsv2_pt_x"})
    )


def test_tracing_off_or_package_missing_never_breaks(monkeypatch: pytest.MonkeyPatch) -> None:
    off = _config(monkeypatch)
    fake = FakeLLM(script={"need_search": {"need_search": True}})
    fake.complete_json(MSGS, NeedSearchOut, stage="need_search")
    tracing.record_call(CallRecord(stage="x", provider="p", model="m"), config=off)
    on = _config(monkeypatch, {"LANGSMITH_TRACING": "true", "LANGSMITH_API_KEY": "lsv2_pt_x"})
    monkeypatch.setitem(sys.modules, "langsmith", None)  # import fails
    tracing.record_call(CallRecord(stage="x", provider="p", model="m"), config=on)
    assert tracing.describe(on)["package"] is False


def test_langsmith_run_per_call(monkeypatch: pytest.MonkeyPatch) -> None:
    runs: list[dict[str, Any]] = []

    class Run:
        def __init__(self, **kw: Any) -> None:
            self.kw = kw
            runs.append(kw)

        def add_metadata(self, md: dict[str, Any]) -> None:
            self.kw["metadata_added"] = md

        def end(self, outputs: dict[str, Any] | None = None, error: str | None = None) -> None:
            self.kw["outputs"] = outputs
            self.kw["error"] = error

    @contextmanager
    def trace(name: str, run_type: str = "chain", **kw: Any) -> Any:
        yield Run(name=name, run_type=run_type, **kw)

    stub = types.ModuleType("langsmith")
    stub.trace = trace  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "langsmith", stub)
    config = _config(
        monkeypatch,
        {"LANGSMITH_TRACING": "true", "LANGSMITH_API_KEY": "lsv2_pt_x", "LANGSMITH_PROJECT": "matjip-test"},
    )
    r = CallRecord(
        stage="grade", provider="openai", model="gpt-4o-mini", input_tokens=10, output_tokens=4, cost_usd=1e-6
    )
    tracing.record_call(r, MSGS, {"overall_relevance": "relevant"}, config=config)
    assert len(runs) == 1
    run = runs[0]
    assert run["name"] == "llm:grade" and run["run_type"] == "llm" and run["project_name"] == "matjip-test"
    assert run["outputs"]["usage_metadata"] == {"input_tokens": 10, "output_tokens": 4, "total_tokens": 14}
    assert run["metadata_added"]["ls_model_name"] == "gpt-4o-mini" and run["error"] is None
