"""Every restaurant and café of a rectangle through Kakao Local's category search.

``GET {MATJIP_KAKAO_LOCAL_URL}/v2/local/search/category.json`` with ``category_group_code`` (``FD6``
음식점, ``CE7`` 카페), ``rect=x1,y1,x2,y2``, ``page`` 1–45, ``size`` ≤ 15 and ``Authorization: KakaoAK
<key>``; the body is ``{"meta": {"total_count", "pageable_count", "is_end", "same_name"}, "documents":
[{"id", "place_name", "category_name": "음식점 > 한식 > 국밥", "category_group_code", "phone",
"address_name", "road_address_name", "x", "y", "place_url", "distance"}]}``. Errors come as
``{"errorType": "AccessDeniedError", "message": …}`` (401 bad key, 400 bad parameters, 429 quota).

The API shows at most 45 documents of a query (``pageable_count`` ≤ 45). A rectangle holding more
(``total_count`` > 45) is split in four, recursively (a quadtree). A rectangle smaller than
:data:`MIN_RECT_DEG` that still holds more is many places on one point (a food court, a mall floor):
it becomes a *point* task that asks again with the other sort order and with keyword queries
(``/v2/local/search/keyword.json``, ``x``/``y``/``radius``, the category, kind words and the leaf
categories seen there), checkpointing after each query; what still cannot be reached is counted
(``unreached``) and reported, never silently lost.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from matjip.collect.area import Rect
from matjip.collect.client import ApiClient
from matjip.collect.records import CollectedPlace, crawl_category, to_e7
from matjip.collect.state import CollectState, Task
from matjip.errors import ProviderError
from matjip.wording import text

SOURCE = "kakao"
PAGE_SIZE = 15
PAGEABLE = 45
MIN_RECT_DEG = 0.0002  # ~20 m: below this a rectangle is one point for the quadtree
POINT_RADIUS_M = 30
EPS_DEG = 1e-6  # coordinates travel as text: a place on a rectangle's edge is inside it
CATEGORIES = {"FD6": "음식점", "CE7": "카페"}


def _float(value: Any) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def place_of(doc: dict[str, Any]) -> CollectedPlace | None:
    """A Kakao Local document as a crawl record (None for a document without id, name or point)."""
    pid, name = doc.get("id"), doc.get("place_name")
    x, y = _float(doc.get("x")), _float(doc.get("y"))
    if not pid or not name or x is None or y is None:
        return None
    return CollectedPlace(
        place_id=str(pid),
        title=str(name),
        category=crawl_category(str(doc.get("category_name") or "")),
        address=str(doc.get("address_name") or ""),
        roadAddress=str(doc.get("road_address_name") or ""),
        mapx=to_e7(x),
        mapy=to_e7(y),
        telephone=str(doc["phone"]) if doc.get("phone") else None,
        place_url=str(doc["place_url"]) if doc.get("place_url") else None,
        category_group=str(doc.get("category_group_code") or "") or None,
        source=SOURCE,
        provenance={SOURCE: str(pid)},
    )


def rect_task(code: str, rect: Rect) -> Task:
    return Task(SOURCE, f"rect:{code}:{rect.param()}", "rect", {"code": code, "rect": rect.as_list()})


def start_tasks(rect: Rect, codes: list[str]) -> list[Task]:
    return [rect_task(code, rect) for code in codes]


class KakaoCollector:
    """Runs the Kakao tasks of a state until none is pending (or the quota stops it)."""

    def __init__(
        self,
        client: ApiClient,
        state: CollectState,
        words: list[str],
        progress: Callable[[], None] = lambda: None,
    ) -> None:
        self.client = client
        self.state = state
        self.words = words
        self.progress = progress

    def _page(
        self, path: str, params: dict[str, Any], page: int
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        data = self.client.get(f"/v2/local/search/{path}", {**params, "page": page, "size": PAGE_SIZE})
        meta, docs = data.get("meta"), data.get("documents")
        if not isinstance(meta, dict) or not isinstance(docs, list):
            raise ProviderError(text("collect.provider.kakao_shape"))
        return meta, [d for d in docs if isinstance(d, dict)]

    def _all_pages(self, path: str, params: dict[str, Any]) -> tuple[int, list[CollectedPlace]]:
        """(total_count, places) of every page the API shows (≤ 45 documents)."""
        out: list[CollectedPlace] = []
        total = 0
        for page in range(1, PAGEABLE // PAGE_SIZE + 1):
            meta, docs = self._page(path, params, page)
            total = int(meta.get("total_count") or 0)
            out.extend(p for d in docs if (p := place_of(d)) is not None)
            if meta.get("is_end", True) or not docs:
                break
        return total, out

    def run(self) -> None:
        while (task := self.state.next_task(SOURCE, ("rect", "point"))) is not None:
            if task.kind == "rect":
                self._rect(task)
            else:
                self._point(task)
            self.progress()
        self.count_unreached()

    def _inside(self, rect: Rect, code: str) -> set[str]:
        return {
            p.place_id
            for p in self.state.places(SOURCE)
            if p.category_group == code
            and p.lon is not None
            and p.lat is not None
            and rect.contains(p.lon, p.lat, EPS_DEG)
        }

    def count_unreached(self) -> None:
        """What the dense points still hide: per point, its total minus the places found inside it
        (by any task). Points on a split line belong to several rectangles that touch; such a
        group counts once (its largest shortfall)."""
        tasks = self.state.tasks(SOURCE, "point")
        points = [(t.key, Rect.of(t.payload["rect"]), int(t.payload["total"])) for t in tasks]
        codes = {t.key: str(t.payload["code"]) for t in tasks}
        short = {key: max(0, total - len(self._inside(rect, codes[key]))) for key, rect, total in points}
        group = {key: key for key, _, _ in points}

        def root(k: str) -> str:
            while group[k] != k:
                k = group[k]
            return k

        for i, (a, ra, _) in enumerate(points):
            for b, rb, _ in points[i + 1 :]:
                if (
                    ra.x1 <= rb.x2 + EPS_DEG
                    and rb.x1 <= ra.x2 + EPS_DEG
                    and ra.y1 <= rb.y2 + EPS_DEG
                    and rb.y1 <= ra.y2 + EPS_DEG
                ):
                    group[root(a)] = root(b)
        worst: dict[str, tuple[int, str]] = {}
        for key, _, _ in points:
            r = root(key)
            if r not in worst or short[key] > worst[r][0]:
                worst[r] = (short[key], key)
        self.state.set_unreached(SOURCE, {key: n for n, key in worst.values() if n})

    def _rect(self, task: Task) -> None:
        code, rect = task.payload["code"], Rect.of(task.payload["rect"])
        params = {"category_group_code": code, "rect": rect.param()}
        meta, docs = self._page("category.json", params, 1)
        total = int(meta.get("total_count") or 0)
        places = [p for d in docs if (p := place_of(d)) is not None]
        if total > PAGEABLE and rect.width > MIN_RECT_DEG:
            self.state.complete(task, children=[rect_task(code, q) for q in rect.quarters()])
            return
        if total > PAGEABLE:  # one point holding more than the API shows
            point = Task(
                SOURCE,
                f"point:{code}:{rect.param()}",
                "point",
                {"code": code, "rect": rect.as_list(), "total": total},
            )
            self.state.complete(task, places=places, children=[point])
            return
        pages = math.ceil(min(total, PAGEABLE) / PAGE_SIZE)
        for page in range(2, pages + 1):
            meta, docs = self._page("category.json", params, page)
            places.extend(p for d in docs if (p := place_of(d)) is not None)
            if meta.get("is_end", True):
                break
        self.state.complete(task, places=places)

    def _point(self, task: Task) -> None:
        """The other ways to a dense point, one query per checkpoint (resumable): the category with
        the other sort order, then keyword queries with the point's own leaf categories and the kind
        words, each word again sorted by distance when it alone matches more than 45."""
        code, rect, total = task.payload["code"], Rect.of(task.payload["rect"]), int(task.payload["total"])
        seen: set[str] = set(task.payload.get("seen", [])) | self._inside(rect, code)
        asked: set[str] = set(task.payload.get("asked", []))
        queue: list[dict[str, Any]] | None = task.payload.get("queue")
        x, y = rect.center
        if queue is None:
            queue = [
                {
                    "path": "category.json",
                    "params": {"category_group_code": code, "rect": rect.param(), "sort": "accuracy"},
                },
                {
                    "path": "category.json",
                    "params": {
                        "category_group_code": code,
                        "x": x,
                        "y": y,
                        "radius": POINT_RADIUS_M,
                        "sort": "distance",
                    },
                },
                *(self._keyword(code, x, y, w, "accuracy") for w in self.words),
            ]
        while queue and len(seen) < total:
            query = queue.pop(0)
            word = query["params"].get("query")
            if word:
                key = f"{word}|{query['params']['sort']}"
                if key in asked:
                    continue
                asked.add(key)
            hits, places = self._all_pages(query["path"], query["params"])
            inside = [
                p
                for p in places
                if p.lon is not None and p.lat is not None and rect.contains(p.lon, p.lat, 1e-6)
            ]
            fresh = [p for p in inside if p.place_id not in seen]
            seen.update(p.place_id for p in inside)
            first: list[dict[str, Any]] = []
            if word and hits > PAGEABLE and f"{word}|distance" not in asked:
                first.append(self._keyword(code, x, y, word, "distance"))
            for leaf in dict.fromkeys(p.category.split(">")[-1].strip() for p in fresh):
                if leaf and f"{leaf}|accuracy" not in asked:
                    first.append(self._keyword(code, x, y, leaf, "accuracy"))
            queue[0:0] = first
            payload = {**task.payload, "seen": sorted(seen), "asked": sorted(asked), "queue": queue}
            self.state.complete(task, places=places, done=False, payload=payload)
            self.progress()
        self.state.complete(task)

    @staticmethod
    def _keyword(code: str, x: float, y: float, word: str, sort: str) -> dict[str, Any]:
        params = {
            "query": word,
            "category_group_code": code,
            "x": x,
            "y": y,
            "radius": POINT_RADIUS_M,
            "sort": sort,
        }
        return {"path": "keyword.json", "params": params}
