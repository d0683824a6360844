"""The covered area: the si/gun/gu that hold restaurants, so that a place outside it can be named as
such ("판교 테크노밸리는 아직 식당 데이터가 없어요") instead of searching globally or failing.

Built from restaurant counts per (sido, si/gun/gu) as they appear in addresses - the caller counts
them (from the index or the raw data) with :func:`~matjip.geo.gazetteer.parse_address_region`, or
passes the addresses to :meth:`CoveredArea.from_addresses`. Region level only: a place counts as
covered when its si/gun/gu has at least ``min_count`` restaurants; whether there is a restaurant
within the search radius is a question for the index.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from matjip import wording
from matjip.geo.names import parse_address_region
from matjip.geo.places import Place, PlaceType

DEFAULT_MIN_COUNT = 20
_SIDO_ORDER = {"서울": 0, "경기": 1, "인천": 2}

Region = tuple[str, str]  # (sido, sigungu) as in addresses: ("서울", "송파구"), ("경기", "성남시 수정구")


def _region_key(text: str) -> Region | None:
    sido, sigungu = parse_address_region(text)
    return (sido, sigungu) if sido and sigungu else None


@dataclass(frozen=True)
class CoveredArea:
    """Restaurant counts per region and the rule that makes a region covered (``min_count``)."""

    counts: Mapping[Region, int]
    min_count: int = DEFAULT_MIN_COUNT
    _covered: frozenset[Region] = field(init=False, repr=False, compare=False)
    _by_gu: frozenset[Region] = field(init=False, repr=False, compare=False)  # cities counted by their gu

    def __post_init__(self) -> None:
        covered = frozenset(r for r, n in self.counts.items() if n >= self.min_count)
        object.__setattr__(self, "_covered", covered)
        by_gu = frozenset((sd, sg.split(" ", 1)[0]) for sd, sg in self.counts if " " in sg)
        object.__setattr__(self, "_by_gu", by_gu)

    # ---- construction -----------------------------------------------------------------------

    @classmethod
    def from_counts(
        cls, counts: Mapping[str, int] | Iterable[tuple[str, int]], min_count: int = DEFAULT_MIN_COUNT
    ) -> CoveredArea:
        """From counts keyed by region text: ``{"서울 송파구": 6561, "경기 성남시 수정구": 385}``
        (any sido spelling of addresses works; keys without a si/gun/gu are ignored)."""
        items = counts.items() if isinstance(counts, Mapping) else counts
        merged: Counter[Region] = Counter()
        for text, n in items:
            key = _region_key(text)
            if key is not None:
                merged[key] += int(n)
        return cls(dict(merged), min_count)

    @classmethod
    def from_addresses(cls, addresses: Iterable[str], min_count: int = DEFAULT_MIN_COUNT) -> CoveredArea:
        """From restaurant addresses ("서울 송파구 올림픽로 240", "경기 하남시 위례대로 200")."""
        merged: Counter[Region] = Counter()
        for address in addresses:
            key = _region_key(address or "")
            if key is not None:
                merged[key] += 1
        return cls(dict(merged), min_count)

    # ---- queries ----------------------------------------------------------------------------

    def regions(self) -> list[tuple[str, str, int]]:
        """The covered regions, most restaurants first: ``[("서울", "송파구", 6561), ...]``."""
        return sorted(
            ((sd, sg, self.counts[(sd, sg)]) for sd, sg in self._covered),
            key=lambda r: (-r[2], _SIDO_ORDER.get(r[0], 9), r[1]),
        )

    def covers_region(self, sido: str | None, sigungu: str | None) -> bool | None:
        """Whether a region is covered; ``None`` when the sido is unknown.

        A whole city ("성남시") is covered when one of its gu is; a gu ("성남시 분당구") when it is
        covered itself or its city appears without any gu in the counts. A sido alone is covered when any
        of its regions is."""
        if not sido:
            return None
        if not sigungu:
            return any(sd == sido for sd, _ in self._covered)
        if (sido, sigungu) in self._covered:
            return True
        if " " not in sigungu:  # a whole city split into gu
            return any(sd == sido and sg.startswith(f"{sigungu} ") for sd, sg in self._covered)
        city = sigungu.split(" ", 1)[0]
        if (sido, city) in self._by_gu:
            # a city counted by its gu ("성남시 수정구" covered, "성남시 분당구" with none): the gu decides
            # (audit r10 F1: "성남시 분당구의 다른 동네는 데이터에 있어요" with no restaurant in 분당구)
            return False
        return (sido, city) in self._covered

    def covers(self, place: Place) -> bool | None:
        """Whether a gazetteer place lies in the covered area (by its sido and si/gun/gu);
        ``None`` when the place has no known region."""
        if place.type is PlaceType.SIDO:
            return self.covers_region(place.sido, None)
        if place.sigungu is None:  # only a sido: outside if nothing of that sido is covered
            return None if place.sido is None or self.covers_region(place.sido, None) else False
        return self.covers_region(place.sido, place.sigungu)

    def describe(self, limit: int = 8) -> str:
        """The covered regions in Korean, largest first, grouped by sido:
        ``"서울 송파구·강동구·강남구, 경기 성남시 수정구·하남시"``."""
        districts = self.districts()
        shown = districts[:limit]
        groups: dict[str, list[str]] = {}
        for sido, sigungu, _ in shown:
            groups.setdefault(sido, []).append(sigungu)
        text = ", ".join(f"{sido} {'·'.join(gus)}" for sido, gus in groups.items())
        rest = len(districts) - len(shown)
        return wording.say("location.coverage.more_regions", regions=text, rest=rest) if rest > 0 else text

    def districts(self) -> list[tuple[str, str, int]]:
        """:meth:`regions` without a whole city whose gu are listed too ("성남시" beside
        "성남시 수정구"): each restaurant counted once."""
        regions = self.regions()
        split = {(sd, sg.split(" ", 1)[0]) for sd, sg, _ in regions if " " in sg}
        return [r for r in regions if (r[0], r[1]) not in split]

    def line(self, documents: int, limit: int = 5) -> str:
        """One line for people: the districts with most restaurants and the total,
        ``"식당 11,854곳 · 서울 송파구 6,561곳, 강동구 1,902곳 … 외 12개 지역"``."""
        districts = self.districts()
        shown = districts[:limit]
        parts: list[str] = []
        last_sido = None
        for sido, sigungu, n in shown:
            name = sigungu if sido == last_sido else f"{sido} {sigungu}"
            parts.append(wording.say("location.coverage.district", name=name, n=n))
            last_sido = sido
        rest = len(districts) - len(shown)
        text = (
            wording.say("location.coverage.restaurants_in", documents=documents, districts=", ".join(parts))
            if parts
            else wording.say("location.coverage.restaurants", documents=documents)
        )
        return wording.say("location.coverage.more_districts", line=text, rest=rest) if rest > 0 else text
