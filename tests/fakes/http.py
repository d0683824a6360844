"""A local HTTP server that replays scripted responses (real TCP, real HTTP, real SSE framing),
and an ``httpx.MockTransport`` script with the same reply objects."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx


@dataclass
class Reply:
    """One scripted response. ``chunks`` (bytes) are written and flushed one by one, for SSE;
    ``delay_s`` makes the server wait before answering (for client timeouts); ``error`` makes a
    MockTransport raise it instead of answering."""

    status: int = 200
    body: Any = None  # dict/list → JSON, str/bytes → verbatim
    headers: dict[str, str] = field(default_factory=dict)
    chunks: list[bytes] | None = None
    delay_s: float = 0.0
    error: Exception | None = None

    def payload(self) -> bytes:
        if self.body is None:
            return b""
        if isinstance(self.body, bytes):
            return self.body
        if isinstance(self.body, str):
            return self.body.encode("utf-8")
        return json.dumps(self.body, ensure_ascii=False).encode("utf-8")

    def content_type(self) -> str:
        if self.chunks is not None:
            return "text/event-stream"
        return "application/json" if isinstance(self.body, dict | list) else "text/plain; charset=utf-8"


@dataclass
class Seen:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body.decode("utf-8")) if self.body else None


class Script:
    """Replies in order (the last one repeats), and every request seen."""

    def __init__(self, *replies: Reply | Callable[[Seen], Reply]) -> None:
        self.replies = list(replies)
        self.seen: list[Seen] = []
        self._lock = threading.Lock()

    def next(self, seen: Seen) -> Reply:
        with self._lock:
            self.seen.append(seen)
            reply = self.replies.pop(0) if len(self.replies) > 1 else self.replies[0]
        return reply(seen) if callable(reply) else reply

    # --- as an httpx transport ---------------------------------------------------------------

    def transport(self) -> httpx.MockTransport:
        def handle(request: httpx.Request) -> httpx.Response:
            seen = Seen(request.method, request.url.raw_path.decode(), dict(request.headers), request.read())
            reply = self.next(seen)
            if reply.error is not None:
                raise reply.error
            headers = {"content-type": reply.content_type(), **reply.headers}
            if reply.chunks is not None:
                chunks = list(reply.chunks)
                return httpx.Response(reply.status, headers=headers, stream=_Stream(chunks))
            return httpx.Response(reply.status, headers=headers, content=reply.payload())

        return httpx.MockTransport(handle)


class _Stream(httpx.SyncByteStream):
    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks

    def __iter__(self) -> Iterator[bytes]:
        yield from self.chunks


class ReplayServer:
    """``with ReplayServer(script) as srv: srv.url`` — a threaded HTTP/1.1 server on 127.0.0.1."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self._release = threading.Event()
        release = self._release

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else b""
                seen = Seen("POST", self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                reply = script.next(seen)
                if reply.delay_s:
                    release.wait(reply.delay_s)
                try:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", reply.content_type())
                    for k, v in reply.headers.items():
                        self.send_header(k, v)
                    if reply.chunks is not None:
                        self.send_header("Transfer-Encoding", "chunked")
                        self.end_headers()
                        for chunk in reply.chunks:
                            self.wfile.write(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
                            self.wfile.flush()
                        self.wfile.write(b"0\r\n\r\n")
                    else:
                        data = reply.payload()
                        self.send_header("Content-Length", str(len(data)))
                        self.end_headers()
                        self.wfile.write(data)
                    self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout test)
                    pass

            def log_message(self, format: str, *args: Any) -> None:
                return

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    @property
    def url(self) -> str:
        port = self._server.server_address[1]
        return f"http://127.0.0.1:{port}"

    def __enter__(self) -> ReplayServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._release.set()
        self._server.shutdown()
        self._server.server_close()
