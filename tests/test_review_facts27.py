"""Issue 24 class 7, session 8 (rev27): false positives shared by the frozen real-review sets, written out as classes of
phrasing. None of these sentences is in a labelled set; the expected values are read off the sentences by the session-6
conventions of review_set.md (an atmosphere is about the place, a company planned for a later visit is no occasion,
a quoted name is no fact); each class has controls the reader must keep."""

from __future__ import annotations

import pytest

from support.reviews import read

COMPANY = ("가족", "데이트", "모임", "회식", "아이와")


@pytest.mark.parametrize(
    "text",
    [
        "다음번엔 와이프랑 갈게요 맛있네요",
        "담엔 남친이랑 가려구요",
        "조만간 팀원들이랑 같이올 생각이에요",
        "다음엔 부모님 모시고 올 예정입니다",
    ],
)
def test_a_company_promised_for_a_later_visit_is_no_occasion(text: str) -> None:
    got = read(text).occasion
    assert not set(got) & set(COMPANY), (text, got)


@pytest.mark.parametrize(
    "text", ["엄마랑 왔는데 또 올게요", "와이프랑 또 올게요", "가족들이랑 먹었는데 맛있어요"]
)
def test_a_company_of_this_visit_stays(text: str) -> None:
    assert "가족" in read(text).occasion, (text, read(text).occasion)


@pytest.mark.parametrize(
    "text",
    [
        "선물용으로 샀는데 이쁘게 포장해주셨어요",
        "케이크 비쥬얼이 진짜 예뻐요",
    ],
)
def test_pretty_said_of_the_wrapping_or_the_looks_is_no_pretty_room(text: str) -> None:
    assert "감성적인" not in read(text).atmosphere, (text, read(text).atmosphere)


def test_a_luxurious_box_is_no_luxurious_room() -> None:
    text = "선물 상자가 고급스러워서 명절 선물로 좋아요"
    assert "고급스러운" not in read(text).atmosphere, (text, read(text).atmosphere)


@pytest.mark.parametrize("text", ["인테리어가 너무 예뻐요", "매장이 고급스럽고 예뻐요"])
def test_a_pretty_or_luxurious_room_stays(text: str) -> None:
    e = read(text)
    assert "감성적인" in e.atmosphere, (text, e.atmosphere)


@pytest.mark.parametrize(
    "text",
    [
        "메뉴가 많아서 선택의 폭이 넓어요",
        "고기를 얇게 넓혀서 튀긴 돈까스예요",
        "넓은 접시에 담아 나와요",
    ],
)
def test_wide_said_of_a_choice_or_a_dish_is_no_large_room(text: str) -> None:
    assert "넓은" not in read(text).atmosphere, (text, read(text).atmosphere)


@pytest.mark.parametrize("text", ["매장을 넓혀서 자리가 여유로워졌어요", "홀이 넓어서 좋아요"])
def test_a_wide_room_stays(text: str) -> None:
    assert "넓은" in read(text).atmosphere, (text, read(text).atmosphere)


@pytest.mark.parametrize("text", ["나혼자산다에 나왔던 곱창집이라 가봤어요", "나 혼자 산다 보고 찾아왔어요"])
def test_the_name_of_a_tv_show_is_no_meal_alone(text: str) -> None:
    assert "혼밥" not in read(text).occasion, (text, read(text).occasion)


def test_a_meal_alone_stays() -> None:
    assert "혼밥" in read("혼자 가서 먹기 좋아요").occasion


@pytest.mark.parametrize(
    "text",
    [
        "팀 사람들한테 여기 가지 말라고 했어요",
        "부모님께도 추천드렸어요",
        "남자친구에게도 소개해줬어요",
    ],
)
def test_a_company_told_or_advised_is_no_visit_with_them(text: str) -> None:
    got = read(text).occasion
    assert not set(got) & set(COMPANY), (text, got)


@pytest.mark.parametrize("text", ["팀 사람들이랑 회식했어요", "엄마랑 같이 와서 맛있게 먹었어요"])
def test_a_company_at_the_table_stays(text: str) -> None:
    assert set(read(text).occasion) & set(COMPANY), (text, read(text).occasion)


@pytest.mark.parametrize(
    "text",
    ["시끄러운 손님 많을 때 오면 분위기가 깨져요", "애들이 좀 시끄러울 것 같아서 구석자리 달라고 했어요"],
)
def test_noise_in_a_condition_or_a_guess_is_no_lively_room(text: str) -> None:
    assert "시끌벅적한" not in read(text).atmosphere, (text, read(text).atmosphere)


@pytest.mark.parametrize("text", ["매장이 너무 시끄러워요", "저녁엔 시끄러울 때가 많아요"])
def test_noise_told_stays(text: str) -> None:
    assert "시끌벅적한" in read(text).atmosphere, (text, read(text).atmosphere)


@pytest.mark.parametrize(
    "text",
    [
        "여기는 느끼하지 않고 깔끔해서 바닥까지 긁어먹었어요",
        "여기 곱창은 누린내 없이 깔끔해서 바닥까지 먹었네요",
    ],
)
def test_clean_said_right_after_a_taste_is_no_clean_room(text: str) -> None:
    assert "깔끔한" not in read(text).atmosphere, (text, read(text).atmosphere)


@pytest.mark.parametrize(
    "text", ["튀김이 빨리 나오고 깔끔하고 바삭해요", "주문하면 깔끔하고 바로 나와서 좋아요"]
)
def test_the_first_syllable_of_a_word_names_no_bar(text: str) -> None:
    assert "깔끔한" not in read(text).atmosphere, (text, read(text).atmosphere)


@pytest.mark.parametrize(
    "text", ["냄새 안나고 깨끗한 매장이에요", "매장이 넓고 깔끔해요", "깔끔한 바에서 한잔했어요"]
)
def test_a_clean_room_stays(text: str) -> None:
    assert "깔끔한" in read(text).atmosphere, (text, read(text).atmosphere)


@pytest.mark.parametrize(
    "text",
    ["몇년 전에는 분위기도 좋았는데 요즘은 영 별로예요", "예전엔 조용했는데 요즘은 손님이 많아요"],
)
def test_a_mood_told_of_the_past_is_no_mood_now(text: str) -> None:
    e = read(text)
    assert not {"분위기 좋은", "조용한"} & set(e.atmosphere), (text, e.atmosphere)


def test_a_mood_told_after_an_earlier_visit_stays() -> None:
    text = "예전에 와보고 오랜만에 다시 왔는데 분위기 좋아요"
    assert "분위기 좋은" in read(text).atmosphere, (text, read(text).atmosphere)
