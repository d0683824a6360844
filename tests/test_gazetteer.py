"""The gazetteer (matjip.geo.gazetteer): lookup, ambiguity, mentions in text, regions, the CLI."""

from __future__ import annotations

import json
import time

import numpy as np
import pytest
from click.testing import CliRunner

from matjip.cli import cli
from matjip.geo import Gazetteer, Place, PlaceType, contains_point, find_in_text, get_gazetteer, region_terms
from matjip.geo.distance import haversine_m

SEOLLEUNG = (37.504503, 127.049008)  # 선릉역: well inside 강남구
CITY_HALL = (37.566295, 126.977945)  # 서울시청: 중구
SEOUL_YANGPYEONG = (37.5258, 126.8863)  # 5호선 양평역


@pytest.fixture(scope="module")
def g() -> Gazetteer:
    return Gazetteer.load()


def names(places: list[Place]) -> list[str]:
    return [p.name for p in places]


# --- loading ----------------------------------------------------------------------------------


def test_load_is_cached_and_complete(g: Gazetteer) -> None:
    assert Gazetteer.load() is g
    assert get_gazetteer() is g
    counts = {t: sum(1 for p in g if p.type is t) for t in PlaceType}
    assert counts[PlaceType.SUBWAY_STATION] > 600
    assert counts[PlaceType.ADMIN_DONG] == 3512  # every admin dong of Korea (2022-03)
    assert counts[PlaceType.LEGAL_DONG] > 400
    assert counts[PlaceType.SIGUNGU] >= 77
    assert counts[PlaceType.SIDO] == 17
    assert 50 < counts[PlaceType.HOT_PLACE] < 115  # hot places that are just a station are folded


def test_every_curated_alias_resolves(g: Gazetteer) -> None:
    assert g.unresolved_curated == []


def test_display_names_are_unique(g: Gazetteer) -> None:
    seen = [p.display_name for p in g]
    assert len(seen) == len(set(seen))


def test_places_lie_in_korea_and_the_capital_ones_in_the_capital_area(g: Gazetteer) -> None:
    capital = [p for p in g if p.sido in ("서울", "경기", "인천")]
    assert all(36.5 < p.lat < 38.5 and 124.5 < p.lon < 128.0 for p in capital)  # 백령도 is at 124.7°E
    assert all(33.0 < p.lat < 38.7 and 124.5 < p.lon < 131.0 for p in g)  # 마라도 to 독도


# --- lookup -------------------------------------------------------------------------------------


def test_yangpyeong_station_has_two_candidates(g: Gazetteer) -> None:
    found = g.lookup("양평역")
    assert len(found) == 2
    assert all(p.type is PlaceType.SUBWAY_STATION for p in found)
    seoul = next(p for p in found if p.sido == "서울")
    gyeonggi = next(p for p in found if p.sido == "경기")
    assert haversine_m(seoul.lat, seoul.lon, *SEOUL_YANGPYEONG) < 300
    assert seoul.display_name == "양평역 (5호선, 서울 영등포구)"
    assert gyeonggi.display_name == "양평역 (경의중앙선, 경기 양평군)"
    assert g.is_ambiguous("양평역")
    assert not g.is_ambiguous("서울 양평역")
    assert names(g.lookup("경기 양평역")) == ["양평역"] and g.best("경기 양평역") == gyeonggi
    assert g.best("영등포구 양평역") == seoul


def test_bare_yangpyeong_is_ambiguous_with_all_candidates(g: Gazetteer) -> None:
    found = g.lookup("양평")
    kinds = {p.type for p in found}
    assert {PlaceType.SIGUNGU, PlaceType.SUBWAY_STATION, PlaceType.ADMIN_DONG} <= kinds
    assert g.is_ambiguous("양평")


@pytest.mark.parametrize("query", ["홍대", "홍대입구", "홍대입구역", "홍대역", "홍대앞"])
def test_hongdae_means_hongik_univ_station(g: Gazetteer, query: str) -> None:
    best = g.best(query)
    assert best is not None and best.name == "홍대입구역" and best.type is PlaceType.SUBWAY_STATION
    assert not g.is_ambiguous(query)


def test_gangnam(g: Gazetteer) -> None:
    found = g.lookup("강남")
    assert found[0].name == "강남역"
    assert "강남구" in names(found)
    assert not g.is_ambiguous("강남")
    assert g.best("강남역") == found[0]
    gu = g.best("강남구")
    assert gu is not None and gu.type is PlaceType.SIGUNGU and gu.sido == "서울"
    assert g.best("서울 강남구") == gu
    assert g.best("서울특별시 강남구") == gu
    assert g.best("서울강남구") == gu


def test_gu_stem_prefers_the_gu(g: Gazetteer) -> None:
    found = g.lookup("마포")
    assert found[0].name == "마포구" and found[0].type is PlaceType.SIGUNGU
    assert "마포역" in names(found)
    assert g.best("송파") is not None and g.best("송파").type is PlaceType.SIGUNGU  # type: ignore[union-attr]


def test_seongsu(g: Gazetteer) -> None:
    found = g.lookup("성수")
    assert found[0].name == "성수역"
    assert {"성수동", "성수1가1동"} <= set(names(found))
    dong = g.best("성수동")
    assert dong is not None and dong.type is PlaceType.LEGAL_DONG and dong.sigungu == "성동구"
    # the legal 성수동 is the union of 성수동1가 and 성수동2가
    part1, part2 = g.best("성수동1가"), g.best("성수동2가")
    assert part1 is not None and part2 is not None
    assert g.contains_point(dong, part1.lat, part1.lon) and g.contains_point(dong, part2.lat, part2.lon)
    assert g.best("성수1가") == part1
    assert {"성수1가1동", "성수2가3동"} <= set(names(g.lookup("성수동")))  # admin dongs too


def test_songjeong_dong_has_several_far_apart(g: Gazetteer) -> None:
    found = g.lookup("송정동")
    assert len(found) >= 3
    assert {p.region for p in found} >= {"서울 성동구", "경기 광주시"}
    assert len({p.display_name for p in found}) == len(found)
    assert g.is_ambiguous("송정동")
    assert {p.region for p in g.lookup("성동구 송정동")} == {"서울 성동구"}
    assert not g.is_ambiguous("성동구 송정동")


@pytest.mark.parametrize(
    "query", ["수원시장안구", "수원시 장안구", "장안구", "수원 장안구", "경기 수원시 장안구"]
)
def test_city_gu_with_or_without_spaces(g: Gazetteer, query: str) -> None:
    best = g.best(query)
    assert best is not None and best.key == "sigungu:31011"
    assert best.sigungu == "수원시 장안구" and best.display_name == "수원시 장안구 (경기)"


def test_whole_city_exists_besides_its_gu(g: Gazetteer) -> None:
    city = g.best("수원")
    assert city is not None and city.name == "수원시" and city.type is PlaceType.SIGUNGU
    assert "수원역" in names(g.lookup("수원"))
    bundang = g.best("분당")
    assert bundang is not None and bundang.name == "성남시 분당구"


def test_gwangju_is_gyeonggi_but_flagged(g: Gazetteer) -> None:
    found = g.lookup("광주")
    assert [p.display_name for p in found] == ["광주시 (경기)", "광주광역시"]
    assert g.is_ambiguous("광주")
    note = g.homonym_note("광주")
    assert note is not None and "광주광역시" in note
    assert g.homonym_note("강남") is None
    found = g.lookup("경기 광주")
    assert found[0].name == "광주시" and "경기광주역" in names(found)
    assert not g.is_ambiguous("경기 광주")


def test_same_gu_name_in_two_cities(g: Gazetteer) -> None:
    found = g.lookup("중구")
    assert [p.region for p in found][:2] == ["서울 중구", "인천 중구"]
    assert {"부산 중구", "대구 중구"} <= {p.region for p in found}
    assert g.is_ambiguous("중구")


def test_seoul_station_is_one_place_with_all_lines(g: Gazetteer) -> None:
    found = g.lookup("서울역")
    assert len(found) == 1
    assert {"1호선", "4호선", "경의중앙선", "공항철도"} <= set(found[0].lines)


def test_hot_place_points_do_not_override_stations(g: Gazetteer) -> None:
    # the city-data point of 대림역 is 33 km north of the station
    daerim = g.lookup("대림역")
    assert len(daerim) == 1 and daerim[0].lat == pytest.approx(37.493, abs=0.005)
    # 이대역 (an alias of the 신촌·이대역 hot place) is the station
    assert g.best("이대역") is not None and g.best("이대역").type is PlaceType.SUBWAY_STATION  # type: ignore[union-attr]


def test_legal_dong_is_preferred_for_an_exact_dong_name(g: Gazetteer) -> None:
    found = g.lookup("역삼동")
    assert found[0].type is PlaceType.LEGAL_DONG
    assert {"역삼1동", "역삼2동"} <= set(names(found))
    assert not g.is_ambiguous("역삼동")


def test_sinsa_dong_is_ambiguous(g: Gazetteer) -> None:
    assert {p.sigungu for p in g.lookup("신사동")} >= {"강남구", "은평구", "관악구"}
    assert g.is_ambiguous("신사동")


def test_colloquial_aliases(g: Gazetteer) -> None:
    expect = {
        "건대": "건대입구역",
        "신촌": "신촌역",
        "잠실": "잠실역",
        "판교": "판교역",
        "을지로": "을지로3가역",
        "샤로수길": "서울대입구역",
        "가로수길": "가로수길",
        "종로": "종로구",
        "서울": "서울특별시",
    }
    for query, name in expect.items():
        best = g.best(query)
        assert best is not None and best.name == name, query


@pytest.mark.parametrize("query", ["", " ", "역", "없는동네이름", "맥도날드"])
def test_unknown_names(g: Gazetteer, query: str) -> None:
    assert g.lookup(query) == []
    assert g.best(query) is None
    assert not g.is_ambiguous(query)


def test_default_radius_policy(g: Gazetteer) -> None:
    radius = {
        q: g.best(q).default_radius_m
        for q in ("강남역", "가로수길", "역삼동", "역삼1동", "강남구", "광주시", "서울")
    }  # type: ignore[union-attr]
    assert radius == {
        "강남역": 1000,
        "가로수길": 1000,
        "역삼동": 1500,
        "역삼1동": 1500,
        "강남구": 5000,
        "광주시": 10000,
        "서울": 20000,
    }
    assert g.best("양평읍").default_radius_m == 3000  # type: ignore[union-attr]


# --- mentions in text ------------------------------------------------------------------------

MENTIONS = [
    ("강남역 주차되는 일식집", ["강남역"]),
    ("홍대에 회식", ["홍대"]),
    ("마포 진대감", ["마포"]),
    ("성수동 카페 추천", ["성수동"]),
    ("잠실쪽 고기집", ["잠실"]),
    ("판교역 근처 점심", ["판교역"]),
    ("서울 강남구 삼겹살", ["서울 강남구"]),
    ("수원시 장안구 갈비", ["수원시 장안구"]),
    ("신촌에서 홍대까지 걸어갈만한 술집", ["신촌", "홍대"]),
    ("을지로 노포", ["을지로"]),
    ("양평역 해장국", ["양평역"]),
    ("방배역 먹자골목에서 2차", ["방배역 먹자골목"]),
    ("서울대 근처 샤로수길 맛집", ["서울대", "샤로수길"]),
    ("경리단길이나 해방촌", ["경리단길", "해방촌"]),
    ("DDP 근처 카페", ["DDP"]),
    ("홍대입구역에서 합정역까지", ["홍대입구역", "합정역"]),
    ("신촌 동네 맛집", ["신촌"]),
    ("분당 정자동 브런치", ["분당", "정자동"]),
    ("강남역주차 가능한 곳", ["강남역"]),
    ("4.19 카페거리 카페", ["4.19 카페거리"]),
]


@pytest.mark.parametrize(("text", "expected"), MENTIONS)
def test_find_in_text(g: Gazetteer, text: str, expected: list[str]) -> None:
    found = g.find_in_text(text)
    assert [s for s, _, _ in found] == expected
    for surface, start, end in found:
        assert surface == text[start:end]


NO_PLACE = [
    "조용한 맥주집",
    "버거킹과 맥도날드 비교",
    "주차되는 일식집",
    "수유실 있는 식당",
    "대화하기 좋은 카페",
    "오리고기 맛집",
    "국수 맛집 추천",
    "주차 가능한 곳",
    "고양이 카페",
    "연수 끝나고 회식",
    "효자 메뉴가 뭐예요",
    "중앙에 테이블 있는 곳",
    "역 근처 맛집",
    "가정식 백반",
    "구성이 알찬 코스",
]


@pytest.mark.parametrize("text", NO_PLACE)
def test_no_false_positives(g: Gazetteer, text: str) -> None:
    assert g.find_in_text(text) == []


def test_mentions_resolve_to_places(g: Gazetteer) -> None:
    found = g.places_in_text("홍대에서 회식하고 성수동 카페")
    assert [(s, p.name) for s, _, _, p in found] == [("홍대", "홍대입구역"), ("성수동", "성수동")]
    assert find_in_text("강남역 근처") == [("강남역", 0, 3)]


def test_find_in_text_is_fast(g: Gazetteer) -> None:
    sentences = [t for t, _ in MENTIONS] + NO_PLACE
    start = time.perf_counter()
    for _ in range(20):
        for s in sentences:
            g.find_in_text(s)
    per_sentence = (time.perf_counter() - start) / (20 * len(sentences))
    assert per_sentence < 0.001


# --- regions ----------------------------------------------------------------------------------


def test_contains_point_for_gu_and_legal_dong(g: Gazetteer) -> None:
    gangnam = g.best("강남구")
    assert gangnam is not None
    assert g.contains_point(gangnam, *SEOLLEUNG) is True
    assert g.contains_point(gangnam, *CITY_HALL) is False
    assert contains_point(gangnam, *SEOLLEUNG) is True
    yeoksam = g.best("역삼동")
    station = g.best("역삼역")
    assert yeoksam is not None and station is not None
    assert g.contains_point(yeoksam, station.lat, station.lon) is True
    assert g.contains_point(yeoksam, *CITY_HALL) is False
    seoul = g.best("서울")
    assert seoul is not None and g.contains_point(seoul, *CITY_HALL) is True
    assert g.contains_point(seoul, 37.2636, 127.0286) is False  # 수원


def test_contains_point_is_none_without_an_outline(g: Gazetteer) -> None:
    for q in ("강남역", "가로수길", "역삼1동", "수원시 장안구", "경기"):
        place = g.best(q)
        assert place is not None and g.contains_point(place, *SEOLLEUNG) is None, q


def test_contains_points_matches_contains_point(g: Gazetteer) -> None:
    gangnam = g.best("강남구")
    assert gangnam is not None
    rng = np.random.default_rng(3)
    la = rng.uniform(37.45, 37.55, 400)
    lo = rng.uniform(126.98, 127.12, 400)
    la[0] = np.nan
    many = g.contains_points(gangnam, la, lo)
    assert many is not None
    assert many.tolist() == [bool(g.contains_point(gangnam, a, b)) for a, b in zip(la, lo, strict=True)]
    assert 50 < many.sum() < 350


def test_region_at(g: Gazetteer) -> None:
    regions = g.region_at(*SEOLLEUNG)
    assert [p.type for p in regions] == [PlaceType.SIDO, PlaceType.SIGUNGU, PlaceType.LEGAL_DONG]
    assert regions[1].name == "강남구"


def test_region_terms(g: Gazetteer) -> None:
    def terms(q: str, **kw: bool) -> list[str]:
        place = g.best(q)
        assert place is not None
        return g.region_terms(place, **kw)

    assert terms("강남구") == ["강남구"]
    assert terms("서울") == ["서울"]
    assert terms("성남시 분당구") == ["성남시 분당구", "성남시분당구"]
    assert terms("중구")[0] == "서울 중구"  # 중구 is also in Incheon
    assert terms("양주시")[0] == "경기 양주시"  # "양주시" is inside "남양주시"
    assert terms("남양주시") == ["남양주시"]
    assert terms("역삼동") == []  # road addresses carry no dong
    assert terms("역삼동", include_dong=True) == ["강남구 역삼동"]
    assert terms("역삼1동", include_dong=True) == ["강남구 역삼동"]
    assert terms("강남역") == []
    gu = g.best("강남구")
    assert gu is not None and region_terms(gu) == ["강남구"]


def test_region_terms_match_restaurant_addresses(g: Gazetteer) -> None:
    addresses = ["서울 강남구 테헤란로 152", "서울 강동구 올림픽로100길 6", "경기 남양주시 다산중앙로 1"]
    gangnam, yangju = g.best("강남구"), g.best("양주시")
    assert gangnam is not None and yangju is not None
    assert [any(t in a for t in g.region_terms(gangnam)) for a in addresses] == [True, False, False]
    assert [any(t in a for t in g.region_terms(yangju)) for a in addresses] == [False, False, False]


def test_address_in_region(g: Gazetteer) -> None:
    gangnam, seoul_jung, yeoksam = g.best("강남구"), g.best("서울 중구"), g.best("역삼동")
    assert gangnam is not None and seoul_jung is not None and yeoksam is not None
    assert g.address_in_region(gangnam, "서울 강남구 테헤란로 152") is True
    assert g.address_in_region(gangnam, "서울특별시 서초구 강남대로 1") is False
    assert g.address_in_region(seoul_jung, "인천 중구 공항로 272") is False
    assert g.address_in_region(seoul_jung, "서울 중구 세종대로 110") is True
    assert g.address_in_region(yeoksam, "서울 강남구 테헤란로 152") is None
    assert g.address_in_region(yeoksam, "서울 강남구 테헤란로 152 (역삼동, 강남파이낸스센터)") is True
    assert g.address_in_region(yeoksam, "서울 강남구 역삼동 823") is True
    assert g.address_in_region(yeoksam, "서울 강남구 삼성동 159") is False
    assert g.address_in_region(yeoksam, "") is None


def test_nearest_station(g: Gazetteer) -> None:
    (place, dist), *_ = g.nearest(37.497952, 127.027619, [PlaceType.SUBWAY_STATION], k=3)
    assert place.name == "강남역" and dist < 100


# --- CLI ---------------------------------------------------------------------------------------


def test_cli_lists_every_candidate_and_notes_ambiguity() -> None:
    result = CliRunner().invoke(cli, ["places", "양평역"])
    assert result.exit_code == 0, result.output
    assert result.output.count("양평역") >= 2
    assert "5호선" in result.output and "경의중앙선" in result.output
    assert "여러 곳" in result.output
    for header in ("번호", "이름", "종류", "지역", "노선", "위도", "경도", "기본 반경"):
        assert header in result.output


def test_cli_json() -> None:
    result = CliRunner().invoke(cli, ["places", "--json", "송정동"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["ambiguous"] is True
    assert len(data["candidates"]) >= 3
    assert {c["type"] for c in data["candidates"]} == {"legal_dong", "admin_dong"}
    assert data["best"] == data["candidates"][0]["key"]


def test_cli_unambiguous_and_multi_word() -> None:
    result = CliRunner().invoke(cli, ["places", "--json", "서울", "강남구"])
    data = json.loads(result.output)
    assert data["ambiguous"] is False and [c["name"] for c in data["candidates"]] == ["강남구"]
    assert data["candidates"][0]["region_terms"] == ["강남구"]


def test_cli_text_mode() -> None:
    result = CliRunner().invoke(cli, ["places", "--text", "--json", "홍대에 회식"])
    data = json.loads(result.output)
    assert [(m["text"], m["place"]["name"]) for m in data["mentions"]] == [("홍대", "홍대입구역")]


def test_cli_unknown_place_is_an_error() -> None:
    result = CliRunner().invoke(cli, ["places", "없는동네이름"])
    assert result.exit_code == 2
    assert "찾지 못했어요" in result.output
