"""More of how a local words a wish (issue 24, classes 3, 5, 6, 16 and English dish names), found on
a fresh question set: a typo inside a longer word or a two-syllable slip, a sore stomach as 해장,
light food, "한식" on its own as a Korean meal, places named for a taste ruled out with it, a
샤브칼국수 house filed under 칼국수.

Cards are judged on the crawl records given (category path, title, menus), never on the product's
own enrichment.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from matjip.kinds import kinds
from matjip.nlu.kinds import close_kind_word, detect_kinds
from support.records import ask_once, jamsil_record

# --- 5. typos --------------------------------------------------------------------------------------


def test_a_typo_inside_a_longer_word_names_its_dish_not_the_words_tail() -> None:
    """ "순두브찌개" was read as any 찌개 (the inner word "찌개" won over the typo)."""
    frame = detect_kinds("석촌동 순두브찌개")
    assert frame.kinds == ["순두부"]
    assert frame.corrections == [("순두브찌개", "순두부찌개")]


@pytest.mark.parametrize(("text", "kind"), [("새내역 곱챵", "곱창·막창"), ("잠실 국빱", "국밥·순대국")])
def test_a_two_syllable_slip_is_taken(text: str, kind: str) -> None:
    frame = detect_kinds(text)
    assert frame.kinds == [kind] and frame.corrections


@pytest.mark.parametrize("word", ["요리", "라면", "싸다", "쪼개"])
def test_ordinary_two_syllable_words_are_not_slips(word: str) -> None:
    assert close_kind_word(word) is None


# --- 3. described foods ------------------------------------------------------------------------------


def test_a_sore_stomach_after_drinking_is_hangover_food() -> None:
    frame = detect_kinds("쓰린 속 달랠 만한 거 송파역 근처")
    assert frame.theme is not None and "해장" in frame.theme
    assert "해장국" in frame.kinds and "죽" not in frame.kinds


def test_diet_and_light_food_are_salad_poke_shabu_first() -> None:
    diet = detect_kinds("다이어트 중인데 잠실에서 뭐 먹지").kinds
    assert diet and set(diet) <= {"샐러드", "포케", "샤브샤브"}
    light = detect_kinds("문정역 가볍게 먹을 저녁").kinds
    assert light[:2] == ["샐러드", "포케"]


# --- 6. colloquial kinds -------------------------------------------------------------------------------


def test_hansik_on_its_own_is_a_korean_meal(tmp_path: Path) -> None:
    """ "문정역 한식" showed a 곱창 house and a 회 place: a local means 백반·찌개·국밥."""
    frame = detect_kinds("애들 데리고 문정역 한식")
    assert "백반" in frame.kinds and "고깃집" not in frame.kinds
    assert detect_kinds("한식 말고 뭐 먹지").kinds == []
    records = [
        jamsil_record("1", "잠실곱창", "한식>육류,고기>곱창,막창", ["소곱창", "대창구이"], reviewCount=400),
        jamsil_record("2", "엄마손백반", "한식>백반", ["제육백반", "김치찌개"], step=2, reviewCount=8),
    ]
    r = ask_once(tmp_path, records, "잠실 한식")
    assert r.cards and r.cards[0].name == "엄마손백반"
    assert "'한식'" in r.answer


def test_a_bapjip_is_a_meal_place_not_a_buffet() -> None:
    """ "문정역 직장인 밥집" showed a 한식뷔페 beside the 국밥·찌개 places: a local's 밥집 is 백반, 국밥,
    찌개, 쌈밥, 한정식."""
    frame = detect_kinds("문정역 직장인 밥집")  # no kind asked (dlg27): the family first, a buffet after it
    family = kinds().theme_kinds(frame.any_kind or "")
    assert "백반" in family and "한정식" in family
    assert "한식뷔페" not in family and "뷔페" not in family


def test_a_shabu_house_filed_under_kalguksu_comes_after_the_noodle_shops(tmp_path: Path) -> None:
    """ "삼전역 근처 칼국수" showed 편백재샤브칼국수 (filed under 칼국수): a 샤브 place first, so it
    follows the noodle shops, and fills in only when they are too few."""
    assert kinds().weakly("한식>국수>칼국수", "칼국수", "편백재샤브칼국수")
    assert not kinds().weakly("한식>국수>칼국수", "칼국수", "원칼국수")
    records = [
        jamsil_record(
            "1", "편백재샤브칼국수", "한식>국수>칼국수", ["칼국수", "소고기(160g)"], reviewCount=400
        ),
        jamsil_record("2", "원칼국수", "한식>국수>칼국수", ["칼국수", "칼만둣국"], step=2, reviewCount=6),
    ]
    r = ask_once(tmp_path, records, "잠실 칼국수")
    assert [c.name for c in r.cards] == ["원칼국수", "편백재샤브칼국수"]


# --- 16. tastes ruled out --------------------------------------------------------------------------------


def test_places_named_for_the_taste_are_out_with_it(tmp_path: Path) -> None:
    """ "매운 거 못 먹는 애랑 갈 중국집" showed a 짬뽕 specialist first."""
    records = [
        jamsil_record("1", "불타는짬뽕", "중식>중국요리", ["짬뽕", "짜장면"], reviewCount=300),
        jamsil_record("2", "조용반점", "중식>중국요리", ["짜장면", "탕수육"], step=2, reviewCount=10),
    ]
    r = ask_once(tmp_path, records, "잠실 매운 거 못 먹는 애랑 갈 중국집")
    assert [c.name for c in r.cards] == ["조용반점"]


def test_spicy_food_ruled_out_with_malgo_is_a_taste() -> None:
    assert detect_kinds("매운 음식 말고 잠실새내 한식").tastes_avoided == ["매운"]
    # the asked kind's own word stays ("안 매운 짬뽕" keeps the 짬뽕 places)
    assert "짬뽕" not in kinds().taste_titles(["매운"], ["중국집", "짬뽕"])
    assert "짬뽕" in kinds().taste_titles(["매운"], ["중국집"])


# --- English dish names -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind"),
    [("where to eat dakgalbi in ogeum", "닭갈비"), ("gamjatang near jamsil", "감자탕")],
)
def test_romanised_dish_names_are_kinds(text: str, kind: str) -> None:
    assert kind in detect_kinds(text).kinds


# --- 10. good places within the area asked ---------------------------------------------------------------


def test_a_dong_means_its_own_streets_first(tmp_path: Path) -> None:
    """ "방이동 치킨" showed places across the border (오금동, 올림픽공원 side) within the 1.5 km radius
    ahead of as good ones inside 방이동: a place outside the dong's outline now needs more evidence."""
    records = [
        jamsil_record(
            "1",
            "건너편치킨",
            "치킨",
            ["후라이드치킨", "양념치킨"],
            lat=37.511004,
            lon=127.128809,
            reviewCount=40,
        ),
        jamsil_record(
            "2",
            "방이골치킨",
            "치킨",
            ["후라이드치킨", "양념치킨"],
            lat=37.521991,
            lon=127.125402,
            reviewCount=40,
        ),
    ]
    r = ask_once(tmp_path, records, "방이동 치킨")
    assert [c.name for c in r.cards][:1] == ["방이골치킨"]
