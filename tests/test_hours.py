"""``businessHours`` text to a WeeklySchedule.

The fixture strings are real ones from the demo data (src/matjip/data/kakao_capital.jsonl.gz);
the expected values are worked out by hand from the format description, not copied from the
parser's output.
"""

from __future__ import annotations

import gzip
import json
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matjip.documents import WeeklySchedule
from matjip.ingest.hours import parse_business_hours

DEMO = Path(__file__).resolve().parents[1] / "src" / "matjip" / "data" / "kakao_capital.jsonl.gz"
WEEK = "월화수목금토일"
ALL = WEEK


def hm(text: str) -> int:
    """ "17:30" -> 1050; hours past 24 denote the next day ("26:00" -> 1560)."""
    h, m = text.split(":")
    return int(h) * 60 + int(m)


@dataclass
class Expect:
    hours: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # day letters -> ranges
    closed: str = ""
    closed_note: str | None = None
    note: str | None = None
    parsed: bool = True
    breaks: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    last_order: dict[str, str] = field(default_factory=dict)


def _by_day(spec: dict[str, list[tuple[str, str]]]) -> dict[int, list[tuple[int, int]]]:
    out: dict[int, list[tuple[int, int]]] = {}
    for letters, ranges in spec.items():
        for letter in letters:
            out.setdefault(WEEK.index(letter), []).extend((hm(a), hm(b)) for a, b in ranges)
    return out


def check(schedule: WeeklySchedule | None, raw: str, exp: Expect) -> None:
    assert schedule is not None
    assert schedule.raw == raw
    assert schedule.parsed is exp.parsed
    got_open = {d: [(r.start, r.end) for r in h.open] for d, h in schedule.days.items()}
    assert got_open == _by_day(exp.hours)
    want_breaks = _by_day(exp.breaks)
    for d, h in schedule.days.items():
        assert [(r.start, r.end) for r in h.breaks] == want_breaks.get(d, [])
        want_lo = next((hm(t) for letters, t in exp.last_order.items() if WEEK[d] in letters), None)
        assert h.last_order == want_lo
    assert schedule.closed == sorted(WEEK.index(c) for c in exp.closed)
    assert schedule.closed_note == exp.closed_note
    assert schedule.note == exp.note


REAL: list[tuple[str, Expect]] = [
    ("매일 11:00 ~ 22:00", Expect({ALL: [("11:00", "22:00")]})),
    ("매일 00:00 ~ 24:00", Expect({ALL: [("00:00", "24:00")]})),
    ("매일 12:00 ~ 24:00", Expect({ALL: [("12:00", "24:00")]})),
    ("매일 17:00 ~ 02:00", Expect({ALL: [("17:00", "26:00")]})),
    ("매일 17:00 ~ 05:00", Expect({ALL: [("17:00", "29:00")]})),
    ("매일 11:00 ~ 00:30", Expect({ALL: [("11:00", "24:30")]})),
    ("매일 00:00 ~ 23:59", Expect({ALL: [("00:00", "24:00")]})),
    ("매일 10:00 ~ 09:59", Expect({ALL: [("10:00", "33:59")]})),
    ("매일 10:00 ~ 10:00", Expect({ALL: [("10:00", "34:00")]})),
    ("월~토 11:00 ~ 21:00", Expect({"월화수목금토": [("11:00", "21:00")]})),
    ("월~금 11:00 ~ 22:00", Expect({"월화수목금": [("11:00", "22:00")]})),
    ("화~일 11:00 ~ 21:00", Expect({"화수목금토일": [("11:00", "21:00")]})),
    ("월~목 10:30 ~ 20:00", Expect({"월화수목": [("10:30", "20:00")]})),
    ("수~일 11:30 ~ 21:00", Expect({"수목금토일": [("11:30", "21:00")]})),
    ("화~토 00:00 ~ 24:00", Expect({"화수목금토": [("00:00", "24:00")]})),
    ("월~토 08:00 ~ 00:05", Expect({"월화수목금토": [("08:00", "24:05")]})),
    ("화~목 17:00 ~ 00:00", Expect({"화수목": [("17:00", "24:00")]})),
    ("월~토 15:00 ~ 11:00", Expect({"월화수목금토": [("15:00", "35:00")]})),
    ("월,화,수,목,일 17:00 ~ 02:00", Expect({"월화수목일": [("17:00", "26:00")]})),
    ("월,수,목,금,토,일 11:00 ~ 22:00", Expect({"월수목금토일": [("11:00", "22:00")]})),
    ("월,화,수,목,일 17:00 ~ 13:00", Expect({"월화수목일": [("17:00", "37:00")]})),
    ("월,수,목,금,토,일 22:00 ~ 11:00", Expect({"월수목금토일": [("22:00", "35:00")]})),
    ("토,일 11:30 ~ 22:00", Expect({"토일": [("11:30", "22:00")]})),
    ("화,수 14:00 ~ 18:00", Expect({"화수": [("14:00", "18:00")]})),
    ("수 11:00 ~ 19:30", Expect({"수": [("11:00", "19:30")]})),
    ("목 11:30 ~ 21:00", Expect({"목": [("11:30", "21:00")]})),
    ("일 11:30 ~ 21:00", Expect({"일": [("11:30", "21:00")]})),
    ("09:00 ~ 24:00", Expect({ALL: [("09:00", "24:00")]})),  # no days: every day
    # days off only: parsed, no opening hours
    ("일요일", Expect(closed="일", closed_note="일요일")),
    ("화요일", Expect(closed="화", closed_note="화요일")),
    ("월,화요일", Expect(closed="월화", closed_note="월,화요일")),
    ("토,일요일", Expect(closed="토일", closed_note="토,일요일")),
    ("월,화,수,금,토,일요일", Expect(closed="월화수금토일", closed_note="월,화,수,금,토,일요일")),
    ("첫째,셋째 일요일", Expect(closed_note="첫째,셋째 일요일")),
    ("둘째,넷째 토요일", Expect(closed_note="둘째,넷째 토요일")),
    ("첫째 일요일", Expect(closed_note="첫째 일요일")),
    ("둘째 월요일", Expect(closed_note="둘째 월요일")),
    # remarks
    ("매일 11:00 ~ 21:00 (브레이크타임 없음)", Expect({ALL: [("11:00", "21:00")]}, note="브레이크타임 없음")),
    (
        "월~토 11:30 ~ 22:00 (재료소진시 마감)",
        Expect({"월화수목금토": [("11:30", "22:00")]}, note="재료소진시 마감"),
    ),
    (
        "매일 11:00 ~ 22:30 (홀 주문마감 시간: 20:30)",
        Expect({ALL: [("11:00", "22:30")]}, note="홀 주문마감 시간: 20:30", last_order={ALL: "20:30"}),
    ),
    (
        "월~금 11:30 ~ 21:00 (라스트 오더 : 20:00)",
        Expect(
            {"월화수목금": [("11:30", "21:00")]},
            note="라스트 오더 : 20:00",
            last_order={"월화수목금": "20:00"},
        ),
    ),
    (  # a lunch order deadline is not the last order of the day
        "월~금 11:30 ~ 19:30 ((14:00 점심주문마감))",
        Expect({"월화수목금": [("11:30", "19:30")]}, note="14:00 점심주문마감"),
    ),
    (  # café time is not a break
        "화~일 10:30 ~ 21:00 (15:00 ~ 17:00 카페타임)",
        Expect({"화수목금토일": [("10:30", "21:00")]}, note="15:00 ~ 17:00 카페타임"),
    ),
    (
        "매일 16:00 ~ 04:00 (매장별 상황 다를 수 있음)",
        Expect({ALL: [("16:00", "28:00")]}, note="매장별 상황 다를 수 있음"),
    ),
    (
        "월~금 11:00 ~ 20:40 (심야술집 20:30~04:00)",
        Expect({"월화수목금": [("11:00", "20:40")]}, note="심야술집 20:30~04:00"),
    ),
    (
        "매일 00:00 ~ 24:00 (Cleaning Day 매월 셋째주 월요일 02:00~08:00)",
        Expect({ALL: [("00:00", "24:00")]}, note="Cleaning Day 매월 셋째주 월요일 02:00~08:00"),
    ),
    (
        "일요일 (단, 비오는 일요일 정상영업)",
        Expect(closed="일", closed_note="일요일", note="단, 비오는 일요일 정상영업"),
    ),
    ("화,수요일 (케이크픽업 가능)", Expect(closed="화수", closed_note="화,수요일", note="케이크픽업 가능")),
    # free text: not parsed, raw kept
    ("기타  (11:30~재료소진시까지)", Expect(parsed=False, note="11:30~재료소진시까지")),
    ("기타  (휴식시간 16:00~17:00)", Expect(parsed=False, note="휴식시간 16:00~17:00")),
    ("2023년 12월 16일 ~ 2024년 4월 30일 휴무", Expect(parsed=False)),
    ("2023년 2월 13일 ~ 2023년 2월 28일", Expect(parsed=False)),
    ("설당일", Expect(parsed=False)),
    ("설전날", Expect(parsed=False)),
    ("매일 10:00 ~ (빵 소진 시 마감)", Expect(parsed=False, note="빵 소진 시 마감")),
    ("매일 휴게시간 15:00 ~ 17:00", Expect(parsed=False)),  # a break but no opening hours
]

SYNTHETIC: list[tuple[str, Expect]] = [
    (
        "월~금 11:00 ~ 22:00 / 토,일 12:00 ~ 21:00",
        Expect({"월화수목금": [("11:00", "22:00")], "토일": [("12:00", "21:00")]}),
    ),
    (
        "평일 11:00 ~ 22:00\n주말 12:00 ~ 21:00",
        Expect({"월화수목금": [("11:00", "22:00")], "토일": [("12:00", "21:00")]}),
    ),
    (  # the narrower day set wins where ranges overlap
        "매일 11:00 ~ 22:00 / 토,일 12:00 ~ 21:00",
        Expect({"월화수목금": [("11:00", "22:00")], "토일": [("12:00", "21:00")]}),
    ),
    (  # lunch and dinner add up
        "월~금 11:30 ~ 14:00 / 월~토 17:00 ~ 22:00",
        Expect({"월화수목금": [("11:30", "14:00"), ("17:00", "22:00")], "토": [("17:00", "22:00")]}),
    ),
    (
        "매일 11:00 ~ 22:00; 월요일 휴무",
        Expect({"화수목금토일": [("11:00", "22:00")]}, closed="월", closed_note="월요일 휴무"),
    ),
    (
        "화~일 11:00-21:00, 월 휴무",
        Expect({"화수목금토일": [("11:00", "21:00")]}, closed="월", closed_note="월 휴무"),
    ),
    ("매주 일요일 휴무", Expect(closed="일", closed_note="매주 일요일 휴무")),
    ("금~월 18:00 ~ 02:00", Expect({"금토일월": [("18:00", "26:00")]})),
    ("매일 24시간 영업", Expect({ALL: [("00:00", "24:00")]})),
    ("매일 11시~22시", Expect({ALL: [("11:00", "22:00")]})),
    (
        "매일 11:00 ~ 22:00\n휴게시간 15:00 ~ 17:00\n라스트오더 21:00",
        Expect({ALL: [("11:00", "22:00")]}, breaks={ALL: [("15:00", "17:00")]}, last_order={ALL: "21:00"}),
    ),
    (
        "매일 11:00 ~ 22:00\n15:00 ~ 17:00 브레이크타임\n21:00 라스트오더",
        Expect({ALL: [("11:00", "22:00")]}, breaks={ALL: [("15:00", "17:00")]}, last_order={ALL: "21:00"}),
    ),
    (
        "매일 11:00 ~ 22:00 브레이크타임 15:00~17:00 라스트오더 21:00",
        Expect({ALL: [("11:00", "22:00")]}, breaks={ALL: [("15:00", "17:00")]}, last_order={ALL: "21:00"}),
    ),
    (
        "월~금 11:00 ~ 22:00 / 월~금 브레이크타임 15:00 ~ 17:00 / 토,일 11:00 ~ 20:00",
        Expect(
            {"월화수목금": [("11:00", "22:00")], "토일": [("11:00", "20:00")]},
            breaks={"월화수목금": [("15:00", "17:00")]},
        ),
    ),
    (
        "매일 11:30 ~ 21:00 (휴식시간 15:00~16:30)",
        Expect({ALL: [("11:30", "21:00")]}, breaks={ALL: [("15:00", "16:30")]}, note="휴식시간 15:00~16:30"),
    ),
    ("매일 11:00 ~ 22:00 / 공휴일 휴무", Expect({ALL: [("11:00", "22:00")]}, closed_note="공휴일 휴무")),
    ("연중무휴 / 매일 10:00 ~ 20:00", Expect({ALL: [("10:00", "20:00")]})),
    ("월요일~금요일 09:00 ~ 18:00", Expect({"월화수목금": [("09:00", "18:00")]})),
    ("매일 25:00 ~ 26:00", Expect(parsed=False)),
    ("매일 11:00 ~ 22:00 / 모르는 말", Expect(parsed=False)),
]


def test_fixture_has_enough_real_strings() -> None:
    assert len({raw for raw, _ in REAL}) >= 40


@pytest.mark.parametrize(("raw", "exp"), REAL + SYNTHETIC, ids=[r for r, _ in REAL + SYNTHETIC])
def test_fixture(raw: str, exp: Expect) -> None:
    check(parse_business_hours(raw), raw, exp)


@pytest.mark.parametrize("raw", [None, "", "   ", "\n"])
def test_missing(raw: str | None) -> None:
    assert parse_business_hours(raw) is None


MON = datetime(2024, 6, 3)  # a Monday


def at(weekday: int, clock: str) -> datetime:
    return MON + timedelta(days=weekday, minutes=hm(clock))


def test_is_open_overnight_and_breaks() -> None:
    s = parse_business_hours("월~토 17:00 ~ 02:00")
    assert s is not None
    assert s.is_open(at(0, "18:00")) is True
    assert s.is_open(at(1, "01:30")) is True  # Monday night, after midnight
    assert s.is_open(at(1, "02:00")) is False
    assert s.is_open(at(0, "01:00")) is False  # Sunday night: not listed
    assert s.is_open(at(6, "01:00")) is True  # Saturday night spills into Sunday
    assert s.is_open(at(6, "18:00")) is False

    b = parse_business_hours("매일 11:00 ~ 22:00 / 휴게시간 15:00 ~ 17:00")
    assert b is not None
    assert b.is_open(at(2, "14:59")) is True
    assert b.is_open(at(2, "15:30")) is False
    assert b.is_open(at(2, "17:00")) is True


@pytest.mark.parametrize("raw", ["일요일", "첫째,셋째 일요일", "월,화요일"])
def test_days_off_only_is_open_unknown(raw: str) -> None:
    s = parse_business_hours(raw)
    assert s is not None and s.parsed
    assert s.is_open(at(6, "12:00")) is None
    assert s.is_open(at(3, "12:00")) is None


def test_days_off_labels() -> None:
    s = parse_business_hours("월~토 11:00 ~ 21:00 / 일요일 휴무")
    assert s is not None
    assert s.label_for(6) == "휴무"
    assert s.label_for(0) == "11:00~21:00"
    assert s.is_open(at(6, "12:00")) is False


# ---- demo data -------------------------------------------------------------------------------

_TIME_RANGE = re.compile(r"\d{1,2}:\d{2}\s*~\s*\d{1,2}:\d{2}")
_PAREN = re.compile(r"\((?:[^()]|\([^()]*\))*\)")


def _demo_hours() -> list[str]:
    out: list[str] = []
    with gzip.open(DEMO, "rt", encoding="utf-8") as fh:
        for line in fh:
            text = json.loads(line).get("businessHours")
            if text and text.strip():
                out.append(text)
    return out


def test_demo_parse_rate() -> None:
    texts = _demo_hours()
    assert len(texts) > 7000
    schedules = {t: parse_business_hours(t) for t in set(texts)}
    for t, s in schedules.items():  # nothing crashes, raw is verbatim
        assert s is not None and s.raw == t

    def ok(t: str) -> bool:
        s = schedules[t]
        return s is not None and s.parsed

    with_times = [t for t in texts if _TIME_RANGE.search(_PAREN.sub("", t))]
    assert sum(map(ok, with_times)) / len(with_times) > 0.99  # measured: 7624 / 7625
    assert sum(map(ok, texts)) / len(texts) > 0.99  # measured: 7958 / 7972


# ---- properties ------------------------------------------------------------------------------


@st.composite
def day_specs(draw: st.DrawFn) -> tuple[str, frozenset[int]]:
    kind = draw(st.sampled_from(["매일", "평일", "주말", "single", "range", "list"]))
    if kind == "매일":
        return "매일", frozenset(range(7))
    if kind == "평일":
        return "평일", frozenset(range(5))
    if kind == "주말":
        return "주말", frozenset({5, 6})
    suffix = draw(st.sampled_from(["", "요일"]))
    if kind == "single":
        d = draw(st.integers(0, 6))
        return WEEK[d] + suffix, frozenset({d})
    if kind == "range":
        a, b = draw(st.integers(0, 6)), draw(st.integers(0, 6))
        if a == b:
            return WEEK[a], frozenset({a})
        n = (b - a) % 7 + 1
        return f"{WEEK[a]}~{WEEK[b]}", frozenset((a + i) % 7 for i in range(n))
    days = sorted(draw(st.sets(st.integers(0, 6), min_size=2, max_size=6)))
    return ",".join(WEEK[d] for d in days) + suffix, frozenset(days)


_CLOCK_START = st.tuples(st.integers(0, 23), st.integers(0, 59))
_CLOCK_END = st.tuples(st.integers(0, 24), st.integers(0, 59)).map(lambda t: (24, 0) if t[0] == 24 else t)


def _reference_open(days: frozenset[int], start: int, end: int, when: datetime) -> bool:
    """Open iff the minute of the week falls in [day*1440 + start, day*1440 + end) for a day."""
    if end == 1439:
        end = 1440
    if end <= start:
        end += 1440
    t = when.weekday() * 1440 + when.hour * 60 + when.minute
    return any((t - (d * 1440 + start)) % (7 * 1440) < end - start for d in days)


_WHEN = st.datetimes(min_value=datetime(2024, 1, 1), max_value=datetime(2024, 12, 31))


@settings(max_examples=200, deadline=None)
@given(day_specs(), _CLOCK_START, _CLOCK_END, st.lists(_WHEN, min_size=1, max_size=8))
def test_generated_hours_parse_and_agree_with_reference(
    spec: tuple[str, frozenset[int]], start: tuple[int, int], end: tuple[int, int], whens: list[datetime]
) -> None:
    text, days = spec
    raw = f"{text} {start[0]:02d}:{start[1]:02d} ~ {end[0]:02d}:{end[1]:02d}"
    s = parse_business_hours(raw)
    a, b = start[0] * 60 + start[1], end[0] * 60 + end[1]
    span = b - a if b > a else b + 1440 - a
    if (
        0 < b < a and 21 * 60 < span < 1440 - 5
    ):  # issue 12 (an end at 00:00 is midnight, not overnight): an implausible day is unknown, not 23 hours open
        assert s is not None and not s.parsed and s.implausible and not s.days, raw
        assert all(s.is_open(when) is None for when in whens)
        return
    assert s is not None and s.parsed, raw
    assert set(s.days) == set(days)
    for when in whens:
        assert s.is_open(when) is _reference_open(days, a, b, when), (raw, when)


@settings(max_examples=100, deadline=None)
@given(
    st.sets(st.integers(0, 6), min_size=2, max_size=7),
    _CLOCK_START,
    _CLOCK_START,
    st.lists(_WHEN, max_size=8),
)
def test_two_segments_with_disjoint_days(
    days: set[int], first: tuple[int, int], second: tuple[int, int], whens: list[datetime]
) -> None:
    ordered = sorted(days)
    cut = len(ordered) // 2
    one, two = frozenset(ordered[:cut]), frozenset(ordered[cut:])
    a1, a2 = first[0] * 60 + first[1], second[0] * 60 + second[1]
    e1, e2 = min(a1 + 120, 1440), min(a2 + 180, 1440)

    def clock(m: int) -> str:
        return f"{m // 60:02d}:{m % 60:02d}"

    raw = (
        f"{','.join(WEEK[d] for d in sorted(one))} {clock(a1)} ~ {clock(e1)} / "
        f"{','.join(WEEK[d] for d in sorted(two))} {clock(a2)} ~ {clock(e2)}"
    )
    s = parse_business_hours(raw)
    assert s is not None and s.parsed, raw
    for when in whens:
        want = _reference_open(one, a1, e1, when) or _reference_open(two, a2, e2, when)
        assert s.is_open(when) is want, (raw, when)


@settings(max_examples=100, deadline=None)
@given(st.sets(st.integers(0, 6), min_size=1, max_size=6))
def test_generated_days_off(days: set[int]) -> None:
    raw = ",".join(WEEK[d] for d in sorted(days)) + "요일"
    s = parse_business_hours(raw)
    assert s is not None and s.parsed
    assert s.closed == sorted(days)
    assert s.days == {}
    assert s.is_open(datetime(2024, 6, 3, 12, 0)) is None


_HOURS_ALPHABET = st.sampled_from(
    list("월화수목금토일매평주말요휴무첫째셋 0123456789:~-,/()\n;시분라스트오더브레이크타임기")
)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60) | st.text(alphabet=_HOURS_ALPHABET, max_size=60))
def test_arbitrary_text_never_raises(text: str) -> None:
    s = parse_business_hours(text)
    if s is None:
        assert not text.strip()
        return
    assert s.raw == text
    assert set(s.days) <= set(range(7))
    assert set(s.closed) <= set(range(7))
    if not s.parsed:
        assert s.days == {} and s.is_open(datetime(2024, 6, 3, 12, 0)) is None
    for h in s.days.values():
        for r in h.open:
            assert 0 <= r.start < 1440 and r.start < r.end <= r.start + 1440


@pytest.mark.parametrize(
    ("raw", "kind"),
    [
        ("17:00에 영업 시작", "status"),
        ("영업 전", "status"),
        ("영업 중 22:00에 영업 종료", "status"),
        ("2024년 1월 1일 휴무", "note"),
        ("매일 11:00 ~ 22:00", "timetable"),
    ],
)
def test_crawled_hours_are_classified(raw: str, kind: str) -> None:
    """Issue 12: a live status or a dated note is never stored as a timetable."""
    s = parse_business_hours(raw)
    assert s is not None and s.kind == kind
    assert s.parsed is (kind == "timetable")
    assert s.is_open(datetime(2024, 5, 1, 18, 0)) is (None if kind != "timetable" else True)


def test_implausible_schedule_is_unknown() -> None:
    """Issue 12: "매일 11:30 - 11:00" is not a 23.5-hour day; it never passes an open-at filter."""
    s = parse_business_hours("매일 11:30 - 11:00")
    assert s is not None and s.implausible and not s.parsed and not s.days
    assert s.is_open(datetime(2024, 5, 1, 3, 0)) is None
    plausible = parse_business_hours("월~토 15:00 ~ 11:00")
    assert plausible is not None and plausible.parsed and not plausible.implausible
