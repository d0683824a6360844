"""Result types of offline query understanding (docs/design.md).

``NLUResult`` carries the seed's intent and entities plus the structured slots the agent needs
to build a search plan without an LLM: price, time, count, order, party, location mode and
the conversational signals (ordinal, pronoun, follow-up place, smalltalk, what is asked).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

Intent = Literal["search", "compare", "information"]
Order = Literal["relevance", "distance", "rating", "price", "reviews"]
LocationMode = Literal["near", "in"]
"""Near a place (a radius around it) or in it (its address region): the one near/in type, used by
the NLU result, the agent's location context and the search plan."""
Smalltalk = Literal["thanks", "greeting", "bye", "about", "offtopic"]
Ask = Literal[
    "hours", "price", "menu", "parking", "address", "phone", "reservation", "convenience", "rating", "waiting"
]
TimeKind = Literal["now", "at", "range"]
StrategyKind = Literal["route", "point_travel", "course"]
TravelMode = Literal["walk", "car", "transit"]
TripRole = Literal["식사", "카페", "디저트", "술집", "관광지", "숙박"]
Caution = Literal["pet", "activity"]


class Entities(BaseModel):
    """docs/design.md entities. Values are canonical (lexicon values, cuisine names, brand names),
    except ``location`` which keeps the place name as the user wrote it (without particles)."""

    location: list[str] = Field(default_factory=list)
    title: list[str] = Field(default_factory=list)
    menu: list[str] = Field(default_factory=list)
    category: list[str] = Field(default_factory=list)
    convenience: list[str] = Field(default_factory=list)
    atmosphere: list[str] = Field(default_factory=list)
    occasion: list[str] = Field(default_factory=list)

    def is_empty(self) -> bool:
        return not any(getattr(self, k) for k in ENTITY_TYPES)

    def get(self, kind: str) -> list[str]:
        value = getattr(self, kind)
        assert isinstance(value, list)
        return value


ENTITY_TYPES: tuple[str, ...] = tuple(Entities.model_fields)  # "location", "title", "menu", … in field order


class PriceSpec(BaseModel):
    """A budget in won. "2만원 이하" → max 20000; "만원대" → 10000–19999; "3만원 이상" → min 30000;
    "1인 2만원" → max 20000 per person; "2만원 정도" → 16000–24000 (±20 %); "저렴한" → no bounds,
    label only."""

    min_won: int | None = None
    max_won: int | None = None
    per_person: bool = False
    label: str = ""


class TimeSpec(BaseModel):
    """When the user wants to eat.

    * ``now``: "지금 영업 중", "지금 열린".
    * ``at``: a clock time ("8시", "오후 2시 반") or a late-night wish ("늦게까지", "심야" → 23:30).
    * ``range``: a part of the day ("저녁" 18:00–21:00); ``minute`` is its representative minute
      (점심 12:30, 저녁 19:00, 새벽 02:00 …) and ``start_minute``/``end_minute`` the range.

    ``weekday`` is 0=Monday … 6=Sunday ("주말" → 5); ``None`` means today. ``day_offset`` is
    0 for 오늘, 1 for 내일, 2 for 모레. A bare hour of 1–10 is read as p.m. ("8시" → 20:00), 11 and
    12 as written, 13–24 as 24-hour time; 오전/아침/새벽 force a.m., 오후/저녁/밤 force p.m.
    """

    kind: TimeKind
    weekday: int | None = None
    minute: int | None = None
    start_minute: int | None = None
    end_minute: int | None = None
    day_offset: int | None = None
    label: str = ""
    late: bool = False  # a late-night wish ("늦게까지", "심야", "새벽까지"), not a clock time


class PartySpec(BaseModel):
    size: int | None = None
    with_children: bool = False
    label: str = ""


class StrategySpec(BaseModel):
    """Seed 003's strategy as said (issue 14; :mod:`matjip.nlu.strategy`): surface names, numbers
    and roles, before any geocoding or validation. ``strategy`` None: radius, region or global."""

    strategy: StrategyKind | None = None
    origin: str | None = None  # route start / travel origin as written (None: the device, "여기")
    destination: str | None = None
    between: bool = False  # "A와 B 사이": the middle of the route first
    minutes: int | None = None
    mode: TravelMode | None = None  # as said ("걸어서", "차로", "대중교통으로"); None: not said
    km: float | None = None  # "3km 이내"
    roles: list[TripRole] = Field(default_factory=list)  # a course's stops, in order (one day)
    slot_words: list[str] = Field(default_factory=list)  # the word that named each stop ("점심")
    days: int | None = None
    overseas: str | None = None  # a place abroad ("시부야")
    caution: Caution | None = None


class NLUResult(BaseModel):
    intent: Intent = "search"
    entities: Entities = Field(default_factory=Entities)
    # Things the user explicitly does not want ("중식 말고", "주차 안 되는 곳 말고").
    exclude: Entities = Field(default_factory=Entities)
    price: PriceSpec | None = None
    time: TimeSpec | None = None
    count: int | None = None
    order: Order | None = None
    party: PartySpec = Field(default_factory=PartySpec)
    location_mode: LocationMode | Literal["none"] = "none"  # "none": the question names no place
    user_location: bool = False
    ordinal: int | None = None
    ordinals: list[int] = Field(default_factory=list)  # all ordinals ("첫 번째랑 두 번째 비교")
    pronoun_ref: bool = False
    followup_place: bool = False
    smalltalk: Smalltalk | None = None
    ask: list[Ask] = Field(default_factory=list)
    asked: list[Ask] = Field(default_factory=list)  # what is asked, even in a search ("평양냉면 얼마임")
    lines: list[str] = Field(default_factory=list)  # subway lines mentioned ("5호선")
    confidence: float = Field(0.0, ge=0.0, le=1.0)
    unknown_terms: list[str] = Field(default_factory=list)
    lang: Literal["ko", "other"] = "ko"
    notes: list[str] = Field(default_factory=list)
    strategy: StrategySpec = Field(default_factory=StrategySpec)
