"""Issue 24, dialogue classes of helper dlg26 (session s37), each failing on main 5a28826:

- 12 the clock (dialogue_test12 eg053, test13 eh078, test14 ei110, test15 ej062, test16 ek065): a meal on a
  day named ("토요일 점심에 갈 곱창", "내일 점심에") is that day's meal — no opening time nobody said (the
  11:30 slot), that day's hours on the cards, places open at the meal that day first, none ruled out.

The dialogues run the real offline agent over a few hand-written crawl records ingested into a
fresh data directory; expected values are worked out by hand from the records.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from support.records import ingest_records, talk_over
from support.records import near_jamsil as near

SEOUL = ZoneInfo("Asia/Seoul")
WEDNESDAY_MORNING = datetime(2026, 11, 25, 10, 0, tzinfo=SEOUL)
GOPCHANG = "한식>곱창,막창"

# 밤곱창 (most reviewed) opens at 17:00; 평일곱창 is closed at the weekend; 토요곱창 opens at noon daily.
RECORDS = [
    near(
        "night",
        "밤곱창",
        100,
        GOPCHANG,
        {"한우곱창": "20,000원"},
        businessHours="매일 17:00 ~ 02:00",
        reviewCount=300,
    ),
    near(
        "weekday",
        "평일곱창",
        150,
        GOPCHANG,
        {"곱창": "15,000원"},
        businessHours="월~금 11:00 ~ 21:00",
        reviewCount=200,
    ),
    near(
        "sat",
        "토요곱창",
        200,
        GOPCHANG,
        {"곱창": "16,000원"},
        businessHours="매일 12:00 ~ 23:00",
        reviewCount=40,
    ),
]


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ingest_records(tmp_path_factory.mktemp("dlg26"), RECORDS)


# --- class 12: a meal on a day named is that day's meal, not an 11:30 slot -----------------------------


@pytest.mark.parametrize("text", ["잠실역 토요일 점심에 갈 곱창", "토요일 점심에 잠실역 곱창 먹으러 갈건데"])
def test_a_meal_on_a_day_named_is_that_days_meal_not_an_opening_slot(data: Path, text: str) -> None:
    (r,) = talk_over(data, [text], WEDNESDAY_MORNING)
    assert r.frame is not None and r.frame.open_at is None
    wished = r.frame.open_wished
    assert wished is not None and wished.weekday() == 5 and (wished.hour, wished.minute) == (12, 30)
    ids = [c.id for c in r.cards]
    assert ids[0] == "sat" and set(ids) == {"sat", "night", "weekday"}  # open at Saturday lunch first
    assert all(c.hours_asked and c.hours_asked.startswith("토요일") for c in r.cards)
    assert "토요일" in r.answer and "11:30" not in r.answer


def test_tomorrows_lunch_is_tomorrows_meal(data: Path) -> None:
    (r,) = talk_over(data, ["내일 점심에 잠실역 근처 곱창"], WEDNESDAY_MORNING)
    assert r.frame is not None and r.frame.open_at is None
    assert r.frame.open_wished is not None and r.frame.open_wished.weekday() == 3  # Thursday
    assert r.cards and all(c.hours_asked and c.hours_asked.startswith("목요일") for c in r.cards)


def test_a_meal_said_as_hours_on_a_day_stays_a_time(data: Path) -> None:
    (r,) = talk_over(data, ["잠실역 토요일 점심에 여는 곱창"], WEDNESDAY_MORNING)
    assert r.frame is not None and r.frame.open_at is not None and r.frame.open_at.weekday() == 5
    assert "night" not in {c.id for c in r.cards}
