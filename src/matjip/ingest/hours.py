"""``businessHours`` text to a :class:`~matjip.documents.WeeklySchedule`.

Kakao/Naver write opening hours as one or more segments (separated by new lines, ``/``, ``;``
or ``|``), each a day set and a time range::

    매일 11:00 ~ 22:00              월~토 11:00 ~ 21:00          월,화,수,목,일 11:30 ~ 23:00
    평일 11:00 ~ 22:00 / 주말 12:00 ~ 21:00                        09:00 ~ 24:00 (no days: every day)

Day sets: ``매일`` / ``연중무휴`` (every day), ``평일`` (Mon–Fri), ``주말`` (Sat–Sun), single days
(``수``, ``수요일``), ranges (``화~일``, wrapping ``금~월``) and comma lists of those.

Times are minutes from midnight. ``24:00`` is 1440; an end at or before the start runs past
midnight (``17:00 ~ 02:00`` ends at 26*60); an end equal to the start means 24 hours; an end of
``23:59`` is taken as midnight. When two segments give overlapping ranges for the same day, the
one naming fewer days wins (``매일 11:00 ~ 22:00 / 토,일 12:00 ~ 21:00``); ranges that do not
overlap add up (lunch and dinner).

Other segments:

* break: ``휴게시간 15:00 ~ 17:00``, ``브레이크타임 15:00~17:00``, ``15:00 ~ 17:00 브레이크타임``;
* last order: ``라스트오더 21:00``, ``주문마감 20:30``, ``21:00 라스트오더`` (clock minutes);
* days off: a day list alone with ``요일`` (``일요일``, ``월,화요일``) or with ``휴무``/``정기휴무``
  (``매주 일요일 휴무``, ``휴무: 월``). Weekly days off go to ``closed``; every days-off text is
  kept in ``closed_note``. Monthly ones (``첫째,셋째 일요일``, ``격주 토요일``) and holiday ones
  (``공휴일 휴무``) go to ``closed_note`` only, because the weekday is not closed every week.

Parenthesised remarks are removed before parsing and kept verbatim in ``note``
(``"(재료소진시 마감)"`` -> ``"재료소진시 마감"``). A remark that clearly states a break
(``휴게시간``/``휴식시간``/``브레이크타임`` with a range) or a last order (``라스트오더``,
``주문마감`` with a time) also sets it; ``"카페타임"`` and the like are not breaks.

Each string is classified (``kind``): a *timetable* (day sets and ranges), a live *status* of the
crawl moment (``"17:00에 영업 시작"``, ``"영업 전"``, ``"영업 중 22:00에 영업 종료"``) or a *note*
(a dated closure, free text). Only a timetable becomes ``days``; a timetable whose overnight range
runs more than 21 hours without being a whole day (``"매일 11:30 - 11:00"``, a 23.5-hour day; an end
within 5 minutes of 24 hours, ``"10:00 ~ 09:59"``, is a whole day) is *implausible*:
``parsed`` is false, ``implausible`` true and no days are kept, so it never passes an open-at filter.

``parsed`` is true only when every segment was understood and gave opening hours or days off.
A days-off-only text is parsed but has no ``days``, so ``is_open`` stays ``None``. Free text
(``"기타  (11:30~재료소진시까지)"``, ``"2023년 12월 16일 ~ 2024년 4월 30일 휴무"``, ``"설당일"``)
gives ``parsed=False`` with the raw text kept and no days.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Final

from matjip.documents import WEEKDAYS, DayHours, TimeRange, WeeklySchedule
from matjip.words import word_map

ALL_DAYS: Final[frozenset[int]] = frozenset(range(7))
_WEEKDAY_SETS: Final[dict[str, frozenset[int]]] = {
    word: frozenset(WEEKDAYS.index(day) for day in days)
    for word, days in word_map("business_hours", "day_sets").items()
}

_D = r"[월화수목금토일](?:요일)?"
_ITEM = rf"(?:매일|연중무휴|평일|주말|공휴일|{_D}(?:\s*[~\-]\s*{_D})?)(?![가-힣])"
_DAYS_RE: Final = re.compile(rf"{_ITEM}(?:\s*[,·、]\s*{_ITEM})*")
_ORD_WORD = r"(?:(?:첫|둘|셋|넷|다섯)째|마지막|[1-5](?:\s*,\s*[1-5])*\s*번?째)(?:\s*주)?"
_ORDINALS_RE: Final = re.compile(rf"(?:매월|매달)?\s*(?:격주|{_ORD_WORD}(?:\s*[,·]\s*{_ORD_WORD})*)\s*")
_EVERY_WEEK_RE: Final = re.compile(r"매주\s*")
_CLOSED_PREFIX_RE: Final = re.compile(r"(?:정기\s*)?(?:휴무일?|휴일|휴점|쉬는\s*날)\s*[:]?\s*")
_CLOSED_WORD_RE: Final = re.compile(r"(?:정기\s*)?(?:휴무|휴일|휴점|휴무일|쉼|쉽니다|정기휴무)")
_NOTHING_RE: Final = re.compile(r"(?:연중\s*)?무휴")

_TIME = r"(?:(\d{1,2})\s*:\s*(\d{2})|(\d{1,2})\s*시(?:\s*(\d{1,2})\s*분)?)"
_DASH = r"\s*[~\-–—〜]\s*"
_RANGE = rf"{_TIME}{_DASH}{_TIME}"
_OPEN_RE: Final = re.compile(rf"{_RANGE}(?:\s*영업)?")
_ALL_DAY_RE: Final = re.compile(r"24\s*시간(?:\s*영업)?")
_BREAK_KW = r"(?:브레이크\s*타임|break\s*time|휴게\s*시간|휴식\s*시간|쉬는\s*시간)"
_LO_KW = r"(?:(?:홀\s*)?(?:라스트\s*오더|(?<![A-Za-z])L\s*\.?\s*O\b\.?|주문\s*마감)(?:\s*시간)?)"
# keyword-first forms are tried first: in "11:00 ~ 22:00 라스트오더 21:00" the time after the
# keyword is the last order, not the "22:00" before it
_BREAK_PATTERNS: Final = (
    re.compile(rf"{_BREAK_KW}\s*:?\s*{_RANGE}", re.IGNORECASE),
    re.compile(rf"{_RANGE}\s*{_BREAK_KW}", re.IGNORECASE),
)
_LO_PATTERNS: Final = (
    re.compile(rf"(?<![가-힣]){_LO_KW}\s*:?\s*{_TIME}(?:\s*까지)?", re.IGNORECASE),
    re.compile(rf"{_TIME}\s*(?:라스트\s*오더|주문\s*마감)", re.IGNORECASE),
)
_SEGMENT_SEP: Final = re.compile(r"\s*(?:[\n\r/;|]|(?<=\d)\s*,(?=\s*[^\d\s]))\s*")
_SPACE_RE: Final = re.compile(r"\s+")
_LIST_SEP: Final = re.compile(r"\s*[,·、]\s*")
_DAY_DASH: Final = re.compile(r"\s*[~\-]\s*")


@dataclass
class _Open:
    days: frozenset[int]
    ranges: list[tuple[int, int]]


@dataclass
class _Extra:  # a break or a last order; days None = every open day
    days: frozenset[int] | None
    breaks: list[tuple[int, int]] = field(default_factory=list)
    last_order: int | None = None


@dataclass
class _Closed:
    days: frozenset[int]  # weekly days off (empty for monthly or holiday ones)
    note: str


@dataclass
class _Nothing:  # understood, changes no weekday: "연중무휴", holiday hours (kept as a note)
    note: str | None = None


_Segment = _Open | _Extra | _Closed | _Nothing


def _minutes(groups: tuple[str | None, ...]) -> int | None:
    """Minutes from midnight of one ``_TIME`` match (4 groups), 0..1440, or None."""
    h1, m1, h2, m2 = groups
    hour = int(h1 if h1 is not None else h2 or 0)
    minute = int(m1 if m1 is not None else m2 or 0)
    if minute > 59 or hour > 24 or (hour == 24 and minute > 0):
        return None
    return hour * 60 + minute


def _range(groups: tuple[str | None, ...], *, is_open: bool) -> tuple[int, int] | None:
    start, end = _minutes(groups[:4]), _minutes(groups[4:8])
    if start is None or end is None or start >= 1440:
        return None
    if is_open and end == 1439:
        end = 1440  # "23:59" means until midnight
    if end <= start:
        end += 1440  # past midnight; equal means 24 hours
    return start, end


def _day_set(spec: str) -> frozenset[int]:
    days: set[int] = set()
    for item in _LIST_SEP.split(spec.strip()):
        item = item.replace("요일", "")
        if item in _WEEKDAY_SETS:
            days |= _WEEKDAY_SETS[item]
        elif "~" in item or "-" in item:
            a, b = (WEEKDAYS.index(x) for x in _DAY_DASH.split(item.strip()))
            days |= {(a + i) % 7 for i in range((b - a) % 7 + 1)}
        else:
            days.add(WEEKDAYS.index(item))
    return frozenset(days)


def _find(patterns: tuple[re.Pattern[str], ...], text: str) -> re.Match[str] | None:
    for pattern in patterns:
        if m := pattern.search(text):
            return m
    return None


def _parse_segment(seg: str) -> list[_Segment] | None:
    """What one segment says, or None when it is not understood."""
    s = seg.strip()
    if _NOTHING_RE.fullmatch(s):
        return [_Nothing()]
    closed = False
    if m := _CLOSED_PREFIX_RE.match(s):
        closed, s = True, s[m.end() :]
    every_week = bool(m := _EVERY_WEEK_RE.match(s))
    if m:
        s = s[m.end() :]
    ordinal = None
    if (m := _ORDINALS_RE.match(s)) and m.group().strip():
        ordinal, s = m.group().strip(), s[m.end() :]
    spec = ""
    if m := _DAYS_RE.match(s):
        spec, s = m.group(), s[m.end() :]
    rest = s.strip(" :")
    if _CLOSED_WORD_RE.fullmatch(rest):
        closed, rest = True, ""

    if not rest:
        if spec and (closed or ordinal or every_week or spec.endswith("요일")):
            days = _day_set(spec)
            weekly = not ordinal and bool(days)
            return [_Closed(days if weekly else frozenset(), _SPACE_RE.sub(" ", seg.strip()))]
        return None
    if closed or ordinal:
        return None

    days_or_none = _day_set(spec) if spec else None
    extras: list[_Segment] = []
    # breaks and last orders, alone or inside an opening-hours segment
    while m := _find(_BREAK_PATTERNS, rest):
        if (r := _range(m.groups(), is_open=False)) is None:
            return None
        extras.append(_Extra(days_or_none, breaks=[r]))
        rest = rest[: m.start()] + " " + rest[m.end() :]
    while m := _find(_LO_PATTERNS, rest):
        if (minute := _minutes(m.groups())) is None:
            return None
        extras.append(_Extra(days_or_none, last_order=minute % 1440))
        rest = rest[: m.start()] + " " + rest[m.end() :]
    rest = rest.strip(" ,·:")
    if not rest:
        return extras

    opening: tuple[int, int] | None = None
    if m := _OPEN_RE.fullmatch(rest):
        opening = _range(m.groups(), is_open=True)
    elif _ALL_DAY_RE.fullmatch(rest):
        opening = (0, 1440)
    if opening is None:
        return None
    if days_or_none == frozenset():  # holidays only: no weekday changes, kept as a note
        return [_Nothing(_SPACE_RE.sub(" ", seg.strip()))]
    return [_Open(days_or_none or ALL_DAYS, [opening]), *extras]


def _remark_extras(remark: str) -> list[_Extra]:
    """A break or a last order a remark states clearly; applies to every open day."""
    extras: list[_Extra] = []
    if (m := _find(_BREAK_PATTERNS, remark)) and (r := _range(m.groups(), is_open=False)):
        extras.append(_Extra(None, breaks=[r]))
    if (m := _find(_LO_PATTERNS, remark)) and (minute := _minutes(m.groups())) is not None:
        extras.append(_Extra(None, last_order=minute % 1440))
    return extras


def _split_remarks(text: str) -> tuple[str, list[str]]:
    """Remove parenthesised remarks (nested ones included); return the body and the remarks."""
    body: list[str] = []
    remarks: list[str] = []
    depth = 0
    current: list[str] = []
    for ch in text:
        if ch == "(":
            if depth > 0:
                current.append(ch)
            depth += 1
        elif ch == ")" and depth > 0:
            depth -= 1
            if depth == 0:
                remarks.append("".join(current))
                current = []
                body.append(" ")
            else:
                current.append(ch)
        elif ch == ")":
            body.append(" ")  # a stray closing parenthesis
        elif depth > 0:
            current.append(ch)
        else:
            body.append(ch)
    if current:
        remarks.append("".join(current))  # unclosed: the rest is a remark
    cleaned = []
    for remark in remarks:
        r = remark.strip()
        while r.startswith("(") and r.endswith(")"):
            r = r[1:-1].strip()
        if r:
            cleaned.append(r)
    return "".join(body), cleaned


def _overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


_STATUS_RE: Final = re.compile(
    r"영업\s*(?:전|중|종료|시작|마감|준비)|(?:에|부터)\s*(?:영업|오픈)|곧\s*(?:영업|마감|오픈)|"
    r"(?:오늘|금일)\s*(?:휴무|휴업|영업)|브레이크\s*타임\s*중|휴게\s*시간\s*중|라스트\s*오더\s*중"
)
_DATE_RE: Final = re.compile(r"\d{4}\s*[년./-]|\d{1,2}\s*월\s*\d{1,2}\s*일|\d{1,2}/\d{1,2}(?!\d)")
LONGEST_PLAUSIBLE_DAY = 21 * 60  # an overnight range longer than this and shorter than a day is a typo
WHOLE_DAY_SLACK = 5  # "10:00 ~ 09:59" is a whole day


def classify_hours(text: str) -> str:
    """``"status"`` for a live status of the crawl moment, ``"note"`` for a dated note or free text,
    ``"timetable"`` otherwise (whether it parses is :func:`parse_business_hours`' business)."""
    if _STATUS_RE.search(text) and not _DAYS_RE.search(text):
        return "status"
    if _DATE_RE.search(text):
        return "note"
    return "timetable"


def _implausible(days: dict[int, DayHours]) -> bool:
    for d in days.values():
        for r in d.open:
            if r.end > 1440 and LONGEST_PLAUSIBLE_DAY < r.end - r.start < 1440 - WHOLE_DAY_SLACK:
                return True
    return False


def parse_business_hours(text: str | None) -> WeeklySchedule | None:
    """Parse a ``businessHours`` string; ``None`` for a missing or blank one. Never raises."""
    if text is None or not text.strip():
        return None
    normalized = unicodedata.normalize("NFKC", text)
    body, remarks = _split_remarks(normalized)
    understood = [_parse_segment(seg) for seg in _SEGMENT_SEP.split(body) if seg.strip()]
    segments = [s for found in understood if found is not None for s in found]
    notes = [s.note for s in segments if isinstance(s, _Nothing) and s.note]
    note = " / ".join(notes + remarks) or None
    extras = [s for s in segments if isinstance(s, _Extra)]
    for remark in remarks:
        extras.extend(_remark_extras(remark))

    opens = [s for s in segments if isinstance(s, _Open)]
    closed = [s for s in segments if isinstance(s, _Closed)]
    kind = classify_hours(normalized)
    if (
        kind != "timetable"
        or not understood
        or any(found is None for found in understood)
        or not (opens or closed)
    ):
        return WeeklySchedule(raw=text, parsed=False, note=note, kind="note" if kind == "timetable" else kind)

    # broad day sets first; a narrower set replaces the overlapping ranges of a broader one
    ranges: dict[int, list[tuple[tuple[int, int], int]]] = {}
    for seg in sorted(opens, key=lambda o: -len(o.days)):
        width = len(seg.days)
        for day in seg.days:
            kept = ranges.setdefault(day, [])
            for r in seg.ranges:
                kept[:] = [(k, w) for k, w in kept if w <= width or not _overlaps(k, r)]
                kept.append((r, width))

    closed_days = sorted({d for c in closed for d in c.days})
    days: dict[int, DayHours] = {}
    for day in sorted(ranges):
        if day in closed_days:
            continue
        days[day] = DayHours(open=[TimeRange(start=a, end=b) for (a, b), _ in sorted(ranges[day])])

    for extra in extras:
        for day in sorted(extra.days if extra.days is not None else days.keys()):
            if day not in days:
                continue
            days[day].breaks.extend(TimeRange(start=a, end=b) for a, b in extra.breaks)
            if extra.last_order is not None:
                days[day].last_order = extra.last_order

    if _implausible(days):
        return WeeklySchedule(raw=text, parsed=False, note=note, implausible=True)
    return WeeklySchedule(
        raw=text,
        parsed=True,
        days=days,
        closed=closed_days,
        closed_note=", ".join(c.note for c in closed) or None,
        note=note,
    )
