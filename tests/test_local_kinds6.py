"""Issue 24, classes 3, 4, 6, 10, 12 and 16 as policies (session of 2026-11-28, fifth): the clock
said when it moves a pick; another day's hours on the cards; described dishes by their ingredients;
near kinds kept apart; tastes ruling out their dishes.

Word-level tests read the message only; the card tests ingest a few hand-written crawl records (the raw
crawl's shape) into a fresh data directory and ask one question, with the expected cards worked out by
hand from the records.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from matjip.nlu.kinds import detect_kinds
from support.chat import SEOUL
from support.records import ask_over
from support.records import card_ids as ids
from support.records import north_of_jamsil as record

SATURDAY_NIGHT = datetime(2026, 11, 28, 21, 35, tzinfo=SEOUL)  # night: "곧 마감" is closing by 22:35


# --- class 12: the clock moves a pick only when it says so ---------------------------------------------


def test_a_place_closing_within_the_hour_goes_after_open_ones_and_the_answer_says_so(tmp_path: Path) -> None:
    # 21:35, no time asked: 대왕 (200 reviews) closes at 22:00 (25 minutes left) — the open 장독대 (40
    # reviews, to 24:00) and 의정부 (12 reviews, 24 h) come first; 대왕 is named as put after them
    records = [
        record(
            "big",
            "대왕부대찌개",
            "한식>찌개,전골",
            100,
            ["부대찌개"],
            reviewCount=200,
            businessHours="매일 10:00 ~ 22:00",
        ),
        record(
            "mid",
            "장독대부대찌개",
            "한식>찌개,전골",
            300,
            ["부대찌개"],
            reviewCount=40,
            businessHours="매일 10:00 ~ 24:00",
        ),
        record(
            "low",
            "의정부부대찌개",
            "한식>찌개,전골",
            400,
            ["부대찌개"],
            reviewCount=12,
            businessHours="매일 00:00 ~ 24:00",
        ),
    ]
    r = ask_over(tmp_path, records, "잠실역 부대찌개 맛있는 데", SATURDAY_NIGHT)
    assert ids(r)[:2] == ["mid", "low"]
    first = r.answer.split("**1.")[0]
    assert "대왕부대찌개(곧 마감 · 22:00)" in first and "뒤로 뺐어요" in first
    # audit r7 F5–F10: the cards ahead are not all known to be open (no hours for today) — never claimed
    assert "영업 중인 곳 뒤로" not in first


def test_a_day_asked_late_at_night_shows_that_days_hours(tmp_path: Path) -> None:
    # Saturday 21:35, "일요일에 여는": Sunday is two and a half hours away, yet a whole day, not
    # tonight's small hours — the card shows Sunday's hours (일 10:00~20:00), not today's
    records = [
        record(
            "kal",
            "방이칼국수",
            "한식>국수>칼국수",
            100,
            ["칼국수"],
            reviewCount=30,
            businessHours="월~토 11:00 ~ 21:00, 일 10:00 ~ 20:00",
        ),
    ]
    r = ask_over(tmp_path, records, "잠실역 일요일에 여는 칼국수", SATURDAY_NIGHT)
    assert ids(r) == ["kal"]
    assert "일요일 영업: 10:00~20:00" in r.answer


# --- class 3: dishes described by what goes in them, and 부침개 by its everyday name ---------------------


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("비도 오고 부침개 생각나네 문정", "전·막걸리"),
        ("밀가루 반죽 얇게 펴서 부친 거", "전·막걸리"),
        ("녹두 갈아서 부친 거 파는 데", "전·막걸리"),
        ("생선 넣고 맵게 끓인 탕", "해물탕·매운탕"),
        ("우럭 넣고 얼큰하게 끓인 거 천호", "해물탕·매운탕"),
        ("선지 넣은 국 잘하는 데", "해장국"),
        ("황태 국 먹고 싶다", "해장국"),
        ("소고기 갈비 넣고 맑게 끓인 탕", "갈비탕"),
        ("곱창 넣고 끓인 국밥", "국밥·순대국"),
    ],
)
def test_a_dish_described_by_what_goes_in_it_is_its_kind(text: str, kind: str) -> None:
    assert detect_kinds(text).kinds == [kind]


def test_a_grilled_description_is_not_the_soup() -> None:
    # "곱창 철판에 볶은 거" stays 곱창 (the soup entry is for a broth), and 돼지 등뼈 stays 감자탕
    assert detect_kinds("소곱창 철판에 볶은 거").kinds == ["곱창·막창"]
    assert detect_kinds("돼지 등뼈 넣고 얼큰하게 끓인 탕").kinds == ["감자탕"]


# --- class 16: a spicy sauce ruled out rules out the kinds made with it -------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "매운 양념 안한 닭요리 송파",
        "빨간 양념 말고 닭요리",
        "고추장 양념 빼고 닭 요리 잠실",
        "고춧가루 안 들어간 국물",
    ],
)
def test_a_spicy_sauce_ruled_out_is_the_spicy_taste(text: str) -> None:
    assert detect_kinds(text).tastes_avoided == ["매운"]


def test_plain_meat_is_no_taste() -> None:
    # "양념 안 한 고기" is unmarinated meat, not a taste ruled out
    assert detect_kinds("양념 안 한 고기").tastes_avoided == []


def test_no_spicy_sauce_leaves_out_the_spicy_members_of_the_kind(tmp_path: Path) -> None:
    # "매운 양념 안한 닭요리": the 닭갈비 house (200 reviews, nearest) is the spicy member of 닭요리 —
    # left out; the 백숙 house (30) and the 닭한마리 house (12) are shown, better trusted first
    records = [
        record(
            "galbi", "춘천닭갈비", "한식>육류,고기>닭요리", 100, ["닭갈비", "치즈닭갈비"], reviewCount=200
        ),
        record("baek", "토종닭백숙", "한식>육류,고기>닭요리", 300, ["백숙", "닭죽"], reviewCount=30),
        record(
            "hanmari",
            "원조닭한마리",
            "한식>육류,고기>닭요리",
            500,
            ["닭한마리", "칼국수사리"],
            reviewCount=12,
        ),
    ]
    r = ask_over(tmp_path, records, "잠실역 매운 양념 안한 닭요리", SATURDAY_NIGHT.replace(hour=18))
    assert ids(r) == ["baek", "hanmari"]


# --- classes 6 and 11: a dish asked is evidenced on the card; 김치찜 is a dish of the 김치찌개 house ---------


def test_a_dish_matjip_card_shows_the_dish_on_the_menu(tmp_path: Path) -> None:
    # "잠실역 짬뽕 맛집": the 중국집 listing 삼선짬뽕 (12,000원 as north_of_jamsil prices it) says so
    records = [
        record("jj", "홍복", "중식>중국요리", 300, ["짜장면", "삼선짬뽕", "탕수육"], reviewCount=20),
    ]
    r = ask_over(tmp_path, records, "잠실역 짬뽕 맛집", SATURDAY_NIGHT.replace(hour=18))
    assert ids(r) == ["jj"]
    assert "메뉴 '삼선짬뽕' 12,000원" in r.answer


def test_kimchi_jjim_is_a_dish_the_kimchi_stew_houses_list_first(tmp_path: Path) -> None:
    # "김치찜 하는 곳 잠실": the busier 김치찌개 house (150 reviews) has no 김치찜; the one listing
    # 묵은지김치찜 (20 reviews) comes first
    records = [
        record("stew", "백채김치찌개", "한식>찌개,전골", 100, ["김치찌개", "계란말이"], reviewCount=150),
        record("jjim", "엄마손김치찌개", "한식>찌개,전골", 300, ["김치찌개", "묵은지김치찜"], reviewCount=20),
    ]
    assert detect_kinds("김치찜 하는 곳 잠실").dishes == ["김치찜"]
    r = ask_over(tmp_path, records, "잠실역 김치찜 하는 곳", SATURDAY_NIGHT.replace(hour=18))
    assert ids(r)[:1] == ["jjim"]


# --- class 6: near kinds — a set meal of a food, lamb skewers, a 닭강정 shop ---------------------------------


@pytest.mark.parametrize(
    ("text", "kinds_said"),
    [
        ("생선구이 정식 송파", ["생선구이"]),
        ("고등어 정식 잘하는 데", ["생선구이"]),
        ("돈까스 정식 먹을 곳", ["돈까스"]),
        ("제육 정식 잠실", ["백반"]),
        ("한정식 잠실", ["한정식"]),
        ("정식 파는 곳", ["한정식"]),
        ("양고기 꼬치 쯔란 찍어먹는 데 천호", ["양고기·양꼬치"]),
        ("양 꼬치 먹을 데", ["양고기·양꼬치"]),
        ("닭 꼬치 집", ["야키토리·꼬치"]),
    ],
)
def test_a_set_meal_and_a_skewer_are_the_food_they_are_of(text: str, kinds_said: list[str]) -> None:
    assert detect_kinds(text).kinds == kinds_said


def test_a_gangjeong_shop_is_not_what_chicken_means(tmp_path: Path) -> None:
    # "잠실역 치킨": 천하강정치킨 (filed 치킨, 120 reviews, nearest) sells 닭강정 first — the two fried
    # chicken places (30 and 8 reviews) come before it
    records = [
        record(
            "gang", "천하강정치킨", "치킨", 100, ["닭강정(중)", "간장강정(중)", "후라이드"], reviewCount=120
        ),
        record("fried", "동네통닭", "치킨", 300, ["후라이드", "양념치킨", "순살치킨"], reviewCount=30),
        record("yang", "맛나치킨", "치킨", 500, ["후라이드", "간장치킨"], reviewCount=8),
    ]
    r = ask_over(tmp_path, records, "잠실역 치킨", SATURDAY_NIGHT.replace(hour=18))
    assert ids(r)[:2] == ["fried", "yang"]


# --- classes 3 and 10: a family's word is said in one piece; a dish-named kind filled from menus ---------


@pytest.mark.parametrize("text", ["코엑스 근처 유명한 식당", "조용한 식당 잠실", "깔끔한 식당 추천"])
def test_an_adjective_before_siktang_names_no_hansik(text: str) -> None:
    # "유명한 식당" is any restaurant: its spaces removed it reads "…한식당", yet no 한식 was said
    assert detect_kinds(text).kinds == []


def test_hansik_said_is_still_the_hansik_family() -> None:
    assert "백반" in detect_kinds("잠실 한식 식당").kinds


def test_a_dish_named_kind_with_few_houses_is_filled_by_the_menus_listing_it(tmp_path: Path) -> None:
    # "잠실역 갈비탕": one 갈비탕 house (named so, 2 reviews); the 고깃집 listing 갈비탕 (80 reviews) and
    # the 냉면 house listing it (30) follow, the dish on their cards; the 고깃집 without it stays out
    records = [
        record("own", "왕갈비탕", "한식>육류,고기>갈비", 100, ["왕갈비탕"], reviewCount=2),
        record(
            "grill", "명가고기", "한식>육류,고기", 300, ["삼겹살", "목살", "항정살", "갈비탕"], reviewCount=80
        ),
        record(
            "cold", "함흥면옥", "한식>냉면", 400, ["물냉면", "비빔냉면", "회냉면", "갈비탕"], reviewCount=30
        ),
        record("none", "숯불고기", "한식>육류,고기", 200, ["삼겹살", "목살"], reviewCount=300),
    ]
    r = ask_over(tmp_path, records, "잠실역 갈비탕", SATURDAY_NIGHT.replace(hour=18))
    assert ids(r) == ["own", "grill", "cold"]
    assert "메뉴 '갈비탕'" in r.answer
