"""The LLM stages inside the real agent graph (a small synthetic index, the real gazetteer and NLU,
the fake provider): LLM calls per turn by confidence tier, grounding, and turns that always
complete when every stage fails."""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("matjip.agent.service")
pytest.importorskip("matjip.index.embedded")
pytest.importorskip("matjip.nlu.parser")
pytest.importorskip("matjip.geo.gazetteer")

from fakes import tavily as tfake
from fakes.embedder import FakeEmbedder
from fakes.http import Reply, Script
from matjip.agent.configuration import AgentConfig, Resources
from matjip.agent.service import Agent
from matjip.agent.stages import LLMStages
from matjip.agent.stages.accounting import turn_usage
from matjip.agent.stages.fakes import default_reply
from matjip.errors import ProviderError, ProviderTimeout
from matjip.providers.fake import Chunks, FakeCall, FakeLLM
from matjip.providers.tavily import TavilyClient
from matjip.settings import Settings
from support.index import make_corpus

CONFIDENT = AgentConfig(top1_threshold=0.0, mean_threshold=0.0, high_threshold=0.0)
MIDDLE = AgentConfig(top1_threshold=0.0, mean_threshold=0.0, high_threshold=1.01)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    from matjip.geo.gazetteer import Gazetteer
    from matjip.index.embedded import EmbeddedIndex
    from matjip.ingest.category import CUISINES
    from matjip.nlu import terms
    from matjip.nlu.parser import OfflineNLU
    from matjip.nlu.vocabulary import Vocabulary

    docs = make_corpus()
    data_dir: Path = tmp_path_factory.mktemp("llm-agent")
    index = EmbeddedIndex(data_dir / "index", FakeEmbedder(), Settings()).build(docs)
    gazetteer = Gazetteer.load()
    return {
        "data_dir": data_dir,
        "index": index,
        "gazetteer": gazetteer,
        "nlu": OfflineNLU(Vocabulary.from_restaurants(docs), gazetteer),
        "cuisines": frozenset(CUISINES),
        "conveniences": frozenset(getattr(terms, "CONVENIENCE_VALUES", None) or terms.CONVENIENCE),
    }


def make_agent(
    base: dict[str, Any], config: AgentConfig, fake: FakeLLM | None, web: Any = None, **stage_kw: Any
) -> Agent:
    res = Resources(
        index=base["index"],
        gazetteer=base["gazetteer"],
        nlu=base["nlu"],
        config=config,
        cuisines=base["cuisines"],
        conveniences=base["conveniences"],
    )
    res.web = web
    if fake is not None:
        res.llm = LLMStages(fake, **stage_kw).bind(res)
    return Agent(Settings(data_dir=base["data_dir"]), resources=res, persist=False)


@pytest.fixture()
def agents(base: dict[str, Any]) -> Iterator[list[Agent]]:
    made: list[Agent] = []
    yield made
    for a in made:
        a.close()


def friendly(call: FakeCall) -> Any:
    """Generation that adds a greeting to the offline draft (grounded, and recognisably the LLM's)."""
    reply = default_reply(call)
    if call.stage == "generate":
        return Chunks(["안녕하세요! 찾아봤어요.\n", *reply])
    return reply


def test_confident_turn_makes_at_most_one_llm_call(base: dict[str, Any], agents: list[Agent]) -> None:
    fake = FakeLLM(function=friendly)
    agent = make_agent(base, CONFIDENT, fake)
    agents.append(agent)
    r = agent.ask("홍대 라멘")
    assert r.grade is not None and r.grade.tier == "confident"
    assert [c.stage for c in fake.calls] == ["generate"]
    assert r.answer.startswith("안녕하세요! 찾아봤어요.") and "멘야 하카타" in r.answer
    stages = agent.resources.llm
    assert [c.stage for c in stages.records({"session_id": r.session_id, "turn": 1})] == ["generate"]


def test_middle_band_turn_makes_at_most_two_llm_calls(base: dict[str, Any], agents: list[Agent]) -> None:
    fake = FakeLLM(function=friendly)
    agent = make_agent(base, MIDDLE, fake)
    agents.append(agent)
    r = agent.ask("마포 갈비 맛집")
    assert r.grade is not None and r.grade.tier == "grader"
    assert "LLM: fake grader" in r.grade.reason
    stages_called = [c.stage for c in fake.calls]
    assert stages_called == ["grade", "generate"]  # one batched grading + generation
    grade_prompt = fake.calls[0].prompt
    assert grade_prompt.count('\n{"document_id": ') == len(r.grade.document_scores) >= 1


def test_hallucinated_restaurant_never_reaches_the_user(base: dict[str, Any], agents: list[Agent]) -> None:
    def hallucinating(call: FakeCall) -> Any:
        if call.stage == "generate":
            return "**1. 멘야 하카타**\n돈코츠라멘이 유명해요.\n**2. 라 스텔라**\n파스타도 맛있어요.\n"
        return default_reply(call)

    fake = FakeLLM(function=hallucinating)
    agent = make_agent(base, CONFIDENT, fake)
    agents.append(agent)
    r = agent.ask("홍대 라멘")
    assert len(fake.calls_for("generate")) == 1
    assert "라 스텔라" not in r.answer  # a real restaurant of the index, but not in this context
    offline = make_agent(base, CONFIDENT, None)
    agents.append(offline)
    assert r.answer == offline.ask("홍대 라멘").answer  # the template answer replaced it
    records = agent.resources.llm.records({"session_id": r.session_id, "turn": 1})
    assert [rec.stage for rec in records] == ["generate"] and records[0].ok


@pytest.mark.parametrize(
    "failure",
    [
        ProviderTimeout("timed out"),
        ProviderError("HTTP 500: The server had an error"),
        ProviderError("HTTP 429: rate limited (after 3 attempt(s))"),
        "{not json",
        {"unexpected": "shape"},
    ],
)
def test_turn_completes_when_every_stage_fails(
    base: dict[str, Any], agents: list[Agent], failure: Any
) -> None:
    def broken(call: FakeCall) -> Any:
        if call.stage == "generate" and isinstance(failure, str | dict):
            return Chunks(["스시 ", "맛집은 ", ProviderError("stream broke")])
        return failure

    fake = FakeLLM(function=broken)
    agent = make_agent(
        base, MIDDLE, fake, stages=("understand", "decide", "plan", "grade", "generate"), budget=10
    )
    agents.append(agent)
    offline = make_agent(base, MIDDLE, None)
    agents.append(offline)
    r = agent.ask("마포 갈비 맛집")
    expected = offline.ask("마포 갈비 맛집")
    assert r.answer == expected.answer and r.answer
    assert r.grade is not None and r.grade.reason == expected.grade.reason  # type: ignore[union-attr]
    assert {c.stage for c in fake.calls} >= {"plan", "grade", "generate"}
    assert r.trace[-1].node == "generate"


def test_budget_exhaustion_falls_back(base: dict[str, Any], agents: list[Agent]) -> None:
    fake = FakeLLM(function=friendly)
    agent = make_agent(base, MIDDLE, fake, budget=1)
    agents.append(agent)
    r = agent.ask("마포 갈비 맛집")
    assert [c.stage for c in fake.calls] == ["generate"]  # the one call is kept for the answer
    assert r.answer.startswith("안녕하세요") and r.grade is not None and "LLM" not in r.grade.reason


def test_trace_carries_llm_calls(base: dict[str, Any], agents: list[Agent]) -> None:
    """Needs the node-wrapper seam (``collect_node_calls`` in ``matjip.agent.graph.traced``)."""
    from matjip.agent import graph

    if "collect_node_calls" not in inspect.getsource(graph):
        pytest.skip("the agent's node wrapper does not collect LLM calls yet (see the seam notes)")
    fake = FakeLLM(function=friendly)
    agent = make_agent(base, MIDDLE, fake)
    agents.append(agent)
    r = agent.ask("마포 갈비 맛집")
    usage = turn_usage(r)
    assert usage.calls == 2 and usage.by_stage == {"grade": 1, "generate": 1}
    assert usage.by_node == {"evaluate_relevance": 1, "generate": 1}
    assert usage.input_tokens > 0 and usage.cost_usd is None  # the fake model has no price
    script = Script(tfake.search_reply("수원역 설렁탕", [tfake.IMUN]))
    web = TavilyClient("tvly-test", transport=script.transport(), timeout_s=0.5)
    agent = make_agent(base, MIDDLE, FakeLLM(function=default_reply), web=web)
    agents.append(agent)
    usage = turn_usage(agent.ask("수원역 설렁탕"))
    assert usage.web_calls == 1 and usage.by_stage == {"generate": 1}


def test_streamed_answer_with_reset(base: dict[str, Any], agents: list[Agent]) -> None:
    """Needs the streaming seam (``generate_stream`` in the generate node, event ``answer_reset``)."""
    from matjip.agent.nodes import generate as gen_node

    if "generate_stream" not in inspect.getsource(gen_node):
        pytest.skip("the generate node does not stream LLM answers yet (see the seam notes)")

    def late_hallucination(call: FakeCall) -> Any:
        if call.stage == "generate":
            return Chunks(["**1. 멘야 하카타**\n", "돈코츠라멘이 유명해요.\n", "라 스텔라도 ", "가까워요.\n"])
        return default_reply(call)

    agent = make_agent(base, CONFIDENT, FakeLLM(function=late_hallucination))
    agents.append(agent)
    events = list(agent.stream("홍대 라멘"))
    kinds: list[str] = [e.event for e in events]
    assert "answer_reset" in kinds
    cut = kinds.index("answer_reset")
    before = "".join(e.data for e in events[:cut] if e.event == "answer")
    after = "".join(e.data for e in events[cut + 1 :] if e.event == "answer")
    assert before == "**1. 멘야 하카타**\n돈코츠라멘이 유명해요.\n"
    assert "라 스텔라" not in before + after
    final = events[-1].data
    assert final["answer"] == after  # the template answer, streamed after the reset

    agent = make_agent(base, CONFIDENT, FakeLLM(function=friendly))
    agents.append(agent)
    events = list(agent.stream("홍대 라멘"))
    streamed = "".join(e.data for e in events if e.event == "answer")
    assert "answer_reset" not in [e.event for e in events]
    assert streamed == events[-1].data["answer"] and streamed.startswith("안녕하세요!")


def test_llm_nlu_and_need_search_in_the_graph(base: dict[str, Any], agents: list[Agent]) -> None:
    """Needs the understand / need_search seams (``res.llm.understand`` and ``res.llm.decide``)."""
    from matjip.agent.nodes import understand as und

    source = inspect.getsource(und)
    if "llm.understand" not in source or "llm.decide" not in source:
        pytest.skip("the understand / need_search nodes do not call the LLM stages yet (see the seam notes)")

    def fn(call: FakeCall) -> Any:
        if call.stage == "nlu":
            return {"intent": "search", "entities": {"location": ["홍대", "가짜동네"], "menu": ["라멘"]}}
        if call.stage == "need_search":
            return {"need_search": False, "reason": "앞에서 찾은 식당에 대한 질문"}
        return default_reply(call)

    fake = FakeLLM(function=fn)
    agent = make_agent(base, CONFIDENT, fake, stages=("understand", "decide", "generate"))
    agents.append(agent)
    r1 = agent.ask("홍대 쪽 따뜻한 국물 요리")
    assert r1.plan is not None and "라멘" in r1.plan.menu  # added by the LLM, grounded
    assert "가짜동네" not in (r1.nlu.get("entities") or {}).get("location", [])  # not in the gazetteer
    r2 = agent.ask("포장도 돼?", session_id=r1.session_id)  # about the results, but which?
    assert "need_search" in [c.stage for c in fake.calls]
    assert any(t.node == "need_search" and t.decision.startswith("llm:") for t in r2.trace)
    assert r2.searched is False
    # a follow-up the offline reading settles costs no LLM call beyond the answer (issue 11)
    before = len(fake.calls)
    r3 = agent.ask("첫번째 집 몇시까지 해?", session_id=r1.session_id)
    assert r3.searched is False and r3.decision == "context"
    assert [c.stage for c in fake.calls[before:]] == ["generate"]


def test_web_fallback_feeds_generation(base: dict[str, Any], agents: list[Agent]) -> None:
    script = Script(tfake.search_reply("수원역 설렁탕", [tfake.IMUN]))
    web = TavilyClient("tvly-test", transport=script.transport(), timeout_s=0.5)
    fake = FakeLLM(function=default_reply)
    agent = make_agent(base, MIDDLE, fake, web=web)
    agents.append(agent)
    r = agent.ask("수원역 설렁탕")  # nothing near 수원역 in the synthetic index, even relaxed
    assert [w.title for w in r.web_sources] == [tfake.IMUN["title"]]
    assert script.seen[0].json()["query"] == "수원역 설렁탕"
    [gen] = fake.calls_for("generate")
    assert f"문서 제목: {tfake.IMUN['title']}" in gen.prompt and "웹 검색 결과입니다" in gen.prompt
    assert tfake.IMUN["title"] in r.answer


def test_web_failure_still_answers(base: dict[str, Any], agents: list[Agent]) -> None:
    script = Script(Reply(status=500, body={"detail": {"error": "Internal Server Error"}}))
    web = TavilyClient("tvly-test", transport=script.transport(), timeout_s=0.5)
    agent = make_agent(base, MIDDLE, FakeLLM(function=default_reply), web=web)
    agents.append(agent)
    r = agent.ask("수원역 설렁탕")
    assert r.web_sources == [] and r.answer
    assert any(t.node == "web_search" and "failed" in t.decision for t in r.trace)


def test_agent_loads_the_fake_provider_from_settings(sample_settings: Settings) -> None:
    """The real loader (``load_resources``) with ``MATJIP_LLM_PROVIDER=fake`` over the ingested sample."""
    settings = sample_settings.model_copy(update={"llm_provider": "fake"})
    agent = Agent(settings, persist=False)
    try:
        stages = agent.resources.llm
        assert isinstance(stages, LLMStages) and stages.grades and stages.generates and not stages.plans
        stages.bind(agent.resources)  # idempotent; load_resources does it once the seam is in
        for i, q in enumerate(["강남역 국밥", "홍대 회식하기 좋은 삼겹살집", "마포 진대감 주차되나요?"]):
            r = agent.ask(q, session_id=f"s{i}")
            assert r.answer
            calls = stages.records({"session_id": r.session_id, "turn": 1})
            assert len(calls) <= 2 and all(c.provider == "fake" for c in calls)
            tier = r.grade.tier if r.grade else None
            assert [c.stage for c in calls if c.stage == "grade"] == (["grade"] if tier == "grader" else [])
    finally:
        agent.close()


WEAK = AgentConfig(top1_threshold=1.01, mean_threshold=1.01, high_threshold=1.01)  # every score is weak


def test_weak_results_get_a_caveat_and_the_web_fallback(base: dict[str, Any], agents: list[Agent]) -> None:
    """Seed 001's tiers have consequences: an "insufficient" result set that the grader still
    accepts is answered with a caveat, and the configured web provider is asked too."""
    script = Script(tfake.search_reply("홍대 라멘", [tfake.IMUN]))
    web = TavilyClient("tvly-test", transport=script.transport(), timeout_s=0.5)
    agent = make_agent(base, WEAK, None, web=web)
    agents.append(agent)
    r = agent.ask("홍대 라멘")
    assert r.grade is not None and r.grade.tier == "insufficient" and r.cards
    assert "웹 검색" in r.grade.reason  # the sufficiency reason says which consequence applied
    assert [w.title for w in r.web_sources] == [tfake.IMUN["title"]]
    assert "확신하기 어려워요" in r.answer and tfake.IMUN["title"] in r.answer
