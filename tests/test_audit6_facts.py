"""The false statements of the sixth issue-24 audit (docs/audit_issue24_r6.md), one test each.

F1: the chain note said "지점 이름이 붙은 곳" were left out while a card was "카츠미 홍대본점" (a "본점" with
no other branch in the data is kept as the shop itself). F2: "풍납동 식당 3곳" for places across the
dong's border: a dong without address terms is searched around its point, so the heading says "근처".
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from matjip.agent.answer import plan_notes, search_answer
from matjip.agent.models import SearchPlan, Shown
from matjip.documents import Restaurant
from matjip.nlu.kinds import chain_rules
from matjip.nlu.strategy import detect_strategy
from support.records import ask_once, card_ids, jamsil_record

SATURDAY_EVENING = datetime(2026, 11, 28, 19, 30, tzinfo=ZoneInfo("Asia/Seoul"))


def test_the_chain_note_keeps_a_lone_main_shop_as_said() -> None:
    rules = chain_rules()
    assert not rules.is_chain("카츠미 홍대본점", lambda _brand: 1)  # the policy: a lone 본점 stays
    [note] = plan_notes(SearchPlan(kinds=["돈까스"], exclude_chains=True), None)
    assert "본점" in note and "지점 이름이 붙은 곳과" not in note


def test_a_dong_searched_around_its_point_is_said_as_near() -> None:
    doc = Restaurant(place_id="1", title="풍년상회쪽갈비", kinds=["한식"])
    plan = SearchPlan.model_validate(
        {"location": {"name": "풍납동", "lat": 37.533195, "lon": 127.114017, "radius_m": 1500, "mode": "in"}}
    )
    heading = search_answer([Shown(doc=doc, distance_m=1200.0)], plan, SATURDAY_EVENING, "풍납동", [])[0]
    assert heading.startswith("풍납동 근처 ")
    in_gu = SearchPlan.model_validate(
        {"location": {"name": "송파구", "mode": "in", "region_terms": ["송파구"]}}
    )
    heading = search_answer([Shown(doc=doc)], in_gu, SATURDAY_EVENING, "송파구", [])[0]
    assert heading.startswith("송파구 ") and "근처" not in heading


def test_a_dong_asked_as_the_area_puts_a_well_known_place_inside_it_first(tmp_path: Path) -> None:
    """Audit r6 Q8 ("풍납동 찐맛집"): 30 better-known places across the border (천호동, ~1 km from the
    dong's point) filled the page re-ranked, and the well-known place inside 풍납동 was never seen."""
    from matjip.geo.gazetteer import _default_gazetteer

    gz = _default_gazetteer()
    [dong] = [c for c in gz.lookup("풍납동") if c.type.value == "legal_dong"]
    inside, across = (37.5320, 127.1160), (37.5387, 127.1237)
    assert gz.contains_points(dong, [inside[0], across[0]], [inside[1], across[1]]).tolist() == [True, False]
    records = [
        jamsil_record(
            f"x{i}",
            f"천호식당{i}",
            "한식>육류,고기",
            ["삼겹살"],
            lat=across[0] + i * 1e-5,
            lon=across[1],
            reviewCount=500,
            rating=4.5,
        )
        for i in range(30)
    ]
    records.append(
        jamsil_record(
            "in",
            "풍납냉면",
            "한식>냉면",
            ["물냉면"],
            lat=inside[0],
            lon=inside[1],
            reviewCount=120,
            rating=4.4,
        )
    )
    result = ask_once(tmp_path, records, "풍납동 맛집")
    assert card_ids(result)[0] == "in"


@pytest.mark.parametrize(
    ("text", "origin", "destination"),
    [
        ("합정에서 상수 걸어가는 길에 들를 만한 디저트 카페", "합정", "상수"),  # audit r6 Q12
        ("역삼역에서 선릉역까지 걸어서 가는 길에 커피 한잔", "역삼역", "선릉역"),
        ("잠실에서 판교 차로 가는 길에 밥집", "잠실", "판교"),
        ("석촌호수 구경하고 잠실역 가는 길에 분식", "석촌호수", "잠실역"),
        ("올림픽공원 산책하고 방이역 가는 길에 카페", "올림픽공원", "방이역"),
    ],
)
def test_a_way_of_going_or_a_visit_before_the_route_verb_keeps_the_route(
    text: str, origin: str, destination: str
) -> None:
    """Class 9: "A에서 B 걸어가는 길에" read "B 걸어" as the place (and answered around A alone); "A
    구경하고 B 가는 길에" had no start."""
    spec = detect_strategy(text)
    assert (spec.strategy, spec.origin, spec.destination) == ("route", origin, destination)
