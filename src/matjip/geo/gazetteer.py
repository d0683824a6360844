"""The gazetteer: place names of Korea, their coordinates, regions and outlines.

National since issue 22: every admin dong, KRIC station, si/gun/gu and sido of Korea, and the
well-known hot places of the big cities; the capital area (서울·경기·인천) is described in more
detail (legal dongs with outlines, hot places, landmarks, curated aliases). Which places the
restaurant data covers is *not* the gazetteer's business: the agent asks the index
(:mod:`matjip.agent.coverage`), so a collected and ingested area is covered without a change here.

The package is layered one way: :mod:`~matjip.geo.shapes` (outlines), :mod:`~matjip.geo.places`
(the :class:`Place` model, types and radii), :mod:`~matjip.geo.names` (how names and addresses are
written), :mod:`~matjip.geo.sources` (the data files, read), :mod:`~matjip.geo.build` (places from
the sources), :mod:`~matjip.geo.mentions` (names in free text) and this module, the
:class:`Gazetteer` over them. Everything is loaded once per process (:meth:`Gazetteer.load` is
cached; about 5,400 places, 0.4-0.9 s the first time, against 0.2-0.6 s for the capital alone).

Region ("in 강남구") searches
    Restaurant addresses look like ``"서울 강동구 올림픽로100길 6"``: road addresses name the sido
    and sigungu but never the dong. :meth:`Gazetteer.region_terms` therefore returns address terms
    only for sido and sigungu; for dongs it returns nothing unless asked for jibun-address terms
    (``include_dong=True``), and an exact "in 역삼동" search needs :meth:`Gazetteer.contains_point`
    or a radius fallback. Outlines exist for Seoul only: 서울특별시, its 25 gu and 467 legal dongs
    (juso.go.kr 2015). Gyeonggi/Incheon si/gun/gu have no usable outline (the packaged KOSTAT 2013
    one is generalised: 성남시 has 36 vertices and misses 위례), and admin dongs have centroids
    only; there ``contains_point`` returns ``None`` and region search relies on the address.

Ambiguity (:meth:`Gazetteer.is_ambiguous`): the equally ranked top candidates are more than 5 km
apart (양평역, 송정동, 신사동, 중구, 법조타운, 북구, 고성), unless a curated alias decides; a bare name that
usually means another place (광주 -> 광주광역시, see :data:`OUT_OF_AREA_HOMONYMS`) is ambiguous too. A
station, dong or si/gun/gu of another city does not make a name ambiguous when a capital-area place or a
well-known place (hot place, sido) carries it, as a Korean user means 서울 시청역, 종로구 사직동, 서울
강서구 and 부산 서면 (not 경주 서면): :meth:`Gazetteer.homonyms` lists those namesakes so that the agent can
say which one the answer is about, or ask when the data has restaurants around several of them.

Mentions (:meth:`Gazetteer.find_in_text`, :mod:`matjip.geo.mentions`): longest match over every name
and alias, starting at a word start; two-letter names must end the word or be followed by a particle.

Lookup (:meth:`Gazetteer.lookup`) returns every candidate, best first. Ranking tiers: a curated
colloquial alias (the ``*_alias`` rows of ``landmarks.tsv``: "홍대" -> 홍대입구역, "새내" ->
잠실새내역), then an exact official name, then a data alias or derived alias ("강남" -> 강남구,
"성수동" -> 성수1가1동, "올공" -> 올림픽공원), then query expansions ("성수" + 동/역/구/시/군, or
"홍대역" minus its suffix). Within a tier: sigungu, sido, station, hot place, landmark, legal dong,
admin dong; then Seoul before Gyeonggi before Incheon before the rest of the country.
"""

from __future__ import annotations

import threading
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from matjip import wording
from matjip.geo.build import build_places
from matjip.geo.distance import haversine_m, haversine_m_array
from matjip.geo.docplaces import DocumentDongs
from matjip.geo.landmarks import ALIAS_TARGET_MAX_M, LandmarkKind, LandmarkRow
from matjip.geo.mentions import TEXT_STOPWORDS, MentionFinder, text_keys
from matjip.geo.names import (
    CAPITAL_SIDO,
    SIDO_FULL,
    SIDO_SHORT,
    address_in_region,
    collective_dong,
    normalize,
    parse_address_region,
    strip_parens,
)
from matjip.geo.places import (
    TIER_ALIAS,
    TIER_CURATED,
    TIER_EXPANDED,
    TIER_NAME,
    TYPE_LABELS,
    Candidate,
    Place,
    PlaceType,
)
from matjip.geo.shapes import BoolArray, Shape
from matjip.geo.sources import data_root, read_sources
from matjip.words import word_map, words

__all__ = [
    "CAPITAL_SIDO",
    "OUT_OF_AREA_HOMONYMS",
    "TEXT_STOPWORDS",
    "TYPE_LABELS",
    "Candidate",
    "Gazetteer",
    "Place",
    "PlaceType",
    "Shape",
    "contains_point",
    "find_in_text",
    "get_gazetteer",
    "install_gazetteer",
    "normalize",
    "parse_address_region",
    "region_terms",
]

AMBIGUITY_DISTANCE_M = 5000.0
HOMONYM_SAME_PLACE_M = 3000.0

# Curated colloquial names ("홍대" -> 홍대입구역) are the *_alias rows of data/gazetteer/landmarks.tsv;
# each targets places of these types.
_ALIAS_TARGETS: dict[LandmarkKind, frozenset[PlaceType]] = {
    LandmarkKind.STATION_ALIAS: frozenset({PlaceType.SUBWAY_STATION}),
    LandmarkKind.HOT_PLACE_ALIAS: frozenset({PlaceType.HOT_PLACE}),
    LandmarkKind.DISTRICT_ALIAS: frozenset(
        {PlaceType.SIDO, PlaceType.SIGUNGU, PlaceType.LEGAL_DONG, PlaceType.ADMIN_DONG}
    ),
}

# Names that, said bare, probably mean a place outside the covered area (Seoul/Gyeonggi/Incheon).
OUT_OF_AREA_HOMONYMS: Final[dict[str, str]] = {
    name: other for name, (other,) in word_map("gazetteer", "out_of_area_homonyms").items()
}

_SECONDARY_TYPES: frozenset[PlaceType] = frozenset(
    {PlaceType.SUBWAY_STATION, PlaceType.ADMIN_DONG, PlaceType.LEGAL_DONG, PlaceType.SIGUNGU}
)


def _secondary(place: Place) -> bool:
    """A station, dong or si/gun/gu outside the capital area: a namesake people rarely mean when
    the capital area or a well-known place (a hot place, a sido) has the same name."""
    return place.sido not in CAPITAL_SIDO and place.type in _SECONDARY_TYPES


_REGION_RANK = {"서울": 0, "경기": 1, "인천": 2}
_TYPE_RANK: dict[PlaceType, int] = {
    PlaceType.SIGUNGU: 0,
    PlaceType.SIDO: 1,
    PlaceType.SUBWAY_STATION: 2,
    PlaceType.HOT_PLACE: 3,
    PlaceType.LANDMARK: 4,
    PlaceType.LEGAL_DONG: 5,
    PlaceType.ADMIN_DONG: 6,
}
_EXPAND_SUFFIXES: Final = words("gazetteer", "expand_suffixes")
# a landmark eaten inside ("롯데월드몰 안에"): its road address
_BUILDING_ADDRESSES: Final = word_map("gazetteer", "building_addresses")


class Gazetteer:
    """All places, a name index, a text matcher and the outlines. Build with :meth:`load`.

    ``aliases`` are the curated alias rows of ``landmarks.tsv`` (other rows are ignored): each row's
    aliases go to the place of its target type named ``row.name`` nearest to the row's point (within
    1 km); rows that find no such place are listed in :attr:`unresolved_curated`.
    """

    def __init__(
        self,
        places: Sequence[Place],
        shapes: dict[str, Shape] | None = None,
        aliases: Sequence[LandmarkRow] = (),
    ) -> None:
        self.places: tuple[Place, ...] = tuple(places)
        self._by_key: dict[str, int] = {p.key: i for i, p in enumerate(self.places)}
        if len(self._by_key) != len(self.places):
            raise ValueError("place keys must be unique")
        self._shapes: dict[str, Shape] = dict(shapes or {})
        self._lat = np.array([p.lat for p in self.places], dtype=np.float64)
        self._lon = np.array([p.lon for p in self.places], dtype=np.float64)
        self._index: dict[str, dict[int, tuple[int, int]]] = defaultdict(dict)
        self._index_names()
        self.unresolved_curated: list[str] = self._add_curated(aliases)
        # dongs placed by the restaurants of the data (set where the documents are read: the agent's cache)
        self.document_dongs: DocumentDongs | None = None
        self._mentions = MentionFinder(text_keys(self._index, self.places))
        self._sigungu_names = {p.sigungu for p in self.places if p.type is PlaceType.SIGUNGU and p.sigungu}
        self._sigungu_count: dict[str, int] = defaultdict(int)
        for p in self.places:
            if p.type is PlaceType.SIGUNGU and p.sigungu:
                self._sigungu_count[p.sigungu] += 1

    def _index_names(self) -> None:
        """Every official name and alias (also without its parenthesis) under its lookup key."""
        for i, p in enumerate(self.places):
            self._add(p.name, i, TIER_NAME)
            plain = strip_parens(p.name)
            if plain != p.name:
                self._add(plain, i, TIER_NAME)
            for a in p.aliases:
                self._add(a, i, TIER_ALIAS)
                if strip_parens(a) != a:
                    self._add(strip_parens(a), i, TIER_ALIAS)

    def _add_curated(self, aliases: Sequence[LandmarkRow]) -> list[str]:
        """Index the curated alias rows; return the rows that name no place."""
        unresolved: list[str] = []
        resolved = [(row, self._alias_target(row)) for row in aliases if row.kind.is_alias]
        for row, target in resolved:  # all targets first: a curated alias may equal a target's name
            if target is None:
                unresolved.append(
                    f"line {row.line}: {','.join(row.aliases)} -> {row.name} ({row.kind}): no such place "
                    f"within {ALIAS_TARGET_MAX_M:.0f} m of {row.lat}, {row.lon}"
                )
                continue
            for alias in row.aliases:
                # When an alias names several places (성수 -> 성수역, 성수카페거리, 성수동) the type order
                # of _rank decides: sigungu, sido, station, hot place, landmark, dong.
                self._add(alias, target, TIER_CURATED)
        return unresolved

    def _alias_target(self, row: LandmarkRow) -> int | None:
        """The place an alias row names: its type, its exact name, nearest to the row's point."""
        wanted = _ALIAS_TARGETS[row.kind]
        best: tuple[float, int] | None = None
        for i, (tier, _) in self._index.get(normalize(row.name), {}).items():
            p = self.places[i]
            if tier != TIER_NAME or p.type not in wanted:
                continue
            d = haversine_m(row.lat, row.lon, p.lat, p.lon)
            if d <= ALIAS_TARGET_MAX_M and (best is None or d < best[0]):
                best = (d, i)
        return None if best is None else best[1]

    def _add(self, text: str, idx: int, tier: int, order: int = 0) -> None:
        key = normalize(text)
        if len(key) < 2:
            return
        bucket = self._index[key]
        old = bucket.get(idx)
        if old is None or (tier, order) < old:
            bucket[idx] = (tier, order)

    # ---- loading ---------------------------------------------------------------------------

    @classmethod
    def load(cls, data_dir: Path | None = None) -> Gazetteer:
        """The gazetteer from the package data (cached per process), or from ``data_dir``."""
        if data_dir is None:
            return _default_gazetteer()
        return cls._from_files(Path(data_dir))

    @classmethod
    def _from_files(cls, root: Path) -> Gazetteer:
        sources = read_sources(root)
        places, shapes = build_places(sources)
        return cls(places, shapes, aliases=sources.landmarks)

    # ---- access ----------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.places)

    def __iter__(self) -> Iterator[Place]:
        return iter(self.places)

    def get(self, key: str) -> Place | None:
        i = self._by_key.get(key)
        return None if i is None else self.places[i]

    # ---- lookup ----------------------------------------------------------------------------

    def _core(self, key: str) -> dict[int, tuple[int, int, str]]:
        """Hits for a normalized name without qualifiers: idx -> (tier, order, matched key)."""
        hits: dict[int, tuple[int, int, str]] = {}

        def merge(k: str, tier_floor: int | None = None) -> None:
            for i, (tier, order) in self._index.get(k, {}).items():
                t = max(tier, tier_floor) if tier_floor is not None else tier
                o = order if tier_floor is None else 0
                if i not in hits or (t, o) < hits[i][:2]:
                    hits[i] = (t, o, k)

        merge(key)
        if not key.endswith(_EXPAND_SUFFIXES) or len(key) <= 2:
            for suffix in _EXPAND_SUFFIXES:
                merge(key + suffix, TIER_EXPANDED)
        if (
            key.endswith(_EXPAND_SUFFIXES)
            and len(key) >= 3
            and not any(t <= TIER_ALIAS for t, _, _ in hits.values())
        ):
            merge(key[:-1], TIER_EXPANDED)
        return hits

    def _qualifier_ok(self, place: Place, qualifier: str) -> bool:
        q = normalize(qualifier)
        if q in SIDO_SHORT:
            return place.sido == SIDO_SHORT[q]
        if not place.sigungu:
            return False
        parts = {normalize(x) for x in place.sigungu.split()} | {normalize(place.sigungu)}
        return q in parts or any(q + s in parts for s in ("시", "구", "군"))

    def _is_qualifier(self, token: str) -> bool:
        q = normalize(token)
        if q in SIDO_SHORT:
            return True
        for name in self._sigungu_names:
            parts = {normalize(x) for x in name.split()} | {normalize(name)}
            if q in parts or any(q + s in parts for s in ("시", "구", "군")):
                return True
        return False

    def candidates(self, name: str) -> list[Candidate]:
        """All candidates for ``name`` with how they matched, best first."""
        text = " ".join(unicodedata.normalize("NFC", name).split())
        key = normalize(text)
        if len(key) < 2:
            return []
        hits = self._core(key)
        tokens = text.split()
        # Leading words naming a sido or sigungu narrow the rest: "서울 양평역", "경기 광주",
        # "영등포구 양평역". Their hits join the plain ones ("경기광주" is also a station alias).
        for cut in range(1, len(tokens)):
            quals, rest = tokens[:cut], "".join(tokens[cut:])
            if not all(self._is_qualifier(q) for q in quals):
                break
            found = {
                i: h
                for i, h in self._core(normalize(rest)).items()
                if all(self._qualifier_ok(self.places[i], q) for q in quals)
            }
            if found:
                for i, h in found.items():
                    if i not in hits or h[:2] < hits[i][:2]:
                        hits[i] = h
                break
        if not hits:  # a sido glued to the name: "서울강남구"
            for alias in sorted(SIDO_SHORT, key=len, reverse=True):
                if key.startswith(alias) and len(key) > len(alias) + 1:
                    found = self._core(key[len(alias) :])
                    hits = {i: h for i, h in found.items() if self.places[i].sido == SIDO_SHORT[alias]}
                    if hits:
                        break
        out = [Candidate(self.places[i], t, o, k) for i, (t, o, k) in hits.items()]
        out.sort(key=self._rank)
        return out

    @staticmethod
    def _rank(c: Candidate) -> tuple[int, int, int, int, str, str, str]:
        p = c.place
        return (
            c.tier,
            c.order,
            _TYPE_RANK[p.type],
            _REGION_RANK.get(p.sido or "", 9),
            p.sigungu or "",
            p.name,
            p.key,
        )

    def lookup(self, name: str) -> list[Place]:
        """Every place ``name`` may mean, best first ("강남" -> 강남역, 강남구, ...; "" -> [])."""
        return [c.place for c in self.candidates(name)]

    def best(self, name: str) -> Place | None:
        found = self.candidates(name)
        return found[0].place if found else None

    def is_ambiguous(self, name: str) -> bool:
        """True when ``name`` needs a question: the equally good top candidates are more than 5 km
        apart (양평역, 송정동, 중구), or the bare name usually means a place outside the covered
        area (광주 -> 광주광역시). A curated alias ("강남", "홍대") is never ambiguous."""
        found = self.candidates(name)
        if normalize(name) in OUT_OF_AREA_HOMONYMS:
            return True
        if len(found) < 2 or found[0].tier == TIER_CURATED:
            return False
        # A station, dong or si/gun/gu of another city does not make a name ambiguous when a
        # capital-area place or a well-known place carries it (시청역, 사직동, 강서구, 서면):
        # :meth:`homonyms` lists them so that the answer can say which one it is about.
        prominent = [c for c in found if not _secondary(c.place)]
        found = prominent or found
        if len(found) < 2:
            return False
        top = found[0]
        for c in found[1:]:
            if c.tier != top.tier:
                break
            if haversine_m(top.place.lat, top.place.lon, c.place.lat, c.place.lon) > AMBIGUITY_DISTANCE_M:
                return True
        return False

    def homonyms(self, name: str) -> list[Place]:
        """The other places ``name`` names exactly (official name or alias), more than 3 km from the
        best one and from each other, best first: "사직동" → 광주 남구 사직동, 부산 동래구 사직1동 …
        (the best is 종로구 사직동). Curated aliases and query expansions are no homonyms."""
        found = [c for c in self.candidates(name) if c.tier in (TIER_NAME, TIER_ALIAS)]
        if not found:
            return []
        kept: list[Place] = [found[0].place]
        for c in found[1:]:
            p = c.place
            if all(haversine_m(p.lat, p.lon, k.lat, k.lon) > HOMONYM_SAME_PLACE_M for k in kept):
                kept.append(p)
        return kept[1:]

    def homonym_note(self, name: str) -> str | None:
        """A Korean note when the bare name usually means another place (광주 → 광주광역시)."""
        other = OUT_OF_AREA_HOMONYMS.get(normalize(name))
        if other is None:
            return None
        return wording.say("location.homonym.out_of_area", name=name.strip(), other=other)

    # ---- free text ---------------------------------------------------------------------------

    def find_in_text(self, text: str) -> list[tuple[str, int, int]]:
        """Place mentions in a sentence as ``(surface, start, end)``, longest match first.

        "강남역 주차되는 일식집" -> ``[("강남역", 0, 3)]``. A mention must start a word (or follow
        another mention); a two-letter name must end the word or be followed by a particle or a
        place word ("홍대에", "마포 맛집", "잠실쪽"), so "수유실" or "대화하기" are no places.
        Names may span spaces ("서울 대공원"). Offsets index the NFC form of ``text``.
        """
        return self._mentions.find(text)

    def places_in_text(self, text: str) -> list[tuple[str, int, int, Place]]:
        """:meth:`find_in_text` with the best place of each mention."""
        out: list[tuple[str, int, int, Place]] = []
        for surface, start, end in self.find_in_text(text):
            place = self.best(surface)
            if place is not None:
                out.append((surface, start, end, place))
        return out

    # ---- regions -----------------------------------------------------------------------------

    def region_terms(self, place: Place, *, include_dong: bool = False) -> list[str]:
        """Strings to look for in a restaurant address for an "in this region" search (any one
        matching is enough): ``["강남구"]``, ``["성남시 분당구", "성남시분당구"]``, ``["서울"]``.

        Names that are also part of other names are qualified with the sido ("서울 중구", "경기
        양주시" - bare "양주시" is inside "남양주시", "서구" inside "강서구"). Stations and hot places
        have no region: search by radius. Road addresses (the only address most restaurants have)
        carry no dong, so dongs return ``[]`` unless ``include_dong`` asks for the jibun-address
        form ("강남구 역삼동"); use :meth:`contains_point` for an exact dong search instead.
        """
        if place.type is PlaceType.SIDO:
            return [place.sido] if place.sido else []
        if place.type is PlaceType.SIGUNGU and place.sigungu:
            sg = place.sigungu
            compact = sg.replace(" ", "")
            clash = compact in OUT_OF_AREA_HOMONYMS or any(
                compact != other.replace(" ", "") and compact in other.replace(" ", "")
                for other in self._sigungu_names
            )
            same_name = self._sigungu_count.get(sg, 0) > 1
            if (clash or same_name) and place.sido:
                terms = [f"{place.sido} {sg}"]
                full = SIDO_FULL.get(place.sido)
                if full:
                    terms.append(f"{full} {sg}")
            else:
                terms = [sg]
            if " " in sg:
                terms.append(compact)
            return terms
        if place.type is PlaceType.LANDMARK:  # a building eaten inside ("롯데월드몰 안에"): its road address
            return [a for a, names in _BUILDING_ADDRESSES.items() if place.name in names][:1]
        if include_dong and place.type in (PlaceType.LEGAL_DONG, PlaceType.ADMIN_DONG) and place.sigungu:
            if place.type is PlaceType.ADMIN_DONG:
                names = [collective_dong(place.name) or place.name]
            else:
                names = [place.name]
            return [f"{place.sigungu} {n}" for n in names]
        return []

    def address_in_region(self, place: Place, address: str) -> bool | None:
        """Whether an address lies in the region of ``place``; ``None`` when the address cannot
        tell (a road address for a dong, or an empty address) or the place is not a region."""
        return address_in_region(place, address)

    def shape(self, place: Place) -> Shape | None:
        return self._shapes.get(place.key)

    def contains_point(self, place: Place, lat: float, lon: float) -> bool | None:
        """Whether the point lies inside the outline of ``place``: Seoul, a Seoul gu or a Seoul
        legal dong. ``None`` for places without an outline (stations, hot places, admin dongs,
        Gyeonggi/Incheon regions): use :meth:`region_terms` or a radius there."""
        shape = self._shapes.get(place.key)
        return None if shape is None else shape.contains(lat, lon)

    def contains_points(self, place: Place, lats: npt.ArrayLike, lons: npt.ArrayLike) -> BoolArray | None:
        """Vectorised :meth:`contains_point` (NaN coordinates are outside)."""
        shape = self._shapes.get(place.key)
        return None if shape is None else shape.contains_many(lats, lons)

    def region_at(self, lat: float, lon: float) -> list[Place]:
        """The outlined regions containing a point, largest first (Seoul, gu, legal dong)."""
        found = [
            p for p in self.places if (s := self._shapes.get(p.key)) is not None and s.contains(lat, lon)
        ]
        order = {PlaceType.SIDO: 0, PlaceType.SIGUNGU: 1, PlaceType.LEGAL_DONG: 2}
        found.sort(key=lambda p: (order.get(p.type, 9), -len(p.code.split("|")), p.name))
        return found

    def nearest(
        self,
        lat: float,
        lon: float,
        types: Iterable[PlaceType] | None = None,
        k: int = 5,
        max_m: float | None = None,
    ) -> list[tuple[Place, float]]:
        """The ``k`` places closest to a point, with distances in metres."""
        dist = haversine_m_array(lat, lon, self._lat, self._lon)
        if types is not None:
            wanted = set(types)
            mask = np.array([p.type in wanted for p in self.places], dtype=np.bool_)
            dist = np.where(mask, dist, np.inf)
        order = np.argsort(dist, kind="stable")[:k]
        return [
            (self.places[int(i)], float(dist[i]))
            for i in order
            if np.isfinite(dist[i]) and (max_m is None or dist[i] <= max_m)
        ]


_default: Gazetteer | None = None
_default_lock = threading.Lock()


def _default_gazetteer() -> Gazetteer:
    global _default
    with _default_lock:
        if _default is None:
            _default = Gazetteer._from_files(data_root())
        return _default


def install_gazetteer(gazetteer: Gazetteer) -> None:
    """Make ``gazetteer`` the process-wide one (:meth:`Gazetteer.load`, :func:`get_gazetteer`): a
    gazetteer of the package data read back from a cache (``matjip.agent.cache``), so the
    process does not build a second one from the files."""
    global _default
    with _default_lock:
        _default = gazetteer


def get_gazetteer() -> Gazetteer:
    """The process-wide gazetteer from the package data."""
    return _default_gazetteer()


def region_terms(place: Place, *, include_dong: bool = False) -> list[str]:
    """:meth:`Gazetteer.region_terms` on the package gazetteer."""
    return get_gazetteer().region_terms(place, include_dong=include_dong)


def contains_point(place: Place, lat: float, lon: float) -> bool | None:
    """:meth:`Gazetteer.contains_point` on the package gazetteer."""
    return get_gazetteer().contains_point(place, lat, lon)


def find_in_text(text: str) -> list[tuple[str, int, int]]:
    """:meth:`Gazetteer.find_in_text` on the package gazetteer."""
    return get_gazetteer().find_in_text(text)
