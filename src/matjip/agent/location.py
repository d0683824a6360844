"""Location understanding (docs/design.md): GPS vs named place, near vs in-region, ambiguity.

The outcome is a :class:`LocationContext` to push onto the history, a clarification question,
or nothing (no location in the question and none to carry over).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from matjip import wording
from matjip.agent.models import Choice, Clarification, LocationContext
from matjip.geo.landmarks import KIND_LABELS, LandmarkKind
from matjip.text.josa import particle
from matjip.words import word_map, words

if TYPE_CHECKING:
    from matjip.geo.gazetteer import Gazetteer, Place
    from matjip.nlu.models import LocationMode, NLUResult

Covered = Callable[["Place"], bool]

GPS_DEFAULT_RADIUS_M = 700  # "내 주변", "가까운", "여기서": about ten minutes on foot
SAME_PLACE_M = 3000
WALK_M_PER_MIN = 70
DRIVE_M_PER_MIN = 400

_RADIUS_RE = re.compile(
    r"(\d+(?:\.\d+)?)\s*(km|킬로미터|킬로|키로|m|미터)\s*(?:이내|안|반경|내|까지|정도)?", re.I
)
# "가까운", "주변" and "내 위치", "여기" (data/words/location_cues.toml): one alternation each.
_NEARNESS = re.compile("|".join(words("location_cues", "nearness")), re.IGNORECASE)
_ME = re.compile("|".join(words("location_cues", "me")), re.IGNORECASE)
_DONG_SHAPE = re.compile("|".join(words("location_cues", "dong_shape")))
_NOT_DONG: Final = frozenset(words("location_cues", "not_dong"))
_WALK_RE = re.compile(r"걸어서\s*(\d+)\s*분")
_DRIVE_RE = re.compile(r"(?:차로|운전해서|자동차로)\s*(\d+)\s*분")
# Ordinal words, answer endings and region synonyms of an answer (data/words/place_choice.toml).
_ORDINAL_WORDS: Final = {w: int(n) for n, ws in word_map("place_choice", "ordinals").items() for w in ws}
_ORDINAL_RE = re.compile(r"(첫|두|세|네|다섯)\s*(?:번째|번 째|째)|(\d)\s*(?:번째|번)")
_SUFFIXES: Final = words("place_choice", "answer_suffixes")
_REGION_SYNONYMS: Final = {
    name: short for short, names in word_map("place_choice", "region_synonyms").items() for name in names
}


_DONG_TYPES = ("legal_dong", "admin_dong")
_DOCUMENT_DONG_NEAR_M = 5000.0
# a dong's name said after a city, with what may end the word ("관악구 삼성동이요", "고양 오금동에서")
_CITY_DONG_WORD = re.compile(
    r"^([가-힣]{1,4}[0-9]?동)(?:이요|요|이에요|예요|에서|에|쪽|근처|이나|으로|로|은|는|이|가|의)?[?.!~]*$"
)  # a place said beside a dong the documents place: the dong is inside it
_CAPITAL = ("서울", "경기", "인천")
MAX_HOMONYMS = 6


@dataclass
class LocationOutcome:
    context: LocationContext | None = None
    clarification: Clarification | None = None
    carried: bool = False
    unknown_place: str | None = None
    notes: list[str] = field(default_factory=list)
    first_line: str | None = None  # said before the answer: which of same-name places it is about


def place_label(place: Place, name: str | None = None) -> str:
    """A short label telling same-name places apart: "종로구 사직동", "부산 동래구 사직동", "부산 중앙역".
    ``name`` is the name as asked (부산's 사직1동 is said "사직동")."""
    shown = name if name and place.type in _DONG_TYPES else place.name
    if place.type == "subway_station":
        return f"{place.sido} {shown}" if place.sido and place.sido not in _CAPITAL else shown
    if place.sido and place.sido not in _CAPITAL:
        region = " ".join(x for x in (place.sido, place.sigungu if place.type != "sigungu" else None) if x)
    else:
        region = (place.sigungu if place.type != "sigungu" else place.sido) or ""
    return f"{region} {shown}" if region else shown


def _homonym_label(place: Place, name: str | None = None) -> str:
    """:func:`place_label`, a station with its gu and lines: "영등포구 양평역(5호선)", "경기 양평군
    양평역(경의중앙선)" — a station name alone cannot say which of two it is."""
    if place.type != "subway_station":
        label = place_label(place, name)
        # 인천's gu share their names with Seoul's and Busan's (중구, 동구, 서구): the city is said
        return f"{place.sido} {label}" if place.sido == "인천" and place.type != "sido" else label
    region = (
        place.sigungu if place.sido in ("서울",) else " ".join(x for x in (place.sido, place.sigungu) if x)
    )
    lines = f"({'·'.join(place.lines)})" if place.lines else ""
    return f"{region} {place.name}{lines}".strip() if region else f"{place.name}{lines}"


def _family(place: Place) -> str:
    return "dong" if str(place.type) in _DONG_TYPES else str(place.type)


def _homonym_outcome(
    name: str, place: Place, gazetteer: Gazetteer, covered: Covered
) -> tuple[list[Place], Place, str | None]:
    """Same-name places of the same kind elsewhere (사직동: 종로구, 부산 동래구, 광주 남구): ask when
    several have restaurants in the data; otherwise answer about the one that has and say so first."""
    from matjip.geo.distance import haversine_m

    join = wording.text("location.homonym.joiner").join
    place = covered_part(name, place, gazetteer, covered)
    same = [
        covered_part(name, h, gazetteer, covered)
        for h in gazetteer.homonyms(name)
        if _family(h) == _family(place)
        and haversine_m(h.lat, h.lon, place.lat, place.lon) > SAME_PLACE_M
        # the parts of one dong in one gu (성수동1가·2가) are that dong, never its namesakes (audit r10 Q1:
        # "성동구 성수동 기준이에요 — 성동구 성수동은 아직 데이터에 없어요")
        and (h.sido, h.sigungu) != (place.sido, place.sigungu)
    ][:MAX_HOMONYMS]
    if not same:
        return [], place, None
    with_data = [h for h in same if covered(h)]
    if covered(place):
        if with_data:
            return [place, *with_data], place, None
        others = join(dict.fromkeys(_homonym_label(h, name) for h in same))
        return (
            [],
            place,
            wording.say(
                "location.homonym.chosen",
                chosen=_homonym_label(place, name),
                others=others,
                topic=particle(others, "은/는"),
            ),
        )
    if len(with_data) == 1:
        chosen = with_data[0]
        # every namesake without data is named, the best-known first ("인천 중구 신흥동·광주 광산구 …")
        famous = join(dict.fromkeys(_homonym_label(h, name) for h in [place, *same] if not covered(h)))
        note = wording.say(
            "location.homonym.famous_outside",
            famous=famous,
            chosen=_homonym_label(chosen, name),
            topic=particle(famous, "은/는"),
        )
        return [], chosen, note
    if len(with_data) > 1:
        return with_data, with_data[0], None
    return [], place, None


def covered_part(name: str, place: Place, gazetteer: Gazetteer, covered: Covered) -> Place:
    """The part of a dong split in numbered parts (수정구 신흥1·2·3동 for "신흥동") with restaurants
    within its radius: a dong the data reaches only at one part's edge is in the data, answered
    about that part — never "not in the data" because the first part's centre has none."""
    if _family(place) != "dong" or covered(place):
        return place
    said = name.replace(" ", "")
    return next(
        (
            c
            for c in gazetteer.lookup(name)
            if _family(c) == "dong"
            and c.sido == place.sido
            and c.sigungu == place.sigungu
            and (c.name == said or said in c.aliases)
            and covered(c)
        ),
        place,
    )


def explicit_radius_m(text: str) -> int | None:
    """Radius the user asked for: "1km 이내", "500m", "걸어서 10분", "차로 15분"."""
    m = _WALK_RE.search(text)
    if m:
        return int(m.group(1)) * WALK_M_PER_MIN
    m = _DRIVE_RE.search(text)
    if m:
        return int(m.group(1)) * DRIVE_M_PER_MIN
    m = _RADIUS_RE.search(text)
    if m:
        value = float(m.group(1))
        unit = m.group(2).lower()
        return int(value * 1000) if unit in ("km", "킬로미터", "킬로", "키로") else int(value)
    return None


def _context_for(
    place: Place, said: str, mode: LocationMode, radius: int | None, gazetteer: Gazetteer
) -> LocationContext:
    terms = gazetteer.region_terms(place) if mode == "in" else []
    # a place without region terms is searched around; a dong keeps "in" (its radius stands in
    # for the region: road addresses carry no dong)
    in_region = mode == "in" and (bool(terms) or str(place.type) in ("legal_dong", "admin_dong"))
    return LocationContext(
        type="CONTEXTUAL",
        name=said,
        display_name=place.display_name,
        place_type=str(place.type),
        lat=place.lat,
        lon=place.lon,
        mode="in" if in_region else "near",
        radius_m=radius or place.default_radius_m,
        region_terms=terms if in_region else [],
    )


def _ambiguity(
    name: str, candidates: list[Place], gazetteer: Gazetteer, covered: Covered | None, others: list[Place]
) -> tuple[list[Place], Place, str | None]:
    """Return (the candidates to ask about, the place to use when there is nothing to ask, the
    first line of the answer saying which of same-name places it is about).

    Another place in the same question settles it ("신사동 가로수길" → the 신사동 near 가로수길).
    Candidates with restaurants around them (``covered``) are listed first.
    """
    ask, place = _ambiguous_candidates(name, candidates, gazetteer, covered, others)
    if ask or covered is None or others:
        return ask, place, None
    return _homonym_outcome(name, place, gazetteer, covered)


def _ambiguous_candidates(
    name: str, candidates: list[Place], gazetteer: Gazetteer, covered: Covered | None, others: list[Place]
) -> tuple[list[Place], Place]:
    from matjip.geo.distance import haversine_m

    first = candidates[0]
    if len(candidates) == 1:
        return (candidates if gazetteer.homonym_note(name) else []), first
    if not gazetteer.is_ambiguous(name):
        # near places of one name are one place, unless they are dongs of different cities
        split = _dongs_across_borders(name, candidates, covered)
        return (split, split[0]) if split else ([], first)
    # the legal and the administrative 신사동 of 강남구 are one answer, not two
    distinct: list[Place] = []
    for c in candidates:
        if all(haversine_m(c.lat, c.lon, d.lat, d.lon) > SAME_PLACE_M for d in distinct):
            distinct.append(c)
    if len(distinct) == 1:
        return [], first
    near = [c for c in distinct if any(haversine_m(c.lat, c.lon, o.lat, o.lon) < 5000 for o in others)]
    if len(near) == 1:
        return [], near[0]
    if covered is not None:
        with_data = [c for c in distinct if covered(c)]
        dongs = ("legal_dong", "admin_dong")
        one_kind = len(with_data) == 1 and all(
            str(c.type) in dongs
            or (c.type == "subway_station" == with_data[0].type)
            or (str(c.type) == "hot_place" and str(with_data[0].type) in dongs)  # 대전 은행동 (상권): said
            for c in distinct
            if c is not with_data[0]
        )
        if one_kind:
            # "오금동": the 송파 one has restaurants, the 군포 one none; "양평역": the 5호선 one has,
            # the 경의중앙선 one (양평군) none — answered about the one in the data and said so in
            # the first line (a town of the same name is still asked about)
            return [], with_data[0]
        distinct.sort(key=lambda c: not covered(c))
    return distinct, first


def _dongs_across_borders(name: str, candidates: list[Place], covered: Covered | None) -> list[Place]:
    """ "위례동": one dong name said in full, dongs of several si/gun/gu side by side, each with
    restaurants in the data. They are different places however close, so which one is asked (one
    per si/gun/gu, the legal and the administrative dong of one gu being one answer)."""
    if covered is None:
        return []
    said = name.replace(" ", "")
    by_gu: dict[tuple[str, str], Place] = {}
    for c in candidates:
        if str(c.type) in _DONG_TYPES and c.name == said:
            by_gu.setdefault((c.sido or "", c.sigungu or ""), c)
    if len(by_gu) < 2:
        return []
    with_data = [c for c in by_gu.values() if covered(c)]
    return with_data if len(with_data) > 1 else []


def unknown_dong(text: str, gazetteer: Gazetteer, titles: Sequence[str] = ()) -> str | None:
    """The first word shaped like a dong's name ("학암동") that the gazetteer does not know and no
    restaurant name asked holds: a place the user named whose position is unknown."""
    for m in _DONG_SHAPE.finditer(text):
        word = m.group(1)
        if word in _NOT_DONG or any(word in t for t in titles) or gazetteer.lookup(word):
            continue
        return word
    return None


def document_dong(nlu: NLUResult, text: str, gazetteer: Gazetteer) -> LocationOutcome | None:
    """ "학암동 카페", "하남 학암동": a dong the gazetteer has no point for, placed by the restaurants
    of the data that name it (:mod:`matjip.geo.docplaces`), in the city said with it when one is;
    the first line names the city. None when the message names another place or the data does not
    place the dong."""
    dongs = gazetteer.document_dongs
    word = unknown_dong(text, gazetteer, nlu.entities.title)
    if dongs is None or word is None:
        return None
    found = dongs.places(word)
    from matjip.geo.distance import haversine_m

    for p in (p for n in nlu.entities.location for p in gazetteer.lookup(n)[:1]):
        if str(p.type) in ("sigungu", "sido"):  # "하남 학암동": the one of that city
            found = [f for f in found if f.sido == p.sido and (f.sigungu or "").startswith(p.sigungu or "")]
        else:  # "위례 학암동": the dong inside the area said beside it; "잠실역 학암동": neither
            found = [f for f in found if haversine_m(f.lat, f.lon, p.lat, p.lon) <= _DOCUMENT_DONG_NEAR_M]
    if not found:
        return None
    return placed_by_documents(word, found, text, gazetteer)


_PLACE_WORD = re.compile(words("location_cues", "place_word")[0])
_SPAN_WORDS: Final = 3  # "위례 중앙 광장": a name said in up to this many words
_DONG_STEM_CHARS: Final = 3  # "학암": a dong said without 동 is a short word


def document_place(nlu: NLUResult, text: str, gazetteer: Gazetteer) -> LocationOutcome | None:
    """ "위례 중앙광장 근처 쌀국수", "학암 카페": a name the gazetteer does not know, said in one word or a
    few, that the restaurants of the data place — a dong said without 동 whose documents place it
    ("학암" → 학암동), else a name their branch or road words carry ("○○ 위례중앙광장점",
    :meth:`matjip.geo.docplaces.DocumentDongs.named_place`). Never a name the gazetteer knows (the
    longest span the message says is taken, and its last word must be no place of its own), nor one
    inside a restaurant name asked. The first line says where and how the position was found."""
    dongs = gazetteer.document_dongs
    if dongs is None:
        return None
    bare = [m.group(1) if (m := _PLACE_WORD.match(t)) else None for t in text.split()]
    titles = nlu.entities.title
    for size in range(_SPAN_WORDS, 0, -1):
        for i in range(len(bare) - size + 1):
            said = bare[i : i + size]
            if any(w is None for w in said):
                continue
            word = "".join(w for w in said if w)
            last = said[-1] or ""
            if gazetteer.lookup(word) or gazetteer.lookup(last) or any(word in t for t in titles):
                continue
            if nlu.entities.location and not any(w in nlu.entities.location for w in said):
                continue  # beside a place read, only a name that goes on from it ("위례 중앙광장")
            place = dongs.named_place(word)
            if place is not None:
                count = re.search(r"of (\d+) restaurants", place.source)
                first_line = wording.say(
                    "location.homonym.by_branch_names",
                    region=place.region,
                    name=word,
                    count=count.group(1) if count else "?",
                )
                ctx = _context_for(place, word, "near", explicit_radius_m(text), gazetteer)
                return LocationOutcome(ctx, first_line=first_line)
            if (
                size == 1
                and len(word) <= _DONG_STEM_CHARS
                and word in dongs.words
                and not gazetteer.lookup(word + "동")
            ):
                found = dongs.places(word + "동")  # "학암 카페": the dong its documents place
                if found:
                    return placed_by_documents(word + "동", found, text, gazetteer)
    return None


def placed_by_documents(word: str, found: list[Place], text: str, gazetteer: Gazetteer) -> LocationOutcome:
    """The search around the first of the dong's places the documents give, its city named first."""
    place, others = found[0], found[1:]
    chosen = f"{place.sido} {place.sigungu} {word}"
    count = re.search(r"of (\d+) restaurants", place.source)
    kw = {"chosen": chosen, "count": count.group(1) if count else "?"}
    first_line = (
        wording.say(
            "location.homonym.by_documents_others",
            others=wording.text("location.homonym.joiner").join(f"{o.sigungu} {word}" for o in others),
            **kw,
        )
        if others
        else wording.say("location.homonym.by_documents", **kw)
    )
    ctx = _context_for(place, word, "in", explicit_radius_m(text), gazetteer)
    return LocationOutcome(ctx, first_line=first_line)


def city_dong(text: str, gazetteer: Gazetteer) -> tuple[Place, str, list[Place]] | None:
    """ "고양 오금동", "군포 오금동": a city said with a dong name whose first place is in another city
    (송파 오금동). The city, the dong as said, and that city's places of the name: the gazetteer's, or
    those the restaurants of the data give it (:mod:`matjip.geo.docplaces`); often none — never the
    namesake of another city."""
    said = text.split()
    for before, word in itertools.pairwise(said):
        m = _CITY_DONG_WORD.match(word)
        if m is None or m.group(1) in _NOT_DONG:
            continue
        dong = m.group(1)
        city = next((p for p in gazetteer.lookup(before)[:2] if p.type == "sigungu"), None)
        if city is None or not city.sigungu:
            continue
        known = gazetteer.lookup(dong)

        def in_city(p: Place, city: Place = city) -> bool:
            return p.sido == city.sido and (p.sigungu or "").startswith(city.sigungu or "")

        if not known or in_city(known[0]) or str(known[0].type) not in _DONG_TYPES:
            # an unknown dong is document_dong's; that city's dong is the usual lookup; a word that is
            # first a gu or a city ("송파 강동 아무데나": 강동구) is no dong of the city before it
            continue
        placed = [p for p in known if in_city(p)]
        dongs = gazetteer.document_dongs
        if not placed and dongs is not None:
            placed = [p for p in dongs.places(dong) if in_city(p)]
        return city, dong, placed
    return None


def city_dong_context(place: Place, said: str, text: str, gazetteer: Gazetteer) -> LocationContext:
    """The search in the dong of the city said ("군포 오금동")."""
    return _context_for(place, said, "in", explicit_radius_m(text), gazetteer)


def resolve(
    nlu: NLUResult,
    text: str,
    gps: tuple[float, float] | None,
    history: list[LocationContext],
    gazetteer: Gazetteer,
    covered: Covered | None = None,
) -> LocationOutcome:
    radius = explicit_radius_m(text)
    # a device location sent with a question about nearness and no named place: "가까운 중국집",
    # "여기서 걸어갈 만한 초밥집" (without a device location these stay as they were)
    near_me = gps is not None and not nlu.entities.location and bool(_NEARNESS.search(text))
    if nlu.user_location or near_me:
        return _around_me(text, gps, history, radius)
    names = list(nlu.entities.location)
    if names:
        return _named(names, nlu, text, radius, gazetteer, covered)
    if history and (nlu.followup_place or nlu.intent == "search"):
        last = history[-1]
        if last.status == "resolved":
            ctx = last.model_copy(update={"radius_m": radius or last.radius_m}) if radius else last
            return LocationOutcome(ctx, carried=True)
    return LocationOutcome()


def _around_me(
    text: str, gps: tuple[float, float] | None, history: list[LocationContext], radius: int | None
) -> LocationOutcome:
    """ "내 주변", "가까운": the device location, the last one sent, the last place, or a question."""
    if gps is not None:
        return LocationOutcome(
            LocationContext(
                type="GPS",
                name=wording.text("location.gps.name"),
                lat=gps[0],
                lon=gps[1],
                radius_m=radius or GPS_DEFAULT_RADIUS_M,
            )
        )
    last_gps = next((h for h in reversed(history) if h.type == "GPS"), None)
    if last_gps is not None:
        return LocationOutcome(
            last_gps.model_copy(update={"radius_m": radius or last_gps.radius_m}), carried=True
        )
    if history and history[-1].status == "resolved" and not _ME.search(text):
        # "근처 빵집도" after a search around 문정역: that place, not the device's
        return LocationOutcome(history[-1], carried=True)
    return LocationOutcome(
        clarification=Clarification(
            kind="gps",
            question=wording.text("location.gps.unknown"),
            pending_query=text,
        )
    )


def _main_first(names: list[str], gazetteer: Gazetteer) -> list[str]:
    """The place names, the one the search is about first: "성남 위례 치킨" is about the narrower
    place inside the city."""
    said = names[0]
    broad = ("sigungu", "sido")  # PlaceType values
    first = gazetteer.best(said)
    for later in names[1:]:
        # "잠실역 송리단길", "합정역 망원시장": a street, market or park said beside the station or dong it
        # lies by is the place asked, the station only where it is (audit r14 Q8: 송리단길 dropped silently)
        p = gazetteer.best(later)
        if first is not None and p is not None and _narrows(first, p):
            return [later, said, *[n for n in names[1:] if n != later]]
    gu = next((c for c in gazetteer.lookup(said)[:2] if c.type == "sigungu"), None)
    if first is not None and first.type not in broad and gu is not None:
        # "강남 신사동": 강남 is 강남역 by itself, but beside a dong of 강남구 it is the gu
        for later in names[1:]:
            if any(
                str(c.type) in _DONG_TYPES and c.sido == gu.sido and c.sigungu == gu.sigungu
                for c in gazetteer.lookup(later)
            ):
                return [later, said, *[n for n in names[1:] if n != later]]
    if first is not None and first.type in broad:
        for later in names[1:]:
            p = gazetteer.best(later)
            inside = first.type == "sigungu" and any(  # "송파 오금동": 군포's namesake is not meant
                c.sido == first.sido and (c.sigungu or "").startswith(first.sigungu or "-")
                for c in gazetteer.lookup(later)
            )
            if p is not None and p.type not in broad and (inside or not gazetteer.is_ambiguous(later)):
                return [later, said, *[n for n in names[1:] if n != later]]
    return names


_NARROWED = ("subway_station", *_DONG_TYPES)  # places a landmark beside them narrows
_NARROWING = ("landmark", "hot_place")  # a street, a market, a park, a food alley
# ... of these kinds only: a mall or a building beside its station ("장지역 가든파이브 쪽") is how one
# points at the station's exit, the station stays the place (dialogue_test8 eb089)
_NARROWING_KINDS = frozenset(
    KIND_LABELS[k]
    for k in (LandmarkKind.STREET, LandmarkKind.MARKET, LandmarkKind.PARK, LandmarkKind.FOOD_ALLEY)
)


def _narrows(first: Place, later: Place) -> bool:
    """``later`` is a street, market, park or food alley (or a hot place) lying within ``first``'s (a
    station's or a dong's) own radius; beside a dong, any landmark within it."""
    from matjip.geo.distance import haversine_m

    if str(first.type) not in _NARROWED or str(later.type) not in _NARROWING:
        return False
    if (
        str(later.type) == "landmark"
        and later.category not in _NARROWING_KINDS
        and str(first.type) not in _DONG_TYPES
    ):
        # a hospital, a mall or a building said beside its dong ("풍납동 아산병원 앞") is the point asked —
        # a dong is an area, not an exit to point at (audit r15 Q1: the hospital dropped silently)
        return False
    return haversine_m(first.lat, first.lon, later.lat, later.lon) <= first.default_radius_m


def _named(
    names: list[str],
    nlu: NLUResult,
    text: str,
    radius: int | None,
    gazetteer: Gazetteer,
    covered: Covered | None,
) -> LocationOutcome:
    """A named place: its context, or a question which of same-name places is meant."""
    names = _main_first(_without_bare_words(names, gazetteer, covered), gazetteer)
    said = names[0]
    notes = [wording.say("location.notes.several_places", name=said)] if len(names) > 1 else []
    candidates = gazetteer.lookup(said)
    if not candidates:
        return LocationOutcome(unknown_place=said)
    others = [p for n in names[1:] for p in gazetteer.lookup(n)[:1] if not gazetteer.is_ambiguous(n)]
    ask, place, first_line = _ambiguity(said, candidates, gazetteer, covered, others)
    dongs_only = all(str(c.type) in _DONG_TYPES for c in ask)
    if ask and dongs_only and covered is not None and not any(covered(c) for c in ask):
        # "중앙동", "신정동": none of the namesakes has restaurants — the answer says so, never asks which
        # (any choice would be answered "not in the data"; dialogue_test15 ej006, dialogue_test16 ek008)
        ask = []
    same_label = place_label(place, said) == place_label(candidates[0], said)  # parts of one dong (성수동)
    if not ask and place is not candidates[0] and not others and first_line is None and not same_label:
        first_line = wording.say(
            "location.homonym.chosen",
            chosen=place_label(place, said),
            others=place_label(candidates[0], said),
            topic=particle(place_label(candidates[0], said), "은/는"),
        )
    if ask:
        return LocationOutcome(clarification=_which_place(said, ask, text, gazetteer, covered))
    mode: LocationMode = "in" if nlu.location_mode == "in" else "near"
    at = text.find(said)
    if str(candidates[0].type) not in _DONG_TYPES and str(place.type) in _DONG_TYPES and said.endswith("동"):
        # "은행동 밥": the namesake read first (대전's 상권) is not the dong answered about (성남's): in the dong,
        # as a dong said is ("문정동 국밥"), unless a nearness word follows
        mode = "near" if at >= 0 and _AROUND_AFTER.match(text[at + len(said) :]) else "in"
    dong = _dong_said(said, place, candidates, text)
    if dong is not None:
        # "연남동 쌀국수": in the dong, not around the 연남동 hot place (within the hot place's radius: a
        # dong without an outline is searched around its centre)
        radius = radius or min(place.default_radius_m, dong.default_radius_m)
        place, mode = dong, "in"
    return LocationOutcome(
        _context_for(place, said, mode, radius, gazetteer), notes=notes, first_line=first_line
    )


_AROUND_AFTER: Final = re.compile(r"^\s*(?:" + "|".join(words("location_cues", "around_after")) + ")")


def _without_bare_words(names: list[str], gazetteer: Gazetteer, covered: Covered | None) -> list[str]:
    """ "칼국수 사리 넣어먹는 집 강동역 근처": beside a place the data covers, a word that reaches a place
    only with a suffix added ("사리" → 사리역 in 안산) and none of them covered is a word of the
    message (a food, a thing), not a second place."""
    if covered is None or len(names) < 2:
        return names

    regions = [p for n in names for p in gazetteer.lookup(n)[:1] if p.type in ("sigungu", "sido")]

    def inside_said_region(place: Place) -> bool:
        # "하남 미사 브런치": 미사 (미사역, 미사1동) lies in the city said beside it — a place, not a word
        return any(r is not place and _within(r, place, gazetteer) for r in regions)

    def bare_outside(name: str) -> bool:
        found = gazetteer.lookup(name)
        said = name.replace(" ", "")
        return bool(found) and all(
            not covered(c) and c.name != said and c.name.startswith(said) and not inside_said_region(c)
            for c in found
        )

    kept = [n for n in names if not bare_outside(n)]
    return kept if kept and any(covered(c) for n in kept for c in gazetteer.lookup(n)[:1]) else names


def _within(region: Place, place: Place, gazetteer: Gazetteer) -> bool:
    """``place`` lies in the si/gun/gu or sido ``region``: by its outline where there is one (Seoul), else
    by the names the gazetteer files the place under."""
    inside = gazetteer.contains_point(region, place.lat, place.lon)
    if inside is not None:
        return inside
    if region.type == "sido":
        return bool(region.sido) and place.sido == region.sido
    return bool(region.sigungu and place.sigungu and place.sigungu.startswith(region.sigungu))


def _dong_said(said: str, place: Place, candidates: list[Place], text: str) -> Place | None:
    """A name said with its 동 that is both a hot place and a dong ("연남동 쌀국수 집"): a local means the
    dong, searched in it, unless a nearness word follows the name ("연남동 쪽", "연남동 근처")."""
    if str(place.type) != "hot_place" or not said.endswith("동"):
        return None
    at = text.find(said)
    if at >= 0 and _AROUND_AFTER.match(text[at + len(said) :]):
        return None
    return next(
        (c for c in candidates if str(c.type) in _DONG_TYPES and c.name == said and _close(c, place)), None
    )


def _close(a: Place, b: Place, within_deg: float = 0.02) -> bool:
    """The same neighbourhood: centres within about 2 km."""
    return abs(a.lat - b.lat) < within_deg and abs(a.lon - b.lon) < within_deg


def _which_place(
    said: str, ask: list[Place], text: str, gazetteer: Gazetteer, covered: Covered | None
) -> Clarification:
    """The question which of the places called ``said`` is meant, with up to six choices."""
    choices = [Choice(index=i + 1, label=c.display_name, lat=c.lat, lon=c.lon) for i, c in enumerate(ask[:6])]
    note = gazetteer.homonym_note(said)
    in_data = [place_label(c, said) for c in ask[:6] if covered is not None and covered(c)]
    joiner = wording.text("location.homonym.joiner")
    question = (
        wording.say("location.homonym.ask_one", note=note)
        if note and len(choices) == 1
        else wording.say(
            "location.homonym.ask", name=said, in_data=joiner.join(in_data), subject=particle(said, "이/가")
        )
        if in_data and len(in_data) < len(choices)
        # "중앙동": none of them has restaurants, and the question says so
        else wording.say("location.homonym.ask_none", name=said, subject=particle(said, "이/가"))
        if covered is not None and not in_data
        else wording.say("location.homonym.ask_plain", name=said, subject=particle(said, "이/가"))
    )
    return Clarification(kind="place", name=said, question=question, choices=choices, pending_query=text)


def _strip_suffix(word: str) -> str:
    for s in _SUFFIXES:
        if word.endswith(s) and len(word) > len(s):
            return word[: -len(s)]
    return word


def pick_choice(text: str, clarification: Clarification) -> Choice | None:
    """Resolve the user's answer to a clarification ("두 번째", "2", "경기도 쪽이요", "5호선")."""
    choices = clarification.choices
    if not choices:
        return None
    stripped = text.strip()
    if len(choices) == 1 and re.match(r"^(네|예|응|맞아|맞아요|그래|그거|거기|ㅇㅇ)", stripped):
        return choices[0]
    if stripped.isdigit():
        n = int(stripped)
        return choices[n - 1] if 1 <= n <= len(choices) else None
    m = _ORDINAL_RE.search(stripped)
    if m:
        n = _ORDINAL_WORDS.get(m.group(1), 0) if m.group(1) else int(m.group(2))
        if "마지막" in stripped:
            n = len(choices)
        return choices[n - 1] if 1 <= n <= len(choices) else None
    if "마지막" in stripped:
        return choices[-1]
    words = [_strip_suffix(w) for w in re.split(r"[\s,.!?]+", stripped) if w]
    words = [_REGION_SYNONYMS.get(w, w) for w in words]
    best: list[Choice] = []
    best_score = 0
    for c in choices:
        score = sum(len(w) for w in words if len(w) >= 2 and w in c.label)
        if score > best_score:
            best, best_score = [c], score
        elif score == best_score and score > 0:
            best.append(c)
    return best[0] if len(best) == 1 else None


def choice_context(
    choice: Choice, clarification: Clarification, gazetteer: Gazetteer, text: str, mode: LocationMode = "near"
) -> LocationContext:
    """The location context for a chosen candidate. A dong keeps the mode the question said it
    with and is named with its si/gun/gu ("하남시 위례동"), so the answer says which one it is."""
    for place in gazetteer.lookup(clarification.name or ""):
        if place.display_name == choice.label:
            said = clarification.name or place.name
            dong = str(place.type) in _DONG_TYPES
            return _context_for(
                place,
                place_label(place, said) if dong else said,
                mode if dong else "near",
                explicit_radius_m(text),
                gazetteer,
            )
    return LocationContext(
        type="CONTEXTUAL",
        name=clarification.name,
        display_name=choice.label,
        lat=choice.lat,
        lon=choice.lon,
        radius_m=1000,
    )
