"""Issue 24, dialogue classes of round B (helper dlg24h), each failing on main 501bc44:

- 13: a dish ruled out after a list ("조개구이는 빼고") narrows it (the dish is no described food);
  brands named as examples of the chains ruled out ("스타벅스나 이디야 같은 체인점은 제외") narrow the
  list shown (same place, same kind); a branch name as the mark of a chain ("무슨무슨점 붙은 데 말고");
- 8: "가격대 좀 더 낮은 걸로 부탁해요" asks cheaper than the list (not smalltalk);
- 2: a superlative among the list ("그중에 제일 싼 데 어디야") and every shown place asked about
  ("세 곳 다 일요일 영업해?") compare the places shown; a comparison by hours on a day no timetable
  lists says each place's hours of the day compared;
- 11: a convenience said right before a rule-out word ("치킨 시켜먹지 말고 가서 먹을 데") is not asked;
- 1: stations as locals romanise them ("gyeongchal hospital stn" → 경찰병원역);
- 14: route phrasings "A 지나서 B 가는 길에", "A 산책하고 B 쪽으로 나가는 동선에".

Dialogues run the real offline agent over hand-written crawl records; expected values are worked out
by hand from the records.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from matjip.nlu.romanized import koreanize_places
from matjip.nlu.strategy import detect_strategy
from support.records import ingest_records, talk_over
from support.records import near_jamsil as near

SEOUL = ZoneInfo("Asia/Seoul")
WEDNESDAY_EVENING = datetime(2026, 11, 25, 19, 30, tzinfo=SEOUL)
SUNDAY_NOON = datetime(2026, 11, 29, 12, 0, tzinfo=SEOUL)
MEAT = "한식>육류,고기"
CHICKEN = "음식점>치킨"
CAFE = "카페,디저트>카페"

RECORDS = [
    # 고깃집: the first page (most reviews) shows 30,000 / 25,000 / 20,000원, typical price 25,000원 — "더 싼"
    # is at most 24,999원
    near("m1", "한우집", 110, MEAT, {"등심": "30,000원"}, reviewCount=95),
    near("m2", "갈비집", 160, MEAT, {"갈비": "25,000원"}, reviewCount=85),
    near("m3", "삼겹집", 210, MEAT, {"삼겹살": "20,000원"}, reviewCount=75),
    near("m4", "싼고기집", 260, MEAT, {"냉삼": "9,000원"}, reviewCount=6),
    # 국밥 with hours and prices: 둘째국밥 is the cheapest (8,000원); 허심탄회 is shut on Sundays
    near(
        "g1",
        "첫째국밥",
        120,
        "한식>국밥",
        {"순대국밥": "10,000원"},
        businessHours="매일 10:00 ~ 22:00",
        reviewCount=90,
    ),
    near(
        "g2",
        "둘째국밥",
        170,
        "한식>국밥",
        {"순대국밥": "8,000원"},
        businessHours="매일 10:00 ~ 02:00",
        reviewCount=80,
    ),
    near(
        "g3",
        "허심탄회",
        220,
        "한식>국밥",
        {"순대국밥": "9,000원"},
        businessHours="월~토 10:00 ~ 24:00",
        reviewCount=70,
    ),
    # 해산물: a 횟집, a 꽃게 house and two 조개구이 houses
    near("s1", "바다횟집", 130, "한식>해물,생선>회", {"광어회": "40,000원"}, reviewCount=60),
    near("s2", "조개천국", 150, "한식>해물,생선>조개", {"조개구이 모둠": "45,000원"}, reviewCount=55),
    near("s3", "꽃게나라", 190, "한식>해물,생선>게,대게", {"꽃게탕": "50,000원"}, reviewCount=50),
    near("s4", "조개마을", 240, "한식>해물,생선>조개", {"조개구이": "40,000원"}, reviewCount=45),
    # cafés: two listed chain brands, two local shops
    near("c1", "스타벅스 잠실역점", 140, CAFE, {"아메리카노": "4,700원"}, reviewCount=99),
    near("c2", "이디야커피 잠실점", 200, CAFE, {"아메리카노": "3,300원"}, reviewCount=98),
    near("c3", "온기다방", 250, CAFE, {"핸드드립": "6,000원"}, reviewCount=30),
    near("c4", "작은로스터리", 290, CAFE, {"라떼": "5,500원"}, reviewCount=20),
    # 치킨: two chain branches and a local shop
    near("k1", "교촌치킨 잠실점", 135, CHICKEN, {"교촌오리지날": "19,000원"}, reviewCount=60),
    near("k2", "BHC치킨 잠실점", 185, CHICKEN, {"뿌링클": "20,000원"}, reviewCount=50),
    near("k3", "동네통닭", 235, CHICKEN, {"후라이드": "16,000원"}, reviewCount=20),
    # two named places shut on Sundays: 하루식당 closes at 21:00, 버섯뜰 at 23:00 on weekdays
    near(
        "h1",
        "하루식당",
        400,
        "일식>돈가스",
        {"등심카츠": "11,000원"},
        businessHours="월~토 11:00 ~ 21:00",
        reviewCount=40,
    ),
    near(
        "h2",
        "버섯뜰",
        420,
        "한식>샤브샤브",
        {"버섯샤브": "16,000원"},
        businessHours="월~토 11:00 ~ 23:00",
        reviewCount=35,
    ),
]


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ingest_records(tmp_path_factory.mktemp("dlg24h"), RECORDS)


def ids(result: object) -> set[str]:
    return {c.id for c in result.cards}  # type: ignore[attr-defined]


# --- class 13: exclusions after a list narrow it ----------------------------------------------------


def test_a_dish_ruled_out_after_a_list_narrows_it(data: Path) -> None:
    first, r = talk_over(data, ["잠실역 해산물", "조개구이는 빼고"], WEDNESDAY_EVENING)
    assert {"s2", "s4"} & ids(first)
    assert r.decision == "search" and r.frame is not None
    assert r.frame.kinds == ["해산물"] and "조개구이" in r.frame.exclude_kinds
    assert ids(r) and not ids(r) & {"s2", "s4"}


@pytest.mark.parametrize("text", ["스타벅스나 이디야 같은 체인점은 제외", "스타벅스 같은 프차 말고"])
def test_brands_as_examples_of_chains_ruled_out_narrow_the_list(data: Path, text: str) -> None:
    first, r = talk_over(data, ["잠실역 카페", text], WEDNESDAY_EVENING)
    assert {"c1", "c2"} <= ids(first)
    assert r.frame is not None and r.frame.exclude_chains
    assert r.frame.location is not None and r.frame.location.name == "잠실역"
    assert ids(r) == {"c3", "c4"}


@pytest.mark.parametrize(
    "text", ["잠실역 치킨집인데 무슨무슨점 붙은 데 말고요", "잠실역 치킨 지점 여러 개 있는 데 말고"]
)
def test_a_branch_name_as_the_mark_of_a_chain_rules_chains_out(data: Path, text: str) -> None:
    (r,) = talk_over(data, [text], WEDNESDAY_EVENING)
    assert r.frame is not None and r.frame.exclude_chains
    assert ids(r) == {"k3"}


# --- class 8: cheaper phrasings -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["가격대 좀 더 낮은 걸로 부탁해요", "값 좀 더 싼 곳 없나", "금액대 좀 낮은 데로"]
)
def test_a_lower_price_range_asked_is_cheaper_than_the_list(data: Path, text: str) -> None:
    first, r = talk_over(data, ["잠실역 고깃집", text], WEDNESDAY_EVENING)
    assert ids(first) == {"m1", "m2", "m3"}
    assert r.decision == "search" and r.frame is not None and r.frame.price_max == 24_999
    assert ids(r) == {"m4"}


# --- class 2: comparisons over the list shown ----------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["그중에 제일 싼 데 어디야", "일요일에 가려는데 세 곳 다 일요일 영업해?", "셋 다 주차 돼?"]
)
def test_the_list_shown_compared(data: Path, text: str) -> None:
    first, r = talk_over(data, ["잠실역 국밥", text], WEDNESDAY_EVENING)
    assert ids(first) == {"g1", "g2", "g3"}
    assert r.decision == "context" and not r.cards
    assert all(t in r.answer for t in ("첫째국밥", "둘째국밥", "허심탄회"))


def test_a_comparison_by_hours_on_an_unlisted_day_says_each_close(data: Path) -> None:
    (r,) = talk_over(data, ["하루식당이랑 버섯뜰 중에 어디가 더 늦게까지 해?"], SUNDAY_NOON)
    # neither lists Sunday: Monday is compared, 11:00~21:00 against 11:00~23:00
    assert "하루식당 11:00~21:00" in r.answer and "버섯뜰 11:00~23:00" in r.answer


# --- class 11: a convenience ruled out is not asked ----------------------------------------------------


@pytest.mark.parametrize(
    "text", ["잠실역 치킨 시켜먹지 말고 가서 먹을 데", "잠실역 치킨 배달은 말고 매장에서 먹을 곳"]
)
def test_a_convenience_ruled_out_is_not_asked(data: Path, text: str) -> None:
    (r,) = talk_over(data, [text], WEDNESDAY_EVENING)
    assert r.frame is not None and r.frame.convenience == [] and r.frame.eat_in
    assert ids(r) == {"k1", "k2", "k3"}


# --- class 1: stations romanised syllable by syllable --------------------------------------------------


@pytest.mark.parametrize(
    ("text", "korean"),
    [
        (
            "where to eat pork belly around gyeongchal hospital stn",
            "where to eat pork belly around 경찰병원역",
        ),
        ("sushi near gyeongchalbyeongwon station", "sushi 경찰병원역 근처"),
        ("noodles near sinrim stn", "noodles 신림역 근처"),
    ],
)
def test_stations_as_locals_romanise_them(text: str, korean: str) -> None:
    assert koreanize_places(text) == korean


# --- class 14: route phrasings --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "a", "b"),
    [
        ("송파역 지나서 가락시장 가는 길에 국수 먹을 데", "송파역", "가락시장"),
        ("올림픽공원 산책하고 몽촌토성역 쪽으로 나가는 동선에 저녁 먹을 곳", "올림픽공원", "몽촌토성역"),
        ("석촌호수 돌고 잠실역으로 빠지는 길에 카페", "석촌호수", "잠실역"),
    ],
)
def test_route_phrasings(text: str, a: str, b: str) -> None:
    spec = detect_strategy(text)
    assert (spec.strategy, spec.origin, spec.destination) == ("route", a, b)
