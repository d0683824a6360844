"""The agent's nodes one at a time over the small hand-written corpus (``support.small``).

Each test brings a turn to the node under test through the graph's own nodes
(``state_before``), calls that node alone, and checks the update it returns against the RAW
crawl records of the corpus (never against the product's enrichment). These were whole-turn
tests over the ingested sample (issue 10's relevance and honesty cases)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from typing import Any

import pytest

from matjip.agent.configuration import Resources
from matjip.geo.distance import haversine_m
from matjip.ingest.hours import parse_business_hours
from support.chat import WEDNESDAY_EVENING
from support.demo import menu_names
from support.small import answer_of, path_of, run_node, run_turn, small_raw, state_before

HANGUL = re.compile(r"[가-힣]")
JAMSIL_GPS = {"lat": 37.5133, "lon": 127.1001}


def planned(res: Resources, text: str, **kw: Any) -> dict[str, Any]:
    """The ``plan`` node's update for a turn asking ``text`` (a first turn unless ``state``)."""
    return run_node(res, "plan", state_before(res, text, "plan", **kw))


def searched(res: Resources, text: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The state before ``search_general`` and the hits that node returns."""
    state = state_before(res, text, "search_general")
    hits = run_node(res, "search_general", state)["hits"]
    assert isinstance(hits, list)
    return dict(state), hits


def generated(res: Resources, text: str) -> str:
    """The answer the ``generate`` node says at the end of a turn asking ``text``."""
    return answer_of(run_node(res, "generate", state_before(res, text, "generate")))


# --- the kind of restaurant ------------------------------------------------------------------


def test_readme_example_plans_chicken_and_searches_chicken_restaurants(small_res: Resources) -> None:
    plan = planned(small_res, "잠실역 치킨집 추천해줘")["plan"]
    assert plan.kinds == ["치킨집"]
    _, hits = searched(small_res, "잠실역 치킨집 추천해줘")
    assert hits
    for h in hits:  # the pizza place listing chicken on its menu is no chicken restaurant
        rec = small_raw(str(h["id"]))
        assert "치킨" in rec["category"] or any(w in rec["title"] for w in ("치킨", "통닭")), rec["title"]
        assert "피자" not in rec["category"]


def test_spelling_variants_search_the_same_restaurants(small_res: Resources) -> None:
    _, a = searched(small_res, "망원동 돈까스")
    _, b = searched(small_res, "망원동 돈가스")
    assert a and [h["id"] for h in a] == [h["id"] for h in b]
    for h in a:
        rec = small_raw(str(h["id"]))
        text = rec["category"] + rec["title"] + " ".join(menu_names(rec))
        assert any(w in text for w in ("돈까스", "돈가스", "카츠", "돈카츠")), rec["title"]


def test_english_and_mixed_questions_are_planned(small_res: Resources) -> None:
    plan = planned(small_res, "gangnam station korean bbq")["plan"]
    assert plan.location is not None and plan.location.name == "강남역"
    assert plan.kinds == ["고깃집"]
    mixed = planned(small_res, "잠실 sushi 맛집")["plan"]
    assert mixed.kinds == ["초밥·오마카세"]


# --- exclusions ------------------------------------------------------------------------------


def test_exclusions_are_applied_and_said(small_res: Resources) -> None:
    state, hits = searched(small_res, "강남역 일식 스시 말고")
    assert state["plan"].exclude_kinds
    assert hits
    for h in hits:  # two sushi bars stand beside 강남역 in the corpus
        rec = small_raw(str(h["id"]))
        assert "초밥" not in rec["category"]
        assert not any(w in m for m in menu_names(rec) for w in ("초밥", "스시"))
    assert "빼고 찾았어요" in generated(small_res, "강남역 일식 스시 말고")


def test_chains_are_excluded_and_said(small_res: Resources) -> None:
    state, hits = searched(small_res, "체인점 말고 잠실 카페")
    assert state["plan"].exclude_chains
    brands = {b for b, titles in small_res.nlu.vocabulary.brands().items() if len(titles) >= 3}
    assert "스타벅스" in brands  # four branches in the corpus, two of them near 잠실
    assert hits
    for h in hits:
        title = small_raw(str(h["id"]))["title"].replace(" ", "")
        assert not any(b in title for b in brands if len(b) >= 2)
    assert "체인점은 빼고" in generated(small_res, "체인점 말고 잠실 카페")


# --- hours -----------------------------------------------------------------------------------


def test_unknown_hours_never_count_as_open(small_res: Resources) -> None:
    _, hits = searched(small_res, "잠실 지금 영업중인 국밥")
    assert hits
    for h in hits:  # 잠실 돼지국밥 records no hours, 나루 콩나물국밥 closes at 15:00
        sched = parse_business_hours(small_raw(str(h["id"])).get("businessHours"))
        assert sched is not None and sched.is_open(WEDNESDAY_EVENING) is True, h["id"]
    assert "영업시간 정보가 없는" in generated(small_res, "잠실 지금 영업중인 국밥")


def test_a_day_and_a_meal_is_that_days_meal_and_a_day_alone_a_window(small_res: Resources) -> None:
    # "내일 점심": tomorrow's lunch wished (places open then first), no opening time ruled on
    p = planned(small_res, "강남역 내일 점심 냉면")["plan"]
    assert p.open_at is None and p.open_wished is not None
    assert p.open_wished.date() == datetime(2026, 11, 26).date() and p.open_wished.hour == 12
    sat = planned(small_res, "잠실 토요일에 여는 고기집")["plan"]
    assert sat.open_at is not None and sat.open_at.weekday() == 5
    assert sat.open_until is not None and sat.open_until > sat.open_at


# --- places ----------------------------------------------------------------------------------


def test_landmarks_and_everyday_names_are_places(small_res: Resources) -> None:
    for text, place in (("석촌호수 근처 카페", "석촌호수"), ("새내 포차", "새내")):
        plan = planned(small_res, text)["plan"]
        assert plan.location is not None and plan.location.name == place, text


@pytest.mark.parametrize("text", ["가까운 중국집", "여기서 걸어갈 만한 초밥집"])
def test_the_device_location_is_used_for_nearness(small_res: Resources, text: str) -> None:
    state = state_before(small_res, text, "understand", gps=JAMSIL_GPS)
    location = run_node(small_res, "understand", state)["location"]
    assert location is not None and location.type == "GPS"


@pytest.mark.parametrize("text", ["데이트 식당", "점심 먹을 데 추천", "맛집 추천해줘"])
def test_a_request_for_any_restaurant_without_a_place_asks_where(small_res: Resources, text: str) -> None:
    update = run_node(small_res, "understand", state_before(small_res, text, "understand"))
    assert update["clarification"] is not None and update["clarification"].kind == "where"
    assert not update.get("hits")


# --- hard constraints and grounding ----------------------------------------------------------


def test_a_search_respects_every_hard_constraint_and_the_answer_is_grounded(small_res: Resources) -> None:
    state, hits = searched(small_res, "잠실역 근처 주차되는 한식집")
    plan = state["plan"]
    assert plan.intent == "search"
    loc = plan.location
    assert loc is not None and loc.lat is not None and loc.lon is not None
    assert hits
    docs = []
    for h in hits:
        doc = small_res.index.get(str(h["id"]))
        assert doc is not None
        assert doc.cuisine == "한식" and "주차" in doc.convenience
        assert doc.lat is not None and doc.lon is not None
        assert haversine_m(loc.lat, loc.lon, doc.lat, doc.lon) <= (loc.radius_m or 0) + 1
        docs.append(doc)
    answer = generated(small_res, "잠실역 근처 주차되는 한식집")
    for name in re.findall(r"\*\*(?:\d+\. )?([^*]+?)\*\*", answer):  # names and prices it states
        assert any(d.title == name for d in docs), name
    prices = {f"{m.price:,}원" for d in docs for m in d.menus if m.price is not None}
    for price in re.findall(r"\d{1,3}(?:,\d{3})+원", answer):
        if "이하" in answer or "이상" in answer:  # a price asked for, not one stated
            continue
        assert price in prices, price
    assert HANGUL.search(answer)


# --- follow-ups: a turn over the state an earlier turn left ----------------------------------


def test_the_same_search_again_is_a_duplicate_and_reuses_the_results(small_res: Resources) -> None:
    first = run_turn(small_res, "잠실역 피자집")
    assert first["hits"]
    state = state_before(small_res, "잠실역 피자집", "check_duplicate", state=first)
    update = run_node(small_res, "check_duplicate", state)
    assert update["duplicate_of"] is not None and "reusing" in update["_decision"]
    again = run_turn(small_res, "잠실역 피자집", state=first)
    assert [h["id"] for h in again["hits"]] == [h["id"] for h in first["hits"]]


def test_cheaper_is_a_refinement_not_a_duplicate(small_res: Resources) -> None:
    first = run_turn(small_res, "잠실역 고깃집")
    state = state_before(small_res, "좀 더 싼 데 없어?", "check_duplicate", state=first)
    plan = state["plan"]
    assert plan is not None and plan.price_max is not None and plan.kinds == ["고깃집"]
    assert run_node(small_res, "check_duplicate", state).get("duplicate_of") is None
    later = state_before(small_res, "좀 더 싼 데 없어?", "generate", state=first)
    assert "싼 곳" in answer_of(run_node(small_res, "generate", later))


def test_short_follow_ups_keep_the_topic(small_res: Resources) -> None:
    """'5개 보여줘' and '이번엔 송파역 쪽으로' name no food: the kind asked before stays."""
    first = run_turn(small_res, "잠실역 중국집")
    more = planned(small_res, "5개 보여줘", state=first)["plan"]
    assert more.kinds == ["중국집"] and more.k == 5
    moved = planned(small_res, "이번엔 송파역 쪽으로", state=first)["plan"]
    assert moved.kinds == ["중국집"]
    assert moved.location is not None and moved.location.name == "송파역"


def test_near_me_asks_for_the_position_and_uses_it_when_sent(small_res: Resources) -> None:
    asked = run_node(small_res, "understand", state_before(small_res, "내 근처 국밥집", "understand"))
    assert asked["clarification"] is not None and asked["clarification"].kind == "gps"
    plan = planned(small_res, "내 근처 국밥집", gps=JAMSIL_GPS)["plan"]
    assert plan.location is not None and plan.location.lat == pytest.approx(37.5133)


# --- conversations: the list shown stays what follow-ups refer to ----------------------------


def _titles(state: Mapping[str, Any]) -> list[str]:
    return [small_raw(str(h["id"]))["title"] for h in state["hits"]]


def test_a_reaction_is_small_talk_and_keeps_the_list(small_res: Resources) -> None:
    first = run_turn(small_res, "잠실역 중국집")
    assert len(first["hits"]) >= 2
    for text in ("오 맛있겠다 ㅋㅋ", "ㅇㅋ 여기 가야지 빠이", "ㄳㄳ", "아 그렇구나"):
        path = path_of(small_res, text, state=first)
        assert not any(n.startswith("search_") for n in path), (text, path)
        said = state_before(small_res, text, "generate", state=first)
        assert said["decision"] == "reply" and not said.get("hits"), text
    second = state_before(small_res, "두 번째 집 주소 알려줘", "generate", state=first)
    assert second["decision"] == "context"
    assert _titles(first)[1] in answer_of(run_node(small_res, "generate", second))


def test_follow_ups_that_need_no_search_make_no_search(small_res: Resources) -> None:
    first = run_turn(small_res, "잠실역 중국집")
    for text in ("첫번째 집 몇시까지 해?", "1번이랑 2번 비교해줘", "오 좋다 ㅋㅋ"):
        path = path_of(small_res, text, state=first)
        assert not any(n.startswith("search_") for n in path), (text, path)


def test_compare_two_shown_restaurants_by_ordinal(small_res: Resources) -> None:
    first = run_turn(small_res, "잠실역 중국집")
    assert len(first["hits"]) >= 3
    a, b, c = _titles(first)[:3]
    state = state_before(small_res, "첫번째랑 세번째 비교해줘", "generate", state=first)
    assert state["decision"] == "context" and state["compare_ids"]
    answer = answer_of(run_node(small_res, "generate", state))
    assert a in answer and c in answer and b not in answer
    assert "| 가격(중간값) |" in answer  # side by side
    last = state_before(small_res, "처음꺼랑 마지막꺼 중에 어디가 더 늦게까지 해?", "generate", state=first)
    assert last["compare_ids"] and "늦게까지" in answer_of(run_node(small_res, "generate", last))


def test_a_shown_restaurant_keeps_its_number(small_res: Resources) -> None:
    first = run_turn(small_res, "잠실 카페")
    state = state_before(small_res, "두 번째는?", "generate", state=first)
    assert state["decision"] == "context"
    assert f"**2. {_titles(first)[1]}**" in answer_of(run_node(small_res, "generate", state))


# --- formerly tests of private helpers of the search node (kind strength, kind frame) ---------


def test_a_gopchang_place_ranks_after_grills_for_a_gogi_jip(small_res: Resources) -> None:
    """The best-reviewed 고깃집 near 잠실역 is a 곱창 place: asked as 고깃집 it comes after the grills,
    asked as 곱창 it is the kind."""
    _, hits = searched(small_res, "잠실역 고깃집 5곳")
    kinds = ["곱창" in small_raw(str(h["id"]))["category"] for h in hits]
    assert True in kinds and False in kinds
    assert kinds == sorted(kinds), [small_raw(str(h["id"]))["title"] for h in hits]
    _, gopchang = searched(small_res, "잠실역 곱창")
    assert gopchang and small_raw(str(gopchang[0]["id"]))["title"] == "소문난이모네곱창"


def test_a_contrast_inside_the_kind_asked_for_rules_nothing_out(small_res: Resources) -> None:
    """ "쌀국수말고 분짜": every 분짜 place also sells 쌀국수, so 쌀국수 as an excluded menu word left
    none; the wanted dish is the request."""
    plan = planned(small_res, "쌀국수말고 분짜 먹고싶음 송파")["plan"]
    assert plan.kinds == ["쌀국수·베트남"] and plan.kind_dishes == ["분짜"]
    assert plan.exclude_menu == []
    other = planned(small_res, "강남역 일식 스시 말고")["plan"]
    assert "스시" in other.exclude_menu
