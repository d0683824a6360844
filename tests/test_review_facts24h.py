"""Issue 24, class 7 (round seven): review_test9's atmosphere/occasion misses classified, the wording and rule
classes written out — a bare 깔끔 that names nothing (unqualified, as the real-review sets' labellers read it), a
clean word that modifies a food right after it, "간만에" that is no seasoning, no smell while grilling, the slang
"고급짐", a bar's drinks and a drink with a word before its glass, a clean or large room and comfortable seats said in English or by the seat. One test per class, each failing
on the reader before it (main 501bc44). The texts are written for these tests in the manner of Kakao Map reviews
(in no evaluation set); the expected values are read off each text by hand by the labelling rules of the
real-review sets (review_test9_README.md)."""

from __future__ import annotations

import pytest

from support.reviews import read


@pytest.mark.parametrize(
    "text",
    [
        "깔끔하고 좋네요 또 올게요",
        "무난하게 깔끔함. 특별한 건 없음",
        "친절하고 깔끔하고 빨라요",
        "오랜만에 깔끔하게 한끼 했네요",
    ],
)
def test_a_bare_clean_word_that_names_nothing_is_no_clean_place(text: str) -> None:
    assert "깔끔한" not in read(text).atmosphere, text


@pytest.mark.parametrize(
    "text",
    [
        "홀이 넓고 깔끔하고 친절해요",
        "깔끔한 분식집이라 혼자 가기 좋음",
        "조용하고 깔끔해서 책 읽기 좋았어요",
        "간만에 깔끔한 곳에서 먹었네요",  # 간만에: after a long while, not the seasoning
        "깔끔하고 친절한 매장이에요",
        "모던하고 깔끔한 느낌의 음식점",
        "세련되고 깔끔해요",
    ],
)
def test_a_clean_word_with_the_place_named_is_a_clean_place(text: str) -> None:
    assert "깔끔한" in read(text).atmosphere, text


@pytest.mark.parametrize(
    "text",
    [
        "인테리어는 멋있고 깔끔한 밑반찬이 여러개 나와요",
        "매장은 좁은데 깨끗한 느낌의 국물이 일품",
    ],
)
def test_a_clean_word_modifying_a_food_right_after_is_the_food(text: str) -> None:
    assert "깔끔한" not in read(text).atmosphere, text


@pytest.mark.parametrize(
    "text",
    [
        "고깃집인데 냄새가 전혀 안나서 옷 걱정 없어요",
        "삼겹살 구울 때 연기도 냄새도 안 나요",
        "저녁에 고기 먹었는데도 냄새 하나도 안 남",
    ],
)
def test_no_smell_while_grilling_is_an_airy_room(text: str) -> None:
    assert "쾌적한" in read(text).atmosphere, text


@pytest.mark.parametrize("text", ["수육이 냄새 안나고 부드러워요", "순대 데워도 냄새 안 나요"])
def test_a_foods_own_smell_is_no_airy_room(text: str) -> None:
    assert "쾌적한" not in read(text).atmosphere, text


@pytest.mark.parametrize("text", ["룸 인테리어가 고급짐", "생각보다 고급져서 놀람"])
def test_the_slang_of_a_fine_room_is_fine(text: str) -> None:
    assert "고급스러운" in read(text).atmosphere, text


@pytest.mark.parametrize(
    "text",
    [
        "바텐더분이 취향 맞춰서 잘 만들어 주심",
        "막걸리 생으로 한잔 들이키니 최고",
        "소주 얼음잔에 한잔 하니 딱 좋네요",
    ],
)
def test_a_bars_drinks_or_a_drink_before_its_glass_is_a_drinking_session(text: str) -> None:
    assert "술자리" in read(text).occasion, text


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Spotless tables and friendly staff", "깔끔한"),
        ("Spacious room, good for groups", "넓은"),
        ("창가쪽에 편한 소파 자리가 있어요", "편안한"),
        ("의자가 편해서 오래 있었어요", "편안한"),
    ],
)
def test_a_clean_or_large_room_and_easy_seats_said_plainly(text: str, value: str) -> None:
    assert value in read(text).atmosphere, (text, read(text).atmosphere)


@pytest.mark.parametrize(
    "text",
    [
        "직원(?) 혼자서 다 하시느라 바빠 보였어요",
        "사장님 혼자 운영하셔서 음식이 좀 늦게 나와요",
        "양이 많아서 혼자서 한 판 다 먹기엔 벅차요",
    ],
)
def test_alone_said_of_the_staff_or_a_portion_is_no_meal_alone(text: str) -> None:
    assert "혼밥" not in read(text).occasion, text


@pytest.mark.parametrize("text", ["웨이팅 길어서 2차 방문 만에 먹었어요", "첫 시도는 실패, 2차 시도에 성공"])
def test_a_second_of_something_else_is_no_second_round_of_drinking(text: str) -> None:
    assert "술자리" not in read(text).occasion, text


@pytest.mark.parametrize("text", ["국물이 얼큰해서 해장하는 느낌이에요", "순두부 한 숟갈에 해장되는 기분"])
def test_a_hangover_cure_as_a_likeness_is_no_hangover_visit(text: str) -> None:
    assert "해장" not in read(text).occasion, text


@pytest.mark.parametrize(
    "text", ["오픈 초기라 그런지 응대가 좀 정신없고 느려요", "주문 너무 정신없음 ㅠㅠ 두번이나 빠뜨림"]
)
def test_a_hectic_service_is_no_noisy_room(text: str) -> None:
    assert "시끌벅적한" not in read(text).atmosphere, text


@pytest.mark.parametrize(
    "text", ["옆 테이블 소음만 아니면 완벽했을 텐데요", "단체손님 소음만 아니었으면 더 좋았을텐데 아쉽"]
)
def test_the_one_flaw_before_a_counterfactual_is_there(text: str) -> None:
    assert "시끌벅적한" in read(text).atmosphere, text
