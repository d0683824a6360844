"""A protocol fake of Kakao Local search (and of the Kakao Map place page JSON), over a synthetic area.

Speaks the real wire format: ``GET /v2/local/search/category.json`` and ``…/keyword.json`` with
``Authorization: KakaoAK <key>``; ``{"meta": {"total_count", "pageable_count", "is_end",
"same_name"}, "documents": [...]}``; at most 45 documents per query (``pageable_count`` ≤ 45),
``size`` 1–15, ``page`` 1–45; errors as ``{"errorType", "message"}``: 401 missing/wrong key, 400 bad
parameters, 429 when the day's quota is used. ``GET /main/v/<id>`` answers the place page JSON
(basicInfo/menuInfo/comment), ``GET /__stats`` the calls served, ``POST``-free ``/__newday`` resets
the day's quota counter.

Run as a process (for kill -9 tests): ``python -m fakes.kakao_local --port 0`` prints its URL.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import threading
from typing import Any

import httpx

from fakes.local_area import FakePlace, FakeServer, meters, mock_transport, norm, synthetic_area

KEY = "test-kakao-key"
PAGEABLE = 45


def _err(status: int, kind: str, message: str) -> tuple[int, dict[str, Any]]:
    return status, {"errorType": kind, "message": message}


class KakaoLocalFake:
    def __init__(
        self, places: list[FakePlace] | None = None, *, key: str = KEY, quota: int | None = None
    ) -> None:
        self.places = places if places is not None else synthetic_area()
        self.by_id = {p.id: p for p in self.places}
        self.key = key
        self.quota = quota
        self._text = {p.id: norm(p.name) + "|" + norm(p.category_name) for p in self.places}
        self.calls = 0  # search calls answered (any status), all days
        self.today = 0
        self.detail_calls = 0
        self._lock = threading.Lock()

    # --- documents ---------------------------------------------------------------------------

    @staticmethod
    def doc(p: FakePlace, distance: float | None) -> dict[str, Any]:
        return {
            "id": p.id,
            "place_name": p.name,
            "category_name": p.category_name,
            "category_group_code": p.group,
            "category_group_name": "카페" if p.group == "CE7" else "음식점",
            "phone": p.phone,
            "address_name": f"서울 {p.jibun}",
            "road_address_name": f"서울 {p.road}",
            "x": f"{p.x:.7f}".rstrip("0"),
            "y": f"{p.y:.7f}".rstrip("0"),
            "place_url": f"http://place.map.kakao.com/{p.id}",
            "distance": "" if distance is None else str(round(distance)),
        }

    # --- the API -------------------------------------------------------------------------------

    def handle(
        self, method: str, path: str, params: dict[str, str], headers: dict[str, str]
    ) -> tuple[int, Any]:
        if path == "/__stats":
            return 200, {"calls": self.calls, "today": self.today, "detail_calls": self.detail_calls}
        if path == "/__newday":
            self.today = 0
            return 200, {"ok": True}
        if path.startswith("/main/v/"):
            with self._lock:
                self.detail_calls += 1
            return self.detail(path.rsplit("/", 1)[-1])
        if path not in ("/v2/local/search/category.json", "/v2/local/search/keyword.json"):
            return _err(404, "NotFound", f"no such path {path}")
        with self._lock:
            self.calls += 1
            self.today += 1
            over = self.quota is not None and self.today > self.quota
        auth = headers.get("authorization", "")
        if not auth:
            return _err(401, "AccessDeniedError", "cannot find appkey")
        if auth != f"KakaoAK {self.key}":
            return _err(401, "AccessDeniedError", f"wrong appKey({auth.removeprefix('KakaoAK ')}) format")
        if over:
            return _err(429, "RequestThrottled", "API limit has been exceeded.")
        return self.search(path.endswith("keyword.json"), params)

    def search(self, keyword: bool, params: dict[str, str]) -> tuple[int, Any]:
        try:
            page = int(params.get("page", "1"))
            size = int(params.get("size", "15"))
        except ValueError:
            return _err(400, "InvalidArgument", "page/size must be numbers")
        if not 1 <= page <= 45:
            return _err(400, "InvalidArgument", "page is more than max")
        if not 1 <= size <= 15:
            return _err(400, "InvalidArgument", "size is more than max")
        code = params.get("category_group_code", "")
        query = params.get("query", "")
        if keyword and not query.strip():
            return _err(400, "MissingParameter", "query parameter required")
        if not keyword and code not in ("FD6", "CE7", "AT4", "AD5"):
            return _err(400, "MissingParameter", "category_group_code parameter required")
        sort = params.get("sort", "accuracy")
        if sort not in ("accuracy", "distance"):
            return _err(400, "InvalidArgument", "sort is invalid")
        center: tuple[float, float] | None = None
        radius: float | None = None
        box: list[float] | None = None
        if "rect" in params:
            try:
                box = [float(v) for v in params["rect"].split(",")]
                assert len(box) == 4
            except (ValueError, AssertionError):
                return _err(400, "InvalidArgument", "rect is invalid")
        if "x" in params and "y" in params:
            try:
                center = (float(params["x"]), float(params["y"]))
                radius = float(params["radius"]) if "radius" in params else None
            except ValueError:
                return _err(400, "InvalidArgument", "x/y/radius must be numbers")
            if radius is not None and not 0 <= radius <= 20000:
                return _err(400, "InvalidArgument", "radius is more than max")
        if not keyword and box is None and (center is None or radius is None):
            return _err(400, "MissingParameter", "x, y, radius or rect parameter required")
        if sort == "distance" and center is None:
            return _err(400, "MissingParameter", "x, y parameter required for sort=distance")
        q = norm(query)
        hits: list[tuple[FakePlace, float | None]] = []
        for p in self.places:
            if code and p.group != code:
                continue
            if box is not None:
                bx1, by1, bx2, by2 = (
                    min(box[0], box[2]),
                    min(box[1], box[3]),
                    max(box[0], box[2]),
                    max(box[1], box[3]),
                )
                if not (bx1 <= p.x <= bx2 and by1 <= p.y <= by2):
                    continue
            dist = meters(center[0], center[1], p.x, p.y) if center is not None else None
            if radius is not None and dist is not None and dist > radius:
                continue
            if q and q not in self._text[p.id]:
                continue
            hits.append((p, dist))
        if sort == "distance":
            hits.sort(key=lambda h: (h[1] or 0.0, h[0].id))
        else:  # "accuracy": an order of the fake's own, different for every query
            hits.sort(key=lambda h: hashlib.sha1(f"{q}|{h[0].id}".encode()).hexdigest())
        pageable = hits[:PAGEABLE]
        chunk = pageable[(page - 1) * size : page * size]
        meta: dict[str, Any] = {
            "total_count": len(hits),
            "pageable_count": len(pageable),
            "is_end": page * size >= len(pageable),
            "same_name": {"region": [], "keyword": query, "selected_region": ""} if keyword else None,
        }
        return 200, {"meta": meta, "documents": [self.doc(p, d) for p, d in chunk]}

    # --- the place page (not an official API) ----------------------------------------------------

    def detail(self, pid: str) -> tuple[int, Any]:
        p = self.by_id.get(pid)
        if p is None:
            return 404, {"isExist": False}
        n = p.reviews
        comments = [
            {
                "contents": f"{p.word} 맛있어요 {i}",
                "point": 5 - i % 3,
                "username": f"u{i}",
                "date": "2024.05.01.",
            }
            for i in range(min(n, 3))
        ]
        return 200, {
            "isMapUser": "N",
            "isExist": True,
            "basicInfo": {
                "cid": int(p.id),
                "placenamefull": p.name,
                "phonenum": p.phone or None,
                "category": {"catename": p.path.split(" > ")[-1], "cate1name": p.path.split(" > ")[0]},
                "openHour": {
                    "periodList": [
                        {
                            "periodName": "영업기간",
                            "timeList": [
                                {"timeName": "영업시간", "timeSE": "11:00 ~ 22:00", "dayOfWeek": "매일"},
                                {"timeName": "휴게시간", "timeSE": "15:00 ~ 17:00", "dayOfWeek": "월~금"},
                            ],
                        }
                    ]
                },
            },
            "comment": {
                "placenamefull": p.name,
                "kamapComntcnt": n,
                "scoresum": 4 * n,
                "scorecnt": n,
                "list": comments,
                "strengthCounts": [
                    {"id": 1, "name": "맛", "count": n // 2},
                    {"id": 2, "name": "친절", "count": n // 4},
                ],
            },
            "menuInfo": {
                "menucount": 2,
                "menuList": [{"price": "9,000", "menu": p.word}, {"price": "12000", "menu": f"특{p.word}"}],
            },
        }

    def transport(self) -> httpx.MockTransport:
        return mock_transport(self.handle)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--n", type=int, default=3200)
    ap.add_argument("--quota", type=int, default=None)
    args = ap.parse_args(argv)
    fake = KakaoLocalFake(synthetic_area(args.seed, args.n), quota=args.quota)
    server = FakeServer(fake.handle, args.port)
    print(server.url, flush=True)
    sys.stdout.close()
    server.serve_forever()


if __name__ == "__main__":
    main()
