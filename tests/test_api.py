"""HTTP API tests against the real offline agent over a three-document index, and a scripted agent
(``fakes.agent.ScriptedAgent``) for the turns the real one cannot be made to take: failing, hanging,
resetting its answer, reciting the session's history."""

from __future__ import annotations

import json
import logging
import re
import threading
from collections.abc import AsyncIterator, Iterator
from typing import Any

import anyio
import httpx
import pytest
from fastapi.testclient import TestClient

from fakes.agent import IdleAgent, ScriptedAgent
from matjip.agent.service import Agent
from matjip.api import create_app
from matjip.api.middleware import TokenBucketLimiter
from matjip.api.routes.chat import wants_json
from matjip.api.sessions import ConversationSessions, user_session_id
from matjip.settings import Settings

PROBLEM_KEYS = {"type", "title", "status", "detail"}


def parse_sse(text: str) -> list[tuple[str, Any]]:
    """(event, data) pairs; data JSON-decoded except ``end``'s ``[DONE]``."""
    out: list[tuple[str, Any]] = []
    for frame in text.replace("\r\n", "\n").split("\n\n"):
        event, data = "message", []
        for line in frame.split("\n"):
            if not line or line.startswith(":"):
                continue
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "event":
                event = value
            elif field == "data":
                data.append(value)
        if data:
            raw = "\n".join(data)
            out.append((event, raw if raw == "[DONE]" else json.loads(raw)))
    return out


def assert_problem(resp: Any, status: int) -> dict[str, Any]:
    assert resp.status_code == status, resp.text
    assert resp.headers["content-type"].startswith("application/problem+json")
    body = resp.json()
    assert set(body) >= PROBLEM_KEYS, body
    assert body["status"] == status
    assert "Traceback" not in resp.text
    return body


@pytest.fixture
def app_client(api_settings: Settings, api_agent: Agent) -> Iterator[TestClient]:
    """The app over the real offline agent (three sushi bars near 강남역)."""
    with TestClient(create_app(api_settings, agent=api_agent)) as client:
        yield client


@pytest.fixture
def scripted_client(api_settings: Settings, api_fake_agent: ScriptedAgent) -> Iterator[TestClient]:
    """The app over the scripted agent, for turns the real agent cannot be made to take."""
    with TestClient(create_app(api_settings, agent=api_fake_agent)) as client:
        yield client


# --- /v1/chat --------------------------------------------------------------------------------


def test_chat_streams_events_in_order(app_client: TestClient) -> None:
    resp = app_client.post("/v1/chat", json={"message": "강남역 일식"})
    assert resp.status_code == 200
    assert resp.headers["content-type"].startswith("text/event-stream")
    events = parse_sse(resp.text)
    names = [e for e, _ in events]
    assert names[0] == "session"
    assert names[-1] == "end" and events[-1][1] == "[DONE]"
    assert names.index("plan") < names.index("results") < names.index("answer") < names.index("trace")
    assert names.count("answer") > 3
    first_answer = names.index("answer")
    assert set(names[first_answer : names.index("trace")]) == {"answer"}
    cards = dict(events)["results"]
    assert {"id", "name", "cuisine", "distance_m", "lat", "lon", "matched", "menus", "hours_today"} <= set(
        cards[0]
    )
    assert events[0][1]["session_id"]


def test_sse_answer_chunks_equal_json_answer(app_client: TestClient) -> None:
    streamed = parse_sse(app_client.post("/v1/chat", json={"message": "강남역 일식"}).text)
    text = "".join(d for e, d in streamed if e == "answer")
    resp = app_client.post(
        "/v1/chat", json={"message": "강남역 일식"}, headers={"Accept": "application/json"}
    )
    assert resp.status_code == 200 and resp.headers["content-type"].startswith("application/json")
    result = resp.json()
    assert result["answer"] == text
    assert result["session_id"] != dict(streamed)["session"]["session_id"]  # two fresh sessions
    assert len(result["cards"]) == 3


def test_answer_without_chunks_is_still_streamed(scripted_client: TestClient) -> None:
    events = parse_sse(scripted_client.post("/v1/chat", json={"message": "llm"}).text)
    chunks = [d for e, d in events if e == "answer"]
    end = scripted_client.post(
        "/v1/chat", json={"message": "llm"}, headers={"Accept": "application/json"}
    ).json()
    assert chunks and "".join(chunks) == end["answer"]
    names = [e for e, _ in events]
    assert names.index("answer") < names.index("trace") < names.index("end")


@pytest.mark.parametrize(
    ("accept", "expected"),
    [
        (None, False),
        ("*/*", False),
        ("text/event-stream", False),
        ("application/json", True),
        ("application/json, text/event-stream", False),
        ("text/event-stream;q=0.5, application/json", True),
        ("application/json;q=0.2, */*;q=0.9", False),
        ("text/html", False),
    ],
)
def test_accept_negotiation(accept: str | None, expected: bool) -> None:
    assert wants_json(accept) is expected


def test_clarification_then_choice(scripted_client: TestClient) -> None:
    events = parse_sse(scripted_client.post("/v1/chat", json={"message": "양평역 맛집"}).text)
    data = dict(events)
    sid = data["session"]["session_id"]
    assert [c["label"] for c in data["clarification"]["choices"]] == [
        "양평역 (5호선, 서울 영등포구)",
        "양평역 (경의중앙선, 경기 양평군)",
    ]
    assert "results" not in data
    follow = dict(parse_sse(scripted_client.post("/v1/chat", json={"message": "2", "session_id": sid}).text))
    assert follow["session"]["session_id"] == sid
    assert follow["plan"]["location"]["name"] == "양평역 (경의중앙선, 경기 양평군)"


def test_gps_location_is_passed_to_the_agent(app_client: TestClient) -> None:
    body = {"message": "내 근처 일식", "location": {"lat": 37.55, "lon": 126.92}}
    plan = dict(parse_sse(app_client.post("/v1/chat", json=body).text))["plan"]
    assert plan["location"]["name"] == "내 위치" and plan["location"]["lat"] == 37.55


# --- errors as problem details ---------------------------------------------------------------


def test_unknown_route_is_a_problem(app_client: TestClient) -> None:
    body = assert_problem(app_client.get("/v1/nope"), 404)
    assert body["instance"] == "/v1/nope"


def test_wrong_method_is_a_problem(app_client: TestClient) -> None:
    assert_problem(app_client.get("/v1/chat"), 405)


@pytest.mark.parametrize(
    "payload",
    [
        {},
        {"message": ""},
        {"message": "   "},
        {"message": 3},
        {"message": "강남", "session_id": "bad id!"},
        {"message": "강남", "location": {"lat": 99, "lon": 0}},
    ],
)
def test_invalid_chat_bodies_are_problems(app_client: TestClient, payload: dict[str, Any]) -> None:
    body = assert_problem(app_client.post("/v1/chat", json=payload), 422)
    assert "input" not in json.dumps(body.get("errors", []))


def test_malformed_json_is_a_problem(app_client: TestClient) -> None:
    resp = app_client.post("/v1/chat", content=b"{not json", headers={"Content-Type": "application/json"})
    assert_problem(resp, 422)


def test_message_length_limit(api_agent: Any, tmp_path: Any) -> None:
    settings = Settings(data_dir=tmp_path, max_message_chars=10, _env_file=None)  # type: ignore[call-arg]
    with TestClient(create_app(settings, agent=api_agent)) as client:
        ok = client.post("/v1/chat", json={"message": "가" * 10}, headers={"Accept": "application/json"})
        assert ok.status_code == 200
        body = assert_problem(client.post("/v1/chat", json={"message": "가" * 11}), 422)
        assert body["type"].endswith("message-too-long") and body["max_chars"] == 10
        assert_problem(client.get("/v1/search", params={"query": "나" * 11}), 422)
        oa = client.post("/v1/chat/completions", json={"messages": [{"role": "user", "content": "다" * 11}]})
        assert_problem(oa, 422)
        assert oa.json()["error"]["message"]


def test_request_size_limit(api_agent: Any, tmp_path: Any) -> None:
    settings = Settings(data_dir=tmp_path, max_body_bytes=200, _env_file=None)  # type: ignore[call-arg]
    app = create_app(settings, agent=api_agent)
    with TestClient(app) as client:
        big = {"message": "강남" * 200}
        body = assert_problem(client.post("/v1/chat", json=big), 413)
        assert body["type"].endswith("payload-too-large")
        assert client.post("/v1/chat", json={"message": "강남"}).status_code == 200

    async def chunked() -> None:
        async def gen() -> AsyncIterator[bytes]:
            yield b'{"message": "'
            for _ in range(50):
                yield "강남역".encode() * 5
            yield b'"}'

        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            resp = await client.post("/v1/chat", content=gen(), headers={"Content-Type": "application/json"})
            assert "content-length" not in {k.lower() for k in resp.request.headers}
            assert_problem(resp, 413)

    anyio.run(chunked)


def test_rate_limit(api_agent: Any, tmp_path: Any) -> None:
    settings = Settings(data_dir=tmp_path, rate_limit_per_minute=3, _env_file=None)  # type: ignore[call-arg]
    with TestClient(create_app(settings, agent=api_agent)) as client:
        codes = [client.get("/v1/models").status_code for _ in range(3)]
        assert codes == [200, 200, 200]
        resp = client.get("/v1/models")
        body = assert_problem(resp, 429)
        assert int(resp.headers["Retry-After"]) >= 1
        assert body["type"].endswith("rate-limited")
        assert client.get("/health").status_code == 200  # not rate limited
        assert client.get("/").status_code == 200


def test_token_bucket_refills() -> None:
    now = [0.0]
    bucket = TokenBucketLimiter(60, clock=lambda: now[0])  # 1 token per second, burst 60
    assert all(bucket.acquire("a") == 0 for _ in range(60))
    wait = bucket.acquire("a")
    assert wait == pytest.approx(1.0)
    assert bucket.acquire("b") == 0  # another client has its own bucket
    now[0] += 0.5
    assert bucket.acquire("a") == pytest.approx(0.5)
    now[0] += 0.5
    assert bucket.acquire("a") == 0
    now[0] += 1000
    assert sum(1 for _ in range(100) if bucket.acquire("a") == 0) == 60


def test_token_bucket_evicts_when_full() -> None:
    now = [0.0]
    bucket = TokenBucketLimiter(60, clock=lambda: now[0], max_keys=4)
    for key in "abcdef":
        bucket.acquire(key)
        now[0] += 100
    assert len(bucket._buckets) <= 4


def test_turn_timeout(api_fake_agent: Any, tmp_path: Any) -> None:
    settings = Settings(data_dir=tmp_path, turn_timeout_s=0.2, _env_file=None)  # type: ignore[call-arg]
    with TestClient(create_app(settings, agent=api_fake_agent)) as client:
        events = parse_sse(client.post("/v1/chat", json={"message": "slow"}).text)
        names = [e for e, _ in events]
        assert names[0] == "session" and names[-2:] == ["error", "end"]
        err = dict(events)["error"]
        assert err["status"] == 504 and set(err) >= PROBLEM_KEYS
        resp = client.post("/v1/chat", json={"message": "slow"}, headers={"Accept": "application/json"})
        assert assert_problem(resp, 504)["type"].endswith("turn-timeout")
        assert_problem(client.get("/v1/search", params={"query": "slow"}), 504)
    api_fake_agent.release.set()


def test_agent_failure_is_generic(scripted_client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR, logger="matjip.api"):
        resp = scripted_client.post("/v1/chat", json={"message": "boom"})
    assert "sk-test" not in resp.text and "Traceback" not in resp.text and "RuntimeError" not in resp.text
    events = parse_sse(resp.text)
    assert [e for e, _ in events][-2:] == ["error", "end"]
    assert dict(events)["error"]["status"] == 500
    # logged server-side, with its traceback, and the key-shaped text redacted there too (issue 13)
    assert "Traceback" in caplog.text and "RuntimeError: internal failure with secret ***" in caplog.text
    assert "sk-test-DO-NOT-LEAK" not in caplog.text
    json_resp = scripted_client.post(
        "/v1/chat", json={"message": "boom"}, headers={"Accept": "application/json"}
    )
    assert_problem(json_resp, 500)
    assert "sk-test" not in json_resp.text


def test_unhandled_exception_becomes_generic_500(
    api_settings: Settings, api_agent: Any, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(place_id: str) -> None:
        raise ValueError("password=hunter2")

    api_agent.resources.index.get = broken
    with TestClient(create_app(api_settings, agent=api_agent)) as client:
        with caplog.at_level(logging.ERROR, logger="matjip.api"):
            resp = client.get("/v1/restaurants/90001")
        body = assert_problem(resp, 500)
        assert "hunter2" not in resp.text and body["detail"]
        assert "hunter2" in caplog.text


def test_secrets_are_redacted(app_client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MATJIP_FAKE_API_KEY", "secret-value-123")
    resp = app_client.get("/v1/restaurants/secret-value-123")
    assert_problem(resp, 404)
    assert "secret-value-123" not in resp.text


def test_cors(api_agent: Any, tmp_path: Any) -> None:
    settings = Settings(data_dir=tmp_path, cors_origins=["https://ok.example"], _env_file=None)  # type: ignore[call-arg]
    with TestClient(create_app(settings, agent=api_agent)) as client:
        pre = client.options(
            "/v1/chat",
            headers={"Origin": "https://ok.example", "Access-Control-Request-Method": "POST"},
        )
        assert pre.status_code == 200
        assert pre.headers["access-control-allow-origin"] == "https://ok.example"
        got = client.get("/v1/models", headers={"Origin": "https://evil.example"})
        assert "access-control-allow-origin" not in got.headers
    with TestClient(create_app(Settings(data_dir=tmp_path, _env_file=None), agent=api_agent)) as client:  # type: ignore[call-arg]
        got = client.get("/v1/models", headers={"Origin": "https://ok.example"})
        assert "access-control-allow-origin" not in got.headers


def test_no_index_is_503(tmp_path: Any) -> None:
    settings = Settings(data_dir=tmp_path / "empty", _env_file=None)  # type: ignore[call-arg]
    with TestClient(create_app(settings)) as client:
        body = assert_problem(client.post("/v1/chat", json={"message": "강남역 일식"}), 503)
        assert "matjip ingest" in body["detail"]
        health = client.get("/health").json()
        assert health["status"] == "degraded" and health["index_loaded"] is False


# --- concurrency -----------------------------------------------------------------------------


def test_sessions_isolated_in_parallel_threads(scripted_client: TestClient) -> None:
    results: dict[str, str] = {}
    errors: list[BaseException] = []
    barrier = threading.Barrier(2)

    def converse(name: str, words: list[str]) -> None:
        try:
            barrier.wait(10)
            sid = None
            for w in words:
                body: dict[str, Any] = {"message": w}
                if sid:
                    body["session_id"] = sid
                r = scripted_client.post("/v1/chat", json=body, headers={"Accept": "application/json"})
                sid = r.json()["session_id"]
            results[name] = scripted_client.post(
                "/v1/chat",
                json={"message": "기억", "session_id": sid},
                headers={"Accept": "application/json"},
            ).json()["answer"]
        except BaseException as exc:
            errors.append(exc)

    a = threading.Thread(target=converse, args=("a", ["강남 초밥", "강남 라멘", "강남 우동"]))
    b = threading.Thread(target=converse, args=("b", ["홍대 고기", "홍대 국밥", "홍대 치킨"]))
    for t in (a, b):
        t.start()
    for t in (a, b):
        t.join(30)
    assert not errors, errors
    assert "강남 초밥 / 강남 라멘 / 강남 우동" in results["a"] and "홍대" not in results["a"]
    assert "홍대 고기 / 홍대 국밥 / 홍대 치킨" in results["b"] and "강남" not in results["b"]


def test_event_loop_is_not_blocked_by_a_turn(api_settings: Settings, api_fake_agent: Any) -> None:
    app = create_app(api_settings, agent=api_fake_agent)

    async def main() -> None:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            with anyio.fail_after(20):  # a guard against a deadlock, not a timing assertion
                async with anyio.create_task_group() as tg:
                    slow: dict[str, httpx.Response] = {}

                    async def run_slow() -> None:
                        slow["r"] = await client.post(
                            "/v1/chat", json={"message": "slow"}, headers={"Accept": "application/json"}
                        )

                    tg.start_soon(run_slow)
                    await anyio.sleep(0)
                    # the slow turn is blocked in a worker thread; the loop still serves requests
                    fast = await client.post(
                        "/v1/chat", json={"message": "강남역 일식"}, headers={"Accept": "application/json"}
                    )
                    assert fast.status_code == 200
                    assert (await client.get("/health")).status_code == 200
                    assert "r" not in slow
                    api_fake_agent.release.set()
                assert slow["r"].status_code == 200

    anyio.run(main)


# --- /v1/search ------------------------------------------------------------------------------


def test_search_response_shape(scripted_client: TestClient) -> None:
    resp = scripted_client.get("/v1/search", params={"query": "강남역 일식"})
    assert resp.status_code == 200
    body = resp.json()
    assert set(body) >= {
        "session_id",
        "summary",
        "restaurants",
        "total_count",
        "parsed_query",
        "top_score",
        "is_sufficient",
        "sufficiency_reason",
        "web_sources",
    }
    assert body["summary"] == (
        "'강남역 일식' 검색 결과 3건을 찾았습니다. '스시 하나'가 가장 관련도가 높습니다(점수 90%)."
    )
    assert body["total_count"] == len(body["restaurants"]) == 3
    first = body["restaurants"][0]
    assert first["source_type"] == "internal" and first["score"] == pytest.approx(0.9)
    pq = body["parsed_query"]
    assert pq["intent"] == "search" and pq["sort_preference"] == "relevance"
    assert pq["entities"]["category"] == ["일식"]
    assert pq["filters"]["cuisine"] == ["일식"] and pq["filters"]["location"]["name"] == "강남역"
    assert body["is_sufficient"] is True and "top_1" in body["sufficiency_reason"]
    again = scripted_client.get(
        "/v1/search", params={"query": "기억", "session_id": body["session_id"]}
    ).json()
    assert again["session_id"] == body["session_id"] and "강남역 일식" in again["answer"]


def test_search_clarification_summary(app_client: TestClient) -> None:
    body = app_client.get("/v1/search", params={"query": "양평역 맛집"}).json()
    assert body["clarification"]["choices"] and body["summary"].startswith("'양평역'")
    assert body["restaurants"] == [] and body["is_sufficient"] is False


def test_search_validation(app_client: TestClient) -> None:
    assert_problem(app_client.get("/v1/search"), 422)
    assert_problem(app_client.get("/v1/search", params={"query": "강남", "lat": 99}), 422)
    # issue 13: a lone lat (or lon) is ignored, as documented — the schema cannot say "both or
    # neither", and schemathesis' positive-data check holds the server to its schema
    assert app_client.get("/v1/search", params={"query": "강남", "lat": 37.5}).status_code == 200


# --- lookups ---------------------------------------------------------------------------------


def test_restaurant_document(app_client: TestClient) -> None:
    doc = app_client.get("/v1/restaurants/90001").json()
    assert doc["place_id"] == "90001" and doc["title"] == "스시 하나"
    assert doc["menus"][0] == {"name": "모듬초밥", "price": 19000, "price_text": "", "price_is_range": False}
    body = assert_problem(app_client.get("/v1/restaurants/nope"), 404)
    assert "nope" in body["detail"]


def test_places_lookup(app_client: TestClient) -> None:
    body = app_client.get("/v1/places", params={"q": "양평역"}).json()
    assert body["ambiguous"] is True
    assert [c["display_name"] for c in body["candidates"]] == [
        "양평역 (5호선, 서울 영등포구)",
        "양평역 (경의중앙선, 경기 양평군)",
    ]
    assert {"display_name", "type", "lat", "lon", "default_radius_m"} <= set(body["candidates"][0])
    assert app_client.get("/v1/places", params={"q": "없는곳"}).json()["candidates"] == []
    assert_problem(app_client.get("/v1/places"), 422)


def test_places_with_the_real_gazetteer(api_settings: Settings) -> None:
    with TestClient(create_app(api_settings, agent=IdleAgent())) as client:
        body = client.get("/v1/places", params={"q": "양평역"}).json()
        assert len(body["candidates"]) >= 2 and body["ambiguous"] is True
        assert all(c["type"] == "subway_station" for c in body["candidates"])
        gangnam = client.get("/v1/places", params={"q": "강남역"}).json()["candidates"][0]
        assert gangnam["lat"] == pytest.approx(37.498, abs=0.01) and gangnam["default_radius_m"] > 0


def test_geo_layers(app_client: TestClient) -> None:
    resp = app_client.get("/v1/geo/seoul_gu")
    assert resp.headers["content-type"].startswith("application/geo+json")
    assert len(resp.json()["features"]) == 25
    capital = app_client.get("/v1/geo/korea_sigungu", params={"region": "capital"}).json()["features"]
    everything = app_client.get("/v1/geo/korea_sigungu").json()["features"]
    assert 0 < len(capital) < len(everything)
    assert all(f["properties"]["code"][:2] in ("11", "23", "31") for f in capital)
    assert_problem(app_client.get("/v1/geo/world"), 422)


def test_health(api_agent: Any, tmp_path: Any) -> None:
    settings = Settings(data_dir=tmp_path, tavily_api_key="tvly-SECRET-KEY", _env_file=None)  # type: ignore[call-arg]
    with TestClient(create_app(settings, agent=api_agent)) as client:
        resp = client.get("/health")
    body = resp.json()
    assert body["status"] == "ok" and body["index_loaded"] is True
    assert body["documents"] == 3
    assert body["embedder"]["name"] == "fake" and body["embedder"]["configured"] == settings.embedder
    assert isinstance(body["embedder"]["dim"], int) and body["embedder"]["dim"] > 0
    assert body["data_key"] and str(tmp_path) not in resp.text
    assert body["providers"] == {"llm": False, "web_search": True}
    assert "tvly-SECRET-KEY" not in resp.text


def test_openapi_and_docs(app_client: TestClient) -> None:
    schema = app_client.get("/openapi.json").json()
    for path in (
        "/v1/chat",
        "/v1/search",
        "/v1/restaurants/{place_id}",
        "/v1/places",
        "/v1/geo/{name}",
        "/health",
        "/v1/chat/completions",
        "/v1/models",
    ):
        assert path in schema["paths"], path
    assert "Problem" in schema["components"]["schemas"]
    assert "text/event-stream" in schema["paths"]["/v1/chat"]["post"]["responses"]["200"]["content"]
    assert app_client.get("/docs").status_code == 200


def test_web_page_is_served(app_client: TestClient) -> None:
    page = app_client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "맛집" in page.text and 'lang="ko"' in page.text
    for asset in re.findall(r'(?:src|href)="(/static/[^"]+)"', page.text):
        assert app_client.get(asset).status_code == 200, asset


# --- OpenAI-compatible -----------------------------------------------------------------------


def test_models(app_client: TestClient) -> None:
    body = app_client.get("/v1/models").json()
    assert body["object"] == "list" and [m["id"] for m in body["data"]] == ["matjip-agent"]
    assert app_client.get("/v1/models/matjip-agent").json()["object"] == "model"
    assert_problem(app_client.get("/v1/models/gpt-4"), 404)


def test_chat_completion(app_client: TestClient) -> None:
    req = {"model": "matjip-agent", "messages": [{"role": "user", "content": "강남역 일식"}]}
    body = app_client.post("/v1/chat/completions", json=req).json()
    assert body["id"].startswith("chatcmpl-") and body["object"] == "chat.completion"
    choice = body["choices"][0]
    assert choice["message"]["role"] == "assistant" and "스시 하나" in choice["message"]["content"]
    assert choice["finish_reason"] == "stop"
    assert (
        body["usage"]["total_tokens"] == body["usage"]["prompt_tokens"] + body["usage"]["completion_tokens"]
    )


def test_chat_completion_stream(app_client: TestClient) -> None:
    req = {
        "model": "matjip-agent",
        "messages": [{"role": "user", "content": "강남역 일식"}],
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    resp = app_client.post("/v1/chat/completions", json=req)
    assert resp.headers["content-type"].startswith("text/event-stream")
    datas = [line[6:] for line in resp.text.split("\n") if line.startswith("data: ")]
    assert datas[-1] == "[DONE]"
    chunks = [json.loads(d) for d in datas[:-1]]
    assert all(c["object"] == "chat.completion.chunk" and c["id"] == chunks[0]["id"] for c in chunks)
    assert chunks[0]["choices"][0]["delta"]["role"] == "assistant"
    text = "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks if c["choices"])
    finishes = [c["choices"][0]["finish_reason"] for c in chunks if c["choices"]]
    assert finishes[-1] == "stop" and set(finishes[:-1]) == {None}
    assert chunks[-1]["choices"] == [] and chunks[-1]["usage"]["completion_tokens"] > 0
    full = app_client.post("/v1/chat/completions", json={**req, "stream": False}).json()
    assert text == full["choices"][0]["message"]["content"]


def test_chat_completion_continues_the_conversation(scripted_client: TestClient) -> None:
    first = [{"role": "system", "content": "맛집 도우미"}, {"role": "user", "content": "양평역 맛집"}]
    r1 = scripted_client.post("/v1/chat/completions", json={"messages": first})
    a1 = r1.json()["choices"][0]["message"]["content"]
    assert "여러 곳" in a1
    history = [*first, {"role": "assistant", "content": a1}, {"role": "user", "content": "2"}]
    r2 = scripted_client.post("/v1/chat/completions", json={"messages": history})
    assert r2.headers["X-Matjip-Session"] == r1.headers["X-Matjip-Session"]
    assert "경의중앙선" in r2.json()["choices"][0]["message"]["content"]
    # a new conversation with the same first message gets its own session
    r3 = scripted_client.post("/v1/chat/completions", json={"messages": first})
    assert r3.headers["X-Matjip-Session"] != r1.headers["X-Matjip-Session"]


def test_chat_completion_user_field_selects_the_session(scripted_client: TestClient) -> None:
    req = {"messages": [{"role": "user", "content": "강남역 일식"}], "user": "alice"}
    r1 = scripted_client.post("/v1/chat/completions", json=req)
    r2 = scripted_client.post(
        "/v1/chat/completions", json={**req, "messages": [{"role": "user", "content": "기억"}]}
    )
    assert r1.headers["X-Matjip-Session"] == r2.headers["X-Matjip-Session"] == user_session_id("alice")
    assert "강남역 일식" in r2.json()["choices"][0]["message"]["content"]


def test_chat_completion_validation(app_client: TestClient) -> None:
    assert_problem(app_client.post("/v1/chat/completions", json={"messages": []}), 422)
    body = assert_problem(
        app_client.post("/v1/chat/completions", json={"messages": [{"role": "assistant", "content": "hi"}]}),
        422,
    )
    assert body["error"]["type"] == "invalid_request_error"


def test_chat_completion_stream_error(api_fake_agent: Any, tmp_path: Any) -> None:
    settings = Settings(data_dir=tmp_path, turn_timeout_s=0.2, _env_file=None)  # type: ignore[call-arg]
    with TestClient(create_app(settings, agent=api_fake_agent)) as client:
        req = {"messages": [{"role": "user", "content": "slow"}], "stream": True}
        datas = [
            line[6:]
            for line in client.post("/v1/chat/completions", json=req).text.split("\n")
            if line.startswith("data: ")
        ]
    api_fake_agent.release.set()
    errors = [json.loads(d)["error"] for d in datas if d.startswith('{"error"')]
    assert errors and errors[0]["code"] == 504 and datas[-1] == "[DONE]"


def test_conversation_sessions_persist(tmp_path: Any) -> None:
    path = tmp_path / "conv.sqlite"
    store = ConversationSessions(path)
    first = store.session_for([])
    assert first != store.session_for([])  # new conversations never share a session
    turn = [("user", "양평역 맛집"), ("assistant", "어느 곳인가요?")]
    store.remember(turn, first)
    store.close()
    reopened = ConversationSessions(path)
    assert (
        reopened.session_for([("system", "x"), ("user", " 양평역  맛집"), ("assistant", "어느 곳인가요?")])
        == first
    )
    unknown = [("user", "다른 대화"), ("assistant", "응답")]
    assert reopened.session_for(unknown) == reopened.session_for(unknown)
    reopened.close()


def test_runner_sends_heartbeats_while_a_turn_is_busy(api_fake_agent: Any) -> None:
    from matjip.agent.models import TurnEvent
    from matjip.api.runner import Heartbeat, TurnRunner

    runner = TurnRunner(max_workers=2, heartbeat_s=0.01)

    async def main() -> list[str]:
        seen: list[str] = []
        async for ev in runner.events(api_fake_agent, "slow", None, None, 30, heartbeats=True):
            if isinstance(ev, Heartbeat):
                if "heartbeat" not in seen:
                    seen.append("heartbeat")
                    api_fake_agent.release.set()
            else:
                assert isinstance(ev, TurnEvent)
                seen.append(ev.event)
        return seen

    try:
        seen = anyio.run(main)
    finally:
        runner.close()
    assert seen[:2] == ["session", "heartbeat"] and seen[-1] == "end"


def test_problem_types_are_described(app_client: TestClient) -> None:
    body = assert_problem(app_client.post("/v1/chat", json={"message": ""}), 422)
    described = app_client.get(body["type"]).json()
    assert described["type"] == body["type"] and described["description"]
    assert_problem(app_client.get("/problems/unknown"), 404)


def test_answer_reset_mid_stream(scripted_client: TestClient) -> None:
    resp = scripted_client.post("/v1/chat", json={"message": "reset"})
    assert "sk-test" not in resp.text
    events = parse_sse(resp.text)
    names = [e for e, _ in events]
    reset = names.index("answer_reset")
    assert "answer" in names[:reset] and dict(events)["answer_reset"] == {"reason": "ProviderError"}
    after = "".join(d for e, d in events[reset:] if e == "answer")
    final = scripted_client.post(
        "/v1/chat", json={"message": "reset"}, headers={"Accept": "application/json"}
    ).json()
    assert after == final["answer"]


def test_chat_completion_stream_with_reset_continues_the_conversation(scripted_client: TestClient) -> None:
    req: dict[str, Any] = {"messages": [{"role": "user", "content": "reset"}], "stream": True}
    resp = scripted_client.post("/v1/chat/completions", json=req)
    assert "sk-test" not in resp.text
    datas = [line[6:] for line in resp.text.split("\n") if line.startswith("data: ") and line[6:] != "[DONE]"]
    streamed = "".join(json.loads(d)["choices"][0]["delta"].get("content") or "" for d in datas)
    assert streamed.startswith("근거 없는 답변") and "다시 작성" in streamed
    history = [
        *req["messages"],
        {"role": "assistant", "content": streamed},
        {"role": "user", "content": "기억"},
    ]
    again = scripted_client.post("/v1/chat/completions", json={"messages": history})
    assert again.headers["X-Matjip-Session"] == resp.headers["X-Matjip-Session"]
    assert "reset" in again.json()["choices"][0]["message"]["content"]


# --- issue 16: cards, "더 보기" and sort, coverage -------------------------------------------


def test_cards_link_a_map_and_say_whether_open(app_client: TestClient) -> None:
    body = app_client.post(
        "/v1/chat", json={"message": "강남역 일식"}, headers={"Accept": "application/json"}
    ).json()
    assert body["cards"]
    for card in body["cards"]:
        # the fixture's documents have no Kakao source: map searches, and directions from 강남역
        kinds = [link["kind"] for link in card["map_links"]]
        assert "search" in kinds and "directions" in kinds and "place" not in kinds
        assert card["url"] == card["map_links"][0]["url"]
        assert card["open_status"] == {
            "state": "unknown",
            "label": "영업시간 정보 없음",
        }  # no hours in the fixture
        assert card["price_band"]["min_won"] == 9000  # 우동 9,000원 on every menu
        assert card["rating"] is None and card["review_count"] is None


def test_more_results_exclude_shown_ids_and_sort_is_in_the_plan(app_client: TestClient) -> None:
    first = app_client.post(
        "/v1/chat", json={"message": "강남역 일식 한 곳만"}, headers={"Accept": "application/json"}
    ).json()
    sid = first["session_id"]
    shown = [c["id"] for c in first["cards"]]
    assert len(shown) == 1
    seen = list(shown)
    for _ in range(2):
        page = app_client.post("/v1/results", json={"session_id": sid, "exclude_ids": seen}).json()
        new = [c["id"] for c in page["cards"]]
        assert len(new) == 1 and not set(new) & set(seen)
        assert page["plan"]["exclude_ids"] == seen
        seen += new
    # the session follows the cards on screen: a third card exists only after two more pages
    follow = app_client.post(
        "/v1/chat",
        json={"message": "세 번째 집 전화번호 알려줘", "session_id": sid},
        headers={"Accept": "application/json"},
    ).json()
    assert f"02-000-000{seen[2][-1]}" in follow["answer"], follow["answer"]
    last = app_client.post("/v1/results", json={"session_id": sid, "exclude_ids": seen}).json()
    assert last["cards"] == [] and last["exhausted"] is True
    assert sorted(seen) == ["90001", "90002", "90003"]
    # by price: the lowest median menu price first (모듬초밥 19,000 / 20,000 / 21,000 with 우동 9,000)
    cheap = app_client.post("/v1/results", json={"session_id": sid, "sort": "price"}).json()
    assert cheap["plan"]["sort"] == "price" and [c["name"] for c in cheap["cards"]] == ["스시 하나"]


def test_more_results_validation(app_client: TestClient) -> None:
    assert_problem(app_client.post("/v1/results", json={"session_id": "s1", "sort": "cheapest"}), 422)
    assert_problem(app_client.post("/v1/results", json={"session_id": "bad id!"}), 422)
    assert_problem(app_client.post("/v1/results", json={"session_id": "s1", "exclude_ids": ["1"] * 201}), 422)
    empty = app_client.post("/v1/results", json={"session_id": "never-searched"}).json()
    assert empty["cards"] == [] and empty["exhausted"] is True and empty["notes"]


def test_coverage(app_client: TestClient) -> None:
    body = app_client.get("/v1/coverage").json()
    assert body["documents"] == 3
    # the three fixture sushi bars are in 강남구 (fewer than the 20 a covered region needs)
    assert body["summary"].startswith("식당 3곳")
