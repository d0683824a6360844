"""A course "저녁 먹고 2차 갈 술집까지": the plan's kind 술집 names the bar stops' role, so the meal stop
looks for any meal place (not for a 술집 while excluding 술집, which found nothing and then said the
meal was dropped for want of an open place: a false statement of the issue-24 audit, r4 Q8)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from support.records import ask_over, north_of_jamsil

SATURDAY = datetime(2026, 11, 28, 15, 0, tzinfo=ZoneInfo("Asia/Seoul"))
DAILY = {"businessHours": "매일 11:00 ~ 24:00"}


def test_meal_stop_of_a_dinner_then_bar_course_is_filled(tmp_path: Path) -> None:
    records = [
        north_of_jamsil("m1", "잠실한상", "음식점>한식>백반,가정식", 100, ["제육볶음", "된장찌개"], **DAILY),
        north_of_jamsil("b1", "잠실호프", "음식점>술집>호프,요리주점", 250, ["생맥주", "치킨"], **DAILY),
        north_of_jamsil("b2", "잠실이자카야", "음식점>술집>일본식주점", 400, ["사케", "꼬치"], **DAILY),
        north_of_jamsil("b3", "잠실와인", "음식점>술집>와인바", 550, ["하우스와인", "치즈"], **DAILY),
    ]
    result = ask_over(tmp_path, records, "잠실역에서 저녁 먹고 걸어서 2차 갈 술집까지 코스로 짜줘", SATURDAY)
    stops = {c.trip_role: c.id for c in result.cards if c.stop is not None}
    assert stops.get("식사") == "m1"
    assert "자리는 그 시간에 영업 중인 곳을 근처에서 찾지 못해" not in result.answer
