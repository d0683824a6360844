"""Issue 24 class 7, session 7 (rev26): review_test14's (Naver crawl) misses written out as classes of phrasing.
None of these sentences is in a labelled set; the expected values are read off the sentences by the conventions of
review_test14_README.md (drinks at the table are 술자리, a family word is 가족, grilling by the staff or served grilled
is 구워줌, a booking made or gone without is 예약, noise denied as a merit is 조용한, hedged fits unlabelled)."""

from __future__ import annotations

import pytest

from support.reviews import read


@pytest.mark.parametrize(
    "text",
    [
        "보쌈에 소주는 못참지",
        "같이 시킨 생맥주도 향이 진하고 좋았어요",
        "곱창에 하이볼 곁들이니 최고",
        "사장님이 골라주신 와인도 같이 마시기 좋았어요",
    ],
)
def test_a_drink_named_while_eating_is_a_drinking_session(text: str) -> None:
    assert "술자리" in read(text).occasion, (text, read(text).occasion)


def test_a_drink_brought_next_time_is_no_drinking_session() -> None:
    text = "다음엔 와인 들고 또 오고 싶어요"
    assert "술자리" not in read(text).occasion, (text, read(text).occasion)


@pytest.mark.parametrize(
    "text",
    [
        "남펀이 제일 좋아하는 집이에요",
        "자매들이랑 수다 떨면서 먹었어요",
        "딸,사위랑 저녁 먹었어요",
        "어머님 모시고 왔는데 좋아하셨어요",
    ],
)
def test_family_words_and_slips_are_family(text: str) -> None:
    assert "가족" in read(text).occasion, (text, read(text).occasion)


@pytest.mark.parametrize(
    "text",
    ["목살을 초벌해주셔서 금방 먹었어요", "삼겹살이 다 구워져서 나와요", "갈비가 구워 나오니 편해요"],
)
def test_grilled_by_the_kitchen_and_served_is_grilling_service(text: str) -> None:
    assert "구워줌" in read(text).convenience, (text, read(text).convenience)


def test_only_the_first_round_grilled_is_no_grilling_service() -> None:
    text = "첫 판만 구워주시고 그다음은 직접 구워야 해요"
    assert "구워줌" not in read(text).convenience, (text, read(text).convenience)


@pytest.mark.parametrize(
    "text",
    [
        "예약하고 가서 웨이팅 없이 들어갔어요",
        "예약을 안 했더니 한 시간 기다렸네요",
        "주말이라 예약못했는데 운좋게 앉았어요",
    ],
)
def test_a_booking_made_or_gone_without_is_a_booking(text: str) -> None:
    assert "예약" in read(text).convenience, (text, read(text).convenience)


@pytest.mark.parametrize("text", ["도착해서 예약하고 한 시간 뒤에 들어갔어요", "맛있어요 단골예약합니다"])
def test_a_waitlist_on_arrival_or_a_regular_to_be_is_no_booking(text: str) -> None:
    assert "예약" not in read(text).convenience, (text, read(text).convenience)


@pytest.mark.parametrize(
    "text",
    [
        "손님 대접하기 좋은 집인듯 싶어요",
        "6명 모임에 적합할 것 같아요",
        "데이트 코스로 오면 좋을 것 같고 음식도 맛있어요",
    ],
)
def test_a_hedged_fit_is_no_occasion(text: str) -> None:
    assert not read(text).occasion, (text, read(text).occasion)


def test_others_coming_for_an_occasion_is_not_the_guests() -> None:
    text = "소개팅 장소로 많이들 찾으시는 곳이에요"
    assert "데이트" not in read(text).occasion, (text, read(text).occasion)


@pytest.mark.parametrize(
    "text",
    [
        "홀이 시끄럽지도 않고 좋아요",
        "시끄럽지 않아서 대화하기 좋았어요",
        "그렇게 시끄러운 분위기도 아니고 친절해요",
    ],
)
def test_noise_denied_as_a_merit_is_quiet(text: str) -> None:
    assert "조용한" in read(text).atmosphere, (text, read(text).atmosphere)


def test_noise_that_cannot_be_helped_is_lively() -> None:
    text = "술집이라 시끄러운건 어쩔수 없어요"
    assert "시끌벅적한" in read(text).atmosphere, (text, read(text).atmosphere)


@pytest.mark.parametrize("text", ["애완견과 같이 앉을 수 있어요", "강아지들 뿐 아니라 견주도 편한 곳"])
def test_the_guests_pet_in_other_words_is_pet_friendly(text: str) -> None:
    assert "반려동물" in read(text).convenience, (text, read(text).convenience)


@pytest.mark.parametrize("text", ["인테리어는 좋았지만 음식이 짰어요", "인테리어도 괜찮고 맛도 있어요"])
def test_an_interior_conceded_or_lukewarm_is_no_good_mood(text: str) -> None:
    assert "분위기 좋은" not in read(text).atmosphere, (text, read(text).atmosphere)


def test_alone_and_fit_to_eat_alone_is_a_meal_alone() -> None:
    text = "매장도 넓고 혼자 먹기에도 좋아요"
    assert "혼밥" in read(text).occasion, (text, read(text).occasion)


def test_byob_told_as_drinks_bought_elsewhere_is_corkage() -> None:
    text = "회가 싸고 술은 사가지고 오는 곳이에요"
    assert "콜키지" in read(text).convenience, (text, read(text).convenience)


@pytest.mark.parametrize(
    "text",
    [
        "다른 분들은 다 연인이던데 저는 동료랑 왔어요",
        "가족 단위 손님도 많이 보여요",
        "반주 곁들이며 떠드는 사람들이 많아요",
    ],
)
def test_other_guests_company_is_not_the_guests(text: str) -> None:
    occasion = read(text).occasion
    assert not {"데이트", "가족", "술자리"} & set(occasion), (text, occasion)


def test_a_dish_that_goes_down_easily_is_no_drinking() -> None:
    text = "특히 짬뽕이 술술 넘어가요"
    assert "술자리" not in read(text).occasion, (text, read(text).occasion)


@pytest.mark.parametrize("text", ["야경이 너무 이쁘네요", "강아지를 예뻐해주셔서 좋았어요"])
def test_pretty_of_a_view_or_a_pet_petted_is_no_pretty_room(text: str) -> None:
    assert "감성적인" not in read(text).atmosphere, (text, read(text).atmosphere)


def test_a_party_in_a_condition_of_advice_is_no_party_visit() -> None:
    text = "단체방문시에는 꼭 예약하세요"
    assert "단체" not in read(text).occasion, (text, read(text).occasion)


@pytest.mark.parametrize("text", ["친구남편들도 다 만족했어요", "포장해왔는데 온가족이 먹어도 남았어요"])
def test_a_friends_spouse_or_the_family_as_an_amount_is_no_family_visit(text: str) -> None:
    assert "가족" not in read(text).occasion, (text, read(text).occasion)


@pytest.mark.parametrize(
    "text",
    [
        "전화로 주문하면 배달료 없어요",
        "배달로 자주 먹었던 곳인데 매장에 와서 먹으니 더 맛있어요",
    ],
)
def test_delivery_free_of_charge_or_the_guests_past_habit_is_delivery(text: str) -> None:
    assert "배달" in read(text).convenience, (text, read(text).convenience)


def test_an_expectation_told_with_gessji_is_turned() -> None:
    text = "주차는 안되겠지 하며 갔는데 자리가 넉넉했어요"
    assert "주차" in read(text).convenience, (text, read(text).convenience)


def test_one_of_few_places_is_no_negation() -> None:
    text = "반려견과 함께 갈 수 있는 몇 안되는 식당"
    assert "반려동물" in read(text).convenience, (text, read(text).convenience)


@pytest.mark.parametrize("text", ["아이도 데려왔는데 잘 먹었어요", "작은 아이가 여기 돈까스를 제일 좋아해요"])
def test_a_child_brought_or_named_by_birth_order_is_with_a_child(text: str) -> None:
    assert "아이와" in read(text).occasion, (text, read(text).occasion)


def test_many_rooms_is_a_room() -> None:
    text = "식당이 넓은데 방도 많아서 좋아요"
    assert "룸" in read(text).convenience, (text, read(text).convenience)


@pytest.mark.parametrize("text", ["어깨 넓은 매니저님이 친절해요", "넓은 창에 햇살이 들어요"])
def test_wide_of_a_person_or_a_window_is_no_large_room(text: str) -> None:
    assert "넓은" not in read(text).atmosphere, (text, read(text).atmosphere)


def test_tidy_side_dishes_called_chan_are_no_tidy_room() -> None:
    text = "찬들도 정갈하게 잘 나와요"
    assert "정갈한" not in read(text).atmosphere, (text, read(text).atmosphere)


@pytest.mark.parametrize(
    "text", ["다음에는 와인 들고 또 오고 싶어요", "친구들이랑 왔는데 가족과 다시 오고 와야겠어요"]
)
def test_a_company_or_a_drink_for_next_time_is_no_occasion(text: str) -> None:
    occasion = read(text).occasion
    assert not {"술자리", "가족"} & set(occasion), (text, occasion)


def test_anim_read_as_or_after_a_topic_is_a_negation() -> None:
    text = "데이트 장소는 확실히 아님 테이블이 너무 붙어있음"
    assert "데이트" not in read(text).occasion, (text, read(text).occasion)


def test_anim_between_two_dishes_is_or() -> None:
    text = "짜장 아님 짬뽕 데이트 코스로 좋아요"
    assert "데이트" in read(text).occasion, (text, read(text).occasion)
