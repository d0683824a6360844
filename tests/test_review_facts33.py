"""Issue 24 class 7, session 11 (rev33): the atmosphere false positives and misses of the real-review sets (review_test17
and the older ones), written out as classes of phrasing. None of these sentences is in a labelled set; the expected
values are read off the sentences by the conventions of review_set.md (an atmosphere is the place's, convention 1).
Each class has controls the reader must keep."""

from __future__ import annotations

import pytest

from support.reviews import read


@pytest.mark.parametrize(
    "text",
    [
        # a person: honorific, or a person's noun right before
        "주문 받아주신 언니가 너무 예쁘세요 친절하시고요",
        "사장님 따님이 이쁘시고 싹싹하셔서 기분 좋게 먹었어요",
        "카운터 보시는 분이 넘 예쁘고 상냥했어요",
        "매니저님이 이쁘게 웃으면서 맞아주셔서 좋았어요",
        # an animal
        "가게 앞에 고양이가 너무 예쁘고 순해요",
        "사장님네 댕댕이가 진짜 이뻐서 한참 놀다 왔어요",
        # the table setting or the plating: the food (convention 1)
        "접시마다 예쁘게 플레이팅해서 내주셔서 대접받는 느낌",
        "한 상 가득 이쁘게 세팅해 주셨어요",
    ],
)
def test_pretty_said_of_a_person_an_animal_or_the_plating_is_no_pretty_room(text: str) -> None:
    assert "감성적인" not in read(text).atmosphere, (text, read(text).atmosphere)


@pytest.mark.parametrize(
    "text",
    [
        "매장이 너무 예뻐서 사진 엄청 찍었어요",
        "소품 하나하나 예쁘고 사진 찍기 좋아요",
    ],
)
def test_a_pretty_room_stays(text: str) -> None:
    assert "감성적인" in read(text).atmosphere, (text, read(text).atmosphere)


@pytest.mark.parametrize(
    ("text", "absent", "present"),
    [
        # ☆ is an empty star where ★ fills the others: a low mark is no clean place
        ("맛★★★★★청결도☆☆☆☆☆가격★★★★ 가성비 좋고 맛있어요", "깔끔한", ""),
        ("서비스★★★★☆ 청결 ★☆☆☆☆ 또 올게요", "깔끔한", ""),
        # a high mark of the mood is a good mood
        ("맛:★★★★★ 분위기:★★★★ 가격:★★★", "", "분위기 좋은"),
        ("음식, 분위기 전부 5점 주고 싶은 곳", "", "분위기 좋은"),
    ],
)
def test_a_mark_in_a_star_template_is_read_by_its_stars(text: str, absent: str, present: str) -> None:
    got = read(text).atmosphere
    if absent:
        assert absent not in got, (text, got)
    if present:
        assert present in got, (text, got)


def test_a_full_mark_of_cleanliness_stays_a_clean_place() -> None:
    assert "깔끔한" in read("청결 ★★★★★ 맛 ★★★★ 너무 만족").atmosphere


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # the mood in a list the place is a 맛집 of
        ("여기는 분위기도 음식도 맛집이네요", "분위기 좋은"),
        # the room's layout, concept or mood called unusual
        ("가게 구조가 특이해서 들어가자마자 신기했어요", "색다른"),
        ("인테리어가 정말 색다르고 멋져요", "색다른"),
        # the outside seen through the window praised
        ("비 오는 날 창밖이 너무 예뻐서 오래 앉아 있었어요", "뷰 좋은"),
        # a traditional place
        ("동네에서 유명한 전통의 칼국수집이에요", "노포"),
        # the crowd in another word (as 북적북적)
        ("저녁 시간엔 손님이 바글바글해요", "시끌벅적한"),
        # the interior misspelt, a clean 장소
        ("인테리아가 깔끔하고 예뻐요", "깔끔한"),
        ("깔끔하고 넓은 장소라 모임하기 좋아요", "깔끔한"),
        # a calm mood or meal said with 차분, the good word in speech spelling
        ("매장 분위기가 차분해서 좋았어요", "조용한"),
        ("주말인데도 차분히 식사할 수 있었어요", "조용한"),
        ("분위기가 조아염 또 올게요", "분위기 좋은"),
        # the mood said stylish, the daylight of the room, a country's place named between
        ("분위기도 느낌 있고 음식도 괜찮아요", "분위기 좋은"),
        ("채광이 정말 좋아서 낮에 가면 최고예요", "분위기 좋은"),
        ("홍콩 뒷골목 식당에 온 기분이에요", "이국적인"),
        # the place recommended for a mood the guest likes
        ("옛날 분위기 나는 오래된 가게가 취향이라면 여기만한 곳이 없어요", "노포"),
        ("조용한 곳 찾으시면 여기 추천드려요", "조용한"),
    ],
)
def test_the_room_in_other_words(text: str, value: str) -> None:
    assert value in read(text).atmosphere, (text, read(text).atmosphere)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # the old-timer's feel is 노포, not a pretty room
        ("노포 감성 제대로인 국밥집", "감성적인"),
        # a crowd only foreseen
        ("아직 잘 안 알려졌는데 곧 바글바글 할 것 같아요", "시끌벅적한"),
        # a mood word of a person or of the stomach
        ("사장님이 원래 조용하신 분이라 말은 별로 없으세요", "조용한"),
        ("다 먹고 나니 속이 편안해지는 국물", "편안한"),
        ("알바생들분위기도 좋아 보이고 손발이 잘 맞아요", "분위기 좋은"),
        # the parking, not the room
        ("넓은 주차장이 있어서 차 가져가기 편해요", "넓은"),
        # tidy side dishes after praise and their style: the food (convention 1)
        ("정갈하고 푸짐한 가정식 반찬이 계속 나와요", "정갈한"),
        # a person from a country, a country's taste
        ("일본에서 온 친구랑 같이 갔어요", "이국적인"),
        ("태국 시골 식당에 온 것 같은 맛이에요", "이국적인"),
        # the staff's calm manner
        ("사장님이 차분하게 설명해 주셨어요", "조용한"),
        # a dish's concept is no unusual room; a traditional taste is no old place
        ("메뉴 컨셉이 좀 독특해요", "색다른"),
        ("전통의 맛을 지키는 곳", "노포"),
        # a place only told as long in business (review_test16 sb0061 leaves it none)
        ("오랫동안 영업한 가게라 믿고 왔어요", "노포"),
        # another mood word names the room: not a good mood as such
        ("색다른 분위기에서 식사하고 싶으면 추천", "분위기 좋은"),
    ],
)
def test_no_such_room(text: str, value: str) -> None:
    assert value not in read(text).atmosphere, (text, read(text).atmosphere)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("매장이 조용하고 편안해요", "조용한"),
        ("매장이 조용하고 편안해요", "편안한"),
        ("가족외식 하기 좋은게 자리도 넓고 주차장도 있어요", "넓은"),
        ("분위기가 좋으면 좋겠는데 좀 어수선해요", "시끌벅적한"),
    ],
)
def test_controls_keep_the_room(text: str, value: str) -> None:
    assert value in read(text).atmosphere, (text, read(text).atmosphere)


def test_a_wish_for_a_mood_stays_no_mood() -> None:
    assert "분위기 좋은" not in read("분위기가 좀 더 좋으면 좋겠어요").atmosphere


@pytest.mark.parametrize(
    "text",
    [
        # a fact passed over for another way or advised against: the place has it
        "배달보다는 가게에서 바로 먹는 게 훨씬 맛있어요",
        "포장은 비추해요 식으면 눅눅해져요",
    ],
)
def test_a_fact_compared_or_advised_against_is_still_there(text: str) -> None:
    got = read(text).convenience
    assert ("배달" in got) or ("포장" in got), (text, got)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # a closing hour of midnight is no 24-hour opening
        ("평일은 22시, 주말은 24시까지 한대요", "24시"),
        # a delivery or a takeaway only intended, at the sentence's end (convention 6)
        ("다음부턴 그냥 배달로 시켜 먹으려고요", "배달"),
        ("담엔 포장해서 집에서 먹을게요", "포장"),
    ],
)
def test_no_such_fact(text: str, value: str) -> None:
    assert value not in read(text).convenience, (text, read(text).convenience)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("24시간 영업이라 새벽에도 가요", "24시"),
        ("포장해서 먹으려고 들렀어요", "포장"),
        ("포장 안 된대요", ""),
    ],
)
def test_convenience_controls(text: str, value: str) -> None:
    got = read(text).convenience
    if value:
        assert value in got, (text, got)
    else:
        assert "포장" not in got, (text, got)
