"""Issue 24 class 7, session 11 (rev34): occasion precision on real reviews. review_test17 and the older real-review
sets read occasions the text does not give the writer: a liquor dish, an alcohol-free drink or salmon named in Japanese
read as drinking, a meal alone said to be unwelcome read as one, a portion one could finish alone, an occasion or a
family served by a takeaway, the owners' family, classmates as the company of a visit, one who comes alone only to wait
for the others. Each class is data (``review_rules.toml`` block "Session 11 (rev34)", ``review_cues.toml word_parts``,
``review_moods.toml``); the sentences are in new words (none is in a labelled set), each negative case fails on main
``4a159a6`` and each control passes on both."""

from __future__ import annotations

import pytest

from support.reviews import read


def _occasions(text: str) -> set[str]:
    return set(read(text).occasion)


@pytest.mark.parametrize(
    "text",
    [
        "홍합 술찜 국물 진짜맛있어요",
        "후식으로 나온 술빵도 너무 맛있어요",
        "조개 술찜이 너무 맛있어서 또 시켰어요",
        "무알콜 맥주랑 같이 먹으니 최고예요",
        "운전해야 해서 무알콜맥주와 함께 먹었어요",
        "사케동이랑 우동 먹었는데 정말 맛있었어요",
        "사케롤이랑 연어초밥 먹었는데 최고",
    ],
)
def test_a_liquor_dish_an_alcohol_free_drink_or_salmon_is_no_drinking(text: str) -> None:
    assert "술자리" not in _occasions(text), (text, _occasions(text))


@pytest.mark.parametrize(
    "text",
    [
        "맥주랑 같이 먹으니 최고예요",
        "사케랑 같이 먹었는데 정말 잘 어울려요",
        "조개술찜에 소주 한 병 마셨어요",
    ],
)
def test_a_drink_at_the_table_is_still_drinking(text: str) -> None:
    assert "술자리" in _occasions(text), (text, _occasions(text))


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("혼자 오면 안 되는 가게였어요 두 명부터 받으신대요", "혼밥"),
        ("애들이랑 가면 큰일나요 너무 좁고 위험해요", "아이와"),
        ("혼자 가면 절대 안 되는 곳이에요 눈치 엄청 줘요", "혼밥"),
    ],
)
def test_an_occasion_one_must_not_come_for_is_against_it(text: str, value: str) -> None:
    assert value not in _occasions(text), (text, _occasions(text))


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("혼자 가면 편하게 먹을 수 있어요", "혼밥"),
        ("아이랑 오면 좋아요 놀이방이 있어요", "아이와"),
    ],
)
def test_an_occasion_welcome_in_a_condition_still_counts(text: str, value: str) -> None:
    assert value in _occasions(text), (text, _occasions(text))


@pytest.mark.parametrize(
    "text",
    [
        "한 통 사면 혼자서 이틀은 나눠 먹어요 양이 어마어마해요",
        "혼자서 다 먹으려고 했는데 결국 남겼어요 양이 많아요",
        "라지 한 판이면 혼자서 세 번은 나눠 먹어요",
        "혼자 좀 먼저 갔는데 자리가 없어서 밖에서 친구들을 기다렸어요",
    ],
)
def test_a_portion_or_a_wait_alone_is_no_meal_alone(text: str) -> None:
    assert "혼밥" not in _occasions(text), (text, _occasions(text))


@pytest.mark.parametrize(
    "text",
    [
        "혼자 가서 먹었는데 양도 많고 좋았어요",
        "혼자 먹기 좋은 자리가 있어요",
    ],
)
def test_a_meal_alone_still_counts(text: str) -> None:
    assert "혼밥" in _occasions(text), (text, _occasions(text))


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("아빠 생신이 있어서 케이크랑 같이 포장해 갔어요", "기념일"),
        ("팀 회식이 있어서 도시락 배달 시켰는데 다들 좋아했어요", "회식"),
        ("동호회 모임이 있어서 포장 주문했어요 양 많아요", "모임"),
    ],
)
def test_an_occasion_held_elsewhere_and_served_by_a_takeaway_is_no_visit(text: str, value: str) -> None:
    assert value not in _occasions(text), (text, _occasions(text))


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("생일이라 왔는데 남은 건 포장해 주셨어요", "기념일"),
        ("동호회 모임으로 왔는데 자리가 넓어요", "모임"),
    ],
)
def test_an_occasion_at_the_table_still_counts(text: str, value: str) -> None:
    assert value in _occasions(text), (text, _occasions(text))


@pytest.mark.parametrize(
    "text",
    [
        "김치는 창업주 할머니가 지금도 매일 담그신대요",
        "창업자 부부가 아직도 주방을 지키신다고 해요",
    ],
)
def test_the_founders_family_is_not_the_writers(text: str) -> None:
    assert "가족" not in _occasions(text), (text, _occasions(text))


@pytest.mark.parametrize(
    "text",
    [
        "과 동기들과 왔는데 음식이 빨리 나와요",
        "입사 동기들이랑 점심 먹으러 갔는데 맛있었어요",
    ],
)
def test_classmates_as_the_company_of_a_visit_are_no_party(text: str) -> None:
    assert "모임" not in _occasions(text), (text, _occasions(text))


@pytest.mark.parametrize(
    "text",
    [
        "동기들이랑 모이기 딱 좋은 곳이에요",
        "대학 동기 모임으로 다녀왔어요",
    ],
)
def test_classmates_said_to_fit_or_a_named_party_are_still_a_party(text: str) -> None:
    assert "모임" in _occasions(text), (text, _occasions(text))


@pytest.mark.parametrize(
    "text",
    [
        "애들이랑 같이 갈 수 있는 몇 안 되는 술집일 듯해요",
        "아이들과 오기 좋은 식당일 것 같아요 다음에 와볼게요",
    ],
)
def test_a_childs_company_only_guessed_possible_is_no_child(text: str) -> None:
    assert "아이와" not in _occasions(text), (text, _occasions(text))


@pytest.mark.parametrize(
    "text",
    [
        "아이들과 갈 수 있는 식당이라 자주 와요",
        "애들이랑 먹기 좋은 메뉴가 많아요",
    ],
)
def test_a_childs_company_told_still_counts(text: str) -> None:
    assert "아이와" in _occasions(text), (text, _occasions(text))


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("국물이 칼칼해서 소주가 절로 넘어가요", "술자리"),
        ("비 오는 날 동생이랑 낯술 👍👍", "술자리"),
        ("과에서 종강총회 하러 왔는데 자리가 넉넉했어요", "모임"),
        ("부산에서 손님이 와서 대접했는데 다들 만족하셨어요", "접대"),
        ("조용한 룸이 있어서 비즈니스하기 괜찮아요", "접대"),
        ("국물이 순해서 아이까지 잘 먹었어요", "아이와"),
        ("아이가 짜장면 한 그릇 다 먹었어요", "아이와"),
    ],
)
def test_occasions_told_in_other_words(text: str, value: str) -> None:
    assert value in _occasions(text), (text, _occasions(text))


def test_a_hangover_word_in_a_priced_menu_item_is_no_hangover() -> None:
    assert "해장" not in _occasions("메뉴판에 속풀이 정식 9,000원 있어서 시켜봤어요")
    assert "해장" in _occasions("전날 과음해서 속풀이로 왔는데 국물이 시원해요")


def test_a_worry_that_one_must_not_come_alone_is_no_refusal() -> None:
    text = "혼자 오면 안 될까 봐 걱정했는데 사장님이 반겨주셔서 혼밥 편하게 했어요"
    assert "혼밥" in _occasions(text), (text, _occasions(text))


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("점심에는 회식하고 단체 손님이 많아서 정신없더라구요", "회식"),
        ("주말엔 가족이나 아이 손님이 많아요", "가족"),
    ],
)
def test_guests_of_several_kinds_listed_are_not_the_writers_company(text: str, value: str) -> None:
    assert value not in _occasions(text), (text, _occasions(text))


def test_the_writers_company_beside_a_crowd_still_counts() -> None:
    assert "회식" in _occasions("회식으로 왔는데 손님이 많았어요")
