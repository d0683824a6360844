"""Issue 13, defects 7 and 11: odd inputs get 4xx problems (never a 500), the OpenAPI document says what
the server really sends, a loopback client cannot forge ``X-Forwarded-For``."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from fakes.agent import ScriptedAgent
from matjip.api import create_app
from matjip.settings import Settings


@pytest.fixture
def client(api_settings: Settings, api_fake_agent: ScriptedAgent) -> Iterator[TestClient]:
    with TestClient(create_app(api_settings, agent=api_fake_agent), raise_server_exceptions=False) as c:
        yield c


RAW = {"Content-Type": "application/json"}


@pytest.mark.parametrize(
    "raw",
    [
        b'{"messages":[{"role":"user","content":"\\ud800 \xea\xb0\x95\xeb\x82\xa8"}]}',
        b'{"messages":[{"role":"user","content":"a\\udfff"}],"stream":true}',
        b'{"messages":[{"role":"user","content":[{"type":"text","text":"\\ud83d"}]}]}',
        b'{"messages":[{"role":"user","content":"hi"}],"user":"\\udc00"}',
    ],
)
def test_lone_surrogate_in_chat_completions_is_an_openai_400(client: TestClient, raw: bytes) -> None:
    resp = client.post("/v1/chat/completions", content=raw, headers=RAW)
    assert resp.status_code == 400, resp.text
    assert resp.headers["content-type"].startswith("application/problem+json")
    body = resp.json()
    assert body["error"]["type"] == "invalid_request_error" and body["error"]["message"]
    assert body["status"] == 400


def test_lone_surrogate_elsewhere_is_a_4xx(client: TestClient) -> None:
    assert client.post("/v1/chat", content=b'{"message":"\\ud800"}', headers=RAW).status_code in (400, 422)
    assert client.get("/v1/search?query=%ED%B3%BF").status_code < 500  # a surrogate's UTF-8-ish bytes
    resp = client.post(
        "/v1/chat/completions", json={"messages": [{"role": "user", "content": "hi"}], "user": "x"}
    )
    assert resp.status_code == 200 and json.loads(resp.text)["choices"]


def test_malformed_bodies_are_documented_problems(client: TestClient) -> None:
    for raw in (b"{not json", b"\xff\xfe\x00", b'{"message": "hi"'):
        resp = client.post("/v1/chat", content=raw, headers=RAW)
        assert resp.status_code in (400, 422) and resp.headers["content-type"].startswith(
            "application/problem+json"
        )
    schema = client.get("/openapi.json").json()
    for path, ops in schema["paths"].items():
        for method, op in ops.items():
            for status, response in op["responses"].items():
                if not status.startswith("2"):
                    assert list(response.get("content", {})) == ["application/problem+json"], (path, status)
            if "requestBody" in op:
                assert "400" in op["responses"], (path, method)
    for path in ("/v1/chat", "/v1/chat/completions"):
        sse = schema["paths"][path]["post"]["responses"]["200"]["content"]["text/event-stream"]["schema"]
        # one SSE event (what schemathesis validates each event against), the stream as the example
        assert sse["type"] == "object" and "data" in sse["required"] and sse.get("description")
        assert "data: " in sse.get("example", "")


@pytest.mark.parametrize(
    "location", [{"lat": True, "lon": 127.0}, {"lat": 37.5, "lon": False}, {"lat": "37.5", "lon": "127"}]
)
def test_a_boolean_or_string_is_not_a_coordinate(client: TestClient, location: dict[str, Any]) -> None:
    resp = client.post("/v1/chat", json={"message": "근처 맛집", "location": location})
    assert resp.status_code == 422, resp.text


@pytest.mark.parametrize("sid", ["0", "..", ".", "a", "-", "../etc", "x" * 129, "세션"])
def test_client_chosen_session_ids_are_validated(client: TestClient, sid: str) -> None:
    assert client.post("/v1/chat", json={"message": "안녕", "session_id": sid}).status_code == 422
    assert client.get("/v1/search", params={"query": "안녕", "session_id": sid}).status_code == 422


def test_server_issued_session_ids_are_accepted(client: TestClient) -> None:
    first = client.post("/v1/chat", json={"message": "안녕"}, headers={"Accept": "application/json"}).json()
    again = client.post(
        "/v1/chat",
        json={"message": "안녕", "session_id": first["session_id"]},
        headers={"Accept": "application/json"},
    )
    assert again.status_code == 200 and again.json()["session_id"] == first["session_id"]


def test_forwarded_for_from_loopback_is_not_trusted_by_default(
    api_settings: Settings, api_fake_agent: Any
) -> None:
    """A real uvicorn server with the options ``matjip serve`` uses: a local client that sends a new
    ``X-Forwarded-For`` on every request is still one client for the rate limit."""
    import uvicorn

    from matjip.commands.server import uvicorn_config

    settings = api_settings.model_copy(update={"rate_limit_per_minute": 2})
    config = uvicorn_config(settings, create_app(settings, agent=api_fake_agent), "127.0.0.1", 0)
    config.log_level = "warning"
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        while not server.started:
            thread.join(0.05)
        port = server.servers[0].sockets[0].getsockname()[1]
        statuses = [
            httpx.get(
                f"http://127.0.0.1:{port}/v1/models", headers={"X-Forwarded-For": f"203.0.113.{i}"}
            ).status_code
            for i in range(4)
        ]
    finally:
        server.should_exit = True
        thread.join(10)
    assert statuses[:2] == [200, 200] and statuses[2:] == [429, 429], statuses
    trusted = uvicorn_config(
        settings.model_copy(update={"trusted_proxies": ["10.0.0.1"]}), create_app(settings), "127.0.0.1", 0
    )
    assert trusted.proxy_headers and trusted.forwarded_allow_ips == "10.0.0.1"


def test_reject_messages_say_at_once(tmp_path: Any) -> None:
    from matjip.ingest.crawl import Reject, read_raw

    path = tmp_path / "bad.jsonl"
    path.write_text('{"place_id": "1", "title": "x"}\n{"title": "unterminated\n', encoding="utf-8")
    rejects = [r for r in read_raw(path) if isinstance(r, Reject)]
    assert len(rejects) == 1 and rejects[0].line == 2
    assert "at at" not in rejects[0].reason and "column" in rejects[0].reason, rejects[0].reason
