"""Issue 24, classes 5, 6, 10 and 12 as policies (session of 2026-11-28, sixth, helper kinds24i).

Word-level tests read the message only; card tests ingest hand-written crawl records (the raw crawl's
shape) into a fresh data directory, with the expected cards worked out by hand from the records.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from matjip.kinds import kinds
from matjip.nlu.kinds import close_kind_word, detect_kinds
from support.chat import FRIDAY_EVENING, SEOUL
from support.records import ask_over
from support.records import card_ids as ids
from support.records import north_of_jamsil as record

# --- class 5: a word form of the sentence is never "corrected" into a kind -------------------------------


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        # a verb's stem with its ending: 타기 (to ride) is no 타이, 오기 no 오리, 사게 no 사케
        ("잠실역에서 버스 타기 좋은 맛집", []),
        ("애들 데리고 오기 편한 국밥집", ["국밥·순대국"]),
        ("포장해서 사게 치킨집 알려줘", ["치킨집"]),
        ("좀 짜도 괜찮으니까 라멘", ["라멘"]),
    ],
)
def test_a_word_form_is_not_taken_as_a_kind_typo(text: str, kinds: list[str]) -> None:
    frame = detect_kinds(text)
    assert frame.kinds == kinds
    assert frame.corrections == []


@pytest.mark.parametrize(
    ("typed", "word"),
    [("찌게", "찌개"), ("라맨", "라멘"), ("곱참", "곱창"), ("족팔", "족발"), ("국빱", "국밥")],
)
def test_two_syllable_typos_of_kind_words_are_still_read(typed: str, word: str) -> None:
    # a vowel said alike in the last syllable, or a slip in a syllable that is no ending
    assert close_kind_word(typed) == word


# --- class 12: going now, a place opening within the hour is not pushed back ----------------------------

SATURDAY_SMALL_HOURS = datetime(2026, 11, 28, 4, 30, tzinfo=SEOUL)  # night: going now


def test_going_now_a_place_opening_within_the_hour_is_not_put_after_closed_ones(tmp_path: Path) -> None:
    # 04:30, no time asked (night: going now). "opens" opens at 05:00 (300 reviews): there by the
    # time one arrives, so it leads; "allday" (24 h, 10 reviews) is open; "shut" (11:00~21:00, 500
    # reviews) is closed until late morning and goes last
    records = [
        record(
            "opens",
            "새벽해장국",
            "한식>해장국",
            100,
            ["해장국", "선지해장국"],
            reviewCount=300,
            businessHours="매일 05:00 ~ 15:00",
        ),
        record(
            "allday",
            "종일해장국",
            "한식>해장국",
            200,
            ["해장국", "뼈해장국"],
            reviewCount=10,
            businessHours="매일 00:00 ~ 24:00",
        ),
        record(
            "shut",
            "낮해장국",
            "한식>해장국",
            300,
            ["해장국", "우거지해장국"],
            reviewCount=500,
            businessHours="매일 11:00 ~ 21:00",
        ),
    ]
    r = ask_over(tmp_path, records, "잠실역 해장국", SATURDAY_SMALL_HOURS)
    assert ids(r) == ["opens", "allday", "shut"]


# --- class 6: what a shop is, as a local reads its name, category and menu ---------------------------


@pytest.mark.parametrize(
    ("category", "title", "menus", "kind", "is_it"),
    [
        # a shop named ○○치킨 under the umbrella 패스트푸드 is a chicken shop ...
        ("패스트푸드", "철인7호치킨 홍대점", ["후라이드치킨", "양념치킨", "반반치킨"], "치킨집", True),
        ("패스트푸드", "청년치킨", ["후라이드", "양념"], "치킨집", True),
        # ... a burger chain under it is not, whatever its menu lists
        ("패스트푸드>맘스터치", "맘스터치 잠실점", ["싸이버거", "치킨", "감자튀김"], "치킨집", False),
        # other cuisines' chicken dishes are no fried-chicken evidence
        (
            "기타",
            "예티",
            ["탄투리치킨(Half)", "치킨티카", "감자말이새우", "베지브리야니", "치킨짜오민"],
            "치킨집",
            False,
        ),
        # a 순대국 house is no 분식 place: its 순대 comes with rice and soup
        ("한식", "당산8번가찹쌀순대", ["순대국", "특순대국", "순대정식", "모둠순대"], "분식·떡볶이", False),
        ("한식", "당산8번가찹쌀순대", ["순대국", "특순대국", "순대정식", "모둠순대"], "순대국", True),
        ("분식", "신당떡볶이", ["떡볶이", "순대", "튀김"], "분식·떡볶이", True),
    ],
)
def test_a_shop_is_the_kind_a_local_reads_off_it(
    category: str, title: str, menus: list[str], kind: str, is_it: bool
) -> None:
    assert (kind in [e.kind for e in kinds().classify(category, title, menus)]) is is_it


@pytest.mark.parametrize("text", ["광나루 쪽에 밥집 있을까", "잠실 밥 먹을 만한 데", "회사 근처 밥 먹을 곳"])
def test_a_babjip_is_a_korean_meal_of_rice_and_soup(text: str) -> None:
    # the older relevance sets' rubrics: 백반, 국밥, 찌개, 쌈밥, 한정식 — come first; since dlg27 (s38) no kind
    # is asked (the newer blind sets read it as any restaurant for a meal: tests/test_dialogue_classes27.py)
    frame = detect_kinds(text)
    assert frame.kinds == [] and frame.any_kind == "밥집"
    assert kinds().theme_kinds("밥집") == {"백반", "국밥·순대국", "찌개·전골", "쌈밥", "한정식"}


# --- classes 6 and 10: a short list is filled by the same kind a little further, never first by a place
# only weakly of it -------------------------------------------------------------------------------------


def test_two_noodle_houses_near_are_followed_by_the_next_one_further_not_by_a_jokbal_house(
    tmp_path: Path,
) -> None:
    # "잠실역 국숫집": two 국수 houses within the station's circle; a 족발 house beside them lists
    # 쟁반막국수 (200 reviews); the next 국수 house is 1.6 km north. A local names the three 국수 houses,
    # the far one said as further; the 족발 house is no 국숫집
    records = [
        record("noodle1", "잠실국수", "한식>국수", 150, ["잔치국수", "비빔국수", "김밥"], reviewCount=40),
        record("noodle2", "할머니국수", "한식>국수", 350, ["잔치국수", "멸치국수"], reviewCount=12),
        record(
            "jokbal",
            "왕족발",
            "한식>육류,고기>족발,보쌈",
            250,
            ["족발", "보쌈", "쟁반막국수"],
            reviewCount=200,
        ),
        record("noodle3", "먼국수", "한식>국수", 1600, ["잔치국수", "콩국수"], reviewCount=30),
    ]
    r = ask_over(tmp_path, records, "잠실역 국숫집", FRIDAY_EVENING)
    assert ids(r) == ["noodle1", "noodle2", "noodle3"]
