"""Web search with Tavily.

``POST https://api.tavily.com/search`` with ``Authorization: Bearer tvly-…`` and a JSON body
(``query``, ``max_results``, ``search_depth``, ``include_answer``); each of the response's
``results`` (``title``, ``url``, ``content``, ``score``) becomes a
:class:`WebResult`. The key comes from ``settings.tavily_api_key`` (``MATJIP_TAVILY_API_KEY``
or ``TAVILY_API_KEY``, environment or ``.env``). Failures raise
:class:`~matjip.errors.ProviderError`; the agent's web node turns them into "no web sources".
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import httpx
from pydantic import BaseModel

from matjip.errors import ConfigurationError, ProviderError, ProviderTimeout
from matjip.providers import tracing
from matjip.providers.base import CallRecord, RetryPolicy, error_text, finished_call
from matjip.providers.http import send_with_retries
from matjip.settings import Settings, secret
from matjip.wording import text

TAVILY_URL = "https://api.tavily.com/search"
MAX_CONTENT_CHARS = 600


class WebResult(BaseModel):
    """One web search result."""

    title: str
    content: str
    url: str | None = None


class TavilyClient:
    provider = "tavily"

    def __init__(
        self,
        api_key: str,
        *,
        url: str = TAVILY_URL,
        max_results: int = 3,
        search_depth: str = "basic",
        timeout_s: float = 10.0,
        retry: RetryPolicy | None = None,
        transport: httpx.BaseTransport | None = None,
        query_suffix: str = "",
        tracing_config: tracing.TracingConfig = tracing.OFF,
    ) -> None:
        if not api_key:
            raise ConfigurationError("Tavily needs an API key (MATJIP_TAVILY_API_KEY or TAVILY_API_KEY)")
        self._tracing = tracing_config
        self.url = url
        self.max_results = max_results
        self.search_depth = search_depth
        self.timeout_s = timeout_s
        self.retry = retry or RetryPolicy(max_retries=1)
        self.query_suffix = query_suffix
        self._http = httpx.Client(
            timeout=httpx.Timeout(timeout_s),
            headers={"Authorization": f"Bearer {api_key}", "Content-Type": "application/json"},
            transport=transport,
        )
        self._local = threading.local()

    @classmethod
    def from_settings(cls, settings: Settings) -> TavilyClient | None:
        """The client when ``settings.tavily_api_key`` is set, else ``None``."""
        key = secret(settings.tavily_api_key)
        if not key:
            return None
        return cls(
            key,
            timeout_s=min(settings.llm_timeout_s or 10.0, 15.0),
            tracing_config=tracing.TracingConfig.from_settings(settings),
        )

    def _pending(self) -> list[CallRecord]:
        pending: list[CallRecord] | None = getattr(self._local, "pending", None)
        if pending is None:
            pending = self._local.pending = []
        return pending

    def drain(self) -> list[dict[str, Any]]:
        """Records of the searches made on this thread since the last drain (for the trace)."""
        pending = self._pending()
        out = [r.model_dump(mode="json") for r in pending]
        pending.clear()
        return out

    def _post(self, body: dict[str, Any]) -> tuple[dict[str, Any], int]:
        try:
            resp, attempts = send_with_retries(lambda: self._http.post(self.url, json=body), self.retry)
        except httpx.TimeoutException as exc:
            raise ProviderTimeout(f"tavily did not answer within {self.timeout_s:g}s") from exc
        except httpx.TransportError as exc:
            raise ProviderError(f"tavily unreachable: {type(exc).__name__}") from exc
        if resp.status_code >= 400:
            detail = resp.text[:200].replace("\n", " ")
            raise ProviderError(f"tavily HTTP {resp.status_code}: {detail}")
        try:
            data = resp.json()
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise ProviderError("tavily sent a body that is not JSON") from exc
        if not isinstance(data, dict):
            raise ProviderError("tavily sent an unexpected body")
        return data, attempts

    def search(self, query: str) -> list[WebResult]:
        q = " ".join(f"{query} {self.query_suffix}".split())
        body = {
            "query": q[:400],
            "max_results": self.max_results,
            "search_depth": self.search_depth,
            "include_answer": False,
            "include_raw_content": False,
        }
        started = time.perf_counter()
        attempts = 1
        try:
            data, attempts = self._post(body)
            sources: list[WebResult] = []
            for item in data.get("results") or []:
                if not isinstance(item, dict):
                    continue
                title = " ".join(str(item.get("title") or "").split())
                content = " ".join(str(item.get("content") or "").split())
                if not title and not content:
                    continue
                if len(content) > MAX_CONTENT_CHARS:
                    content = content[:MAX_CONTENT_CHARS].rstrip() + " …"
                url = item.get("url")
                sources.append(
                    WebResult(
                        title=title or text("answer.web.untitled"),
                        content=content,
                        url=str(url) if url else None,
                    )
                )
        except ProviderError as exc:
            record = self._record(started, attempts, error_text(exc))
            self._pending().append(record)
            tracing.record_call(record, [{"role": "user", "content": q}], config=self._tracing)
            raise
        record = self._record(started, attempts, None)
        self._pending().append(record)
        tracing.record_call(
            record, [{"role": "user", "content": q}], [s.model_dump() for s in sources], config=self._tracing
        )
        return sources

    def _record(self, started: float, attempts: int, error: str | None) -> CallRecord:
        return finished_call("web", "tavily", self.search_depth, started, attempts=attempts, error=error)

    def close(self) -> None:
        self._http.close()
