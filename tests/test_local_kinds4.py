"""Issue 24, classes 3, 4, 5 and 6 as policies (session of 2026-11-28, third): a two-syllable kind word
typed with a sound-alike letter or a dropped 받침 is taken (and said); a food described by what it is
made of is its kind; chains ruled out in every wording; colloquial and English kind words.

Word-level tests read the message only; the card tests ingest a few hand-written crawl records (the raw
crawl's shape) into a fresh data directory and ask one question, with the expected cards worked out by
hand from the records.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from matjip.nlu.kinds import close_kind_word, detect_kinds
from support.chat import FRIDAY_EVENING
from support.records import ask_over
from support.records import card_ids as ids
from support.records import north_of_jamsil as record

# --- class 5: typos of short kind words -----------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "word"),
    [
        ("곱참", "곱창"),  # a nasal 받침 for another (ㅇ → ㅁ)
        ("보싼", "보쌈"),  # ㅁ → ㄴ
        ("짬뽄", "짬뽕"),  # ㅇ → ㄴ
        ("라맨", "라멘"),  # ㅐ for ㅔ
        ("족바", "족발"),  # the 받침 dropped
        ("보싸", "보쌈"),  # the 받침 dropped
        ("막짱", "막창"),  # a tense for an aspirated consonant
    ],
)
def test_a_short_kind_word_with_a_sound_alike_letter_or_a_dropped_batchim_is_taken(
    typed: str, word: str
) -> None:
    assert close_kind_word(typed) == word


@pytest.mark.parametrize(
    "text",
    [
        "강남역 10분 거리 카페",
        "지하철 타고 가는 길에 햄버거",
        "와이파이도 되는 카페",
        "꼬마김밥 맛집",
        "왕갈비 맛집",
    ],
)
def test_ordinary_words_a_letter_away_from_a_kind_word_are_not_typos(text: str) -> None:
    assert detect_kinds(text).corrections == []


def test_a_short_typo_is_searched_as_its_kind_and_said(tmp_path: Path) -> None:
    # "잠실역 곱참": the 곱창 house (100 m, 10 reviews), not the busier 국밥 house next door
    records = [
        record(
            "gop", "황소곱창", "한식>육류,고기>곱창,막창", 300, ["소곱창", "막창", "대창"], reviewCount=10
        ),
        record("guk", "옛날국밥", "한식>국밥", 100, ["순대국밥", "수육"], reviewCount=300),
    ]
    r = ask_over(tmp_path, records, "잠실역 곱참", FRIDAY_EVENING)
    assert ids(r) == ["gop"]
    assert "'곱창'" in r.answer and "알아듣고" in r.answer


# --- class 4: chains ruled out in every wording ---------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "체인점 x 카페",
        "브랜드 아닌 치킨집",
        "대기업 말고 빵집",
        "체인점은 패스하고 국밥",
        "프랜차이즈 아니었으면 좋겠어 족발",
        "김밥천국 이런데 말고 김밥집",  # a named chain as an example: every chain
        "이디야 그런 데 빼고 카페",
        "파바 이런 곳 ㄴㄴ 빵집",
    ],
)
def test_every_wording_of_not_a_chain_rules_chains_out(text: str) -> None:
    assert detect_kinds(text).exclude_chains


def test_ordinary_sentences_with_a_chain_word_do_not_rule_chains_out() -> None:
    assert not detect_kinds("대기업 회식 장소 고깃집").exclude_chains
    assert not detect_kinds("파바 뚜쥬 말고 빵집").exclude_chains  # those two brands only


def test_a_branch_of_a_place_whose_name_ends_in_jeong_is_a_chain(tmp_path: Path) -> None:
    # "합정점", "문정점" end in 정점 (an ordinary word "peak"), but they are branches: "체인 말고" rules
    # the branch out; the one-shop 김밥 house stays; "김밥천국 이런데 말고" is a search, not a question
    # about 김밥천국
    records = [
        record("branch", "청담동마녀김밥 문정점", "분식", 200, ["마녀김밥", "참치김밥"], reviewCount=90),
        record("heaven", "김밥천국", "분식", 150, ["김밥", "라면"], reviewCount=40),
        record("local", "마미김밥", "분식", 300, ["마미김밥", "참치김밥"], reviewCount=10),
    ]
    r = ask_over(tmp_path, records, "잠실역 김밥집 김밥천국 이런데 말고", FRIDAY_EVENING)
    assert ids(r) == ["local"]


# --- class 3: a dish described by what it is made of ------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("잠실 돼지 앞다리 삶아서 썰어 주는 집", "족발"),
        ("등뼈랑 감자 넣고 끓인 거 잠실새내", "감자탕"),
        ("사골 우려서 뽀얀 국물 나오는 데", "설렁탕·곰탕"),
        ("메밀면 동치미 국물에 말아 주는 곳", "막국수"),
        ("밀가루 반죽 뜯어 넣은 국 먹고 싶다", "수제비"),
        ("새우 튀김 밥 위에 올려 주는 데", "텐동"),
        ("미꾸라지 갈아서 끓인 거", "추어탕"),
        ("닭에 인삼 대추 넣고 끓인 거", "삼계탕"),
        ("춘장에 볶은 면", "중국집"),
        ("입이 얼얼한 국물 요리", "마라탕"),
        ("잠실 고기 구워 먹을 데", "고깃집"),
    ],
)
def test_a_dish_described_by_what_it_is_made_of_is_its_kind_and_said(text: str, kind: str) -> None:
    frame = detect_kinds(text)
    assert frame.kinds == [kind]
    assert frame.theme is not None and "알아듣고" in frame.theme


def test_a_description_does_not_override_a_kind_named_apart() -> None:
    assert detect_kinds("닭갈비 국물 있는 데").kinds == ["닭갈비"]  # no 갈비탕
    assert detect_kinds("감자튀김 맛있는 버거").kinds == ["버거"]


def test_a_described_dish_is_searched_as_its_kind(tmp_path: Path) -> None:
    # "석촌역 돼지발 삶아서 썰어주는 거": the 족발 house (20 reviews), not the busier 국밥 house nearer
    records = [
        record("jok", "성내족발", "한식>육류,고기>족발,보쌈", 300, ["족발", "보쌈"], reviewCount=20),
        record("guk", "옛날국밥", "한식>국밥", 100, ["순대국밥", "수육"], reviewCount=300),
    ]
    r = ask_over(tmp_path, records, "잠실역 돼지발 삶아서 썰어주는 거 먹고싶음", FRIDAY_EVENING)
    assert ids(r) == ["jok"]
    assert "'족발'로 알아듣고" in r.answer
    assert "확인할 수 없어서" not in r.answer  # the description's words are not dropped conditions


# --- class 5 (English): kind words said in English -------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("tteokbokki near jamsil", "떡볶이"),
        ("pork cutlet near jamsil station", "돈까스"),
        ("grilled meat near seokchon", "고깃집"),
        ("kimchi stew around songpa", "김치찌개"),
        ("army stew in jamsil", "부대찌개"),
        ("pig feet near bangi", "족발"),
        ("ginseng chicken soup", "삼계탕"),
        ("cold noodles near cheonho", "냉면"),
    ],
)
def test_a_kind_said_in_english_is_the_kind(text: str, kind: str) -> None:
    assert detect_kinds(text).kinds == [kind]


def test_an_english_dish_inside_another_word_is_not_a_kind() -> None:
    assert detect_kinds("bulgogi near jamsil").kinds == []  # "gogi" is no 고깃집 here


def test_a_korean_dish_said_in_english_is_searched_on_menus(tmp_path: Path) -> None:
    # "bibimbap near jamsil station": the place whose menu lists 비빔밥 (10 reviews), not the busier
    # 곱창 house; no word of the question is said to be unknown
    records = [
        record("bib", "전주식당", "한식", 300, ["돌솥비빔밥", "된장찌개"], reviewCount=10),
        record("gop", "황소곱창", "한식>육류,고기>곱창,막창", 100, ["소곱창", "막창"], reviewCount=300),
    ]
    r = ask_over(tmp_path, records, "where can i get bibimbap near jamsil station", FRIDAY_EVENING)
    assert ids(r)[:1] == ["bib"]
    assert "확인할 수 없어서" not in r.answer


# --- class 6: colloquial kinds: 고깃집, 백반집; a kind inside a place's name ----------------------------


def test_a_gopchang_house_under_a_bare_meat_path_goes_after_the_grills(tmp_path: Path) -> None:
    # "잠실역 고깃집": all three filed under the bare "육류" path. The 곱창 house (its name and menu
    # say 곱창) is nearest and best reviewed, but a local's 고깃집 is a grill of cuts first: the 삼겹살
    # grill (80 reviews) and the 한우 grill (20 reviews) come before it.
    records = [
        record("gop", "황소양곱창", "육류", 100, ["곱창", "대창", "막창"], reviewCount=300),
        record("pork", "돈돈숯불", "육류", 300, ["생삼겹살", "목살", "항정살"], reviewCount=80),
        record("beef", "소담한우", "육류", 500, ["한우등심", "차돌박이", "갈빗살"], reviewCount=20),
    ]
    r = ask_over(tmp_path, records, "잠실역 고깃집", FRIDAY_EVENING)
    assert ids(r) == ["pork", "beef", "gop"]


def test_a_bare_korean_place_of_home_style_meals_is_a_baekban_house(tmp_path: Path) -> None:
    # "잠실역 백반집": the bare "한식" place whose menu is 제육·된장찌개·김치찌개 (3 of 4 lines) is a
    # 백반집; the 한식 place selling 칼국수 and 만두 is not, whatever its reviews
    records = [
        record(
            "home", "엄마손식당", "한식", 300, ["제육볶음", "된장찌개", "김치찌개", "공기밥"], reviewCount=30
        ),
        record("noodle", "명가손칼국수", "한식", 100, ["칼국수", "만두"], reviewCount=300),
    ]
    r = ask_over(tmp_path, records, "잠실역 백반집", FRIDAY_EVENING)
    assert ids(r)[:1] == ["home"]


def test_a_kind_inside_a_place_name_yields_to_the_kind_asked() -> None:
    assert detect_kinds("천호 쭈꾸미골목 근처 아구찜").kinds == ["아구찜"]
    assert detect_kinds("신당동 떡볶이타운").kinds == ["떡볶이"]  # the only kind said: kept


# --- class 6 (sub-kinds): a dish asked alone puts the places known for it first ------------------------


def test_a_dish_asked_alone_puts_the_places_known_for_it_first(tmp_path: Path) -> None:
    # "잠실역 짬뽕 맛집": three 중국집 list 짬뽕. "○○짬뽕" says it in its name (20 reviews) and goes
    # first; then the busiest (one 짬뽕 line of five, 300 reviews) before the less known
    records = [
        record(
            "big",
            "대성반점",
            "중식>중국요리",
            100,
            ["짜장면", "짬뽕", "탕수육", "볶음밥", "깐풍기"],
            reviewCount=300,
        ),
        record("named", "불타는짬뽕", "중식>중국요리", 400, ["불짬뽕", "짜장면"], reviewCount=20),
        record(
            "small",
            "홍콩루",
            "중식>중국요리",
            300,
            ["짬뽕", "짜장면", "탕수육", "군만두", "볶음밥"],
            reviewCount=5,
        ),
    ]
    r = ask_over(tmp_path, records, "잠실역 짬뽕 맛집", FRIDAY_EVENING)
    assert ids(r) == ["named", "big", "small"]
