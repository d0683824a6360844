"""Issue 24 class 7, session 12 (rev35): the atmosphere false positives and misses of review_test18 (and test17) written
out as general classes — what a mood word is about (the room, not the table, the bill or the car park), the view and the
quiet told by their own words, the noise told by the talk it drowns, praise words of the weak "분위기". None of these
sentences is in a labelled set; the expected values are read off the sentences by the conventions of review_set.md (an
atmosphere is the place's, convention 1; noise from any source, convention 4). Each class has controls the reader must keep."""

from __future__ import annotations

import pytest

from support.reviews import read


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # the bill
        ("가격대도 참 예쁘고 양도 많아요", "감성적인"),
        ("값도 너무 이뻐서 또 왔어요", "감성적인"),
        # a drink or a glass
        ("칵테일 잔이 너무 예뻐서 사진 찍었어요", "감성적인"),
        ("하이볼 잔도 고급스럽고 맛도 좋네요", "고급스러운"),
        ("고급스러운 유리잔에 맥주를 따라 주셔요", "고급스러운"),
        # the tableware
        ("그릇이 아기자기하고 귀여워요 맛도 굿", "아기자기한"),
        ("식기까지 깔끔하고 반찬도 맛있어요", "깔끔한"),
        # the greens
        ("채소가 깨끗하고 싱싱해서 쌈 싸먹기 좋아요", "깔끔한"),
        # the car park
        ("주차장도 쾌적하고 넓어서 편했어요", "쾌적한"),
        ("깔끔한 주차장이 있어서 차 가져가기 좋아요", "깔끔한"),
    ],
)
def test_a_mood_said_of_the_table_the_bill_or_the_car_park_is_no_mood_of_the_room(
    text: str, value: str
) -> None:
    assert value not in read(text).atmosphere, (text, read(text).atmosphere)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # the room named first keeps its mood
        ("매장이 정말 예쁘고 가격도 착해요", "감성적인"),
        ("가게도 깔끔하고 그릇도 예뻐요", "깔끔한"),
        # a bare noun in a list is no subject of the mood
        ("음식 술 분위기 최고인 집", "분위기 좋은"),
        # a new clause after the mood: the price is judged apart
        ("실내가 쾌적하고 가격대비 양도 많아요", "쾌적한"),
        ("인테리어가 고급스럽고 가격은 적당해요", "고급스러운"),
    ],
)
def test_the_room_named_or_a_new_clause_keeps_the_mood(text: str, value: str) -> None:
    assert value in read(text).atmosphere, (text, read(text).atmosphere)


@pytest.mark.parametrize(
    "text",
    [
        "한강 야경이 진짜 끝내줘요 창가 자리 추천",
        "산 전망이 너무 멋있어서 밥맛이 두배",
        "테라스에서 풍경 감상하면서 먹으니 힐링",
        "2층 창가라 경치가 정말 아름다워요",
    ],
)
def test_the_view_praised_or_enjoyed_by_its_own_nouns(text: str) -> None:
    assert "뷰 좋은" in read(text).atmosphere, (text, read(text).atmosphere)


@pytest.mark.parametrize(
    "text",
    [
        "리뷰가 멋져서 와봤는데 그냥 그래요",
        "뷰는 별로고 음식은 괜찮아요",
    ],
)
def test_no_view_from_a_review_or_a_view_panned(text: str) -> None:
    assert "뷰 좋은" not in read(text).atmosphere, (text, read(text).atmosphere)


@pytest.mark.parametrize(
    "text",
    [
        "조용히 둘이서 담소 나누기에 딱이에요",
        "조용히 천천히 한잔 하기 좋은 바",
    ],
)
def test_quiet_told_as_what_the_place_lets_one_do_words_apart(text: str) -> None:
    assert "조용한" in read(text).atmosphere, (text, read(text).atmosphere)


def test_quiet_only_as_the_manner_of_a_meal_is_no_quiet_room() -> None:
    assert "조용한" not in read("조용히 먹고 빨리 나왔어요").atmosphere


@pytest.mark.parametrize(
    "text",
    [
        # voices mixing
        "옆 테이블 목소리랑 다 섞여서 정신이 하나도 없어요",
        # the talk made impossible, after a bare -어
        "음악이 엄청 시끄러워 친구랑 얘기는 거의 못 했어요",
        "홀이 너무 시끄러워 제대로 된 대화는 불가해요",
        # the head it turns
        "주말엔 애들 소리로 시끄러워 정신이 없는 식당",
    ],
)
def test_noise_told_by_the_talk_it_drowns(text: str) -> None:
    got = read(text).atmosphere
    assert "시끌벅적한" in got and "조용한" not in got, (text, got)


def test_the_owner_hard_to_talk_to_is_no_noise() -> None:
    assert "시끌벅적한" not in read("사장님이랑 소통 불가능해서 답답했어요").atmosphere


@pytest.mark.parametrize(
    "text",
    [
        "분위기 완전 끝장이에요 또 갈래요",
        "분위기도 서비스도 최고예요",
        "분위기도 플레이팅도 어마어마해요",
    ],
)
def test_praise_words_of_the_weak_mood_word(text: str) -> None:
    assert "분위기 좋은" in read(text).atmosphere, (text, read(text).atmosphere)


@pytest.mark.parametrize(
    "text",
    [
        "호텔 레스토랑에 온 느낌이에요",
        "파인다이닝 온 것 같은 기분이었어요",
    ],
)
def test_a_fine_dining_likeness_is_a_fancy_room(text: str) -> None:
    assert "고급스러운" in read(text).atmosphere, (text, read(text).atmosphere)


@pytest.mark.parametrize(
    "text",
    [
        "인테리어가 진짜 근사하고 음식도 맛있어요",
        "실내도 너무 멋있어서 사진 많이 남겼어요",
        "리모델링 후 인테리어 완전 멋짐",
    ],
)
def test_a_handsome_interior_is_a_good_mood_not_a_pretty_one(text: str) -> None:
    got = read(text).atmosphere
    assert "분위기 좋은" in got and "감성적인" not in got, (text, got)


def test_a_pretty_interior_stays_pretty() -> None:
    assert "감성적인" in read("인테리어가 너무 예쁘고 아기자기해요").atmosphere


@pytest.mark.parametrize(
    "text",
    [
        "얼마 전에 리모델링해서 깔끔하고 좋아요",
        "새로 생겨서 그런지 깔끔하네요",
    ],
)
def test_a_clean_place_told_new_is_a_clean_room(text: str) -> None:
    assert "깔끔한" in read(text).atmosphere, (text, read(text).atmosphere)


def test_a_new_dish_called_clean_is_no_clean_room() -> None:
    assert "깔끔한" not in read("새로 나온 메뉴가 깔끔하고 맛있어요").atmosphere
