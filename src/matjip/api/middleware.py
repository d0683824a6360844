"""Pure ASGI middlewares: request size limit, per-client rate limit, catch-all 500.

Pure ASGI (not ``BaseHTTPMiddleware``) so streamed responses pass through untouched.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from matjip.api.problems import PROBLEM_MEDIA_TYPE, problem_bytes
from matjip.wording import say, text

log = logging.getLogger("matjip.api")


async def send_problem(
    send: Send, status: int, detail: str, *, kind: str, instance: str, headers: dict[str, str] | None = None
) -> None:
    body = problem_bytes(status, detail, kind=kind, instance=instance)
    raw_headers = [
        (b"content-type", PROBLEM_MEDIA_TYPE.encode()),
        (b"content-length", str(len(body)).encode()),
    ]
    raw_headers += [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": raw_headers})
    await send({"type": "http.response.body", "body": body})


class BodySizeLimitMiddleware:
    """Answer 413 when the request body exceeds ``max_bytes`` (declared or actually sent).

    The body (at most ``max_bytes``) is read here first, then replayed to the app, so an
    oversized chunked upload is refused before any route sees it.
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or self.max_bytes <= 0
            or scope.get("method") in ("GET", "HEAD", "OPTIONS")
        ):
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        detail = say("api.error.body_too_large", max_bytes=f"{self.max_bytes:,}")
        for name, value in scope.get("headers") or []:
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = 0
                if declared > self.max_bytes:
                    await send_problem(send, 413, detail, kind="payload-too-large", instance=path)
                    return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            if message["type"] != "http.request":
                continue
            body = message.get("body", b"")
            size += len(body)
            if size > self.max_bytes:
                await send_problem(send, 413, detail, kind="payload-too-large", instance=path)
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


@dataclass
class _Bucket:
    tokens: float
    updated: float


class TokenBucketLimiter:
    """A token bucket per key: ``capacity`` tokens, refilled at ``per_minute / 60`` tokens a second."""

    def __init__(
        self, per_minute: int, *, clock: Callable[[], float] = time.monotonic, max_keys: int = 10_000
    ) -> None:
        self.capacity = float(max(per_minute, 1))
        self.rate = max(per_minute, 1) / 60.0
        self.clock = clock
        self.max_keys = max_keys
        self._buckets: dict[str, _Bucket] = {}
        self._lock = threading.Lock()

    def acquire(self, key: str) -> float:
        """Take one token. Returns 0 when allowed, else the seconds until a token is available."""
        now = self.clock()
        with self._lock:
            bucket = self._buckets.get(key)
            if bucket is None:
                if len(self._buckets) >= self.max_keys:
                    self._evict(now)
                bucket = self._buckets[key] = _Bucket(self.capacity, now)
            else:
                bucket.tokens = min(self.capacity, bucket.tokens + (now - bucket.updated) * self.rate)
                bucket.updated = now
            if bucket.tokens >= 1.0:
                bucket.tokens -= 1.0
                return 0.0
            return (1.0 - bucket.tokens) / self.rate

    def _evict(self, now: float) -> None:
        full = [
            k for k, b in self._buckets.items() if b.tokens + (now - b.updated) * self.rate >= self.capacity
        ]
        for k in full:
            del self._buckets[k]
        if len(self._buckets) >= self.max_keys:  # still full: drop the stalest half
            stale = sorted(self._buckets, key=lambda k: self._buckets[k].updated)[: self.max_keys // 2]
            for k in stale:
                del self._buckets[k]


class RateLimitMiddleware:
    """429 with ``Retry-After`` when a client IP exceeds its token bucket; only for API paths."""

    def __init__(
        self, app: ASGIApp, limiter: TokenBucketLimiter | None, prefixes: tuple[str, ...] = ("/v1/",)
    ) -> None:
        self.app = app
        self.limiter = limiter
        self.prefixes = prefixes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.limiter is None or scope.get("method") == "OPTIONS":
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        if not path.startswith(self.prefixes):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        key = client[0] if client else "unknown"
        wait = self.limiter.acquire(key)
        if wait > 0:
            retry = max(1, math.ceil(wait))
            await send_problem(
                send,
                429,
                say("api.error.rate_limited", retry=retry),
                kind="rate-limited",
                instance=path,
                headers={"Retry-After": str(retry)},
            )
            return
        await self.app(scope, receive, send)


class CatchAllMiddleware:
    """Log any unhandled exception with its traceback; answer a generic 500 problem (no details)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except Exception:
            log.exception("unhandled error in %s %s", scope.get("method"), scope.get("path"))
            if not started:
                await send_problem(
                    send,
                    500,
                    text("api.error.internal"),
                    kind="internal-error",
                    instance=scope.get("path", ""),
                )


WORKER_HEADER = "X-Matjip-Worker"


class WorkerHeaderMiddleware:
    """Every response says which process answered (``X-Matjip-Worker: <pid>``): with
    ``matjip serve --workers N`` the N workers share one port, and a client or an operator can
    see which one served a request (a conversation continues on any of them)."""

    def __init__(self, app: ASGIApp) -> None:
        import os

        self.app = app
        self.value = str(os.getpid()).encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_worker(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers") or [])
                headers.append((WORKER_HEADER.lower().encode(), self.value))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_worker)
