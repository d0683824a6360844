"""Issue 24, classes 3, 4 and 5 as policies (session of 2026-11-28, fifth, round B): white bone broths and
bean-milk noodles described, not named; chains named as ruled out put the other chains after the
independent places; a dish typed with a typo is still the dish.

Word-level tests read the message only; the card tests ingest a few hand-written crawl records (the raw
crawl's shape) into a fresh data directory and ask one question, with the expected cards worked out by
hand from the records.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from matjip.nlu.kinds import detect_kinds
from support.chat import FRIDAY_EVENING
from support.records import ask_over
from support.records import card_ids as ids
from support.records import north_of_jamsil as record

# --- class 3: a broth boiled white, beans ground over noodles ---------------------------------------


@pytest.mark.parametrize(
    ("text", "kinds_said", "dishes"),
    [
        ("소 뼈 오래 고아서 국물 하얀 거", ["설렁탕·곰탕"], []),
        ("국물이 뽀얀 소고기 국 먹고 싶다", ["설렁탕·곰탕"], []),
        ("쇠고기 뼈 우린 국 잘하는 데", ["설렁탕·곰탕"], []),
        ("콩물에 국수 말아주는 집", ["국수·면"], ["콩국수"]),
        ("콩 갈아서 부어주는 시원한 국수", ["국수·면"], ["콩국수"]),
    ],
)
def test_a_white_broth_or_bean_milk_noodles_described_are_their_dish(
    text: str, kinds_said: list[str], dishes: list[str]
) -> None:
    frame = detect_kinds(text)
    assert frame.kinds == kinds_said
    assert frame.dishes == dishes


def test_a_named_dish_is_not_taken_for_its_description() -> None:
    # "콩국수" holds 콩국 and 국수, "돼지뼈 국물 하얀 거" is a pork broth: neither is the described entry
    assert detect_kinds("콩국수 송파").theme is None
    assert detect_kinds("돼지뼈 국물 하얀 거").kinds == ["감자탕"]


# --- class 5: brands ruled out by name — the other chains after the independent places ----------------


def test_brands_ruled_out_put_other_chains_after_the_independent_places(tmp_path: Path) -> None:
    # "잠실역 피자집 도미노 빼고": 도미노 is out; the 피자스쿨 branch (150 reviews, nearest) is a chain too,
    # so the one-shop 화덕 pizzeria (12 reviews) comes first; the branch stays, after it
    records = [
        record(
            "domino", "도미노피자 잠실점", "양식>피자", 100, ["포테이토피자", "불고기피자"], reviewCount=300
        ),
        record("school", "피자스쿨 잠실점", "양식>피자", 150, ["고구마피자", "치즈피자"], reviewCount=150),
        record("own", "나폴리화덕", "양식>피자", 400, ["마르게리따 피자", "디아볼라 피자"], reviewCount=12),
    ]
    r = ask_over(tmp_path, records, "잠실역 피자집 도미노 빼고", FRIDAY_EVENING)
    assert ids(r) == ["own", "school"]


# --- class 4: a dish typed with a typo is still the dish ---------------------------------------------


@pytest.mark.parametrize(
    ("text", "dishes"),
    [
        ("짬봉 맛집 잠실", ["짬뽕"]),
        ("짬봉밥 먹고 싶다", ["짬뽕밥"]),
    ],
)
def test_a_dish_typed_with_a_typo_is_the_dish(text: str, dishes: list[str]) -> None:
    assert detect_kinds(text).dishes == dishes


@pytest.mark.parametrize(("typo", "right"), [("곱창전꼴", "곱창전골"), ("순대국빱", "순대국밥")])
def test_a_compound_dish_typed_with_a_typo_is_read_as_spelt_right(typo: str, right: str) -> None:
    frame = detect_kinds(f"{typo} 먹을 데")
    assert frame.kinds == detect_kinds(f"{right} 먹을 데").kinds
    assert frame.corrections == [(typo, right)]


def test_a_mistyped_hot_pot_puts_the_houses_listing_it_first(tmp_path: Path) -> None:
    # "잠실역 곱창전꼴": the busier 곱창 house (200 reviews, nearest) grills only; the one listing
    # 곱창전골 (20 reviews) comes first
    records = [
        record(
            "grill", "황소곱창", "한식>육류,고기>곱창,막창", 100, ["소곱창구이", "막창구이"], reviewCount=200
        ),
        record("pot", "곱창마을", "한식>육류,고기>곱창,막창", 300, ["곱창전골", "곱창구이"], reviewCount=20),
    ]
    r = ask_over(tmp_path, records, "잠실역 곱창전꼴", FRIDAY_EVENING)
    assert ids(r)[:1] == ["pot"]


# --- class 6: a dish served at a kind ("된장찌개 나오는 고깃집") is a menu line of that kind ----------------


@pytest.mark.parametrize(
    ("text", "kinds_said", "served"),
    [
        ("냉면 주는 갈비집 추천", ["갈비"], ["냉면"]),
        ("점심에 김치찌개 되는 삼겹살집", ["삼겹살"], ["김치찌개"]),
        ("파스타 하는 와인바", ["와인바"], ["파스타"]),
        ("짬뽕 하는 중국집", ["중국집"], []),  # a dish of the kind itself stays its dish
    ],
)
def test_a_dish_served_at_a_kind_is_a_line_of_its_menu(
    text: str, kinds_said: list[str], served: list[str]
) -> None:
    frame = detect_kinds(text)
    assert frame.kinds == kinds_said
    assert getattr(frame, "served", []) == served


def test_a_meat_house_with_the_stew_comes_before_the_stew_house(tmp_path: Path) -> None:
    # "잠실역 된장찌개 나오는 고깃집": the 찌개 house (200 reviews, nearest) is no 고깃집; of the two grills
    # the one listing 된장찌개 (30 reviews) comes before the busier one without it (150 reviews)
    records = [
        record("stew", "장독대찌개", "한식>찌개,전골", 100, ["된장찌개", "김치찌개"], reviewCount=200),
        record(
            "grill", "돈블랙", "한식>육류,고기>삼겹살", 200, ["삼겹살", "목살", "항정살"], reviewCount=150
        ),
        record(
            "both", "마포집", "한식>육류,고기>삼겹살", 300, ["삼겹살", "목살", "된장찌개"], reviewCount=30
        ),
    ]
    r = ask_over(tmp_path, records, "잠실역 된장찌개 나오는 고깃집", FRIDAY_EVENING)
    assert ids(r)[:1] == ["both"]
    assert "stew" not in ids(r)
