"""Issue 24, dialogue classes found by new chat phrasings (helper dlg24c): romanised dongs and
markets and an old station name (2), chains ruled out by example or in chat shorthand (4), a party
said in a comparison (8), a course's stops in time order and a route end that is no place (9),
words that are no condition (11), ties and the criterion asked in a comparison (13), "아까 거기"
after a refinement (14), two kinds in a heading (15).

The dialogues run the real offline agent over a few hand-written crawl records ingested into a
fresh data directory; expected values are worked out by hand from the records.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from matjip.geo import Gazetteer
from matjip.nlu.kinds import detect_kinds
from matjip.nlu.romanized import koreanize_places
from support.records import ingest_records, talk_over
from support.records import near_jamsil as near

SEOUL = ZoneInfo("Asia/Seoul")
WEDNESDAY_EVENING = datetime(2026, 11, 25, 19, 30, tzinfo=SEOUL)
WEDNESDAY_MORNING = datetime(2026, 11, 25, 10, 0, tzinfo=SEOUL)
GOPCHANG = "한식>곱창,막창"


# Medians: 밤곱창 20,000; 곱창이야기 15,000; 비싼곱창 35,000; 싼곱창 9,000. 곱창이야기 and 비싼곱창 both
# open 12:00 and close 23:00 (a tie either way).
RECORDS = [
    near(
        "night",
        "밤곱창",
        100,
        GOPCHANG,
        {"한우곱창": "20,000원"},
        businessHours="월~토 17:00 ~ 02:00",
        reviewCount=90,
        rating=4.4,
        telephone="02-111-1111",
    ),
    near(
        "story",
        "곱창이야기",
        150,
        GOPCHANG,
        {"곱창": "15,000원"},
        businessHours="매일 12:00 ~ 23:00",
        reviewCount=70,
        rating=4.4,
        telephone="02-222-2222",
    ),
    near(
        "dear",
        "비싼곱창",
        200,
        GOPCHANG,
        {"특곱창": "35,000원"},
        businessHours="매일 12:00 ~ 23:00",
        reviewCount=60,
        rating=4.4,
        telephone="02-333-3333",
    ),
    near(
        "cheap",
        "싼곱창",
        250,
        GOPCHANG,
        {"곱창": "9,000원"},
        businessHours="매일 12:00 ~ 23:00",
        reviewCount=4,
        rating=4.0,
    ),
    # a meal and a café for a course; a 국밥 and a 찌개 house for "밥집"
    near(
        "meal",
        "잠실한정식",
        300,
        "한식>한정식",
        {"정식": "15,000원"},
        businessHours="매일 11:00 ~ 22:00",
        reviewCount=50,
        rating=4.3,
    ),
    near(
        "cafe",
        "호수커피",
        350,
        "카페",
        {"아메리카노": "4,500원", "라떼": "5,000원"},
        businessHours="매일 10:00 ~ 22:00",
        reviewCount=40,
        rating=4.3,
    ),
    near(
        "gukbap",
        "잠실국밥",
        400,
        "한식>국밥",
        {"순대국밥": "9,000원"},
        businessHours="매일 08:00 ~ 22:00",
        reviewCount=30,
        rating=4.2,
    ),
    near(
        "jjigae",
        "잠실찌개",
        450,
        "한식>찌개,전골",
        {"김치찌개": "9,000원"},
        businessHours="매일 10:00 ~ 22:00",
        reviewCount=20,
        rating=4.2,
    ),
]


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ingest_records(tmp_path_factory.mktemp("dlg24c"), RECORDS)


# --- class 2: romanised dongs and markets, an old station name -----------------------------------


def test_romanised_dongs_and_markets_become_the_korean_places() -> None:
    assert koreanize_places("amsa dong noodles") == "암사동 noodles"
    assert koreanize_places("garak-dong bossam") == "가락동 bossam"
    assert koreanize_places("mangwon market food") == "망원시장 food"
    assert koreanize_places("lotte world tower dinner") == "롯데월드타워 저녁"


def test_an_old_station_name_is_the_station() -> None:
    found = Gazetteer.load().best("성내역")  # 잠실나루역 until 2010
    assert found is not None and found.name == "잠실나루역"


# --- class 4: chains ruled out by example and in chat shorthand ----------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "천호역 김밥 김밥천국 같은데 말고",
        "문정역 떡볶이 체인x",
        "체인은 빼줘",
        "문정 치킨집 브랜드 치킨 말고",
        "천호 피자 체인 노노",
        "강동역 떡볶이 브랜드 체인 없이",
    ],
)
def test_chains_ruled_out_in_other_words(text: str) -> None:
    assert detect_kinds(text).exclude_chains


def test_a_brand_named_for_itself_rules_out_no_other_chain() -> None:
    assert not detect_kinds("잠실 김밥천국 가는 길").exclude_chains


# --- class 8: a party said in a comparison -------------------------------------------------------


def test_a_party_said_with_a_comparison_is_said_to_be_unchecked(data: Path) -> None:
    _, compare = talk_over(data, ["잠실역 곱창", "여섯명 갈건데 어디가 나아"], WEDNESDAY_EVENING)
    assert "비교" in compare.answer
    assert "6명이 함께 앉을 자리가 있는지는 좌석 정보가 없어서 알 수 없어요" in compare.answer


# --- class 9: a course in time order; a route end that is no place -------------------------------


def test_a_cafe_named_after_dinner_comes_after_dinner(data: Path) -> None:
    (r,) = talk_over(data, ["잠실역 코스 짜줘 저녁이랑 카페"], WEDNESDAY_MORNING)
    # 저녁's slot is 18:30; the café's own slot (14:30) is earlier, so it follows by 90 minutes
    assert "1. 저녁 18:30 · 식사 — **" in r.answer
    assert "카페 20:00 · 카페 — **호수커피**" in r.answer


def test_visiting_a_place_first_is_no_route_to_a_place_called_ga(data: Path) -> None:
    (r,) = talk_over(data, ["잠실역 들렀다가 갈만한 곱창"], WEDNESDAY_EVENING)
    assert "위치를 알 수 없어서" not in r.answer
    assert r.plan is not None and r.plan.strategy != "route"
    assert {c.id for c in r.cards} <= {"night", "story", "dear", "cheap"} and r.cards


# --- class 11: words that are no condition -------------------------------------------------------


def test_chat_words_are_never_reported_as_conditions(data: Path) -> None:
    (chains,) = talk_over(data, ["잠실역 곱창 프차 말고 로컬 맛집"], WEDNESDAY_EVENING)
    (walk,) = talk_over(data, ["잠실역 걸어가서 먹을 만한 곱창"], WEDNESDAY_EVENING)
    assert "데이터로 확인할 수 없어서" not in chains.answer and "로컬" not in chains.answer
    assert chains.frame is not None and chains.frame.exclude_chains
    # "걸어가서 먹을" is about walking there, not eating in (no eat-in note)
    assert walk.frame is not None and not walk.frame.eat_in
    assert "가서 드실 곳" not in walk.answer


# --- class 13: ties and the criterion asked ------------------------------------------------------


def test_an_hours_tie_is_said_as_a_tie(data: Path) -> None:
    # "비싼곱창" names a restaurant, not the price: the comparison is by hours
    _, r = talk_over(data, ["잠실역 곱창", "곱창이야기랑 비싼곱창 영업시간 비교"], WEDNESDAY_EVENING)
    assert "곱창이야기, 비싼곱창 모두 23:00까지" in r.answer
    assert "곱창이야기, 비싼곱창 모두 12:00부터" in r.answer
    assert "가장 늦게까지" not in r.answer


def test_which_is_cheaper_in_plain_words_is_answered_by_price(data: Path) -> None:
    # the first list: 1. 밤곱창 (90 reviews), 2. 곱창이야기 (70), 3. 비싼곱창 (60)
    _, r = talk_over(data, ["잠실역 곱창", "2번 3번 어디가 더 싸"], WEDNESDAY_EVENING)
    assert "곱창이야기가 더 싸요" in r.answer
    assert "15,000원" in r.answer.splitlines()[-1] and "35,000원" in r.answer.splitlines()[-1]


# --- class 14: "아까 거기" after a refinement ---------------------------------------------------


def test_earlier_there_after_a_cheaper_list_is_the_place_asked_about(data: Path) -> None:
    turns = ["잠실역 곱창", "곱창이야기 메뉴 뭐 있어", "더 싼 데는?", "아까 거기 전화번호"]
    *_, cheaper, phone = talk_over(data, turns, WEDNESDAY_EVENING)
    assert [c.id for c in cheaper.cards] == ["cheap"]
    assert "곱창이야기" in phone.answer and "02-222-2222" in phone.answer


# --- class 15: two kinds in a heading ------------------------------------------------------------


def test_two_kinds_in_a_heading_are_said_apart(data: Path) -> None:
    (r,) = talk_over(data, ["잠실역 국밥이나 찌개"], WEDNESDAY_EVENING)
    assert {c.id for c in r.cards} == {"gukbap", "jjigae"}
    assert "찌개·전골, 국밥·순대국 2곳" in r.answer
    assert "찌개·전골 국밥·순대국" not in r.answer
