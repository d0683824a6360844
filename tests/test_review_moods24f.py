"""Issue 24, class 7 (round five): moods and occasions as real reviewers tell them, and the uses of a mood or
occasion word that say nothing about the place. One test per class (each fails on the reader before it). The
texts are written for these tests in the manner of Kakao Map reviews (in no evaluation set); the expected
values are read off each text by hand, by the labelling rules of the real-review sets (review_test7_README.md):
an occasion is told by the visit (its clock time, who sat at the table, what was drunk), a mood by what is said
of the room, and a time when it is quiet, another table's work dinner, the evening staff or a taste is none."""

from __future__ import annotations

import pytest

from support.reviews import read


@pytest.mark.parametrize(
    ("text", "occasion"),
    [
        ("12시 반쯤 갔는데 벌써 자리가 꽉 찼어요", "점심"),
        ("1시 넘어서 방문했더니 한산했습니다", "점심"),
        ("7시에 도착했더니 웨이팅이 30분이었어요", "저녁"),
        ("18:40에 들어갔는데 고기가 다 떨어졌대요", "저녁"),
        ("토요일 저녁 8시 예약하고 갔습니다 친절했어요", "저녁"),
    ],
)
def test_the_clock_time_of_a_visit_is_lunch_or_dinner(text: str, occasion: str) -> None:
    # session-6 convention 5: the clock time of a visit is no occasion (the name kept for the history)
    assert occasion not in read(text).occasion, text


@pytest.mark.parametrize(
    "text",
    [
        "새벽 1시에 갔는데 문 열려 있어서 좋았어요",  # a night hour, not lunch
        "저녁 7시경 전화드렸더니 예약이 다 찼대요",  # a phone call, no visit
        "1시에 예약 전화 드리면 된대요",
        "7시에 가서 또 먹고 싶네요",  # a wish
    ],
)
def test_a_clock_time_that_tells_no_meal_visit_is_no_occasion(text: str) -> None:
    e = read(text)
    assert not {"점심", "저녁"} & set(e.occasion), (text, e.occasion)


@pytest.mark.parametrize(
    ("text", "occasion", "expected"),
    [
        ("막걸리 세 병을 비울 줄은 몰랐네요 안주가 너무 맛있어서", "술자리", True),  # a surprise, it happened
        ("친구랑 둘이서 소주 4병 먹고 나왔어요", "술자리", True),
        ("7명이서 갔는데 안쪽 큰 테이블로 안내해주셨어요", "단체", True),
        ("대기 8명이라 한참 기다렸어요", "단체", False),  # the queue, not the party
        ("3명이서 갔어요 맛있어요", "단체", False),
    ],
)
def test_drinks_by_the_bottle_and_a_party_of_six_or_more_are_occasions(
    text: str, occasion: str, expected: bool
) -> None:
    assert (occasion in read(text).occasion) is expected, text


def test_a_child_eating_at_the_guests_table_is_family_and_with_a_child() -> None:
    # session-6 convention 2: a child is 아이와; 가족 only with a family word
    e = read("돌 지난 조카 데려갔는데 아기도 잘 먹어서 다행이었어요")
    assert "아이와" in e.occasion and "가족" not in e.occasion, e.occasion


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("매장이 시원해서 여름에 가기 좋아요", True),
        ("고기 굽는데도 연기 안 나서 옷에 냄새가 안 배요", True),
        ("국물이 시원해서 해장으로 딱이에요", False),  # the soup
    ],
)
def test_a_cool_airy_room_is_pleasant_and_a_cool_soup_is_not(text: str, expected: bool) -> None:
    assert ("쾌적한" in read(text).atmosphere) is expected, text


def test_a_stuffy_smoky_room_speaks_against_pleasant() -> None:
    e = read("환기가 안 돼서 연기가 자욱해요", "넓고 쾌적해요")  # one for, one against
    assert "쾌적한" not in e.atmosphere
    assert any(ev.value == "쾌적한" for ev in e.against)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("인테리어가 정말 좋아요 커피도 맛있고", True),
        ("Good decor and friendly staff", True),
        ("분위기, 서비스 다 만족스러웠어요", True),  # a list judged as a whole
        ("가게 분위기가 독특하고 멋있어요", True),  # a bare predicate coordinated after the clause
        ("인테리어만 좋고 음식은 그냥 그래요", False),  # only the interior
        ("모던한 공간과 인테리어는 좋네요", False),  # the room named by another mood is that mood
        ("밝은 분위기에서 편하게 식사했어요", True),  # a plain good word before the mood
        ("따뜻한 분위기의 작은 가게", False),  # a mood word before it names that mood (아늑한)
    ],
)
def test_the_room_judged_good_is_a_good_mood(text: str, expected: bool) -> None:
    assert ("분위기 좋은" in read(text).atmosphere) is expected, text


def test_a_mood_no_other_place_comes_near_is_no_complaint() -> None:
    # "범접불가": none is as good; the second mention does not speak against the first
    e = read("분위기 최고예요 이런 분위기는 다른 가게가 범접불가")
    assert "분위기 좋은" in e.atmosphere, e.atmosphere


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("맛있고 깔끔해요", False),  # a bare 깔끔 beside the taste is the food
        ("깔끔하고 저렴하고 양도 많아요", False),
        ("매장이 깔끔하고 저렴해요", True),  # the place named
        ("맛있고 깨끗해요", True),  # 깨끗 is the room
        ("위생적이고 맛에 깊이가 있어요", True),
    ],
)
def test_clean_is_the_place_only_when_the_text_says_so(text: str, expected: bool) -> None:
    assert ("깔끔한" in read(text).atmosphere) is expected, text


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("회식하는 직장인들이 많아서 좀 시끄러웠어요", "occasion", "회식"),  # another table's dinner
        ("점심에 일하시는 이모님이 엄청 친절하세요", "occasion", "점심"),  # the lunch staff
        ("혼자 갔더니 2인 이상만 주문 된다고 하네요", "occasion", "혼밥"),  # turned away
        (
            "한적할 때 가면 만족도까지 높아서 또 가고 싶은 곳",
            "atmosphere",
            "조용한",
        ),  # a time when it is quiet
    ],
)
def test_a_mood_or_occasion_word_that_says_nothing_of_the_place_or_visit_is_no_value(
    text: str, field: str, value: str
) -> None:
    assert value not in read(text).values(field), text  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("자리는 대부분 카운터석이라 혼자 가기 편해요", "convenience", "혼밥석"),
        ("알바생 굽는 솜씨 때문에 고기가 좀 탔어요", "convenience", "구워줌"),  # grilled for the guest, badly
        ("조용히 얘기 나누기 좋은 카페예요", "atmosphere", "조용한"),
        ("주말이라 그런지 너무 정신없고 직원 부르기도 힘들었어요", "atmosphere", "시끌벅적한"),
    ],
)
def test_facts_and_moods_in_the_words_reviewers_use(text: str, field: str, value: str) -> None:
    assert value in read(text).values(field), text  # type: ignore[arg-type]


def test_unkind_staff_do_not_turn_a_refused_booking_into_a_booking() -> None:
    # "예약 안 된다고 하는 불친절함": the booking is refused; the unkindness is the manner, not a second negation
    assert "예약" not in read("예약 안된다고 하는 불친절함은 처음 보네요").convenience
