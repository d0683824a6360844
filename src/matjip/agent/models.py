"""Typed values that travel through the agent: location contexts, the search plan, the documents
a search found (:class:`Shown`), grades, trace entries and the events a turn streams."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, computed_field, model_validator

from matjip.documents import Restaurant
from matjip.nlu.models import Caution, Intent, LocationMode, TravelMode, TripRole

Strategy = Literal["radius", "region", "global", "title", "route", "point_travel", "course"]
Sort = Literal["relevance", "distance", "rating", "price", "reviews"]
MAX_EXCLUDE_IDS = 200  # place ids a "더 보기" page may exclude (the ones already shown)

K_MIN, K_MAX = 1, 10
RADIUS_MIN_M, RADIUS_MAX_M = 100, 20_000
MAX_LIST = 5
MAX_TERM_CHARS = 40
MAX_SEMANTIC_CHARS = 200


class LocationContext(BaseModel):
    """One entry of the location history (docs/design.md): GPS or a named place."""

    type: Literal["GPS", "CONTEXTUAL"]
    name: str | None = None  # what the user said ("강남역", "홍대")
    display_name: str | None = None  # the resolved place ("홍대입구역 (2호선, 서울 마포구)")
    place_type: str | None = None
    lat: float | None = None
    lon: float | None = None
    mode: LocationMode = "near"  # near: radius search; in: in-region (address) search
    radius_m: int | None = None
    region_terms: list[str] = Field(default_factory=list)
    status: Literal["resolved", "pending_clarification"] = "resolved"

    @model_validator(mode="before")
    @classmethod
    def _from_is_nearby(cls, data: Any) -> Any:
        """Contexts written before ``mode`` existed carry the bool ``is_nearby`` instead."""
        if isinstance(data, dict) and "mode" not in data and isinstance(data.get("is_nearby"), bool):
            return {**data, "mode": "near" if data["is_nearby"] else "in"}
        return data

    @computed_field  # type: ignore[prop-decorator]
    @property
    def is_nearby(self) -> bool:
        """``mode == "near"``; still in the JSON for clients that read it."""
        return self.mode == "near"


class Choice(BaseModel):
    index: int
    label: str
    lat: float | None = None
    lon: float | None = None


class Clarification(BaseModel):
    question: str
    kind: Literal["place", "gps", "where"] = "place"  # where: the search named no place at all
    name: str | None = None
    choices: list[Choice] = Field(default_factory=list)
    pending_query: str = ""  # the question to resume once the user has chosen


class CannedReply(BaseModel):
    """Input there is nothing to understand in: empty, not Korean, or nothing to search for."""

    kind: Literal["empty", "not_korean", "no_content"]

    @property
    def key(self) -> str:
        return self.kind


class SmalltalkReply(BaseModel):
    """Small talk answered in kind ("고마워", "ㅋㅋ 맛있겠다"): ``topic`` is the NLU's small-talk
    label (greeting, thanks, bye, offtopic …) or ``reaction``."""

    kind: Literal["smalltalk"] = "smalltalk"
    topic: str

    @property
    def key(self) -> str:
        return f"smalltalk:{self.topic}"


class OutsideReply(BaseModel):
    """A place outside the data ("대구 동성로", a dong with no restaurant in the index)."""

    kind: Literal["outside"] = "outside"
    place: str
    again: bool = False  # a follow-up with no place of its own, after the answer that it is outside

    @property
    def key(self) -> str:
        return f"outside_again:{self.place}" if self.again else f"outside:{self.place}"


class OverseasReply(BaseModel):
    """A place abroad, with no provider for places abroad."""

    kind: Literal["overseas"] = "overseas"
    place: str

    @property
    def key(self) -> str:
        return f"overseas:{self.place}"


class UnknownFoodReply(BaseModel):
    """A food the data cannot hold ("조지아음식", "키즈카페")."""

    kind: Literal["unknown_food"] = "unknown_food"
    food: str

    @property
    def key(self) -> str:
        return f"unknown_food:{self.food}"


class UnknownPlaceReply(BaseModel):
    """A place name no gazetteer entry and no address knows."""

    kind: Literal["unknown_place"] = "unknown_place"
    place: str

    @property
    def key(self) -> str:
        return f"unknown_place:{self.place}"


Reply = Annotated[
    CannedReply | SmalltalkReply | OutsideReply | OverseasReply | UnknownFoodReply | UnknownPlaceReply,
    Field(discriminator="kind"),
]
"""A canned reply instead of a search (``state["reply"]``), by its ``kind``. ``key`` is its name
as the answer's wording knows it ("smalltalk:thanks", "outside:대구" — the prefixed strings the
state held before)."""

REPLY_MODELS: tuple[type[BaseModel], ...] = (
    CannedReply,
    SmalltalkReply,
    OutsideReply,
    OverseasReply,
    UnknownFoodReply,
    UnknownPlaceReply,
)


class PlanLocation(BaseModel):
    name: str
    lat: float | None = None
    lon: float | None = None
    radius_m: int | None = None
    mode: LocationMode = "near"
    region_terms: list[str] = Field(default_factory=list)

    @property
    def by_radius(self) -> bool:
        """Searched around a point: "near", or a region without address terms (a dong)."""
        return (
            self.lat is not None and self.lon is not None and (self.mode == "near" or not self.region_terms)
        )

    @property
    def in_building(self) -> bool:
        """Inside a building ("롯데월드몰 안에"): "in" a road address, which ends in its number ("올림픽로 300";
        a district's terms carry none)."""
        return self.mode == "in" and any(t.rstrip()[-1:].isdigit() for t in self.region_terms)


MINUTES_MIN, MINUTES_MAX = 1, 180
TRAVEL_MIN_M, TRAVEL_MAX_M = 100, 20_000
DAYS_MAX = 3
MAX_STOPS = 5  # stops of a course per day


class RoutePlan(BaseModel):
    """Seed 003's route strategy: both ends geocoded; searched around samples of the polyline."""

    origin: PlanLocation
    destination: PlanLocation
    between: bool = False  # "A와 B 사이": the middle of the route first
    search_radius_m: int = 3000
    interval_m: int = 1000


class TravelPlan(BaseModel):
    """Seed 003's point travel: within ``threshold_m`` of travel (or ``minutes``) from the plan's
    location; searched in a radius of threshold × 1.5, then filtered by the travel estimate."""

    minutes: int | None = None
    mode: TravelMode | None = None  # as said; None: not said
    estimate_mode: TravelMode = "walk"  # the mode the estimate uses
    km: float | None = None
    threshold_m: int = 1000  # travel distance allowed


class CoursePlan(BaseModel):
    """Seed 003's course: ordered stops with a trip role and a day each, around the plan's location."""

    roles: list[TripRole] = Field(default_factory=list)  # one day's stops, in order
    slot_words: list[str] = Field(default_factory=list)  # the word that named each stop ("점심")
    days: int = 1
    mode: TravelMode = "walk"  # between consecutive stops
    leg_m: int = 800  # consecutive stops at most this far apart (straight line)


class SearchPlan(BaseModel):
    """The validated, clamped plan (docs/design.md). Every search request is built from this alone."""

    intent: Intent = "search"
    strategy: Strategy = "global"
    location: PlanLocation | None = None
    titles: list[str] = Field(default_factory=list)
    # restaurant kinds (matjip.kinds): a restaurant must be one of them; dish words whose menus may
    # stand in when too few restaurants of the kind are found ("짜장면" → 중국집, then menus)
    kinds: list[str] = Field(default_factory=list)
    kind_dishes: list[str] = Field(default_factory=list)
    # "해산물 포차", "한우 오마카세": the food word said before the one kind asked — a house of the kind
    # serving it (its menu, or its own kind), or any house listing a line naming both, comes first
    qualifier: str | None = None
    cuisine: list[str] = Field(default_factory=list)
    menu: list[str] = Field(default_factory=list)
    convenience: list[str] = Field(default_factory=list)
    atmosphere: list[str] = Field(default_factory=list)
    occasion: list[str] = Field(default_factory=list)
    # a wish said by a word of its own (words/search.toml wish_said): the wish read → the word the heading
    # and the cards name it by ("혼밥" → "혼술")
    wish_words: dict[str, str] = Field(default_factory=dict)
    # what the person ruled out ("스시 말고", "중식 빼고", "체인점 말고"): hard filters
    exclude_kinds: list[str] = Field(default_factory=list)
    exclude_cuisine: list[str] = Field(default_factory=list)
    exclude_menu: list[str] = Field(default_factory=list)
    exclude_titles: list[str] = Field(default_factory=list)
    exclude_chains: bool = False
    avoid_tastes: list[str] = Field(default_factory=list)  # "매운 거 못 먹어": places named for it out
    eat_in: bool = (
        False  # "배달 말고": delivery-only places out (kinds.toml [eat_in]), not an exclusion asked
    )
    semantic: str = ""
    price_min: int | None = None
    price_max: int | None = None
    # "더 싼 데": the looser bound (below the dearest place shown) tried before the price is dropped, when
    # nothing is below the list's typical price
    price_max_wider: int | None = None
    # "1인 5만원 이하": the bound is per person — a place listing a course or set within it is within too
    per_person: bool = False
    # "6명": the party's size, when said — a per-person budget on shared plates divides by it (kinds.toml shared)
    party: int | None = Field(default=None, ge=1, le=100)
    open_at: datetime | None = None
    open_until: datetime | None = None  # with open_at: open at some time in [open_at, open_until]
    open_label: str | None = None
    # the time asked after relaxation dropped its filter: places open then still come first
    open_wished: datetime | None = None
    no_break: bool = False  # "브레이크타임 없는": known hours with no break on the day asked
    # "밥 먹을 데": the name of a theme of any kind (kinds.toml any_kind) — no kind asked, the theme's
    # family first (never a filter), the kinds it leaves out (cafés, bars …) out, no exclusion said
    any_kind: str | None = None
    # menu words whose places come first, never a filter ("안 매운 떡볶이": 간장, 로제 …)
    prefer_menu: list[str] = Field(default_factory=list)
    unused_terms: list[str] = Field(default_factory=list)  # words the data cannot check, said in the answer
    # place ids already shown ("더 보기", "다른 데는?": the next page excludes them)
    exclude_ids: list[str] = Field(default_factory=list)
    k: int = 3
    per_title_k: int = 2
    sort: Sort = "relevance"
    relaxed: list[str] = Field(default_factory=list)  # notes of relaxation steps applied
    # seed 003's strategies (issue 14): set only for their strategy
    route: RoutePlan | None = None
    travel: TravelPlan | None = None
    course: CoursePlan | None = None
    overseas: str | None = None  # a place abroad: searched by a live provider, never in the index
    caution: Caution | None = None  # the data only suggests it (pets, activities): said in the answer

    def signature(self) -> str:
        """A canonical string: two plans with the same signature would return the same results."""
        loc = self.location
        loc_key = (
            f"{loc.mode}:{round(loc.lat or 0, 4)},{round(loc.lon or 0, 4)}:{loc.radius_m}:{','.join(loc.region_terms)}"
            if loc
            else "-"
        )
        parts = [
            self.intent,
            loc_key,
            "|".join(sorted(self.titles)),
            "|".join(sorted(self.kinds))
            + (f"^{self.any_kind}" if self.any_kind else "")
            + (f"<{self.qualifier}" if self.qualifier else ""),
            "|".join(
                sorted([*self.exclude_kinds, *self.exclude_cuisine, *self.exclude_menu, *self.exclude_titles])
            )
            + ("+chains" if self.exclude_chains else ""),
            "|".join(sorted(self.cuisine)),
            "|".join(sorted(self.menu)),
            "|".join(sorted(self.convenience)),
            "|".join(sorted(self.atmosphere + self.occasion)),
            str(self.price_min),
            str(self.price_max) + ("/1인" if self.per_person else ""),
            self.open_at.strftime("%w%H%M") if self.open_at else "-",
            self.open_until.strftime("%w%H%M") if self.open_until else "-",
            str(self.k),
            self.sort,
            "|".join(sorted(self.exclude_ids)),
            self.strategy,
            self.route.model_dump_json() if self.route else "-",
            self.travel.model_dump_json() if self.travel else "-",
            self.course.model_dump_json() if self.course else "-",
            self.overseas or "-",
        ]
        return "#".join(parts)


@dataclass(frozen=True)
class Shown:
    """A document as found by a search: the document and the facts of the hit."""

    doc: Restaurant
    distance_m: float | None = None
    matched: tuple[str, ...] = ()
    open_now: bool | None = None
    score: float = 0.0


class DocumentScore(BaseModel):
    document_id: str
    relevance: Literal["relevant", "irrelevant"]
    reason: str


class Grade(BaseModel):
    """docs/design.md structure, plus which tier decided it (docs/design.md)."""

    overall_relevance: Literal["relevant", "irrelevant"]
    reason: str
    document_scores: list[DocumentScore] = Field(default_factory=list)
    tier: Literal["empty", "confident", "grader", "insufficient"] = "grader"
    top_score: float = 0.0


class TraceEntry(BaseModel):
    node: str
    ms: float
    decision: str = ""
    detail: dict[str, Any] = Field(default_factory=dict)


OpenState = Literal["open", "closing_soon", "break", "before_open", "closed_now", "day_off", "unknown"]


class OpenStatus(BaseModel):
    """Whether a restaurant is open at the turn's time, from its parsed weekly hours."""

    state: OpenState
    label: str = Field(examples=["영업 중 · 22:00 마감", "브레이크타임 15:00–17:00", "오늘 휴무"])


class MapLink(BaseModel):
    kind: Literal["place", "search", "directions"]
    label: str = Field(examples=["카카오맵", "네이버 지도 검색", "길찾기"])
    url: str


class PriceBand(BaseModel):
    """The price band of the median priced menu line (menu badges such as "추천" left out)."""

    label: str = Field(examples=["1만원대"])
    median_won: int
    min_won: int
    max_won: int
    priced_items: int


class Card(BaseModel):
    """A restaurant as shown to a client (API results event, web cards)."""

    id: str
    name: str
    cuisine: str
    category: str = ""
    address: str = ""
    distance_m: float | None = None
    lat: float | None = None
    lon: float | None = None
    matched: list[str] = Field(default_factory=list)
    menus: list[dict[str, Any]] = Field(default_factory=list)
    hours_today: str | None = None
    hours_asked: str | None = Field(
        None,
        examples=["토요일 영업: 11:00~22:00"],
        description="The hours of the day the question is about, when it is not today.",
    )
    score: float = 0.0
    telephone: str | None = None
    source_type: Literal["internal", "web", "kakao", "google"] = Field(
        "internal",
        description="internal: the index; web: a web page; kakao/google: a live provider (never stored).",
    )
    url: str | None = Field(
        None, description="The map page of the place (or a map search), or the web source."
    )
    map_links: list[MapLink] = Field(default_factory=list)
    open_status: OpenStatus | None = None
    rating: float | None = None
    review_count: int | None = None
    standing: str | None = Field(
        None,
        examples=["리뷰 218건 · 평점 4.4 · '맛' 태그 31건"],
        description="The evidence the ranking reads (why a place is up front).",
    )
    price_band: PriceBand | None = None
    walk_minutes: int | None = Field(None, description="Estimated from the straight-line distance.")
    # seed 003's strategies (issue 14)
    stop: int | None = Field(None, description="A course's stop number (1, 2, …), in the order to visit.")
    trip_role: str | None = Field(None, examples=["식사", "카페"], description="A course stop's role.")
    day_group: int | None = Field(None, description="A course stop's day (1, 2, …).")
    slot: str | None = Field(None, examples=["점심 12:30"], description="When a course stop is visited.")
    leg_m: int | None = Field(None, description="Straight-line metres from the previous course stop.")
    leg_minutes: int | None = Field(None, description="Estimated minutes from the previous stop (약).")
    route_note: str | None = Field(None, examples=["경로 중간 지점 근처 · 우회 약 1.2km"])
    travel_minutes: int | None = Field(
        None, description="Travel time from the origin (estimate unless routed)."
    )
    travel_m: int | None = None
    travel_estimate: bool | None = Field(None, description="True when travel is the offline estimate (약).")


class StrategyInfo(BaseModel):
    """How a seed-003 strategy searched, for the answer and the trace (issue 14)."""

    line_source: str = "straight"  # straight (estimate) | osrm | kakao-mobility
    total_m: int = 0
    samples: int = 0
    interval_m: int = 0
    radius_m: int = 0
    travel_source: str = "estimate"  # estimate | osrm | kakao-mobility
    fallback: str | None = None  # why a live provider was not used (timeout, HTTP 429, bad JSON …)
    uncovered_roles: list[str] = Field(default_factory=list)  # course roles the data cannot serve
    days: int = 1
    live_source: str | None = None  # kakao | google: live cards shown


class MoreResult(BaseModel):
    """Another page of the session's last search ("더 보기") or the same search in another order."""

    session_id: str
    plan: SearchPlan | None = None
    cards: list[Card] = Field(default_factory=list)
    exhausted: bool = Field(False, description="Fewer cards than a page: nothing more to show.")
    notes: list[str] = Field(default_factory=list)


class WebSource(BaseModel):
    title: str
    content: str
    url: str | None = None


EventType = Literal[
    "session", "plan", "results", "clarification", "answer", "answer_reset", "trace", "end", "error"
]


class TurnEvent(BaseModel):
    event: EventType
    data: Any = None


class TurnResult(BaseModel):
    session_id: str
    answer: str
    intent: Intent | None = None
    plan: SearchPlan | None = None  # as searched (relaxed conditions dropped or widened)
    frame: SearchPlan | None = None  # as asked: what a follow-up keeps
    cards: list[Card] = Field(default_factory=list)
    clarification: Clarification | None = None
    grade: Grade | None = None
    searched: bool = False
    reused: bool = False
    web_sources: list[WebSource] = Field(default_factory=list)
    trace: list[TraceEntry] = Field(default_factory=list)
    nlu: dict[str, Any] = Field(default_factory=dict)
    notes: list[str] = Field(default_factory=list)
    location: LocationContext | None = None
    location_carried: bool = False
    resumed: bool = False
    decision: str = ""
