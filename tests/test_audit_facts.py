"""The false statements the issue-24 audit found (docs/audit_issue24.md), one test each class.

F1/F3/F4/F7/F8: a card said "영업시간: 정보가 없어요" for a place whose document has a timetable
that does not list today. F2: a family's heading listed kinds none of the cards is. F5: the
"estimated from reviews" caution followed a term nothing was estimated for. F6: a dropped hours
condition stayed in the heading ("지금 영업하는").
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from matjip.agent.answer import heading_wishes, restaurant_block, review_term_lines, search_answer
from matjip.agent.configuration import Resources
from matjip.agent.models import SearchPlan, Shown
from matjip.documents import Restaurant
from matjip.ingest.hours import parse_business_hours
from support.small import run_node

SATURDAY_MORNING = datetime(2026, 11, 28, 6, 3, tzinfo=ZoneInfo("Asia/Seoul"))


def _doc(title: str, hours: str = "", kinds: list[str] | None = None) -> Restaurant:
    return Restaurant(
        place_id=title,
        title=title,
        hours=parse_business_hours(hours) if hours else None,
        kinds=kinds or [],
    )


def test_a_day_the_timetable_does_not_list_is_not_no_information() -> None:
    doc = _doc("잠실백정", "월~금 16:00 ~ 24:00")
    text = "".join(restaurant_block(1, Shown(doc=doc), None, SATURDAY_MORNING, None))
    assert "정보가 없어요" not in text
    assert "월~금 16:00 ~ 24:00" in text and "오늘(토)" in text
    plain = "".join(restaurant_block(1, Shown(doc=_doc("무명")), None, SATURDAY_MORNING, None))
    assert "영업시간: 정보가 없어요" in plain  # no hours at all is still said so


def test_a_family_heading_names_only_the_kinds_the_cards_are() -> None:
    plan = SearchPlan(kinds=["샐러드", "포케", "샤브샤브", "베트남음식"], k=2)
    shown = [Shown(doc=_doc("A", kinds=["샤브샤브"])), Shown(doc=_doc("B", kinds=["베트남음식"]))]
    backed, _ = heading_wishes(shown, plan)
    assert backed.kinds == ["샤브샤브", "베트남음식"]
    heading = search_answer(shown, plan, SATURDAY_MORNING, "선릉역", [])[0]
    assert "포케" not in heading and "샐러드" not in heading


def test_no_review_caution_when_nothing_was_estimated_from_reviews() -> None:
    lines = "".join(review_term_lines([_doc("A"), _doc("B")], ["순두브"]))
    assert "추정" not in lines and "'순두브'" in lines


def test_a_dropped_hours_condition_leaves_the_heading(small_res: Resources) -> None:
    plan = SearchPlan(kinds=["술집"], open_at=SATURDAY_MORNING, open_label="지금")
    update = run_node(small_res, "relax", {"plan": plan, "relax_step": 0, "relax_notes": []})
    relaxed, said = update["plan"], update["relax_notes"][-1]
    assert "지금" in said
    assert relaxed.open_at is None and relaxed.open_label is None
    heading = search_answer([Shown(doc=_doc("A", kinds=["술집"]))], relaxed, SATURDAY_MORNING, "역삼역", [])[
        0
    ]
    assert "영업" not in heading
