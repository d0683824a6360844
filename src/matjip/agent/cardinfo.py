"""What a card says beside the document's own fields: is it open now, its price band, its map
links and an estimated walking time. Thresholds, links and bands are data (``data/cards.toml``), the
sentences are wording (``data/wording/cards.toml``).

Every value is derived from the document (parsed hours, priced menu lines, coordinates, place id
and source) and the turn's time in the settings' time zone; what the document does not know is
said plainly ("영업시간 정보 없음") or left out.
"""

from __future__ import annotations

import re
import statistics
import tomllib
from collections.abc import Sequence
from datetime import datetime, timedelta
from functools import cache
from pathlib import Path
from urllib.parse import quote

from pydantic import BaseModel, ConfigDict, Field

from matjip.agent.models import MapLink, OpenStatus, PriceBand, SearchPlan
from matjip.documents import EnrichField, MenuItem, Restaurant, TimeRange, WeeklySchedule
from matjip.index.ranking import TASTE_TAG
from matjip.kinds import kinds, norm
from matjip.vocab import vocab
from matjip.wording import say, text
from matjip.words import word_map, words

CARDS_FILE = Path(__file__).resolve().parents[1] / "data" / "cards.toml"


def is_open_now_label(label: str) -> bool:
    """An open label that already says "영업 중" ("지금 영업 중") is said as it is, never "… 영업하는"."""
    return label.endswith(text("answer.conditions.open_now_ending"))


def says_open(label: str) -> bool:
    """An open label that already says "영업" ("새벽 3시까지 영업") takes no second "영업" (audit r15:
    "새벽 3시까지 영업 영업하는"); the one test the heading, the cards and the count lines use."""
    return label.endswith(text("answer.conditions.open_verb_ending"))


class _PlacePage(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    source_contains: str
    id_pattern: str
    label: str
    url: str


class _Link(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    label: str
    url: str


class _Walking(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    metres_per_minute: float
    max_metres: float


class _OpenStatusConf(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    closing_soon_minutes: int
    night_from_hour: int = Field(ge=0, le=23)
    night_until_hour: int = Field(ge=0, le=23)
    flag_from_hour: int = Field(ge=0, le=23)
    early_flag_until_hour: int = Field(ge=0, le=23)
    going_known_reviews: int = Field(ge=0)
    days: str = Field(min_length=7, max_length=7)


class _Band(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    below: int | None = None
    label: str


class _Facts(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    mention_only_max: int
    wish_tag_min_votes: int = Field(ge=1)
    wish_tag_min_share: float = Field(ge=0, le=1)


class CardsConfig(BaseModel):
    """The contents of ``cards.toml``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    place_page: tuple[_PlacePage, ...]
    search_link: tuple[_Link, ...]
    directions: _Link
    walking: _Walking
    open_status: _OpenStatusConf
    price_band: tuple[_Band, ...]
    facts: _Facts


@cache
def cards_config() -> CardsConfig:
    with CARDS_FILE.open("rb") as f:
        return CardsConfig.model_validate(tomllib.load(f))


# --- open status ---------------------------------------------------------------------------


def _hhmm(minute: int) -> str:
    m = minute if minute == 1440 else minute % 1440  # "24:00 마감", "02:40 마감" (overnight)
    return f"{m // 60:02d}:{m % 60:02d}"


def _ranges_today(hours: WeeklySchedule, weekday: int) -> tuple[list[TimeRange], list[TimeRange]]:
    """Today's open ranges and breaks in today's minutes, with yesterday's overnight tail."""
    opens: list[TimeRange] = []
    breaks: list[TimeRange] = []
    yesterday = hours.days.get((weekday - 1) % 7)
    if yesterday is not None:
        for r in yesterday.open:
            if r.end > 1440:
                opens.append(TimeRange(start=0, end=r.end - 1440))
    today = hours.days.get(weekday)
    if today is not None:
        opens += today.open
        breaks += today.breaks
    return opens, breaks


def open_status(hours: WeeklySchedule | None, now: datetime) -> OpenStatus:
    """ "영업 중 · 22:00 마감", "곧 마감 · 22:00", "브레이크타임 15:00–17:00", "영업 전 · 11:00 오픈",
    "오늘 영업 종료", "오늘 휴무" or "영업시간 정보 없음", read from the parsed weekly hours at ``now``
    (a time in the settings' time zone). Unparsed hours are unknown, never guessed."""
    if hours is None or not hours.parsed or not hours.days:
        return OpenStatus(state="unknown", label=text("cards.open_status.unknown"))
    soon = cards_config().open_status.closing_soon_minutes
    wd = now.weekday()
    minute = now.hour * 60 + now.minute
    opens, breaks = _ranges_today(hours, wd)
    for b in breaks:
        if b.contains(minute):
            label = say("cards.open_status.break_now", start=_hhmm(b.start), end=_hhmm(b.end))
            return OpenStatus(state="break", label=label)
    for r in opens:
        if r.contains(minute):
            if r.start == 0 and r.end >= 1440 and not breaks:
                return OpenStatus(state="open", label=text("cards.open_status.all_day"))
            upcoming = [b for b in breaks if r.start <= b.start and minute < b.start < r.end]
            if upcoming:
                at = min(b.start for b in upcoming)
                label = say("cards.open_status.break_at", at=_hhmm(at))
                soon_label = say("cards.open_status.break_soon", at=_hhmm(at))
            else:
                at = r.end
                label = say("cards.open_status.closing_at", at=_hhmm(at))
                soon_label = say("cards.open_status.closing_soon", at=_hhmm(at))
            if at - minute <= soon:
                return OpenStatus(state="closing_soon", label=soon_label)
            return OpenStatus(state="open", label=say("cards.open_status.open", label=label))
    if wd not in hours.days:
        if wd in hours.closed:
            return OpenStatus(state="day_off", label=text("cards.open_status.day_off"))
        if hours.kind == "timetable" and not hours.implausible:
            # "월~토 …" on a Sunday: the timetable's working days leave today out
            label = say("cards.open_status.today_unlisted", days=listed_days(hours))
            return OpenStatus(state="unknown", label=label)
        return OpenStatus(state="unknown", label=text("cards.open_status.today_unknown"))
    later = [r.start for r in opens if r.start > minute]
    if later:
        label = say("cards.open_status.before_open", at=_hhmm(min(later)))
        return OpenStatus(state="before_open", label=label)
    return OpenStatus(state="closed_now", label=text("cards.open_status.closed"))


def listed_days(hours: WeeklySchedule) -> str:
    """The weekdays a timetable lists, runs said as ranges: "월~토", "화~일", "월,수,목,금,토,일"
    (as the crawl writes them); a run of three days or more is a range."""
    names = cards_config().open_status.days
    days = sorted(hours.days)
    runs: list[list[int]] = []
    for d in days:
        if runs and d == runs[-1][-1] + 1:
            runs[-1].append(d)
        else:
            runs.append([d])
    parts = [f"{names[r[0]]}~{names[r[-1]]}" if len(r) >= 3 else ",".join(names[d] for d in r) for r in runs]
    return ",".join(parts)


def unlisted_today(hours: WeeklySchedule | None, now: datetime) -> bool:
    """A plausible timetable that lists other weekdays and neither today nor today as a day off."""
    return (
        hours is not None
        and hours.parsed
        and bool(hours.days)
        and hours.kind == "timetable"
        and not hours.implausible
        and now.weekday() not in hours.days
        and now.weekday() not in hours.closed
    )


def is_night(now: datetime) -> bool:
    """From ``night_from_hour`` until ``night_until_hour`` (cards.toml)."""
    conf = cards_config().open_status
    return now.hour >= conf.night_from_hour or now.hour < conf.night_until_hour


# states of a place one cannot go to now, or not for long
CLOSED_NOW = frozenset({"closed_now", "day_off", "before_open"})

# Going now (at night with no time asked, "지금", or a time asked whose filter was dropped): what a
# place's hours say of it at that time, best first. ONE reading, used by the ranking
# (``rank.RankKey.going_now``, ``open_asked``), the card's night flag and the clock note, so the cards,
# the order and the note never disagree. A day a plausible weekly timetable leaves out ("월~토 …" on a
# Sunday) is read as the cards word it — "오늘 영업일 아님" — a day the place is shut.
GOING_OPEN = 0  # open, or opening within :data:`OPENING_SOON` (there by the time one arrives)
GOING_LATER = 1  # opens later today, in a break, or closing within the hour
GOING_UNKNOWN = 2  # no hours for today, a place people know (more than ``going_known_reviews``)
GOING_SHUT = 3  # done for today (closed, its day off, a day its timetable leaves out); also a place
# with no hours known and barely reviewed: as unpromising now as a shut one, and it never leads
# known places at night (the fix tried in round 7 put such places first; docs/issue24.md)
OPENING_SOON = timedelta(hours=1)
DONE_FOR_TODAY = frozenset({"closed_now", "day_off"})


def shut_today(hours: WeeklySchedule | None, now: datetime) -> bool:
    """The hours say the place opens no more today: closed for the day, its day off, or a weekday its
    timetable leaves out (the card says "오늘 영업일 아님")."""
    return open_status(hours, now).state in DONE_FOR_TODAY or unlisted_today(hours, now)


def _going_reading(doc: Restaurant, at: datetime, strict: bool = False) -> str:
    """ "open" (or within the hour), "later" (today), "shut" (today), "unknown" (no hours for today, a
    place people know) or "thin" (no hours, barely reviewed). ``strict``: the question named the time,
    and it is now ("아침 먹을 데" at 09:30, "지금 문 연"): a place opening within the hour is "later" —
    one who says when they eat eats then (audit r14 Q9, Q16, Q20: places opening at 10:00 and 10:30
    ranked with the open ones at 09:30, only flagged); with no time said (at night one is taken to
    be going now) it is there by the time one arrives."""
    hours = doc.hours
    state = open_status(hours, at).state
    if state == "open" or (
        not strict
        and state == "before_open"
        and open_status(hours, at + OPENING_SOON).state in ("open", "closing_soon")
    ):
        return "open"
    if state in ("before_open", "break", "closing_soon"):
        return "later"
    if state in DONE_FOR_TODAY or unlisted_today(hours, at):
        return "shut"
    return "thin" if (doc.review_count or 0) <= cards_config().open_status.going_known_reviews else "unknown"


def going_tier(doc: Restaurant, at: datetime, strict: bool = False) -> int:
    """Going now at ``at``: :data:`GOING_OPEN`, :data:`GOING_LATER`, :data:`GOING_UNKNOWN` or
    :data:`GOING_SHUT` (above); ``strict``: the time was named (:func:`_going_reading`)."""
    return _tier(_going_reading(doc, at, strict))


def _tier(reading: str) -> int:
    if reading == "open":
        return GOING_OPEN
    if reading == "later":
        return GOING_LATER
    return GOING_UNKNOWN if reading == "unknown" else GOING_SHUT


def is_evening(now: datetime) -> bool:
    """From ``flag_from_hour`` until ``night_until_hour``, and early in the morning until
    ``early_flag_until_hour`` (cards.toml): the cards flag the clock."""
    conf = cards_config().open_status
    return now.hour >= conf.flag_from_hour or now.hour < conf.early_flag_until_hour


def night_flag(hours: WeeklySchedule | None, now: datetime, going: bool = False) -> str | None:
    """In the evening and at night (:func:`is_evening`), "- 지금: 곧 마감 · 22:00" / "- 지금: 오늘 영업
    종료" for a place closed or closing within the hour, whatever the question said of the time (one
    going out tonight reads it before going: a lunch place shut at 15:00 asked at 19:40); by day only
    when the question means going now (``going``: "아침 먹을 데" at 09:30 — a place opening at 11:00 is
    flagged, audit r14 Q9), else None."""
    if not (going or is_evening(now)):
        return None
    status = open_status(hours, now)
    if (
        status.state == "closing_soon"
        or status.state in CLOSED_NOW
        or (status.state == "unknown" and unlisted_today(hours, now))
    ):
        return say("cards.open_status.now_flag", label=status.label)
    return None


def night_of(hours: WeeklySchedule | None, day: datetime) -> datetime:
    """The day whose night ``day`` belongs to: a small-hours time (before ``night_until_hour``)
    that the day before's hours reach past midnight ("새벽 1시" at a place open 17:00~02:00) is that
    day's night, not a day of its own; otherwise ``day``."""
    if hours is None or not hours.parsed or day.hour >= cards_config().open_status.night_until_hour:
        return day
    before = day - timedelta(days=1)
    minute = day.hour * 60 + day.minute
    d = hours.days.get(before.weekday())
    spills = d is not None and any(r.end > 1440 and r.end - 1440 > minute for r in d.open)
    return before if spills else day


def other_day_hours(
    hours: WeeklySchedule | None, day: datetime, now: datetime, with_raw: bool = True
) -> tuple[str, str] | None:
    """(label, hours) of ``day`` when it is another date than ``now`` ("토요일 영업", "11:00~22:00");
    a small-hours time the day before's hours reach is that day's night (:func:`night_of`; None when
    that is today). A day the crawled timetable does not list is said as such (with the timetable
    when ``with_raw``), "정보 없음" only when the hours are unknown; None for today."""
    day = night_of(hours, day)
    if day.date() == now.date():
        return None
    label = say("cards.open_status.other_day", day=cards_config().open_status.days[day.weekday()])
    said = hours.label_for(day.weekday()) if hours is not None and hours.parsed else None
    if said is None and hours is not None and hours.parsed and hours.days and not hours.implausible:
        if with_raw:
            return label, say("cards.open_status.other_day_unlisted", raw=hours.raw.strip())
        return label, say("cards.open_status.other_day_unlisted_short", days=listed_days(hours))
    return label, said or text("cards.open_status.other_day_unknown")


# --- price band ----------------------------------------------------------------------------


def price_band(doc: Restaurant) -> PriceBand | None:
    """The band of the median priced menu line; ``None`` when no menu line has a price."""
    prices = sorted(
        m.price
        for m in doc.menus
        if m.price is not None and m.price > 0 and not vocab().is_menu_badge(m.name)
    )
    if not prices:
        return None
    median = round(statistics.median(prices))  # of an even count, the mean of the middle two
    bands = cards_config().price_band
    label = next((b.label for b in bands if b.below is None or median < b.below), bands[-1].label)
    return PriceBand(
        label=label, median_won=median, min_won=prices[0], max_won=prices[-1], priced_items=len(prices)
    )


# --- standing: the evidence the ranking reads ------------------------------------------------


def standing(doc: Restaurant) -> str | None:
    """ "리뷰 218건 · 평점 4.4 · '맛' 태그 31건": the evidence a local trusts, which
    :mod:`matjip.index.ranking` ranks by; None when the document has none of it."""
    parts: list[str] = []
    if doc.review_count:
        parts.append(say("cards.standing.reviews", n=f"{doc.review_count:,}"))
    if doc.rating and doc.review_count:  # a rating nobody's count backs is not evidence
        parts.append(say("cards.standing.rating", rating=f"{doc.rating:g}"))
    taste = int(doc.review_keywords.get(TASTE_TAG, 0))
    if taste:
        parts.append(say("cards.standing.taste", n=f"{taste:,}"))
    return text("cards.standing.separator").join(parts) or None


def tags_too_few(doc: Restaurant, votes: int) -> bool:
    """A mood or occasion backed by ``votes`` visitor tags is too thin to claim when they are fewer than
    ``facts.wish_tag_min_votes`` or than ``facts.wish_tag_min_share`` of the place's reviews ('분위기' 2 of
    16 reviews is no "분위기 좋은", audit r14 Q8) — the one rule the cards and the heading read."""
    facts = cards_config().facts
    return votes < facts.wish_tag_min_votes or votes < facts.wish_tag_min_share * (doc.review_count or 0)


def thin_tags_only(doc: Restaurant, field: EnrichField, value: str) -> bool:
    """``value`` is known of the place only from visitor tags, and those are too few (:func:`tags_too_few`)."""
    evidence = doc.evidence_for(field, value)
    if not evidence or any(ev.source != "reviewKeywords" for ev in evidence):
        return False
    return tags_too_few(doc, max(ev.count or 0 for ev in evidence))


def mention_only(doc: Restaurant, field: EnrichField, value: str) -> int | None:
    """The tag count when the only evidence for ``value`` is a visitor tag with at most
    ``facts.mention_only_max`` votes ("주차" tagged once among 218 reviews: a mention, not a fact);
    None otherwise."""
    evidence = doc.evidence_for(field, value)
    if not evidence or any(ev.source != "reviewKeywords" for ev in evidence):
        return None
    n = max(ev.count or 0 for ev in evidence)
    return n if n <= cards_config().facts.mention_only_max else None


# --- map links -----------------------------------------------------------------------------


def _q(value: object) -> str:
    return quote(str(value), safe="")


def _link_name(text: str) -> str:
    """A name for the Kakao link scheme, which separates fields with "," and "/"."""
    return " ".join(re.sub(r"[,/]", " ", text).split())


def map_links(doc: Restaurant, origin: tuple[str, float, float] | None = None) -> list[MapLink]:
    """The place page on Kakao Map for a Kakao place id, map searches otherwise, and directions
    from ``origin`` (name, lat, lon: the search location) when both ends have coordinates."""
    conf = cards_config()
    links: list[MapLink] = []
    source = (doc.source or "").lower()
    for page in conf.place_page:
        if page.source_contains in source and re.match(page.id_pattern, doc.place_id):
            links.append(MapLink(kind="place", label=page.label, url=page.url.format(id=_q(doc.place_id))))
            break
    if not links:
        region = " ".join(doc.display_address.split()[:2])
        query = f"{doc.title} {region}".strip()
        for s in conf.search_link:
            links.append(MapLink(kind="search", label=s.label, url=s.url.format(query=_q(query))))
    if origin is not None and doc.lat is not None and doc.lon is not None:
        name, lat, lon = origin
        url = conf.directions.url.format(
            from_name=_q(_link_name(name) or text("cards.links.from_default")),
            from_lat=f"{lat:.6f}",
            from_lon=f"{lon:.6f}",
            name=_q(_link_name(doc.title) or text("cards.links.to_default")),
            lat=f"{doc.lat:.6f}",
            lon=f"{doc.lon:.6f}",
        )
        links.append(MapLink(kind="directions", label=conf.directions.label, url=url))
    return links


def walk_minutes(distance_m: float | None) -> int | None:
    """Minutes on foot over the straight-line distance (an estimate), up to ``max_metres``."""
    w = cards_config().walking
    if distance_m is None or distance_m > w.max_metres:
        return None
    return max(1, round(distance_m / w.metres_per_minute))


# --- a per-person budget ---------------------------------------------------------------------

SET_MEAL = words("search", "per_person_sets")  # menu lines one person orders as a whole meal


def plate_sharers(p: SearchPlan) -> int:
    """How many people share one plate of the kind asked under a budget per person: the kind's
    ``shared`` (kinds.toml: 족발 (중), 모듬회, 아구찜 feed about three), or the party when fewer ("둘이 1인
    2만원 족발": two); 1 when the bound is not per person or the kind is eaten one dish a head."""
    if not p.per_person or p.price_max is None:
        return 1
    return sharers(p.kinds, p.party)


def sharers(asked: Sequence[str], party: int | None) -> int:
    """How many share one plate of the kinds ``asked`` (their largest ``shared``), the party when fewer."""
    table = kinds()
    serves = max((table.by_name[k].shared for k in asked if k in table.by_name), default=0)
    return max(1, min(serves, party) if party is not None else serves)


ONE_HEAD_LINES = words("search", "one_head_lines")  # a line priced for one person, never split


def one_head(line: str) -> bool:
    """The menu line is one person's ("1인 순살 족발", "보쌈정식"): never split between sharers."""
    said = line.replace(" ", "")
    return any(w in said for w in ONE_HEAD_LINES)


def set_within(doc: Restaurant, p: SearchPlan) -> MenuItem | None:
    """ "1인 5만원 이하 오마카세": the first priced course or set line (``per_person_sets``: "오마카세 점심",
    "런치 코스", "A세트") within a per-person bound — one person's meal there fits the budget, whatever
    the dearer dinner lifts the menu's median to (audit r13 Q19); ``None`` for a bound not per person."""
    if not p.per_person or p.price_max is None:
        return None
    return next(
        (
            m
            for m in doc.priced_menus()
            if m.price is not None
            and m.price > 0
            and m.price <= p.price_max
            and (p.price_min is None or m.price >= p.price_min)
            and any(w in m.name.replace(" ", "") for w in SET_MEAL)
        ),
        None,
    )


# "해산물 포차": the share of a house's menu lines that must name the food — most of them (a 포차's
# 골뱅이무침 and 낙지볶음 beside 계란찜 and 닭똥집 make no seafood 포차; a line naming both, '한우 오마카세',
# always does)
QUALIFIER_SHARE = 0.6


@cache
def _qualifier_terms(word: str) -> tuple[str, ...]:
    """The menu words that say a house serves the food ``word`` names ("해산물": 해물, 조개, 낙지 …): the
    word, its kind's words and dishes, and those of the kinds under it (read once per word: the ranking
    key asks for every hit)."""
    table = kinds()
    got = table.lookup(word)
    if got is None:
        return (norm(word),)
    names = [got[0], *table.descendants(got[0])]
    extra = word_map("query_kinds", "qualifier_menus").get(got[0], ())  # what its kind's lists leave out
    found = [word, *extra, *(w for n in names for w in [*table.by_name[n].words, *table.dish_words(n)])]
    return tuple(dict.fromkeys(t for w in found if len(t := norm(w)) >= min(2, len(norm(word)))))


def _kind_heads(plan: SearchPlan) -> list[str]:
    """The kinds asked and the words people call them by, normalised ("포차", "포장마차" …)."""
    return [norm(w) for k in plan.kinds if (kind := kinds().by_name.get(k)) for w in (k, *kind.words)]


def qualifier_line(doc: Restaurant, plan: SearchPlan) -> str | None:
    """The menu line of ``doc`` that shows the food qualifying the kind asked ("해산물 포차": '조개찜';
    "한우 오마카세": '한우 오마카세(1인)', a line naming both first); None when no line does."""
    if not plan.qualifier:
        return None
    terms = _qualifier_terms(plan.qualifier)
    heads = _kind_heads(plan)
    lines = [m.name for m in doc.menus if any(t in norm(m.name) for t in terms)]
    lines.sort(key=lambda x: norm(plan.qualifier or "") not in norm(x))  # the word said first ('2인 한우 …')
    both = [x for x in lines if any(h in norm(x) for h in heads)]
    return next(iter(both or lines), None)


def is_qualified(doc: Restaurant, plan: SearchPlan) -> bool:
    """``doc`` is the house asked with its qualifier ("해산물 포차"): of the kind and serving the food (its
    menu, or the food's own kind), or any house listing a line that names both ('한우 오마카세')."""
    if not plan.qualifier:
        return True
    line = qualifier_line(doc, plan)
    if any(k in doc.kinds for k in plan.kinds):
        food = kinds().lookup(plan.qualifier)
        terms = _qualifier_terms(plan.qualifier)
        serving = sum(any(t in norm(m.name) for t in terms) for m in doc.menus)
        return (food is not None and food[0] in doc.kinds) or (
            line is not None and serving >= QUALIFIER_SHARE * len(doc.menus)
        )
    return line is not None and any(h in norm(line) for h in _kind_heads(plan))
