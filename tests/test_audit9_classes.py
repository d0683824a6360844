"""Three classes of false statements of the ninth issue-24 audit (docs/audit_issue24_r9.md), one test each.

F1 (class 1): "신흥동 칼국수" was answered "'신흥동' 쪽은 아직 식당 데이터에 없어요" — the name's exact dongs
(인천 중구, 광주 광산구 …) have no restaurants, and of 수정구's 신흥1·2·3동 (each "신흥동" by alias) only the
first, whose centre has none within its radius, was tried. A dong split in numbered parts is in the data
when one part has restaurants within its radius, and the first line says which namesake it is.
F3 (class 15/3): "'해장'에 맞는 곳인지는 2번에만 근거가 있어요" beside a 감자탕 and a 국밥 card — a card of
the described food's kinds is evidence for it.
F4 (class 11): "⚠️ 운동·액티비티 정보는 …" for "잠실새내역에서 종합운동장 가는 길에 카페": a word inside a place
name is no condition.
"""

from __future__ import annotations

from matjip.agent.answer import heading_wishes
from matjip.agent.location import _ambiguity
from matjip.agent.models import SearchPlan, Shown
from matjip.documents import Restaurant
from matjip.geo.gazetteer import get_gazetteer
from matjip.nlu.strategy import caution_of, detect_strategy


def test_a_dong_covered_by_one_of_its_numbered_parts_is_answered_and_named() -> None:
    g = get_gazetteer()
    for name, part_with_data in (("신흥동", "신흥2동"), ("사직동", "사직2동")):
        cands = g.lookup(name)
        keys = {p.key for p in cands if p.name == part_with_data and p.sido in ("경기", "부산")}
        assert keys, name
        ask, place, first_line = _ambiguity(name, cands, g, lambda p, keys=keys: p.key in keys, [])
        assert not ask and place.key in keys, name  # never the namesake without data
        assert first_line is not None and place.sigungu is not None
        assert f"{place.sigungu.split()[-1]} {name}" in first_line  # which one the answer is about
    # the 신흥동 line names the namesakes without data, 인천's with its city (its 중구 is not Seoul's)
    cands = g.lookup("신흥동")
    covered = {p.key for p in cands if p.name in ("신흥2동", "신흥3동")}
    _, place, first_line = _ambiguity("신흥동", cands, g, lambda p: p.key in covered, [])
    assert first_line is not None and "인천 중구 신흥동" in first_line and "광산구 신흥동" in first_line
    # two namesakes with data: asked, not chosen
    two = covered | {p.key for p in cands if p.sido == "인천"}
    ask, _, _ = _ambiguity("신흥동", cands, g, lambda p: p.key in two, [])
    assert len(ask) == 2


def test_a_card_of_a_described_foods_kinds_is_evidence_for_it() -> None:
    plan = SearchPlan(kinds=["해장국", "국밥·순대국", "감자탕", "복어"], occasion=["해장"])
    shown = [
        Shown(doc=Restaurant(place_id="1", title="원조감자탕순대국", kinds=["감자탕", "국밥·순대국"])),
        Shown(doc=Restaurant(place_id="2", title="양평해장국", kinds=["해장국"], occasion=["해장"])),
        Shown(doc=Restaurant(place_id="3", title="진한국밥", kinds=["국밥·순대국"])),
    ]
    kept, caveats = heading_wishes(shown, plan)
    assert not any("해장" in c for c in caveats), caveats
    assert kept.occasion == []  # said by its kinds, not "해장 해장국, …"
    # a card outside the family still gets the caveat
    shown[2] = Shown(doc=Restaurant(place_id="4", title="죽집", kinds=["죽"]))
    _, caveats = heading_wishes(shown, plan)
    assert any("해장" in c and "1·2번" in c for c in caveats), caveats


def test_a_word_inside_a_place_name_triggers_no_caution() -> None:
    for q in (
        "잠실새내역에서 종합운동장 가는 길에 카페",
        "잠실새내역에서 종합운동장역 가는 길에 카페",
        "월드컵경기장 근처 치킨",
        "잠실야구장 근처 맥주",
    ):
        assert caution_of(q) is None, q
        assert detect_strategy(q).caution is None, q
    assert caution_of("잠실 볼링장 근처 맛집") == "activity"  # the activity itself still is one
    assert caution_of("종합운동장역 근처 축구 보고 치킨") == "activity"
