"""False statements found by the fifth local audit (docs/audit_issue24_r5.md, F1 and F2), as classes:

* a comparison by a criterion with a visitor tag ("가성비는 어디가 나아?") gives its verdict by that
  tag when one place has tags and the other none, and a price comparison names only the places
  without prices ("두 곳 모두" only when it is both) — F1;
* a radius widened by relaxation is not said when a later step (a broader kind) found places all
  within the radius asked — F2.

Records are hand-written; expected sentences are worked out from them by hand.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from support.records import ingest_records, talk_over
from support.records import near_jamsil as near

SEOUL = ZoneInfo("Asia/Seoul")
WEDNESDAY_EVENING = datetime(2026, 11, 25, 19, 30, tzinfo=SEOUL)


RECORDS = [
    # 가성비 tags 9 of 77 reviews and priced menus
    near(
        "value",
        "가성비파스타",
        100,
        "양식>이탈리안",
        {"토마토 파스타": "14,000원", "크림 파스타": "16,000원"},
        businessHours="매일 11:00 ~ 22:00",
        reviewCount=77,
        rating=4.1,
        reviewKeywords={"맛": 26, "가성비": 9},
    ),
    # no 가성비 tag among 48 reviews, menus without prices
    near(
        "noprice",
        "치즈파스타룸",
        200,
        "양식>이탈리안",
        {"파스타": "", "리조또": ""},
        businessHours="매일 11:00 ~ 22:00",
        reviewCount=48,
        rating=4.1,
        reviewKeywords={"맛": 17},
    ),
    # two wine bars with the same '분위기' share (10 of 50 reviews each)
    near(
        "wine1",
        "잠실와인",
        150,
        "술집>와인바",
        {"하우스와인": "9,000원"},
        reviewCount=50,
        reviewKeywords={"분위기": 10},
    ),
    near(
        "wine2",
        "호수와인",
        250,
        "술집>와인바",
        {"글라스와인": "12,000원"},
        reviewCount=50,
        reviewKeywords={"분위기": 10},
    ),
    # the only sushi place: 300 m from 잠실역, no 오마카세 anywhere
    near(
        "sushi",
        "잠실초밥",
        300,
        "일식>초밥,롤",
        {"모듬초밥": "18,000원", "연어초밥": "15,000원"},
        businessHours="매일 11:30 ~ 21:30",
        reviewCount=40,
        rating=4.3,
    ),
]


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ingest_records(tmp_path_factory.mktemp("audit5"), RECORDS)


def test_value_comparison_gives_a_verdict_by_its_tag(data: Path) -> None:
    first, value = talk_over(
        data, ["잠실역 파스타", "1번이랑 2번 중에 가성비는 어디가 나아?"], WEDNESDAY_EVENING
    )
    assert [c.name for c in first.cards][:2] == ["가성비파스타", "치즈파스타룸"]
    assert "'가성비'의 리뷰 대비 비율로는 가성비파스타가 더 높아요 (12%)" in value.answer
    assert "두 곳 모두" not in value.answer


def test_price_comparison_names_only_the_place_without_prices(data: Path) -> None:
    _, cheaper = talk_over(data, ["잠실역 파스타", "1번이랑 2번 중에 어디가 더 싸?"], WEDNESDAY_EVENING)
    assert "치즈파스타룸의 가격 정보가 없어서 가격으로는 비교하기 어려워요" in cheaper.answer
    assert "두 곳 모두" not in cheaper.answer


def test_a_tie_in_a_tag_share_is_said_as_a_tie(data: Path) -> None:
    _, mood = talk_over(data, ["잠실역 와인바", "1번이랑 2번 중에 분위기는 어디가 나아?"], WEDNESDAY_EVENING)
    assert "모두 20%로 같아서" in mood.answer
    assert "가장 높아요" not in mood.answer and "더 높아요" not in mood.answer


def test_a_widening_that_found_nothing_is_not_said(data: Path) -> None:
    (r,) = talk_over(data, ["잠실역 오마카세"], WEDNESDAY_EVENING)
    assert [c.name for c in r.cards] == ["잠실초밥"]
    assert "넓은 종류" in r.answer  # the step that found it is said
    assert "넓혔어요" not in r.answer  # the circle stayed within the radius asked (the card is 300 m)


JJUKKU = [
    near("j1", "잠실쭈꾸미", 120, "한식>낙지,쭈꾸미", {"쭈꾸미볶음": "15,000원"}, reviewCount=60),
    near(
        "j2",
        "송파쭈꾸미",
        180,
        "한식>낙지,쭈꾸미",
        {"쭈꾸미볶음": "15,000원", "간장쭈꾸미": "16,000원"},
        reviewCount=20,
    ),
    near("t1", "잠실떡볶이", 140, "분식>떡볶이", {"떡볶이": "5,000원"}, reviewCount=80),
]


def test_less_spicy_after_a_spicy_kind_keeps_the_kind_mild_first(tmp_path: Path) -> None:
    """Audit r5 C5.2: "덜 매운 데로" after a 쭈꾸미 list ruled the asked kind itself out (and then widened
    with a false note); the kind stays, the place with a mild version (간장쭈꾸미) first, said so."""
    data = ingest_records(tmp_path, JJUKKU)
    first, mild = talk_over(
        data, ["잠실역 쭈꾸미", "매운 거 못 먹는 친구도 있어서 덜 매운 데로 바꿔줘"], WEDNESDAY_EVENING
    )
    assert [c.name for c in first.cards] == ["잠실쭈꾸미", "송파쭈꾸미"]
    assert [c.name for c in mild.cards] == ["송파쭈꾸미", "잠실쭈꾸미"]
    assert "안 매운 메뉴" in mild.answer
    assert "매운 음식이 중심인 집" not in mild.answer


GUKBAP = [
    near("g1", "잠실순대국", 100, "한식>순대", {"순대국": "9,000원", "수육": "20,000원"}, reviewCount=90),
    near(
        "g2", "잠실국밥", 160, "한식>국밥", {"소머리국밥": "10,000원", "육개장": "10,000원"}, reviewCount=30
    ),
    near("g3", "송파해장", 220, "한식>국밥", {"순대국밥": "9,000원", "내장탕": "10,000원"}, reviewCount=60),
]


@pytest.mark.parametrize("asked", ["잠실역 육개장 잘하는 집", "잠실역 육계장 맛있는 곳"])
def test_a_dish_of_a_kind_asked_by_name_or_typo_comes_first(tmp_path: Path, asked: str) -> None:
    """Audit r5 Q5: 육개장 (or the typo 육계장, said) asked near 잠실역 put three 순대국 houses first while a
    국밥 place listing 육개장 stood nearby; the place listing the dish comes first."""
    (r,) = talk_over(ingest_records(tmp_path, GUKBAP), [asked], WEDNESDAY_EVENING)
    assert r.cards[0].name == "잠실국밥"


@pytest.mark.parametrize(
    ("text", "mode"),
    [
        ("송파역 근처에서 저녁 먹고 2차로 맥주 한잔할 데까지 걸어서 다닐 수 있게 짜줘", "walk"),
        ("저녁 먹고 2차로 호프 가는 코스", None),
        ("1차로 고기 3차로 노래방", None),
        ("차로 10분 안에 있는 국밥집", "car"),
        ("잠실에서 2차로 갈 데 차로 15분", "car"),
    ],
)
def test_a_numbered_round_is_no_travel_mode(text: str, mode: str | None) -> None:
    """Audit r5 Q9: "2차로 맥주" (the second round) was read as "차로" (by car), so a walking course got
    5 km car legs; a mode word right after a number is none."""
    from matjip.nlu.strategy import mode_said

    assert mode_said(text) == mode


SATURDAY_NOON = datetime(2026, 11, 28, 12, 0, tzinfo=SEOUL)
WEEKDAY_ONLY = [
    near("porridge", "다온죽집", 100, "한식>죽", {"호박죽": "6,000원"}, businessHours="월~금 08:00 ~ 20:00"),
    near(
        "ramen", "필름라멘", 200, "일식>라멘", {"돈코츠라멘": "9,000원"}, businessHours="월~금 11:00 ~ 22:00"
    ),
]


def test_hours_compared_on_the_next_day_both_list_when_today_is_in_neither(tmp_path: Path) -> None:
    """dialogue_test9 ec078 (a development case once its first run was reported): both timetables
    list only 월~금 and the question came on a Saturday; the answer gave no closing time. It compares
    Monday's hours, said as Monday's, with today's gap said first."""
    (r,) = talk_over(
        ingest_records(tmp_path, WEEKDAY_ONLY),
        ["다온죽집이랑 필름라멘 중에 어디가 더 늦게까지 해"],
        SATURDAY_NOON,
    )
    assert "다온죽집, 필름라멘은 오늘(토) 영업일이 아니라서" in r.answer
    assert (
        "월요일에는 필름라멘이 가장 늦게까지 하고(22:00까지), 다온죽집이 가장 일찍 열어요(08:00부터)"
        in r.answer
    )
