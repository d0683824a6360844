"""A protocol fake of Naver's local search API over the same synthetic area.

``GET /v1/search/local.json`` with ``query``, ``display`` (1–5), ``start`` (1 only), ``sort``
(``random``, ``comment``) and the headers ``X-Naver-Client-Id`` / ``X-Naver-Client-Secret``. Items
carry ``title`` (query words in ``<b>``), ``link``, ``category`` ("한식>국밥"), ``description``,
``telephone``, ``address``, ``roadAddress``, ``mapx``/``mapy`` (WGS84 × 10⁷ strings). Errors:
``{"errorMessage", "errorCode"}`` — 401 "024", 400 "SE01"–"SE04", 429 "010".

A query is "<place name> <menu word>": the fake knows the place names it is given (name → lon/lat),
matches the menu word in the name or category, and answers the nearest (``random``) or the most
reviewed (``comment``) within 1 km of the place.
"""

from __future__ import annotations

import threading
from typing import Any

import httpx

from fakes.local_area import FakePlace, meters, mock_transport, norm, synthetic_area

CLIENT_ID, CLIENT_SECRET = "test-naver-id", "test-naver-secret"
NEAR_M = 1000.0


def _err(status: int, code: str, message: str) -> tuple[int, dict[str, Any]]:
    return status, {"errorMessage": message, "errorCode": code}


class NaverLocalFake:
    def __init__(
        self,
        places: list[FakePlace] | None = None,
        names: dict[str, tuple[float, float]] | None = None,
        *,
        quota: int | None = None,
    ) -> None:
        self.places = places if places is not None else synthetic_area()
        self.names = {norm(k): v for k, v in (names or {}).items()}
        self.quota = quota
        self._text = {p.id: norm(p.name) + "|" + norm(p.path) for p in self.places}
        self.calls = 0
        self.today = 0
        self._lock = threading.Lock()

    def handle(
        self, method: str, path: str, params: dict[str, str], headers: dict[str, str]
    ) -> tuple[int, Any]:
        if path != "/v1/search/local.json":
            return _err(404, "024", "Not Found")
        with self._lock:
            self.calls += 1
            self.today += 1
            over = self.quota is not None and self.today > self.quota
        if (
            headers.get("x-naver-client-id") != CLIENT_ID
            or headers.get("x-naver-client-secret") != CLIENT_SECRET
        ):
            return _err(401, "024", "Authentication failed (인증에 실패했습니다.)")
        if over:
            return _err(429, "010", "Rate limit exceeded. (속도 제한을 초과했습니다.)")
        query = params.get("query", "").strip()
        if not query:
            return _err(400, "SE01", "Incorrect query request (잘못된 쿼리요청입니다.)")
        try:
            display, start = int(params.get("display", "1")), int(params.get("start", "1"))
        except ValueError:
            return _err(400, "SE02", "Invalid display value (부적절한 display 값입니다.)")
        if not 1 <= display <= 5:
            return _err(400, "SE02", "Invalid display value (부적절한 display 값입니다.)")
        if start != 1:
            return _err(400, "SE03", "Invalid start value (부적절한 start 값입니다.)")
        sort = params.get("sort", "random")
        if sort not in ("random", "comment"):
            return _err(400, "SE04", "Invalid sort value (부적절한 sort 값입니다.)")
        tokens = query.split()
        center: tuple[float, float] | None = None
        menu = norm(query)
        for i in range(len(tokens) - 1, 0, -1):
            where = norm(" ".join(tokens[:i]))
            if where in self.names:
                center, menu = self.names[where], norm(" ".join(tokens[i:]))
                break
        hits: list[tuple[FakePlace, float]] = []
        for p in self.places:
            if menu not in self._text[p.id]:
                continue
            d = meters(center[0], center[1], p.x, p.y) if center else 0.0
            if d <= NEAR_M:
                hits.append((p, d))
        if sort == "comment":
            hits.sort(key=lambda h: (-h[0].reviews, h[0].id))
        else:
            hits.sort(key=lambda h: (h[1], h[0].id))
        word = query.split()[-1]
        items = [
            {
                "title": p.name.replace(word, f"<b>{word}</b>"),
                "link": "",
                "category": p.path.replace(" > ", ">"),
                "description": "",
                "telephone": "",
                "address": f"서울특별시 {p.jibun}",
                "roadAddress": f"서울특별시 {p.road}",
                "mapx": str(round(p.x * 10_000_000)),
                "mapy": str(round(p.y * 10_000_000)),
            }
            for p, _ in hits[:display]
        ]
        return 200, {
            "lastBuildDate": "Fri, 27 Nov 2026 12:00:00 +0900",
            "total": len(hits),
            "start": 1,
            "display": len(items),
            "items": items,
        }

    def transport(self) -> httpx.MockTransport:
        return mock_transport(self.handle)
