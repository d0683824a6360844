"""Issue 24, dialogue classes of the fourth round (helper dlg24f): the next page asked in other words
never repeats a place shown (8); "지금" is the clock even when "여기" follows it, and a place "문 연" said
without a time is open now (12/11); a station's own name said as a landmark's name is the station (2);
brands named as examples of a chain fold into the chain exclusion (11).

The dialogues run the real offline agent over a few hand-written crawl records ingested into a
fresh data directory; expected values are worked out by hand from the records.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from support.records import JAMSIL, ingest_records, talk_over
from support.records import near_jamsil as near

SEOUL = ZoneInfo("Asia/Seoul")
WEDNESDAY_EVENING = datetime(2026, 11, 25, 19, 30, tzinfo=SEOUL)
GUKBAP = "한식>국밥"

# Five 국밥 houses north of 잠실역, more reviews nearer (the first page of "잠실역 국밥" is 1-3 by reviews).
# 점심국밥 (4th) opens 11:00-15:00 only: closed at 19:30 on a Wednesday.
RECORDS = [
    near(
        "g1",
        "첫째국밥",
        100,
        GUKBAP,
        {"순대국밥": "10,000원"},
        businessHours="매일 10:00 ~ 22:00",
        reviewCount=90,
    ),
    near(
        "g2",
        "둘째국밥",
        150,
        GUKBAP,
        {"순대국밥": "10,000원"},
        businessHours="매일 10:00 ~ 22:00",
        reviewCount=80,
    ),
    near(
        "g3",
        "셋째국밥",
        200,
        GUKBAP,
        {"순대국밥": "10,000원"},
        businessHours="매일 10:00 ~ 22:00",
        reviewCount=70,
    ),
    near(
        "g4",
        "점심국밥",
        250,
        GUKBAP,
        {"순대국밥": "10,000원"},
        businessHours="매일 11:00 ~ 15:00",
        reviewCount=60,
    ),
    near(
        "g5",
        "다섯째국밥",
        300,
        GUKBAP,
        {"순대국밥": "10,000원"},
        businessHours="매일 10:00 ~ 22:00",
        reviewCount=50,
    ),
    # 고깃집: three well reviewed (30,000 / 25,000 / 20,000 원) and one cheaper with few reviews (9,000 원)
    near("m1", "한우집", 110, "한식>육류,고기", {"등심": "30,000원"}, reviewCount=95),
    near("m2", "갈비집", 160, "한식>육류,고기", {"갈비": "25,000원"}, reviewCount=85),
    near("m3", "삼겹집", 210, "한식>육류,고기", {"삼겹살": "20,000원"}, reviewCount=75),
    near("m4", "싼고기집", 260, "한식>육류,고기", {"냉삼": "9,000원"}, reviewCount=5),
    # cafés and bakeries: two branches of listed chain brands, two local shops
    near("c1", "스타벅스 잠실역점", 120, "음식점>카페", {"아메리카노": "4,700원"}, reviewCount=300),
    near("c2", "골목커피", 180, "음식점>카페", {"아메리카노": "4,000원"}, reviewCount=40),
    near("b1", "파리바게뜨 잠실점", 140, "음식점>간식>제과,베이커리", {"소보로": "2,000원"}, reviewCount=200),
    near("b2", "동네빵집", 220, "음식점>간식>제과,베이커리", {"소보로": "2,500원"}, reviewCount=30),
]


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ingest_records(tmp_path_factory.mktemp("dlg24f"), RECORDS)


def _ask_at(data: Path, texts: list[str], location: dict[str, float] | None) -> list[Any]:
    """One dialogue at WEDNESDAY_EVENING, the first turn sent with the device's position."""
    from matjip.agent.service import Agent
    from matjip.settings import Settings

    agent = Agent(Settings(data_dir=data, embedder="hash"), persist=False)
    sid = f"gps-{abs(hash(tuple(texts)))}"
    try:
        out = [agent.ask(texts[0], session_id=sid, location=location, now=WEDNESDAY_EVENING)]
        out += [agent.ask(t, session_id=sid, now=WEDNESDAY_EVENING) for t in texts[1:]]
        return out
    finally:
        agent.close()


# --- class 8: the next page in other words never repeats a place shown ----------------------------


@pytest.mark.parametrize(
    "text",
    [
        "다음 페이지",
        "다음",
        "다음 거 보여줘",
        "그 다음 꺼도",
        "더 있어?",
        "또?",
        "나머지도 알려줘",
        "next page",
    ],
)
def test_the_next_page_in_other_words_shows_only_places_not_shown(data: Path, text: str) -> None:
    first, more = talk_over(data, ["잠실역 국밥", text], WEDNESDAY_EVENING)
    assert [c.id for c in first.cards] == ["g1", "g2", "g3"]
    assert {c.id for c in more.cards} == {"g4", "g5"}


def test_next_time_is_no_next_page(data: Path) -> None:
    _, r = talk_over(data, ["잠실역 국밥", "다음에 가볼게 ㅎㅎ"], WEDNESDAY_EVENING)
    assert not r.cards  # small talk: the list stays


# --- class 12/11: "지금" is the clock even with "여기" after it; "문 연 데" is open now ---------------


@pytest.mark.parametrize(
    "text",
    [
        "지금 여기 근처 국밥 문 연데",
        "지금 여기서 영업하는 국밥집",
        "지금 내 위치 근처 열려있는 국밥",
        "여기 근처 문 연 국밥집 있어?",
        "지금 이 근처 안 닫은 국밥",
    ],
)
def test_the_clock_word_keeps_open_now_beside_here(data: Path, text: str) -> None:
    (r,) = _ask_at(data, [text], {"lat": JAMSIL[0], "lon": JAMSIL[1]})
    assert r.frame is not None and r.frame.open_at is not None
    ids = {c.id for c in r.cards}
    assert "g4" not in ids and {"g1", "g2", "g3"} <= ids  # 점심국밥 closed at 15:00


@pytest.mark.parametrize("text", ["지금 여기 근처 국밥 5곳", "여기 새로 문 연 국밥집 5곳"])
def test_here_alone_or_newly_opened_is_no_clock(data: Path, text: str) -> None:
    (r,) = _ask_at(data, [text], {"lat": JAMSIL[0], "lon": JAMSIL[1]})
    assert r.frame is not None and r.frame.open_at is None
    assert "g4" in {c.id for c in r.cards}


# --- class 9: a course's round word ("2차로") and the kind said for it are one stop ---------------


@pytest.mark.parametrize(
    ("text", "roles", "words"),
    [
        ("잠실역 저녁 먹고 2차로 맥주 코스 짜줘", ["식사", "술집"], ["저녁", "맥주"]),
        ("방이동 삼겹살 먹고 2차는 가볍게 와인 코스", ["식사", "술집"], ["삼겹살", "와인"]),
        ("잠실 저녁 먹고 2차 가서 맥주 한잔 코스로", ["식사", "술집"], ["저녁", "맥주"]),
        ("석촌호수 파스타 먹고 이차로 포차 코스", ["식사", "술집"], ["파스타", "포차"]),
        (
            "잠실역 고기 먹고 2차엔 이자카야, 3차는 칵테일바 코스",
            ["식사", "술집", "술집"],
            ["고기", "이자카야", "칵테일"],
        ),
        ("잠실역 저녁 먹고 2차로 카페 코스", ["식사", "카페"], ["저녁", "카페"]),
    ],
)
def test_a_round_word_and_its_kind_are_one_stop(text: str, roles: list[str], words: list[str]) -> None:
    from matjip.nlu.strategy import detect_strategy

    spec = detect_strategy(text)
    assert spec.strategy == "course"
    assert spec.roles == roles and spec.slot_words == words


# --- class 11: a listed chain brand named as an example of the chains ruled out folds into them ----


@pytest.mark.parametrize(
    ("text", "local"),
    [
        ("잠실역 카페 스벅 같은 체인 말고", "c2"),
        ("잠실역 카페 스타벅스 이런 프랜차이즈 말고", "c2"),
        ("잠실역 동네 빵집, 파리바게뜨 이런 거 빼고", "b2"),
        ("잠실역 빵집 파바 말고 체인 아닌 데", "b2"),
    ],
)
def test_a_chain_brand_named_as_an_example_is_the_chain_exclusion(data: Path, text: str, local: str) -> None:
    (r,) = talk_over(data, [text], WEDNESDAY_EVENING)
    assert r.frame is not None and r.frame.exclude_chains and r.frame.exclude_titles == []
    assert [c.id for c in r.cards] == [local]


def test_a_brand_ruled_out_alone_stays_a_title_exclusion(data: Path) -> None:
    (r,) = talk_over(data, ["잠실역 카페 스타벅스 말고"], WEDNESDAY_EVENING)
    assert r.frame is not None and not r.frame.exclude_chains and r.frame.exclude_titles == ["스타벅스"]


# --- class 8: cheaper said as a complaint, a price that weighs, money short ------------------------


@pytest.mark.parametrize(
    "text",
    [
        "너무 비싸다 다른 데",
        "너무 비싸요 ㅠㅠ",
        "가격이 부담되네",
        "값이 좀 세네",
        "학생이라 돈이 없어",
        "가격대가 좀 높다",
    ],
)
def test_cheaper_said_as_a_complaint_refines_the_list(data: Path, text: str) -> None:
    first, cheaper = talk_over(data, ["잠실역 고깃집", text], WEDNESDAY_EVENING)
    assert [c.id for c in first.cards] == ["m1", "m2", "m3"]
    assert cheaper.frame is not None and cheaper.frame.price_max is not None
    assert cheaper.frame.price_max < 30_000 and [c.id for c in cheaper.cards] == ["m4"]


@pytest.mark.parametrize("text", ["오 비싸네 ㅋㅋ", "비싼 데 가도 돼"])
def test_a_price_remark_or_dear_allowed_is_no_cheaper(data: Path, text: str) -> None:
    _, r = talk_over(data, ["잠실역 고깃집", text], WEDNESDAY_EVENING)
    assert r.frame is None or r.frame.price_max is None


# --- class 14: a travel question in other words answers for the place referred to, which stays ------


@pytest.mark.parametrize(
    "text",
    [
        "두번째 거기서 잠실역까지 걸어서 얼마나?",
        "두 번째 집 잠실역에서 걸어갈 만해?",
        "2번 잠실역까지 멀어?",
        "두번째 거 잠실역에서 도보로 얼마야?",
    ],
)
def test_a_travel_question_in_other_words_keeps_the_place_referred_to(data: Path, text: str) -> None:
    first, travel, hours = talk_over(data, ["잠실역 국밥", text, "거기 몇 시까지 해?"], WEDNESDAY_EVENING)
    assert [c.id for c in first.cards] == ["g1", "g2", "g3"]
    assert not travel.cards and "둘째국밥" in travel.answer and "150m" in travel.answer  # 150 m north
    assert "둘째국밥" in hours.answer and "22:00" in hours.answer
