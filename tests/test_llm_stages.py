"""LLM stages: validation of meaning, grounding, merge with the offline result, and the fallback
of every stage on any failure (with the reason in the trace notes)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from fakes import openai as ofake
from fakes.http import Reply, Script
from matjip.agent.configuration import Resources
from matjip.agent.models import PlanLocation, SearchPlan, Shown
from matjip.agent.stages import LLMStages
from matjip.agent.stages.fakes import default_reply
from matjip.documents import MenuItem, Restaurant
from matjip.errors import ProviderError, ProviderTimeout
from matjip.ingest.summary import build_summary
from matjip.nlu.models import Entities, NLUResult
from matjip.providers.base import RetryPolicy
from matjip.providers.fake import Chunks, FakeCall, FakeLLM
from matjip.providers.openai_compat import OpenAICompatClient
from support.index import resources_over, scratch_index_dir

GANGNAM = (37.497952, 127.027619)


def restaurant(pid: str, title: str, cuisine: str, menus: list[tuple[str, int]], **kw: Any) -> Restaurant:
    r = Restaurant(
        place_id=pid,
        title=title,
        cuisine=cuisine,
        category=f"{cuisine}>기타",
        address="서울특별시 강남구 역삼동 123-45",
        roadAddress="서울특별시 강남구 강남대로 456",
        lat=GANGNAM[0] + 0.002,
        lon=GANGNAM[1],
        menus=[MenuItem(name=n, price=p, price_text=f"{p:,}원") for n, p in menus],
        **kw,
    )
    r.summary = build_summary(r)
    return r


DOCS = {
    "101": restaurant(
        "101",
        "스시젠 강남점",
        "일식",
        [("오마카세", 80000), ("연어사시미", 25000)],
        convenience=["주차", "예약"],
    ),
    "102": restaurant(
        "102", "도쿄스시 강남본점", "일식", [("특선초밥세트", 45000), ("회덮밥", 22000)], convenience=["주차"]
    ),
    "103": restaurant("103", "진대감 역삼점", "한식", [("한우차돌삼합", 29000)], convenience=["주차"]),
}
OTHER_TITLES = ["진대감 마포점", "스시젠 역삼점", "버거킹 강남역점", "맥도날드 강남점"]


def other_docs() -> list[Restaurant]:
    """Documents the vocabulary knows and the index does not (other branches, other brands)."""
    return [restaurant(f"9{i}", title, "한식", []) for i, title in enumerate(OTHER_TITLES)]


@cache
def index_dir() -> Path:
    return scratch_index_dir(list(DOCS.values()))


def resources() -> Resources:
    """The agent's real resources: an index of ``DOCS``, the real gazetteer, the offline NLU with
    the vocabulary of ``DOCS`` and ``other_docs()``; a few cuisines and conveniences."""
    return resources_over(
        index_dir(),
        [*DOCS.values(), *other_docs()],
        cuisines=frozenset({"한식", "일식", "중식", "양식"}),
        conveniences=frozenset({"주차", "예약", "포장", "배달", "룸"}),
    )


def stages(
    fake: Any,
    *,
    budget: int = 4,
    which: Iterable[str] = ("understand", "decide", "plan", "grade", "generate"),
) -> LLMStages:
    return LLMStages(fake, stages=which, budget=budget).bind(resources())


def state(**kw: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "session_id": "s1",
        "turn": 1,
        "query": "강남역 주차되는 일식집",
        "now": "2025-01-06T12:00:00+09:00",
        "decision": "search",
        "hits": [
            {"id": "101", "score": 0.7, "distance_m": 350.0, "origin": "강남역"},
            {"id": "102", "score": 0.68, "distance_m": 820.0, "origin": "강남역"},
        ],
        "messages": [{"role": "user", "content": "강남역 주차되는 일식집"}],
    }
    base.update(kw)
    return base


def plan(**kw: Any) -> SearchPlan:
    base: dict[str, Any] = {
        "intent": "search",
        "strategy": "radius",
        "location": PlanLocation(name="강남역", lat=GANGNAM[0], lon=GANGNAM[1], radius_m=1000),
        "cuisine": ["일식"],
        "convenience": ["주차"],
    }
    base.update(kw)
    return SearchPlan(**base)


def shown(*pids: str) -> list[Shown]:
    return [Shown(doc=DOCS[p], distance_m=350.0, score=0.7) for p in pids]


# --- NLU ------------------------------------------------------------------------------------------


def offline_nlu() -> NLUResult:
    return NLUResult(
        intent="search", entities=Entities(location=["강남역"], category=["일식"]), confidence=0.6
    )


def test_nlu_is_grounded_and_merged() -> None:
    fake = FakeLLM(
        script={
            "nlu": {
                "intent": "search",
                "entities": {
                    "location": ["강남역", "아틀란티스"],
                    "title": ["스시젠", "존재하지않는집"],
                    "menu": ["초밥"],
                    "category": ["일식", "일식집"],
                    "convenience": ["주차", "주차가능"],
                    "atmosphere": ["조용한"],
                },
            }
        }
    )
    st = stages(fake)
    out = st.understand(state(), "강남역 주차되는 조용한 일식집", offline_nlu())
    e = out.entities
    assert e.location == ["강남역"] and e.title == ["스시젠"] and e.menu == ["초밥"]
    assert e.category == ["일식"] and e.convenience == ["주차"] and e.atmosphere == ["조용한"]
    assert out.price is None and out.confidence == 0.6  # offline slots are kept
    notes = st.drain(state())["notes"]
    assert any("dropped ungrounded" in n and "아틀란티스" in n and "존재하지않는집" in n for n in notes)
    assert fake.calls[0].messages[0]["role"] == "system"
    assert (
        "버거킹과 맥도날드 중 어디가 더 맛있어?" in fake.calls[0].messages[0]["content"]
    )  # the seed's few-shot


def test_nlu_intent_needs_its_entities() -> None:
    fake = FakeLLM(
        script={
            "nlu": [
                {"intent": "compare", "entities": {"title": ["버거킹", "맥도날드"]}},
                {"intent": "compare", "entities": {"title": ["버거킹"]}},
            ]
        }
    )
    st = stages(fake)
    assert st.understand(state(), "버거킹과 맥도날드 비교", NLUResult()).intent == "compare"
    one = st.understand(state(turn=2), "버거킹 비교", NLUResult())
    assert one.intent == "search" and one.entities.title == ["버거킹"]
    assert any("intent 'compare' ignored" in n for n in st.drain(state(turn=2))["notes"])


@pytest.mark.parametrize(
    "reply",
    [
        '{"intent": "search", "entities": ',
        {"intent": "chitchat"},
        ProviderTimeout("slow"),
        ProviderError("HTTP 500"),
    ],
)
def test_nlu_falls_back_to_offline(reply: Any) -> None:
    st = stages(FakeLLM(script={"nlu": reply}))
    off = offline_nlu()
    assert st.understand(state(), "강남역 일식", off) is off
    drained = st.drain(state())
    assert drained["calls"][0]["ok"] is False
    assert any(n.startswith("nlu: kept the offline NLU") for n in drained["notes"])


# --- need-search ----------------------------------------------------------------------------------


def test_need_search_decision() -> None:
    fake = FakeLLM(
        script={
            "need_search": [
                {"need_search": False, "reason": "기존 결과의 식당을 물음"},
                {"need_search": False},
            ]
        }
    )
    st = stages(fake)
    ctx = [{"id": "101", "score": 0.7}]
    got = st.decide(state(context=ctx, query="거기 주차돼?"), offline_search=True)
    assert got == {"need_search": False, "reason": "기존 결과의 식당을 물음"}
    prompt = fake.calls[0].prompt
    assert "스시젠 강남점" in prompt and "1차 판단: 검색 필요" in prompt
    assert st.decide(state(turn=2, context=[]), offline_search=True) is None  # nothing to answer from
    assert any("no results yet" in n for n in st.drain(state(turn=2))["notes"])


# --- grading --------------------------------------------------------------------------------------


def test_grade_one_batched_call() -> None:
    fake = FakeLLM(
        script={
            "grade": {
                "overall_relevance": "relevant",
                "reason": "두 곳 모두 강남역 근처 일식집",
                "document_scores": [
                    {"document_id": "101", "relevance": "relevant", "reason": "주차 가능 일식"},
                    {"document_id": "102", "relevance": "irrelevant", "reason": "분위기가 다름"},
                ],
            }
        }
    )
    st = stages(fake)
    g = st.grade(state(), shown("101", "102"), plan())
    assert g is not None and g.overall_relevance == "relevant" and g.tier == "grader"
    assert [(d.document_id, d.relevance) for d in g.document_scores] == [
        ("101", "relevant"),
        ("102", "irrelevant"),
    ]
    assert len(fake.calls) == 1
    prompt = fake.calls[0].prompt
    assert '{"document_id": "101", "text": ' in prompt and '{"document_id": "102", "text": ' in prompt
    assert "반경 1000m" in prompt


def test_grade_rejects_ids_that_were_not_shown() -> None:
    st = stages(
        FakeLLM(
            script={
                "grade": {
                    "overall_relevance": "relevant",
                    "reason": "",
                    "document_scores": [{"document_id": "999", "relevance": "relevant", "reason": "?"}],
                }
            }
        )
    )
    assert st.grade(state(), shown("101"), plan()) is None
    assert any("not one of the shown documents" in n for n in st.drain(state())["notes"])


def test_grade_never_overrides_hard_constraints_and_fills_gaps() -> None:
    st = stages(
        FakeLLM(
            script={
                "grade": {
                    "overall_relevance": "relevant",
                    "reason": "ok",
                    "document_scores": [
                        {"document_id": "1", "relevance": "relevant", "reason": "ordinal id"},
                        {"document_id": "문서3", "relevance": "relevant", "reason": "한식이지만 좋아요"},
                    ],
                }
            }
        )
    )
    g = st.grade(state(), shown("101", "102", "103"), plan())
    assert g is not None
    by_id = {d.document_id: d for d in g.document_scores}
    assert by_id["101"].relevance == "relevant"
    assert by_id["102"].reason.startswith("LLM 평가 누락")  # offline verdict for the missing one
    assert by_id["103"].relevance == "irrelevant" and "조건 위반" in by_id["103"].reason  # 한식 ≠ 일식


def test_grade_overall_irrelevant_keeps_nothing() -> None:
    st = stages(
        FakeLLM(
            script={
                "grade": {
                    "overall_relevance": "irrelevant",
                    "reason": "없음",
                    "document_scores": [{"document_id": "101", "relevance": "relevant", "reason": "?"}],
                }
            }
        )
    )
    g = st.grade(state(), shown("101"), plan())
    assert g is not None and g.overall_relevance == "irrelevant"
    assert all(d.relevance == "irrelevant" for d in g.document_scores)


def grade_body(ids: list[str]) -> dict[str, Any]:
    return {
        "overall_relevance": "relevant",
        "reason": "조건 충족",
        "document_scores": [{"document_id": i, "relevance": "relevant", "reason": "ok"} for i in ids],
    }


def http_stages(*replies: Reply, max_retries: int = 2) -> tuple[LLMStages, Script]:
    script = Script(*replies)
    client = OpenAICompatClient(
        model="gpt-4o-mini",
        api_key="sk-test",
        timeout_s=0.5,
        retry=RetryPolicy(max_retries=max_retries, base_s=0.0, sleep=lambda s: None),
        transport=script.transport(),
    )
    return stages(client), script


def test_grade_over_http_429_then_success_and_500_fallback() -> None:
    st, script = http_stages(
        ofake.error_reply(429, "rate", retry_after="0"), ofake.json_reply(grade_body(["101"]))
    )
    g = st.grade(state(), shown("101"), plan())
    assert g is not None and g.document_scores[0].relevance == "relevant" and len(script.seen) == 2
    calls = st.drain(state())["calls"]
    assert len(calls) == 1 and calls[0]["attempts"] == 2 and calls[0]["cost_usd"] is not None
    st, script = http_stages(ofake.error_reply(500, "boom"), max_retries=1)
    assert st.grade(state(), shown("101"), plan()) is None
    drained = st.drain(state())
    assert drained["calls"][0]["ok"] is False and any("offline grader" in n for n in drained["notes"])


# --- plan (seed 004) ------------------------------------------------------------------------------

OFFLINE_RAW: dict[str, Any] = {
    "intent": "search",
    "location": {
        "name": "강남역",
        "lat": GANGNAM[0],
        "lon": GANGNAM[1],
        "radius_m": 1000,
        "mode": "near",
        "region_terms": [],
    },
    "titles": [],
    "cuisine": ["일식"],
    "menu": [],
    "convenience": ["주차"],
    "atmosphere": [],
    "occasion": [],
    "semantic": "",
    "price_min": None,
    "price_max": None,
    "open_at": None,
    "open_label": None,
    "k": 3,
    "per_title_k": 2,
    "sort": "relevance",
}
LLM_PLAN = {
    "intent": "search",
    "cuisine": ["일식"],
    "convenience": ["주차"],
    "atmosphere": ["조용한"],
    "k": 5,
    "sort": "distance",
}


def test_plan_written_by_the_llm_keeps_server_fields() -> None:
    fake = FakeLLM(script={"plan": LLM_PLAN})
    raw, notes = stages(fake).write_plan(state(), OFFLINE_RAW)
    assert raw is not None
    assert raw["location"] == OFFLINE_RAW["location"] and raw["per_title_k"] == 2
    assert raw["k"] == 5 and raw["sort"] == "distance" and raw["atmosphere"] == ["조용한"]
    assert notes == ["plan written by the LLM"] and len(fake.calls) == 1
    assert '"cuisine": ["일식"]' in fake.calls[0].prompt  # the default plan is shown


def test_plan_retries_once_with_the_validation_error() -> None:
    fake = FakeLLM(script={"plan": ['{"intent": "search", "k": ', LLM_PLAN]})
    raw, notes = stages(fake).write_plan(state(), OFFLINE_RAW)
    assert raw is not None and len(fake.calls) == 2
    retry_msgs = fake.calls[1].messages
    assert retry_msgs[-2] == {"role": "assistant", "content": '{"intent": "search", "k": '}
    assert "invalid JSON" in retry_msgs[-1]["content"] and retry_msgs[-1]["role"] == "user"
    assert "retrying once" in notes[0]


def test_plan_semantic_rejects_are_fed_back() -> None:
    fake = FakeLLM(script={"plan": [{**LLM_PLAN, "intent": "recommend", "cuisine": ["스시"]}, LLM_PLAN]})
    raw, _ = stages(fake).write_plan(state(), OFFLINE_RAW)
    assert raw is not None and len(fake.calls) == 2
    feedback = fake.calls[1].messages[-1]["content"]
    assert "intent='recommend' unknown" in feedback and "'스시' dropped" in feedback


def test_plan_falls_back_after_the_second_failure() -> None:
    bad = {**LLM_PLAN, "location": {"lat": 0, "lon": 0}}  # the model may not place the search
    fake = FakeLLM(script={"plan": [bad, bad]})
    st = stages(fake)
    raw, notes = st.write_plan(state(), OFFLINE_RAW)
    assert raw is None and len(fake.calls) == 2
    assert "using the offline plan" in notes[-1]
    assert any("using the offline plan" in n for n in st.drain(state())["notes"])


def test_plan_clamps_without_retry_and_drops_invented_titles() -> None:
    fake = FakeLLM(
        script={"plan": {**LLM_PLAN, "k": 50, "intent": "information", "titles": ["가짜식당", "스시젠"]}}
    )
    raw, notes = stages(fake).write_plan(state(query="강남역 스시젠 영업시간"), OFFLINE_RAW)
    assert raw is not None and len(fake.calls) == 1
    assert raw["titles"] == ["스시젠"] and raw["k"] == 50  # the node's validate_plan clamps k to 10
    assert "가짜식당" in notes[0]


def test_plan_timeout_is_not_retried() -> None:
    fake = FakeLLM(script={"plan": ProviderTimeout("slow")})
    raw, notes = stages(fake).write_plan(state(), OFFLINE_RAW)
    assert raw is None and len(fake.calls) == 1 and "unavailable" in notes[0]


# --- generation -----------------------------------------------------------------------------------

TEMPLATE = "강남역 근처 주차 가능한 일식 2곳을 찾았어요.\n\n**1. 스시젠 강남점** (일식 · 강남역에서 350m)\n"


def test_generate_streams_a_grounded_answer() -> None:
    answer = Chunks(
        ["**1. 스시젠 ", "강남점**\n- 오마카세(80,000원), 강남역에서 350m예요.\n", "주차도 돼요."]
    )
    fake = FakeLLM(script={"generate": answer})
    st = stages(fake)
    gen = st.generate_stream(state(), TEMPLATE)
    events = list(gen)
    assert [k for k, _ in events] == ["delta", "delta", "delta"]
    assert gen.text == "**1. 스시젠 강남점**\n- 오마카세(80,000원), 강남역에서 350m예요.\n주차도 돼요."
    user = fake.calls[0].messages[1]["content"]
    assert (
        fake.calls[0]
        .messages[0]["content"]
        .startswith("당신은 한국의 식당 정보를 제공하는 전문 AI 어시스턴트입니다.")
    )
    assert (
        "사용자 요청: 강남역 주차되는 일식집" in user
        and 'context:\n<documents>\n"문서1:\\n식당 이름: 스시젠 강남점' in user
    )
    assert "거리: 강남역에서 350m" in user and "\n<초안>\n" in user
    calls = st.drain(state())["calls"]
    assert len(calls) == 1 and calls[0]["stage"] == "generate" and calls[0]["ok"]


def test_generate_catches_a_hallucinated_restaurant_and_resets() -> None:
    answer = Chunks(
        ["**1. 스시젠 강남점**\n", "오마카세가 유명해요.\n", "**2. 진대감 마포점**\n", "한우 맛집이에요.\n"]
    )
    st = stages(FakeLLM(script={"generate": answer}))
    gen = st.generate_stream(state(), TEMPLATE)
    events = list(gen)
    assert events[:2] == [("delta", "**1. 스시젠 강남점**\n"), ("delta", "오마카세가 유명해요.\n")]
    assert events[-1][0] == "reset" and "진대감" in events[-1][1]
    assert not any("진대감" in text for kind, text in events if kind == "delta")
    assert gen.text is None
    assert any("ungrounded answer" in n for n in st.drain(state())["notes"])


def test_generate_non_streaming_returns_none_when_ungrounded() -> None:
    st = stages(FakeLLM(script={"generate": "스시젠 역삼점도 가까워요. 오마카세는 9만원이에요."}))
    assert st.generate(state(), TEMPLATE) is None
    st = stages(
        FakeLLM(function=default_reply)
    )  # default fake: streams the offline draft back, which is grounded
    assert st.generate(state(), TEMPLATE) == TEMPLATE.strip()


def test_generate_provider_failure_mid_stream_resets() -> None:
    st = stages(
        FakeLLM(
            script={"generate": Chunks(["스시젠 강남점을 추천해요.\n", ProviderError("connection reset")])}
        )
    )
    events = list(st.generate_stream(state(), TEMPLATE))
    assert events[0] == ("delta", "스시젠 강남점을 추천해요.\n") and events[-1][0] == "reset"
    st = stages(FakeLLM(script={"generate": ProviderTimeout("slow")}))
    gen = st.generate_stream(state(), TEMPLATE)
    assert list(gen) == [] and gen.text is None and "ProviderTimeout" in (gen.reason or "")


def test_generate_without_documents_makes_no_call() -> None:
    fake = FakeLLM(function=default_reply)
    st = stages(fake)
    assert st.generate(state(hits=[]), "조건에 맞는 식당을 찾지 못했어요.") is None
    assert fake.calls == []


def test_generate_with_web_sources() -> None:
    web = [
        {
            "title": "종각역 이문설렁탕 - Naver Blog",
            "content": "종각역 3-1번 출구로 나와 3분거리.",
            "url": "https://x",
        }
    ]
    fake = FakeLLM(
        script={"generate": "웹 검색 결과에 따르면 종각역 3-1번 출구에서 3분 거리라고 해요 (웹 출처)."}
    )
    st = stages(fake)
    gen_text = st.generate(
        state(hits=[], web_sources=web, query="종각 설렁탕"), "웹 검색 결과를 알려 드려요."
    )
    assert gen_text is not None
    user = fake.calls[0].messages[1]["content"]
    assert '"문서1:\\n문서 제목: 종각역 이문설렁탕 - Naver Blog\\n문서 내용: 종각역 3-1번' in user  # as data
    assert "웹 검색 결과입니다" in fake.calls[0].messages[0]["content"]


# --- budget and bookkeeping ----------------------------------------------------------------------


def test_budget_per_turn_falls_back_offline() -> None:
    fake = FakeLLM(function=default_reply)
    st = stages(fake, budget=2)
    assert st.grade(state(), shown("101"), plan()) is not None
    assert st.grade(state(), shown("101"), plan()) is None  # graded once per turn
    assert st.generate(state(), TEMPLATE) is not None
    assert st.generate(state(), TEMPLATE) is None  # budget spent: template answer
    assert [c.stage for c in fake.calls] == ["grade", "generate"]
    notes = st.drain(state())["notes"]
    assert any("once per turn" in n for n in notes) and any("budget" in n for n in notes)
    assert st.generate(state(turn=2), TEMPLATE) is not None  # a new turn has a new budget
    assert st.generate(state(session_id="other"), TEMPLATE) is not None  # and so has another session


def test_earlier_stages_leave_a_call_for_generation() -> None:
    fake = FakeLLM(function=default_reply)
    st = stages(fake, budget=1)
    assert st.grade(state(), shown("101"), plan()) is None  # the only call is kept for the answer
    assert st.generate(state(), TEMPLATE) is not None
    assert [c.stage for c in fake.calls] == ["generate"]
    st = stages(
        FakeLLM(function=default_reply), budget=1, which=("grade",)
    )  # without generation nothing is kept back
    assert st.grade(state(), shown("101"), plan()) is not None


def test_drain_empties_and_records_keep_everything() -> None:
    st = stages(FakeLLM(function=default_reply))
    st.grade(state(), shown("101"), plan())
    first = st.drain(state())
    assert len(first["calls"]) == 1 and st.drain(state()) == {"calls": [], "notes": []}
    assert [r.stage for r in st.records(state())] == ["grade"]


def test_fake_function_sees_the_prompt() -> None:
    seen: list[FakeCall] = []

    def fn(call: FakeCall) -> Any:
        seen.append(call)
        return {"need_search": True, "reason": "새 지역"}

    st = stages(FakeLLM(function=fn))
    assert st.decide(state(context=[{"id": "101"}], query="홍대는?"), offline_search=False) == {
        "need_search": True,
        "reason": "새 지역",
    }
    assert "1차 판단: 검색 불필요" in seen[0].prompt


def test_an_llm_plan_chooses_the_strategy_the_server_supplies_its_fields() -> None:
    """Issue 14: the LLM may pick a strategy; the route, minutes and stops are the server's."""
    from matjip.agent.plan import validate_plan

    offline = {
        **OFFLINE_RAW,
        "strategy": "point_travel",
        "travel": {"minutes": 10, "mode": "walk", "estimate_mode": "walk", "threshold_m": 670},
    }
    fake = FakeLLM(script={"plan": {**LLM_PLAN, "strategy": "point_travel"}})
    raw, _ = stages(fake).write_plan(state(query="강남역에서 걸어서 10분 일식"), offline)
    assert raw is not None and raw["strategy"] == "point_travel" and raw["travel"] == offline["travel"]
    plan, _ = validate_plan(raw)
    assert plan.strategy == "point_travel" and plan.travel is not None and plan.travel.minutes == 10
    # a strategy the server cannot run (no route was read off the question) falls back, said in the notes
    fake = FakeLLM(script={"plan": {**LLM_PLAN, "strategy": "route"}})
    raw, _ = stages(fake).write_plan(state(), OFFLINE_RAW)
    assert raw is not None
    plan, notes = validate_plan(raw)
    assert plan.strategy == "radius" and plan.route is None and any("strategy route" in n for n in notes)
