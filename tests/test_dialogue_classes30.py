"""Issue 24, understanding and follow-up classes of helper dlg30 (session s41), each failing on main 92dd2af:

- what goes into a dish, ruled out ("고수 빼고", "오이 들어간거 싫어요", "선지는 못먹어서", "땅콩 알러지"):
  a menu term excluded (data/words/menu.toml ``ingredients``, ``ingredient_cues``), never a kind's typo
  (오이 is no 오리); a follow-up ruling one out narrows the list shown (dialogue_test20 eo081, eo082,
  eo158; dialogue_test19 en074);
- a cut of the belly written without 살 is the dish: 꽃삼겹, 통삼겹 count as 삼겹살 (``menu_forms``), so a
  widening line never calls a house serving them "another kind" (audit r14 F4);
- a kind named by its dish and still short: any place whose menu serves the dish follows ('제육쌈밥정식'
  for "쌈밥", audit r14 Q22);
- an elliptic follow-up ("거기 라떼는?") after a price question asks the price again, of that dish;
- a kind's word typed glued to a station ("당산역양꼬지맛집") or as an English plural in -ies ("bakeries")
  is read (dialogue_test20 eo099, eo151).

The dialogues run the real offline agent over a few hand-written crawl records ingested into a
fresh data directory; expected values are worked out by hand from the records.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from matjip.index.reference import line_matches
from support.records import ingest_records, talk_over
from support.records import near_jamsil as near

SEOUL = ZoneInfo("Asia/Seoul")
WEDNESDAY_NOON = datetime(2026, 11, 25, 12, 0, tzinfo=SEOUL)
DAILY = "매일 10:00 ~ 23:00"

RECORDS = [
    # 냉면: one lists a cucumber dish
    near("cuke", "오이냉면집", 150, "한식>냉면", ["오이냉면", "물냉면"], reviewCount=80),
    near("plain", "평범냉면", 250, "한식>냉면", ["물냉면", "비빔냉면"], reviewCount=20),
    # 마라탕: one lists a peanut sauce
    near("mara_p", "땅콩마라", 120, "중식>중국요리", ["마라탕", "땅콩소스 마라샹궈"], reviewCount=90),
    near("mara", "매운마라", 220, "중식>중국요리", ["마라탕", "꿔바로우"], reviewCount=30),
    # 쌀국수
    near("pho", "포하노이", 200, "아시아음식>베트남음식", ["소고기쌀국수", "분짜"], reviewCount=40),
    # 삼겹살: two houses write it in full, one only as cuts of the belly
    near("saeng", "생고기집", 300, "한식>육류,고기", ["생삼겹살", "항정살"], reviewCount=10),
    near("teuk", "특고기", 350, "한식>육류,고기", ["특 삼겹살 (170g)", "목살"], reviewCount=10),
    near(
        "kkot",
        "이층고기집",
        400,
        "한식>육류,고기",
        ["꽃삼겹 (160g)", "통삼겹 (160g)", "통목살"],
        reviewCount=10,
    ),
    near("jjusam", "빨간쭈꾸미", 450, "한식>해물,생선>주꾸미", ["삼겹쭈꾸미", "쭈꾸미볶음"], reviewCount=10),
    # 쌈밥: one house of the kind, one 김치찌개 house serving a 쌈밥 set
    near("ssam", "우렁쌈밥집", 200, "한식>쌈밥", ["우렁쌈밥", "쌈밥정식"], reviewCount=15),
    near("jeyuk", "장독대김치찌개", 500, "한식>찌개,전골", ["김치찌개정식", "제육쌈밥정식"], reviewCount=60),
    # a café asked by name
    near(
        "cafe", "코팡베이커리카페", 600, "카페>커피전문점", {"아메리카노": "3,000원", "카페라떼": "4,000원"}
    ),
]
RECORDS = [{**r, "businessHours": DAILY} for r in RECORDS]


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ingest_records(tmp_path_factory.mktemp("dlg30"), RECORDS)


# --- what goes into a dish, ruled out ---------------------------------------------------------------


def test_an_ingredient_ruled_out_is_no_typo_of_a_kind(data: Path) -> None:
    (r,) = talk_over(data, ["잠실역 냉면 오이 들어간거 싫어요"], WEDNESDAY_NOON)
    assert r.plan.exclude_menu == ["오이"]  # never '오리' (a kind's word one letter away)
    assert "오리" not in r.answer
    assert [c.id for c in r.cards] == ["plain"]


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("잠실역 고수 빼고 먹을수 있는 쌀국수집", "고수"),  # the index mined no '고수'
        ("잠실역 해장국 선지는 못먹어서 선지 들어간건 빼고", "선지"),
    ],
)
def test_an_ingredient_the_index_never_mined_is_ruled_out(data: Path, text: str, word: str) -> None:
    (r,) = talk_over(data, [text], WEDNESDAY_NOON)
    assert r.plan.exclude_menu == [word]
    assert "확인할 수 없어서" not in r.answer


def test_a_taste_told_rules_nothing_out(data: Path) -> None:
    """dialogue_test18 em067 (control, as base): "고수 싫어하는데" tells a taste; no dish is ruled out."""
    (r,) = talk_over(data, ["잠실역 쌀국수 고수 싫어하는데 괜찮은데"], WEDNESDAY_NOON)
    assert r.plan.exclude_menu == []


def test_an_allergy_said_after_a_list_narrows_it(data: Path) -> None:
    _, r = talk_over(data, ["잠실역 마라탕", "땅콩 알러지 있어서 땅콩 들어가는건 빼주세요"], WEDNESDAY_NOON)
    assert r.plan.exclude_menu == ["땅콩"] and r.plan.menu == []  # said twice: only ruled out
    assert r.plan.kinds == ["마라탕"]  # the list shown, narrowed
    ids = [c.id for c in r.cards]
    assert "mara" in ids and "mara_p" not in ids


# --- a dish's variants are the dish -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "holds"),
    [("꽃삼겹 (160g)", True), ("통삼겹", True), ("벌집삼겹", True), ("삼겹쭈꾸미", False)],
)
def test_a_cut_of_the_belly_is_the_dish(line: str, holds: bool) -> None:
    assert line_matches(line, "삼겹살") is holds


def test_a_widening_line_never_calls_a_house_serving_the_dish_another_kind(data: Path) -> None:
    """audit r14 F4: three houses within 1 km serve 삼겹살 (one writes it 꽃삼겹/통삼겹): no widening line
    counting two and naming the third "메뉴에만 있는 다른 종류의 곳"."""
    (r,) = talk_over(data, ["잠실역 삼겹살"], WEDNESDAY_NOON)
    assert {"saeng", "teuk", "kkot"} <= {c.id for c in r.cards}
    assert "다른 종류" not in r.answer and "넓혀" not in r.answer


# --- a kind named by its dish ------------------------------------------------------------------------


def test_a_dish_served_at_another_kind_follows_the_kind_own_house(data: Path) -> None:
    """audit r14 Q22: one 쌈밥 house near; the 김치찌개 house's '제육쌈밥정식' is a 쌈밥 lunch too."""
    (r,) = talk_over(data, ["잠실역 쌈밥"], WEDNESDAY_NOON)
    ids = [c.id for c in r.cards]
    assert ids[0] == "ssam" and "jeyuk" in ids
    assert "제육쌈밥정식" in r.answer


# --- an elliptic follow-up asks the question before of the dish now named ----------------------------


def test_an_elliptic_follow_up_asks_the_price_again(data: Path) -> None:
    _, latte, other = talk_over(
        data, ["코팡베이커리카페 아메리카노 얼마야", "거기 라떼는?", "짜장면은?"], WEDNESDAY_NOON
    )
    assert "카페라떼 4,000원" in latte.answer and "**1." not in latte.answer  # the price, no card again
    assert "짜장면" in other.answer and "없어요" in other.answer


# --- a kind's word typed glued to a place, or as an English plural in -ies -------------------------


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("당산역양꼬지맛집", "양고기·양꼬치"),  # dialogue_test20 eo099: a typo glued to the station
        ("what about bakeries?", "베이커리·빵집"),  # eo151: "bakeries" is bakery
        ("bakeries near jamsil", "베이커리·빵집"),
    ],
)
def test_a_kind_word_glued_to_a_place_or_in_a_plural_is_read(text: str, kind: str) -> None:
    from matjip.nlu.kinds import detect_kinds

    assert detect_kinds(text).kinds == [kind]
