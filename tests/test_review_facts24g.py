"""Issue 24, class 7 (round six): the misses of the real-review sets review_test7/test8 written out as classes —
the noise of a room said by its sounds, a clean taste, the inside of a place, a mood judged right after the word,
a supposition, a company one means to bring next time, family remembered from childhood, drinking said plainly,
friends as a party, the hour of a visit told otherwise, a country's mood, an old place by its years, a view
through glass, help with the grilling, and words in another sense (wrapping a lettuce wrap, a chair's cushion,
a name, being treated as a guest, a "no" mark). One test per class, each failing on the reader before it. The
texts are written for these tests in the manner of Kakao Map reviews (in no evaluation set); the expected values
are read off each text by hand by the labelling rules of the real-review sets (review_test8_README.md)."""

from __future__ import annotations

import pytest

from support.reviews import read


@pytest.mark.parametrize(
    "text",
    [
        "천장이 높아서 소리가 울려요 대화가 잘 안 들림",
        "주말 저녁엔 완전 시장통이에요 ㅋㅋ",
        "테이블이 다닥다닥 붙어 있어 소음이 심한 편입니다",
        "사람 많을 땐 소음 때문에 머리 아플 정도",  # the hardship confirms the noise
    ],
)
def test_the_noise_of_a_room_said_by_its_sounds_is_lively_not_quiet(text: str) -> None:
    e = read(text)
    assert "시끌벅적한" in e.atmosphere and "조용한" not in e.atmosphere, (text, e.atmosphere)


@pytest.mark.parametrize(
    "text",
    [
        "냉장고 소음이 좀 거슬려요",  # a machine, not the room's guests
        "소음이 적어서 공부하기 괜찮았어요",
    ],
)
def test_a_machines_noise_or_a_little_noise_is_no_lively_room(text: str) -> None:
    assert "시끌벅적한" not in read(text).atmosphere, text


@pytest.mark.parametrize(
    "text",
    [
        "국물이 자극적이지 않고 깔끔해서 좋았어요",
        "깔끔하고 개운한 게 해장으로 최고",
        "깔끔 담백한 맛이라 부모님도 좋아하심",
    ],
)
def test_a_clean_mild_taste_is_no_clean_place(text: str) -> None:
    assert "깔끔한" not in read(text).atmosphere, text


@pytest.mark.parametrize(
    ("text", "mood"),
    [
        ("가게 안 분위기가 참 좋네요 음악도 잔잔하고", "분위기 좋은"),  # 안: the inside, no negation
        ("이 동네 몇 안 되는 분위기 좋은 술집", "분위기 좋은"),
        ("흔치 않은 분위기 예쁜 카페에요", "분위기 좋은"),  # judged right after, whatever modifies the phrase
        ("가게 컨셉이 정말 멋있어요 소품 하나하나 신경쓴 느낌", "분위기 좋은"),
    ],
)
def test_a_mood_judged_right_after_its_word_or_said_of_the_inside_holds(text: str, mood: str) -> None:
    assert mood in read(text).atmosphere, text


def test_the_concept_of_a_menu_is_no_mood() -> None:
    assert "분위기 좋은" not in read("메뉴 컨셉이 재밌고 좋아요").atmosphere


@pytest.mark.parametrize(
    ("text", "occasion"),
    [
        ("다음엔 엄마 모시고 와야겠어요 너무 맛있음", "가족"),
        ("다음에 여친이랑 꼭 와봐야겠네요", "데이트"),
        ("동기들 데려와야겠다 여기 안주 미쳤음", "모임"),
        ("어렸을 때 할머니가 자주 끓여주시던 맛이랑 비슷해요", "가족"),
        ("어머니가 해주시던 청국장 생각나는 맛", "가족"),
    ],
)
def test_a_company_to_bring_next_time_or_remembered_from_childhood_is_no_occasion(
    text: str, occasion: str
) -> None:
    assert occasion not in read(text).occasion, (text, read(text).occasion)


def test_a_supposition_with_an_occasion_says_nothing_either_way() -> None:
    e = read("점심에 먹기 딱 좋은 백반집이에요", "회사 점심 아니면 굳이 올 일은 없겠지만요")
    assert "점심" in e.occasion, e.occasion


@pytest.mark.parametrize(
    ("text", "occasion", "expected"),
    [
        ("친구랑 술 마시러 왔는데 안주가 다 맛있네요", "술자리", True),
        ("일단 소주 시키고 모둠전 하나 시키면 됩니다", "술자리", True),
        ("술 먹은 다음날 해장하러 오기 딱이에요", "술자리", False),
        ("지인들이랑 송년 겸 다녀왔어요 룸이 있어 편했음", "모임", True),
        ("회사 사람들이랑 뒤풀이로 2차 왔어요", "모임", True),
    ],
)
def test_drinking_and_a_party_of_acquaintances_said_plainly(text: str, occasion: str, expected: bool) -> None:
    assert (occasion in read(text).occasion) is expected, (text, read(text).occasion)


@pytest.mark.parametrize(
    "text",
    [
        "7시밖에 안 됐는데 벌써 재료 소진이래요",
        "19시 10분 주문했는데 음식이 40분 뒤에 나옴",
    ],
)
def test_the_hour_of_a_dinner_visit_told_by_the_time_it_was_or_an_order(text: str) -> None:
    # session-6 convention 5: the time of a visit or an order is no occasion
    assert "저녁" not in read(text).occasion, text


@pytest.mark.parametrize(
    ("text", "mood"),
    [
        ("들어가자마자 대만 온 것 같은 인테리어라 신기했어요", "이국적인"),
        ("태국 특유의 분위기가 물씬 나요", "이국적인"),
        ("을지로 골뱅이 골목의 터줏대감 같은 집", "노포"),
        ("50년 넘은 집이라 그런지 손님 대부분이 어르신", "노포"),
        ("통창이라 낮에 가면 햇살 가득 들어와요", "뷰 좋은"),
        ("2층 창가에서 한강 전경이 잘 보여요", "뷰 좋은"),
    ],
)
def test_a_country_mood_an_old_place_and_a_view_said_without_the_value_word(text: str, mood: str) -> None:
    assert mood in read(text).atmosphere, (text, read(text).atmosphere)


def test_a_country_taste_is_no_foreign_mood() -> None:
    assert "이국적인" not in read("현지에 온 것 같은 맛이에요 향신료가 강함").atmosphere


@pytest.mark.parametrize(
    "text",
    [
        "직원분이 굽는 거 도와주셔서 편하게 먹었어요",
        "다 구워서 개인 접시에 올려주시니 먹기만 하면 됨",
    ],
)
def test_help_with_the_grilling_is_grilled_for_the_guest(text: str) -> None:
    assert "구워줌" in read(text).convenience, text


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("사장님이 쌈을 하나하나 싸주셔서 감동", "convenience", "포장"),  # a lettuce wrap, no take-away
        ("의자가 딱딱한데 방석이 깔려 있어서 괜찮아요", "convenience", "좌식"),  # a chair's cushion
        ("남산애인 간판 보고 들어갔어요", "occasion", "데이트"),  # a name
        ("여기는 손님 대접 받는 느낌이 들어서 좋아요", "occasion", "접대"),  # being treated as a guest
        ("데이트 장소 X, 친구랑 수다 떨기 O", "occasion", "데이트"),  # a "no" mark
    ],
)
def test_a_value_word_in_another_sense_says_nothing(text: str, field: str, value: str) -> None:
    assert value not in getattr(read(text), field), text


def test_a_request_made_ahead_is_how_booking_works() -> None:
    assert "예약" in read("예약시 케이크 말해놓으면 준비해주세요").convenience


@pytest.mark.parametrize(
    ("text", "occasion", "expected"),
    [
        ("친구들이랑 수다 떨기에는 분위기가 딱이에요", "모임", True),
        ("데이트하기에는 조명이 최고예요", "데이트", True),
        ("회식하기엔 테이블이 너무 좁아요", "회식", False),
    ],
)
def test_a_purpose_is_judged_by_the_subject_of_its_clause(text: str, occasion: str, expected: bool) -> None:
    assert (occasion in read(text).occasion) is expected, (text, read(text).occasion)
