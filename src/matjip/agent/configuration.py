"""Agent configuration and the resources every node may use (index, gazetteer, NLU, providers).

``AgentConfig`` (the tuning values) lives in :mod:`matjip.agent.tuning`, imported here for callers."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Protocol
from zoneinfo import ZoneInfo

from matjip.agent.tuning import AgentConfig
from matjip.settings import DEFAULT_TIMEZONE

if TYPE_CHECKING:
    from matjip.agent.stages import LLMStages
    from matjip.geo.coverage import CoveredArea
    from matjip.geo.gazetteer import Gazetteer
    from matjip.index.backend import SearchBackend
    from matjip.nlu.parser import OfflineNLU


class WebResultLike(Protocol):
    """One web search result (:class:`matjip.providers.tavily.WebResult` is one)."""

    @property
    def title(self) -> str: ...
    @property
    def content(self) -> str: ...
    @property
    def url(self) -> str | None: ...


class WebSearch(Protocol):
    """A web search client for the fallback node (:class:`matjip.providers.tavily.TavilyClient` is one)."""

    def search(self, query: str) -> Sequence[WebResultLike]:
        """Results for ``query``; raises on a provider failure."""
        ...

    def drain(self) -> Sequence[Mapping[str, object]]:
        """Records of the searches made on this thread since the last drain (for the trace)."""
        ...


class LivePlaceLike(Protocol):
    """One place from a live provider (:class:`matjip.providers.places.LivePlace` is one)."""

    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def category(self) -> str: ...
    @property
    def address(self) -> str: ...
    @property
    def lat(self) -> float | None: ...
    @property
    def lon(self) -> float | None: ...
    @property
    def url(self) -> str | None: ...
    @property
    def phone(self) -> str | None: ...
    @property
    def source(self) -> str: ...


class PlaceSearch(Protocol):
    """Live domestic place search (:class:`matjip.providers.places.KakaoLocal` is one); raises on a
    provider failure."""

    source: str

    def keyword(
        self, query: str, lat: float, lon: float, radius_m: int, size: int = 5
    ) -> Sequence[LivePlaceLike]: ...
    def category(
        self, code: str, lat: float, lon: float, radius_m: int, size: int = 5
    ) -> Sequence[LivePlaceLike]: ...


class AbroadSearch(Protocol):
    """Live search of places abroad (:class:`matjip.providers.places.GooglePlaces` is one)."""

    source: str

    def text(self, query: str, size: int = 5) -> Sequence[LivePlaceLike]: ...


class RouteLineLike(Protocol):
    @property
    def points(self) -> list[tuple[float, float]]: ...
    @property
    def source(self) -> str: ...


class LegLike(Protocol):
    @property
    def distance_m(self) -> float | None: ...
    @property
    def duration_s(self) -> float | None: ...


class Routing(Protocol):
    """Road routes and travel times (:mod:`matjip.providers.routing`); raises on a provider failure."""

    source: str

    def route(self, a: tuple[float, float], b: tuple[float, float], mode: str = "car") -> RouteLineLike: ...
    def travel(
        self, origin: tuple[float, float], dests: Sequence[tuple[float, float]], mode: str = "walk"
    ) -> Sequence[LegLike]: ...


@dataclass
class Resources:
    """What nodes read besides the state. Optional providers stay ``None`` offline."""

    index: SearchBackend
    gazetteer: Gazetteer
    nlu: OfflineNLU
    config: AgentConfig = field(default_factory=AgentConfig)
    timezone: str = DEFAULT_TIMEZONE  # the agent service passes settings.timezone
    clock: Callable[[], datetime] | None = None
    conveniences: frozenset[str] = frozenset()
    cuisines: frozenset[str] = frozenset()
    llm: LLMStages | None = None  # the LLM stages, when a provider is configured
    web: WebSearch | None = None  # a web search client (Tavily), when configured
    places: PlaceSearch | None = None  # Kakao Local, when configured (issue 14)
    abroad: AbroadSearch | None = None  # Google Places, when configured
    routing: Routing | None = None  # OSRM or Kakao Mobility, when configured
    coverage: dict[str, bool] = field(default_factory=dict)  # place key -> has restaurants nearby
    covered_area: CoveredArea | None = None  # restaurants per si/gun/gu, counted on first use

    def now(self) -> datetime:
        if self.clock is not None:
            return self.clock()
        return datetime.now(ZoneInfo(self.timezone))


__all__ = [
    "AbroadSearch",
    "AgentConfig",
    "LegLike",
    "LivePlaceLike",
    "PlaceSearch",
    "Resources",
    "RouteLineLike",
    "Routing",
    "WebResultLike",
    "WebSearch",
]
