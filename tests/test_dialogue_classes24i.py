"""Issue 24, dialogue classes of the sixth session (helper dlg24i), each failing on main 51d884b:

- 12 (wording): a timetable that lists a run of weekdays ("월~토 …") shown on a day outside it says that
  day is no working day ("오늘(일)은 영업일이 아니에요"), never "영업시간은 적혀 있지 않아요" nor "정보
  없음"; at night the card flags it like a place closed now; the clock line is short and claims nothing
  about the places ahead.

Every dialogue runs the real offline agent over hand-written crawl records in a fresh data directory;
expected values are worked out by hand from the records.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from support.records import ingest_records, talk_over
from support.records import near_jamsil as near

SEOUL = ZoneInfo("Asia/Seoul")
SUNDAY_NOON = datetime(2026, 11, 29, 12, 0, tzinfo=SEOUL)
SUNDAY_SMALL_HOURS = datetime(2026, 11, 29, 1, 5, tzinfo=SEOUL)  # Saturday's 24:00 closing is past
MONDAY_NOON = datetime(2026, 11, 30, 12, 0, tzinfo=SEOUL)

RECORDS = [
    near(
        "g1",
        "평일국밥",
        120,
        "한식>국밥",
        {"순대국밥": "10,000원"},
        businessHours="월~토 10:00 ~ 24:00",
        reviewCount=90,
    ),
    near(
        "g2",
        "주말국밥",
        170,
        "한식>국밥",
        {"순대국밥": "10,000원"},
        businessHours="화~일 10:00 ~ 21:00",
        reviewCount=80,
    ),
]


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ingest_records(tmp_path_factory.mktemp("dlg24i"), RECORDS)


def _card_block(answer: str, title: str) -> str:
    """The answer's lines of the card titled ``title`` (up to the next card)."""
    start = answer.index(title)
    rest = answer[start:]
    nxt = rest.find("**", len(title) + 4)
    return rest if nxt < 0 else rest[:nxt]


@pytest.mark.parametrize(
    ("now", "title", "line"),
    [
        (SUNDAY_NOON, "평일국밥", "- 오늘(일)은 영업일이 아니에요 (적힌 영업시간: 월~토 10:00 ~ 24:00)"),
        (MONDAY_NOON, "주말국밥", "- 오늘(월)은 영업일이 아니에요 (적힌 영업시간: 화~일 10:00 ~ 21:00)"),
    ],
)
def test_a_day_outside_the_timetables_days_reads_as_no_working_day(
    data: Path, now: datetime, title: str, line: str
) -> None:
    (r,) = talk_over(data, ["잠실역 국밥"], now)
    block = _card_block(r.answer, title)
    assert line in block, block
    assert "적혀 있지 않아요" not in r.answer and "영업시간 정보 없음" not in r.answer
    card = next(c for c in r.cards if c.name == title)
    assert card.open_status is not None and card.open_status.label.startswith("오늘 영업일 아님")


def test_at_night_a_day_outside_the_timetable_is_flagged_like_a_closed_place(data: Path) -> None:
    (r,) = talk_over(data, ["잠실역 국밥"], SUNDAY_SMALL_HOURS)
    block = _card_block(r.answer, "평일국밥")
    assert "- 지금: 오늘 영업일 아님 (월~토 영업)" in block, block
