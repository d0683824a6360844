"""The HTTP side every collector shares: daily quota, rate limit, retries with backoff, one-line errors.

* before each call the day's count (in the run's state) is checked against the source's quota:
  at the quota the run stops with :class:`~matjip.errors.QuotaReached` (state kept, resume tomorrow);
* 429 and 5xx answers and transport failures are retried with exponential backoff (``Retry-After``
  when the API sends one); a 429 that outlasts the retries is the API's own quota: the same stop;
* 401/403 is :class:`~matjip.errors.CollectKeyError` naming the key variable and the source;
* any other 4xx is a request the API refuses: :class:`~matjip.errors.ProviderError` with its message.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import httpx

from matjip.collect.state import CollectState
from matjip.errors import CollectKeyError, ProviderError, QuotaReached
from matjip.settings import Settings
from matjip.wording import say


@dataclass(frozen=True)
class CallPolicy:
    quota: int
    rate_per_s: float
    max_retries: int
    backoff_s: float
    backoff_max_s: float
    timeout_s: float

    @classmethod
    def from_settings(cls, settings: Settings, quota: int, rate_per_s: float | None = None) -> CallPolicy:
        return cls(
            quota=quota,
            rate_per_s=settings.collect_rate_per_s if rate_per_s is None else rate_per_s,
            max_retries=settings.collect_max_retries,
            backoff_s=settings.collect_backoff_s,
            backoff_max_s=settings.collect_backoff_max_s,
            timeout_s=settings.collect_timeout_s,
        )


def today(settings: Settings) -> str:
    """The quota day: ``MATJIP_COLLECT_TODAY`` or today in the settings' time zone (the APIs' quotas
    reset at midnight, Korean time)."""
    if settings.collect_today:
        return settings.collect_today
    return datetime.now(ZoneInfo(settings.timezone)).date().isoformat()


def error_message(resp: httpx.Response) -> str:
    """The API's own words: Kakao's ``{"errorType", "message"}``, Naver's ``{"errorCode", "errorMessage"}``."""
    try:
        body = resp.json()
    except (json.JSONDecodeError, UnicodeDecodeError, ValueError):
        return resp.text[:120].strip()
    if not isinstance(body, dict):
        return str(body)[:120]
    kind = body.get("errorType") or body.get("errorCode") or body.get("code") or ""
    msg = body.get("message") or body.get("errorMessage") or body.get("msg") or ""
    return " ".join(str(x) for x in (kind, msg) if x != "")[:160]


def _quota_words(text: str) -> bool:
    low = text.lower()
    return any(w in low for w in ("quota", "limit", "exceed", "-10", "throttl", "한도", "초과"))


class ApiClient:
    """GET JSON from one source, within its quota and rate, retrying what is worth retrying."""

    def __init__(
        self,
        *,
        source: str,
        label: str,
        key_name: str,
        base_url: str,
        headers: dict[str, str],
        state: CollectState,
        policy: CallPolicy,
        day: str,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.source = source
        self.label = label
        self.key_name = key_name
        self.base_url = base_url.rstrip("/")
        self.state = state
        self.policy = policy
        self.day = day
        self._sleep = sleep
        self._clock = clock
        self._last = -1e9
        self.calls_this_run = 0
        self._http = httpx.Client(
            timeout=httpx.Timeout(policy.timeout_s), headers=headers, transport=transport
        )

    def close(self) -> None:
        self._http.close()

    @property
    def calls_today(self) -> int:
        return self.state.calls(self.day, self.source)

    def _stop(self, why: str) -> QuotaReached:
        n = self.calls_today
        return QuotaReached(
            say("collect.client.quota", label=self.label, day=self.day, n=f"{n:,}", why=why),
            calls=n,
        )

    def _pace(self) -> None:
        if self.policy.rate_per_s <= 0:
            return
        gap = 1.0 / self.policy.rate_per_s
        wait = self._last + gap - self._clock()
        if wait > 0:
            self._sleep(wait)
        self._last = self._clock()

    def _backoff(self, attempt: int, resp: httpx.Response | None) -> None:
        wait = min(self.policy.backoff_max_s, self.policy.backoff_s * (2**attempt))
        if resp is not None:
            with contextlib.suppress(ValueError):
                wait = min(self.policy.backoff_max_s, max(wait, float(resp.headers.get("retry-after", ""))))
        self._sleep(wait)

    def get(self, path: str, params: dict[str, Any], *, missing_ok: bool = False) -> dict[str, Any]:
        """The JSON body; with ``missing_ok`` a 404 is an empty body (a page that is gone)."""
        url = f"{self.base_url}/{path.lstrip('/')}"
        last = ""
        for attempt in range(self.policy.max_retries + 1):
            if self.calls_today >= self.policy.quota:
                raise self._stop(f"MATJIP_COLLECT_QUOTA_{self.source.upper()}={self.policy.quota:,}")
            self._pace()
            try:
                resp = self._http.get(url, params=params)
            except httpx.TransportError as exc:
                last = f"{type(exc).__name__}"
                if attempt < self.policy.max_retries:
                    self._backoff(attempt, None)
                    continue
                raise ProviderError(
                    say("collect.client.unreachable", label=self.label, last=last, url=self.base_url)
                ) from exc
            self.state.count_call(self.day, self.source)
            self.calls_this_run += 1
            status = resp.status_code
            if status == 200:
                try:
                    data = resp.json()
                except (json.JSONDecodeError, UnicodeDecodeError, ValueError) as exc:
                    raise ProviderError(say("collect.client.not_json", label=self.label)) from exc
                if not isinstance(data, dict):
                    raise ProviderError(say("collect.client.bad_shape", label=self.label))
                return data
            message = error_message(resp)
            if status == 404 and missing_ok:
                return {}
            if status in (401, 403):
                raise CollectKeyError(
                    say(
                        "collect.client.bad_key",
                        key=self.key_name,
                        label=self.label,
                        status=status,
                        message=message,
                    ).strip()
                )
            if status == 429 or status >= 500:
                last = f"HTTP {status} {message}".strip()
                if attempt < self.policy.max_retries:
                    self._backoff(attempt, resp)
                    continue
                if status == 429:
                    raise self._stop(say("collect.client.refused_429", message=message))
                raise ProviderError(
                    say(
                        "collect.client.retries_failed",
                        label=self.label,
                        last=last,
                        retries=self.policy.max_retries,
                    )
                )
            if _quota_words(message):
                raise self._stop(say("collect.client.quota_message", message=message))
            raise ProviderError(
                say("collect.client.refused", label=self.label, status=status, message=message)
            )
        raise ProviderError(f"{self.label}: {last}")  # pragma: no cover - the loop always returns or raises
