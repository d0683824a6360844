"""Issue 24, round B (kinds24j): the widening sentence counts what the cards count, and going now a
dropped clock is said of the circle asked only. Each test fails on main ``adbb02a``; expected values
worked out by hand from the records."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from support.chat import FRIDAY_EVENING, SEOUL
from support.records import ask_over
from support.records import card_ids as ids
from support.records import north_of_jamsil as record

SUNDAY_SMALL_HOURS = datetime(2026, 11, 29, 2, 20, tzinfo=SEOUL)


def _said(r: object) -> str:
    return str(getattr(r, "answer", ""))


# --- the count of a widened list counts every near place whose menu lists the kind (one rule) ------------


@pytest.mark.parametrize(
    ("asked", "own", "other", "far", "count"),
    [
        # a 해산물 house listing 모듬초밥 near, the sushi houses further
        (
            "잠실역 초밥집",
            None,
            ("이도숙성회", "해산물", ["모듬초밥(12pcs)", "숙성회 정식", "단품회", "모듬회초밥(10pcs)"]),
            ("먼스시", "일식>초밥,롤", ["모듬초밥", "연어초밥"]),
            "초밥·오마카세(으)로 분류된 곳은 없고 메뉴에만 있는 다른 종류의 곳이 1곳뿐이라",
        ),
        # a 해물 house listing 돼지김치찌개 beside one 김치찌개 house
        (
            "잠실역 김치찌개집",
            ("김치찌개명가", "한식>찌개,전골>김치찌개", ["김치찌개", "김치찜"]),
            ("원조식당", "한식>해물,생선", ["낙지덮밥", "아구탕", "돼지김치찌개", "동태탕"]),
            ("먼김치찌개", "한식>찌개,전골>김치찌개", ["김치찌개", "계란말이"]),
            "1km 안에는 2곳뿐이라",  # a dish asked: every place listing it is one of the list's own
        ),
    ],
)
def test_a_widened_list_says_the_near_places_that_list_the_dish(
    tmp_path: Path,
    asked: str,
    own: tuple[str, str, list[str]] | None,
    other: tuple[str, str, list[str]],
    far: tuple[str, str, list[str]],
    count: str,
) -> None:
    records = [
        record("other", other[0], other[1], 900, other[2], reviewCount=20),
        record("far", far[0], far[1], 2200, far[2], reviewCount=30),
    ]
    if own is not None:
        records.append(record("own", own[0], own[1], 300, own[2], reviewCount=40))
    r = ask_over(tmp_path, records, asked, FRIDAY_EVENING)
    said = _said(r)
    # the near place listing the dish is on the list (after the kind's own further), and the sentence
    # counts it: never "1km 안에는 없어서" / "1곳뿐" while it is there
    assert "other" in ids(r)
    assert count in said
    assert "안에는 없어서" not in said


# --- going now: a clock dropped near is said of that circle, an open place further may be listed ------


def test_going_now_the_dropped_clock_is_said_of_the_circle_asked(tmp_path: Path) -> None:
    # 02:20 Sunday: the 국밥 house near opens at 06:00; the 24-hour one 2.2 km north is open
    records = [
        record(
            "near",
            "용궁설렁탕",
            "한식>설렁탕",
            300,
            ["설렁탕", "도가니탕"],
            businessHours="매일 06:00 ~ 23:00",
        ),
        record(
            "allday",
            "보승회관",
            "한식>국밥",
            2200,
            ["순대국", "수육국밥"],
            businessHours="매일 00:00 ~ 24:00",
        ),
    ]
    r = ask_over(tmp_path, records, "잠실역 근처 지금 문 연 국밥집", SUNDAY_SMALL_HOURS)
    said = _said(r)
    assert "모든 조건에 맞는 곳이 없어서" not in said
    assert "잠실역 1km 안에는 영업시간(지금 영업 중) 조건에 맞는 곳이 없어서" in said
    # the place open now meets what was asked: it leads the near one closed until 06:00
    assert ids(r) == ["allday", "near"]


def test_one_line_of_the_dish_at_a_place_named_another_kind_is_not_counted(tmp_path: Path) -> None:
    # "선릉역 근처 돈까스": an 오뎅바 whose one curry lists 돈까스 is no 돈까스 place: neither shown nor
    # counted; the 돈까스 house 2.2 km north follows the near one, said as further
    records = [
        record("own", "바삭돈까스", "일식>돈까스,우동", 300, ["등심돈까스", "안심돈까스"], reviewCount=40),
        record(
            "oden",
            "오뎅 n 카레",
            "술집>오뎅바",
            500,
            ["기본 카레", "돈까스 카레", "새우 크림 카레", "모듬오뎅"],
            reviewCount=6,
        ),
        record("far", "먼돈까스", "일식>돈까스,우동", 2200, ["등심돈까스", "치즈돈까스"], reviewCount=30),
    ]
    r = ask_over(tmp_path, records, "잠실역 근처 돈까스", FRIDAY_EVENING)
    assert ids(r) == ["own", "far"]
    assert "1km 안에는 1곳뿐이라" in _said(r)
