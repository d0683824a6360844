"""LLM providers against fakes that speak the real protocols: OpenAI chat completions (JSON and
SSE), Gemini REST via the google-genai SDK, Tavily search; retries, timeouts, accounting."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from pydantic import BaseModel

from fakes import gemini as gfake
from fakes import openai as ofake
from fakes import tavily as tfake
from fakes.http import ReplayServer, Reply, Script
from matjip.agent.stages.schemas import GradeOut, NLUOut
from matjip.errors import ConfigurationError, ProviderError, ProviderTimeout, ValidationFailure
from matjip.providers.base import (
    CallRecord,
    Message,
    RetryPolicy,
    inline_schema,
    parse_retry_after,
    record_of,
)
from matjip.providers.client import make_client
from matjip.providers.config import LLMOptions, parse_stages
from matjip.providers.fake import Chunks, FakeLLM
from matjip.providers.openai_compat import OpenAICompatClient
from matjip.providers.pricing import cost_usd, price_of
from matjip.settings import Settings
from support.settings import settings_from_env

MSGS: list[Message] = [
    {"role": "system", "content": "JSON만 출력하세요."},
    {"role": "user", "content": 'query: "강남역 주차되는 일식집"'},
]
NLU_OK = {
    "intent": "search",
    "entities": {"location": ["강남역"], "category": ["일식"], "convenience": ["주차"]},
}


class Sleeps:
    def __init__(self) -> None:
        self.calls: list[float] = []

    def __call__(self, s: float) -> None:
        self.calls.append(s)


def openai_client(script: Script, **kw: Any) -> tuple[OpenAICompatClient, Sleeps]:
    sleeps = Sleeps()
    retry = RetryPolicy(max_retries=kw.pop("max_retries", 2), base_s=0.01, max_delay_s=1.0, sleep=sleeps)
    client = OpenAICompatClient(
        model="gpt-4o-mini",
        base_url="https://api.openai.com/v1",
        api_key="sk-test",
        timeout_s=0.5,
        retry=retry,
        transport=script.transport(),
        **kw,
    )
    return client, sleeps


# --- OpenAI-compatible: structured output -------------------------------------------------------


def test_openai_json_success_request_shape_and_accounting() -> None:
    script = Script(ofake.json_reply(NLU_OK, prompt_tokens=1000, completion_tokens=200))
    client, sleeps = openai_client(script)
    value, rec = client.complete_json(MSGS, NLUOut, stage="nlu")
    assert value.intent == "search" and value.entities.location == ["강남역"]
    seen = script.seen[0]
    assert seen.path == "/v1/chat/completions"
    assert seen.headers["authorization"] == "Bearer sk-test"
    body = seen.json()
    assert body["model"] == "gpt-4o-mini" and body["stream"] is False
    assert body["messages"] == MSGS
    rf = body["response_format"]
    assert rf["type"] == "json_schema" and rf["json_schema"]["name"] == "NLUOut"
    assert "$ref" not in json.dumps(rf["json_schema"]["schema"])  # inlined for every server
    assert rec.ok and rec.stage == "nlu" and rec.provider == "openai" and rec.model == "gpt-4o-mini"
    assert (rec.input_tokens, rec.output_tokens, rec.attempts) == (1000, 200, 1)
    assert rec.cost_usd == pytest.approx((1000 * 0.15 + 200 * 0.60) / 1e6)
    assert sleeps.calls == []


def test_openai_json_object_mode_and_code_fences() -> None:
    script = Script(ofake.text_reply("```json\n" + json.dumps(NLU_OK) + "\n```"))
    client, _ = openai_client(script, json_mode="json_object")
    value, _ = client.complete_json(MSGS, NLUOut, stage="nlu")
    assert value.entities.convenience == ["주차"]
    assert script.seen[0].json()["response_format"] == {"type": "json_object"}


def test_openai_malformed_json_is_a_validation_failure_with_a_record() -> None:
    script = Script(ofake.text_reply('{"intent": "search", "entities": {'))
    client, sleeps = openai_client(script)
    with pytest.raises(ValidationFailure, match="invalid JSON") as info:
        client.complete_json(MSGS, NLUOut, stage="nlu")
    rec = record_of(info.value)
    assert rec is not None and not rec.ok and rec.input_tokens == 120  # tokens were still spent
    assert getattr(info.value, "raw", "").startswith('{"intent"')
    assert len(script.seen) == 1 and sleeps.calls == []  # a bad reply is not retried here


def test_openai_schema_violation() -> None:
    script = Script(ofake.json_reply({"intent": "order_food", "entities": {}}))
    client, _ = openai_client(script)
    with pytest.raises(ValidationFailure, match="schema violation: intent"):
        client.complete_json(MSGS, NLUOut, stage="nlu")


def test_openai_truncated_reply_says_so() -> None:
    script = Script(ofake.text_reply('{"intent": "sea', finish_reason="length"))
    client, _ = openai_client(script)
    with pytest.raises(ValidationFailure, match="finish_reason=length"):
        client.complete_json(MSGS, NLUOut, stage="nlu")


def test_openai_429_then_success_honours_retry_after() -> None:
    script = Script(
        ofake.error_reply(429, "Rate limit reached", retry_after="0.25", kind="rate_limit_exceeded"),
        ofake.json_reply(NLU_OK),
    )
    client, sleeps = openai_client(script)
    value, rec = client.complete_json(MSGS, NLUOut, stage="nlu")
    assert value.intent == "search"
    assert sleeps.calls == [0.25]
    assert rec.attempts == 2 and len(script.seen) == 2


def test_openai_500_retries_with_exponential_backoff_then_fails() -> None:
    script = Script(ofake.error_reply(500, "The server had an error"))
    client, sleeps = openai_client(script, max_retries=2)
    with pytest.raises(ProviderError, match="HTTP 500") as info:
        client.complete_json(MSGS, NLUOut, stage="nlu")
    assert len(script.seen) == 3
    assert len(sleeps.calls) == 2
    assert 0.01 <= sleeps.calls[0] <= 0.015 and 0.02 <= sleeps.calls[1] <= 0.03  # base·2^n·(1+jitter)
    rec = record_of(info.value)
    assert rec is not None and not rec.ok and "500" in (rec.error or "")


def test_openai_retry_after_beyond_the_cap_gives_up_at_once() -> None:
    script = Script(ofake.error_reply(429, "slow down", retry_after="120"), ofake.json_reply(NLU_OK))
    client, sleeps = openai_client(script)
    with pytest.raises(ProviderError, match="HTTP 429"):
        client.complete_json(MSGS, NLUOut, stage="nlu")
    assert sleeps.calls == [] and len(script.seen) == 1


def test_openai_400_is_not_retried() -> None:
    script = Script(
        ofake.error_reply(400, "Invalid schema for response_format", kind="invalid_request_error")
    )
    client, sleeps = openai_client(script)
    with pytest.raises(ProviderError, match="Invalid schema"):
        client.complete_json(MSGS, NLUOut, stage="nlu")
    assert len(script.seen) == 1 and sleeps.calls == []


def test_openai_timeout_is_not_retried() -> None:
    script = Script(Reply(error=httpx.ReadTimeout("timed out")))
    client, sleeps = openai_client(script)
    with pytest.raises(ProviderTimeout) as info:
        client.complete_json(MSGS, NLUOut, stage="nlu")
    assert len(script.seen) == 1 and sleeps.calls == []
    rec = record_of(info.value)
    assert rec is not None and not rec.ok


def test_openai_connection_error_is_retried() -> None:
    script = Script(Reply(error=httpx.ConnectError("connection refused")), ofake.json_reply(NLU_OK))
    client, sleeps = openai_client(script)
    _, rec = client.complete_json(MSGS, NLUOut, stage="nlu")
    assert rec.attempts == 2 and len(sleeps.calls) == 1


def test_openai_real_server_timeout() -> None:
    script = Script(Reply(body=ofake.completion("{}"), delay_s=2.0))
    with ReplayServer(script) as srv:
        client = OpenAICompatClient(model="llama3.1", base_url=srv.url + "/v1", timeout_s=0.2)
        with pytest.raises(ProviderTimeout):
            client.complete_json(MSGS, NLUOut, stage="nlu")
        client.close()


def test_openai_local_server_without_key_and_unknown_model_cost() -> None:
    script = Script(ofake.json_reply(NLU_OK, model="qwen2.5"))
    with ReplayServer(script) as srv:
        client = OpenAICompatClient(model="qwen2.5:7b", base_url=srv.url + "/v1", timeout_s=0.5)
        value, rec = client.complete_json(MSGS, NLUOut, stage="nlu")
        client.close()
    assert value.intent == "search"
    assert "authorization" not in script.seen[0].headers
    assert rec.cost_usd is None and rec.input_tokens == 120


# --- OpenAI-compatible: streaming ---------------------------------------------------------------


def test_openai_stream_sse_chunks_and_usage() -> None:
    script = Script(ofake.stream_reply(["안녕", "하세요", "! 맛집을", " 찾아볼게요."]))
    client, _ = openai_client(script)
    stream = client.stream_text(MSGS, stage="generate")
    pieces = list(stream)
    assert pieces == ["안녕", "하세요", "! 맛집을", " 찾아볼게요."]
    body = script.seen[0].json()
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}
    rec = stream.record
    assert rec is not None and rec.ok and rec.input_tokens == 200 and rec.output_tokens == 40
    assert rec.cost_usd is not None


def test_openai_stream_over_a_real_socket() -> None:
    script = Script(ofake.stream_reply(["첫 줄\n", "둘째 ", "줄\n"], usage=False))
    with ReplayServer(script) as srv:
        client = OpenAICompatClient(
            model="llama3.1", base_url=srv.url + "/v1", timeout_s=0.5, stream_usage=False
        )
        stream = client.stream_text(MSGS, stage="generate")
        assert stream.text() == "첫 줄\n둘째 줄\n"
        client.close()
    assert "stream_options" not in script.seen[0].json()
    assert stream.record is not None and stream.record.input_tokens is None


def test_openai_stream_429_then_success() -> None:
    script = Script(ofake.error_reply(429, "busy", retry_after="0"), ofake.stream_reply(["ok"]))
    client, sleeps = openai_client(script)
    stream = client.stream_text(MSGS, stage="generate")
    assert stream.text() == "ok"
    assert sleeps.calls == [0.0] and stream.record is not None and stream.record.attempts == 2


def test_openai_stream_malformed_chunk_fails_with_record() -> None:
    chunks = [*ofake.stream_chunks(["좋아요"])[:2], b"data: {not json\n\n"]
    script = Script(Reply(chunks=chunks))
    client, _ = openai_client(script)
    stream = client.stream_text(MSGS, stage="generate")
    got: list[str] = []
    with pytest.raises(ProviderError, match="malformed stream chunk") as info:
        for piece in stream:
            got.append(piece)
    assert got == ["좋아요"]
    assert stream.record is not None and not stream.record.ok
    assert record_of(info.value) is stream.record


def test_openai_stream_error_event() -> None:
    chunks = [ofake.sse({"error": {"message": "overloaded", "type": "server_error"}})]
    client, _ = openai_client(Script(Reply(chunks=chunks)))
    with pytest.raises(ProviderError, match="overloaded"):
        client.stream_text(MSGS, stage="generate").text()


# --- Gemini (google-genai SDK against a local server replaying Gemini REST) ----------------------


def gemini_client(url: str, *, timeout_s: float = 0.5, max_retries: int = 2) -> tuple[Any, Sleeps]:
    pytest.importorskip("google.genai")
    from matjip.providers.gemini import GeminiClient

    sleeps = Sleeps()
    retry = RetryPolicy(max_retries=max_retries, base_s=0.01, max_delay_s=1.0, sleep=sleeps)
    return (
        GeminiClient(
            model="gemini-2.5-flash-lite", api_key="g-test", base_url=url, timeout_s=timeout_s, retry=retry
        ),
        sleeps,
    )


def test_gemini_json_success_request_shape_and_accounting() -> None:
    script = Script(gfake.json_reply(NLU_OK, prompt_tokens=1000, candidates_tokens=100))
    with ReplayServer(script) as srv:
        client, _ = gemini_client(srv.url)
        value, rec = client.complete_json(MSGS, NLUOut, stage="nlu")
    assert value.entities.category == ["일식"]
    seen = script.seen[0]
    assert seen.path.endswith("/models/gemini-2.5-flash-lite:generateContent")
    assert seen.headers["x-goog-api-key"] == "g-test"
    body = seen.json()
    assert body["systemInstruction"]["parts"][0]["text"] == "JSON만 출력하세요."
    assert body["contents"] == [{"parts": [{"text": MSGS[1]["content"]}], "role": "user"}]
    assert body["generationConfig"]["responseMimeType"] == "application/json"
    assert body["generationConfig"]["responseJsonSchema"]["properties"]["intent"]["enum"] == [
        "search",
        "compare",
        "information",
    ]
    assert rec.ok and rec.provider == "gemini" and (rec.input_tokens, rec.output_tokens) == (1000, 100)
    assert rec.cost_usd == pytest.approx((1000 * 0.10 + 100 * 0.40) / 1e6)


def test_gemini_stream() -> None:
    script = Script(gfake.stream_reply(["강남역 근처 ", "일식집을 ", "찾았어요."]))
    with ReplayServer(script) as srv:
        client, _ = gemini_client(srv.url)
        stream = client.stream_text(MSGS, stage="generate")
        assert stream.text() == "강남역 근처 일식집을 찾았어요."
    assert script.seen[0].path.endswith(":streamGenerateContent?alt=sse")
    assert stream.record is not None and stream.record.output_tokens == 33


def test_gemini_429_then_success() -> None:
    script = Script(
        gfake.error_reply(429, "Resource has been exhausted", retry_after="0"), gfake.json_reply(NLU_OK)
    )
    with ReplayServer(script) as srv:
        client, sleeps = gemini_client(srv.url)
        value, rec = client.complete_json(MSGS, NLUOut, stage="nlu")
    assert value.intent == "search" and rec.attempts == 2 and sleeps.calls == [0.0]


def test_gemini_500_gives_up_after_retries() -> None:
    script = Script(gfake.error_reply(500, "Internal error encountered."))
    with ReplayServer(script) as srv:
        client, sleeps = gemini_client(srv.url, max_retries=1)
        with pytest.raises(ProviderError, match="HTTP 500") as info:
            client.complete_json(MSGS, NLUOut, stage="nlu")
    assert len(script.seen) == 2 and len(sleeps.calls) == 1
    assert record_of(info.value) is not None


def test_gemini_400_not_retried_and_stream_503_then_ok() -> None:
    script = Script(gfake.error_reply(400, "Invalid JSON payload"))
    with ReplayServer(script) as srv:
        client, sleeps = gemini_client(srv.url)
        with pytest.raises(ProviderError, match="400"):
            client.complete_json(MSGS, NLUOut, stage="nlu")
    assert len(script.seen) == 1 and sleeps.calls == []
    script = Script(gfake.error_reply(503, "overloaded"), gfake.stream_reply(["ok"]))
    with ReplayServer(script) as srv:
        client, sleeps = gemini_client(srv.url)
        stream = client.stream_text(MSGS, stage="generate")
        assert stream.text() == "ok"
    assert len(sleeps.calls) == 1


def test_gemini_malformed_json_and_schema_violation() -> None:
    script = Script(gfake.text_reply('{"intent": '), gfake.json_reply({"overall_relevance": "maybe"}))
    with ReplayServer(script) as srv:
        client, _ = gemini_client(srv.url)
        with pytest.raises(ValidationFailure, match="invalid JSON"):
            client.complete_json(MSGS, NLUOut, stage="nlu")
        with pytest.raises(ValidationFailure, match="schema violation"):
            client.complete_json(MSGS, GradeOut, stage="grade")


def test_gemini_timeout() -> None:
    script = Script(Reply(body=gfake.response("{}"), delay_s=3.0))
    with ReplayServer(script) as srv:
        client, sleeps = gemini_client(srv.url, timeout_s=0.3)
        with pytest.raises(ProviderTimeout):
            client.complete_json(MSGS, NLUOut, stage="nlu")
    assert sleeps.calls == []


def test_gemini_needs_a_key() -> None:
    pytest.importorskip("google.genai")
    from matjip.providers.gemini import GeminiClient

    with pytest.raises(ConfigurationError, match="GEMINI_API_KEY"):
        GeminiClient(model="gemini-2.5-flash-lite", api_key=None)


# --- Tavily ---------------------------------------------------------------------------------------


def test_tavily_search_and_context_format() -> None:
    from matjip.agent.stages import format_web_context
    from matjip.providers.tavily import TavilyClient

    script = Script(
        tfake.search_reply("종각역 설렁탕", [tfake.IMUN, {"title": "종각 맛집", "content": "x" * 900}])
    )
    client = TavilyClient("tvly-test", transport=script.transport(), timeout_s=0.5)
    sources = client.search("종각역 설렁탕")
    seen = script.seen[0]
    assert seen.path == "/search" and seen.headers["authorization"] == "Bearer tvly-test"
    assert seen.json()["query"] == "종각역 설렁탕" and seen.json()["max_results"] == 3
    assert [s.title for s in sources] == [tfake.IMUN["title"], "종각 맛집"]
    assert sources[0].url == tfake.IMUN["url"] and len(sources[1].content) < 700
    text = format_web_context(sources[:1])
    assert text == f"문서1:\n문서 제목: {tfake.IMUN['title']}\n문서 내용: {tfake.IMUN['content']}"
    calls = client.drain()
    assert len(calls) == 1 and calls[0]["provider"] == "tavily" and calls[0]["ok"]
    assert client.drain() == []


def test_tavily_failure_and_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    from matjip.providers.tavily import TavilyClient

    script = Script(Reply(status=500, body={"detail": {"error": "Internal"}}))
    client = TavilyClient(
        "tvly-test", transport=script.transport(), retry=RetryPolicy(max_retries=1, sleep=Sleeps())
    )
    with pytest.raises(ProviderError, match="500"):
        client.search("아무거나")
    assert len(script.seen) == 2
    assert client.drain()[0]["ok"] is False

    assert TavilyClient.from_settings(settings_from_env(monkeypatch, llm_timeout_s=5.0)) is None
    keyed = settings_from_env(monkeypatch, {"TAVILY_API_KEY": "tvly-x"}, llm_timeout_s=5.0)
    assert isinstance(TavilyClient.from_settings(keyed), TavilyClient)


# --- fake, options, pricing, helpers ---------------------------------------------------------------


def test_fake_llm_scripts_queues_functions_and_failures() -> None:
    fake = FakeLLM(
        script={
            "nlu": [NLU_OK, "not json", ProviderTimeout("slow")],
            "generate": Chunks(["가", "나", ProviderError("broken")]),
        },
        function=lambda call: {"intent": "compare", "entities": {"title": ["A", "B"]}},
    )
    assert fake.complete_json(MSGS, NLUOut, stage="nlu")[0].intent == "search"
    with pytest.raises(ValidationFailure):
        fake.complete_json(MSGS, NLUOut, stage="nlu")
    with pytest.raises(ProviderTimeout):
        fake.complete_json(MSGS, NLUOut, stage="nlu")
    assert fake.complete_json(MSGS, NLUOut, stage="nlu")[0].intent == "compare"  # queue empty → function
    stream = fake.stream_text(MSGS, stage="generate")
    got = []
    with pytest.raises(ProviderError):
        for p in stream:
            got.append(p)
    assert got == ["가", "나"] and stream.record is not None and not stream.record.ok
    assert len(fake.calls_for("nlu")) == 4 and fake.calls[0].user == MSGS[1]["content"]


_OPENAI: dict[str, Any] = {
    "llm_provider": "openai",
    "llm_timeout_s": 0.5,
    "llm_max_retries": 1,
    "llm_turn_budget_calls": 3,
    "llm_plan": True,
}


def test_options_from_settings_and_client_factory(monkeypatch: pytest.MonkeyPatch) -> None:
    def _settings(env: dict[str, str] | None = None, **fields: Any) -> Settings:
        return settings_from_env(monkeypatch, env, **{**_OPENAI, **fields})

    opts = LLMOptions.from_settings(_settings({"OPENAI_API_KEY": "sk-1"}))
    assert opts.model == "gpt-4o-mini" and opts.api_key == "sk-1"
    assert opts.base_url == "https://api.openai.com/v1"
    assert opts.stages == {"grade", "generate", "plan"} and opts.turn_budget_calls == 3
    assert "sk-1" not in repr(opts)
    assert isinstance(make_client(opts), OpenAICompatClient)
    with pytest.raises(ConfigurationError, match="OPENAI_API_KEY"):
        make_client(LLMOptions.from_settings(_settings()))
    local = _settings(llm_base_url="http://localhost:11434/v1", llm_model="llama3.1")
    client = make_client(LLMOptions.from_settings(local))
    assert isinstance(client, OpenAICompatClient) and client.base_url == "http://localhost:11434/v1"
    gem = _settings({"GOOGLE_API_KEY": "g-1"}, llm_provider="gemini")
    g = LLMOptions.from_settings(gem)
    assert g.model == "gemini-2.5-flash-lite" and g.api_key == "g-1"
    fake = _settings(llm_provider="fake")
    assert isinstance(make_client(LLMOptions.from_settings(fake)), FakeLLM)
    assert parse_stages("all") == {"understand", "decide", "plan", "grade", "generate"}
    assert parse_stages("none") == frozenset()
    with pytest.raises(ConfigurationError, match="summarize"):
        parse_stages("grade,summarize")
    env = {
        "MATJIP_LLM_JSON_MODE": "json_object",
        "MATJIP_LLM_BACKOFF_BASE_S": "0.01",
        "MATJIP_LLM_TEMPERATURE": "0",
    }
    tuned = LLMOptions.from_settings(_settings(env))
    assert (tuned.json_mode, tuned.backoff_base_s, tuned.temperature) == ("json_object", 0.01, 0.0)
    with pytest.raises(ConfigurationError, match="llm_json_mode"):
        LLMOptions.from_settings(_settings({"MATJIP_LLM_JSON_MODE": "xml"}))
    assert LLMOptions.from_settings(_settings({"MATJIP_LLM_STAGES": "understand,generate"})).stages == {
        "understand",
        "generate",
        "plan",
    }


def test_pricing() -> None:
    assert price_of("gpt-4o-mini-2024-07-18") == (0.15, 0.60)
    assert price_of("gpt-4o-2024-08-06") == (2.50, 10.00)
    assert price_of("models/gemini-2.5-flash-lite-preview-06-17") == (0.10, 0.40)
    assert price_of("llama3.1:8b") is None
    assert cost_usd("gpt-4o-mini", 1_000_000, 0) == pytest.approx(0.15)
    assert cost_usd("gpt-4o-mini", None, 10) is None
    assert cost_usd("qwen2.5", 10, 10) is None


def test_retry_helpers() -> None:
    assert parse_retry_after("3") == 3.0
    assert parse_retry_after(None) is None and parse_retry_after("soon") is None
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0  # in the past
    policy = RetryPolicy(max_retries=2, base_s=1.0, max_delay_s=3.0, jitter=0.0)
    assert [policy.delay(0), policy.delay(1), policy.delay(2)] == [1.0, 2.0, None]
    assert policy.delay(0, retry_after=2.5) == 2.5 and policy.delay(0, retry_after=10) is None


def test_inline_schema_has_no_refs() -> None:
    class Inner(BaseModel):
        a: int

    class Outer(BaseModel):
        items: list[Inner]

    schema = inline_schema(Outer)
    assert "$defs" not in schema and "$ref" not in json.dumps(schema)
    assert schema["properties"]["items"]["items"]["properties"]["a"]["type"] == "integer"


def test_call_record_short() -> None:
    rec = CallRecord(stage="grade", provider="openai", model="gpt-4o-mini", input_tokens=10, output_tokens=5)
    assert "grade openai/gpt-4o-mini 10→5 tok" in rec.short()
