"""Issue 24 class 7, session 7 (rev25): review_test13's (Jeju crawl) occasion misses written out as classes of
phrasing. None of these sentences is in a labelled set; the expected values are read off the sentences by the
conventions of review_test13_README.md / review_test14_README.md ("아이와 whenever a child comes along or eats",
"안주 praise and drinks at the place are 술자리", "not the dish name 해장라면/뼈해장국", hedged fits unlabelled)."""

from __future__ import annotations

import pytest

from support.reviews import read


@pytest.mark.parametrize(
    "text",
    [
        "애기가 좋아하는 메뉴가 있어서 자주 와요",
        "아이들도 매운 거 빼달라니 잘 먹었어요",
        "아이 간식으로 떡꼬치 하나 더 시켰어요",
        "아이가 아파서 죽 포장했는데 금방 해주셨어요",
    ],
)
def test_a_child_eating_or_fed_is_with_a_child(text: str) -> None:
    """A child of the guest's eating, liking or being fed is 아이와."""
    assert "아이와" in read(text).occasion, (text, read(text).occasion)


@pytest.mark.parametrize(
    "text",
    [
        "술이 쭉쭉 넘어가는 맛이에요",
        "수육에 소주 한잔 딱 좋았어요",
        "안주가 다 맛있어서 또 올게요",
        "튀김이 맥주랑 잘 맞아요",
    ],
)
def test_drinks_at_the_table_and_praised_anju_are_a_drinking_session(text: str) -> None:
    """Drinking at the table or 안주 praised is 술자리."""
    assert "술자리" in read(text).occasion, (text, read(text).occasion)


@pytest.mark.parametrize(
    "text",
    ["여기 좋은 와인을 싸게 살 수 있어요", "라떼 잘 마시고 왔어요", "2차 감동은 디저트였어요"],
)
def test_buying_wine_a_coffee_or_a_second_surprise_is_no_drinking_session(text: str) -> None:
    assert "술자리" not in read(text).occasion, (text, read(text).occasion)


@pytest.mark.parametrize("text", ["해장라면이 제일 맛있어요", "해장짬뽕 국물이 진해요"])
def test_haejang_inside_a_dish_name_is_no_hangover_visit(text: str) -> None:
    assert "해장" not in read(text).occasion, (text, read(text).occasion)


def test_a_hedged_drinking_fit_is_no_fact() -> None:
    text = "조용해서 혼자 술 한잔 하기도 좋을듯해요"
    assert "술자리" not in read(text).occasion, (text, read(text).occasion)


@pytest.mark.parametrize(
    "text",
    ["친구들이랑 여행 와서 맛있게 먹었어요", "친구들과 들렀는데 국물이 진해요", "단체로 오기 좋을꺼같아요"],
)
def test_friends_alone_and_a_hedged_party_are_no_gathering(text: str) -> None:
    """Friends alone are no occasion (review_set.md convention 8); "좋을꺼같아요" is a hedge like "좋을 것 같아요"."""
    occasion = read(text).occasion
    assert "모임" not in occasion and "단체" not in occasion, (text, occasion)


@pytest.mark.parametrize(
    "text",
    ["남편이 좋아해서 포장해 갔어요", "부모님 드리려고 택배로 보냈어요", "가족들 먹으라고 테이크아웃 했어요"],
)
def test_a_family_fed_from_a_takeaway_is_no_family_visit(text: str) -> None:
    assert "가족" not in read(text).occasion, (text, read(text).occasion)


@pytest.mark.parametrize(
    "text", ["사장님이 친절하셔서 편안하게 먹고 왔어요", "직원분들 응대가 좋아서 편안하게 식사했어요"]
)
def test_ease_told_of_the_service_is_no_comfortable_room(text: str) -> None:
    """편안한 is the room's; ease thanks to kind staff is the service (review_test13_README)."""
    assert "편안한" not in read(text).atmosphere, (text, read(text).atmosphere)


def test_a_comfortable_room_is_still_comfortable() -> None:
    text = "조명이 은은하고 편안한 분위기예요"
    assert "편안한" in read(text).atmosphere, (text, read(text).atmosphere)


@pytest.mark.parametrize("text", ["맛은 좋은데 주차는진짜헬 ㅠㅠ", "주차하기가 좀 불평했어요"])
def test_parking_hell_glued_or_misspelt_is_no_parking(text: str) -> None:
    """ "헬" glued to the word before it and the slip 불평 (for 불편) judge the parking as poor."""
    assert "주차" not in read(text).convenience, (text, read(text).convenience)


def test_a_place_said_to_suit_friends_is_a_gathering() -> None:
    text = "친구들이랑 맥주 한잔하기 좋은 곳이에요"
    assert "모임" in read(text).occasion, (text, read(text).occasion)


@pytest.mark.parametrize(
    "text", ["포장해서 집에서 혼자 먹었는데 맛있었어요", "혼자 숙소에서 맥주랑 먹었어요"]
)
def test_alone_at_home_or_in_ones_room_is_no_meal_alone_here(text: str) -> None:
    assert "혼밥" not in read(text).occasion, (text, read(text).occasion)
