"""Issue 13, defect 3: a provider whose error text echoes the API key never gets the key to a client
or into a log. The provider is a real HTTP server (``tests/fakes``) that echoes the Authorization
header; the app runs the real agent over the sample data with the ``openai`` provider pointed at it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fakes.http import ReplayServer, Script
from fakes.openai import echo_key_reply
from matjip.api import create_app
from matjip.settings import Settings, redact

KEY = "matjip-test-key-Qw3rTy9876"  # not key-shaped: only the settings know it is a secret
PROXY_KEY = "sk-proxy-upstream-7f3a9c1e5b2d"  # key-shaped, unknown to the settings


def test_redact_known_secrets_and_key_shaped_strings() -> None:
    text = f"bad key {KEY}; also sk-abcdefgh12345678, AIzaSyA1234567890abcdefghijk, Bearer tok.en-12345678"
    out = redact(text, [KEY])
    for leaked in (KEY, "sk-abcdefgh12345678", "AIzaSyA1234567890abcdefghijk", "tok.en-12345678"):
        assert leaked not in out
    assert redact("강남역 일식 맛집 task-manager 2,000원") == "강남역 일식 맛집 task-manager 2,000원"


@pytest.fixture
def leaky_client(sample_settings: Settings) -> Iterator[tuple[TestClient, ReplayServer]]:
    from matjip.agent.service import Agent

    with ReplayServer(Script(echo_key_reply)) as srv:
        settings = sample_settings.model_copy(
            update={
                "rate_limit_per_minute": 0,
                "llm_provider": "openai",
                "llm_base_url": srv.url + "/v1",
                "llm_max_retries": 0,
                "openai_api_key": __import__("pydantic").SecretStr(KEY),
            }
        )
        agent = Agent(settings, persist=False)
        try:
            with TestClient(create_app(settings, agent=agent)) as client:
                yield client, srv
        finally:
            agent.close()


def assert_clean(text: str) -> None:
    assert KEY not in text and PROXY_KEY not in text, text


def test_traces_answers_and_logs_never_carry_the_key(
    leaky_client: tuple[TestClient, ReplayServer], caplog: pytest.LogCaptureFixture
) -> None:
    client, srv = leaky_client
    caplog.set_level(logging.DEBUG)
    sse = client.post("/v1/chat", json={"message": "강남역 일식 맛집"})
    as_json = client.post("/v1/chat", json={"message": "홍대 고기집"}, headers={"Accept": "application/json"})
    oa = client.post("/v1/chat/completions", json={"messages": [{"role": "user", "content": "잠실 치킨집"}]})
    oa_stream = client.post(
        "/v1/chat/completions",
        json={"messages": [{"role": "user", "content": "잠실 치킨집"}], "stream": True},
    )
    search = client.get("/v1/search", params={"query": "강남역 라멘"})
    # the fake really was called with the key and really echoed it
    assert srv.script.seen and all(s.headers["authorization"] == f"Bearer {KEY}" for s in srv.script.seen)
    trace = json.dumps(as_json.json()["trace"], ensure_ascii=False)
    assert "***" in trace and "401" in trace  # the failure is still reported, without the key
    for resp in (sse, as_json, oa, oa_stream, search):
        assert resp.status_code == 200
        assert_clean(resp.text)
    assert "event: trace" in sse.text
    logged = "\n".join(
        logging.Formatter("%(message)s").format(r) + (r.exc_text or "") for r in caplog.records
    )
    assert_clean(logged)


def test_problem_details_and_extension_members_are_redacted(api_fake_agent: Any, tmp_path: Any) -> None:
    from matjip.api.problems import problem_body

    body = problem_body(502, f"upstream said {PROXY_KEY}", extra={"errors": [{"msg": f"key {PROXY_KEY}"}]})
    assert_clean(json.dumps(body))
