"""Provider embedders against httpx.MockTransport speaking the real response shapes."""

from __future__ import annotations

import json
from typing import Any

import httpx
import numpy as np
import pytest

from matjip.errors import ConfigurationError, ProviderError, ProviderTimeout
from matjip.index.embed import Embedder
from matjip.index.embed.registry import create
from matjip.index.embed.remote import GeminiEmbedder, OpenAIEmbedder
from matjip.settings import Settings
from support.settings import clear_options


def _vec(text: str, dim: int) -> list[float]:
    """A deterministic non-normalised vector per text."""
    rng = np.random.default_rng(sum(text.encode()))
    return (rng.standard_normal(dim) * 3).tolist()


class OpenAIServer:
    def __init__(self, dim: int = 8, fail_first: int = 0, status: int = 429) -> None:
        self.dim = dim
        self.requests: list[dict[str, Any]] = []
        self.headers: list[httpx.Headers] = []
        self.urls: list[str] = []
        self.fail_first = fail_first
        self.status = status

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.urls.append(str(request.url))
        self.headers.append(request.headers)
        body = json.loads(request.content)
        self.requests.append(body)
        if self.fail_first:
            self.fail_first -= 1
            return httpx.Response(self.status, json={"error": {"message": "slow down", "type": "rate_limit"}})
        data = [
            {"object": "embedding", "index": i, "embedding": _vec(t, body.get("dimensions", self.dim))}
            for i, t in enumerate(body["input"])
        ]
        data.reverse()  # the API does not promise order; the client must sort by index
        return httpx.Response(
            200,
            json={
                "object": "list",
                "data": data,
                "model": body["model"],
                "usage": {"prompt_tokens": 5, "total_tokens": 5},
            },
        )


def _openai(server: OpenAIServer, **kw: Any) -> OpenAIEmbedder:
    return OpenAIEmbedder(
        api_key="sk-test",
        base_url="https://llm.example/v1/",
        transport=httpx.MockTransport(server),
        sleep=lambda s: None,
        **kw,
    )


def test_openai_embeds_in_batches_and_normalises() -> None:
    server = OpenAIServer()
    e = _openai(server, model="my-embedder")
    e.batch_size = 2
    texts = ["라멘", "", "치맥", "해장국", "   "]
    m = e.embed_documents(texts)
    assert isinstance(e, Embedder)
    assert e.name == "openai:my-embedder" and e.dim == 8  # unknown model: dim from the answer
    assert m.shape == (5, 8) and m.dtype == np.float32
    assert not m[1].any() and not m[4].any(), "blank texts are not sent and get zero vectors"
    for i, t in ((0, "라멘"), (2, "치맥"), (3, "해장국")):
        expected = np.array(_vec(t, 8), dtype=np.float32)
        assert np.allclose(m[i], expected / np.linalg.norm(expected), atol=1e-6)
    assert [r["input"] for r in server.requests] == [["라멘", "치맥"], ["해장국"]]
    assert all(u == "https://llm.example/v1/embeddings" for u in server.urls)
    assert server.headers[0]["authorization"] == "Bearer sk-test"
    assert server.requests[0]["model"] == "my-embedder"
    assert np.allclose(e.embed_query("라멘"), m[0])


def test_openai_dimensions_and_known_dims() -> None:
    server = OpenAIServer()
    e = _openai(server, model="text-embedding-3-large", dimensions=16)
    assert (e.name, e.dim) == ("openai:text-embedding-3-large@16", 16)
    assert e.embed_query("라멘").shape == (16,)
    assert server.requests[0]["dimensions"] == 16
    assert OpenAIEmbedder(api_key="k").dim == 1536


def test_openai_retries_then_succeeds() -> None:
    server = OpenAIServer(dim=1536, fail_first=2)
    sleeps: list[float] = []
    e = OpenAIEmbedder(api_key="k", transport=httpx.MockTransport(server), max_retries=2, sleep=sleeps.append)
    assert np.linalg.norm(e.embed_query("라멘")) == pytest.approx(1.0, abs=1e-5)
    assert len(server.requests) == 3 and sleeps == [0.5, 1.0]


def test_openai_errors() -> None:
    e = _openai(OpenAIServer(fail_first=5), max_retries=1)
    with pytest.raises(ProviderError, match="HTTP 429"):
        e.embed_query("라멘")
    e = _openai(OpenAIServer(fail_first=1, status=401), max_retries=3)
    with pytest.raises(ProviderError, match="HTTP 401"):  # not retried
        e.embed_query("라멘")

    def timeout(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("slow", request=request)

    e = OpenAIEmbedder(
        api_key="k", transport=httpx.MockTransport(timeout), max_retries=1, sleep=lambda s: None
    )
    with pytest.raises(ProviderTimeout):
        e.embed_query("라멘")

    def short(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"data": [], "model": "m", "usage": {}})

    e = OpenAIEmbedder(api_key="k", transport=httpx.MockTransport(short))
    with pytest.raises(ProviderError, match="unexpected response"):
        e.embed_query("라멘")


def test_openai_configuration(monkeypatch: pytest.MonkeyPatch) -> None:
    clear_options(monkeypatch)
    with pytest.raises(ConfigurationError, match="OPENAI_API_KEY"):
        create("openai", Settings(_env_file=None))  # type: ignore[call-arg]
    monkeypatch.setenv("OPENAI_API_KEY", "sk-env")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://localhost:8000/v1")
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    e = create("openai:text-embedding-3-small@256", settings)
    assert isinstance(e, OpenAIEmbedder)
    assert (e.name, e.dim, e.model, e.dimensions) == (
        "openai:text-embedding-3-small@256",
        256,
        "text-embedding-3-small",
        256,
    )
    assert e._request(["x"], query=True)[0] == "http://localhost:8000/v1/embeddings"
    assert create("openai", settings).name == "openai:text-embedding-3-small"
    with pytest.raises(ConfigurationError):
        create("openai:text-embedding-3-small@abc", settings)


class GeminiServer:
    def __init__(self, dim: int = 6) -> None:
        self.dim = dim
        self.calls: list[tuple[str, httpx.Headers, dict[str, Any]]] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        self.calls.append((str(request.url), request.headers, body))
        out = []
        for r in body["requests"]:
            dim = r.get("outputDimensionality", self.dim)
            out.append({"values": _vec(r["content"]["parts"][0]["text"], dim)})
        return httpx.Response(200, json={"embeddings": out})


def test_gemini_batch_embed_contents() -> None:
    server = GeminiServer()
    e = GeminiEmbedder(
        "text-embedding-004", api_key="g-key", transport=httpx.MockTransport(server), dimensions=6
    )
    e.batch_size = 2
    m = e.embed_documents(["라멘", "치맥", "", "해장국"])
    assert (e.name, e.dim) == ("gemini:text-embedding-004@6", 6)
    assert m.shape == (4, 6) and m.dtype == np.float32 and not m[2].any()
    assert np.allclose(np.linalg.norm(m[[0, 1, 3]], axis=1), 1, atol=1e-6)
    url, headers, body = server.calls[0]
    assert (
        url == "https://generativelanguage.googleapis.com/v1beta/models/text-embedding-004:batchEmbedContents"
    )
    assert headers["x-goog-api-key"] == "g-key"
    assert body["requests"][0] == {
        "model": "models/text-embedding-004",
        "content": {"parts": [{"text": "라멘"}]},
        "taskType": "RETRIEVAL_DOCUMENT",
        "outputDimensionality": 6,
    }
    assert len(server.calls) == 2
    e.embed_query("라멘")
    assert server.calls[-1][2]["requests"][0]["taskType"] == "RETRIEVAL_QUERY"


def test_gemini_errors_and_configuration(monkeypatch: pytest.MonkeyPatch) -> None:
    clear_options(monkeypatch)
    with pytest.raises(ConfigurationError, match="GEMINI_API_KEY"):
        create("gemini", Settings(_env_file=None))  # type: ignore[call-arg]
    monkeypatch.setenv("GOOGLE_API_KEY", "g")
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    e = create("gemini", settings)
    assert isinstance(e, GeminiEmbedder) and (e.name, e.dim) == ("gemini:gemini-embedding-001", 3072)
    assert create("gemini:models/text-embedding-004", settings).name == "gemini:text-embedding-004"

    def bad(request: httpx.Request) -> httpx.Response:
        return httpx.Response(
            400, json={"error": {"code": 400, "message": "API key not valid", "status": "INVALID_ARGUMENT"}}
        )

    e = GeminiEmbedder(api_key="g", transport=httpx.MockTransport(bad))
    with pytest.raises(ProviderError, match="API key not valid"):
        e.embed_query("라멘")

    def wrong_dim(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"embeddings": [{"values": [1.0, 2.0]}]})

    e = GeminiEmbedder(api_key="g", transport=httpx.MockTransport(wrong_dim))
    with pytest.raises(ProviderError, match="3072"):
        e.embed_query("라멘")
