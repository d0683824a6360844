"""Seed 000's recipe: Naver local search for every (place name × menu word) of an area.

``GET {MATJIP_NAVER_SEARCH_URL}/v1/search/local.json`` with ``query`` ("잠실역 국밥"), ``display`` ≤ 5,
``start`` 1, ``sort`` ``random`` (relevance) or ``comment`` (most reviewed), headers ``X-Naver-Client-Id``
and ``X-Naver-Client-Secret``. Items carry ``title`` (query words in ``<b>`` tags), ``link``,
``category`` ("한식>국밥"), ``description``, ``telephone``, ``address``, ``roadAddress`` and ``mapx``/
``mapy`` (WGS84 × 10⁷ as strings). Errors: ``{"errorMessage", "errorCode"}`` — 401 "024" bad keys,
400 "SE01"… bad parameters, 429 "010" quota or rate. Each query is one task (one call); results
outside the area are dropped. Place names default to the gazetteer's stations, hot places and dongs
inside the area, menu words to the kinds vocabulary (``matjip.kinds``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from matjip.collect.area import Rect
from matjip.collect.client import ApiClient
from matjip.collect.records import CollectedPlace, from_e7, naver_place_id, strip_tags
from matjip.collect.state import CollectState, Task
from matjip.errors import ProviderError
from matjip.kinds import kinds
from matjip.wording import text

SOURCE = "naver"
DISPLAY = 5
SORTS = ("random", "comment")
AREA_MARGIN_DEG = 0.002  # ~200 m: a place just across the edge of the area is still kept


def menu_words() -> list[str]:
    """Seed 000's 메뉴명: the kinds' names ("국밥·순대국" → 국밥, 순대국), each once."""
    words: dict[str, None] = {}
    for kind in kinds().kinds:
        for w in kind.name.replace(" ", "").split("·"):
            if len(w) >= 2:
                words.setdefault(w, None)
    return list(words)


def query_tasks(places: list[str], menus: list[str], sorts: tuple[str, ...] = SORTS) -> list[Task]:
    return [
        Task(SOURCE, f"q:{sort}:{place} {menu}", "query", {"query": f"{place} {menu}", "sort": sort})
        for place in places
        for menu in menus
        for sort in sorts
    ]


def place_of(item: dict[str, Any]) -> CollectedPlace | None:
    title = strip_tags(str(item.get("title") or ""))
    mapx, mapy = item.get("mapx"), item.get("mapy")
    if not title or not mapx or not mapy:
        return None
    address, road = str(item.get("address") or ""), str(item.get("roadAddress") or "")
    pid = naver_place_id(title, road or address, str(mapx), str(mapy))
    return CollectedPlace(
        place_id=pid,
        title=title,
        category=str(item.get("category") or "").replace(" > ", ">"),
        address=address,
        roadAddress=road,
        mapx=str(mapx),
        mapy=str(mapy),
        telephone=str(item["telephone"]) if item.get("telephone") else None,
        description=strip_tags(str(item.get("description") or "")),
        place_url=str(item["link"]) if item.get("link") else None,
        source=SOURCE,
        provenance={SOURCE: pid},
    )


class NaverCollector:
    def __init__(
        self,
        client: ApiClient,
        state: CollectState,
        area: Rect | None,
        progress: Callable[[], None] = lambda: None,
    ) -> None:
        self.client = client
        self.state = state
        self.area = area
        self.progress = progress

    def run(self) -> None:
        while (task := self.state.next_task(SOURCE, ("query",))) is not None:
            params = {
                "query": task.payload["query"],
                "display": DISPLAY,
                "start": 1,
                "sort": task.payload["sort"],
            }
            data = self.client.get("/v1/search/local.json", params)
            items = data.get("items")
            if not isinstance(items, list):
                raise ProviderError(text("collect.provider.naver_shape"))
            places = [p for it in items if isinstance(it, dict) and (p := place_of(it)) is not None]
            if self.area is not None:
                places = [p for p in places if self._inside(p)]
            self.state.complete(task, places=places)
            self.progress()

    def _inside(self, p: CollectedPlace) -> bool:
        lon, lat = from_e7(p.mapx), from_e7(p.mapy)
        assert self.area is not None
        return lon is not None and lat is not None and self.area.contains(lon, lat, AREA_MARGIN_DEG)
