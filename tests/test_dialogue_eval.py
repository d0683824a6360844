"""The dialogue-set scorer (matjip.eval.dialogue_eval) on small hand-written gold/product pairs."""

from __future__ import annotations

from typing import Any

from matjip.agent.models import (
    Card,
    Clarification,
    LocationContext,
    PlanLocation,
    SearchPlan,
    TraceEntry,
    TurnResult,
)
from matjip.eval.dialogue_eval import (
    check_frame,
    fact_in_answer,
    name_in_answer,
    product_label,
    score_dialogue,
)

JAMSIL = PlanLocation(name="잠실역", lat=37.5133, lon=127.1001, mode="near", radius_m=800)


def frame(**kw: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "kind": "중국집",
        "place": "잠실역",
        "near": True,
        "conveniences": [],
        "exclude": [],
        "price_max": None,
        "k": 3,
        "open": None,
    }
    return {**base, **kw}


def card(i: int, name: str, lat: float = 37.51, lon: float = 127.10, dist: float | None = None) -> Card:
    return Card(id=f"p{i}", name=name, cuisine="중식", lat=lat, lon=lon, distance_m=dist)


def search(plan: SearchPlan, cards: list[Card], answer: str = "", **kw: Any) -> TurnResult:
    return TurnResult(session_id="s", answer=answer, decision="search", plan=plan, cards=cards, **kw)


def expect(decision: str, fr: dict[str, Any] | None = None, **kw: Any) -> dict[str, Any]:
    return {
        "decision": decision,
        "frame": fr,
        "refers_to": kw.get("refers_to"),
        "answer_must_name": kw.get("answer_must_name", []),
        "answer_must_say": kw.get("answer_must_say", []),
        "duplicate": kw.get("duplicate", False),
    }


CHINESE = SearchPlan(kinds=["중국집"], location=JAMSIL, k=3)
SHOWN = [card(1, "진진"), card(2, "홍콩반점0410 잠실점"), card(3, "만리장성")]


# --- decisions -------------------------------------------------------------------------------
def test_context_maps_by_intent_and_reply_by_smalltalk_trace() -> None:
    ctx = TurnResult(session_id="s", answer="", decision="context", intent="compare")
    assert product_label(ctx, CHINESE, SHOWN) == ("compare", False)
    assert product_label(ctx.model_copy(update={"intent": "information"}), CHINESE, SHOWN) == (
        "answer",
        False,
    )
    thanks = TurnResult(
        session_id="s",
        answer="",
        decision="reply",
        trace=[TraceEntry(node="need_search", ms=0, decision="smalltalk")],
    )
    assert product_label(thanks, CHINESE, SHOWN) == ("smalltalk", False)
    no_content = thanks.model_copy(update={"trace": [TraceEntry(node="need_search", ms=0, decision="reply")]})
    assert product_label(no_content, CHINESE, SHOWN) == ("reply", False)  # never a gold label


def test_an_outside_place_said_plainly_not_covered_is_the_gold_decision() -> None:
    """dialogue_test10 README "Outside places": gold ``outside: true`` is a search naming that place; a
    reply that names it as not covered and shows nothing is what the writers count right."""
    gold = frame(kind="횟집", place="노량진역", outside=True)
    reply = TurnResult(
        session_id="s",
        answer="'노량진역' 쪽은 아직 식당 데이터에 없어요.",
        decision="reply",
        trace=[TraceEntry(node="understand", ms=0, decision="no restaurant in the data around 노량진역")],
    )
    item = {
        "id": "x1",
        "split": "test",
        "type": "single_outside",
        "turns": [{"user": "노량진역 근처 횟집", "gps": None, "expect": expect("search", gold)}],
    }
    assert score_dialogue(item, [reply]).turns[0].errors == []
    assert score_dialogue(item, [reply]).turns[0].got == "search"
    # another place named, or no "outside" in the gold: still the "reply" label, wrong
    busan = reply.model_copy(update={"answer": "'부산' 쪽은 아직 식당 데이터에 없어요."})
    assert score_dialogue(item, [busan]).turns[0].got == "reply"
    plain = {
        "id": "x2",
        "split": "test",
        "type": "single_outside",
        "turns": [
            {
                "user": "노량진역 근처 횟집",
                "gps": None,
                "expect": expect("search", frame(kind="횟집", place="노량진역")),
            }
        ],
    }
    assert score_dialogue(plain, [reply]).turns[0].got == "reply"


def test_search_labels_duplicate_refine_new_kind_and_place_relative() -> None:
    assert product_label(search(CHINESE, SHOWN, reused=True), CHINESE, SHOWN) == ("search", True)
    parking = CHINESE.model_copy(update={"convenience": ["주차"]})
    assert product_label(search(parking, SHOWN), CHINESE, SHOWN) == ("refine", False)
    # two slots changed at once is not a refine
    two = parking.model_copy(update={"k": 5})
    assert product_label(search(two, SHOWN), CHINESE, SHOWN) == ("search", False)
    cafe = SearchPlan(kinds=["카페"], location=JAMSIL)
    assert product_label(search(cafe, []), CHINESE, SHOWN) == ("search", False)
    around = PlanLocation(name="어딘가 식당 앞", lat=37.5101, lon=127.1001, mode="near")
    assert product_label(search(cafe.model_copy(update={"location": around}), []), CHINESE, SHOWN) == (
        "place_relative",
        False,
    )
    # a station whose centre a shown restaurant happens to stand on is still the station
    at_station = [card(9, "역앞반점", lat=JAMSIL.lat or 0, lon=JAMSIL.lon or 0)]
    five = CHINESE.model_copy(update={"k": 5})
    assert product_label(search(five, []), CHINESE, at_station) == ("refine", False)
    assert product_label(search(CHINESE, SHOWN), None, []) == ("search", False)
    clar = TurnResult(session_id="s", answer="어디서 찾을까요?", decision="clarify")
    assert product_label(clar, None, []) == ("search", False)


# --- frames ----------------------------------------------------------------------------------
def test_frame_matches_kind_word_and_place_and_catches_each_slot() -> None:
    assert check_frame(frame(kind="중국집"), search(CHINESE, SHOWN), gps=None) == []
    meat = SearchPlan(kinds=["고깃집"], location=JAMSIL)
    assert check_frame(frame(kind="고기집"), search(meat, SHOWN), gps=None) == []  # same [[kind]]
    assert any(
        "conveniences" in e
        for e in check_frame(frame(conveniences=["주차"]), search(CHINESE, SHOWN), gps=None)
    )
    assert any("k:" in e for e in check_frame(frame(k=5), search(CHINESE, SHOWN), gps=None))
    assert any("kind" in e for e in check_frame(frame(kind="카페"), search(CHINESE, SHOWN), gps=None))
    assert any("place" in e for e in check_frame(frame(place="홍대"), search(CHINESE, SHOWN), gps=None))
    assert any("near" in e for e in check_frame(frame(near=False), search(CHINESE, SHOWN), gps=None))
    ex = CHINESE.model_copy(update={"exclude_kinds": ["횟집"]})
    assert check_frame(frame(exclude=["회"]), search(ex, SHOWN), gps=None) == []


def test_placeless_search_without_gps_must_ask() -> None:
    clar = TurnResult(
        session_id="s",
        answer="어디서?",
        decision="clarify",
        clarification=Clarification(question="어디서?", kind="gps"),
    )
    assert check_frame(frame(place=None), clar, gps=None) == []
    assert check_frame(frame(place=None), search(CHINESE, SHOWN), gps=None) != []
    assert check_frame(frame(), clar, gps=None) != []  # asked although the place was given


def test_cheaper_needs_bound_and_results_below_the_highest_shown_level() -> None:
    from matjip.eval.dialogue_eval import _Listing

    prices = {"p1": 9000, "p2": 12000, "p3": 15000, "p4": 8000, "p5": 16000}
    prev = _Listing(1, SHOWN, CHINESE, frame())
    cheap = CHINESE.model_copy(update={"price_max": 14000})
    ok = search(cheap, [card(4, "a")])
    assert check_frame(frame(price_max="<shown"), ok, gps=None, prev_listing=prev, price_of=prices.get) == []
    bad = search(cheap, [card(5, "b")])
    assert check_frame(frame(price_max="<shown"), bad, gps=None, prev_listing=prev, price_of=prices.get) != []
    unbounded = search(CHINESE, [card(4, "a")])
    assert check_frame(frame(price_max="<shown"), unbounded, gps=None, prev_listing=prev, price_of=prices.get)


# --- answers ---------------------------------------------------------------------------------
def test_facts_ignore_spaces_commas_won_and_accept_clock_forms() -> None:
    assert fact_in_answer("22:00", "밤 10시까지 해요")
    assert fact_in_answer("22:00", "영업시간 11:00~22:00")
    assert not fact_in_answer("22:00", "밤 11시까지 해요")
    assert fact_in_answer("10:30", "오전 10시 30분에 열어요")
    assert fact_in_answer("16,000", "삼겹살은 16000원이에요")
    assert not fact_in_answer("16,000", "삼겹살은 15,000원이에요")
    assert fact_in_answer("모르겠어요", "전화번호는 정보가 없어요")
    assert not fact_in_answer("모르겠어요", "전화번호는 02-123-4567이에요")


def test_names_without_spaces_and_branch_dropped_only_when_unambiguous() -> None:
    assert name_in_answer("청와옥 방이본점", "청와옥방이본점은 22시까지")
    assert name_in_answer("봉피양 방이점", "봉피양은 22시까지", ["해주냉면"])
    assert not name_in_answer("청와옥 방이본점", "청와옥은 22시까지", ["청와옥 석촌호수직영점"])


def test_dialogue_ordinals_resolve_on_the_products_own_list() -> None:
    item = {
        "id": "t1",
        "split": "dev",
        "type": "answer_ordinal",
        "turns": [
            {"user": "잠실역 중국집", "gps": None, "expect": expect("search", frame())},
            {
                "user": "두번째 몇시까지?",
                "gps": None,
                "expect": expect("answer", refers_to=[{"turn": 1, "ordinal": 2}], answer_must_name=["$ref1"]),
            },
        ],
    }
    right = [
        search(CHINESE, SHOWN),
        TurnResult(session_id="s", answer="홍콩반점0410 잠실점은 22시까지", decision="context"),
    ]
    assert score_dialogue(item, right).ok
    wrong_one = right[1].model_copy(update={"answer": "진진은 22시까지"})
    assert not score_dialogue(item, [right[0], wrong_one]).ok
    # naming every shown restaurant is not resolving the reference
    all_three = right[1].model_copy(update={"answer": "진진, 홍콩반점0410 잠실점, 만리장성 모두 22시까지"})
    got = score_dialogue(item, [right[0], all_three])
    assert not got.ok and "also names" in got.turns[1].reason()


def test_the_device_position_is_no_shown_restaurant() -> None:
    """A GPS search whose position happens to lie on a shown restaurant is not centred on it."""
    here = PlanLocation(name="내 위치", lat=37.5101, lon=127.1001, mode="near", radius_m=700)
    gps_plan = SearchPlan(kinds=["고깃집"], location=here, k=5)
    on_spot = [card(7, "돼지명가", lat=37.5101, lon=127.1001)]
    paged = gps_plan.model_copy(update={"exclude_ids": ["p7"]})
    gps = {"lat": 37.5101, "lon": 127.1001}
    assert product_label(search(paged, []), gps_plan, on_spot, gps) == ("refine", False)
    assert (
        product_label(search(paged, []), gps_plan, on_spot)[0] == "place_relative"
    )  # without the turn's GPS


def test_the_next_page_of_a_cheaper_list_keeps_its_bound() -> None:
    """ "더 싼 데" then "다른 데도": the second "<shown" is the cheaper bound kept, not a second ratchet."""
    from matjip.eval.dialogue_eval import _Listing

    prices = {"p1": 9000, "p2": 12000, "p3": 15000, "p4": 8000, "p5": 13000, "p6": 16000}
    cheap = CHINESE.model_copy(update={"price_max": 14999})
    after_cheaper = _Listing(2, [card(4, "a")], cheap, frame(price_max="<shown"))
    paged = search(cheap.model_copy(update={"exclude_ids": ["p4"]}), [card(5, "b")])
    gold = frame(price_max="<shown")
    assert check_frame(gold, paged, gps=None, prev_listing=after_cheaper, price_of=prices.get) == []
    loose = search(CHINESE, [card(5, "b")])
    assert check_frame(gold, loose, gps=None, prev_listing=after_cheaper, price_of=prices.get) != []
    dear = search(cheap, [card(6, "c")])
    assert check_frame(gold, dear, gps=None, prev_listing=after_cheaper, price_of=prices.get) != []


def test_a_refine_keeps_the_device_position_sent_earlier() -> None:
    """GPS sent with the first turn only: a place-less refine is around it, not a question."""
    here = PlanLocation(name="내 위치", lat=37.5101, lon=127.1001, mode="near", radius_m=700)
    gps_plan = SearchPlan(kinds=["중국집"], location=here, k=3)
    gps = {"lat": 37.5101, "lon": 127.1001}
    item = {
        "id": "t2",
        "split": "dev",
        "type": "mixed",
        "turns": [
            {"user": "여기 근처 중국집", "gps": gps, "expect": expect("search", frame(place=None))},
            {"user": "다른 데는?", "gps": None, "expect": expect("refine", frame(place=None))},
        ],
    }
    at_gps = LocationContext(type="GPS", lat=37.5101, lon=127.1001)
    first = search(gps_plan, SHOWN, location=at_gps)
    paged = gps_plan.model_copy(update={"exclude_ids": ["p1", "p2", "p3"]})
    second = search(paged, [card(4, "다른집")], location=at_gps)
    assert score_dialogue(item, [first, second]).ok


def test_a_course_gold_with_no_kind_is_met_by_a_course_plan_of_its_stops() -> None:
    """dialogue_test13 README "Course": gold `kind: null` with `course` informative (the scorer has no
    course slot); a course plan lists its stops' kinds — no kind asked of one list — and is right; the
    same kinds on a plain search, or a course plan against a gold without `course`, are not."""
    gold = frame(kind=None, place="잠실역", course=["식사", "호프"])
    course = SearchPlan(kinds=["호프·맥주집"], location=JAMSIL, strategy="course")
    assert check_frame(gold, search(course, SHOWN), gps=None) == []
    plain = course.model_copy(update={"strategy": "radius"})
    assert check_frame(gold, search(plain, SHOWN), gps=None) == ["kind: gold any, plan ['호프·맥주집']"]
    no_course = frame(kind=None, place="잠실역")
    assert check_frame(no_course, search(course, SHOWN), gps=None) == ["kind: gold any, plan ['호프·맥주집']"]


def test_an_outside_station_named_without_its_suffix_is_the_gold_decision() -> None:
    """ "tacos in itaewon?": the gold writes the place as 이태원역 (a station or landmark → near); the
    product names 이태원 as the user said it, not covered — the same outside place said plainly."""
    gold = frame(kind="타코", place="이태원역", outside=True)
    reply = TurnResult(
        session_id="s",
        answer="'이태원' 쪽은 아직 식당 데이터에 없어요.",
        decision="reply",
        trace=[TraceEntry(node="understand", ms=0, decision="no restaurant in the data around 이태원")],
    )
    item = {
        "id": "x3",
        "split": "test",
        "type": "single_outside",
        "turns": [{"user": "tacos in itaewon?", "gps": None, "expect": expect("search", gold)}],
    }
    assert score_dialogue(item, [reply]).turns[0].got == "search"
    other = reply.model_copy(update={"answer": "'이촌' 쪽은 아직 식당 데이터에 없어요."})
    assert score_dialogue(item, [other]).turns[0].got == "reply"
