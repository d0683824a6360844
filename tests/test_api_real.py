"""HTTP API tests against the real offline agent over the ingested sample, plus the official
``openai`` client talking to a running ``matjip serve``."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from matjip.api import create_app
from matjip.settings import Settings

JSON = {"Accept": "application/json"}


def parse_sse(text: str) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    for frame in text.split("\n\n"):
        event, data = "message", []
        for line in frame.split("\n"):
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: "):
                data.append(line[6:])
        if data:
            raw = "\n".join(data)
            out.append((event, raw if raw == "[DONE]" else json.loads(raw)))
    return out


def check_order(names: list[str]) -> None:
    """session first, end last, plan < results < answer… < trace, answers contiguous."""
    assert names[0] == "session" and names[-1] == "end", names
    assert "error" not in names, names
    answers = [i for i, n in enumerate(names) if n == "answer"]
    assert answers and answers == list(range(answers[0], answers[-1] + 1)), names
    assert names.index("trace") == answers[-1] + 1 and names[-2] == "trace", names
    for earlier in ("plan", "results", "clarification"):
        if earlier in names:
            assert max(i for i, n in enumerate(names) if n == earlier) < answers[0], names
    if "plan" in names and "results" in names:
        assert names.index("plan") < names.index("results")


@pytest.fixture(scope="module")
def real_client(sample_settings: Settings, sample_agent: Any) -> Iterator[TestClient]:
    settings = sample_settings.model_copy(update={"rate_limit_per_minute": 0})
    with TestClient(create_app(settings, agent=sample_agent)) as client:
        yield client


@pytest.mark.parametrize("question", ["강남역 일식 맛집", "홍대 근처 주차되는 고기집", "양평 맛집", "안녕"])
def test_streamed_chunks_equal_the_json_answer(real_client: TestClient, question: str) -> None:
    events = parse_sse(real_client.post("/v1/chat", json={"message": question}).text)
    check_order([e for e, _ in events])
    streamed = "".join(d for e, d in events if e == "answer")
    result = real_client.post("/v1/chat", json={"message": question}, headers=JSON).json()
    assert result["session_id"] != dict(events)["session"]["session_id"]
    assert streamed == result["answer"] and streamed.strip()


@pytest.fixture(scope="module")
def llm_client(sample_settings: Settings) -> Iterator[TestClient]:
    """The real agent with the scripted ``fake`` LLM provider: every LLM code path, no network."""
    from matjip.agent.service import Agent

    settings = sample_settings.model_copy(update={"rate_limit_per_minute": 0, "llm_provider": "fake"})
    agent = Agent(settings, persist=False)
    with TestClient(create_app(settings, agent=agent)) as client:
        yield client
    agent.close()


@pytest.mark.parametrize("question", ["강남역 일식 맛집", "홍대 고기집"])
def test_llm_answers_stream_too(llm_client: TestClient, question: str) -> None:
    events = parse_sse(llm_client.post("/v1/chat", json={"message": question}).text)
    check_order([e for e, _ in events])
    streamed = "".join(d for e, d in events if e == "answer")
    result = llm_client.post("/v1/chat", json={"message": question}, headers=JSON).json()
    assert streamed == result["answer"] and streamed.strip()
    assert result["trace"][-1]["decision"].endswith("(llm)")


def test_results_cards_have_the_documented_fields(real_client: TestClient) -> None:
    events = dict(parse_sse(real_client.post("/v1/chat", json={"message": "강남역 일식 맛집"}).text))
    cards = events["results"]
    assert cards, "the sample has Japanese restaurants near Gangnam station"
    for card in cards:
        assert card["cuisine"] == "일식"
        assert card["distance_m"] is not None and card["lat"] and card["lon"]
        assert isinstance(card["matched"], list) and isinstance(card["menus"], list)
        assert "hours_today" in card
        for m in card["menus"]:
            assert set(m) == {"name", "price"}
    assert events["plan"]["cuisine"] == ["일식"]
    assert events["trace"][0]["node"] == "query_input"


def test_clarification_and_choice(real_client: TestClient) -> None:
    first = dict(parse_sse(real_client.post("/v1/chat", json={"message": "양평 맛집"}).text))
    sid = first["session"]["session_id"]
    choices = first["clarification"]["choices"]
    seoul = next(c for c in choices if "5호선" in c["label"])
    assert any("경의중앙선" in c["label"] for c in choices)
    follow = dict(
        parse_sse(real_client.post("/v1/chat", json={"message": seoul["label"], "session_id": sid}).text)
    )
    assert follow["plan"]["location"]["lat"] == pytest.approx(seoul["lat"], abs=0.01)
    assert follow["plan"]["location"]["lon"] == pytest.approx(seoul["lon"], abs=0.01)


def test_gps_location(real_client: TestClient) -> None:
    body = {"message": "내 근처 맛집", "location": {"lat": 37.5571, "lon": 126.9245}}
    plan = dict(parse_sse(real_client.post("/v1/chat", json=body).text))["plan"]
    assert plan["location"]["lat"] == pytest.approx(37.5571)


def test_parallel_sessions_do_not_share_context(real_client: TestClient) -> None:
    """Two conversations in parallel threads; each follow-up refers to its own first result."""
    outcome: dict[str, tuple[str, str]] = {}
    errors: list[BaseException] = []
    barrier = threading.Barrier(2)

    def converse(name: str, question: str) -> None:
        try:
            barrier.wait(30)
            first = dict(parse_sse(real_client.post("/v1/chat", json={"message": question}).text))
            sid = first["session"]["session_id"]
            barrier.wait(30)
            follow = dict(
                parse_sse(
                    real_client.post(
                        "/v1/chat", json={"message": "첫 번째 가게 영업시간", "session_id": sid}
                    ).text
                )
            )
            outcome[name] = (first["results"][0]["id"], follow["results"][0]["id"])
        except BaseException as exc:
            errors.append(exc)
            barrier.abort()

    threads = [
        threading.Thread(target=converse, args=("a", "강남역 일식 맛집")),
        threading.Thread(target=converse, args=("b", "홍대 고기집")),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    (a_first, a_follow), (b_first, b_follow) = outcome["a"], outcome["b"]
    assert a_first != b_first
    assert a_follow == a_first and b_follow == b_first


def test_search_endpoint(real_client: TestClient) -> None:
    body = real_client.get("/v1/search", params={"query": "강남역 일식"}).json()
    n = body["total_count"]
    assert n == len(body["restaurants"]) > 0
    top = body["restaurants"][0]["name"]
    assert re.fullmatch(
        rf"'강남역 일식' 검색 결과 {n}건을 찾았습니다\. '{re.escape(top)}'(이|가|이\(가\)) 가장 관련도가 높습니다\(점수 \d+%\)\.",
        body["summary"],
    ), body["summary"]
    pq = body["parsed_query"]
    assert pq["intent"] == "search" and pq["filters"]["cuisine"] == ["일식"]
    assert "강남" in pq["filters"]["location"]["name"]
    assert 0 < body["top_score"] <= 1 and body["sufficiency_reason"]
    assert all(r["source_type"] == "internal" for r in body["restaurants"])
    doc = real_client.get(f"/v1/restaurants/{body['restaurants'][0]['id']}").json()
    assert doc["title"] == top and doc["cuisine"] == "일식"


def test_health_reports_the_index(real_client: TestClient, sample_agent: Any) -> None:
    body = real_client.get("/health").json()
    assert body["status"] == "ok" and body["index_loaded"] is True
    assert body["documents"] == sample_agent.resources.index.count()
    assert body["embedder"]


# --- the official openai client against `matjip serve` ---------------------------------------


@pytest.fixture(scope="module")
def oa_client(api_live_server: str) -> Any:
    openai = pytest.importorskip("openai")
    return openai.OpenAI(base_url=api_live_server + "/v1", api_key="not-needed", max_retries=0, timeout=60)


def test_openai_models(oa_client: Any) -> None:
    assert [m.id for m in oa_client.models.list()] == ["matjip-agent"]


def test_openai_chat_streaming_and_not(oa_client: Any) -> None:
    messages = [{"role": "user", "content": "강남역 일식 맛집"}]
    resp = oa_client.chat.completions.create(model="matjip-agent", messages=messages)
    assert resp.object == "chat.completion" and resp.id.startswith("chatcmpl-")
    text = resp.choices[0].message.content
    assert resp.choices[0].finish_reason == "stop" and "강남" in text
    assert resp.usage.total_tokens == resp.usage.prompt_tokens + resp.usage.completion_tokens
    stream = oa_client.chat.completions.create(
        model="matjip-agent", messages=messages, stream=True, stream_options={"include_usage": True}
    )
    parts, finish, usage = [], None, None
    for chunk in stream:
        assert chunk.object == "chat.completion.chunk"
        if chunk.usage is not None:
            usage = chunk.usage
        for choice in chunk.choices:
            parts.append(choice.delta.content or "")
            finish = choice.finish_reason or finish
    assert len([p for p in parts if p]) > 1
    assert "".join(parts) == text
    assert finish == "stop" and usage is not None and usage.completion_tokens > 0


def test_openai_conversation_continues_by_history(oa_client: Any) -> None:
    history: list[dict[str, str]] = [{"role": "user", "content": "양평 맛집"}]
    first = oa_client.chat.completions.create(model="matjip-agent", messages=history)
    answer = first.choices[0].message.content
    assert "5호선" in answer and "경의중앙선" in answer
    history += [{"role": "assistant", "content": answer}, {"role": "user", "content": "5호선 쪽이요"}]
    second = oa_client.chat.completions.create(model="matjip-agent", messages=history)
    assert "영등포" in second.choices[0].message.content or "양평" in second.choices[0].message.content
    assert "여러 곳" not in second.choices[0].message.content


def test_openai_errors(oa_client: Any) -> None:
    import openai

    with pytest.raises(openai.UnprocessableEntityError) as err:
        oa_client.chat.completions.create(
            model="matjip-agent", messages=[{"role": "user", "content": "가" * 5000}]
        )
    assert err.value.status_code == 422
    with pytest.raises(openai.NotFoundError):
        oa_client.models.retrieve("gpt-unknown")
