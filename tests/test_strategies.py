"""Seed 003's search strategies (issue 14): reading them off a message, the plan's fields and their
validation, the route geometry, whole turns over the ingested sample, the live providers through
protocol-level fakes (and their failures), and the strategy evaluation's scorer."""

from __future__ import annotations

import dataclasses
import itertools
import subprocess
import sys
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import httpx
import pytest

from fakes import live as fake
from fakes.http import Reply, Script
from matjip.agent.configuration import Resources
from matjip.agent.models import TurnResult
from matjip.agent.plan import validate_plan
from matjip.agent.service import Agent, load_resources
from matjip.documents import DayHours, MenuItem, Restaurant, TimeRange, WeeklySchedule
from matjip.geo.distance import haversine_m
from matjip.geo.route import detour_m, length_m, locate, sample, straight
from matjip.ingest.preprocess import with_kinds
from matjip.nlu.strategy import detect_strategy, estimate_travel, rules, travel_threshold_m
from matjip.settings import Settings
from support.index import build_index_dir, offline_settings, resources_over

GANGNAM = (37.497718, 127.027914)
JAMSIL = (37.513282, 127.100150)
JAMSIL_STATION = (37.513977, 127.102198)  # data/gazetteer/places_capital.csv
MORNING = datetime(2026, 11, 25, 10, 0, tzinfo=timezone(timedelta(hours=9)))


# --- reading the strategy off a message ------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "want"),
    [
        (
            "강남역에서 판교역 가는 길에 해장국",
            {"strategy": "route", "origin": "강남역", "destination": "판교역"},
        ),
        ("잠실역과 강남역 사이에 카페", {"strategy": "route", "origin": "잠실역", "between": True}),
        (
            "판교 가는길에 강남에서 점심 먹을 곳",
            {"strategy": "route", "origin": "강남", "destination": "판교"},
        ),
        ("신촌이랑 홍대 중간 술집", {"strategy": "route", "destination": "홍대", "between": True}),
        ("광교에서 판교 출근길에 아침", {"strategy": "route", "origin": "광교", "destination": "판교"}),
        (
            "을지로에서 성수 가는 길에 맥주",
            {"origin": "을지로", "destination": "성수"},
        ),  # 을지로 keeps its 로
        ("강남역에서 걸어서 10분 이내 카페", {"strategy": "point_travel", "minutes": 10, "mode": "walk"}),
        ("여기서 운전해서 20분 거리 한정식", {"strategy": "point_travel", "minutes": 20, "mode": "car"}),
        ("천호역에서 버스로 삼십분 이내 맛집", {"minutes": 30, "mode": "transit", "origin": "천호역"}),
        ("문정역에서 1시간 이내 차로 갈수있는 오리고기", {"minutes": 60, "mode": "car"}),
        ("잠실역에서 2km 이내 초밥", {"strategy": "point_travel", "km": 2.0, "mode": None}),
        ("현위치 기준 500m 이내 커피", {"strategy": "point_travel", "km": 0.5}),
        (
            "잠실에서 점심-카페-저녁 코스 짜줘",
            {"strategy": "course", "roles": ["식사", "카페", "식사"], "days": 1},
        ),
        ("을지로 점심먹고 카페갔다가 저녁엔 술집 코스로", {"roles": ["식사", "카페", "술집"]}),
        ("서촌 반나절 코스 카페 두군데랑 저녁", {"roles": ["카페", "카페", "식사"]}),
        ("1박 2일 먹방 코스 홍대", {"strategy": "course", "days": 2}),
        ("시부야 라멘 맛집", {"strategy": None, "overseas": "시부야"}),
        ("후쿠오카 2박3일 먹방 코스 짜줘", {"strategy": None, "overseas": "후쿠오카"}),
        ("애견동반 식당 추천", {"strategy": None, "caution": "pet"}),
        ("클라이밍 끝나고 먹을 고기집", {"caution": "activity"}),
        # issue 24 class 9: other route and between phrasings
        (
            "강남역 거쳐서 잠실역 가는데 술집",
            {"strategy": "route", "origin": "강남역", "destination": "잠실역"},
        ),
        (
            "합정 경유해서 망원까지 가는데 카페",
            {"strategy": "route", "origin": "합정", "destination": "망원"},
        ),
        ("잠실 가는 길목에 카페", {"strategy": "route", "origin": None, "destination": "잠실"}),
        ("잠실역 강남역 사이에 술집", {"strategy": "route", "origin": "잠실역", "between": True}),
        ("홍대에서 신촌 넘어가는 길 맛집", {"strategy": "route", "origin": "홍대", "destination": "신촌"}),
        ("집 가는 길에 떡볶이", {"strategy": None}),
        # controls: none of these is a route, a travel time or a course
        ("강남역 근처 점심 10분컷 가능한 곳", {"strategy": None, "minutes": None}),
        ("강남역 근처 코스요리 잘하는 한정식", {"strategy": None}),
        ("강남역 근처 2만원에서 3만원 사이 파스타", {"strategy": None}),
        ("3시에서 5시 사이 여는 카페 잠실", {"strategy": None}),
        ("퇴근길에 잠실역 근처 한잔할만한 술집", {"strategy": None}),
        ("판교 가면 꼭 가야되는 맛집", {"strategy": None}),
        ("강남역 반경 1km 국밥", {"strategy": None}),
        ("저녁 7시 30분 강남역 파스타", {"strategy": None, "minutes": None}),
    ],
)
def test_strategy_is_read_off_the_message(text: str, want: dict[str, Any]) -> None:
    got = detect_strategy(text).model_dump()
    assert {k: got[k] for k in want} == want


def test_travel_threshold_and_offline_estimate() -> None:
    walk = detect_strategy("걸어서 10분")
    metres, mode = travel_threshold_m(walk)
    assert mode == "walk" and metres == 10 * 67
    assert travel_threshold_m(detect_strategy("5km 이내 맛집"))[1] == "car"  # seed 003: > 2 km drives
    assert travel_threshold_m(detect_strategy("1.5km 이내 피자"))[1] == "walk"
    d, minutes = estimate_travel(500, "walk")
    assert d == pytest.approx(650) and minutes == 10  # 500 m × 1.3 ÷ 67 m/min, rounded up


# --- the plan ---------------------------------------------------------------------------------
def test_an_llm_plan_may_choose_a_strategy_but_the_server_clamps_it() -> None:
    plan, notes = validate_plan(
        {
            "strategy": "point_travel",
            "location": {"name": "강남역", "lat": GANGNAM[0], "lon": GANGNAM[1]},
            "travel": {"minutes": 999, "mode": "teleport", "threshold_m": 10**9, "estimate_mode": "car"},
        }
    )
    assert plan.strategy == "point_travel" and plan.travel is not None
    assert plan.travel.minutes == 180 and plan.travel.mode is None and plan.travel.threshold_m == 20_000
    assert plan.location is not None and plan.location.radius_m == 20_000  # threshold × 1.5, clamped
    assert any("teleport" in n for n in notes)

    route, notes = validate_plan(
        {
            "strategy": "route",
            "route": {
                "origin": {"name": "강남역", "lat": GANGNAM[0], "lon": GANGNAM[1]},
                "destination": {"name": "어딘가", "lat": 10.0, "lon": 10.0},  # not in Korea
            },
        }
    )
    assert route.strategy == "global" and route.route is None
    assert any("route" in n for n in notes)

    course, notes = validate_plan(
        {
            "strategy": "course",
            "location": {"name": "잠실", "lat": JAMSIL[0], "lon": JAMSIL[1]},
            "course": {"roles": ["식사", "DROP TABLE", "카페"] * 3, "days": 30, "leg_m": 1},
        }
    )
    assert course.course is not None and set(course.course.roles) <= {"식사", "카페"}
    assert len(course.course.roles) == 5 and course.course.days == 3 and course.course.leg_m == 200
    # a strategy without what it needs falls back to the plan's other fields
    bare, notes = validate_plan({"strategy": "course"})
    assert bare.strategy == "global" and bare.course is None and notes


# --- route geometry ---------------------------------------------------------------------------
def test_route_sampling_and_detour() -> None:
    line = straight(GANGNAM, JAMSIL)
    total = length_m(line)
    pts = sample(line, 1000)
    assert len(pts) == int(total // 1000) + 2 or len(pts) == int(total // 1000) + 1
    assert pts[0] == GANGNAM and haversine_m(*pts[-1], *JAMSIL) < 1
    for a, b in itertools.pairwise(pts[:-1]):  # the last step may be shorter
        assert haversine_m(*a, *b) == pytest.approx(1000, rel=0.01)
    mid = ((GANGNAM[0] + JAMSIL[0]) / 2, (GANGNAM[1] + JAMSIL[1]) / 2)
    along, off = locate(line, mid)
    assert along == pytest.approx(total / 2, rel=0.01) and off < 5
    assert detour_m(line, mid) < 5
    off_route = (mid[0] + 0.01, mid[1])  # about 1 km off the line
    via = haversine_m(*GANGNAM, *off_route) + haversine_m(*off_route, *JAMSIL) - total
    assert detour_m(line, off_route) == pytest.approx(via) and 300 < via < 400
    bent = [GANGNAM, (37.52, 127.06), JAMSIL]  # along a polyline: off to the point and back
    assert detour_m(bent, off_route) == pytest.approx(2 * locate(bent, off_route)[1])
    assert len(sample(line, 10, max_points=24)) <= 24


# --- whole turns over the sample --------------------------------------------------------------
@pytest.fixture(scope="module")
def res(sample_settings: Settings) -> Resources:
    return load_resources(sample_settings)


@pytest.fixture(scope="module")
def agent(sample_settings: Settings, res: Resources) -> Iterator[Agent]:
    a = Agent(sample_settings, res, persist=False)
    yield a
    a.close()


def _agent(settings: Settings, res: Resources, **providers: Any) -> Agent:
    return Agent(settings, dataclasses.replace(res, coverage={}, **providers), persist=False)


def _node(r: TurnResult, name: str) -> dict[str, Any]:
    return next(t.detail for t in reversed(r.trace) if t.node == name)


def test_route_turn_searches_along_the_route_and_says_so(agent: Agent) -> None:
    r = agent.ask("잠실역에서 강남역 가는 길에 카페")
    p = r.plan
    assert p is not None and p.strategy == "route" and p.route is not None
    assert (p.route.origin.name, p.route.destination.name) == ("잠실역", "강남역")
    a = (p.route.origin.lat or 0.0, p.route.origin.lon or 0.0)
    b = (p.route.destination.lat or 0.0, p.route.destination.lon or 0.0)
    total = haversine_m(*a, *b)
    assert p.route.interval_m == min(2 * p.route.search_radius_m, -(-int(total) // 20))
    assert r.cards and all(c.route_note and "우회 약" in c.route_note for c in r.cards)
    line = straight(a, b)
    for c in r.cards:
        assert c.lat is not None and c.lon is not None
        assert locate(line, (c.lat, c.lon))[1] <= p.route.search_radius_m * 1.01
    assert "잠실역→강남역 경로" in r.answer and "직선" in r.answer and "우회 약" in r.answer
    detail = _node(r, "search_general")
    assert detail["line_source"] == "straight" and detail["samples"] >= 2


def test_a_route_said_other_ways_is_a_route(agent: Agent) -> None:
    """ "A 거쳐서 B 가는데" was a search around A with '거치' named as unknown; "B 가는 길목에" was a
    search for a restaurant named 길목."""
    via = agent.ask("강남역 거쳐서 잠실역 가는데 카페")
    assert via.plan is not None and via.plan.strategy == "route" and via.plan.route is not None
    assert (via.plan.route.origin.name, via.plan.route.destination.name) == ("강남역", "잠실역")
    assert "확인할 수 없어서" not in via.answer
    toward = agent.ask("잠실 가는 길목에 카페", location={"lat": GANGNAM[0], "lon": GANGNAM[1]})
    p = toward.plan
    assert p is not None and p.strategy == "route" and p.route is not None and not p.titles
    assert p.route.destination.name == "잠실" and p.route.origin.lat == pytest.approx(GANGNAM[0])
    bare = agent.ask("잠실 가는 길목에 카페")  # no position: around the destination, said so
    assert bare.plan is not None and not bare.plan.titles and bare.plan.kinds == ["카페"]
    assert bare.plan.location is not None and bare.plan.location.name == "잠실"
    assert "출발지를 몰라서" in bare.answer


def _open(start: int, end: int) -> WeeklySchedule:
    day = DayHours(open=[TimeRange(start=start, end=end)])
    return WeeklySchedule(
        raw=f"매일 {start // 60}:00 - {end // 60}:00", parsed=True, days=dict.fromkeys(range(7), day)
    )


def _place(
    pid: str, title: str, category: str, cuisine: str, north_m: float, east_m: float, hours: WeeklySchedule
) -> Restaurant:
    lat = JAMSIL_STATION[0] + north_m / 111_000
    lon = JAMSIL_STATION[1] + east_m / 88_200
    menu = [MenuItem(name="아메리카노" if cuisine == "카페·디저트" else "된장찌개", price=9000)]
    doc = Restaurant(
        place_id=pid,
        title=title,
        category=category,
        cuisine=cuisine,
        address="서울 송파구 잠실동",
        lat=lat,
        lon=lon,
        menus=menu,
        hours=hours,
    )
    return with_kinds(doc)


def test_a_courses_later_stops_stay_within_a_walk_of_the_first(tmp_path: Path) -> None:
    """Each stop was within a walk of the one before, so a course drifted away stop by stop: here
    dinner was 1.4 km from lunch (700 m past the café) while a place 600 m from lunch was open."""
    docs = [
        _place("1", "점심식당", "한식>찌개,전골", "한식", 0, 0, _open(11 * 60, 22 * 60)),
        _place("2", "동쪽카페", "카페", "카페·디저트", 0, 700, _open(9 * 60, 22 * 60)),
        _place("3", "먼저녁집", "한식>찌개,전골", "한식", 0, 1400, _open(17 * 60, 23 * 60)),
        _place("4", "가까운저녁집", "한식>찌개,전골", "한식", 600, 0, _open(17 * 60, 23 * 60)),
    ]
    res = resources_over(build_index_dir(tmp_path / "index", docs), docs)
    agent = Agent(offline_settings(tmp_path), res, persist=False)
    try:
        r = agent.ask("잠실역 점심-카페-저녁 코스", now=MORNING)
    finally:
        agent.close()
    assert [c.name for c in r.cards][:2] == ["점심식당", "동쪽카페"], r.answer
    span = rules().course.walk_span_m
    first = r.cards[0]
    assert first.lat is not None and first.lon is not None
    for c in r.cards[1:]:
        assert c.lat is not None and c.lon is not None
        assert haversine_m(first.lat, first.lon, c.lat, c.lon) <= span, c.name
    assert [c.name for c in r.cards] == ["점심식당", "동쪽카페", "가까운저녁집"]


def test_between_turn_starts_from_the_middle(agent: Agent) -> None:
    r = agent.ask("잠실역이랑 강남역 사이에 술집")
    assert r.plan is not None and r.plan.route is not None and r.plan.route.between
    assert "잠실역과 강남역 사이" in r.answer


def test_point_travel_turn_filters_by_the_estimate(agent: Agent) -> None:
    r = agent.ask("잠실역에서 걸어서 15분 이내 고깃집")
    p = r.plan
    assert p is not None and p.strategy == "point_travel" and p.travel is not None
    assert (p.travel.minutes, p.travel.mode, p.travel.threshold_m) == (15, "walk", 1005)
    assert p.location is not None and p.location.radius_m == 1507  # threshold × 1.5
    assert r.cards
    for c in r.cards:
        assert c.travel_estimate is True and c.travel_minutes is not None and c.travel_minutes <= 15
        assert c.distance_m is not None and estimate_travel(c.distance_m, "walk")[1] == c.travel_minutes
        assert f"걸어서 약 {c.travel_minutes}분" in r.answer
    assert "× 1.3" in r.answer and "약" in r.answer


def test_point_travel_from_the_device(agent: Agent) -> None:
    r = agent.ask("지금 여기서 걸어서 십분 거리 국밥", location={"lat": JAMSIL[0], "lon": JAMSIL[1]})
    assert r.plan is not None and r.plan.strategy == "point_travel"
    assert r.plan.travel is not None and r.plan.travel.minutes == 10


def test_course_turn_orders_open_stops_within_walking_distance(agent: Agent, res: Resources) -> None:
    r = agent.ask("잠실에서 점심-카페-저녁 코스 짜줘")
    p = r.plan
    assert p is not None and p.strategy == "course" and p.course is not None
    assert p.course.roles == ["식사", "카페", "식사"] and p.course.days == 1
    assert [c.stop for c in r.cards] == list(range(1, len(r.cards) + 1)) and len(r.cards) >= 2
    for prev, c in zip(r.cards, r.cards[1:], strict=False):
        assert c.leg_m is not None and c.leg_m <= 2 * p.course.leg_m and c.leg_minutes
        assert prev.lat is not None and c.lat is not None and prev.lon is not None and c.lon is not None
        assert abs(haversine_m(prev.lat, prev.lon, c.lat, c.lon) - c.leg_m) < 2
    roles = [c.trip_role for c in r.cards]
    assert roles == [x for x in p.course.roles if x in roles]  # in the order asked
    for c in r.cards:  # each open at its slot's time
        doc = res.index.get(c.id)
        assert doc is not None and doc.hours is not None and c.slot is not None
        hh, mm = (int(x) for x in c.slot.split()[-1].split(":"))
        assert doc.hours.is_open(_at(hh, mm))
    assert "코스" in r.answer and "약" in r.answer


def _at(hh: int, mm: int) -> Any:
    from datetime import datetime
    from zoneinfo import ZoneInfo

    return datetime.now(ZoneInfo("Asia/Seoul")).replace(hour=hh, minute=mm, second=0, microsecond=0)


def test_a_tour_of_one_kind_is_a_course_of_that_kind(agent: Agent, res: Resources) -> None:
    """ "망원 빵집 투어" was a dessert → meal → café → meal course starting at an ice-cream shop."""
    r = agent.ask("잠실 빵집 투어")
    p = r.plan
    assert p is not None and p.strategy == "course" and p.course is not None
    assert p.course.roles == ["디저트", "디저트", "디저트"] and len(r.cards) >= 2
    for c in r.cards:  # judged on the crawl's own category and name
        doc = res.index.get(c.id)
        assert doc is not None
        assert any(w in doc.category for w in ("베이커리", "제과")) or any(
            w in doc.title for w in ("빵", "베이커리")
        )


def test_course_roles_the_data_cannot_serve_are_named(agent: Agent) -> None:
    r = agent.ask("잠실에서 점심 먹고 석촌호수 구경하고 카페 가는 코스")
    assert r.plan is not None and r.plan.course is not None and "관광지" in r.plan.course.roles
    assert "관광지는 식당 데이터에 없어서 코스에는 식당만 넣었어요" in r.answer
    assert all(c.source_type == "internal" for c in r.cards)


def test_overseas_without_a_key_is_said_plainly(agent: Agent) -> None:
    r = agent.ask("시부야 라멘 추천좀")
    assert "해외 장소는 지원하지 않아요" in r.answer and not r.cards


def test_pet_results_carry_the_caution(agent: Agent) -> None:
    r = agent.ask("잠실역 애견동반 카페")
    assert r.plan is not None and r.plan.caution == "pet"
    assert "⚠️" in r.answer and "추정" in r.answer


# --- live providers (protocol-level fakes) ---------------------------------------------------
def _osrm(script: Script) -> Any:
    from matjip.providers.routing import OsrmRouting

    return OsrmRouting("http://osrm.test:5000", transport=script.transport())


def test_route_uses_the_routing_providers_polyline(sample_settings: Settings, res: Resources) -> None:
    bend = (37.52, 127.06)
    script = Script(Reply(body=fake.osrm_route([JAMSIL, bend, GANGNAM], 8400.0, 1260.0)))
    a = _agent(sample_settings, res, routing=_osrm(script))
    r = a.ask("잠실역에서 강남역 가는 길에 카페")
    assert script.seen and script.seen[0].path.startswith("/route/v1/driving/127.10")
    assert "OSRM 도로 경로" in r.answer and "직선" not in r.answer.split("\n")[0]
    assert _node(r, "search_general")["line_source"] == "osrm"


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        (Reply(error=httpx.ReadTimeout("timed out")), "ProviderTimeout"),
        (fake.rate_limited(), "429"),
        (fake.not_json(), "not JSON"),
        (Reply(body={"code": "NoRoute", "message": "Impossible route"}), "NoRoute"),
    ],
)
def test_routing_failure_falls_back_to_the_straight_line(
    sample_settings: Settings, res: Resources, reply: Reply, reason: str
) -> None:
    a = _agent(sample_settings, res, routing=_osrm(Script(reply)))
    r = a.ask("잠실역에서 강남역 가는 길에 카페")
    detail = _node(r, "search_general")
    assert detail["line_source"] == "straight" and reason in detail["fallback"]
    assert "직선" in r.answer and r.plan is not None and r.plan.strategy == "route"


def test_point_travel_with_routed_times_and_their_failure(sample_settings: Settings, res: Resources) -> None:
    def table(seen: Any) -> Reply:
        n = seen.path.split("/")[-1].split("?")[0].count(";")
        return Reply(
            body=fake.osrm_table([60.0 * (i + 1) for i in range(n)], [80.0 * (i + 1) for i in range(n)])
        )

    a = _agent(sample_settings, res, routing=_osrm(Script(table)))
    r = a.ask("잠실역에서 걸어서 15분 이내 고깃집")
    assert r.cards and all(c.travel_estimate is False for c in r.cards)
    assert [c.travel_minutes for c in r.cards] == sorted(c.travel_minutes or 0 for c in r.cards)
    assert all((c.travel_minutes or 99) <= 15 for c in r.cards)
    assert "OSRM" in r.answer
    broken = _agent(sample_settings, res, routing=_osrm(Script(fake.rate_limited())))
    r = broken.ask("잠실역에서 걸어서 15분 이내 고깃집")
    assert "429" in _node(r, "search_general")["fallback"]
    assert all(c.travel_estimate for c in r.cards) and "어림" in r.answer


def _kakao(script: Script) -> Any:
    from matjip.providers.places import KakaoLocal

    return KakaoLocal("kakao-test-key", transport=script.transport())


def test_course_sightseeing_from_kakao_local_and_its_failure(
    sample_settings: Settings, res: Resources
) -> None:
    park = {"name": "석촌호수", "lat": 37.5093, "lon": 127.1023, "id": 8123}
    script = Script(Reply(body=fake.kakao_documents([park])))
    a = _agent(sample_settings, res, places=_kakao(script))
    r = a.ask("잠실에서 점심 먹고 석촌호수 구경하고 카페 가는 코스")
    seen = script.seen[0]
    assert seen.path.startswith("/v2/local/search/category.json") and "category_group_code=AT4" in seen.path
    assert seen.headers["authorization"] == "KakaoAK kakao-test-key"
    live = [c for c in r.cards if c.source_type == "kakao"]
    assert [c.name for c in live] == ["석촌호수"] and live[0].trip_role == "관광지"
    assert [c.stop for c in r.cards] == list(range(1, len(r.cards) + 1))
    assert res.index.get(live[0].id) is None  # shown, never written into the index
    assert "카카오 실시간" in r.answer
    failing = _agent(sample_settings, res, places=_kakao(Script(Reply(error=httpx.ConnectTimeout("slow")))))
    r = failing.ask("잠실에서 점심 먹고 석촌호수 구경하고 카페 가는 코스")
    assert "ProviderTimeout" in _node(r, "search_general")["fallback"]
    assert not [c for c in r.cards if c.source_type == "kakao"]
    assert "관광지는 식당 데이터에 없어서 코스에는 식당만 넣었어요" in r.answer


def _google(script: Script) -> Any:
    from matjip.providers.places import GooglePlaces

    return GooglePlaces("google-test-key", transport=script.transport())


def test_overseas_from_google_places_and_its_failure(sample_settings: Settings, res: Resources) -> None:
    script = Script(
        Reply(body=fake.google_places([{"name": "이치란 시부야", "lat": 35.661, "lon": 139.701}]))
    )
    before = res.index.count()
    a = _agent(sample_settings, res, abroad=_google(script))
    r = a.ask("시부야 라멘 추천좀")
    body = script.seen[0].json()
    assert "시부야" in body["textQuery"] and script.seen[0].headers["x-goog-api-key"] == "google-test-key"
    assert [c.source_type for c in r.cards] == ["google"] and r.cards[0].name == "이치란 시부야"
    assert "Google" in r.answer and res.index.count() == before
    for reply in (fake.rate_limited(), fake.not_json(), Reply(error=httpx.ReadTimeout("t"))):
        r = _agent(sample_settings, res, abroad=_google(Script(reply))).ask("시부야 라멘 추천좀")
        assert "해외 장소는 지원하지 않아요" in r.answer and not r.cards
        assert "google places failed" in _node(r, "search_general")["fallback"]


def test_no_provider_module_is_imported_without_its_key() -> None:
    code = (
        "import sys\n"
        "from matjip.settings import Settings\n"
        "from matjip.agent.service import build_live\n"
        "import matjip.agent.graph, matjip.agent.nodes.strategies, matjip.eval.strategy_eval\n"
        "assert build_live(Settings(_env_file=None)) == (None, None, None)\n"
        "for m in ('matjip.providers.places', 'matjip.providers.routing'):\n"
        "    assert m not in sys.modules, m\n"
        "s = Settings(_env_file=None, kakao_rest_api_key='k', routing_provider='osrm', osrm_url='http://x')\n"
        "places, abroad, routing = build_live(s)\n"
        "assert places is not None and abroad is None and routing is not None\n"
        "assert 'matjip.providers.places' in sys.modules\n"
    )
    env = {k: v for k, v in __import__("os").environ.items() if "KAKAO" not in k and "GOOGLE" not in k}
    env = {
        k: v for k, v in env.items() if not k.startswith("MATJIP_ROUTING") and not k.startswith("MATJIP_OSRM")
    }
    subprocess.run([sys.executable, "-c", code], check=True, env=env)


# --- the evaluation's scorer -------------------------------------------------------------------
def test_strategy_eval_scores_the_fields_and_the_stops(agent: Agent) -> None:
    import time

    from matjip.eval.strategy_eval import Item, run

    items = [
        Item.model_validate(
            {
                "id": "t1",
                "question": "강남역이랑 잠실역 사이에 술집",
                "expect": {"strategy": "route", "from": "잠실역", "to": "강남역", "overseas": False},
            }
        ),
        Item.model_validate(
            {
                "id": "t2",
                "question": "잠실역에서 걸어서 15분 이내 고깃집",
                "expect": {
                    "strategy": "point_travel",
                    "from": "잠실역",
                    "minutes": 15,
                    "mode": "walk",
                    "kind": "고깃집",
                },
            }
        ),
        Item.model_validate(  # a wrong expectation must be counted wrong
            {
                "id": "t3",
                "question": "잠실역 카페",
                "expect": {"strategy": "course", "from": "잠실역", "days": 1},
            }
        ),
    ]

    def ask(q: str, gps: dict[str, float] | None) -> tuple[TurnResult, float]:
        t = time.perf_counter()
        return agent.ask(q, location=gps), (time.perf_counter() - t) * 1000

    report = run(ask, items)
    assert report.n == 3 and report.right == 2  # "사이": either order of the two places
    assert report.fields["strategy"] == 2 and report.kind == [1, 1]
    assert report.failures and report.failures[0].startswith("t3")
    assert report.stops[0] == report.stops[1] >= 2, report.failures


def test_a_domestic_place_outside_the_index_comes_from_kakao_local(
    sample_settings: Settings, res: Resources, agent: Agent
) -> None:
    assert "데이터에 없어요" in agent.ask("판교역 회식 장소").answer  # offline: said plainly
    pub = {
        "name": "판교 회식집",
        "lat": 37.3947,
        "lon": 127.1115,
        "category": "음식점 > 한식 > 육류,고기",
        "code": "FD6",
    }
    script = Script(Reply(body=fake.kakao_documents([pub])))
    r = _agent(sample_settings, res, places=_kakao(script)).ask("판교역 회식 장소")
    seen = script.seen[0]
    assert seen.path.startswith("/v2/local/search/keyword.json") and "x=127.1" in seen.path
    assert [(c.name, c.source_type) for c in r.cards] == [("판교 회식집", "kakao")]
    assert res.index.get(r.cards[0].id) is None and "카카오" in r.answer
    r = _agent(sample_settings, res, places=_kakao(Script(fake.rate_limited()))).ask("판교역 회식 장소")
    assert not r.cards and any("429" in str(t.detail.get("fallback", "")) for t in r.trace)


def test_a_follow_up_keeps_the_route(agent: Agent) -> None:
    first = agent.ask("잠실역에서 강남역 가는 길에 고깃집", session_id="route-follow-up")
    again = agent.ask("다른 데는?", session_id="route-follow-up")
    assert first.plan is not None and again.plan is not None and again.plan.strategy == "route"
    assert again.plan.route == first.plan.route
    assert not {c.id for c in first.cards} & {c.id for c in again.cards}


def test_google_routes_polyline_and_matrix(sample_settings: Settings, res: Resources) -> None:
    from matjip.providers.routing import GoogleRoutes, decode_polyline

    assert decode_polyline("_p~iF~ps|U_ulLnnqC_mqNvxq`@") == [
        (38.5, -120.2),
        (40.7, -120.95),
        (43.252, -126.453),
    ]
    bend = (37.52, 127.06)
    script = Script(Reply(body=fake.google_route([JAMSIL, bend, GANGNAM], 8400, 1260)))
    routing = GoogleRoutes("g-key", transport=script.transport())
    r = _agent(sample_settings, res, routing=routing).ask("잠실역에서 강남역 가는 길에 카페")
    sent = script.seen[0]
    assert sent.json()["travelMode"] == "DRIVE" and "encodedPolyline" in sent.headers["x-goog-fieldmask"]
    assert _node(r, "search_general")["line_source"] == "google-routes" and "Google Routes 경로" in r.answer

    def matrix(seen: Any) -> Reply:
        n = len(seen.json()["destinations"])
        return Reply(
            body=fake.google_matrix([60 * (i + 1) for i in range(n)], [70 * (i + 1) for i in range(n)])
        )

    walk = GoogleRoutes("g-key", transport=Script(matrix).transport())
    r = _agent(sample_settings, res, routing=walk).ask("잠실역에서 걸어서 15분 이내 고깃집")
    assert r.cards and all(c.travel_estimate is False for c in r.cards)
    minutes = [c.travel_minutes for c in r.cards]  # the matrix's 1, 2, 3 … minutes, nearest first
    assert all(m is not None and 1 <= m <= 20 for m in minutes) and minutes == sorted(minutes)  # type: ignore[type-var]
    broken = GoogleRoutes("g-key", transport=Script(fake.not_json()).transport())
    r = _agent(sample_settings, res, routing=broken).ask("잠실역에서 걸어서 15분 이내 고깃집")
    assert "google routes" in _node(r, "search_general")["fallback"] and all(
        c.travel_estimate for c in r.cards
    )


@pytest.mark.parametrize(
    ("text", "origin", "minutes"),
    [
        ("강릉 1박2일 코스 짜줘", "강릉", None),  # an area the gazetteer does not know is still the area
        ("잠실에서 1시간반 이내 차로 갈 수 있는 한정식", None, 90),
        ("여기서 도보 십오분 국밥", None, 15),
    ],
)
def test_course_area_and_hours_with_a_half(text: str, origin: str | None, minutes: int | None) -> None:
    spec = detect_strategy(text)
    if spec.strategy == "course":
        assert spec.origin == origin
    assert spec.minutes == minutes


def test_time_ranges_are_no_place_and_a_travel_time_without_a_place_is_from_the_device(agent: Agent) -> None:
    r = agent.ask("점심 12시에서 1시 사이 잠실역 파스타")
    assert r.plan is not None and r.plan.location is not None and r.plan.location.name == "잠실역"
    assert r.plan.strategy == "radius"  # "사이" is no 사이동
    r = agent.ask("지금 위치에서 차로 20분 갈비", location={"lat": JAMSIL[0], "lon": JAMSIL[1]})
    assert r.plan is not None and r.plan.strategy == "point_travel" and r.plan.travel is not None
    assert r.plan.travel.mode == "car" and r.plan.location is not None and r.plan.location.lat == JAMSIL[0]


def test_strategy_test_split_is_frozen() -> None:
    import hashlib
    import json
    from pathlib import Path

    import matjip.eval as eval_pkg

    folder = Path(eval_pkg.__file__).parent
    lines = (folder / "strategy_test.jsonl").read_text(encoding="utf-8").splitlines()
    test = sorted((json.loads(line)["id"], line) for line in lines if line.strip())
    assert len(test) == 45 and all(json.loads(line)["split"] == "test" for _, line in test)
    digest = hashlib.sha256("".join(line + "\n" for _, line in test).encode()).hexdigest()
    assert digest in (folder / "strategy_FROZEN.txt").read_text(encoding="utf-8")
