"""Issue 24, class 7 (round four): convenience facts real reviewers state in words the reader missed. One
test per class (each fails on the reader before it). The texts are written for these tests in the manner of
Kakao Map reviews (in no evaluation set); the expected values are read off each text by hand: a convenience
holds when the guest used, needed or saw it, and a complaint about how it was done does not take it away."""

from __future__ import annotations

import pytest

from support.reviews import read


@pytest.mark.parametrize(
    "text",
    [
        "사장님이 고기를 다 구워줌",  # the ending closes the syllable: 줌
        "이모님이 알아서 구워줍니다",  # 줍
        "직원분이 맛있게 구워준다 ㅎㅎ",  # 준
        "직원분이 구워주셔서 원하는 대로 못 익혀 먹음",  # a complaint that follows from it
    ],
)
def test_staff_grilling_said_in_any_ending_or_with_a_complaint_is_grilled_for_you(text: str) -> None:
    assert "구워줌" in read(text).convenience, text


def test_grilling_one_must_do_oneself_is_no_grilling() -> None:
    assert "구워줌" not in read("구워주는 줄 알았는데 직접 구워 먹어야 해요").convenience


@pytest.mark.parametrize(
    "text",
    [
        "발렛주차 3천원 받아요",
        "입구에서 차 키 맡기고 들어가면 돼요",
        "직원이 주차해주셔서 편했어요",
        "발렛 아저씨가 불친절해요",  # a rude valet is still a valet
    ],
)
def test_valet_parking_in_its_spellings_is_valet_and_parking(text: str) -> None:
    e = read(text)
    assert {"발렛", "주차"} <= set(e.convenience), (text, e.convenience)


def test_a_valet_outweighs_the_same_reviews_complaint_about_parking_space() -> None:
    # the lane has no space, and the place parks the car: the guest can come by car
    assert "주차" in read("골목이라 주차할 데가 없는데 발렛 해줘요").convenience


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("영업시간에 갔더니 배달 주문이 많아서 홀 손님은 안 받는대요", "배달"),
        ("포장 손님이 워낙 많아서 매장에선 못 먹었어요", "포장"),
    ],
)
def test_a_fact_told_as_the_cause_of_a_complaint_holds(text: str, value: str) -> None:
    # "X가 많아서 …": the fact is the cause; what went wrong follows from it
    assert value in read(text).convenience, text


def test_a_noun_kiwi_glued_a_particle_to_still_names_its_value() -> None:
    # Kiwi reads "딜리버리서" as one noun
    assert "배달" in read("동네 딜리버리서 시켜봤는데 식어서 왔어요").convenience


@pytest.mark.parametrize(
    "text",
    [
        "PICK UP 존에서 찾아가면 돼요",
        "남은 거 싸 달라고 했더니 용기에 담아주심",
        "빵을 종이봉투에 담아 주셨어요",
        "커피는 투고컵에 받아서 나왔어요",
    ],
)
def test_take_away_said_without_the_word_is_take_away(text: str) -> None:
    assert "포장" in read(text).convenience, text


@pytest.mark.parametrize(
    "text", ["와인 들고 갔어요", "알바가 싸가지가 없어요", "케이크 들고 갔는데 잘라주셨어요"]
)
def test_a_bottle_brought_in_or_a_rude_word_is_no_take_away(text: str) -> None:
    assert "포장" not in read(text).convenience, text


def test_a_bottle_brought_in_is_corkage() -> None:
    assert "콜키지" in read("와인 들고 가도 된대서 한 병 가져갔어요").convenience


@pytest.mark.parametrize(
    "text",
    [
        "방으로 나뉘어져 있어서 조용히 먹었어요",
        "Room 예약했어요",
        "안쪽 방으로 안내받았어요",
        "분리된 공간이라 편하게 얘기했어요",
    ],
)
def test_a_room_said_in_other_words_is_a_room(text: str) -> None:
    assert "룸" in read(text).convenience, text


@pytest.mark.parametrize(
    "text",
    [
        "깔끔한 패키지로 와서 선물로도 괜찮아요",  # the packing
        "탕수육은 바삭하고 깔끔했어요",  # a dish
        "새우튀김이 깔끔했어요",
        "보이는 곳만 깔끔함 뭐해 주방은 엉망인데",  # conceded and dismissed
        "홀은 깔끔한데 뭐해 직원이 불친절한데",
    ],
)
def test_clean_said_of_a_dish_the_packing_or_dismissed_is_no_clean_place(text: str) -> None:
    assert "깔끔한" not in read(text).atmosphere, text


@pytest.mark.parametrize("text", ["매장이 깔끔하고 넓어요", "화장실까지 깔끔해서 좋았어요"])
def test_a_clean_place_stays_clean(text: str) -> None:
    assert "깔끔한" in read(text).atmosphere, text
