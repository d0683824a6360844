"""What the data covers, said plainly: a place outside it gets "not in the data yet" instead of
unrelated results from elsewhere.

Everything follows the indexed documents: a gazetteer place (the gazetteer is national) around which
the index holds no restaurant gets the honest answer (판교역, 대구 동성로), and after ``collect`` +
``ingest`` of an area its names are searched like any other. ``data/gazetteer/outside.txt`` lists
names that must never be read as a menu word (부산, 시부야 …); a name of that list counts as outside
only while the index holds no restaurant for it (``covered``). The covered area is described from
the index itself (restaurants per si/gun/gu), so the sentence stays true when the data changes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Final

from pydantic import BaseModel

from matjip.agent.configuration import Resources
from matjip.agent.models import LocationContext
from matjip.geo.coverage import CoveredArea
from matjip.geo.gazetteer import PlaceType
from matjip.index.request import RegionFilter, SearchRequest
from matjip.wording import say
from matjip.words import words

OUTSIDE_FILE = Path(__file__).resolve().parents[1] / "data" / "gazetteer" / "outside.txt"
_PARTICLES: Final = words("coverage", "place_endings")
_NAME_ENDS: Final = words("coverage", "place_name_ends")


@cache
def outside_names() -> frozenset[str]:
    lines = OUTSIDE_FILE.read_text(encoding="utf-8").splitlines()
    return frozenset(line.split("#", 1)[0].strip() for line in lines if line.split("#", 1)[0].strip())


def _outside_word(token: str, names: frozenset[str]) -> str | None:
    """``token`` (or it without one or two particles) when it is an out-of-area name."""
    t = token
    for _ in range(2):
        if t in names:
            return t
        for p in _PARTICLES:
            if t.endswith(p) and len(t) > len(p):
                t = t[: -len(p)]
                break
    return t if t in names else None


def _own_place_name(token: str) -> str | None:
    """``token`` without one particle when it ends as a place's own name does ("한옥마을에서" → 한옥마을)."""
    t = next((token[: -len(p)] for p in _PARTICLES if token.endswith(p) and len(token) > len(p) + 1), token)
    for word in (token, t):
        if any(word.endswith(e) and len(word) > len(e) for e in _NAME_ENDS):
            return word
    return None


def outside_place(text: str, covered: Callable[[str], bool] | None = None) -> str | None:
    """The first out-of-area place name standing as a word of ``text``, with the out-of-area names
    right after it ("대구 동성로 막창" → "대구 동성로": the place as the user narrowed it); names for
    which ``covered`` says the index holds restaurants are not outside (a collected 부산)."""
    names = outside_names()
    said: list[str] = []
    for token in re.findall(r"[^\s,.!?~]+", text):
        found = _outside_word(token, names)
        if found is None and said and (own := _own_place_name(token)) is not None:
            said.append(own)  # "전주 한옥마을": the place inside the city, as the user narrowed it
            break
        if found is None or (covered is not None and covered(found)):
            if said:
                break
            continue
        said.append(found)
    return " ".join(said) if said else None


def address_region(name: str, text: str, res: Resources) -> LocationContext | None:
    """A place the gazetteer calls outside the data ("제주") that the crawl does cover: the documents
    whose address names it, as an in-region search on addresses (issue 12: a user's own Jeju crawl).
    The word as written is tried first ("제주시에" → 제주시), then the name; None when no address has it."""
    written = [
        t
        for token in re.findall(r"[^\s,.!?~]+", text)
        if token.startswith(name)
        for t in (token, *(token[: -len(p)] for p in _PARTICLES if token.endswith(p) and len(token) > len(p)))
    ]
    for term in dict.fromkeys([*sorted(written, key=len), name]):
        if len(term) < 2 or not term.startswith(name):
            continue
        resp = res.index.search(SearchRequest(region=RegionFilter(name=term, terms=[term]), k=1))
        if resp.total_candidates:
            return LocationContext(
                type="CONTEXTUAL",
                name=term,
                display_name=say("answer.coverage.by_address", term=term),
                mode="in",
                region_terms=[term],
            )
    return None


def covered_area(res: Resources) -> CoveredArea:
    """Restaurants per si/gun/gu of the gazetteer, counted in the index (once per resources)."""
    if res.covered_area is None:
        counts: dict[str, int] = {}
        # the gazetteer is national: only the sido whose name some address carries are gone through
        present = set()
        for place in res.gazetteer:
            if place.type is PlaceType.SIDO and place.sido:
                terms = [place.sido, place.name, *place.aliases]  # 전북, 전라북도, 전북특별자치도
                resp = res.index.search(SearchRequest(region=RegionFilter(name=place.name, terms=terms), k=1))
                if resp.total_candidates:
                    present.add(place.sido)
        for place in res.gazetteer:
            if place.type is PlaceType.SIGUNGU and place.sido in present and place.sigungu:
                # the gazetteer's address terms: "부산 중구" and "서울 중구" are told apart
                terms = res.gazetteer.region_terms(place) or [place.sigungu.split(" ")[-1]]
                resp = res.index.search(
                    SearchRequest(region=RegionFilter(name=place.sigungu, terms=terms), k=1)
                )
                counts[f"{place.sido} {place.sigungu}"] = resp.total_candidates
        res.covered_area = CoveredArea.from_counts(counts)
    return res.covered_area


class CoverageSummary(BaseModel):
    documents: int
    regions: list[tuple[str, str, int]]  # (sido, sigungu, restaurants), most first
    line: str


def coverage_summary(res: Resources, limit: int = 5) -> CoverageSummary:
    """What the data covers, for the empty page: the districts with most restaurants."""
    area = covered_area(res)
    documents = res.index.count()
    return CoverageSummary(documents=documents, regions=area.districts(), line=area.line(documents, limit))


_POINT_TYPES: Final = frozenset({PlaceType.SIDO, PlaceType.SIGUNGU})


def not_covered_answer(name: str, res: Resources) -> list[str]:
    """ "'애오개역' 쪽은 아직 식당 데이터에 없어요": when the place's own district is covered (a station of
    마포구 with no restaurant within its radius), the answer says the district holds data but not around
    that place — never a list of covered districts that names its own as if it answered it."""
    covered = covered_area(res)
    place = res.gazetteer.best(name)
    if place is not None and place.type not in _POINT_TYPES and place.sigungu and covered.covers(place):
        radius = int(place.default_radius_m or 1000)
        around = f"{radius / 1000:g}km" if radius >= 1000 else f"{radius}m"
        district = place.sigungu
        return [
            say("answer.coverage.not_around", name=name, radius=around) + "\n",
            say("answer.coverage.district_elsewhere", district=district) + "\n",
        ]
    area = covered.describe(limit=6)
    return [
        say("answer.coverage.not_covered", name=name) + "\n",
        say("answer.coverage.covered", area=area) + "\n",
    ]
