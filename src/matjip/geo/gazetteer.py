"""The gazetteer: place names of Korea, their coordinates, regions and outlines.

National since issue 22: every admin dong, KRIC station, si/gun/gu and sido of Korea, and the
well-known hot places of the big cities; the capital area (서울·경기·인천) is described in more
detail (legal dongs with outlines, hot places, landmarks, curated aliases). Which places the
restaurant data covers is *not* the gazetteer's business: the agent asks the index
(:mod:`matjip.agent.coverage`), so a collected and ingested area is covered without a change here.

Sources (package data, see ``data/SOURCES.md``): ``places_capital.csv`` (capital-area subway stations,
admin dongs, si/gun/gu, Seoul hot places), ``subway_stations_kric.csv`` (every station of the country:
road addresses, and the stations of the other cities and those the capital list misses),
``admin_dong_centroids_2022.csv`` (sido/sigungu of the capital's admin dongs), ``admin_dongs_kr.csv``
(the admin dongs outside the capital area, and from them their si/gun/gu and sido),
``hot_places_kr.tsv`` (hot places of 부산, 대구, 광주, 대전 …), ``landmarks.tsv`` (landmarks, malls,
markets, parks, streets, food alleys and colloquial names; format in :mod:`matjip.geo.landmarks`),
``seoul_gu.geojson``, ``seoul_legal_dong.geojson`` and ``korea_sigungu.geojson`` (outlines).
Everything is loaded once per process (:meth:`Gazetteer.load` is cached; about 5,400 places,
0.4-0.9 s the first time, against 0.2-0.6 s for the capital alone).

Place types
    ``subway_station`` (same-name stations less than 1 km apart are merged: 서울역 1·4호선/경의중앙선
    and 공항철도 become one place with all lines), ``hot_place`` (Seoul's 115 real-time city-data
    places; those named after a single station, e.g. "강남역" or "대림역", are folded into the
    station because their points are approximate: 대림역's is 33 km off, 신림역's 2.4 km),
    ``legal_dong`` (467 Seoul legal dongs with polygons; numbered parts such as 성수동1가/2가 or
    을지로1가…7가 are grouped into one place "성수동", "을지로" whose outline is the union),
    ``landmark`` (a point from ``landmarks.tsv``: 석촌호수, 롯데월드몰, 방이동 먹자골목, 위례신도시;
    ``category`` tells 랜드마크, 쇼핑몰, 시장, 공원, 거리, 먹자골목 or 생활권 apart),
    ``admin_dong`` (administrative dongs, 읍 and 면 of the whole country; centroids only; 전포1동 and
    전포2동 are also "전포동"), ``sigungu`` (si/gun/gu; cities split into gu, such as 수원시 or 창원시,
    also exist as a whole city; a 시 outside the capital is also its bare name: 포항) and ``sido`` (all 17).

Default search radius per type (docs/design.md says 500-1000 m for a station and 2 km for a dong;
docs/design.md used 3 km everywhere):

==================  =========  ====================================================================
type                radius     why
==================  =========  ====================================================================
subway_station      1,000 m    "역 근처" is walking distance: about 12-15 minutes on foot
hot_place           1,000 m    street-sized areas (가로수길, 서촌); 관광특구 get 1,500 m
landmark            500-2,500  per row of landmarks.tsv, else per kind: building, mall, park 1,000 m;
                               market, street 700 m; food alley 500 m; area (new town) 2,000 m
legal_dong          1,500 m    a Seoul dong is 1-2 km across; 1.5 km from its centre covers it
admin_dong          1,500 m    same; 읍 3,000 m and 면 5,000 m (rural, much larger)
sigungu             5,000 m    gu; 10,000 m for a si/gun without gu. Only a fallback: match the
                               region itself (:meth:`Gazetteer.region_terms`, ``contains_point``)
sido                20,000 m   a fallback only; always search by region
==================  =========  ====================================================================

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

Mentions (:meth:`Gazetteer.find_in_text`): longest match over every name and alias, starting at a
word start; two-letter names must end the word or be followed by a particle ("홍대에", "잠실쪽");
:data:`TEXT_STOPWORDS` keeps station names that are ordinary words (가능, 국수, 오리, 중앙) out, and a
two-letter name that only stations or dongs of other cities carry (노포, 안심, 내면) is read only with
its suffix ("노포역").

Lookup (:meth:`Gazetteer.lookup`) returns every candidate, best first. Ranking tiers: a curated
colloquial alias (the ``*_alias`` rows of ``landmarks.tsv``: "홍대" -> 홍대입구역, "새내" ->
잠실새내역), then an exact official name, then a data alias or derived alias ("강남" -> 강남구,
"성수동" -> 성수1가1동, "올공" -> 올림픽공원), then query expansions ("성수" + 동/역/구/시/군, or
"홍대역" minus its suffix). Within a tier: sigungu, sido, station, hot place, landmark, legal dong,
admin dong; then Seoul before Gyeonggi before Incheon before the rest of the country.
"""

from __future__ import annotations

import csv
import io
import json
import re
import threading
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from pydantic import BaseModel, ConfigDict, Field

from matjip.geo.distance import haversine_m, haversine_m_array
from matjip.geo.landmarks import ALIAS_TARGET_MAX_M, LandmarkKind, LandmarkRow, read_landmarks

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


class PlaceType(StrEnum):
    SUBWAY_STATION = "subway_station"
    HOT_PLACE = "hot_place"
    LANDMARK = "landmark"
    LEGAL_DONG = "legal_dong"
    ADMIN_DONG = "admin_dong"
    SIGUNGU = "sigungu"
    SIDO = "sido"


TYPE_LABELS: dict[PlaceType, str] = {
    PlaceType.SUBWAY_STATION: "지하철역",
    PlaceType.HOT_PLACE: "명소·상권",
    PlaceType.LANDMARK: "랜드마크",
    PlaceType.LEGAL_DONG: "법정동",
    PlaceType.ADMIN_DONG: "행정동",
    PlaceType.SIGUNGU: "시군구",
    PlaceType.SIDO: "시도",
}

RADIUS_STATION_M = 1000
RADIUS_HOT_PLACE_M = 1000
RADIUS_TOURIST_ZONE_M = 1500
RADIUS_DONG_M = 1500
RADIUS_EUP_M = 3000
RADIUS_MYEON_M = 5000
RADIUS_GU_M = 5000
RADIUS_SI_GUN_M = 10000
RADIUS_SIDO_M = 20000

AMBIGUITY_DISTANCE_M = 5000.0
HOMONYM_SAME_PLACE_M = 3000.0
MERGE_STATIONS_WITHIN_M = 1000.0

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
OUT_OF_AREA_HOMONYMS: dict[str, str] = {
    "광주": "광주광역시",
    "중구": "부산·대구·대전·울산의 중구",
    "동구": "부산·대구·대전·울산·광주의 동구",
    "서구": "부산·대구·대전·광주의 서구",
    "남구": "부산·대구·울산·광주의 남구",
}


def _secondary(place: Place) -> bool:
    """A station, dong or si/gun/gu outside the capital area: a namesake people rarely mean when
    the capital area or a well-known place (a hot place, a sido) has the same name."""
    return place.sido not in CAPITAL_SIDO and place.type in _SECONDARY_TYPES


def _plain_word_risk(place: Place) -> bool:
    """A station or dong outside the capital area: its two-letter name (노포역's 노포, 안심역's 안심,
    내면) is read in free text only with its suffix ("노포역", "안심역"); lookup still knows it."""
    return place.sido not in CAPITAL_SIDO and place.type in (
        PlaceType.SUBWAY_STATION,
        PlaceType.ADMIN_DONG,
        PlaceType.LEGAL_DONG,
    )


def _words(text: str) -> list[str]:
    return text.split()


# Keys that are ordinary words far more often than place names: never found inside free text
# (lookup still resolves them). Mostly station names: 가능역, 국수역, 오리역, 구성역, 장기역 ...
TEXT_STOPWORDS: frozenset[str] = frozenset(
    _words("""
    가능 가정 가오리 강변 경기 구성 국수 금곡 단원 대화 도심 동구 동안 마산 미아 방학 방화 보정 사리 사우
    상수 서구 남구 수유 신원 양수 오리 온수 원시 이동 작전 장기 정자 중동 중앙 중화 진위 청구 초당 효자
    시민공원 예술회관 운동장 송산 신정 중앙시장 신흥 산성 상동 본동 사동 대동 내동 신동 원동 하동 궁동
    능동 명학 세류 직산 야목 어천 고색 화서 석수 당정 금정 신현 선부 시우 달미 원덕 지평 오빈 아신 용문
    구래 마전 완정 독정 검암 도원 주안 간석 동암 부개 백운 송내 소사 역곡 구일 개봉 가좌 정왕 초지 고잔
    반월 대야미 수리산 산본 군포 의왕 성환 두정 봉명 쌍용 배방 신창 사릉 평내 마석 청평 상천 가평
    계산 고양 남성 내방 합동 삼가 연수 일동 하계 장기주차장 워터파크
    사천 공주 상주 양산 나주 남해 완주 보은 음성 예산 고령 장수 진도 영광 무안 거창 성주 봉화 청양 임실
    순창 안심 노포 수영 공항 상무 해안 신기 동백 기장 냉정 좌천 사월 대명 만덕 고산
    """)
)

# What may follow a short (2-character) name inside a word: particles and place words.
_FOLLOWERS: tuple[str, ...] = tuple(
    sorted(
        set(
            _words("""
            에서 에선 에도 에 엔 의 은 는 이 가 을 를 도 만 쪽 근처 주변 부근 인근 근방 앞 뒤 옆 일대 로 으로
            까지 부터 랑 이랑 하고 과 와 서 맛집 권 안 내 쯤 방면 점 지역 인데 이나 나 역 동 구 께
            """)
        ),
        key=lambda w: (-len(w), w),
    )
)

_SIDO_SHORT: dict[str, str] = {
    "서울특별시": "서울",
    "서울시": "서울",
    "서울": "서울",
    "경기도": "경기",
    "경기": "경기",
    "인천광역시": "인천",
    "인천시": "인천",
    "인천": "인천",
    "부산광역시": "부산",
    "부산": "부산",
    "대구광역시": "대구",
    "대구": "대구",
    "광주광역시": "광주",
    "대전광역시": "대전",
    "대전": "대전",
    "울산광역시": "울산",
    "울산": "울산",
    "세종특별자치시": "세종",
    "세종": "세종",
    "강원도": "강원",
    "강원특별자치도": "강원",
    "강원": "강원",
    "충청북도": "충북",
    "충북": "충북",
    "충청남도": "충남",
    "충남": "충남",
    "전라북도": "전북",
    "전북특별자치도": "전북",
    "전북": "전북",
    "전라남도": "전남",
    "전남": "전남",
    "경상북도": "경북",
    "경북": "경북",
    "경상남도": "경남",
    "경남": "경남",
    "제주특별자치도": "제주",
    "제주": "제주",
}
_SIDO_FULL: dict[str, str] = {
    "서울": "서울특별시",
    "경기": "경기도",
    "인천": "인천광역시",
    "부산": "부산광역시",
    "대구": "대구광역시",
    "광주": "광주광역시",
    "대전": "대전광역시",
    "울산": "울산광역시",
    "세종": "세종특별자치시",
    "강원": "강원특별자치도",
    "충북": "충청북도",
    "충남": "충청남도",
    "전북": "전북특별자치도",
    "전남": "전라남도",
    "경북": "경상북도",
    "경남": "경상남도",
    "제주": "제주특별자치도",
}
_SIDO_ALIASES: dict[str, tuple[str, ...]] = {
    "서울": ("서울", "서울시", "서울특별시"),
    "경기": ("경기", "경기도"),
    "인천": ("인천", "인천시", "인천광역시"),
    "부산": ("부산", "부산시", "부산광역시"),
    "대구": ("대구", "대구시", "대구광역시"),
    "광주": ("광주", "광주광역시"),  # 광주시 is the Gyeonggi city
    "대전": ("대전", "대전시", "대전광역시"),
    "울산": ("울산", "울산시", "울산광역시"),
    "세종": ("세종", "세종시", "세종특별자치시"),
    "강원": ("강원", "강원도", "강원특별자치도"),
    "충북": ("충북", "충청북도"),
    "충남": ("충남", "충청남도"),
    "전북": ("전북", "전라북도", "전북특별자치도"),
    "전남": ("전남", "전라남도"),
    "경북": ("경북", "경상북도"),
    "경남": ("경남", "경상남도"),
    "제주": ("제주", "제주도", "제주특별자치도"),
}
# The capital area: its places come from places_capital.csv and rank first among same-name places.
CAPITAL_SIDO: frozenset[str] = frozenset({"서울", "경기", "인천"})
_SECONDARY_TYPES: frozenset[PlaceType] = frozenset(
    {PlaceType.SUBWAY_STATION, PlaceType.ADMIN_DONG, PlaceType.LEGAL_DONG, PlaceType.SIGUNGU}
)
# KOSTAT (2013) sido code prefixes, for outlines from korea_sigungu.geojson.
_KOSTAT_SIDO: dict[str, str] = {
    "11": "서울",
    "21": "부산",
    "22": "대구",
    "23": "인천",
    "24": "광주",
    "25": "대전",
    "26": "울산",
    "29": "세종",
    "31": "경기",
    "32": "강원",
    "33": "충북",
    "34": "충남",
    "35": "전북",
    "36": "전남",
    "37": "경북",
    "38": "경남",
    "39": "제주",
}
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
_LINE_NAMES = {
    "서울 도시철도 9호선": "9호선",
    "수도권  도시철도 9호선": "9호선",
    "수도권 도시철도 9호선": "9호선",
    "도시철도 7호선": "7호선",
    "수도권 광역철도 8호선": "8호선",
    "수도권 경량도시철도 신림선": "신림선",
    "인천지하철 1호선": "인천1호선",
    "인천지하철 2호선": "인천2호선",
    "인천국제공항선": "공항철도",
    "분당선": "수인분당선",
    "수인선": "수인분당선",
    "의정부": "의정부경전철",
    "김포도시철도": "김포골드라인",
    "에버라인": "용인에버라인",
    "자기부상철도": "인천공항자기부상철도",
}
# Old names in the 2013/2018 outlines and lists.
_RENAMED_SIGUNGU = {("인천", "남구"): "미추홀구"}

TIER_CURATED, TIER_NAME, TIER_ALIAS, TIER_EXPANDED = 0, 1, 2, 3
_EXPAND_SUFFIXES = ("역", "동", "구", "시", "군")
_INTERPUNCT = str.maketrans({"ㆍ": "·", "‧": "·", "・": "·", "•": "·", "．": "·"})


# --------------------------------------------------------------------------------------------
# models


class Place(BaseModel):
    """One named place. ``display_name`` tells same-name places apart ("양평역 (5호선, 서울 영등포구)")."""

    model_config = ConfigDict(frozen=True)

    key: str = Field(description="Unique id, e.g. 'subway_station:0522' or 'legal_dong:11680101'.")
    name: str
    type: PlaceType
    lat: float
    lon: float
    aliases: list[str] = Field(default_factory=list)
    lines: list[str] = Field(default_factory=list, description="Subway lines (stations only).")
    sido: str | None = Field(None, description="Short sido name as in addresses: 서울, 경기, 인천.")
    sigungu: str | None = Field(None, description="As in addresses: 강남구, 수원시 장안구, 광주시.")
    dong: str | None = Field(None, description="Dong name (the legal dong a station or hot place lies in).")
    code: str = ""
    default_radius_m: int
    display_name: str
    category: str | None = Field(
        None,
        description="Hot-place category (관광특구, 발달상권, 공원 ...) or landmark kind (쇼핑몰, 시장 ...).",
    )
    source: str = ""

    @property
    def type_label(self) -> str:
        return TYPE_LABELS[self.type]

    @property
    def region(self) -> str:
        """``"서울 강남구"``: sido and sigungu, as far as known."""
        return " ".join(x for x in (self.sido, self.sigungu) if x)


@dataclass(frozen=True)
class Candidate:
    """A lookup hit: the place, how it matched (tier, lower is better) and the key that matched."""

    place: Place
    tier: int
    order: int
    matched: str


# --------------------------------------------------------------------------------------------
# text helpers


def normalize(text: str) -> str:
    """The lookup key of a name: NFC, no whitespace, ASCII lower-case, one interpunct (·)."""
    if not text.isascii():
        text = unicodedata.normalize("NFC", text).translate(_INTERPUNCT)
    return "".join(text.replace(".", "·").split()).lower()


def _is_hangul(ch: str) -> bool:
    return "\uac00" <= ch <= "\ud7a3"


def _is_word_char(ch: str) -> bool:
    return _is_hangul(ch) or ch.isalnum()


_PARENS = re.compile(r"\s*\([^)]*\)")


def _strip_parens(name: str) -> str:
    return _PARENS.sub("", name).strip() if "(" in name else name.strip()


def _split_city_gu(name: str) -> tuple[str, str] | None:
    """``"수원시장안구"`` or ``"수원시 장안구"`` -> ``("수원시", "장안구")``."""
    m = re.match(r"^(\S+?시)\s*(\S+구)$", name.strip())
    return (m.group(1), m.group(2)) if m else None


def _spaced_sigungu(name: str) -> str:
    parts = _split_city_gu(name)
    return f"{parts[0]} {parts[1]}" if parts else name.strip()


def _clean_aliases(raw: Iterable[str]) -> list[str]:
    """Drop fragments the upstream alias generator left behind ("4", "19 카페거리", "종로5·동")."""
    out: list[str] = []
    for a in raw:
        a = a.strip()
        k = normalize(a)
        if len(k) < 2 or k.isdigit() or k[0].isdigit() or re.search(r"·동$", k):
            continue
        if a not in out:
            out.append(a)
    return out


def parse_address_region(address: str) -> tuple[str | None, str | None]:
    """``"서울특별시 송파구 송파대로 지하257"`` -> ``("서울", "송파구")``; ``(None, None)`` without a sido."""
    tokens = address.replace(",", " ").split()
    if not tokens or tokens[0] not in _SIDO_SHORT:
        return None, None
    sido = _SIDO_SHORT[tokens[0]]
    rest = tokens[1:]
    if rest and (parts := _split_city_gu(rest[0])):
        return sido, f"{parts[0]} {parts[1]}"
    if len(rest) >= 2 and rest[0].endswith("시") and rest[1].endswith("구"):
        return sido, f"{rest[0]} {rest[1]}"
    if rest and rest[0].endswith(("시", "군", "구")):
        return sido, rest[0]
    return sido, None


_DONG_WORD = re.compile(r"^[가-힣0-9·]+(동|동\d+가|\d+가|읍|면|리)$")


def _address_dongs(address: str) -> list[str]:
    """Dong names in an address: the jibun part ("서울 강남구 역삼동 823") or the parenthesis of a
    road address ("... 테헤란로 152 (역삼동, 강남파이낸스센터)")."""
    found: list[str] = []
    for inner in re.findall(r"\(([^)]*)\)", address):
        found += [w.strip() for w in inner.split(",") if _DONG_WORD.match(w.strip())]
    head = re.sub(r"\([^)]*\)", " ", address).split()
    if head and head[0] in _SIDO_SHORT:
        head = head[1:]
    while head and re.search(r"(시|군|구)$", head[0]) and not _DONG_WORD.match(head[0]):
        head = head[1:]
    if head and _DONG_WORD.match(head[0]):
        found.append(head[0])
    return found


# --------------------------------------------------------------------------------------------
# geometry


@dataclass(frozen=True, eq=False)
class _Ring:
    x: FloatArray
    y: FloatArray
    x2: FloatArray
    y2: FloatArray

    @classmethod
    def of(cls, coords: Sequence[Sequence[float]]) -> _Ring:
        arr = np.asarray(coords, dtype=np.float64)[:, :2]
        x = np.ascontiguousarray(arr[:, 0])
        y = np.ascontiguousarray(arr[:, 1])
        return cls(x, y, np.concatenate((x[-1:], x[:-1])), np.concatenate((y[-1:], y[:-1])))

    def crossings(self, px: float, py: float) -> int:
        cond = (self.y > py) != (self.y2 > py)
        if not cond.any():
            return 0
        x, y, x2, y2 = self.x[cond], self.y[cond], self.x2[cond], self.y2[cond]
        xint = (x2 - x) * (py - y) / (y2 - y) + x
        return int(np.count_nonzero(px < xint))

    def crossings_many(self, px: FloatArray, py: FloatArray) -> npt.NDArray[np.int64]:
        py_ = py[:, None]
        cond = (self.y[None, :] > py_) != (self.y2[None, :] > py_)
        with np.errstate(divide="ignore", invalid="ignore"):
            xint = (self.x2 - self.x)[None, :] * (py_ - self.y[None, :]) / (self.y2 - self.y)[
                None, :
            ] + self.x[None, :]
        hits = cond & (px[:, None] < xint)
        result: npt.NDArray[np.int64] = hits.sum(axis=1)
        return result

    def area_centroid(self) -> tuple[float, float, float]:
        """Unsigned area (deg²) and centroid (x, y) of the ring."""
        cross = self.x2 * self.y - self.x * self.y2
        a = float(cross.sum()) / 2.0
        if abs(a) < 1e-15:
            return 0.0, float(self.x.mean()), float(self.y.mean())
        cx = float(((self.x2 + self.x) * cross).sum()) / (6.0 * a)
        cy = float(((self.y2 + self.y) * cross).sum()) / (6.0 * a)
        return abs(a), cx, cy


@dataclass(frozen=True, eq=False)
class _Polygon:
    rings: tuple[_Ring, ...]  # exterior first, then holes (even-odd rule)
    bbox: tuple[float, float, float, float]  # min_x, min_y, max_x, max_y

    @classmethod
    def of(cls, rings: Sequence[Sequence[Sequence[float]]]) -> _Polygon:
        rs = tuple(_Ring.of(r) for r in rings if len(r) >= 3)
        ext = rs[0]
        return cls(rs, (float(ext.x.min()), float(ext.y.min()), float(ext.x.max()), float(ext.y.max())))


@dataclass(frozen=True, eq=False)
class Shape:
    """A (multi)polygon in lon/lat with point-in-polygon tests by ray casting (even-odd rule)."""

    polygons: tuple[_Polygon, ...]

    @classmethod
    def from_geojson(cls, geometry: dict[str, Any]) -> Shape:
        kind = geometry["type"]
        coords = geometry["coordinates"]
        if kind == "Polygon":
            return cls((_Polygon.of(coords),))
        if kind == "MultiPolygon":
            return cls(tuple(_Polygon.of(p) for p in coords))
        raise ValueError(f"unsupported geometry type {kind}")

    @classmethod
    def union(cls, shapes: Iterable[Shape]) -> Shape:
        """Several non-overlapping shapes as one (a point is inside if it is inside any)."""
        return cls(tuple(p for s in shapes for p in s.polygons))

    @property
    def bbox(self) -> tuple[float, float, float, float]:
        return (
            min(p.bbox[0] for p in self.polygons),
            min(p.bbox[1] for p in self.polygons),
            max(p.bbox[2] for p in self.polygons),
            max(p.bbox[3] for p in self.polygons),
        )

    def contains(self, lat: float, lon: float) -> bool:
        for poly in self.polygons:
            x0, y0, x1, y1 = poly.bbox
            if not (x0 <= lon <= x1 and y0 <= lat <= y1):
                continue
            if sum(r.crossings(lon, lat) for r in poly.rings) % 2 == 1:
                return True
        return False

    def contains_many(self, lats: npt.ArrayLike, lons: npt.ArrayLike, chunk: int = 2048) -> BoolArray:
        """Vectorised :meth:`contains`; NaN coordinates are outside."""
        la = np.asarray(lats, dtype=np.float64)
        lo = np.asarray(lons, dtype=np.float64)
        inside = np.zeros(la.shape, dtype=np.bool_)
        for poly in self.polygons:
            x0, y0, x1, y1 = poly.bbox
            idx = np.flatnonzero((lo >= x0) & (lo <= x1) & (la >= y0) & (la <= y1) & ~inside)
            for start in range(0, len(idx), chunk):
                part = idx[start : start + chunk]
                total = np.zeros(len(part), dtype=np.int64)
                for ring in poly.rings:
                    total += ring.crossings_many(lo[part], la[part])
                inside[part[total % 2 == 1]] = True
        return inside

    def area_centroid(self) -> tuple[float, float, float]:
        """Area (deg², holes subtracted) and the area-weighted centroid ``(lat, lon)``."""
        total = sx = sy = 0.0
        for poly in self.polygons:
            for i, ring in enumerate(poly.rings):
                a, cx, cy = ring.area_centroid()
                sign = 1.0 if i == 0 else -1.0
                total += sign * a
                sx += sign * a * cx
                sy += sign * a * cy
        if total <= 0:
            ring = self.polygons[0].rings[0]
            return 0.0, float(ring.y.mean()), float(ring.x.mean())
        return total, sy / total, sx / total


# --------------------------------------------------------------------------------------------
# loading


def _data_root() -> Path:
    traversable = resources.files("matjip").joinpath("data")
    return Path(str(traversable))


def _read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8-sig", newline="") as fh:
        return list(csv.DictReader(io.StringIO(fh.read())))


def _read_geojson(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as fh:
        features: list[dict[str, Any]] = json.load(fh)["features"]
    return features


@dataclass
class _Draft:
    """A place under construction (mutable), turned into a :class:`Place` at the end."""

    key: str
    name: str
    type: PlaceType
    lat: float
    lon: float
    aliases: list[str]
    code: str
    source: str
    lines: list[str] | None = None
    sido: str | None = None
    sigungu: str | None = None
    dong: str | None = None
    category: str | None = None
    radius: int = RADIUS_DONG_M
    shape: Shape | None = None


class _Regions:
    """Reverse geocoding by outlines: Seoul gu and legal dongs (detailed); capital-area si/gun/gu
    (KOSTAT 2013, generalised: only a fallback for points without an address)."""

    def __init__(self, root: Path) -> None:
        self.gu_by_code: dict[str, str] = {}
        self.seoul_gu: dict[str, Shape] = {}
        for f in _read_geojson(root / "geo" / "seoul_gu.geojson"):
            props = f["properties"]
            self.gu_by_code[props["SIG_CD"]] = props["SIG_KOR_NM"]
            self.seoul_gu[props["SIG_KOR_NM"]] = Shape.from_geojson(f["geometry"])
        self.legal: list[tuple[str, str, str, Shape]] = []  # code, gu, name, shape
        for f in _read_geojson(root / "geo" / "seoul_legal_dong.geojson"):
            props = f["properties"]
            code = props["EMD_CD"]
            self.legal.append(
                (
                    code,
                    self.gu_by_code.get(code[:5], ""),
                    props["EMD_KOR_NM"],
                    Shape.from_geojson(f["geometry"]),
                )
            )
        self._legal_bbox = np.array([s.bbox for _, _, _, s in self.legal], dtype=np.float64).reshape(-1, 4)
        # code -> (sido, current sigungu name, shape)
        self.sigungu: dict[str, tuple[str, str, Shape]] = {}
        for f in _read_geojson(root / "geo" / "korea_sigungu.geojson"):
            props = f["properties"]
            code = props["code"]
            sido = _KOSTAT_SIDO.get(code[:2], "")
            name = _RENAMED_SIGUNGU.get((sido, props["name"]), props["name"])
            if name.startswith("부천시"):  # 원미구/소사구/오정구 were abolished in 2016
                name = "부천시"
            self.sigungu[code] = (sido, _spaced_sigungu(name), Shape.from_geojson(f["geometry"]))
        self.known_sigungu = {(sd, nm) for sd, nm, _ in self.sigungu.values()} | {
            ("서울", g) for g in self.seoul_gu
        }

    def current_sigungu(self, sido: str | None, sigungu: str | None) -> str | None:
        """A sigungu name from an address in today's form, or ``None`` if it is unknown."""
        if not sido or not sigungu:
            return None
        sigungu = _RENAMED_SIGUNGU.get((sido, sigungu), sigungu)
        if sigungu.startswith("부천시"):
            sigungu = "부천시"
        return sigungu if (sido, sigungu) in self.known_sigungu else None

    def sigungu_at(self, lat: float, lon: float) -> tuple[str | None, str | None]:
        for gu, shape in self.seoul_gu.items():
            if shape.contains(lat, lon):
                return "서울", gu
        for sido, name, shape in self.sigungu.values():
            if shape.contains(lat, lon):
                return sido, name
        return None, None

    def legal_dong_at(self, lat: float, lon: float) -> tuple[str, str, str] | None:
        b = self._legal_bbox
        for i in np.flatnonzero((b[:, 0] <= lon) & (lon <= b[:, 2]) & (b[:, 1] <= lat) & (lat <= b[:, 3])):
            code, gu, name, shape = self.legal[int(i)]
            if shape.contains(lat, lon):
                return code, gu, name
        return None


def _station_lines(extra: str) -> list[str]:
    raw = extra.removeprefix("lines=").split("|") if extra.startswith("lines=") else []
    out: list[str] = []
    for line in raw:
        line = _LINE_NAMES.get(line.strip(), line.strip())
        if line and line not in out:
            out.append(line)
    return out


def _station_stem(name: str) -> str:
    name = _strip_parens(name)
    return name[:-1] if name.endswith("역") and len(name) > 2 else name


def _build_stations(
    rows: list[dict[str, str]], kric: dict[str, list[dict[str, str]]], regions: _Regions
) -> list[_Draft]:
    drafts: list[_Draft] = []
    for row in rows:
        lat, lon = float(row["lat"]), float(row["lon"])
        codes = list(dict.fromkeys(c for c in row["code"].split("|") if c))
        stem = _station_stem(row["name"])
        aliases = _clean_aliases([row["name"], *row["aliases"].split("|")])
        # KRIC station numbers repeat across operators (0222 is 강남 in Seoul and 이곡 in Daegu):
        # match the number and the name, and stay close.
        matches = [
            k
            for c in codes
            for k in kric.get(c, [])
            if (_station_stem(k["역사명"]) == stem or k["역사명"] in aliases)
            and haversine_m(lat, lon, float(k["역위도"] or 0), float(k["역경도"] or 0)) < 3000
        ]
        sido = sigungu = None
        for k in matches:
            sido, sigungu = parse_address_region(k["역사도로명주소"])
            sigungu = regions.current_sigungu(sido, sigungu)
            if sigungu:
                break
        if not sigungu:  # no address, or a typo in it ("춘춘시", "시승시")
            sido, sigungu = regions.sigungu_at(lat, lon)
        legal = regions.legal_dong_at(lat, lon) if sido == "서울" else None
        drafts.append(
            _Draft(
                key=f"subway_station:{'|'.join(codes)}",
                name=row["name"],
                type=PlaceType.SUBWAY_STATION,
                lat=lat,
                lon=lon,
                aliases=aliases,
                code="|".join(codes),
                source=row["source"],
                lines=_station_lines(row["extra"]),
                sido=sido,
                sigungu=sigungu,
                dong=legal[2] if legal else None,
                radius=RADIUS_STATION_M,
            )
        )
    # Same name, less than 1 km apart: one station with several lines (서울역).
    by_name: dict[str, list[_Draft]] = defaultdict(list)
    for d in drafts:
        by_name[d.name].append(d)
    merged: list[_Draft] = []
    for group in by_name.values():
        clusters: list[list[_Draft]] = []
        for d in group:
            for cluster in clusters:
                if haversine_m(d.lat, d.lon, cluster[0].lat, cluster[0].lon) < MERGE_STATIONS_WITHIN_M:
                    cluster.append(d)
                    break
            else:
                clusters.append([d])
        for cluster in clusters:
            head = cluster[0]
            if len(cluster) > 1:
                head.lat = sum(d.lat for d in cluster) / len(cluster)
                head.lon = sum(d.lon for d in cluster) / len(cluster)
                for d in cluster[1:]:
                    head.lines = list(dict.fromkeys([*(head.lines or []), *(d.lines or [])]))
                    head.aliases = list(dict.fromkeys([*head.aliases, *d.aliases]))
                    head.code = f"{head.code}|{d.code}"
                head.key = f"subway_station:{head.code}"
            merged.append(head)
    return merged


def _build_hot_places(rows: list[dict[str, str]], stations: list[_Draft], regions: _Regions) -> list[_Draft]:
    by_name: dict[str, list[_Draft]] = defaultdict(list)
    for s in stations:
        by_name[s.name].append(s)
    out: list[_Draft] = []
    for row in rows:
        aliases = _clean_aliases([row["name"], *row["aliases"].split("|")])
        plain = _strip_parens(row["name"])
        same = by_name.get(plain, [])
        if len(same) == 1:  # a hot place that is just a station: the station's point is exact
            station = same[0]
            station.aliases = list(dict.fromkeys([*station.aliases, *(a for a in aliases if a != plain)]))
            continue
        # Aliases naming a station ("이대역" of 신촌·이대역) belong to the station.
        aliases = [a for a in aliases if a == row["name"] or a not in by_name]
        lat, lon = float(row["lat"]), float(row["lon"])
        sido, sigungu = regions.sigungu_at(lat, lon)
        legal = regions.legal_dong_at(lat, lon) if sido == "서울" else None
        category = row["extra"] or None
        out.append(
            _Draft(
                key=f"hot_place:{row['code']}",
                name=row["name"],
                type=PlaceType.HOT_PLACE,
                lat=lat,
                lon=lon,
                aliases=aliases,
                code=row["code"],
                source=row["source"],
                sido=sido,
                sigungu=sigungu,
                dong=legal[2] if legal else None,
                category=category,
                radius=RADIUS_TOURIST_ZONE_M if category == "관광특구" else RADIUS_HOT_PLACE_M,
            )
        )
    return out


def _build_landmarks(rows: Sequence[LandmarkRow], regions: _Regions) -> list[_Draft]:
    """The point places of ``landmarks.tsv`` (alias rows are applied by :class:`Gazetteer`)."""
    out: list[_Draft] = []
    for row in rows:
        if row.kind.is_alias:
            continue
        if row.region:  # where the (coarse) outlines would be wrong
            sido, sigungu = parse_address_region(row.region)
            sigungu = regions.current_sigungu(sido, sigungu)
            if sigungu is None:
                raise ValueError(f"landmarks.tsv:{row.line}: unknown region {row.region!r}")
        else:
            sido, sigungu = regions.sigungu_at(row.lat, row.lon)
        legal = regions.legal_dong_at(row.lat, row.lon) if sido == "서울" else None
        out.append(
            _Draft(
                key=f"landmark:{normalize(row.name)}",
                name=row.name,
                type=PlaceType.LANDMARK,
                lat=row.lat,
                lon=row.lon,
                aliases=[row.name, *row.aliases],
                code="",
                source="landmarks.tsv (curated; checked against restaurant addresses and stations)",
                sido=sido,
                sigungu=sigungu,
                dong=legal[2] if legal else None,
                category=row.category,
                radius=row.default_radius_m,
            )
        )
    return out


def _collective_dong(name: str) -> str | None:
    """역삼1동 -> 역삼동, 성수1가1동 -> 성수동1가 (the legal name used in jibun addresses)."""
    m = re.match(r"^(.+?)(\d+)가(\d+)?동$", name)
    if m:
        return f"{m.group(1)}동{m.group(2)}가"
    m = re.match(r"^(.+?)\d+동$", name)
    if m and not m.group(1).endswith("·"):
        return f"{m.group(1)}동"
    return None


def _build_admin_dongs(rows: list[dict[str, str]], centroids: dict[str, dict[str, str]]) -> list[_Draft]:
    out: list[_Draft] = []
    for row in rows:
        c = centroids.get(row["code"])
        sido: str | None
        sigungu: str | None
        if c is not None:
            sido = _SIDO_SHORT.get(c["sidonm"], c["sidonm"])
            sigungu = _spaced_sigungu(c["sggnm"])
        else:
            parts = row["extra"].split(maxsplit=1)
            sido = _SIDO_SHORT.get(parts[0]) if parts else None
            sigungu = _spaced_sigungu(parts[1]) if len(parts) > 1 else None
        name = row["name"]
        if c is not None and c["adm_nm"].split()[-1] != name:
            name = c["adm_nm"].split()[-1]  # the list says 중산동 twice; they are 중산1동 and 중산2동
        aliases = _clean_aliases([name, *row["aliases"].split("|")])
        collective = _collective_dong(name)
        bases = [name] + ([collective] if collective else [])
        if sigungu:
            for base in bases:
                for prefix in {sigungu, sigungu.split()[-1]}:
                    aliases.append(f"{prefix} {base}")
        radius = (
            RADIUS_DONG_M if name.endswith("동") else RADIUS_EUP_M if name.endswith("읍") else RADIUS_MYEON_M
        )
        out.append(
            _Draft(
                key=f"admin_dong:{row['code']}",
                name=name,
                type=PlaceType.ADMIN_DONG,
                lat=float(row["lat"]),
                lon=float(row["lon"]),
                aliases=list(dict.fromkeys(aliases)),
                code=row["code"],
                source=row["source"],
                sido=sido,
                sigungu=sigungu,
                dong=name,
                radius=radius,
            )
        )
    return out


def _build_legal_dongs(regions: _Regions) -> list[_Draft]:
    source = "southkorea/seoul-maps (juso.go.kr 2015, Apache-2.0)"
    groups: dict[tuple[str, str], list[tuple[str, str, Shape]]] = defaultdict(list)
    numbered = re.compile(r"^(.+?)\d+가$")
    stems = {(gu, m.group(1)) for _, gu, name, _ in regions.legal if (m := numbered.match(name))}
    singles: list[tuple[str, str, str, Shape]] = []
    for code, gu, name, shape in regions.legal:
        m = numbered.match(name)
        if m is not None:
            stem = m.group(1)
            group_name = stem if stem.endswith(("동", "로")) else f"{stem}동"
            groups[(gu, group_name)].append((code, name, shape))
        elif (gu, name) in stems:
            groups[(gu, name)].append((code, name, shape))  # 당산동 with 당산동1가..6가
        else:
            singles.append((code, gu, name, shape))

    def draft(key: str, name: str, gu: str, code: str, shape: Shape, aliases: list[str]) -> _Draft:
        _, lat, lon = shape.area_centroid()
        return _Draft(
            key=key,
            name=name,
            type=PlaceType.LEGAL_DONG,
            lat=lat,
            lon=lon,
            aliases=list(dict.fromkeys([name, *aliases, f"{gu} {name}"])),
            code=code,
            source=source,
            sido="서울",
            sigungu=gu,
            dong=name,
            radius=RADIUS_DONG_M,
            shape=shape,
        )

    out = [draft(f"legal_dong:{code}", name, gu, code, shape, []) for code, gu, name, shape in singles]
    for (gu, group_name), parts in groups.items():
        if len(parts) == 1:
            code, name, shape = parts[0]
            extra = [group_name] if name != group_name else []
            out.append(draft(f"legal_dong:{code}", name, gu, code, shape, extra))
            continue
        codes = sorted(c for c, _, _ in parts)
        union = Shape.union(s for _, _, s in parts)
        out.append(
            draft(f"legal_dong:{codes[0][:5]}:{group_name}", group_name, gu, "|".join(codes), union, [])
        )
        for code, name, shape in parts:  # the parts stay addressable by their own names
            if name != group_name:
                short = re.sub(r"^(.+)동(\d+가)$", r"\1\2", name)  # 성수동1가 -> 성수1가
                out.append(
                    draft(f"legal_dong:{code}", name, gu, code, shape, [short] if short != name else [])
                )
    return out


def _build_sigungu(rows: list[dict[str, str]], regions: _Regions) -> list[_Draft]:
    out: list[_Draft] = []
    for row in rows:
        sido = _SIDO_SHORT.get(row["extra"], row["extra"])
        raw = _RENAMED_SIGUNGU.get((sido, row["name"]), row["name"])
        name = _spaced_sigungu(raw)
        aliases = [name, raw]
        if raw != row["name"]:
            aliases.append(row["name"])  # the old name (인천 남구)
        parts = _split_city_gu(raw)
        if parts:
            city, gu = parts
            aliases += [gu, f"{city.removesuffix('시')} {gu}"]
        else:
            aliases += [a for a in row["aliases"].split("|") if a]
        aliases += [f"{s} {name}" for s in _SIDO_ALIASES.get(sido, ())]  # "서울 강남구"
        # Outlines only for Seoul: the capital-area si/gun/gu outlines in the package (KOSTAT 2013)
        # are generalised (성남시: 36 vertices; 위례 falls outside it) - too coarse for membership.
        shape = regions.seoul_gu.get(name) if sido == "서울" else None
        lat, lon = float(row["lat"]), float(row["lon"])
        out.append(
            _Draft(
                key=f"sigungu:{row['code']}",
                name=name,
                type=PlaceType.SIGUNGU,
                lat=lat,
                lon=lon,
                aliases=_clean_aliases(aliases),
                code=row["code"],
                source=row["source"],
                sido=sido,
                sigungu=name,
                radius=RADIUS_GU_M if name.endswith("구") else RADIUS_SI_GUN_M,
                shape=shape,
            )
        )
    # Cities split into gu (수원시 = 장안구 + 권선구 + 팔달구 + 영통구) also exist as a whole.
    cities: dict[tuple[str, str], list[_Draft]] = defaultdict(list)
    for d in out:
        parts = _split_city_gu(d.name)
        if parts and d.sido:
            cities[(d.sido, parts[0])].append(d)
    for (sido, city), gus in cities.items():
        coarse = [s for sd, nm, s in regions.sigungu.values() if sd == sido and nm.startswith(f"{city} ")]
        if coarse:  # good enough for a centre
            _, lat, lon = Shape.union(coarse).area_centroid()
        else:
            lat = sum(g.lat for g in gus) / len(gus)
            lon = sum(g.lon for g in gus) / len(gus)
        out.append(
            _Draft(
                key=f"sigungu:{sido}:{city}",
                name=city,
                type=PlaceType.SIGUNGU,
                lat=lat,
                lon=lon,
                aliases=[
                    city,
                    city.removesuffix("시"),
                    *(f"{s} {city}" for s in _SIDO_ALIASES.get(sido, ())),
                ],
                code="|".join(g.code for g in gus),
                source="union of its gu",
                sido=sido,
                sigungu=city,
                radius=RADIUS_SI_GUN_M,
            )
        )
    return out


def _build_sido(regions: _Regions, dongs: list[dict[str, str]]) -> list[_Draft]:
    out: list[_Draft] = []
    for short, full in _SIDO_FULL.items():
        if short == "서울":
            shapes = list(regions.seoul_gu.values())
        else:
            shapes = [s for sd, _, s in regions.sigungu.values() if sd == short]
        union = Shape.union(shapes)
        if short in CAPITAL_SIDO:
            _, lat, lon = union.area_centroid()
        else:  # the mean of its admin dongs leans to where people live (부산: 부산진구, not the sea)
            mine = [d for d in dongs if _SIDO_SHORT.get(d["extra"].split()[0]) == short]
            if not mine:
                continue
            lat = sum(float(d["lat"]) for d in mine) / len(mine)
            lon = sum(float(d["lon"]) for d in mine) / len(mine)
        # Only Seoul's outline is detailed enough for membership tests (see _build_sigungu).
        out.append(
            _Draft(
                key=f"sido:{short}",
                name=full,
                type=PlaceType.SIDO,
                lat=lat,
                lon=lon,
                aliases=list(_SIDO_ALIASES[short]),
                code=short,
                source="union of its si/gun/gu outlines",
                sido=short,
                radius=RADIUS_SIDO_M,
                shape=union if short == "서울" else None,
            )
        )
    return out


def _read_tsv(path: Path) -> list[dict[str, str]]:
    """A tab-separated file with a header row; lines starting with "#" are comments."""
    with path.open(encoding="utf-8") as fh:
        lines = [line for line in fh.read().splitlines() if line.strip() and not line.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t"))


def _national_rows(
    national: list[dict[str, str]],
) -> tuple[list[dict[str, str]], dict[str, dict[str, str]], list[dict[str, str]]]:
    """Admin-dong and si/gun/gu rows (in the format of ``places_capital.csv``) for the dongs of
    ``admin_dongs_kr.csv`` outside the capital area (the capital's come from places_capital.csv),
    and the centroid rows :func:`_build_admin_dongs` reads."""
    source = "vuski/admdongkor 2022-03 (KOSTAT SGIS; free use with attribution)"
    dongs: list[dict[str, str]] = []
    centroids: dict[str, dict[str, str]] = {}
    by_sigungu: dict[tuple[str, str], list[dict[str, str]]] = defaultdict(list)
    for r in national:
        sido = _SIDO_SHORT.get(r["sidonm"], r["sidonm"])
        if sido in CAPITAL_SIDO:
            continue
        code = r["adm_cd10"]
        dongs.append(
            {
                "name": r["emd_nm"],
                "aliases": _collective_dong(r["emd_nm"]) or "",  # 전포1동 -> 전포동
                "lat": r["lat"],
                "lon": r["lon"],
                "code": code,
                "extra": f"{r['sidonm']} {r['sggnm']}",
                "source": source,
            }
        )
        centroids[code] = {
            "sidonm": r["sidonm"],
            "sggnm": r["sggnm"],
            "adm_nm": f"{r['sidonm']} {r['sggnm']} {r['emd_nm']}",
        }
        by_sigungu[(r["sidonm"], r["sggnm"])].append(r)
    sigungu: list[dict[str, str]] = []
    for (sidonm, sggnm), rows in by_sigungu.items():
        aliases = ""
        if re.fullmatch(r"[가-힣]{2,}시", sggnm) and _split_city_gu(sggnm) is None:
            aliases = sggnm[:-1]  # 포항시 -> 포항 (not 군: 예산군, 장수군, 영광군 are words too)
        sigungu.append(
            {
                "name": sggnm,
                "aliases": aliases,
                "lat": f"{sum(float(r['lat']) for r in rows) / len(rows):.6f}",
                "lon": f"{sum(float(r['lon']) for r in rows) / len(rows):.6f}",
                "code": rows[0]["adm_cd10"][:5],
                "extra": sidonm,
                "source": f"{source}; centre = mean of its admin-dong centroids",
            }
        )
    return dongs, centroids, sigungu


def _national_station_rows(
    capital_rows: list[dict[str, str]], kric: dict[str, list[dict[str, str]]]
) -> list[dict[str, str]]:
    """Station rows (format of ``places_capital.csv``) for every KRIC station that no row of
    places_capital.csv stands for (same stem within 3 km): the stations of the other cities, and
    capital stations missing from that list."""
    known: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for row in capital_rows:
        known[_station_stem(row["name"])].append((float(row["lat"]), float(row["lon"])))
    grouped: dict[tuple[str, str, str], list[dict[str, str]]] = defaultdict(list)
    for ks in kric.values():
        for k in ks:
            if not k["역위도"] or not k["역경도"]:
                continue
            lat, lon = float(k["역위도"]), float(k["역경도"])
            sido, _ = parse_address_region(k["역사도로명주소"])
            if sido in CAPITAL_SIDO and not (36.8 < lat < 38.4 and 125.0 < lon < 127.9):
                continue  # an address that contradicts the point (경북 봉화 양원역 "서울 중랑구")
            stem = _station_stem(k["역사명"].strip())
            if any(haversine_m(lat, lon, a, b) < 3000 for a, b in known.get(stem, [])):
                continue
            grouped[(stem, k["역번호"].strip(), k["노선명"].strip())].append(k)
    out: list[dict[str, str]] = []
    for (stem, code, line), ks in sorted(grouped.items()):
        k = ks[0]
        name = stem if stem.endswith("역") else f"{stem}역"
        plain = _strip_parens(stem)
        out.append(
            {
                "name": name,
                "aliases": "|".join(dict.fromkeys([stem, plain, f"{plain}역"])),
                "lat": k["역위도"],
                "lon": k["역경도"],
                "code": code,
                "extra": f"lines={line}" if line else "",
                "source": "KRIC 전국도시철도역사정보표준데이터 (KOGL type 1)",
            }
        )
    return out


def _build_national_hot_places(rows: list[dict[str, str]], regions: _Regions) -> list[_Draft]:
    """The hot places of ``hot_places_kr.tsv`` (big cities outside the capital area)."""
    out: list[_Draft] = []
    for row in rows:
        sido, sigungu = parse_address_region(row["region"])
        if not sido or not sigungu:
            raise ValueError(f"hot_places_kr.tsv: {row['name']}: unknown region {row['region']!r}")
        category = row["category"] or None
        radius = int(row["radius_m"]) if row["radius_m"] else RADIUS_HOT_PLACE_M
        out.append(
            _Draft(
                key=f"hot_place:kr:{normalize(row['name'])}",
                name=row["name"],
                type=PlaceType.HOT_PLACE,
                lat=float(row["lat"]),
                lon=float(row["lon"]),
                aliases=_clean_aliases([row["name"], *row["aliases"].split(",")]),
                code="",
                source="hot_places_kr.tsv (curated from KRIC stations and admin-dong centroids)",
                sido=sido,
                sigungu=_spaced_sigungu(sigungu),
                category=category,
                radius=radius,
            )
        )
    return out


def _display_name(d: _Draft) -> str:
    region = " ".join(x for x in (d.sido, d.sigungu) if x)
    if d.type is PlaceType.SUBWAY_STATION:
        inner = [x for x in ("·".join(d.lines or []), region) if x]
    elif d.type in (PlaceType.HOT_PLACE, PlaceType.LANDMARK):
        inner = [x for x in (d.category or "", region) if x]
    elif d.type is PlaceType.LEGAL_DONG:
        inner = ["법정동", region]
    elif d.type is PlaceType.ADMIN_DONG:
        inner = ["행정동" if d.name.endswith("동") else "읍·면", region]
    elif d.type is PlaceType.SIGUNGU:
        inner = [d.sido or ""]
    else:
        return d.name
    inner = [x for x in inner if x]
    return f"{d.name} ({', '.join(inner)})" if inner else d.name


# --------------------------------------------------------------------------------------------
# the gazetteer


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
        for i, p in enumerate(self.places):
            self._add(p.name, i, TIER_NAME)
            plain = _strip_parens(p.name)
            if plain != p.name:
                self._add(plain, i, TIER_NAME)
            for a in p.aliases:
                self._add(a, i, TIER_ALIAS)
                if _strip_parens(a) != a:
                    self._add(_strip_parens(a), i, TIER_ALIAS)
        self.unresolved_curated: list[str] = []
        resolved = [(row, self._alias_target(row)) for row in aliases if row.kind.is_alias]
        for row, target in resolved:  # all targets first: a curated alias may equal a target's name
            if target is None:
                self.unresolved_curated.append(
                    f"line {row.line}: {','.join(row.aliases)} -> {row.name} ({row.kind}): no such place "
                    f"within {ALIAS_TARGET_MAX_M:.0f} m of {row.lat}, {row.lon}"
                )
                continue
            for alias in row.aliases:
                # When an alias names several places (성수 -> 성수역, 성수카페거리, 성수동) the type order
                # of _rank decides: sigungu, sido, station, hot place, landmark, dong.
                self._add(alias, target, TIER_CURATED)
        self._build_text_matcher()
        self._sigungu_names = {p.sigungu for p in self.places if p.type is PlaceType.SIGUNGU and p.sigungu}
        self._sigungu_count: dict[str, int] = defaultdict(int)
        for p in self.places:
            if p.type is PlaceType.SIGUNGU and p.sigungu:
                self._sigungu_count[p.sigungu] += 1

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
        regions = _Regions(root)
        rows = _read_csv(root / "gazetteer" / "places_capital.csv")
        kric: dict[str, list[dict[str, str]]] = defaultdict(list)
        for k in _read_csv(root / "gazetteer" / "subway_stations_kric.csv"):
            kric[k["역번호"].strip()].append(k)
        centroids = {
            r["adm_cd10"]: r for r in _read_csv(root / "gazetteer" / "admin_dong_centroids_2022.csv")
        }
        by_type: dict[str, list[dict[str, str]]] = defaultdict(list)
        for r in rows:
            by_type[r["type"]].append(r)
        # the rest of the country: admin dongs and si/gun/gu (2022), KRIC stations, hot places
        dongs_kr, centroids_kr, sigungu_kr = _national_rows(
            _read_csv(root / "gazetteer" / "admin_dongs_kr.csv")
        )
        centroids.update(centroids_kr)
        regions.known_sigungu |= {
            (_SIDO_SHORT.get(r["extra"], r["extra"]), _spaced_sigungu(r["name"])) for r in sigungu_kr
        }
        station_rows = [*by_type["subway_station"], *_national_station_rows(by_type["subway_station"], kric)]
        stations = _build_stations(station_rows, kric, regions)
        hot = _build_hot_places(by_type["hot_place"], stations, regions)
        landmark_rows = read_landmarks(root / "gazetteer" / "landmarks.tsv")
        drafts = [
            *stations,
            *hot,
            *_build_national_hot_places(_read_tsv(root / "gazetteer" / "hot_places_kr.tsv"), regions),
            *_build_landmarks(landmark_rows, regions),
            *_build_legal_dongs(regions),
            *_build_admin_dongs([*by_type["admin_dong"], *dongs_kr], centroids),
            *_build_sigungu([*by_type["sigungu"], *sigungu_kr], regions),
            *_build_sido(regions, dongs_kr),
        ]
        places: list[Place] = []
        shapes: dict[str, Shape] = {}
        seen: dict[str, int] = {}
        for d in drafts:
            # KRIC numbers repeat across operators (0214 in Busan and Daegu): later keys get a suffix
            seen[d.key] = n = seen.get(d.key, 0) + 1
            if n > 1:
                d.key = f"{d.key}:{n}"
            places.append(
                Place(
                    key=d.key,
                    name=d.name,
                    type=d.type,
                    lat=round(d.lat, 6),
                    lon=round(d.lon, 6),
                    aliases=[a for a in dict.fromkeys(d.aliases) if a != d.name],
                    lines=d.lines or [],
                    sido=d.sido,
                    sigungu=d.sigungu,
                    dong=d.dong,
                    code=d.code,
                    default_radius_m=d.radius,
                    display_name=_display_name(d),
                    category=d.category,
                    source=d.source,
                )
            )
            if d.shape is not None:
                shapes[d.key] = d.shape
        return cls(places, shapes, aliases=landmark_rows)

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
        if q in _SIDO_SHORT:
            return place.sido == _SIDO_SHORT[q]
        if not place.sigungu:
            return False
        parts = {normalize(x) for x in place.sigungu.split()} | {normalize(place.sigungu)}
        return q in parts or any(q + s in parts for s in ("시", "구", "군"))

    def _is_qualifier(self, token: str) -> bool:
        q = normalize(token)
        if q in _SIDO_SHORT:
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
            for alias in sorted(_SIDO_SHORT, key=len, reverse=True):
                if key.startswith(alias) and len(key) > len(alias) + 1:
                    found = self._core(key[len(alias) :])
                    hits = {i: h for i, h in found.items() if self.places[i].sido == _SIDO_SHORT[alias]}
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
        return f"'{name.strip()}'은(는) {other}일 수도 있어요."

    # ---- free text ---------------------------------------------------------------------------

    def _build_text_matcher(self) -> None:
        keys: set[str] = set()
        for key, bucket in self._index.items():
            if len(key) < 2 or key in TEXT_STOPWORDS or key.isdigit():
                continue
            if not any(tier <= TIER_ALIAS for tier, _ in bucket.values()):
                continue
            if len(key) == 2 and all(_plain_word_risk(self.places[i]) for i in bucket):
                continue  # 노포, 안심, 공항, 수영, 내면: a station or dong of another city, or a word
            keys.add(key)
        self._text_keys = frozenset(keys)
        lengths: dict[str, set[int]] = defaultdict(set)
        for k in keys:
            lengths[k[0]].add(len(k))
        self._lengths = {ch: tuple(sorted(ls, reverse=True)) for ch, ls in lengths.items()}

    def _starts_key(self, compact: str) -> bool:
        for n in self._lengths.get(compact[:1], ()):
            if n <= len(compact) and compact[:n] in self._text_keys:
                return True
        return False

    def find_in_text(self, text: str) -> list[tuple[str, int, int]]:
        """Place mentions in a sentence as ``(surface, start, end)``, longest match first.

        "강남역 주차되는 일식집" -> ``[("강남역", 0, 3)]``. A mention must start a word (or follow
        another mention); a two-letter name must end the word or be followed by a particle or a
        place word ("홍대에", "마포 맛집", "잠실쪽"), so "수유실" or "대화하기" are no places.
        Names may span spaces ("서울 대공원"). Offsets index the NFC form of ``text``.
        """
        t = unicodedata.normalize("NFC", text).translate(_INTERPUNCT).replace(".", "·")
        t = "".join(c.lower() if c.isascii() else c for c in t)
        pos = [i for i, c in enumerate(t) if not c.isspace()]
        compact = "".join(t[i] for i in pos)
        n = len(compact)
        found: list[tuple[str, int, int]] = []
        i = 0
        chained = -1
        while i < n:
            start = pos[i]
            if not (start == 0 or not _is_word_char(t[start - 1]) or i == chained):
                i += 1
                continue
            for length in self._lengths.get(compact[i], ()):
                if i + length > n:
                    continue
                key = compact[i : i + length]
                if key not in self._text_keys:
                    continue
                end = pos[i + length - 1] + 1
                if self._end_ok(t, end, key, spans_space=(end - start) != length):
                    found.append((text[start:end] if len(text) == len(t) else t[start:end], start, end))
                    i += length
                    chained = i
                    break
            else:
                i += 1
        return found

    def _end_ok(self, t: str, end: int, key: str, spans_space: bool) -> bool:
        nxt = t[end] if end < len(t) else ""
        if not nxt or not _is_word_char(nxt):
            return True
        if key.isascii() or nxt.isdigit() or nxt.isascii():
            return False
        if len(key) >= 3 and not spans_space:
            return True
        rest = t[end:]
        word_end = len(rest)
        for j, c in enumerate(rest):
            if c.isspace() or not _is_word_char(c):
                word_end = j
                break
        word = rest[:word_end]
        return word.startswith(_FOLLOWERS) or self._starts_key(word)

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
                full = _SIDO_FULL.get(place.sido)
                if full:
                    terms.append(f"{full} {sg}")
            else:
                terms = [sg]
            if " " in sg:
                terms.append(compact)
            return terms
        if include_dong and place.type in (PlaceType.LEGAL_DONG, PlaceType.ADMIN_DONG) and place.sigungu:
            if place.type is PlaceType.ADMIN_DONG:
                names = [_collective_dong(place.name) or place.name]
            else:
                names = [place.name]
            return [f"{place.sigungu} {n}" for n in names]
        return []

    def address_in_region(self, place: Place, address: str) -> bool | None:
        """Whether an address lies in the region of ``place``; ``None`` when the address cannot
        tell (a road address for a dong, or an empty address) or the place is not a region."""
        if not address.strip():
            return None
        sido, sigungu = parse_address_region(address)
        if place.type is PlaceType.SIDO:
            return None if sido is None else sido == place.sido
        if place.type is PlaceType.SIGUNGU:
            if sigungu is None:
                return None
            if sido is not None and place.sido is not None and sido != place.sido:
                return False
            sg = normalize(place.sigungu or "")
            return normalize(sigungu) == sg or (normalize(sigungu).startswith(sg) and sg.endswith("시"))
        if place.type in (PlaceType.LEGAL_DONG, PlaceType.ADMIN_DONG):
            if (
                sigungu is not None
                and place.sigungu is not None
                and normalize(sigungu) != normalize(place.sigungu)
            ):
                return False
            name = (
                place.name
                if place.type is PlaceType.LEGAL_DONG
                else _collective_dong(place.name) or place.name
            )
            dongs = _address_dongs(address)
            if not dongs:
                return None
            return any(d == name or re.fullmatch(rf"{re.escape(name)}\d+가", d) is not None for d in dongs)
        return None

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
            _default = Gazetteer._from_files(_data_root())
        return _default


def install_gazetteer(gazetteer: Gazetteer) -> None:
    """Make ``gazetteer`` the process-wide one (:meth:`Gazetteer.load`, :func:`get_gazetteer`): a
    gazetteer of the package data read back from a cache (``matjip.agent.understanding``), so the
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
