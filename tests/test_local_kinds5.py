"""Issue 24, classes 3, 4, 5, 6, 10 and 16 as policies (session of 2026-11-28, fourth): a dish said
as "○○맛집" is the dish on menus; kinds named by their colloquial or described names; "유명한" means
the places a local trusts, never a rating sort that lets a weak member lead; the brands of an exclusion;
keyboard slips of kind words; tastes read once after the topic is carried.

Word-level tests read the message only; the card tests ingest a few hand-written crawl records (the raw
crawl's shape) into a fresh data directory and ask one question, with the expected cards worked out by
hand from the records.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from matjip.nlu.kinds import close_kind_word, detect_kinds
from support.chat import FRIDAY_EVENING
from support.records import ask_over, ingest_records, talk_over
from support.records import card_ids as ids
from support.records import north_of_jamsil as record

# --- class 6: a dish said with 맛집/집 is the dish, as menus write it ---------------------------------


@pytest.mark.parametrize(
    ("text", "dish"),
    [
        ("가락동 짬뽕맛집", "짬뽕"),
        ("탕수육맛집 추천", "탕수육"),
        ("잠실 꿔바로우맛집", "꿔바로우"),
    ],
)
def test_a_dish_said_as_its_matjip_is_the_dish_itself(text: str, dish: str) -> None:
    assert detect_kinds(text).dishes == [dish]


def test_a_dish_matjip_puts_the_places_listing_the_dish_first(tmp_path: Path) -> None:
    # "잠실역 짬뽕맛집": the nearer, busier 중국집 lists no 짬뽕; the one listing 짬뽕 comes first
    records = [
        record("noj", "대박반점", "중식>중국요리", 100, ["짜장면", "탕수육", "볶음밥"], reviewCount=200),
        record("jjam", "홍복", "중식>중국요리", 300, ["짜장면", "삼선짬뽕", "탕수육"], reviewCount=20),
    ]
    r = ask_over(tmp_path, records, "잠실역 짬뽕맛집", FRIDAY_EVENING)
    assert ids(r)[:1] == ["jjam"]


# --- classes 3 and 6: kinds by their everyday and described names ----------------------------------


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("암사동 중국음식", "중국집"),
        ("중국 음식 먹고 싶다", "중국집"),
        ("근처 중식집", "중국집"),
        ("돼지뼈 넣고 푹 끓인 거 석촌 쪽에", "감자탕"),
        ("돼지 등뼈 우린 국물", "감자탕"),
    ],
)
def test_everyday_and_described_names_of_a_kind(text: str, kind: str) -> None:
    assert detect_kinds(text).kinds == [kind]


# --- class 10: "유명한" is what 맛집 means, and a weak member never leads ---------------------------


def test_a_famous_kind_is_led_by_its_own_places_not_a_better_rated_weak_member(tmp_path: Path) -> None:
    # "잠실역 유명한 고깃집": the 곱창 house is nearer, better rated (4.9) and busier, but a local's
    # 고깃집 is a grill of cuts: the 삼겹살 grill (4.2, 80 reviews) comes first
    records = [
        record(
            "gop",
            "황소곱창",
            "한식>육류,고기>곱창,막창",
            100,
            ["소곱창", "막창", "대창"],
            reviewCount=300,
            rating=4.9,
        ),
        record(
            "pork",
            "돈돈숯불",
            "한식>육류,고기>삼겹살",
            300,
            ["생삼겹살", "목살", "항정살"],
            reviewCount=80,
            rating=4.2,
        ),
    ]
    r = ask_over(tmp_path, records, "잠실역 유명한 고깃집", FRIDAY_EVENING)
    assert ids(r)[:1] == ["pork"]


# --- class 4 (brands): brands ruled out name the kind asked --------------------------------------


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("잠실 맥날 롯데리아 말고 수제", "수제버거"),
        ("버거킹 말고 수제로 먹고 싶은데", "수제버거"),
        ("스타벅스 투썸 말고 조용한 데", "카페"),
        ("파바 뚜쥬 말고", "베이커리·빵집"),
    ],
)
def test_brands_ruled_out_with_no_kind_said_ask_for_their_kind(text: str, kind: str) -> None:
    assert detect_kinds(text).kinds == [kind]


def test_a_local_shop_of_a_kind_said_bare_rules_chains_out() -> None:
    assert detect_kinds("교촌 bhc 말고 동네 치킨").exclude_chains


def test_burger_brands_ruled_out_leave_the_craft_burger_house(tmp_path: Path) -> None:
    # "잠실역 맥날 롯데리아 말고 수제": both brands' branches (nearer, busier) and the busy 국수 house are
    # out of the answer; the 수제버거 house (20 reviews) leads
    records = [
        record("mc", "맥도날드 잠실점", "양식>햄버거>맥도날드", 100, ["빅맥", "치즈버거"], reviewCount=400),
        record(
            "lot",
            "롯데리아 잠실역점",
            "양식>햄버거>롯데리아",
            150,
            ["불고기버거", "새우버거"],
            reviewCount=300,
        ),
        record("noodle", "잠실국수", "한식>국수", 120, ["잔치국수", "비빔국수"], reviewCount=500),
        record(
            "craft", "버거보이", "양식>햄버거", 400, ["치즈버거", "베이컨버거", "감자튀김"], reviewCount=20
        ),
    ]
    r = ask_over(tmp_path, records, "잠실역 맥날 롯데리아 말고 수제", FRIDAY_EVENING)
    assert ids(r)[:1] == ["craft"]
    assert not {"mc", "lot", "noodle"} & set(ids(r))


# --- class 5: slips of the hand ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "word"),
    [
        ("곱찹", "곱창"),  # the ㅂ of 곱 typed again for the ㅇ of 창
        ("횟짐", "횟집"),  # ㅁ for ㅂ: the key below it
        ("보쌉", "보쌈"),  # ㅂ for the ㅁ 받침: the key above it
    ],
)
def test_a_kind_word_with_a_neighbouring_key_or_a_letter_typed_twice_is_taken(typed: str, word: str) -> None:
    assert close_kind_word(typed) == word


@pytest.mark.parametrize("text", ["강동역 피자 차 대기 편한 곳", "오래 고아서 뽀얀 국물"])
def test_a_vowel_key_away_is_no_slip(text: str) -> None:
    assert detect_kinds(text).corrections == []


def test_a_slip_of_the_hand_is_searched_as_its_kind_and_said(tmp_path: Path) -> None:
    # "잠실역 곱찹": the 곱창 house (10 reviews), not the busier 국밥 house nearer
    records = [
        record(
            "gop", "황소곱창", "한식>육류,고기>곱창,막창", 300, ["소곱창", "막창", "대창"], reviewCount=10
        ),
        record("guk", "옛날국밥", "한식>국밥", 100, ["순대국밥", "수육"], reviewCount=300),
    ]
    r = ask_over(tmp_path, records, "잠실역 곱찹", FRIDAY_EVENING)
    assert ids(r) == ["gop"]
    assert "'곱찹'은 '곱창'으로 알아듣고" in r.answer


# --- class 16: tastes read once, on the topic the turn searches -------------------------------------


def test_a_milder_taste_after_a_list_reads_as_if_said_with_its_kind(tmp_path: Path) -> None:
    # "잠실역 분식" then "안 매운 데로": read as "잠실역 분식 안 매운 데" in one message — 분식 is an
    # umbrella whose 떡볶이 members are the taste itself, so the 떡볶이 house (300 reviews) is ruled out
    # and the 김밥 house stays; the answer says so
    records = [
        record("tteok", "엄마떡볶이", "분식>떡볶이", 100, ["떡볶이", "튀김", "순대"], reviewCount=300),
        record("kim", "김밥명가", "분식>김밥", 200, ["참치김밥", "라면", "쫄면"], reviewCount=20),
    ]
    data = ingest_records(tmp_path, records)
    first, second = talk_over(data, ["잠실역 분식", "안 매운 데로"], FRIDAY_EVENING)
    assert set(ids(first)) == {"tteok", "kim"}
    assert ids(second) == ["kim"]
    assert "매운 음식이 중심인 집" in second.answer
    (one,) = talk_over(data, ["잠실역 분식 안 매운 데로"], FRIDAY_EVENING)
    assert ids(one) == ids(second)


# --- class 3: described foods — late-night food, something sweet; English-only kind words -----------


@pytest.mark.parametrize(
    ("text", "member"),
    [
        ("야식 뭐 먹을까 오금동", "족발·보쌈"),
        ("밤에 출출한데 시켜 먹을 거", "치킨집"),
        ("당 떨어지는데 잠실새내", "디저트 카페"),
        ("단 거 땡겨", "베이커리·빵집"),
        ("달콤한 거 먹고 싶다", "아이스크림"),
    ],
)
def test_late_night_food_and_something_sweet_are_families(text: str, member: str) -> None:
    frame = detect_kinds(text)
    assert member in frame.kinds and frame.theme is not None


def test_something_sweet_is_searched_as_its_family_not_as_a_name(tmp_path: Path) -> None:
    # "잠실역 달달한 거 땡겨": "달달한" is also the start of a bakery's name, but the message asks for
    # something sweet: both sweet places (the cake café, 50 reviews, first), never the busy 국밥 house
    records = [
        record("sweet", "달달한 과자점", "간식>제과,베이커리", 100, ["마들렌", "휘낭시에"], reviewCount=5),
        record(
            "cake",
            "르케이크",
            "카페>디저트카페",
            300,
            ["딸기케이크", "치즈케이크", "아메리카노"],
            reviewCount=50,
        ),
        record("guk", "옛날국밥", "한식>국밥", 150, ["순대국밥", "수육"], reviewCount=300),
    ]
    r = ask_over(tmp_path, records, "잠실역 달달한 거 땡겨", FRIDAY_EVENING)
    assert ids(r) == ["cake", "sweet"]
    assert "'단 거'는 데이터에 없어서" in r.answer


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("best bbq near 방이역", ["고깃집"]),
        ("good barbecue place around 잠실", ["고깃집"]),
        ("bbq chicken near jamsil", ["치킨집"]),
        ("잠실 bbq", []),  # in Korean, the chicken chain
    ],
)
def test_bbq_said_in_english_is_korean_barbecue(text: str, kinds: list[str]) -> None:
    assert detect_kinds(text).kinds == kinds


# --- class 6: a colloquial kind means what a local means ---------------------------------------------


def test_a_singing_room_or_a_club_filed_as_a_bar_follows_the_bars(tmp_path: Path) -> None:
    # "잠실역 술집": the 노래주점 and the music club are nearer and busier, but a local's 술집 is a bar
    records = [
        record("sing", "퀸노래주점", "술집", 100, ["맥주", "양주세트"], reviewCount=200),
        record("club", "클럽블루문", "술집", 150, ["칵테일", "맥주"], reviewCount=150),
        record(
            "bar", "한잔의추억", "술집>호프,요리주점", 400, ["생맥주", "치킨", "골뱅이무침"], reviewCount=10
        ),
    ]
    r = ask_over(tmp_path, records, "잠실역 술집", FRIDAY_EVENING)
    assert ids(r)[:1] == ["bar"]


@pytest.mark.parametrize(
    "text", ["합정 면요리 잘하는 데", "면 종류 아무거나 괜찮아", "noodle place near jamsil"]
)
def test_noodles_of_any_sort_are_the_noodle_family(text: str) -> None:
    frame = detect_kinds(text)
    assert {"국수·면", "냉면", "라멘", "우동"} <= set(frame.kinds) and frame.theme is not None


def test_a_chicken_feet_house_listing_whole_chicken_feet_is_no_tongdak_house(tmp_path: Path) -> None:
    # "잠실역 통닭집": "통닭발" on a 닭발 house's menu names no 통닭
    records = [
        record(
            "feet",
            "불타는닭발",
            "한식>육류,고기>닭요리",
            100,
            ["국물닭발", "통닭발", "주먹밥"],
            reviewCount=200,
        ),
        record("tong", "옛날통닭", "치킨", 300, ["옛날통닭", "양념통닭"], reviewCount=10),
    ]
    r = ask_over(tmp_path, records, "잠실역 통닭집", FRIDAY_EVENING)
    assert ids(r) == ["tong"]
