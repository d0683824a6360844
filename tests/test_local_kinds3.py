"""Issue 24, classes 3, 5, 6, 10 and 12 as policies (session of 2026-11-28, second): a menu mostly of
the kind's dishes competes with specialists by its trust, places done for today come after, "한잔"
is a drink, a 해장국 house is a 국밥집, a dish said as a kind is looked for on the menu, a slip of
an aspirated for a tense consonant is a typo.

Each test ingests a few hand-written crawl records (the raw crawl's shape) into a fresh data
directory and asks one question; expected values are worked out by hand from the records.
"""

from __future__ import annotations

from pathlib import Path
from zoneinfo import ZoneInfo

from support.chat import FRIDAY_EVENING
from support.records import ask_over
from support.records import card_ids as ids
from support.records import north_of_jamsil as record

SEOUL = ZoneInfo("Asia/Seoul")


# --- class 10: a well-known place whose menu is mostly the kind ---------------------------------


def test_a_well_known_house_mostly_serving_the_kind_goes_before_a_barely_known_specialist(
    tmp_path: Path,
) -> None:
    # "잠실역 칼국수": a 닭한마리 house (category 닭요리) two of whose three menu lines are 칼국수, 150
    # reviews; a 칼국수 house with 1 review; a 칼국수 house with 80 reviews. By hand (index.ranking.trust,
    # no rating, no tags, a priced menu, no hours: 0.55·log(1+n)/log(301) + 0.08 + 0.05; radius 1 km,
    # up to 25 % off at its edge): the 80-review specialist 0.55·0.770+0.13 = 0.554 ×0.875 = 0.485;
    # the 닭한마리 house 0.55·0.879+0.13 = 0.613 ×0.925 ×0.45 (menu evidence, its category another
    # kind) = 0.255; the 1-review specialist 0.55·0.121+0.13 = 0.197 ×0.95 = 0.187. Before, every
    # category specialist went first whatever its reviews.
    records = [
        record("obscure", "원칼국수", "한식>국수>칼국수", 200, ["칼국수", "만두"], reviewCount=1),
        record(
            "dak",
            "큰손닭한마리",
            "한식>육류,고기>닭요리",
            300,
            ["닭한마리", "닭칼국수", "칼국수 사리"],
            reviewCount=150,
        ),
        record("known", "명동칼국수", "한식>국수>칼국수", 500, ["칼국수", "비빔국수"], reviewCount=80),
    ]
    r = ask_over(tmp_path, records, "잠실역 칼국수", FRIDAY_EVENING)
    assert ids(r)[:3] == ["known", "dak", "obscure"]


# --- class 12: asked today, a place done for today goes after ------------------------------------


def test_by_day_a_place_done_for_today_comes_after_an_open_one(tmp_path: Path) -> None:
    # Friday 19:30, no time asked: the lunch-only 칼국수 house (10:00~15:00) is done for today
    # although 200 people reviewed it; the one open until 21:00 (20 reviews) comes first.
    records = [
        record(
            "lunch",
            "점심칼국수",
            "한식>국수>칼국수",
            200,
            ["칼국수", "만두"],
            reviewCount=200,
            businessHours="매일 10:00 ~ 15:00",
        ),
        record(
            "open",
            "저녁칼국수",
            "한식>국수>칼국수",
            300,
            ["칼국수", "만두"],
            reviewCount=20,
            businessHours="매일 11:00 ~ 21:00",
        ),
    ]
    r = ask_over(tmp_path, records, "잠실역 칼국수", FRIDAY_EVENING)
    assert ids(r)[:2] == ["open", "lunch"]


# --- classes 3 and 6: the kind a local means --------------------------------------------------


def test_hanjan_said_with_no_kind_is_a_drink(tmp_path: Path) -> None:
    # "퇴근하고 한잔": a bar (술집 category, 3 reviews) and a 국밥 house with 300 reviews; only the
    # bar is a place to drink, and the answer says how "한잔" was read.
    records = [
        record("bar", "잠실골목포차", "술집>호프,요리주점", 300, ["모듬전", "골뱅이무침"], reviewCount=3),
        record("soup", "잠실국밥", "한식>국밥", 200, ["순대국밥", "수육"], reviewCount=300),
    ]
    r = ask_over(tmp_path, records, "잠실역 퇴근하고 한잔", FRIDAY_EVENING)
    assert ids(r) == ["bar"]
    assert "술 한잔" in r.answer


def test_a_haejangguk_house_is_a_gukbap_place_and_a_gamjatang_house_is_not(tmp_path: Path) -> None:
    # "잠실역 국밥": the 해장국 house (category 한식>해장국, 100 reviews) is a 국밥집, a weaker member
    # (after the 순대국 house with 2 reviews); the 감자탕 house (300 reviews) is no 국밥집 at all.
    records = [
        record("haejang", "양평해장국", "한식>해장국", 300, ["선지해장국", "뼈해장국"], reviewCount=100),
        record("sundae", "순대국집", "한식>순대", 200, ["순대국", "수육"], reviewCount=2),
        record("gamja", "감자탕집", "한식>감자탕", 100, ["감자탕 대", "감자탕 중"], reviewCount=300),
    ]
    r = ask_over(tmp_path, records, "잠실역 국밥", FRIDAY_EVENING)
    assert ids(r) == ["sundae", "haejang"]


def test_a_dish_said_as_its_kind_is_looked_for_on_the_menu(tmp_path: Path) -> None:
    # "잠실역 육회비빔밥": both are 육회 places; only the 한우 house lists 육회비빔밥, so it goes first
    # although the 육회 specialist has 200 reviews to its 10.
    records = [
        record(
            "yukhoe", "잠실육회", "한식>육류,고기", 200, ["육회", "육사시미", "육회탕탕이"], reviewCount=200
        ),
        record("hanwoo", "한우식당", "한식>육류,고기", 300, ["육회비빔밥", "육회", "불고기"], reviewCount=10),
    ]
    r = ask_over(tmp_path, records, "잠실역 육회비빔밥", FRIDAY_EVENING)
    assert ids(r)[:2] == ["hanwoo", "yukhoe"]


# --- class 5: a typo of an aspirated consonant said tense --------------------------------------


def test_an_aspirated_consonant_said_tense_is_a_typo_of_the_kind(tmp_path: Path) -> None:
    # "잠실 치낀": 치킨 with ㅋ said as ㄲ; the chicken place (3 reviews) is shown, not the 300-review
    # 국밥 house, and the answer says how the word was read.
    records = [
        record("chicken", "잠실통닭", "치킨", 300, ["후라이드치킨", "양념치킨"], reviewCount=3),
        record("soup", "잠실국밥", "한식>국밥", 200, ["순대국밥", "수육"], reviewCount=300),
    ]
    r = ask_over(tmp_path, records, "잠실역 치낀", FRIDAY_EVENING)
    assert ids(r) == ["chicken"]
    assert "'치낀'은 '치킨'" in r.answer
