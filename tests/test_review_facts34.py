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
