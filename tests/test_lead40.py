"""Classes the lead found by asking fresh questions of its own on 4a159a6 (session s40,
/work/notes/s40/probe_lead_base.md), one test each, failing on that code. Expected facts come from
hand-made records or the gazetteer's own files.

- D3 (class 9): "강남 쪽에서 잠실 가는 길에 커피 한잔" took '쪽' for the route's start and searched around
  강남 alone ("'쪽'의 위치를 알 수 없어서 경로 대신 한 곳 근처에서 찾았어요").
- L9 (class 6): "korean bbq" near 롯데월드 put a 스키야키 house (category 육류,고기) first as a 고깃집.
- L1 (class 2): "위례 중앙광장 근처" searched all of 위례 (2.5 km) instead of the shops of 위례광장로.
- M4 (class 13): "월요일 아침 출근 전에 먹을 수 있는 잠실 김밥" said "메뉴에 '전'이 있는 곳이 없어서" (전 = before).
- M3 (class 2, 11): "감일지구 아이랑 외식 주차" dropped '감일지구' and searched everywhere, and said "'외식'에 맞는
  곳인지는 정보가 없어요" (eating out is every restaurant).
- E1 (class 13): "리뷰 제일 많은 데는 어디야?" after three cards listed each one's rating and address; "평점 제일
  높은 곳은?" gave a verdict by the '맛' tag share, not by the rating asked.
- N4 (class 11, 15): "석촌호수 뷰 보이는 카페" dropped the view without a word ("석촌호수 근처 카페 3곳").
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from matjip.nlu.evaluate import build_default_nlu
from matjip.nlu.strategy import detect_strategy
from support.records import ingest_records, talk_over
from support.records import near_jamsil as near

KST = ZoneInfo("Asia/Seoul")
FRI_NIGHT = datetime(2026, 12, 4, 21, 40, tzinfo=KST)


@pytest.mark.parametrize(
    ("text", "ends"),
    [
        ("강남 쪽에서 잠실 가는 길에 커피 한잔", ("강남", "잠실")),
        ("강남역 쪽에서 잠실 쪽으로 가는 길에 커피", ("강남역", "잠실")),
        ("천호역 근처에서 잠실 가는 길에 국밥", ("천호역", "잠실")),
        ("강남에서 잠실 가는 길에 커피 한잔", ("강남", "잠실")),
    ],
)
def test_a_start_said_with_its_side_is_the_routes_start(text: str, ends: tuple[str, str]) -> None:
    spec = detect_strategy(text)
    assert spec.strategy == "route", spec
    assert (spec.origin, spec.destination) == ends, spec


def test_a_sukiyaki_house_is_no_korean_barbecue(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from matjip.kinds import kinds

    assert "고깃집" not in {e.kind for e in kinds().classify("한식>육류,고기", "담소스키야키", [])}
    records = [
        near(
            "s1",
            "담소스키야키",
            150,
            "한식>육류,고기",
            {"스키야키 (1인)": "16,900원", "샤브샤브 (1인)": "16,900원"},
        ),
        near("g1", "숯불고기집", 900, "한식>육류,고기", {"생삼겹살": "15,000원", "목살": "15,000원"}),
    ]
    data = ingest_records(tmp_path, records)
    (r,) = talk_over(data, ["잠실역 고깃집"], FRI_NIGHT)
    assert [c.name for c in r.cards][:1] == ["숯불고기집"], r.answer
    assert "담소스키야키" not in [c.name for c in r.cards], r.answer


def test_a_plaza_named_by_the_shops_branches_is_a_place() -> None:
    from matjip.geo import get_gazetteer
    from matjip.geo.distance import haversine_m

    hits = get_gazetteer().lookup("위례 중앙광장")
    assert hits, "위례 중앙광장 is unknown"
    p = hits[0]
    # the median point of the shops titled '…위례중앙광장점' (위례광장로 104–322): 37.4727, 127.1422
    assert haversine_m(p.lat, p.lon, 37.4727, 127.1422) < 300, p


@pytest.mark.parametrize(
    ("text", "menu"),
    [
        ("월요일 아침 출근 전에 먹을 수 있는 잠실 김밥", ["김밥"]),
        ("출근전에 김밥", ["김밥"]),
        ("잠실 문 닫기 전에 갈 수 있는 국밥", ["국밥"]),
        ("비 오는 날 전에 막걸리", ["전", "막걸리"]),
    ],
)
def test_before_is_no_pancake(text: str, menu: list[str]) -> None:
    assert build_default_nlu().parse(text).entities.menu == menu


def test_a_housing_district_is_its_dong_and_eating_out_no_condition() -> None:
    from matjip.geo import get_gazetteer

    gazetteer = get_gazetteer()
    (best, *_) = gazetteer.lookup("감일지구")
    # the dong, or (since audit r16 G) the 감일 area centred where its restaurants are — in 하남 감일동 either way
    dong = next(p for p in gazetteer.lookup("감일동") if p.name == "감일동" and p.sigungu == "하남시")
    assert best.name in ("감일동", "감일지구"), best
    assert abs(best.lat - dong.lat) < 0.03 and abs(best.lon - dong.lon) < 0.03, (best, dong)
    parsed = build_default_nlu().parse("감일지구 아이랑 외식 주차")
    assert "외식" not in parsed.entities.occasion, parsed.entities


def _three_places(tmp_path):  # type: ignore[no-untyped-def]
    menu = {"족발 (중)": "35,000원"}
    records = [
        near("j1", "가족발", 200, "한식>육류,고기>족발,보쌈", menu, reviewCount=12, rating=4.3),
        near("j2", "나족발", 300, "한식>육류,고기>족발,보쌈", menu, reviewCount=6, rating=3.4),
        near("j3", "다족발", 400, "한식>육류,고기>족발,보쌈", menu, reviewCount=32, rating=3.9),
    ]
    return ingest_records(tmp_path, records)


def test_a_superlative_over_the_cards_answers_by_the_criterion_asked(tmp_path) -> None:  # type: ignore[no-untyped-def]
    data = _three_places(tmp_path)
    first, most, best = talk_over(
        data, ["잠실역 족발", "리뷰 제일 많은 데는 어디야?", "평점 제일 높은 곳은?"], FRI_NIGHT
    )
    assert {c.name for c in first.cards} == {"가족발", "나족발", "다족발"}, first.answer
    assert "리뷰는 다족발이 32건으로 가장 많아요" in most.answer, most.answer
    assert "평점은 가족발이 4.3으로 가장 높아요" in best.answer, best.answer
    verdict = [line for line in best.answer.splitlines() if line.strip()][-1]
    assert "나족발 3.4·리뷰 6건" in verdict and "'맛'" not in verdict, best.answer


@pytest.mark.parametrize("text", ["석촌호수 뷰 보이는 카페", "석촌호수 보이는 카페", "한강 보이는 카페 망원"])
def test_a_view_asked_is_a_wish_and_the_place_stays(text: str) -> None:
    parsed = build_default_nlu().parse(text)
    assert parsed.entities.atmosphere == ["뷰 좋은"], parsed.entities
    assert parsed.entities.location, parsed.entities
    assert "뷰 좋은" not in build_default_nlu().parse("잘 보이는 곳에 간판").entities.atmosphere


def test_a_mall_beside_its_station_leaves_the_station_the_place(sample_agent) -> None:  # type: ignore[no-untyped-def]
    """Merge check (dialogue_test8 eb089): "장지역 가든파이브 쪽" points at the station's exit; a street beside a
    station ("잠실역 송리단길", audit r14 Q8) is still the place searched."""
    from support.chat import Chat

    mall = Chat(sample_agent)("장지역 가든파이브 쪽 쌀국수")
    assert mall.plan is not None and mall.plan.location is not None, mall.answer
    assert mall.plan.location.name == "장지역", mall.plan.location
    street = Chat(sample_agent)("잠실역 송리단길 파스타")
    assert street.plan is not None and street.plan.location is not None, street.answer
    assert street.plan.location.name == "송리단길", street.plan.location


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("burgers near olympic park?", ["버거"]),
        ("pocha bars in jamsil saenae", ["포차"]),
        ("good barbecue place around 잠실", ["고깃집"]),
        ("성내동 혼술하기 좋은 바", ["바"]),
    ],
)
def test_an_english_kind_word_is_read_as_a_whole_word(text: str, kinds: list[str]) -> None:
    """Merge check: the new 바 kind read "bar" inside "barbecue" and "bars" (dialogue_test11 ee035); a whole
    English word with its plural is still a kind ("burgers": dialogue_test8 eb109)."""
    from matjip.nlu.kinds import detect_kinds

    assert detect_kinds(text).kinds == kinds


def test_a_price_asked_of_a_named_place_is_about_that_place_not_the_focus(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """dialogue_dev5 dp004 (at night): after "2번 주소좀", "블랑제리코팡 아메리카노 얼마야" answered with the
    focus's 아메리카노 (딥블루레이크 5,000원) because the focus lists one too; the place named is asked."""
    cafe = "음식점>카페"
    records = [
        near("c1", "가카페", 100, cafe, {"아메리카노": "4,000원"}, reviewCount=30),
        near("c2", "나카페", 200, cafe, {"아메리카노": "5,000원"}, reviewCount=20),
        near("c3", "다카페", 300, cafe, {"아메리카노": "4,500원"}, reviewCount=10),
        near("c4", "블랑제리코팡", 4000, cafe, {"아메리카노": "3,000원"}, reviewCount=13),
    ]
    data = ingest_records(tmp_path, records)
    first, address, price = talk_over(
        data, ["잠실역 카페", "2번 주소좀", "블랑제리코팡 아메리카노 얼마야"], FRI_NIGHT
    )
    assert [c.name for c in first.cards][1:2] == ["나카페"], first.answer
    assert "나카페" in address.answer, address.answer
    assert "블랑제리코팡" in price.answer and "3,000원" in price.answer, price.answer
    assert "5,000원" not in price.answer, price.answer
