"""What the gazetteer holds: :class:`Place` (one named place), its :class:`PlaceType`, the default
search radius per type and the :class:`Candidate` a lookup returns.

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
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from pydantic import BaseModel, ConfigDict, Field

from matjip.words import word_map


class PlaceType(StrEnum):
    SUBWAY_STATION = "subway_station"
    HOT_PLACE = "hot_place"
    LANDMARK = "landmark"
    LEGAL_DONG = "legal_dong"
    ADMIN_DONG = "admin_dong"
    SIGUNGU = "sigungu"
    SIDO = "sido"


# Korean labels (data/words/gazetteer.toml).
TYPE_LABELS: Final[dict[PlaceType, str]] = {
    PlaceType(t): label for t, (label,) in word_map("gazetteer", "type_labels").items()
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

# How a lookup matched, best first: a curated colloquial alias, an exact official name, a data or
# derived alias, a query expansion ("성수" + 동/역/구/시/군).
TIER_CURATED, TIER_NAME, TIER_ALIAS, TIER_EXPANDED = 0, 1, 2, 3


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
