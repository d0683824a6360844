"""Issue 24, classes 3, 4, 6, 10, 12 and 16 as policies (session of 2026-11-28, fifth): the clock
said when it moves a pick; another day's hours on the cards; described dishes by their ingredients;
near kinds kept apart; tastes ruling out their dishes.

Word-level tests read the message only; the card tests ingest a few hand-written crawl records (the raw
crawl's shape) into a fresh data directory and ask one question, with the expected cards worked out by
hand from the records.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from matjip.nlu.kinds import detect_kinds
from support.chat import SEOUL
from support.records import ask_over
from support.records import card_ids as ids
from support.records import north_of_jamsil as record

SATURDAY_NIGHT = datetime(2026, 11, 28, 21, 35, tzinfo=SEOUL)  # night: "곧 마감" is closing by 22:35


# --- class 12: the clock moves a pick only when it says so ---------------------------------------------


def test_a_place_closing_within_the_hour_goes_after_open_ones_and_the_answer_says_so(tmp_path: Path) -> None:
    # 21:35, no time asked: 대왕 (200 reviews) closes at 22:00 (25 minutes left) — the open 장독대 (40
    # reviews, to 24:00) and 의정부 (12 reviews, 24 h) come first; 대왕 is named as put after them
    records = [
        record(
            "big",
            "대왕부대찌개",
            "한식>찌개,전골",
            100,
            ["부대찌개"],
            reviewCount=200,
            businessHours="매일 10:00 ~ 22:00",
        ),
        record(
            "mid",
            "장독대부대찌개",
            "한식>찌개,전골",
            300,
            ["부대찌개"],
            reviewCount=40,
            businessHours="매일 10:00 ~ 24:00",
        ),
        record(
            "low",
            "의정부부대찌개",
            "한식>찌개,전골",
            400,
            ["부대찌개"],
            reviewCount=12,
            businessHours="매일 00:00 ~ 24:00",
        ),
    ]
    r = ask_over(tmp_path, records, "잠실역 부대찌개 맛있는 데", SATURDAY_NIGHT)
    assert ids(r)[:2] == ["mid", "low"]
    first = r.answer.split("**1.")[0]
    assert "대왕부대찌개(곧 마감 · 22:00)" in first and "뒤로 미뤘어요" in first


def test_a_day_asked_late_at_night_shows_that_days_hours(tmp_path: Path) -> None:
    # Saturday 21:35, "일요일에 여는": Sunday is two and a half hours away, yet a whole day, not
    # tonight's small hours — the card shows Sunday's hours (일 10:00~20:00), not today's
    records = [
        record(
            "kal",
            "방이칼국수",
            "한식>국수>칼국수",
            100,
            ["칼국수"],
            reviewCount=30,
            businessHours="월~토 11:00 ~ 21:00, 일 10:00 ~ 20:00",
        ),
    ]
    r = ask_over(tmp_path, records, "잠실역 일요일에 여는 칼국수", SATURDAY_NIGHT)
    assert ids(r) == ["kal"]
    assert "일요일 영업: 10:00~20:00" in r.answer


# --- class 3: dishes described by what goes in them, and 부침개 by its everyday name ---------------------


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("비도 오고 부침개 생각나네 문정", "전·막걸리"),
        ("밀가루 반죽 얇게 펴서 부친 거", "전·막걸리"),
        ("녹두 갈아서 부친 거 파는 데", "전·막걸리"),
        ("생선 넣고 맵게 끓인 탕", "해물탕·매운탕"),
        ("우럭 넣고 얼큰하게 끓인 거 천호", "해물탕·매운탕"),
        ("선지 넣은 국 잘하는 데", "해장국"),
        ("황태 국 먹고 싶다", "해장국"),
        ("소고기 갈비 넣고 맑게 끓인 탕", "갈비탕"),
        ("곱창 넣고 끓인 국밥", "국밥·순대국"),
    ],
)
def test_a_dish_described_by_what_goes_in_it_is_its_kind(text: str, kind: str) -> None:
    assert detect_kinds(text).kinds == [kind]


def test_a_grilled_description_is_not_the_soup() -> None:
    # "곱창 철판에 볶은 거" stays 곱창 (the soup entry is for a broth), and 돼지 등뼈 stays 감자탕
    assert detect_kinds("소곱창 철판에 볶은 거").kinds == ["곱창·막창"]
    assert detect_kinds("돼지 등뼈 넣고 얼큰하게 끓인 탕").kinds == ["감자탕"]
