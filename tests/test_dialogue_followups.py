"""Issue 24 follow-ups found on the held-out dialogue set (dialogue_test3, now a development set):
English follow-ups, a dong name shared by adjacent cities, "열어요?" about a named place, a
per-person budget said roughly, a party size said to be unknowable in words a reader trusts."""

from __future__ import annotations

import pytest

from matjip.agent.service import Agent
from matjip.nlu import OfflineNLU
from matjip.nlu.evaluate import build_default_nlu
from matjip.nlu.romanized import english_words, koreanize_places
from support.chat import Chat


@pytest.fixture(scope="module")
def nlu() -> OfflineNLU:
    return build_default_nlu()


# --- English follow-ups (data/english.toml) ---------------------------------------------------


def test_the_english_words_load_and_every_pattern_compiles() -> None:
    import re

    words = english_words()
    assert words.phrase and words.count_words["one"] == 1 and "restaurant" in words.count_nouns
    for p in words.phrase:
        re.compile(p.pattern)


@pytest.mark.parametrize(
    ("english", "korean"),
    [
        ("second one, what time does it close?", "두 번째, 몇 시까지 해?"),
        ("cheaper ones?", "더 싼 데?"),
        ("samgyeopsal bangi-dong food alley", "samgyeopsal 방이동 먹자골목"),
        ("one good chinese restaurant near ogeum station", "1곳 good chinese restaurant 오금역 근처"),
    ],
)
def test_english_follow_up_words_become_korean(english: str, korean: str) -> None:
    assert koreanize_places(english) == korean


def test_english_follow_ups_keep_the_conversation(sample_agent: Agent) -> None:
    chat = Chat(sample_agent)
    first = chat("sushi near jamsil station")
    assert len(first.cards) >= 2, first.answer
    second = first.cards[1].name
    hours = chat("second one, what time does it close?")
    assert hours.decision == "context", (hours.decision, hours.answer)
    assert second.replace(" ", "") in hours.answer.replace(" ", "")
    cheaper = chat("cheaper ones?")
    assert cheaper.decision == "search" and cheaper.frame is not None
    assert cheaper.frame.price_max is not None and cheaper.frame.kinds == first.frame.kinds  # type: ignore[union-attr]


def test_an_english_count_and_english_function_words(sample_agent: Agent) -> None:
    one = Chat(sample_agent)("one good chinese restaurant near jamsil station")
    assert one.frame is not None and one.frame.k == 1 and one.frame.kinds == ["중국집"]
    moved = Chat(sample_agent)
    moved("sushi near jamsil station")
    r = moved("what about around olympic park")
    assert "'what'" not in r.answer and "about" not in r.answer, r.answer


# --- a dong name of several adjacent cities ---------------------------------------------------


def test_a_dong_shared_by_adjacent_cities_with_restaurants_is_asked(sample_agent: Agent) -> None:
    """위례동 is a dong of 송파구, 성남시 수정구 and 하남시, side by side, each with restaurants."""
    chat = Chat(sample_agent)
    asked = chat("위례동 쌀국수")
    assert asked.clarification is not None and not asked.cards
    assert len(asked.clarification.choices) == 3, asked.answer
    chosen = chat("하남 쪽 위례동")
    assert chosen.resumed and chosen.frame is not None and chosen.frame.location is not None
    assert chosen.frame.location.name == "하남시 위례동" and chosen.frame.location.mode == "in"
    assert "하남시 위례동" in chosen.answer
    # "위례" alone is the new town: searched, not asked
    assert Chat(sample_agent)("위례 초밥집").clarification is None


# --- "열어요?" about a named place, a per-person budget said roughly ---------------------------------


def test_asking_whether_a_named_place_opens_on_a_day_is_a_question_about_it(nlu: OfflineNLU) -> None:
    r = nlu.parse("해주냉면 토요일에도 열어요?")
    assert r.intent == "information" and r.entities.title == ["해주냉면"] and "hours" in r.ask
    assert r.time is not None and r.time.weekday == 5


def test_a_party_too_big_to_check_is_said_unknown(sample_agent: Agent) -> None:
    r = Chat(sample_agent)("잠실역 근처 고깃집 우리 8명 들어갈 만한 곳")
    assert r.searched and r.frame is not None and r.frame.kinds == ["고깃집"]
    assert "8명이 함께 앉을 자리가 있는지는 좌석 정보가 없어서 알 수 없어요" in r.answer


def test_a_question_about_another_day_answers_that_days_hours(sample_agent: Agent) -> None:
    """ "토요일에도 열어요?" on a Wednesday: the week's hours, then Saturday's, not today's."""
    named = Chat(sample_agent)("진대감 토요일에도 열어요?")
    assert named.intent == "information" and "진대감" in named.answer
    assert "토요일 영업" in named.answer and "(오늘:" not in named.answer, named.answer
    chat = Chat(sample_agent)
    assert chat("잠실역 고깃집").cards
    r = chat("첫 번째 거기 토요일에도 열어?")
    assert r.decision == "context"
    assert "영업시간" in r.answer and "토요일 영업" in r.answer and "(오늘:" not in r.answer, r.answer
