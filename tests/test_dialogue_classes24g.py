"""Issue 24, dialogue classes of the fifth round (helper dlg24g), each failing on the round's start:

- 1: a station name of which only one namesake has restaurants is answered about that one, the first
  line saying which ("영등포구 양평역(5호선) 기준이에요 — 경기 양평군 양평역(경의중앙선)은 …"); a reply to
  "which 위례동?" naming the dong means that area (mode "in"), its namesakes next door being the ones
  the user did not mean;
- 8: "더 싼 데" is cheaper than the list shown (below its typical price, the median of the places' menu
  medians — not only below its dearest place), and the next page keeps reading that bound on the whole
  menu; a party size asked about a shown place ("첫 번째 여덟 명 앉을 자리 있어?") is said unknowable;
- 11/13: a day asked about a named place ("일요일에도 장사해?") answers that day's hours first (also on
  the evening before), and "장사" is no condition; brands named as examples of what is ruled out
  ("교촌 bhc 이런 데 말고") are a search without chains, not a comparison of them;
- 2/8: English follow-ups: a count ("just two please") refines the list; "which one closes later?"
  compares the places shown.

Every dialogue runs the real offline agent over hand-written crawl records in a fresh data directory;
expected values are worked out by hand from the records.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from support.records import M_PER_DEG_LAT, ingest_records, jamsil_record, talk_over
from support.records import near_jamsil as near

SEOUL = ZoneInfo("Asia/Seoul")
WEDNESDAY_EVENING = datetime(2026, 11, 25, 19, 30, tzinfo=SEOUL)
SATURDAY_LATE = datetime(2026, 11, 28, 22, 40, tzinfo=SEOUL)  # "일요일" is 80 minutes away
MEAT = "한식>육류,고기"
CHICKEN = "음식점>치킨"

# 양평역 (5호선, 영등포구) and 종합운동장역 (2·9호선, 송파구): their namesakes (경의중앙선 양평역 in 양평군,
# 부산 3호선 종합운동장역) have no record. 송파구 위례동 and 하남시 위례동 each have one.
YANGPYEONG = (37.525614, 126.886177)
SPORTS_COMPLEX = (37.5111, 127.0754)
WIRYE_SONGPA = (37.479163, 127.141485)
WIRYE_HANAM = (37.475991, 127.150492)


def at(place_id: str, title: str, point: tuple[float, float], north_m: float, **extra: Any) -> dict[str, Any]:
    return jamsil_record(
        place_id,
        title,
        "한식>국밥",
        {"순대국밥": "10,000원"},
        lat=point[0] + north_m / M_PER_DEG_LAT,
        lon=point[1],
        **extra,
    )


RECORDS = [
    # 고깃집 north of 잠실역. The first page (most reviews) shows 30,000 / 25,000 / 20,000원: typical price
    # 25,000원, so "더 싼 데" is at most 24,999원. 애매고기집 (27,000원) is below the dearest shown but not
    # below the list; 세트고기집's 삼겹살 is 15,000원 but its menu's median is 38,000원.
    near("m1", "한우집", 110, MEAT, {"등심": "30,000원"}, reviewCount=95),
    near("m2", "갈비집", 160, MEAT, {"갈비": "25,000원"}, reviewCount=85),
    near("m3", "삼겹집", 210, MEAT, {"삼겹살": "20,000원"}, reviewCount=75),
    near("m4", "싼고기집", 260, MEAT, {"냉삼": "9,000원"}, reviewCount=6),
    near("m5", "애매고기집", 280, MEAT, {"목살": "27,000원"}, reviewCount=5),
    near("m6", "이만원고기집", 300, MEAT, {"항정살": "22,000원"}, reviewCount=4),
    near(
        "m7",
        "세트고기집",
        320,
        MEAT,
        {"삼겹살": "15,000원", "모둠 세트": "40,000원", "와인": "38,000원"},
        reviewCount=3,
    ),
    near("m8", "만팔천고기집", 340, MEAT, {"가브리살": "18,000원"}, reviewCount=2),
    near("m9", "만이천고기집", 360, MEAT, {"뒷고기": "12,000원"}, reviewCount=1),
    # 국밥 with hours: 허심탄회 opens 월~토 only
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
        {"순대국밥": "10,000원"},
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
    # 치킨: two listed chain brands and a local shop
    near("k1", "교촌치킨 잠실점", 130, CHICKEN, {"교촌오리지날": "19,000원"}, reviewCount=60),
    near("k2", "BHC치킨 잠실점", 180, CHICKEN, {"뿌링클": "20,000원"}, reviewCount=50),
    near("k3", "동네통닭", 230, CHICKEN, {"후라이드": "16,000원"}, reviewCount=20),
    # one place near each covered namesake
    at("y1", "양평국밥", YANGPYEONG, 100),
    at("s1", "운동장국밥", SPORTS_COMPLEX, 100),
    at("w1", "송파위례국밥", WIRYE_SONGPA, 100),
    at("w2", "하남위례국밥", WIRYE_HANAM, 100),
]


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ingest_records(tmp_path_factory.mktemp("dlg24g"), RECORDS)


def _first_line(answer: str) -> str:
    return answer.strip().splitlines()[0]


# --- class 1: one covered namesake of a station is answered, said first ---------------------------


@pytest.mark.parametrize(
    ("text", "first", "card"),
    [
        (
            "양평역 근처 맛집",
            "영등포구 양평역(5호선) 기준이에요 — 경기 양평군 양평역(경의중앙선)은 아직 데이터에 없어요.",
            "y1",
        ),
        (
            "종합운동장역 국밥",
            "송파구 종합운동장역(2호선·9호선) 기준이에요 — 부산 연제구 종합운동장역(부산 도시철도 3호선)은 아직"
            " 데이터에 없어요.",
            "s1",
        ),
    ],
)
def test_a_station_with_one_covered_namesake_is_answered_saying_which(
    data: Path, text: str, first: str, card: str
) -> None:
    (r,) = talk_over(data, [text], WEDNESDAY_EVENING)
    assert r.decision == "search", r.answer
    assert _first_line(r.answer) == first
    assert card in {c.id for c in r.cards}


@pytest.mark.parametrize(("reply", "mode"), [("송파 위례동이요", "in"), ("하남 위례동", "in"), ("1", "near")])
def test_a_reply_naming_the_dong_means_that_area(data: Path, reply: str, mode: str) -> None:
    asked, r = talk_over(data, ["위례동 쪽 국밥", reply], WEDNESDAY_EVENING)
    assert asked.decision == "clarify" and not asked.cards
    assert r.resumed and r.frame is not None and r.frame.location is not None
    assert r.frame.location.mode == mode


# --- class 8: cheaper than the list shown; the next page keeps the bound --------------------------


@pytest.mark.parametrize("cheaper", ["좀 더 싼 데", "가격대 좀 낮춰서 다시", "좀 덜 비싼 데 없나"])
def test_cheaper_is_below_the_lists_typical_price_and_the_next_page_keeps_it(
    data: Path, cheaper: str
) -> None:
    first, cheap, more = talk_over(data, ["잠실역 고깃집", cheaper, "더 보여줘"], WEDNESDAY_EVENING)
    assert {c.id for c in first.cards} == {"m1", "m2", "m3"}
    assert cheap.frame is not None and cheap.frame.price_max == 24_999
    # 9,000 / 22,000 / 18,000 / 12,000원 are below 25,000원; 애매고기집 (27,000원) and 세트고기집 (median
    # 38,000원) are not
    allowed = {"m4", "m6", "m8", "m9"}
    assert len(cheap.cards) == 3 and {c.id for c in cheap.cards} <= allowed
    assert {c.id for c in more.cards} == allowed - {c.id for c in cheap.cards}


# --- class 8/11: a party asked about a shown place is said unknowable ------------------------------


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("첫 번째 거기 여덟 명 앉을 자리 있어?", "첫째국밥"),
        ("두번째 집 우리 여섯이 가도 돼?", "둘째국밥"),
        ("세 번째 열 명 들어가?", "허심탄회"),
        ("1번 7명 자리 돼?", "첫째국밥"),
    ],
)
def test_a_party_asked_about_a_shown_place_is_said_unknowable(data: Path, text: str, title: str) -> None:
    _, r = talk_over(data, ["잠실역 국밥", text], WEDNESDAY_EVENING)
    assert r.decision == "context"
    assert title in r.answer and "모르겠" in r.answer


# --- class 11/13: a day asked about a named place; brands as examples ------------------------------


@pytest.mark.parametrize(
    "text", ["허심탄회 일요일에도 장사해?", "허심탄회 일요일에 운영해?", "허심탄회 일요일도 오픈해?"]
)
def test_a_day_asked_about_a_named_place_says_that_days_hours(data: Path, text: str) -> None:
    (r,) = talk_over(data, [text], SATURDAY_LATE)
    first = _first_line(r.answer)
    assert "허심탄회" in first and "일요일" in first and "월~토" in first, r.answer
    assert "데이터로 확인할 수 없어서" not in r.answer


@pytest.mark.parametrize(
    "text",
    [
        "교촌 bhc 이런 데 말고 잠실역 동네 치킨집",
        "교촌이나 bhc 같은 데 말고 잠실역 치킨",
        "잠실역 치킨 교촌 bhc 이런 프차 빼고",
    ],
)
def test_brands_named_as_examples_of_what_is_ruled_out_are_no_comparison(data: Path, text: str) -> None:
    (r,) = talk_over(data, [text], WEDNESDAY_EVENING)
    assert r.decision == "search" and r.frame is not None
    assert r.frame.intent == "search" and r.frame.exclude_chains
    assert [c.id for c in r.cards] == ["k3"]


# --- class 2/8: English follow-ups ----------------------------------------------------------------


@pytest.mark.parametrize(("text", "k"), [("just two please", 2), ("only one please", 1), ("two pls", 2)])
def test_an_english_count_refines_the_list(data: Path, text: str, k: int) -> None:
    _, r = talk_over(data, ["gukbap near jamsil station", text], WEDNESDAY_EVENING)
    assert r.decision == "search" and r.frame is not None and r.frame.k == k
    assert [c.id for c in r.cards] == ["g1", "g2", "g3"][:k]


@pytest.mark.parametrize("text", ["which one closes later?", "둘 중에 어디가 더 늦게까지 해?"])
def test_which_closes_later_compares_the_places_shown(data: Path, text: str) -> None:
    _, _, r = talk_over(data, ["잠실역 국밥", "2곳만", text], WEDNESDAY_EVENING)
    assert r.decision == "context" and not r.cards
    assert "첫째국밥" in r.answer and "둘째국밥" in r.answer and "02:00" in r.answer


# --- class 11: how easy a convenience is, said after it, is no condition of its own -----------------


@pytest.mark.parametrize(
    "text",
    [
        "잠실역 주차 편한 고깃집",
        "잠실역 예약 편한 국밥집",
        "잠실역 주차하기 편리한 고깃집",
        "잠실역 주차 넉넉한 국밥",
    ],
)
def test_the_ease_of_a_convenience_is_no_dropped_condition(data: Path, text: str) -> None:
    (r,) = talk_over(data, [text], WEDNESDAY_EVENING)
    assert r.cards
    assert "데이터로 확인할 수 없어서" not in r.answer and "확인할 수 없었어요" not in r.answer, r.answer
