"""The false statements of the sixth issue-24 audit (docs/audit_issue24_r6.md), one test each.

F1: the chain note said "지점 이름이 붙은 곳" were left out while a card was "카츠미 홍대본점" (a "본점" with
no other branch in the data is kept as the shop itself). F2: "풍납동 식당 3곳" for places across the
dong's border: a dong without address terms is searched around its point, so the heading says "근처".
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from matjip.agent.answer import plan_notes, search_answer
from matjip.agent.models import SearchPlan, Shown
from matjip.documents import Restaurant
from matjip.nlu.kinds import chain_rules

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
