"""Issue 24 class 7, session 8 (rev28): false positives of review_test15 (a development set since its first run),
written out as classes of phrasing. None of these sentences is in a labelled set; the expected values are read off
the sentences by the conventions of review_set.md (a hedged fit is no label, other guests' company is not the
reviewer's, a convenience needs a first-hand mention); each class has controls the reader must keep."""

from __future__ import annotations

import pytest

from support.reviews import read


@pytest.mark.parametrize(
    "text",
    [
        "화장실이 청결 하지  못해서 좀 그랬어요",
        "테이블이 깨끗 하진  않았어요 맛은 좋아요",
        "수저통이 깨끗하지   못한 편이라 아쉬움",
    ],
)
def test_a_negation_written_apart_is_still_a_negation(text: str) -> None:
    assert "깔끔한" not in read(text).atmosphere, (text, read(text).atmosphere)


@pytest.mark.parametrize("text", ["매장이 청결 하고  좋았어요", "홀이 깨끗해요  맛도 좋아요"])
def test_clean_written_with_wide_gaps_stays(text: str) -> None:
    assert "깔끔한" in read(text).atmosphere, (text, read(text).atmosphere)


@pytest.mark.parametrize(
    "text",
    [
        "혼자 하셔서 음식이 좀 늦게 나와요",
        "혼자서 다 하시느라 정신없어 보였어요",
        "혼자 운영하시는 곳이라 조금 기다렸어요",
    ],
)
def test_the_owner_working_alone_is_no_meal_alone(text: str) -> None:
    assert "혼밥" not in read(text).occasion, (text, read(text).occasion)


@pytest.mark.parametrize("text", ["혼자 가서 먹었는데 편했어요", "혼자 가셔도 부담없는 곳이에요"])
def test_a_meal_alone_and_the_advice_to_come_alone_stay(text: str) -> None:
    assert "혼밥" in read(text).occasion, (text, read(text).occasion)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("주말이라 가족 단위 손님이 엄청 많더라고요", "가족"),
        ("애기 데리고 오신 분들이 꽤 있었어요", "아이와"),
        ("아이들 데리고 온 테이블이 많아서 좀 정신없었어요", "아이와"),
    ],
)
def test_other_guests_families_are_not_the_reviewers_company(text: str, value: str) -> None:
    assert value not in read(text).occasion, (text, read(text).occasion)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("가족이랑 와서 잘 먹었어요", "가족"),
        ("아이 데리고 왔는데 잘 먹었어요", "아이와"),
        ("회식/손님접대 자리로 딱이에요", "회식"),
    ],
)
def test_the_reviewers_family_stays(text: str, value: str) -> None:
    assert value in read(text).occasion, (text, read(text).occasion)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("혼자 먹으러 와도 편할 것 같아요", "혼밥"),
        ("연인이랑 데이트 코스로 제격일 듯해요", "데이트"),
        ("회식 장소로 안성맞춤일 것 같네요", "회식"),
    ],
)
def test_a_hedged_fit_is_no_occasion(text: str, value: str) -> None:
    assert value not in read(text).occasion, (text, read(text).occasion)


def test_a_fit_said_plainly_stays() -> None:
    assert "혼밥" in read("혼밥하기 편해요").occasion


@pytest.mark.parametrize(
    "text", ["너무 맛있어서 재방문 예약입니다!", "또 방문 예약이요ㅎㅎ", "다음에 꼭 방문예약~"]
)
def test_a_reservation_to_come_back_is_no_booking(text: str) -> None:
    assert "예약" not in read(text).convenience, (text, read(text).convenience)


@pytest.mark.parametrize("text", ["네이버로 방문 예약하고 갔어요", "전화로 예약하고 방문했어요"])
def test_a_booking_stays(text: str) -> None:
    assert "예약" in read(text).convenience, (text, read(text).convenience)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("다음엔 남편이랑 둘이서 오붓하게 올게요", "가족"),
        ("담번엔 여친이랑 같이 데이트로 오려구요", "데이트"),
    ],
)
def test_a_company_promised_two_words_before_the_visit_is_no_occasion(text: str, value: str) -> None:
    assert value not in read(text).occasion, (text, read(text).occasion)


@pytest.mark.parametrize("text", ["엄마랑 와서 다음에 올게요", "와이프랑 먹었는데 담에 올게요"])
def test_a_company_of_this_visit_before_a_promise_stays(text: str) -> None:
    assert "가족" in read(text).occasion, (text, read(text).occasion)
