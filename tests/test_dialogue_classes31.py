"""Issue 24, understanding classes of helper dlg31 (session s42), each failing on main cabd56f:

- a food kind said right before a kind of house names one place ("해산물 포차": a 포차 whose menu is mostly
  seafood, or a seafood house that is a 포차; "한우 오마카세": an omakase of beef — a line naming both at
  any house), never either kind alone (data/words/query_kinds.toml ``qualified_heads``,
  ``qualifier_kinds``, ``qualifier_menus``; the plan's ``qualifier``);
- a lunch special is a condition on the menu ("점심 특선", "런치세트"): the lines that offer one however the
  menu writes it ('런치세트 A', '김치찌개 (점심메뉴)', '정식(평일점심)'; a 브런치 line is none), quoted on the
  card (data/words/menu.toml ``synonyms`` and ``menu_forms`` 점심특선);
- inside a building ("롯데월드몰 안에", "코엑스에 있는"): the places at the landmark's road address, never the
  street around it (data/words/gazetteer.toml ``building_addresses``, ``inside_markers``), said "○○ 안";
- a described dish whose description names another kind's word as a part of it ("닭 한 마리 … 칼국수 사리",
  "닭을 간장양념에 감자랑 졸인", "생선회 한점씩", "닭 한마리 통째로 들어간 뚝배기", "야채 위주로"): the dish
  described, never the kind of the part (data/kinds.toml ``described``, ``typo_never``; dialogue_test13
  ee047, test12 eg040 eg043, test21 ep066 ep067);
- a dong name whose one namesake in the data is a dong and whose others are dongs elsewhere or a 상권 outside
  the data ("은행동": 성남 중원구 은행1동 with restaurants, 시흥 은행동 none, 대전 은행동 a 상권): answered about the one
  in the data, in it, and said in the first line — never asked back (dialogue_test21 ep002);
- "bars" in a message said in English, with no other kind, is a place to drink (술집; data/kinds.toml
  ``latin_words``; dialogue_test21 ep043), while "pocha bars", "burger bar" stay their kind.

The dialogues run the real offline agent over a few hand-written crawl records ingested into a
fresh data directory; expected values are worked out by hand from the records.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from matjip.nlu.kinds import detect_kinds
from support.records import ingest_records, jamsil_record, talk_over
from support.records import near_jamsil as near

SEOUL = ZoneInfo("Asia/Seoul")
WEDNESDAY_EVENING = datetime(2026, 11, 25, 19, 0, tzinfo=SEOUL)
DAILY = "매일 11:00 ~ 23:59"

RECORDS = [
    # 포차: a well-reviewed one with a few seafood lines among others, one mostly seafood
    near(
        "pocha",
        "동네포차",
        150,
        "술집>실내포장마차",
        ["계란찜", "닭똥집", "오돌뼈", "김치전", "골뱅이무침"],
        reviewCount=200,
    ),
    near(
        "sea_pocha",
        "바다포차",
        300,
        "술집>실내포장마차",
        ["막회(기본)", "조개찜", "해물짬뽕탕", "가리비찜", "계란말이"],
        reviewCount=12,
    ),
    # a seafood house that is no 포차
    near("sea", "해물명가", 200, "한식>해물,생선", ["해물찜", "조개탕", "낙지볶음"], reviewCount=300),
    # 오마카세: a sushi bar, and a beef house whose menu lists a beef omakase
    near("sushi", "스시오마카세", 250, "일식>초밥,롤", ["런치 오마카세", "디너 오마카세"], reviewCount=150),
    near("beef", "우담", 400, "한식>육류,고기", ["한우 오마카세(1인)", "한우 등심"], reviewCount=8),
    near("grill", "한우명가", 350, "한식>육류,고기>소고기", ["한우 등심", "한우 갈비살"], reviewCount=250),
    # lunch specials written three ways, and a brunch café that has none
    near("lunch", "고에몬", 500, "일식>돈까스,우동", ["런치세트 A", "돈까스 정식"], reviewCount=30),
    near("lunch2", "한식당", 550, "한식>한정식", ["산더미 김치찌개 (점심메뉴)", "보쌈정식"], reviewCount=20),
    near("brunch", "브런치카페", 450, "카페>브런치카페", ["브런치 세트", "팬케이크"], reviewCount=400),
    # 파스타: one inside the mall (its address), a better-known one across the street
    near("mall_pasta", "몰파스타", 200, "양식>이탈리안", ["봉골레 파스타"], reviewCount=10),
    near(
        "street_pasta",
        "길파스타",
        160,
        "양식>이탈리안",
        ["까르보나라 파스타"],
        reviewCount=300,
        roadAddress="서울 송파구 올림픽로 289",
    ),
]
RECORDS = [{**r, "businessHours": DAILY} for r in RECORDS]
# a 백반 house in 성남 중원구 은행1동 (the only 은행동 with restaurants in these records)
RECORDS.append(
    {
        **jamsil_record(
            "eunhaeng", "은행동백반", "한식>한식뷔페", ["제육볶음", "된장찌개"], lat=37.4526, lon=127.1671
        ),
        "roadAddress": "경기 성남시 중원구 은이로 10",
        "reviewCount": 30,
        "businessHours": DAILY,
    }
)


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ingest_records(tmp_path_factory.mktemp("dlg31"), RECORDS)


# --- a food kind qualifying a kind of house ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kinds", "food"),
    [
        ("잠실 해산물 포차", ["포차"], "해산물"),
        ("한우오마카세 맛집", ["오마카세"], "한우"),
        ("석촌호수 회 포차", ["포차"], "회"),
        ("해산물이랑 포차", ["해산물", "포차"], None),  # two wishes, not one place
    ],
)
def test_a_food_said_before_a_house_qualifies_it(text: str, kinds: list[str], food: str | None) -> None:
    frame = detect_kinds(text)
    assert (frame.kinds, getattr(frame, "qualifier", None)) == (kinds, food)


def test_a_seafood_pocha_is_a_pocha_serving_seafood(data: Path) -> None:
    (r,) = talk_over(data, ["잠실역 해산물 포차"], WEDNESDAY_EVENING)
    ids = [c.id for c in r.cards]
    assert ids[0] == "sea_pocha"  # mostly seafood, before the better-known 포차 with one 골뱅이 line
    assert "sea" not in ids  # a seafood house that is no 포차
    assert "해산물 (메뉴 '" in r.answer
    assert "해산물 메뉴가 있는 포차는 1곳뿐" in r.answer  # the other 포차 said for what it is


def test_a_beef_omakase_is_a_line_naming_both(data: Path) -> None:
    (r,) = talk_over(data, ["잠실역 한우 오마카세"], WEDNESDAY_EVENING)
    ids = [c.id for c in r.cards]
    assert ids[0] == "beef"  # '한우 오마카세(1인)' at a beef house
    assert "grill" not in ids  # a beef house with no omakase
    assert "한우 오마카세(1인)" in r.answer


# --- a lunch special, a condition on the menu --------------------------------------------------------


@pytest.mark.parametrize("text", ["잠실역 점심 특선", "잠실역 런치세트 되는 곳"])
def test_a_lunch_special_is_a_menu_condition(data: Path, text: str) -> None:
    (r,) = talk_over(data, [text], WEDNESDAY_EVENING)
    assert r.plan.menu == ["점심특선"]
    ids = {c.id for c in r.cards}
    assert {"lunch", "lunch2"} <= ids and "brunch" not in ids  # never the café's '브런치 세트'
    assert "메뉴 '런치세트 A'" in r.answer and "(점심메뉴)'" in r.answer  # the line quoted
    assert "특선'은" not in r.answer  # never "'특선'은 데이터로 확인할 수 없어서"


# --- inside a building ----------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["롯데월드몰 안에 파스타", "롯데월드몰에 있는 파스타집"])
def test_inside_a_mall_is_its_address(data: Path, text: str) -> None:
    (r,) = talk_over(data, [text], WEDNESDAY_EVENING)
    ids = [c.id for c in r.cards]
    assert ids == ["mall_pasta"]  # never the better-known house across the street
    assert r.answer.lstrip().startswith("롯데월드몰 안 ")


def test_near_a_mall_is_still_around_it(data: Path) -> None:
    (r,) = talk_over(data, ["롯데월드몰 근처 파스타"], WEDNESDAY_EVENING)
    assert "street_pasta" in [c.id for c in r.cards]


# --- a described dish, its parts no kind of their own ---------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("닭 한 마리 통으로 끓이다가 칼국수 사리 넣어먹는 집 강동역 근처", "닭한마리"),
        ("잠실역 근처 닭을 간장양념에 감자랑 졸인 거 파는데", "찜닭"),
        ("천호역 밥 위에 생선회 한점씩 올린거 먹고싶어", "초밥·오마카세"),
        ("삼성중앙역 몸보신용으로 닭 한마리 통째로 들어간 뚝배기", "삼계탕"),
        ("삼성중앙역 밥 대신 야채 위주로 가볍게 먹을만한 곳", "샐러드"),
    ],
)
def test_a_described_dish_is_the_dish_not_its_parts(text: str, kind: str) -> None:
    frame = detect_kinds(text)
    assert frame.kinds == [kind]
    assert frame.theme is not None and "알아듣고" in frame.theme  # the reading said


@pytest.mark.parametrize(("text", "kinds"), [("잠실 야채 듬뿍 비빔밥", []), ("삼계탕 뚝배기", ["삼계탕"])])
def test_a_description_never_overrides_what_is_named(text: str, kinds: list[str]) -> None:
    assert detect_kinds(text).kinds == kinds


# --- "bars" said in English ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("good bars in bangi food alley?", ["술집"]),
        ("best bar near jamsil station", ["술집"]),
        ("pocha bars in jamsil", ["포차"]),
        ("burger bar near jamsil", ["버거"]),
    ],
)
def test_bars_in_english_are_places_to_drink(text: str, kinds: list[str]) -> None:
    assert detect_kinds(text).kinds == kinds


# --- a dong name with one namesake in the data ----------------------------------------------------


def test_a_dong_with_one_namesake_in_the_data_is_answered_about_it(data: Path) -> None:
    (r,) = talk_over(data, ["은행동 밥먹을만한데 있어?"], WEDNESDAY_EVENING)
    assert r.answer.lstrip().startswith("성남시 중원구 은행동 기준이에요")
    assert "어느 곳을 말씀하시는" not in r.answer
    assert r.plan.location is not None and r.plan.location.mode == "in"
    assert [c.id for c in r.cards] == ["eunhaeng"]
