"""Conversations (issue 11): follow-ups keep, refine and refer to the context correctly.

Each test runs the real offline agent on the shared sample, one new session per dialogue, and
checks what a user sees (cards, answer text, the frame) against the raw crawl records.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from matjip.agent.service import Agent
from matjip.eval.relevance_judge import coords
from matjip.geo.distance import haversine_m
from support.chat import Chat
from support.demo import raw

JAMSIL = (37.513977, 127.102198)  # 잠실역 in data/gazetteer/places_capital.csv


def test_other_places_page_without_repeating(sample_agent: Agent) -> None:
    chat = Chat(sample_agent)
    first = chat("홍대 카페")
    more = chat("다른 데는 없어?")
    assert more.searched and more.cards
    assert not {c.id for c in first.cards} & {c.id for c in more.cards}
    assert more.frame is not None and more.frame.kinds == first.frame.kinds  # type: ignore[union-attr]
    third = chat("다른데")
    assert not {c.id for c in [*first.cards, *more.cards]} & {c.id for c in third.cards}


def test_n_more_pages_with_that_many(sample_agent: Agent) -> None:
    chat = Chat(sample_agent)
    first = chat("홍대 카페")
    more = chat("3개만 더")
    assert more.searched and len(more.cards) == 3
    assert not {c.id for c in first.cards} & {c.id for c in more.cards}
    five = chat("5개 더 보여줘")
    assert len(five.cards) == 5
    assert not {c.id for c in [*first.cards, *more.cards]} & {c.id for c in five.cards}


def test_closer_keeps_the_frame_and_is_nearer(sample_agent: Agent) -> None:
    chat = Chat(sample_agent)
    first = chat("홍대 카페 5개")
    far = max(c.distance_m or 0 for c in first.cards)
    closer = chat("좀 더 가까운 데")
    assert closer.clarification is None and closer.cards
    dists = [c.distance_m for c in closer.cards]
    assert all(d is not None and d < far for d in dists)
    assert dists == sorted(dists)
    assert closer.frame is not None and closer.frame.kinds == ["카페"] and closer.frame.k == 5


def test_a_search_around_a_shown_restaurant(sample_agent: Agent) -> None:
    chat = Chat(sample_agent)
    first = chat("홍대 고기집")
    anchor = raw(first.cards[1].id)
    r = chat("두번째 집 근처에 카페 있어?")
    assert r.searched and r.cards and r.clarification is None
    assert r.plan is not None and r.plan.location is not None and r.plan.kinds == ["카페"]
    a = coords(anchor)
    assert a is not None
    for c in r.cards:
        b = coords(raw(c.id))
        assert b is not None and haversine_m(a[0], a[1], b[0], b[1]) <= 3000
    assert r.plan.location.name == anchor["title"]


def test_compare_here_with_a_named_restaurant_and_a_brand_said_once(sample_agent: Agent) -> None:
    chat = Chat(sample_agent)
    first = chat("잠실역 고깃집 하나만")
    assert len(first.cards) == 1
    shown = raw(first.cards[0].id)["title"]
    r = chat("거기랑 홍콩반점0410 비교하면?")
    assert r.intent == "compare"
    assert shown in r.answer and "홍콩반점" in r.answer


def test_an_answer_about_the_focus_names_the_dish_price(sample_agent: Agent) -> None:
    chat = Chat(sample_agent)
    first = chat("잠실역 삼겹살 하나만")
    assert first.cards
    rec = raw(first.cards[0].id)
    r = chat("거기 삼겹살 얼마야?")
    assert r.decision == "context" and not r.searched
    lines = [m for m in rec.get("menus") or [] if "삼겹" in (m.get("name") or "")]
    if lines:
        assert lines[0]["name"] in r.answer
    else:
        assert "없어요" in r.answer


def test_a_refinement_keeps_what_was_asked_even_when_the_search_had_to_drop_it(sample_agent: Agent) -> None:
    chat = Chat(sample_agent)
    chat("잠실역 카페 5개")
    r = chat("단체석 되는 데로")
    assert r.frame is not None and r.frame.convenience == ["단체석"] and r.frame.k == 5
    nxt = chat("주차되는 데로")
    assert nxt.frame is not None and set(nxt.frame.convenience) == {"단체석", "주차"}


def test_a_common_kind_with_no_place_asks_where_then_resumes(sample_agent: Agent) -> None:
    chat = Chat(sample_agent)
    asked = chat("카페 추천")
    assert asked.clarification is not None and not asked.cards
    r = chat("잠실역")
    assert r.resumed and r.cards and r.plan is not None and r.plan.kinds == ["카페"]


def test_exclusion_slang_on_a_follow_up(sample_agent: Agent) -> None:
    chat = Chat(sample_agent)
    chat("잠실역 카페")
    r = chat("프차 뺴고 ㅋㅋ")
    assert r.searched and r.frame is not None and r.frame.exclude_chains
    assert r.frame.kinds == ["카페"]


def test_two_concurrent_sessions_never_see_each_others_results(sample_agent: Agent) -> None:
    import threading

    out: dict[str, tuple[list[str], str]] = {}
    errors: list[BaseException] = []
    barrier = threading.Barrier(2)

    def converse(name: str, first: str) -> None:
        try:
            chat = Chat(sample_agent)
            barrier.wait(10)
            for _ in range(3):
                shown = chat(first)
                follow = chat("두 번째 집 주소 알려줘")
                out[name] = ([c.id for c in shown.cards], follow.answer)
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [
        threading.Thread(target=converse, args=("a", "홍대 카페")),
        threading.Thread(target=converse, args=("b", "천호역 고깃집")),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    for mine, other in (("a", "b"), ("b", "a")):
        ids, answer = out[mine]
        assert raw(ids[1])["title"] in answer
        assert raw(out[other][0][1])["title"] not in answer


def test_ordinal_lists_slang_and_reactions(sample_agent: Agent) -> None:
    chat = Chat(sample_agent)
    first = chat("천호역 고깃집")
    assert len(first.cards) == 3
    r = chat("1,3번 비교좀")
    assert r.intent == "compare" and raw(first.cards[2].id)["title"] in r.answer
    for text in ("와 사람 많겠다", "좋아 좋아", "에휴 오늘 야근이라 늦게 갈듯ㅠ..."):
        assert chat(text).decision == "reply", text
    phone = chat("세번째꺼 전번 좀")
    assert phone.decision == "context" and raw(first.cards[2].id)["title"] in phone.answer


def test_a_dish_price_comparison_quotes_the_dish_lines(sample_agent: Agent) -> None:
    chat = Chat(sample_agent)
    first = chat("천호역 삼겹살")
    assert len(first.cards) >= 2
    r = chat("1번이랑 2번 중에 삼겹살 어디가 더 싸?")
    assert r.intent == "compare"
    for c in first.cards[:2]:
        lines = [
            m for m in raw(c.id).get("menus") or [] if "삼겹" in (m.get("name") or "") and m.get("price")
        ]
        if lines:  # every priced 삼겹 line of both is quoted with its price as the menu says it
            assert any(f"'{m['name']}' {m['price']}" in r.answer for m in lines), (lines, r.answer)
    assert "더 싸요" in r.answer or "비교하기 어려워요" in r.answer


def test_more_everyday_follow_ups(sample_agent: Agent) -> None:
    chat = Chat(sample_agent)
    assert chat("ok thx").decision == "reply"  # small talk in any script, never "not Korean"
    first = chat("홍대 카페")
    more = chat("다른덴")
    assert more.searched and not {c.id for c in first.cards} & {c.id for c in more.cards}
    ruled = chat("홍대 일식 오마카세는 ㄴㄴ")
    assert ruled.frame is not None and "오마카세" in ruled.frame.exclude_kinds
    bread = Chat(sample_agent)
    shown = bread("홍대 빵집 하나만")
    assert shown.cards
    r = bread("여기 소금빵도 팔아요?")
    assert r.decision == "context" and not r.searched
    assert raw(shown.cards[0].id)["title"] in r.answer


def test_conditions_on_the_list_refine_and_only_a_verbatim_repeat_reuses(sample_agent: Agent) -> None:
    chat = Chat(sample_agent)
    first = chat("천호역 고깃집")
    r = chat("그 중에 포장되는거")
    assert r.searched and r.frame is not None and r.frame.convenience == ["포장"]
    assert r.frame.kinds == first.frame.kinds  # type: ignore[union-attr]
    near = chat("근처 카페도")  # no device position: around 천호역 again, never a question
    assert near.clarification is None and near.plan is not None and near.plan.location is not None
    assert near.plan.location.name == "천호역"
    again = chat("천호역 고깃집")
    assert again.reused
    reworded = chat("천호역 근처 고깃집 다시 찾아줘")
    assert not reworded.reused and reworded.searched


def test_a_condition_no_longer_wanted_leaves_the_frame(sample_agent: Agent) -> None:
    chat = Chat(sample_agent)
    first = chat("잠실역 고깃집 주차되는곳")
    assert first.frame is not None and first.frame.convenience == ["주차"]
    dropped = chat("아 주차 안돼도 괜찮아 다시 찾아줘")
    assert dropped.searched and dropped.frame is not None
    assert dropped.frame.convenience == [] and dropped.frame.kinds == first.frame.kinds
    assert "'주차' 조건은 빼고" in dropped.answer


def test_a_wished_condition_refines(sample_agent: Agent) -> None:
    chat = Chat(sample_agent)
    chat("잠실역 고깃집")
    r = chat("룸 있으면 더 좋고")
    assert r.searched and r.frame is not None and "룸" in r.frame.convenience


def test_questions_about_the_assistant_or_the_weather_keep_the_list(sample_agent: Agent) -> None:
    chat = Chat(sample_agent)
    first = chat("잠실역 분식")
    for text in ("근데 너 이름이 뭐야?", "오늘 날씨 어때", "안뇽"):
        r = chat(text)
        assert r.decision == "reply" and not r.searched and not r.cards, text
    second = chat("첫번째 주소")
    assert second.decision == "context" and raw(first.cards[0].id)["title"] in second.answer


def test_there_after_a_list_is_the_place_searched(sample_agent: Agent) -> None:
    chat = Chat(sample_agent)
    first = chat("잠실역 중국집")
    assert len(first.cards) >= 2
    r = chat("거기 근처 카페도")
    assert r.plan is not None and r.plan.location is not None
    assert r.plan.location.name == "잠실역"


def test_an_ordinal_with_a_kind_points_into_that_earlier_list(sample_agent: Agent) -> None:
    chat = Chat(sample_agent)
    cafes = chat("홍대 카페")
    chat("홍대 중국집")
    r = chat("아까 카페 두번째는 몇시까지야?")
    assert r.decision == "context" and not r.searched
    assert raw(cafes.cards[1].id)["title"] in r.answer


def test_three_shown_places_are_compared(sample_agent: Agent) -> None:
    chat = Chat(sample_agent)
    first = chat("홍대 카페")
    assert len(first.cards) == 3
    r = chat("1,2,3번 다 비교해줘")
    assert r.decision == "context"
    for c in first.cards:
        assert raw(c.id)["title"] in r.answer


def test_a_feeling_before_near_is_no_place(sample_agent: Agent) -> None:
    r = Chat(sample_agent)("배고파 근처에 지금 문 연 데 있어?")
    assert r.clarification is not None and "배고파" not in r.answer


def test_ruling_out_a_kind_of_bar_keeps_the_bars(sample_agent: Agent) -> None:
    chat = Chat(sample_agent)
    chat("홍대 술집 추천좀")
    r = chat("이자카야는 빼줘")
    assert r.frame is not None and r.frame.kinds == ["술집"] and r.frame.exclude_kinds == ["이자카야"]
    assert r.frame.exclude_cuisine == []  # not every bar


def test_a_condition_said_before_malgo_is_replaced(sample_agent: Agent) -> None:
    chat = Chat(sample_agent)
    chat("잠실역 고깃집 주차되는곳")
    r = chat("주차말고 포장되는 데로 바꿔줘")
    assert r.frame is not None and r.frame.convenience == ["포장"]
    assert "'바꾸'" not in r.answer


def test_until_when_after_a_named_restaurant_answers_about_it(sample_agent: Agent) -> None:
    chat = Chat(sample_agent)
    chat("잠실역 중국집")
    named = chat("진대감 가락점 메뉴 알려줘")
    assert named.cards
    r = chat("몇시까지 하는데")
    assert r.decision == "context" and not r.searched and "진대감" in r.answer


def test_thanks_over_the_food_already_searched_is_a_goodbye(sample_agent: Agent) -> None:
    chat = Chat(sample_agent)
    first = chat("잠실역 치킨집")
    r = chat("오늘 치맥 ㄱㄱ 땡큐")
    assert r.decision == "reply" and not r.searched
    assert chat("누가 만들었어?").decision == "reply"
    again = chat("두번째 주소")
    assert raw(first.cards[1].id)["title"] in again.answer


def test_an_earlier_list_and_this_one_are_compared(sample_agent: Agent) -> None:
    chat = Chat(sample_agent)
    first = chat("홍대 카페")
    second = chat("홍대 빵집")
    assert first.cards and second.cards
    r = chat("아까 첫번째랑 지금 첫번째 비교해줘")
    assert r.decision == "context" and r.intent == "compare"
    for c in (first.cards[0], second.cards[0]):
        assert raw(c.id)["title"] in r.answer
    assert "00%)" not in r.answer.replace("100%)", "")  # no share above 100 %


def test_near_that_after_an_answer_about_one_restaurant_is_near_it(sample_agent: Agent) -> None:
    """ "그 근처 카페도" right after "첫번째 집 주차돼?" searched around the place first asked about,
    not the restaurant the conversation had moved to; right after a search it is still the place."""
    chat = Chat(sample_agent)
    first = chat("잠실 고깃집")
    assert first.cards
    chat("첫번째 집 주차돼?")
    r = chat("그 근처 카페도")
    assert r.plan is not None and r.plan.location is not None
    assert r.plan.location.name == first.cards[0].name
    chat2 = Chat(sample_agent)
    chat2("잠실 고깃집")
    r2 = chat2("그 근처 카페도")
    assert r2.plan is not None and r2.plan.location is not None and r2.plan.location.name == "잠실"


# --- issue 24: follow-ups (class 8) and references (class 14) ---------------------------------


def _median_price(rec: dict[str, Any]) -> float | None:
    said = [re.sub(r"\D", "", str(m.get("price") or "")) for m in rec.get("menus") or []]
    prices = sorted(int(p) for p in said if p)
    if not prices:
        return None
    mid = len(prices) // 2
    return prices[mid] if len(prices) % 2 else (prices[mid - 1] + prices[mid]) / 2


@pytest.mark.parametrize(
    "wording", ["가격대 낮춰서", "좀 덜 비싼 데", "부담 없는 가격으로", "더 저렴한 곳", "싼 데로"]
)
def test_cheaper_in_any_wording_refines_the_list_shown(sample_agent: Agent, wording: str) -> None:
    """ "가격대 낮춰서" read "낮" as daytime and "부담 없는 가격" as a casual mood, neither as cheaper."""
    chat = Chat(sample_agent)
    first = chat("잠실역 고깃집")
    assert first.cards and first.frame is not None
    r = chat(wording)
    assert r.searched and r.frame is not None and r.frame.kinds == first.frame.kinds
    assert r.frame.price_max is not None and r.frame.open_at is None and not r.frame.atmosphere
    assert not {c.id for c in first.cards} & {c.id for c in r.cards}
    assert "앞에서 보여 드린 곳보다 싼 곳" in r.answer and "데이터로 확인할 수 없어서" not in r.answer


@pytest.mark.parametrize(
    ("said", "size"),
    [("우리 여섯이 갈 건데", 6), ("회식 10명 1인 3만원", 10), ("4명인데", 4), ("일곱이서 갈 거야", 7)],
)
def test_a_party_size_anywhere_in_the_sentence_is_said_unknowable(
    sample_agent: Agent, said: str, size: int
) -> None:
    chat = Chat(sample_agent)
    assert chat("잠실역 고깃집").cards
    r = chat(said)
    assert r.searched and r.frame is not None and r.frame.kinds == ["고깃집"]
    assert f"{size}명이 함께 앉을 자리가 있는지는 좌석 정보가 없어서 알 수 없어요" in r.answer


def test_a_per_person_price_is_a_cap_said_per_person(sample_agent: Agent) -> None:
    chat = Chat(sample_agent)
    r = chat("잠실역 고깃집 회식 10명 1인 3만원")
    assert r.searched, (r.decision, r.answer[:200])
    asked = r.frame or r.plan
    assert asked is not None and asked.price_max == 30000
    assert "10명이 함께 앉을 자리" in r.answer and "1인 3만원: 한 사람 기준 예산" in r.answer
    for c in r.cards:
        mid = _median_price(raw(c.id))
        assert mid is not None and mid <= 30000


def test_a_travel_question_about_a_shown_place_answers_its_minutes(sample_agent: Agent) -> None:
    """ "두 번째 거기 잠실역에서 걸어가면 몇 분?" was a new search around 잠실역, and "거기" then
    pointed at the first of that list."""
    chat = Chat(sample_agent)
    first = chat("잠실역 중국집")
    assert len(first.cards) >= 2
    second = raw(first.cards[1].id)
    r = chat("두 번째 거기 잠실역에서 걸어가면 몇 분?")
    assert r.decision == "context" and not r.searched
    where = coords(second)
    assert where is not None
    metres = haversine_m(JAMSIL[0], JAMSIL[1], where[0], where[1]) * 1.3  # walking detour
    said = re.search(r"걸어서 약 (\d+)분", r.answer)
    assert second["title"] in r.answer and said is not None
    assert abs(int(said.group(1)) - metres / 67) <= 1.5  # 67 m a minute on foot
    after = chat("거기 몇시까지 해?")
    assert after.decision == "context" and second["title"] in after.answer


def test_a_follow_up_naming_a_place_never_repoints_there(sample_agent: Agent) -> None:
    chat = Chat(sample_agent)
    first = chat("잠실역 중국집")
    assert len(first.cards) >= 2
    second = raw(first.cards[1].id)
    r = chat("두 번째 거기 강남역에서 몇 정거장이야?")
    assert not r.searched and r.decision == "context"
    after = chat("거기 몇시까지 해?")
    assert second["title"] in after.answer


@pytest.mark.parametrize(
    ("ask", "start", "end"),
    [
        ("두번째로 간 카페 첫번째 곱창집에서 걸어서 몇분?", 0, 1),
        ("1번 집에서 3번 집까지 걸어서 몇 분?", 0, 2),
        ("마지막 집까지 두번째 집에서 걸어가면 얼마나 걸려?", 1, 2),
    ],
)
def test_a_travel_question_between_two_shown_places(
    sample_agent: Agent, ask: str, start: int, end: int
) -> None:
    """ "두번째로 간 카페 첫번째 곱창집에서 걸어서 몇분?" (dialogue_test13 eh126) was a new search around the
    first place: the way between two shown places is answered from their coordinates."""
    chat = Chat(sample_agent)
    first = chat("송파역 근처 칼국수")
    assert len(first.cards) >= 3
    a, b = raw(first.cards[start].id), raw(first.cards[end].id)
    r = chat(ask)
    assert r.decision == "context" and not r.searched
    pa, pb = coords(a), coords(b)
    assert pa is not None and pb is not None
    metres = haversine_m(pa[0], pa[1], pb[0], pb[1]) * 1.3  # walking detour
    said = re.search(r"걸어서 약 (\d+)분", r.answer)
    assert said is not None and b["title"] in r.answer and a["title"] in r.answer
    assert abs(int(said.group(1)) - metres / 67) <= 1.5  # 67 m a minute on foot
    after = chat("거기 몇시까지 해?")
    assert after.decision == "context" and b["title"] in after.answer
