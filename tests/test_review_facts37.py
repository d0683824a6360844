"""Issue 24 class 7, session 13 (rev37): review facts as classes that transfer between the labelled real sets.
Each class below is in two or more of review_test13 … review_test18 (or older sets) and was measured on every set
(docs/rev37_notes.md): a service the reviewer used in the past holds whatever the same review says against it next
(``review_rules.toml`` [support] ``use_outweighs``; asking, or the place's own honorific past, is no use); a drink listed
with the dishes, judged well or badly, or a glass as the guest's habit tells 술자리 whatever its clause says
(``review_moods.toml`` [told]); a review that tells only a takeaway, a delivery or a parcel gives no 가족 visit
(``review_rules.toml`` [takeaway], review_set.md convention 8). The sentences are in new words (none is in a labelled
set). The new-reading cases fail on main ``cabd56f``; the controls pass on both."""

from __future__ import annotations

import pytest

from support.reviews import read


def _occasions(text: str) -> set[str]:
    return set(read(text).occasion)


def _conveniences(text: str) -> set[str]:
    return set(read(text).convenience)


# --- a first-hand use outweighs the same review's complaints ----------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("저녁 7시로 예약을 했는데 일행이 늦어 예약을 미뤄줄 수 있냐고 물었더니 안된대요", "예약"),
        ("예약하기 어려운 곳인데 겨우 룸을 예약했어요", "예약"),
        ("예약했는데 예약이 안 되어 있다고 해서 한참 기다렸어요", "예약"),
        ("떡볶이 2인분 포장했는데 어묵 국물은 포장이 안 된대요", "포장"),
    ],
)
def test_a_service_used_first_hand_holds_whatever_the_review_says_against_it(text: str, value: str) -> None:
    assert value in _conveniences(text), (text, _conveniences(text))


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("포장 문의드렸는데 포장은 안 된다고 하시네요", "포장"),  # asked, not used
        ("작년까지는 배달도 하셨는데 요즘은 배달 안 하신대요", "배달"),  # the place's own past
        ("주차했는데 자리가 너무 좁아서 힘들었어요", "주차"),  # parking described as hard stays `false`
    ],
)
def test_a_question_or_the_places_own_past_is_no_use(text: str, value: str) -> None:
    assert value not in _conveniences(text), (text, _conveniences(text))


# --- a drink told as had ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "감바스와 빠에야 그리고 화이트와인. 감바스가 특히 맛있었어요",
        "파스타 리조또 레몬맥주까지🩷 친구가 극찬했어요",
        "소주는 그닥… 안주는 최고예요",
        "곱창에 소주 한잔하면 세상 부러울 게 없어요",
    ],
)
def test_a_drink_listed_judged_or_a_habit_of_bliss_is_drinking(text: str) -> None:
    assert "술자리" in _occasions(text), (text, _occasions(text))


@pytest.mark.parametrize(
    "text",
    [
        "치킨과 무알콜맥주. 둘 다 괜찮았어요",  # non-alcoholic
        "맥주 안 파는 건 아쉽지만 피자는 맛있어요",  # not sold
        "생맥주 8,000원 치킨 19,000원",  # a price list
    ],
)
def test_a_drink_not_had_is_no_drinking(text: str) -> None:
    assert "술자리" not in _occasions(text), (text, _occasions(text))


# --- a family fed at home ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "전화로 주문하면 바로 포장해갈 수 있어서 편해요. 양이 많아 식구들이랑 나눠 먹기 좋아요. 가족들과 먹기 딱이에요",
        "전화로 주문하고 포장해갈 수 있어서 좋아요. 가격도 착해서 가족들과 함께 먹기 좋아요",
        "부모님도 한입 드시자마자 좋아하셨어요 미리 주문했더니 바로 픽업할 수 있어서 편했어요",
    ],
)
def test_a_review_of_a_takeaway_only_gives_no_family_visit(text: str) -> None:
    assert "가족" not in _occasions(text), (text, _occasions(text))


@pytest.mark.parametrize(
    "text",
    [
        "가족들과 점심 먹으러 갔어요. 남은 음식은 포장해 주셨어요",
        "부모님 모시고 식사했어요. 양이 많아서 남은 건 포장해 왔어요",
        "사촌 가족과 오찬. 음식이 남아 포장도 꼼꼼하게 해줘요",
    ],
)
def test_a_meal_at_the_place_with_leftovers_packed_keeps_the_family(text: str) -> None:
    assert "가족" in _occasions(text), (text, _occasions(text))
