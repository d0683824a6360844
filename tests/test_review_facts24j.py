"""Issue 24 class 7, session 6 round B (rev24j): review_test11's misses written out as classes of phrasing a
local writes. None of these sentences is in a labelled set; the expected values are read off the sentences by
the labelling rules and the session-6 conventions (``review_set.md``), not produced by the code."""

from __future__ import annotations

import pytest

from support.reviews import read


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("넓긴 한데 창이 크지 않아서 답답해요", "atmosphere", "넓은"),
        ("조용하긴 한데 음식이 맛이 없어요", "atmosphere", "조용한"),
        ("매장이 깔끔하긴 했는데 주차가 안 돼요", "atmosphere", "깔끔한"),
        ("포장하긴 했는데 다시 시키진 않을 거예요", "convenience", "포장"),
    ],
)
def test_a_concession_keeps_the_value(text: str, field: str, value: str) -> None:
    """ "-긴 한데 / -긴 했는데": the value holds, what follows is another matter."""
    assert value in getattr(read(text), field), (text, getattr(read(text), field))


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("배달음식에 젓가락이 안 들어있었어요", "배달"),
        ("포장용기에 뚜껑이 없어서 다 흘렸어요", "포장"),
        ("룸에는 창문이 없어서 좀 답답했어요", "룸"),
        ("창가자리는 콘센트도 없어요", "창가석"),
    ],
)
def test_something_else_missing_from_a_fact_keeps_the_fact(text: str, value: str) -> None:
    """ "X에 Y가 없어요": Y was missing, X was there (convention 6: one first-hand mention holds a fact)."""
    assert value in read(text).convenience, (text, read(text).convenience)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("고기를 제대로 안 구워줘서 다 탔어요", "구워줌"),
        ("포장을 제대로 안 해주셔서 국물이 다 샜어요", "포장"),
        ("직원분이 제대로 구워주지도 않고 가버렸어요", "구워줌"),
    ],
)
def test_a_service_done_badly_was_there(text: str, value: str) -> None:
    assert value in read(text).convenience, (text, read(text).convenience)


def test_the_next_rooms_noise_through_the_wall_is_no_lively_room() -> None:
    """Convention 4 counts the dining room's noise; a private room's walls letting the next room through are
    not quiet, but no lively room."""
    e = read("룸 방음이 안 돼서 옆방 소리가 다 들려요")
    assert "시끌벅적한" not in e.atmosphere and "조용한" not in e.atmosphere, e.atmosphere


def test_a_proper_one_missing_is_still_missing() -> None:
    assert "룸" not in read("제대로 된 룸은 없어요").convenience


@pytest.mark.parametrize(
    "text",
    [
        "소음 때문에 집중이 안 됐어요",
        "옆 테이블 떠드는 소리 탓에 책을 못 읽었어요",
        "시끄러운 손님들 때문에 얘기를 못 했어요",
        "방음이 전혀 안 되는 가게예요",
        "룸인데 방음이 별로예요",
    ],
)
def test_a_noise_and_its_consequence(text: str) -> None:
    """Convention 4: noise from anyone counts; its consequence's 안/못 negates nothing of it."""
    e = read(text)
    assert "시끌벅적한" in e.atmosphere and "조용한" not in e.atmosphere, (text, e.atmosphere)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("가족들이랑 외식하면 항상 여기로 와요", "가족"),
        ("회식 때 방문하면 늘 룸으로 잡아줘요", "회식"),
        ("지인들 초대해서 식사하기 좋아요", "모임"),
        ("친구들 초대하기 좋은 집이에요", "모임"),
        ("남편 생신이라 다녀왔어요", "기념일"),
        ("아버지 칠순 식사 자리로 좋았어요", "기념일"),
        ("생일날 케이크 서비스까지 주셨어요", "기념일"),
        ("속이 확 풀리는 국물이에요", "해장"),
        ("전날 과음하고 속 풀러 왔어요", "해장"),
        ("5살 아들이 돈까스를 싹 비웠어요", "아이와"),
        ("18개월 아기가 얌전히 있었어요", "아이와"),
        ("세 살 딸이 국수를 좋아해요", "아이와"),
    ],
)
def test_occasions_in_other_words(text: str, value: str) -> None:
    """A habit ("오면 항상"), friends invited, a birthday or jubilee, a settled stomach, a child by age."""
    assert value in read(text).occasion, (text, read(text).occasion)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("소품들이 귀엽고 사진 찍기 좋아요", "아기자기한"),
        ("가게가 귀여워서 또 오고 싶어요", "아기자기한"),
        ("공간이 독특해서 구경하는 재미가 있어요", "색다른"),
        ("인테리어가 특이하고 예뻐요", "색다른"),
        ("분위기가 산뜻해서 기분 좋았어요", "분위기 좋은"),
        ("갬성 가득한 카페예요", "감성적인"),
    ],
)
def test_moods_of_the_room_in_other_words(text: str, value: str) -> None:
    assert value in read(text).atmosphere, (text, read(text).atmosphere)


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("사장님 손님 접대가 정말 친절해요", "occasion", "접대"),
        ("직원분들이 차분하게 설명해주셨어요", "atmosphere", "조용한"),
        ("사장님이 차분하시고 친절해요", "atmosphere", "조용한"),
        ("처음 먹어봤을 때 되게 이색적이었어요", "atmosphere", "색다른"),
        ("가격 대비 정말 고급져요", "atmosphere", "고급스러운"),
        ("나 혼자만 알고 싶은 빵집", "occasion", "혼밥"),
        ("혼자서 4인석 차지하고 노트북 하는 사람들 때문에 자리가 없어요", "occasion", "혼밥"),
        ("커플 pc석이 따로 있어요", "occasion", "데이트"),
    ],
)
def test_not_the_guests_occasion_nor_the_rooms_mood(text: str, field: str, value: str) -> None:
    """The staff's manner, a dish, a price, a place kept to oneself, other guests alone, a couple's PC seat."""
    assert value not in getattr(read(text), field), (text, getattr(read(text), field))


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("썸녀랑 처음 간 곳인데 좋았어요", "occasion", "데이트"),
        ("동호회 회원들이랑 다녀왔어요", "occasion", "모임"),
        ("애들이 놀기 좋은 마당이 있어요", "occasion", "아이와"),
        ("맥주 안주로 딱이에요", "occasion", "술자리"),
        ("전날 과음하고 들렀는데 살았어요", "occasion", "해장"),
        ("3대째 하는 냉면집이에요", "atmosphere", "노포"),
        ("남산뷰가 끝내줘요", "atmosphere", "뷰 좋은"),
        ("포토존이 있어서 좋아요", "atmosphere", "감성적인"),
    ],
)
def test_more_of_the_same_classes_in_other_words(text: str, field: str, value: str) -> None:
    """A date in the making, a club, children at play, a drink's side, the morning after, a family's third
    generation, a view named by what one sees, a photo spot."""
    assert value in getattr(read(text), field), (text, getattr(read(text), field))


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("2차로 가기 좋은 곳이나 안주는 아쉬워요", "occasion", "술자리"),
        ("혼밥하기 좋은 식당이나 반찬은 별로예요", "occasion", "혼밥"),
        ("아늑한 공간이나 의자는 불편해요", "atmosphere", "아늑한"),
    ],
)
def test_a_judged_phrase_then_but_another_topic(text: str, field: str, value: str) -> None:
    """ "좋은 곳이나 | 안주는 아쉬워요": 이나 is "but" here, the complaint is another topic's."""
    assert value in getattr(read(text), field), (text, getattr(read(text), field))
