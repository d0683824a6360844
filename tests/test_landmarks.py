"""Landmarks and everyday names (data/gazetteer/landmarks.tsv, matjip.geo.landmarks) and the
covered-area helper (matjip.geo.coverage)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from matjip.geo import CoveredArea, Gazetteer, LandmarkKind, LandmarkRow, PlaceType, get_gazetteer
from matjip.geo.distance import haversine_m
from matjip.geo.landmarks import LandmarkFileError, parse_landmarks, read_landmarks
from matjip.settings import DEMO_DATA

LANDMARKS_FILE = (
    Path(__file__).resolve().parents[1] / "src" / "matjip" / "data" / "gazetteer" / "landmarks.tsv"
)


@pytest.fixture(scope="module")
def g() -> Gazetteer:
    return Gazetteer.load()


# Hand-checked reference points, independent of the gazetteer code: station coordinates of the KRIC
# station list, and restaurants of the demo data whose address or name puts them at the place
# (mapx/mapy of kakao_capital.jsonl.gz).
MAGIC_ISLAND = (37.50922, 127.10053)  # 롯데월드 매직아일랜드, the island in 석촌호수 (서호)
LOTTE_WORLD = (37.51161, 127.09795)  # 올림픽로 240, "롯데월드 민속식당"
LOTTE_WORLD_MALL = (37.51377, 127.10344)  # 올림픽로 300, a "…롯데월드몰점"
MONGCHONTOSEONG_STATION = (37.517692, 127.11274)  # 몽촌토성역 (평화의문), the park's west gate
JAMSIL_SAENAE_STATION = (37.511653, 127.086224)
KONKUK_STATION = (37.540645, 127.070167)  # 건대입구역
SEOUL_NATL_UNIV_OF_EDUCATION_STATION = (37.493509, 127.014114)  # 교대역
EXPRESS_BUS_TERMINAL_STATION = (37.504758, 127.004672)  # 고속터미널역
COEX = (37.51141, 127.05912)  # 영동대로 513, a "…코엑스점"
SONGNIDAN_GIL = (37.50964, 127.10955)  # 백제고분로45길 17, "…송리단길점"
BANGI_FOOD_ALLEY = (37.51298, 127.10987)  # 오금로15길 16
CHEONHO_RODEO = (37.53906, 127.12723)  # 천호대로157길 29, "…천호로데오점"
MUNJEONG_LAW_TOWN = (37.48606, 127.12101)  # 법원로 114, "…법조타운점"
WIRYE_SQUARE = (37.47273, 127.14216)  # restaurants named "…위례중앙광장점"
HANAM_GEOMDANSAN_STATION = (37.539729, 127.223427)  # 스타필드 하남's station
YEOUIDO_STATION = (37.521711, 126.924242)  # 더현대 서울, IFC몰
YEONGDEUNGPO_STATION = (37.515756, 126.907411)  # 타임스퀘어
PANGYO_STATION = (37.394906, 127.111173)
GARAK_MARKET_STATION = (37.492661, 127.11799)
SEONGNAECHEON_RO = (37.49894, 127.14281)  # 성내천로 130
SPORTS_COMPLEX_STATION = (37.511142, 127.075379)  # 종합운동장역
MANGWON_STATION = (37.556031, 126.910129)
HONGIK_STATION = (37.557356, 126.925657)
SAMSEONG_STATION = (37.508827, 127.063203)

EVERYDAY_NAMES = [
    ("석촌호수", MAGIC_ISLAND),
    ("롯데월드", LOTTE_WORLD),
    ("롯데월드몰", LOTTE_WORLD_MALL),
    ("잠실 롯데몰", LOTTE_WORLD_MALL),
    ("올림픽공원", MONGCHONTOSEONG_STATION),
    ("올공", MONGCHONTOSEONG_STATION),
    ("코엑스", COEX),
    ("송리단길", SONGNIDAN_GIL),
    ("방이동 먹자골목", BANGI_FOOD_ALLEY),
    ("새내", JAMSIL_SAENAE_STATION),
    ("잠실새내", JAMSIL_SAENAE_STATION),
    ("건대", KONKUK_STATION),
    ("교대", SEOUL_NATL_UNIV_OF_EDUCATION_STATION),
    ("고터", EXPRESS_BUS_TERMINAL_STATION),
    ("망리단길", MANGWON_STATION),
    ("연트럴파크", HONGIK_STATION),
    ("여의도 더현대", YEOUIDO_STATION),
    ("더현대", YEOUIDO_STATION),
    ("IFC몰", YEOUIDO_STATION),
    ("타임스퀘어", YEONGDEUNGPO_STATION),
    ("가락시장", GARAK_MARKET_STATION),
    ("문정 법조타운", MUNJEONG_LAW_TOWN),
    ("위례", WIRYE_SQUARE),
    ("판교 테크노밸리", PANGYO_STATION),
    ("하남 스타필드", HANAM_GEOMDANSAN_STATION),
    ("스타필드 하남", HANAM_GEOMDANSAN_STATION),
    ("천호 로데오", CHEONHO_RODEO),
    ("성내천", SEONGNAECHEON_RO),
    ("잠실종합운동장", SPORTS_COMPLEX_STATION),
    ("잠실야구장", SPORTS_COMPLEX_STATION),
    ("삼성역", SAMSEONG_STATION),
]


@pytest.mark.parametrize(("name", "point"), EVERYDAY_NAMES)
def test_everyday_names_resolve_near_the_real_place(
    g: Gazetteer, name: str, point: tuple[float, float]
) -> None:
    place = g.best(name)
    assert place is not None, name
    assert haversine_m(place.lat, place.lon, *point) < 1500, (name, place.display_name)
    assert not g.is_ambiguous(name), name
    assert place.sido in ("서울", "경기") and place.sigungu


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("새내", "잠실새내역"),
        ("건대", "건대입구역"),
        ("교대", "교대역"),
        ("올공역", "올림픽공원역"),
        ("뚝섬유원지", "자양역"),
        ("올공", "올림픽공원"),
        ("롯데타워", "롯데월드타워"),
        ("하남스타필드", "스타필드 하남"),
        ("위례 스타필드", "스타필드시티 위례"),
        ("타임스퀘어", "영등포 타임스퀘어"),
        ("신사동 가로수길", "가로수길"),
    ],
)
def test_colloquial_names(g: Gazetteer, name: str, expected: str) -> None:
    best = g.best(name)
    assert best is not None and best.name == expected


def test_landmarks_are_points_not_regions(g: Gazetteer) -> None:
    lake = g.best("석촌호수")
    assert lake is not None and lake.type is PlaceType.LANDMARK
    assert lake.category == "공원" and lake.display_name == "석촌호수 (공원, 서울 송파구)"
    assert g.region_terms(lake) == [] and g.contains_point(lake, lake.lat, lake.lon) is None
    assert lake.default_radius_m == 1000
    alley, wirye, park = g.best("방이동 먹자골목"), g.best("위례"), g.best("올공")
    assert alley is not None and alley.default_radius_m == 500 and alley.category == "먹자골목"
    assert wirye is not None and wirye.default_radius_m == 2500 and wirye.category == "생활권"
    assert park is not None and park.default_radius_m == 1500


def test_regions_of_gyeonggi_landmarks(g: Gazetteer) -> None:
    names = ("스타필드 하남", "스타필드시티 위례", "판교 테크노밸리", "모란시장")
    regions = {n: p.region for n in names if (p := g.best(n)) is not None}
    assert regions == {
        "스타필드 하남": "경기 하남시",
        "스타필드시티 위례": "경기 하남시",  # the 2015 Seoul outline would say 송파구
        "판교 테크노밸리": "경기 성남시 분당구",
        "모란시장": "경기 성남시 중원구",
    }


def test_a_shared_name_far_apart_is_ambiguous(g: Gazetteer) -> None:
    found = g.lookup("법조타운")
    assert {p.name for p in found} == {"문정 법조타운", "서초 법조타운"}
    assert g.is_ambiguous("법조타운")
    assert g.best("송파 법조타운").name == "문정 법조타운"  # type: ignore[union-attr]
    assert g.best("서초 법조타운").name == "서초 법조타운"  # type: ignore[union-attr]
    assert not g.is_ambiguous("문정 법조타운") and not g.is_ambiguous("서초 법조타운")


def test_official_names_beat_landmark_aliases(g: Gazetteer) -> None:
    assert g.best("올림픽공원역").type is PlaceType.SUBWAY_STATION  # type: ignore[union-attr]
    assert g.best("가락시장").type is PlaceType.HOT_PLACE  # type: ignore[union-attr]
    assert g.best("가락시장역").type is PlaceType.SUBWAY_STATION  # type: ignore[union-attr]
    assert g.best("잠실").name == "잠실역"  # type: ignore[union-attr]
    assert g.best("위례동") is not None and g.best("위례동").type is PlaceType.ADMIN_DONG  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("홍대", ["홍대입구역", "홍대 관광특구"]),
        ("성수", ["성수역", "성수카페거리", "성수동"]),
        ("마포", ["마포구", "마포역"]),
        ("종로", ["종로구", "종로·청계 관광특구", "종로"]),
        ("일산", ["고양시 일산동구", "고양시 일산서구"]),
        ("연남", ["연남동"]),
        ("서울", ["서울특별시"]),
    ],
)
def test_curated_aliases_moved_to_the_data_file_keep_their_order(
    g: Gazetteer, name: str, expected: list[str]
) -> None:
    curated = [c.place.name for c in g.candidates(name) if c.tier == 0]
    assert curated == expected
    assert not g.is_ambiguous(name)


@pytest.mark.parametrize("name", ["부산", "시부야", "해운대", "도톤보리", "맨해튼"])
def test_places_elsewhere_are_not_read_as_local_places(g: Gazetteer, name: str) -> None:
    """Places of other cities are places of those cities (the gazetteer is national); places
    abroad are no places at all."""
    found = g.lookup(name)
    assert all(p.sido not in ("서울", "경기", "인천") for p in found), [p.display_name for p in found]
    if found:
        assert found[0].sido == "부산"
    else:
        assert g.find_in_text(f"{name} 맛집 추천") == []


MENTIONS = [
    ("석촌호수 근처 카페", ["석촌호수"]),
    ("올공 근처 고기집", ["올공"]),
    ("새내에서 2차", ["새내"]),
    ("여의도 더현대 맛집", ["여의도 더현대"]),
    ("방이동 먹자골목 삼겹살", ["방이동 먹자골목"]),
    ("하남 스타필드 푸드코트", ["하남 스타필드"]),
    ("위례 브런치 카페", ["위례"]),
]


@pytest.mark.parametrize(("text", "expected"), MENTIONS)
def test_landmarks_in_text(g: Gazetteer, text: str, expected: list[str]) -> None:
    assert [s for s, _, _ in g.find_in_text(text)] == expected


@pytest.mark.parametrize("text", ["새내기 환영회 장소", "교대근무 끝나고 회식", "올해 공연 보고 밥"])
def test_short_colloquial_names_are_not_found_inside_words(g: Gazetteer, text: str) -> None:
    assert g.find_in_text(text) == []


# --- the data file -----------------------------------------------------------------------------


def test_every_alias_row_finds_its_place(g: Gazetteer) -> None:
    assert g.unresolved_curated == []


def test_data_file_rows() -> None:
    rows = read_landmarks(LANDMARKS_FILE)
    points = [r for r in rows if not r.kind.is_alias]
    assert len(points) >= 60 and 100 <= len(rows) <= 200
    assert {r.kind for r in points} >= {
        LandmarkKind.LANDMARK,
        LandmarkKind.MALL,
        LandmarkKind.MARKET,
        LandmarkKind.PARK,
        LandmarkKind.STREET,
        LandmarkKind.FOOD_ALLEY,
        LandmarkKind.AREA,
    }
    assert all(r.note for r in points), "every point says how it was checked"


def test_every_landmark_is_near_a_station(g: Gazetteer) -> None:
    """A sanity check against typos and swapped coordinates (the notes record the real checks)."""
    for p in g:
        if p.type is PlaceType.LANDMARK:
            (_, dist), *_ = g.nearest(p.lat, p.lon, [PlaceType.SUBWAY_STATION], k=1)
            assert dist < 2500, p.display_name


def test_every_landmark_name_is_its_own_best_match(g: Gazetteer) -> None:
    for p in g:
        if p.type is PlaceType.LANDMARK:
            assert g.best(p.name) == p, p.name


HEADER = "name\ttype\taliases\tlat\tlon\tradius_m\tregion\tnote\n"


def test_parse_minimal_rows() -> None:
    rows = parse_landmarks(
        "# a comment\n\n"
        + HEADER
        + "석촌호수\tpark\t석촌 호수, 호수공원 ,\t37.5090\t127.1020\n"
        + "잠실새내역\tstation_alias\t새내\t37.511653\t127.086224\t\t\tthe station\n"
        + "위례신도시\tarea\t위례\t37.476\t127.146\t2500\t서울 송파구\tspans three cities\n"
    )
    assert rows == [
        LandmarkRow(
            "석촌호수", LandmarkKind.PARK, ("석촌 호수", "호수공원"), 37.509, 127.102, None, "", "", 4
        ),
        LandmarkRow(
            "잠실새내역",
            LandmarkKind.STATION_ALIAS,
            ("새내",),
            37.511653,
            127.086224,
            None,
            "",
            "the station",
            5,
        ),
        LandmarkRow(
            "위례신도시",
            LandmarkKind.AREA,
            ("위례",),
            37.476,
            127.146,
            2500,
            "서울 송파구",
            "spans three cities",
            6,
        ),
    ]
    assert rows[0].default_radius_m == 1000 and rows[2].default_radius_m == 2500
    assert rows[0].category == "공원" and rows[1].category == ""


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("석촌호수\tlake\t\t37.5\t127.1\n", "unknown type"),
        ("석촌호수\tpark\t\t127.1\t37.5\n", "outside the capital area"),
        ("석촌호수\tpark\t\tN\t127.1\n", "no numbers"),
        ("석촌호수\tpark\t\t37.5\n", "columns"),
        ("석촌호수\tpark\t호\t37.5\t127.1\n", "shorter than two"),
        ("잠실새내역\tstation_alias\t\t37.5\t127.1\n", "without aliases"),
        ("잠실새내역\tstation_alias\t새내\t37.5\t127.1\t500\n", "no radius"),
        ("석촌호수\tpark\t\t37.5\t127.1\t50\n", "radius_m"),
        ("석촌호수\tpark\t\t37.5\t127.1\t\t송파구\n", "region"),
        ("석촌호수\tpark\t\t37.5\t127.1\n석촌 호수\tpark\t\t37.5\t127.1\n", "already on line 2"),
    ],
)
def test_parse_errors_name_the_line(row: str, message: str) -> None:
    with pytest.raises(LandmarkFileError, match=message):
        parse_landmarks(HEADER + row)


def test_parse_needs_the_header() -> None:
    with pytest.raises(LandmarkFileError, match="header"):
        parse_landmarks("석촌호수\tpark\t\t37.5\t127.1\n")


def test_alias_rows_must_match_a_place_near_their_point(g: Gazetteer) -> None:
    rows = [
        LandmarkRow("잠실새내역", LandmarkKind.STATION_ALIAS, ("새내",), 37.511653, 127.086224),
        LandmarkRow("양평역", LandmarkKind.STATION_ALIAS, ("서울양평",), 37.5258, 126.8863),
        LandmarkRow("잠실새내역", LandmarkKind.STATION_ALIAS, ("먼새내",), 37.40, 127.00),
        LandmarkRow("잠실새내역", LandmarkKind.DISTRICT_ALIAS, ("틀린새내",), 37.511653, 127.086224),
    ]
    small = Gazetteer(g.places, aliases=rows)
    assert small.best("새내").name == "잠실새내역"  # type: ignore[union-attr]
    yangpyeong = small.best("서울양평")
    assert yangpyeong is not None and yangpyeong.sido == "서울"  # the 5호선 one, not 경기 양평군's
    assert small.lookup("먼새내") == [] and small.lookup("틀린새내") == []
    assert len(small.unresolved_curated) == 2


# --- the covered area ----------------------------------------------------------------------------

COUNTS = {
    "서울 송파구": 6561,
    "서울 강동구": 1725,
    "서울특별시 강남구": 1403,
    "경기 성남시 수정구": 385,
    "경기 하남시": 178,
    "서울 영등포구": 170,
    "서울 서대문구": 33,
    "서울 종로구": 3,
    "부산 해운대구": 50,
    "주소 없음": 300,
}


def test_covered_area_from_counts(g: Gazetteer) -> None:
    area = CoveredArea.from_counts(COUNTS, min_count=20)
    assert area.regions()[:3] == [
        ("서울", "송파구", 6561),
        ("서울", "강동구", 1725),
        ("서울", "강남구", 1403),
    ]

    def covers(name: str) -> bool | None:
        place = g.best(name)
        assert place is not None, name
        return area.covers(place)

    assert covers("석촌호수") and covers("새내") and covers("코엑스") and covers("스타필드 하남")
    assert covers("위례") and covers("더현대") and covers("송파구") and covers("서울")
    assert covers("성남시")  # a city is covered when one of its gu is
    assert covers("판교 테크노밸리") is False  # 성남시 분당구 has no restaurants
    assert covers("종로구") is False  # 3 restaurants only
    assert covers("인천") is False and covers("수원") is False
    chuncheon = next(p for p in g if p.type is PlaceType.SUBWAY_STATION and p.sido == "강원")
    assert area.covers(chuncheon) is False
    assert area.covers_region("부산", "해운대구") is True  # counts decide, not the capital area
    assert area.covers_region(None, "송파구") is None
    assert area.describe(limit=4) == "서울 송파구·강동구·강남구, 경기 성남시 수정구 외 4곳"


def test_covered_area_from_addresses() -> None:
    area = CoveredArea.from_addresses(
        [
            "서울 송파구 올림픽로 240",
            "서울특별시 송파구 송파대로 345",
            "",
            "경기 성남시 분당구 판교역로 146번길 20",
        ],
        min_count=2,
    )
    assert area.counts == {("서울", "송파구"): 2, ("경기", "성남시 분당구"): 1}
    assert area.covers_region("서울", "송파구") and not area.covers_region("경기", "성남시 분당구")


def test_covered_area_of_the_demo_data(g: Gazetteer) -> None:
    with gzip.open(DEMO_DATA, "rt", encoding="utf-8") as fh:
        addresses = [(doc.get("roadAddress") or doc.get("address") or "") for doc in map(json.loads, fh)]
    area = CoveredArea.from_addresses(addresses)
    top = [f"{sd} {sg}" for sd, sg, _ in area.regions()[:4]]
    assert top == ["서울 송파구", "서울 강동구", "서울 강남구", "서울 마포구"]
    inside = ["석촌호수", "올공", "새내", "코엑스", "망리단길", "하남 스타필드", "위례", "더현대", "건대"]
    outside = ["판교 테크노밸리", "정자동 카페거리", "북촌", "경복궁", "인천"]
    assert [n for n in inside if not area.covers(g.best(n))] == []  # type: ignore[arg-type]
    assert [n for n in outside if area.covers(g.best(n))] == []  # type: ignore[arg-type]
    assert get_gazetteer() is g
