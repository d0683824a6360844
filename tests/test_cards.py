"""What a card says beside the document's fields (issue 16): open status from parsed hours in the
settings' time zone, price band, map links, walking time; menu badges dropped at ingest; the
coverage line; "더 보기" and sort as part of the plan."""

from __future__ import annotations

from datetime import datetime
from urllib.parse import unquote
from zoneinfo import ZoneInfo

import pytest

from matjip.agent.cardinfo import map_links, open_status, price_band, walk_minutes
from matjip.agent.models import SearchPlan
from matjip.agent.plan import to_requests, validate_plan
from matjip.documents import DayHours, MenuItem, Restaurant, TimeRange, WeeklySchedule
from matjip.geo.coverage import CoveredArea
from matjip.ingest.crawl import CrawlDocument
from matjip.ingest.preprocess import preprocess

SEOUL = ZoneInfo("Asia/Seoul")
# 2026-11-23 is a Monday (weekday 0)
MONDAY = 0


def at(hh: int, mm: int, day: int = 23) -> datetime:
    return datetime(2026, 11, day, hh, mm, tzinfo=SEOUL)


def hm(text: str) -> int:
    h, m = text.split(":")
    return int(h) * 60 + int(m)


def schedule(days: dict[int, DayHours], closed: list[int] | None = None) -> WeeklySchedule:
    return WeeklySchedule(raw="(test)", parsed=True, days=days, closed=closed or [])


LUNCH_AND_DINNER = DayHours(
    open=[TimeRange(start=hm("11:00"), end=hm("22:00"))],
    breaks=[TimeRange(start=hm("15:00"), end=hm("17:00"))],
)


@pytest.mark.parametrize(
    ("now", "state", "label"),
    [
        (at(12, 0), "open", "영업 중 · 15:00 브레이크타임"),
        (at(14, 30), "closing_soon", "곧 브레이크타임 · 15:00"),
        (at(15, 30), "break", "브레이크타임 15:00–17:00"),
        (at(18, 0), "open", "영업 중 · 22:00 마감"),
        (at(21, 15), "closing_soon", "곧 마감 · 22:00"),
        (at(10, 0), "before_open", "영업 전 · 11:00 오픈"),
        (at(23, 0), "closed_now", "오늘 영업 종료"),
    ],
)
def test_open_status_through_a_day(now: datetime, state: str, label: str) -> None:
    status = open_status(schedule({MONDAY: LUNCH_AND_DINNER}), now)
    assert (status.state, status.label) == (state, label)


def test_open_status_day_off_unknown_day_and_unknown_hours() -> None:
    hours = schedule({1: LUNCH_AND_DINNER}, closed=[MONDAY])
    assert open_status(hours, at(12, 0)).label == "오늘 휴무"
    no_word_for_monday = schedule({1: LUNCH_AND_DINNER})
    assert open_status(no_word_for_monday, at(12, 0)).state == "unknown"
    assert open_status(None, at(12, 0)).label == "영업시간 정보 없음"
    unparsed = WeeklySchedule(raw="영업 전 08:30에 영업 시작", parsed=False)
    assert open_status(unparsed, at(12, 0)).label == "영업시간 정보 없음"


def test_open_status_overnight_from_yesterday() -> None:
    # Sunday 18:00 until Monday 02:40
    hours = schedule({6: DayHours(open=[TimeRange(start=hm("18:00"), end=1440 + hm("02:40"))])})
    status = open_status(hours, at(1, 0))
    assert status.state == "open" and status.label == "영업 중 · 02:40 마감"
    assert open_status(hours, at(3, 0)).state == "unknown"  # nothing said about Monday itself


def test_open_status_round_the_clock_and_until_midnight() -> None:
    always = schedule({MONDAY: DayHours(open=[TimeRange(start=0, end=1440)])})
    assert open_status(always, at(4, 0)).label == "영업 중 · 24시간"
    midnight = schedule({MONDAY: DayHours(open=[TimeRange(start=hm("17:00"), end=1440)])})
    assert open_status(midnight, at(20, 0)).label == "영업 중 · 24:00 마감"
    assert open_status(midnight, at(23, 30)).label == "곧 마감 · 24:00"


def test_open_status_in_the_settings_time_zone() -> None:
    # 03:00 UTC is 12:00 in Seoul: open (a naive reading of 03:00 would say "영업 전")
    utc = datetime(2026, 11, 23, 3, 0, tzinfo=ZoneInfo("UTC")).astimezone(SEOUL)
    assert open_status(schedule({MONDAY: LUNCH_AND_DINNER}), utc).state == "open"


def doc(**kw: object) -> Restaurant:
    base: dict[str, object] = {
        "place_id": "26338954",
        "title": "스시 하나",
        "roadAddress": "서울 송파구 올림픽로 1",
    }
    base.update(kw)
    return Restaurant.model_validate(base)


def test_price_band_is_the_median_menu_line_without_badges() -> None:
    menus = [
        MenuItem(name="추천", price=99000),  # a stored document from before badges were dropped
        MenuItem(name="우동", price=9000),
        MenuItem(name="모듬초밥", price=18000),
        MenuItem(name="특초밥", price=26000),
        MenuItem(name="물", price=None),
    ]
    band = price_band(doc(menus=menus))
    assert band is not None
    assert (band.median_won, band.min_won, band.max_won, band.priced_items) == (18000, 9000, 26000, 3)
    assert band.label == "1만원대"
    assert price_band(doc(menus=[MenuItem(name="모듬초밥")])) is None


def test_kakao_ids_link_the_place_page_others_a_map_search() -> None:
    kakao = map_links(doc(source="kakao-map public crawl"))
    assert [(x.kind, x.url) for x in kakao] == [("place", "https://place.map.kakao.com/26338954")]
    naver = map_links(doc(place_id="naver-123", source="naver"))
    assert {x.kind for x in naver} == {"search"}
    assert any(x.url.startswith("https://map.naver.com/") for x in naver)
    assert all("스시 하나 서울 송파구" in unquote(x.url) for x in naver)


def test_directions_start_at_the_search_location() -> None:
    d = doc(source="kakao-map public crawl", lat=37.5133, lon=127.1001)
    links = map_links(d, ("잠실역", 37.513977, 127.102198))
    directions = [x for x in links if x.kind == "directions"]
    assert len(directions) == 1
    url = unquote(directions[0].url)
    assert (
        url == "https://map.kakao.com/link/from/잠실역,37.513977,127.102198/to/스시 하나,37.513300,127.100100"
    )
    assert not [x for x in map_links(d) if x.kind == "directions"]  # no search location: none
    no_coords = doc(source="kakao-map public crawl")
    assert not [x for x in map_links(no_coords, ("잠실역", 37.5, 127.1)) if x.kind == "directions"]


def test_walking_minutes_are_an_estimate_within_two_km() -> None:
    assert walk_minutes(670) == 10
    assert walk_minutes(30) == 1
    assert walk_minutes(2500) is None
    assert walk_minutes(None) is None


def test_menu_badges_are_dropped_at_ingest() -> None:
    raw = CrawlDocument.model_validate(
        {
            "place_id": "1",
            "title": "김치찜집",
            "category": "한식",
            "menus": [
                {"name": "추천", "price": "25,900원"},
                {"name": " 추천 ", "price": "25,900원"},
                {"name": "참치푸짐 김치찜", "price": "25,900원"},
            ],
        }
    )
    assert [m.name for m in preprocess(raw).menus] == ["참치푸짐 김치찜"]


def test_coverage_line_counts_each_restaurant_once() -> None:
    area = CoveredArea.from_counts(
        {
            "서울 송파구": 6561,
            "서울 강동구": 1725,
            "경기 성남시": 385,
            "경기 성남시 수정구": 385,
            "서울 종로구": 3,
        }
    )
    assert [sg for _, sg, _ in area.districts()] == ["송파구", "강동구", "성남시 수정구"]
    assert area.line(8671, limit=2) == "식당 8,671곳 · 서울 송파구 6,561곳, 강동구 1,725곳 외 1개 지역"


def test_sort_and_shown_ids_are_part_of_the_plan() -> None:
    plan, notes = validate_plan(
        {"intent": "search", "kinds": [], "sort": "price", "exclude_ids": ["1", "2", "2", "<x>", 3]}
    )
    assert plan.sort == "price" and plan.exclude_ids == ["1", "2"]
    assert any("exclude_ids" in n for n in notes)
    assert to_requests(plan)[0].exclude_ids == ["1", "2"]
    bad, notes = validate_plan({"sort": "cheapest"})
    assert bad.sort == "relevance" and notes
    too_many, _ = validate_plan({"exclude_ids": [str(i) for i in range(500)]})
    assert len(too_many.exclude_ids) == 200
    assert SearchPlan(sort="price").signature() != SearchPlan(sort="rating").signature()
