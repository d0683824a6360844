"""Issue 24 class 7, session 6: the review-fact conventions the lead settled (``review_set.md``, "session-6
conventions"), each as a class of phrasings a local writes. None of these sentences is in a labelled set;
expected values are read off the sentences by the conventions, not produced by the code."""

from __future__ import annotations

import pytest

from support.reviews import read


@pytest.mark.parametrize(
    "text",
    [
        "반찬이 하나하나 정갈하게 나와서 좋았어요",
        "플레이팅이 깔끔하고 정갈해요",
        "정갈하고 맛있는 한정식 코스였어요",
        "밑반찬 몇 가지가 정갈하게 깔리고 고기가 나와요",
        "정갈한 도시락이라 선물용으로 좋았어요",
    ],
)
def test_tidy_food_is_no_tidy_place(text: str) -> None:
    """Convention 1: an atmosphere is the place's (매장, 인테리어, 위생, 공간), never the food's."""
    assert "정갈한" not in read(text).atmosphere, read(text).atmosphere


def test_a_tidy_room_is_still_a_tidy_place() -> None:
    assert "정갈한" in read("매장이 정갈하고 조용해서 좋았어요").atmosphere


@pytest.mark.parametrize(
    ("text", "family"),
    [
        ("남편이랑 아들 데리고 갔는데 다들 만족했어요", True),
        ("딸아이랑 둘이 왔는데 아이 의자도 챙겨주셨어요", False),
        ("우리 아이가 잘 먹어서 또 올 거예요", False),
        ("저희 애들이 여기 국수를 제일 좋아해요", False),
        ("시댁 식구들이랑 애들 데리고 다녀왔어요", True),
    ],
)
def test_a_child_is_with_a_child_and_family_needs_a_family_word(text: str, family: bool) -> None:
    """Convention 2: 아이와 whenever a child comes along; 가족 only when a family word appears."""
    occasion = read(text).occasion
    assert "아이와" in occasion and ("가족" in occasion) is family, (text, occasion)


@pytest.mark.parametrize(
    "text", ["주말에 동생 상견례모임 했어요 룸이 조용해요", "양가 상견례 모임으로 다녀왔는데 좋았어요"]
)
def test_a_party_named_by_its_kind_is_that_occasion(text: str) -> None:
    occasion = read(text).occasion
    assert "상견례" in occasion and "모임" not in occasion, (text, occasion)


@pytest.mark.parametrize(
    ("text", "dinner"),
    [
        ("퇴근 후에 들러서 국밥 한그릇 먹고 가요", False),
        ("법인카드로 결제했어요 고기는 그럭저럭", False),
        ("법카 찬스로 먹었는데 비싸요", False),
        ("팀 사람들이랑 퇴근 후에 왔는데 자리가 넉넉해요", True),
        ("퇴근하고 회사 사람들이랑 삼겹살 먹었어요", True),
        ("부장님이랑 퇴근길에 들렀는데 맛있었어요", True),
    ],
)
def test_after_work_is_a_work_dinner_only_with_colleagues(text: str, dinner: bool) -> None:
    """Convention 3: "퇴근 후" or a company card alone is no occasion; with 동료/팀/회사 사람들 it is 회식."""
    assert ("회식" in read(text).occasion) is dinner, (text, read(text).occasion)


@pytest.mark.parametrize(
    "text",
    [
        "직원분들끼리 큰소리로 떠들어서 정신없었어요",
        "음악 소리가 너무 커서 귀가 아팠어요",
        "노래를 너무 크게 틀어놔서 얘기하기 힘들었어요",
        "사장님이 주방에서 큰 소리로 통화하셔서 좀 그랬어요",
        "알바생들이 자기들끼리 떠들기 바빠요",
    ],
)
def test_noise_from_anyone_in_the_room_is_a_noisy_place(text: str) -> None:
    """Convention 4: noise from guests, staff or music counts: 시끌벅적한, never 조용한."""
    e = read(text)
    assert "시끌벅적한" in e.atmosphere and "조용한" not in e.atmosphere, (text, e.atmosphere)


@pytest.mark.parametrize(
    "text",
    [
        "옆 테이블이 떠들어서 재방문 의사 없음",
        "알바생들이 큰소리로 수다 떨어서 다시는 안 갈래요",
        "음악이 너무 커서 두번 다시 안 와요",
    ],
)
def test_a_noise_complaint_is_not_undone_by_never_coming_back(text: str) -> None:
    """Convention 4: "다시는 안 가요" after the noise is a verdict that agrees with it, not a negation."""
    assert "시끌벅적한" in read(text).atmosphere, (text, read(text).atmosphere)


@pytest.mark.parametrize(
    "text",
    [
        "점심에 갔는데 웨이팅이 길었어요",
        "저녁 7시쯤 갔더니 자리가 없었어요",
        "런치가 3만원 디너는 6만원이에요",
        "12시 반에 도착했는데 바로 앉았어요",
        "밤에 갔더니 조명이 예뻤어요",
        "저녁 9:40경 방문했는데 재료 소진이래요",
        "지난주 저녁으로 먹었는데 또 생각나요",
    ],
)
def test_a_meal_time_is_no_occasion(text: str) -> None:
    """Convention 5: the time of a visit, or a meal's price, is neither 점심 nor 저녁."""
    occasion = read(text).occasion
    assert "점심" not in occasion and "저녁" not in occasion, (text, occasion)


@pytest.mark.parametrize(
    ("text", "meal"),
    [
        ("직장인 점심으로 딱이에요", "점심"),
        ("근처 회사 다니면 점심 먹기 좋은 곳", "점심"),
        ("저녁 먹기 좋은 조용한 식당이에요", "저녁"),
    ],
)
def test_a_place_for_a_meal_is_still_the_occasion(text: str, meal: str) -> None:
    assert meal in read(text).occasion, (text, read(text).occasion)


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("고기를 구워서 올려주셔서 편했어요", "convenience", "구워줌"),
        ("집에 와서 먹었는데 식어도 맛있어요", "convenience", "포장"),
        ("집에와서 뜯어보니 하나가 빠졌네요", "convenience", "포장"),
        ("딸아이랑 왔는데 아이 의자도 챙겨주셨어요", "convenience", "유아의자"),
        ("오늘 가족 와서 정말 후회없는 식사 하고 갑니다", "occasion", "가족"),
    ],
)
def test_one_first_hand_mention_holds_a_fact(text: str, field: str, value: str) -> None:
    """Convention 6: a convenience (or company) from one first-hand mention with no contradiction."""
    assert value in read(text).values(field), (text, read(text).values(field))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text",
    [
        "집에 가서 먹어야겠다 생각했는데 여기서 다 먹었어요",
        "포장 되나 물어보니 안된대요",
        "주차되면 좋겠어요",
    ],
)
def test_a_wish_or_refusal_holds_no_fact(text: str) -> None:
    e = read(text)
    assert not set(e.convenience) & {"포장", "주차"}, (text, e.convenience)


@pytest.mark.parametrize(
    ("text", "occasion"),
    [
        ("직장동료가 추천해서 갔는데 정말 맛있게 먹었어요", "회식"),
        ("회사 동료분이 추천해줘서 혼자 와봤어요", "회식"),
        ("부모님께서 추천하신 곳이라 와봤는데 괜찮네요", "가족"),
    ],
)
def test_who_recommended_the_place_is_not_who_came(text: str, occasion: str) -> None:
    assert occasion not in read(text).occasion, (text, read(text).occasion)
