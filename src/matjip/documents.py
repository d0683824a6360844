"""Document models shared by every layer: the final restaurant document and its parts.

Ingest produces :class:`Restaurant`; the index stores and returns it; the agent and the API
read it. Field names follow docs/design.md (``roadAddress`` is accepted and emitted as an alias).
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from matjip.vocab import vocab
from matjip.wording import say, text

WEEKDAYS = "월화수목금토일"  # index 0 = Monday, as datetime.weekday()

EnrichField = Literal["review_food", "convenience", "atmosphere", "occasion", "features", "kind"]
ENRICH_FIELDS: tuple[EnrichField, ...] = ("review_food", "convenience", "atmosphere", "occasion", "features")


class MenuItem(BaseModel):
    name: str
    price: int | None = None
    price_text: str = ""
    price_is_range: bool = False  # the text gave a range; ``price`` is its lower bound


class Evidence(BaseModel):
    """Why an enrichment value is there: the source field and the exact span that supports it."""

    field: EnrichField
    value: str
    source: str  # e.g. "reviewKeywords", "menus[3].name", "reviews[0]", "description", "category"
    span: str  # the text in the source that contains the value (or the tag name for tag counts)
    start: int | None = None
    end: int | None = None
    count: int | None = None  # visitor-tag count when the source is reviewKeywords
    support: int | None = None  # reviews that support the value ("리뷰 12건 중 5건": 5) ...
    reviews: int | None = None  # ... of this many reviews read (12)


class TimeRange(BaseModel):
    """Minutes from midnight of the day it starts; ``end`` may exceed 1440 for overnight ranges."""

    start: int = Field(ge=0, le=1440)
    end: int = Field(ge=0, le=2880)

    def contains(self, minute: int) -> bool:
        return self.start <= minute < self.end

    def label(self) -> str:
        def fmt(m: int) -> str:
            return f"{m // 60:02d}:{m % 60:02d}"

        return f"{fmt(self.start)}~{fmt(self.end if self.end <= 1440 else self.end - 1440)}"


class DayHours(BaseModel):
    open: list[TimeRange] = Field(default_factory=list)
    breaks: list[TimeRange] = Field(default_factory=list)
    last_order: int | None = None  # minutes from midnight


class WeeklySchedule(BaseModel):
    """Parsed ``businessHours``. ``days`` maps weekday (0=Mon) to hours; a weekday absent from
    ``days`` while ``parsed`` is true and it is in ``closed`` is a day off; unknown otherwise."""

    raw: str
    parsed: bool = False
    days: dict[int, DayHours] = Field(default_factory=dict)
    closed: list[int] = Field(default_factory=list)
    closed_note: str | None = None  # e.g. "둘째,넷째 일요일"
    note: str | None = None  # parenthesised remark kept verbatim
    # what the crawled string is: a weekly timetable, a live status ("17:00에 영업 시작", "영업 전")
    # or a note (a dated closure, free text); only a plausible timetable becomes ``days``
    kind: Literal["timetable", "status", "note"] = "timetable"
    implausible: bool = False  # a timetable that cannot be right ("매일 11:30 - 11:00"): treated as unknown

    def is_open(self, when: datetime) -> bool | None:
        """True/False when the schedule decides it, None when unknown."""
        if not self.parsed or not self.days:
            return None
        wd = when.weekday()
        minute = when.hour * 60 + when.minute
        today = self.days.get(wd)
        if today is not None:
            for r in today.open:
                if r.contains(minute) and not any(b.contains(minute) for b in today.breaks):
                    return True
        yesterday = self.days.get((wd - 1) % 7)
        if yesterday is not None:
            for r in yesterday.open:
                if r.end > 1440 and minute + 1440 < r.end:
                    return True
        return False

    def carried_over(self, when: datetime) -> TimeRange | None:
        """Yesterday's overnight range still running at ``when`` ("금 17:00~03:00" at Saturday 01:40)."""
        if not self.parsed:
            return None
        yesterday = self.days.get((when.weekday() - 1) % 7)
        minute = when.hour * 60 + when.minute + 1440
        return next(
            (r for r in (yesterday.open if yesterday else []) if r.end > 1440 and minute < r.end), None
        )

    def label_for(self, weekday: int) -> str | None:
        d = self.days.get(weekday)
        if d is None:
            if self.parsed and weekday in self.closed:
                return text("cards.day_hours.day_off")
            return None
        parts = [r.label() for r in d.open]
        said = ", ".join(parts)
        if d.breaks:
            said += say("cards.day_hours.breaks", breaks=", ".join(b.label() for b in d.breaks))
        if d.last_order is not None:
            said += say("cards.day_hours.last_order", at=f"{d.last_order // 60:02d}:{d.last_order % 60:02d}")
        return said


class Restaurant(BaseModel):
    """The final, searchable restaurant document."""

    model_config = ConfigDict(populate_by_name=True)

    place_id: str
    title: str
    category: str = ""  # the original category string
    cuisine: str = vocab().unknown_cuisine  # one of matjip.vocab cuisines
    sub_category: str | None = None
    address: str = ""
    road_address: str = Field("", alias="roadAddress")
    lat: float | None = None
    lon: float | None = None
    telephone: str | None = None
    menus: list[MenuItem] = Field(default_factory=list)
    reviews: list[str] = Field(default_factory=list)
    description: str = ""
    rating: float | None = None
    review_count: int | None = None
    review_keywords: dict[str, int] = Field(default_factory=dict)
    hours: WeeklySchedule | None = None
    # what the restaurant is ("고깃집", "치킨집"), from matjip.kinds; evidence field "kind"
    kinds: list[str] = Field(default_factory=list)
    review_food: list[str] = Field(default_factory=list)
    convenience: list[str] = Field(default_factory=list)
    atmosphere: list[str] = Field(default_factory=list)
    occasion: list[str] = Field(default_factory=list)
    features: list[str] = Field(default_factory=list)
    evidence: list[Evidence] = Field(default_factory=list)
    # reviews against a value ("주차가 어렵다는 리뷰가 3건"): ``support`` is how many reviews say so
    evidence_against: list[Evidence] = Field(default_factory=list)
    summary: str = ""
    flags: list[str] = Field(default_factory=list)  # e.g. no_coordinates, hours_unparsed
    source: str | None = None
    search_keyword: str | None = None
    extra: dict[str, object] = Field(default_factory=dict)  # unknown crawl fields, kept

    @property
    def display_address(self) -> str:
        return self.road_address or self.address

    def evidence_for(self, field: EnrichField, value: str) -> list[Evidence]:
        return [e for e in self.evidence if e.field == field and e.value == value]

    def against_for(self, field: EnrichField, value: str) -> list[Evidence]:
        return [e for e in self.evidence_against if e.field == field and e.value == value]

    def priced_menus(self) -> list[MenuItem]:
        return [m for m in self.menus if m.price is not None]
