"""Issue 24 class 7, session 8 (rev30): the occasion misses of review_test16 and review_test15 (development sets since
their first run), written out as classes of phrasing. None of these sentences is in a labelled set; the expected values
are read off the sentences by the conventions of review_set.md (drinks at the table and 안주 are 술자리, convention 7;
other guests' occasions are not the reviewer's; friends in the plural said to fit are 모임, convention 8); each class has
controls the reader must keep."""

from __future__ import annotations

import pytest

from support.reviews import read


@pytest.mark.parametrize(
    "text",
    [
        # the drinks' range praised
        "전통주 종류가 정말 다양해서 골라 마시는 재미가 있어요",
        "사케도 종류도 꽤 많아서 좋았습니다",
        # a drink praised
        "생맥주가 진짜 맛있고 안주도 괜찮아요",
        "같이 시킨 하이볼도 정말 맛있었어요",
        "사장님이 골라주신 화이트 와인 👍",
        # a drink paired with the food
        "곱창이 소주랑 너무 잘 어울려요",
        "참이슬과 찰떡궁합인 국물",
        # a drink before its dish, a glass with the company, food-and-beer done
        "막걸리에 파전 최고의 조합이었습니다",
        "퇴근하고 동료랑 가볍게 한 잔 했어요",
        "비 오는 날 치맥하러 들렀어요",
        # the side dishes of drinking named
        "기본 안주로 나오는 번데기가 맛있어요",
        "안주로 계란말이를 시켰는데 양이 많아요",
    ],
)
def test_drinks_at_the_table_and_their_side_dishes_are_a_drinking_session(text: str) -> None:
    assert "술자리" in read(text).occasion, (text, read(text).occasion)


@pytest.mark.parametrize(
    "text",
    [
        "커피도 너무 맛있고 디저트도 좋아요",
        "요리 기술 종류가 다양한 셰프님",
        "맥주 안 파는 건 아쉬워요",
    ],
)
def test_no_drink_at_the_table_is_no_drinking_session(text: str) -> None:
    assert "술자리" not in read(text).occasion, (text, read(text).occasion)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("퇴근길에 들렀는데 혼자 반주하시는 분들이 꽤 많더라고요", "술자리"),
        ("점심인데도 반주로 드시는 분들도 많네요", "술자리"),
        ("데이트하시는 커플들도 꽤 있었어요 메뉴는 평범", "데이트"),
    ],
)
def test_what_other_guests_are_seen_doing_is_not_the_reviewers_occasion(text: str, value: str) -> None:
    assert value not in read(text).occasion, (text, read(text).occasion)


@pytest.mark.parametrize(
    "text",
    [
        "주말 단체손님 예약 되어있다고 하셔서 서둘러 먹었어요",
        "단체 예약도 받으시는 것 같았어요",
        "갑자기 8명 단체로 들어와서 시끄러워졌어요",
    ],
)
def test_other_guests_parties_and_the_places_bookings_are_no_party_of_the_reviewer(text: str) -> None:
    assert "단체" not in read(text).occasion, (text, read(text).occasion)


def test_a_party_of_the_reviewers_own_stays() -> None:
    assert "단체" in read("회사 사람들이랑 단체로 가서 먹었어요").occasion


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("아는 동생이랑 둘이 가서 먹었어요", "가족"),
        ("회사 동생하고 점심 먹으러 왔어요", "가족"),
        ("옥천할머니의 손칼국수가 대표 메뉴예요", "가족"),
        ("어린이대공원 근처라 산책하고 들르기 좋아요", "아이와"),
        ("모둠초밥,어린이우동,튀김 이렇게 포장했어요", "아이와"),
        ("남자친구 생기면 같이 오고 싶은 곳이에요", "데이트"),
    ],
)
def test_a_company_word_that_names_no_company_of_the_visit(text: str, value: str) -> None:
    assert value not in read(text).occasion, (text, read(text).occasion)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("여동생이랑 같이 가서 먹었어요", "가족"),
        ("아버지와 함께 갔는데 좋아하셨어요", "가족"),
        ("남자친구랑 저녁 먹으러 왔어요", "데이트"),
    ],
)
def test_the_reviewers_own_company_stays(text: str, value: str) -> None:
    assert value in read(text).occasion, (text, read(text).occasion)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("애기들이랑 같이 와서 먹었어요", "아이와"),
        ("아이가 이 집 돈가스를 제일 좋아해요", "아이와"),
        ("아기도 죽을 아주 맛있게 먹었어요", "아이와"),
        ("와잎이랑 주말 점심 먹고 왔어요", "가족"),
        ("마눌님이 좋아해서 자주 와요", "가족"),
    ],
)
def test_a_child_or_a_spouse_in_other_words_is_the_reviewers_company(text: str, value: str) -> None:
    assert value in read(text).occasion, (text, read(text).occasion)


@pytest.mark.parametrize(
    "text",
    [
        "회사 지인들과 함께 다녀왔어요",
        "지인들도 같이 왔는데 다들 만족했어요",
        "친구들이랑 와도 부담 없는 가격이에요",
        "친구들하고 오랜만에 신나게 놀다 갑니다",
    ],
)
def test_acquaintances_along_and_friends_said_to_fit_are_a_party(text: str) -> None:
    assert "모임" in read(text).occasion, (text, read(text).occasion)


def test_friends_as_the_company_of_a_meal_are_no_party() -> None:
    # review_set.md convention 8
    assert "모임" not in read("친구들이랑 가서 먹었어요 맛있었어요").occasion


@pytest.mark.parametrize(
    "text",
    [
        "글라스로 주문해서 여러 가지 마셔봤어요",
        "잔술로 시켰는데 양이 넉넉해요",
        "동네에서 제일 아끼는 이자카야예요",
    ],
)
def test_a_drink_by_its_measure_and_the_place_praised_as_a_bar_are_a_drinking_session(text: str) -> None:
    assert "술자리" in read(text).occasion, (text, read(text).occasion)


@pytest.mark.parametrize("text", ["떡볶이가 좀 짜서 술안주 느낌이었어요", "양념이 세서 딱 안주 같은 맛"])
def test_a_dish_tasting_like_a_drinks_side_is_no_drinking_session(text: str) -> None:
    assert "술자리" not in read(text).occasion, (text, read(text).occasion)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("다음엔 가족 모임으로 방문해야겠어요", "모임"),
        ("포장해 와서 남편이랑 우리집 거실에서 먹었어요", "가족"),
    ],
)
def test_a_visit_resolved_or_a_meal_at_home_is_no_occasion_at_the_place(text: str, value: str) -> None:
    assert value not in read(text).occasion, (text, read(text).occasion)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("명절에 친척들 모여서 식사했어요", "가족"),
        ("여치니랑 같이 갔는데 분위기 좋았어요", "데이트"),
    ],
)
def test_relatives_and_a_partner_in_slang_are_the_reviewers_company(text: str, value: str) -> None:
    assert value in read(text).occasion, (text, read(text).occasion)


def test_guests_eating_alone_still_tell_the_place_suits_a_meal_alone() -> None:
    # review_test10 rz0295, review_test13 rn0036: others alone are labelled 혼밥
    assert "혼밥" in read("혼자 오시는 분들이 많던데 다들 국밥 시키더라고요").occasion


@pytest.mark.parametrize(
    "text",
    ["고기 기본으로 안주고 반찬만 나와요", "맛은 있어서 친구들과 다시 올까 하다가도 마음을 접었습니다"],
)
def test_a_verb_that_only_looks_like_a_drinking_or_party_word(text: str) -> None:
    assert not {"술자리", "모임"} & set(read(text).occasion), (text, read(text).occasion)
