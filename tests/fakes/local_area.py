"""A synthetic area for the collectors' protocol fakes, and a small HTTP server to serve a fake.

:func:`synthetic_area` makes ≥ 3,000 restaurants and cafés around 잠실 (송파구): dense clusters,
a spread of single places, a mall (30 places on one point) and a food court (90 places on ONE point,
more than Kakao's 45-document cap). Deterministic for a seed.
"""

from __future__ import annotations

import json
import math
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import httpx

AREA = (127.070, 37.495, 127.130, 37.525)  # lon/lat box around 잠실 (inside 송파구)

# (category path under "음식점", the word in the name, Kakao category group)
CATEGORIES: tuple[tuple[str, str, str], ...] = (
    ("한식 > 국밥", "국밥", "FD6"),
    ("한식 > 해장국", "해장국", "FD6"),
    ("한식 > 육류,고기 > 삼겹살", "삼겹살", "FD6"),
    ("한식 > 육류,고기 > 갈비", "갈비", "FD6"),
    ("한식 > 냉면", "냉면", "FD6"),
    ("한식 > 족발,보쌈", "족발", "FD6"),
    ("한식 > 국수 > 칼국수", "칼국수", "FD6"),
    ("한식 > 순대", "순대국", "FD6"),
    ("한식 > 찌개,전골", "김치찌개", "FD6"),
    ("한식 > 감자탕", "감자탕", "FD6"),
    ("일식 > 초밥,롤", "초밥", "FD6"),
    ("일식 > 일본식라면", "라멘", "FD6"),
    ("일식 > 돈까스,우동", "돈까스", "FD6"),
    ("중식 > 마라탕", "마라탕", "FD6"),
    ("양식 > 이탈리안", "파스타", "FD6"),
    ("양식 > 피자", "피자", "FD6"),
    ("양식 > 햄버거", "버거", "FD6"),
    ("치킨", "치킨", "FD6"),
    ("분식", "떡볶이", "FD6"),
    ("분식 > 김밥", "김밥", "FD6"),
    ("아시아음식 > 베트남음식", "쌀국수", "FD6"),
    ("술집 > 호프,요리주점", "호프", "FD6"),
    ("카페 > 커피전문점", "카페", "CE7"),
    ("카페 > 제과,베이커리", "베이커리", "CE7"),
    ("카페 > 디저트카페", "케이크", "CE7"),
)
PREFIXES = (
    "한양",
    "명동",
    "할매",
    "원조",
    "옛날",
    "솔밭",
    "청담",
    "황금",
    "푸른",
    "동네",
    "진미",
    "우리",
    "별빛",
    "소문난",
    "대박",
    "장터",
    "바다",
    "들꽃",
    "봄날",
    "한솥",
    "맛나",
    "정든",
    "해뜰",
    "달빛",
)
ROADS = ("올림픽로", "백제고분로", "석촌호수로", "송파대로", "잠실로", "오금로", "가락로", "삼학사로")
DONGS = ("잠실동", "신천동", "석촌동", "송파동", "방이동", "삼전동")


@dataclass
class FakePlace:
    id: str
    name: str
    path: str  # "한식 > 국밥" (under 음식점)
    word: str
    group: str
    x: float
    y: float
    phone: str
    jibun: str  # "송파구 잠실동 123-4"
    road: str  # "송파구 올림픽로 123"
    reviews: int
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def category_name(self) -> str:
        return f"음식점 > {self.path}"


def synthetic_area(
    seed: int = 7, n: int = 3200, rect: tuple[float, float, float, float] = AREA
) -> list[FakePlace]:
    rng = random.Random(seed)
    x1, y1, x2, y2 = rect
    points: list[tuple[float, float]] = []
    court = (round(x1 + (x2 - x1) * 0.41, 7), round(y1 + (y2 - y1) * 0.57, 7))
    mall = (round(x1 + (x2 - x1) * 0.73, 7), round(y1 + (y2 - y1) * 0.28, 7))
    points += [court] * 90 + [mall] * 30
    clusters = [(rng.uniform(x1, x2), rng.uniform(y1, y2)) for _ in range(7)]
    dense = int((n - len(points)) * 0.6)
    for i in range(dense):
        cx, cy = clusters[i % len(clusters)]
        r = abs(rng.gauss(0, 0.0015))
        a = rng.uniform(0, 2 * math.pi)
        points.append((min(x2, max(x1, cx + r * math.cos(a))), min(y2, max(y1, cy + r * math.sin(a)))))
    while len(points) < n:
        points.append((rng.uniform(x1, x2), rng.uniform(y1, y2)))
    places: list[FakePlace] = []
    for i, (x, y) in enumerate(points):
        path, word, group = CATEGORIES[rng.randrange(len(CATEGORIES))]
        pid = str(20_000_000 + i * 37)
        num = rng.randint(1, 999)
        places.append(
            FakePlace(
                id=pid,
                name=f"{rng.choice(PREFIXES)}{word} {DONGS[i % len(DONGS)][:-1]}{i}호점",
                path=path,
                word=word,
                group=group,
                x=round(x, 7),
                y=round(y, 7),
                phone=f"02-{rng.randint(400, 499)}-{rng.randint(1000, 9999)}" if rng.random() < 0.8 else "",
                jibun=f"송파구 {DONGS[i % len(DONGS)]} {num}-{rng.randint(1, 30)}",
                road=f"송파구 {rng.choice(ROADS)} {num}",
                reviews=rng.randint(0, 400),
            )
        )
    return places


def meters(x1: float, y1: float, x2: float, y2: float) -> float:
    dx = (x2 - x1) * 111_320 * math.cos(math.radians((y1 + y2) / 2))
    dy = (y2 - y1) * 110_540
    return math.hypot(dx, dy)


def norm(text: str) -> str:
    return "".join(text.split()).lower()


Handler = Callable[[str, str, dict[str, str], dict[str, str]], tuple[int, Any]]


def mock_transport(handle: Handler) -> httpx.MockTransport:
    def respond(request: httpx.Request) -> httpx.Response:
        params = dict(request.url.params)
        status, body = handle(
            request.method, request.url.path, params, {k.lower(): v for k, v in request.headers.items()}
        )
        return httpx.Response(status, json=body)

    return httpx.MockTransport(respond)


class FakeServer:
    """``with FakeServer(fake.handle) as srv: srv.url`` — a threaded HTTP server on 127.0.0.1."""

    def __init__(self, handle: Handler, port: int = 0) -> None:
        class _H(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                parts = urlsplit(self.path)
                params = dict(parse_qsl(parts.query, keep_blank_values=True))
                headers = {k.lower(): v for k, v in self.headers.items()}
                status, body = handle("GET", parts.path, params, headers)
                data = json.dumps(body, ensure_ascii=False).encode("utf-8")
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json;charset=UTF-8")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def log_message(self, format: str, *args: Any) -> None:
                return

        self._server = ThreadingHTTPServer(("127.0.0.1", port), _H)
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> FakeServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def serve_forever(self) -> None:
        self._server.serve_forever(poll_interval=0.05)
