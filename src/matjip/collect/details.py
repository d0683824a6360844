"""Menus, hours, visitor tags and reviews of collected Kakao places, from the Kakao Map place page.

NOT an official API: the JSON the Kakao Map place page (``https://place.map.kakao.com/<id>``) loads
from ``{MATJIP_COLLECT_DETAIL_URL}/<id>`` (default ``https://place.map.kakao.com/main/v``), the format
the public crawls behind the demo data read (LearningnRunning/What2Eat, kojh0111/Kakao-Map-Review-
Extractor; field names as documented by public clients of that page). It may change or disappear
without notice, and reading it is subject to Kakao's terms of service: it is off by default
(``--details``), at most one request per second, under its own daily quota.

Mapped fields (missing parts are simply left empty):

* ``basicInfo.openHour.periodList[].timeList[{timeName, timeSE, dayOfWeek}]`` → ``businessHours``
  ("매일 11:00 ~ 22:00; 브레이크타임 매일 15:00 ~ 17:00");
* ``menuInfo.menuList[{menu, price}]`` → ``menus`` ([{"name", "price": "9,000원"}]);
* ``comment.list[{contents, point}]`` → ``reviews``; ``comment.scoresum / scorecnt`` → ``rating``,
  ``comment.scorecnt`` (or ``kamapComntcnt``) → ``reviewCount``;
* ``comment.strengthCounts[{name, count}]`` (visitor tags: 맛, 가성비, 친절 …) → ``reviewKeywords``;
* ``basicInfo.phonenum`` → ``telephone`` when the search gave none.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from matjip.collect.client import ApiClient
from matjip.collect.records import CollectedPlace
from matjip.collect.state import CollectState

SOURCE = "details"


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _price(text: Any) -> str:
    s = str(text or "").strip()
    if s and s.replace(",", "").isdigit():
        return f"{int(s.replace(',', '')):,}원"
    return s


def business_hours(open_hour: dict[str, Any]) -> str | None:
    parts: list[str] = []
    for period in _list(open_hour.get("periodList")):
        for t in _list(_dict(period).get("timeList")):
            t = _dict(t)
            days, hours = str(t.get("dayOfWeek") or "").strip(), str(t.get("timeSE") or "").strip()
            if not hours:
                continue
            name = str(t.get("timeName") or "").strip()
            label = "" if name in ("", "영업시간") else f"{name} "
            parts.append(f"{label}{days} {hours}".strip())
    return "; ".join(parts) or None


def apply_detail(place: CollectedPlace, data: dict[str, Any]) -> CollectedPlace:
    """``place`` with what the place page JSON ``data`` says (documented fields only)."""
    basic, menu, comment = (
        _dict(data.get("basicInfo")),
        _dict(data.get("menuInfo")),
        _dict(data.get("comment")),
    )
    update: dict[str, Any] = {}
    menus = [
        {"name": str(m["menu"]).strip(), "price": _price(m.get("price"))}
        for m in map(_dict, _list(menu.get("menuList")))
        if str(m.get("menu") or "").strip()
    ]
    if menus:
        update["menus"] = menus
    hours = business_hours(_dict(basic.get("openHour")))
    if hours:
        update["businessHours"] = hours
    reviews = [
        str(c["contents"]).strip()
        for c in map(_dict, _list(comment.get("list")))
        if str(c.get("contents") or "").strip()
    ]
    if reviews:
        update["reviews"] = reviews
    count = comment.get("scorecnt") or comment.get("kamapComntcnt")
    if isinstance(count, int) and count > 0:
        update["reviewCount"] = count
        total = comment.get("scoresum")
        if isinstance(total, int | float):
            update["rating"] = round(float(total) / count, 1)
    tags = {
        str(s["name"]): int(s["count"])
        for s in map(_dict, _list(comment.get("strengthCounts")))
        if s.get("name") and isinstance(s.get("count"), int)
    }
    if tags:
        update["reviewKeywords"] = tags
    if not place.telephone and basic.get("phonenum"):
        update["telephone"] = str(basic["phonenum"])
    return place.model_copy(update=update)


class DetailReader:
    """Reads the place page of every Kakao place of the state that has none yet."""

    def __init__(
        self, client: ApiClient, state: CollectState, progress: Callable[[], None] = lambda: None
    ) -> None:
        self.client = client
        self.state = state
        self.progress = progress

    def run(self) -> None:
        for place in self.state.undetailed("kakao"):
            data = self.client.get(f"/{place.place_id}", {}, missing_ok=True)
            self.state.put_detailed(apply_detail(place, data))
            self.progress()
