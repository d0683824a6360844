"""Issue 22.6/22.8 and 24.1/24.2: a national gazetteer, coverage that follows the indexed documents,
same-name places said plainly, and the capital's stations and English names.

The acceptance test ingests a synthetic collected area outside the demo data (부산진구: 돼지국밥 places
around 서면, cafés around 전포동, in the crawl format of ``matjip collect``) beside a small capital
sample, then asks through the real offline agent."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from matjip.agent.service import Agent
from matjip.geo.gazetteer import Gazetteer, PlaceType
from matjip.settings import Settings
from support.demo import write_sample

# (title, category, road address, lat, lon, menus)
_SEOMYEON = [
    (
        "서면원조돼지국밥",
        "한식>국밥",
        "부산 부산진구 서면로68번길 12",
        35.15761,
        129.05874,
        "돼지국밥 9,500|수육백반 12,000",
    ),
    (
        "송정3대국밥 서면점",
        "한식>국밥",
        "부산 부산진구 서전로10번길 31",
        35.15652,
        129.05991,
        "돼지국밥 10,000|순대국밥 10,000",
    ),
    (
        "부산진돼지국밥",
        "한식>국밥",
        "부산 부산진구 중앙대로 680",
        35.15820,
        129.05998,
        "돼지국밥 9,000|내장국밥 9,000",
    ),
    (
        "서면할매국밥",
        "한식>국밥",
        "부산 부산진구 부전로 66",
        35.15704,
        129.05795,
        "돼지국밥 8,500|섞어국밥 9,000",
    ),
    (
        "영진돼지국밥 부전점",
        "한식>국밥",
        "부산 부산진구 가야대로 795",
        35.15590,
        129.05700,
        "돼지국밥 9,500|수육 25,000",
    ),
    (
        "쌍둥이돼지국밥 서면",
        "한식>국밥",
        "부산 부산진구 서면문화로 27",
        35.15530,
        129.05905,
        "돼지국밥 10,000|따로국밥 10,500",
    ),
    (
        "합천일류돼지국밥",
        "한식>국밥",
        "부산 부산진구 신천대로62번길 20",
        35.15885,
        129.06102,
        "돼지국밥 9,000",
    ),
    ("서면밀면", "한식>국수", "부산 부산진구 서면로 45", 35.15690, 129.05840, "물밀면 9,000|비빔밀면 9,500"),
    ("개금밀면 서면점", "한식>국수", "부산 부산진구 동천로 92", 35.15480, 129.06080, "밀면 9,000|만두 6,000"),
    (
        "서면곱창골목 양곱창",
        "한식>곱창,막창",
        "부산 부산진구 서면로 12",
        35.15640,
        129.05760,
        "양곱창 18,000",
    ),
    (
        "서면 돼지갈비",
        "한식>육류,고기",
        "부산 부산진구 중앙대로 702",
        35.15930,
        129.06050,
        "돼지갈비 16,000|냉면 7,000",
    ),
    (
        "부전시장 어묵집",
        "분식",
        "부산 부산진구 중앙대로783번길 21",
        35.16080,
        129.06020,
        "어묵 1,000|떡볶이 4,000",
    ),
]
_JEONPO = [
    ("전포커피바", "카페", "부산 부산진구 전포대로 209", 35.15420, 129.06560, "아메리카노 4,500|라떼 5,000"),
    (
        "모모스 전포",
        "카페",
        "부산 부산진구 서전로46번길 10",
        35.15505,
        129.06420,
        "아메리카노 5,000|핸드드립 6,500",
    ),
    (
        "카페 브라운핸즈 전포",
        "카페",
        "부산 부산진구 전포대로199번길 15",
        35.15350,
        129.06610,
        "아메리카노 4,800|치즈케이크 6,500",
    ),
    (
        "전포동 디저트카페 온도",
        "카페>디저트카페",
        "부산 부산진구 동천로 112",
        35.15560,
        129.06690,
        "크로플 7,000|라떼 5,500",
    ),
    ("노티드 전포", "카페>도넛", "부산 부산진구 전포대로 224", 35.15620, 129.06730, "도넛 3,500|커피 4,500"),
    (
        "카페 전포블루",
        "카페",
        "부산 부산진구 서전로58번길 25",
        35.15460,
        129.06470,
        "아메리카노 4,000|바닐라라떼 5,000",
    ),
    (
        "베이커리 전포제빵소",
        "카페>베이커리",
        "부산 부산진구 전포대로 185",
        35.15290,
        129.06520,
        "소금빵 3,500|아메리카노 4,000",
    ),
    (
        "전포 티하우스",
        "카페>전통찻집",
        "부산 부산진구 동천로 125",
        35.15590,
        129.06600,
        "쌍화차 6,000|대추차 6,000",
    ),
    ("전포 파스타", "양식>이탈리안", "부산 부산진구 전포대로 230", 35.15660, 129.06780, "크림파스타 15,000"),
    ("전포 라멘집", "일식>라멘", "부산 부산진구 서전로 51", 35.15480, 129.06350, "돈코츠라멘 10,000"),
]

# two places by 은평구 신사동, so that two 신사동 have restaurants (the sample has 강남구's)
_EUNPYEONG = [
    (
        "은평 파스타공방",
        "양식>이탈리안",
        "서울 은평구 증산로 401",
        37.60020,
        126.91320,
        "토마토파스타 14,000",
    ),
    ("신사동 국수집", "한식>국수", "서울 은평구 은평로 21", 37.59890, 126.91480, "잔치국수 7,000"),
]


def _record(i: int, row: tuple[str, str, str, float, float, str]) -> dict[str, object]:
    title, category, road, lat, lon, menus = row
    return {
        "place_id": f"busan{i:03d}",
        "title": title,
        "category": category,
        "address": road.replace("부산 ", "부산광역시 ", 1),
        "roadAddress": road,
        "mapx": str(round(lon * 1e7)),
        "mapy": str(round(lat * 1e7)),
        "telephone": f"051-80{i:01d}-12{i:02d}",
        "menus": [{"name": n, "price": f"{p}원"} for n, p in (m.split() for m in menus.split("|"))],
        "businessHours": "매일 09:00 ~ 22:00",
        "reviewKeywords": {"맛": 20 + i, "친절": 5},
        "reviews": [],
        "rating": 4.3,
        "reviewCount": 40 + i,
        "source": "kakao-local (synthetic test area)",
    }


@pytest.fixture(scope="module")
def busan_agent(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Agent]:
    from matjip.commands.ingest import run_ingest

    root = tmp_path_factory.mktemp("national")
    capital = root / "capital.jsonl"
    write_sample(capital, every=25)
    busan = root / "busanjin.jsonl"
    with busan.open("w", encoding="utf-8") as fh:
        for i, row in enumerate([*_SEOMYEON, *_JEONPO], start=1):
            fh.write(json.dumps(_record(i, row), ensure_ascii=False) + "\n")
        for i, row in enumerate(_EUNPYEONG, start=1):
            record = _record(i, row) | {"place_id": f"eunpyeong{i}", "address": row[2]}
            fh.write(json.dumps(record, ensure_ascii=False) + "\n")
    settings = Settings(data_dir=root / "data")
    run_ingest(settings, [capital, busan], resume=False, enricher_name="offline", do_index=True)
    agent = Agent(settings, persist=False)
    yield agent
    agent.close()


def test_a_collected_area_outside_the_demo_data_is_answered_from_its_documents(busan_agent: Agent) -> None:
    gukbap = busan_agent.ask("서면 돼지국밥")
    cafe = busan_agent.ask("전포동 카페")
    daegu = busan_agent.ask("대구 동성로 막창")
    gukbap_places = {r[0] for r in _SEOMYEON if r[1] == "한식>국밥"}
    cafes = {r[0] for r in _JEONPO if r[1].startswith("카페")}
    assert len(gukbap.cards) >= 3, gukbap.answer  # the places around 서면, not two titles naming it
    assert {c.name for c in gukbap.cards} <= gukbap_places, [c.name for c in gukbap.cards]
    assert len(cafe.cards) >= 3, cafe.answer
    assert {c.name for c in cafe.cards} <= cafes, [c.name for c in cafe.cards]  # no "전포 라멘집"
    assert "아직 식당 데이터에 없어요" not in gukbap.answer + cafe.answer
    assert not daegu.cards
    assert "아직 식당 데이터에 없어요" in daegu.answer, daegu.answer


def test_the_coverage_line_lists_the_collected_area(busan_agent: Agent) -> None:
    from matjip.agent.coverage import coverage_summary

    summary = coverage_summary(busan_agent.resources)
    regions = {(sd, sg): n for sd, sg, n in summary.regions}
    assert regions.get(("부산", "부산진구")) == len(_SEOMYEON) + len(_JEONPO)
    assert ("서울", "중구") not in regions or regions[("서울", "중구")] != regions.get(("부산", "중구"))


# --- the gazetteer ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def gazetteer() -> Gazetteer:
    return Gazetteer.load()


@pytest.mark.parametrize(
    ("name", "sido", "sigungu"),
    [
        ("서면", "부산", "부산진구"),
        ("해운대", "부산", "해운대구"),
        ("광안리", "부산", "수영구"),
        ("전포카페거리", "부산", "부산진구"),
        ("동성로", "대구", "중구"),
        ("김광석길", "대구", "중구"),
        ("충장로", "광주", "동구"),
        ("둔산동", "대전", "서구"),
        ("전포동", "부산", "부산진구"),
        ("부산진구", "부산", "부산진구"),
        ("포항", "경북", "포항시"),
        ("대구", "대구", None),
        ("제주", "제주", None),
        ("성수", "서울", "성동구"),
        ("익선동", "서울", "종로구"),
        ("망리단길", "서울", "마포구"),
    ],
)
def test_national_places_resolve(gazetteer: Gazetteer, name: str, sido: str, sigungu: str | None) -> None:
    best = gazetteer.best(name)
    assert best is not None, name
    assert (best.sido, best.sigungu if sigungu else None) == (sido, sigungu), best.display_name
    assert not gazetteer.is_ambiguous(name), [p.display_name for p in gazetteer.lookup(name)[:4]]


def test_every_admin_dong_and_station_of_the_country_is_a_place(gazetteer: Gazetteer) -> None:
    dongs = [p for p in gazetteer if p.type is PlaceType.ADMIN_DONG]
    sidos = {p.sido for p in gazetteer if p.type is PlaceType.SIDO}
    assert len(dongs) >= 3400
    assert len(sidos) == 17
    stations = {(p.sido, p.name) for p in gazetteer if p.type is PlaceType.SUBWAY_STATION}
    for sido, name in [("부산", "서면역"), ("대구", "반월당역"), ("광주", "금남로4가역"), ("대전", "시청역")]:
        assert (sido, name) in stations


def test_a_name_of_several_cities_is_asked_or_said(gazetteer: Gazetteer) -> None:
    """잠실 is 잠실; 북구 and 고성 are asked; 시청역 and 사직동 prefer the capital's and list the others."""
    assert not gazetteer.is_ambiguous("잠실")
    assert gazetteer.is_ambiguous("북구")
    assert gazetteer.is_ambiguous("고성")
    assert not gazetteer.is_ambiguous("시청역")
    assert gazetteer.best("시청역").sido == "서울"  # type: ignore[union-attr]
    assert {p.sido for p in gazetteer.homonyms("사직동")} >= {"부산", "광주"}


def test_gazetteer_loads_within_a_second(gazetteer: Gazetteer) -> None:
    import time

    start = time.process_time()
    Gazetteer._from_files(Path(__file__).resolve().parents[1] / "src" / "matjip" / "data")
    assert time.process_time() - start < 2.0  # ≲ 1 s on an idle machine; slack for a shared one


_CAPITAL_LINES = (
    "9호선",
    "신분당선",
    "경의중앙선",
    "수인선",
    "분당선",
    "우이신설선",
    "신림선",
    "김포",
    "에버라인",
    "의정부",
    "서해선",
    "경강선",
    "인천",
)


def test_every_station_of_the_capital_lines_resolves_in_korean_and_english(gazetteer: Gazetteer) -> None:
    """Issue 24.2: every stop of every capital line (KRIC), by its Korean name and its English one."""
    import csv
    import re
    from collections import defaultdict

    from matjip.geo.distance import haversine_m
    from matjip.nlu.romanized import koreanize_places

    path = Path(__file__).resolve().parents[1] / "src/matjip/data/gazetteer/subway_stations_kric.csv"
    with path.open(encoding="utf-8") as fh:
        rows = [
            r
            for r in csv.DictReader(fh)
            if r["역위도"]
            and any(x in r["노선명"] for x in _CAPITAL_LINES)
            and float(r["역경도"]) < 127.9  # KRIC puts 경의중앙선 양원역 at 봉화's 양원역 (36.96, 129.09)
        ]
    assert len(rows) > 200
    korean_of: dict[str, set[str]] = defaultdict(set)
    for r in rows:
        korean_of[re.sub(r"\s*\(.*?\)", "", r["영문역사명"]).strip().lower()].add(
            r["역사명"].removesuffix("역")
        )
    missing: list[str] = []
    for r in rows:
        lat, lon = float(r["역위도"]), float(r["역경도"])
        korean = r["역사명"] if r["역사명"].endswith("역") else f"{r['역사명']}역"
        english = re.sub(r"\s*\(.*?\)", "", r["영문역사명"]).strip()
        saids = [korean]
        if len(korean_of[english.lower()]) == 1:  # 성남 and 석남 are both "Seongnam": nothing to tell
            saids.append(koreanize_places(f"{english} station").removesuffix(" station"))
        for said in saids:
            hits = [
                p
                for p in gazetteer.lookup(said)
                if p.type is PlaceType.SUBWAY_STATION and haversine_m(lat, lon, p.lat, p.lon) < 1500
            ]
            if not hits:
                missing.append(f"{r['노선명']} {r['역사명']} ({said})")
    assert not missing, (len(missing), missing[:40])


# --- same-name places (issue 24.1) -------------------------------------------------------------


def _first_line(answer: str) -> str:
    return answer.strip().splitlines()[0]


def test_a_name_whose_only_covered_place_is_elsewhere_says_so_first(busan_agent: Agent) -> None:
    """부암동: 종로구's is the usual one but has no restaurant in the data; 부산진구's has."""
    reply = busan_agent.ask("부암동 국밥")
    assert (
        _first_line(reply.answer)
        == "종로구 부암동은 아직 데이터에 없어요 — 부산 부산진구 부암동 기준으로 찾았어요."
    )
    assert reply.cards and all(c.id.startswith("busan") for c in reply.cards)


def test_a_name_with_one_covered_place_says_which_in_the_first_line(busan_agent: Agent) -> None:
    """오금동: 송파구's has restaurants, 군포시's none: answered, and said so before anything else."""
    reply = busan_agent.ask("오금동 고기집")
    assert _first_line(reply.answer) == "송파구 오금동 기준이에요 — 군포시 오금동은 아직 데이터에 없어요."
    assert reply.cards


def test_a_name_of_several_places_is_asked_back_saying_which_are_in_the_data(busan_agent: Agent) -> None:
    reply = busan_agent.ask("신사동 파스타")
    assert not reply.cards
    assert "여러 곳 있어요" in reply.answer
    assert "식당 데이터가 있는 곳: 강남구 신사동·은평구 신사동)" in reply.answer, reply.answer
    assert "서울 관악구" in reply.answer  # listed to choose from, not as having data


def test_place_wording_is_data() -> None:
    from matjip import wording

    chosen, famous = wording.text("location.homonym.chosen"), wording.text("location.homonym.famous_outside")
    assert "{chosen}" in chosen and "{others}" in chosen
    assert "{famous}" in famous and "{chosen}" in famous
    assert "{in_data}" in wording.text("location.homonym.ask")
    assert "{name}" in wording.text("location.homonym.ask_plain")
