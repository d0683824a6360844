"""Issue 24, dialogue classes of the round (helper dlg24e): a meal said alone is no opening time,
places open at it first (12); cheaper in other words and in English, a car or a child stated as a
condition, nearer to the station, a food eaten already, a price band as a ceiling, seats and a headcount
said without 명 (8); chains of a kind ruled out, conveniences said as alternatives (11); a route with its
start said last or as a refinement (9); the first N shown or a named place with the one in focus
compared (13); a verbatim repeat of a widened search (14); a dong said over a hot place, a food word inside a landmark's name (1, 2).

The dialogues run the real offline agent over a few hand-written crawl records ingested into a
fresh data directory; expected values are worked out by hand from the records.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from matjip.agent.location import resolve
from matjip.geo import Gazetteer
from matjip.nlu.parser import OfflineNLU
from matjip.nlu.vocabulary import Vocabulary
from support.records import ingest_records, jamsil_record, talk_over
from support.records import near_jamsil as near

SEOUL = ZoneInfo("Asia/Seoul")
WEDNESDAY_EVENING = datetime(2026, 11, 25, 19, 30, tzinfo=SEOUL)
WEDNESDAY_MORNING = datetime(2026, 11, 25, 10, 0, tzinfo=SEOUL)
GOPCHANG = "한식>곱창,막창"


# Medians: 밤곱창 20,000 (opens 17:00, closed at lunch); 곱창이야기 15,000; 비싼곱창 35,000; 싼곱창 9,000.
# The first list of "잠실역 곱창" (by reviews): 밤곱창, 곱창이야기, 비싼곱창; 싼곱창 alone is cheaper than all
# (황소곱창 잠실점, a chain's branch, 40,000). Only 곱창이야기 has parking (12 visitor tags).
RECORDS = [
    near(
        "night",
        "밤곱창",
        100,
        GOPCHANG,
        {"한우곱창": "20,000원"},
        businessHours="매일 17:00 ~ 02:00",
        reviewCount=90,
        rating=4.4,
    ),
    near(
        "story",
        "곱창이야기",
        150,
        GOPCHANG,
        {"곱창": "15,000원"},
        businessHours="매일 12:00 ~ 23:00",
        reviewKeywords={"맛": 30, "주차": 12},
        reviewCount=70,
        rating=4.4,
    ),
    near(
        "dear",
        "비싼곱창",
        200,
        GOPCHANG,
        {"특곱창": "35,000원"},
        businessHours="매일 12:00 ~ 23:00",
        reviewCount=60,
        rating=4.4,
    ),
    near(
        "cheap",
        "싼곱창",
        250,
        GOPCHANG,
        {"곱창": "9,000원"},
        businessHours="매일 12:00 ~ 23:00",
        reviewCount=4,
        rating=4.0,
    ),
    near(
        "chain",
        "황소곱창 잠실점",
        300,
        GOPCHANG,
        {"모둠곱창": "40,000원"},
        businessHours="매일 12:00 ~ 23:00",
        reviewCount=10,
        rating=4.1,
    ),
    # in 천호 주꾸미골목 (37.5370, 127.1262): a 아구찜 house and a 쭈꾸미 house
    jamsil_record(
        "agu",
        "천호아구찜",
        "한식>해물,생선>아구",
        {"아구찜": "35,000원"},
        lat=37.5371,
        lon=127.1263,
        reviewCount=40,
    ),
    jamsil_record(
        "jjukku",
        "천호쭈꾸미",
        "한식>해물,생선>주꾸미",
        {"쭈꾸미볶음": "14,000원"},
        lat=37.5369,
        lon=127.1261,
        reviewCount=80,
    ),
    # 1.6 km south of 천호역: found only when a 천호역 search is widened
    jamsil_record(
        "agu2",
        "길동아구찜",
        "한식>해물,생선>아구",
        {"아구찜": "33,000원"},
        lat=37.5238,
        lon=127.1234,
        reviewCount=30,
    ),
]


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ingest_records(tmp_path_factory.mktemp("dlg24e"), RECORDS)


# --- class 12: a meal said alone is what is eaten, not a time the place must be open --------------


@pytest.mark.parametrize(
    "text",
    ["잠실역 점심 곱창 5곳", "잠실역에서 점심으로 곱창 먹을만한곳 5군데", "오늘 저녁 잠실역 곱창 5곳 땡긴다"],
)
def test_a_meal_said_alone_rules_no_place_out_by_its_hours(data: Path, text: str) -> None:
    (r,) = talk_over(data, [text], WEDNESDAY_MORNING)
    assert r.frame is not None and r.frame.open_at is None and r.frame.open_wished is not None
    ids = [c.id for c in r.cards]
    assert "night" in ids and len(ids) == 5  # 밤곱창 (17:00-02:00) is still a 곱창 house near by
    if "점심" in text:
        assert ids[-1] == "night"  # the four open at 12:30 come first


@pytest.mark.parametrize(
    "text", ["잠실역 점심에 여는 곱창", "잠실역 점심 영업하는 곱창"]
)  # on a day named ("수요일 점심에 여는") it is that day's meal since dlg27: tests/test_dialogue_classes27.py
def test_a_meal_said_as_hours_or_with_a_day_is_a_time(data: Path, text: str) -> None:
    (r,) = talk_over(data, [text], WEDNESDAY_MORNING)
    assert r.frame is not None and r.frame.open_at is not None and r.frame.open_at.hour == 11
    assert "night" not in {c.id for c in r.cards}  # closed until 17:00


# --- class 8: cheaper in other words, in English -------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "지갑 사정이 좀.. 싼 쪽으로",
        "예산이 좀 빠듯해",
        "통장 사정이 안 좋아서 저렴한 쪽으로",
        "hmm anything less pricey?",
        "something more affordable?",
    ],
)
def test_cheaper_in_other_words_refines_the_list(data: Path, text: str) -> None:
    first, cheaper = talk_over(data, ["잠실역 곱창", text], WEDNESDAY_EVENING)
    assert {c.id for c in first.cards} == {"night", "story", "dear"}
    assert [c.id for c in cheaper.cards] == ["cheap"]
    assert "확인할 수 없어서" not in cheaper.answer  # no filler reported as a condition


# --- class 8/11: a circumstance stated is a condition ("차도 가져가"), chains of a kind ruled out ------


@pytest.mark.parametrize("text", ["차도 가져가", "차 끌고 갈 거임", "자차로 갑니다"])
def test_a_car_said_as_a_circumstance_asks_for_parking(data: Path, text: str) -> None:
    _, r = talk_over(data, ["잠실역 곱창", text], WEDNESDAY_EVENING)
    assert r.frame is not None and r.frame.convenience == ["주차"] and r.frame.kinds == ["곱창·막창"]
    assert [c.id for c in r.cards][:1] == ["story"]


def test_a_car_asked_about_stays_a_question(data: Path) -> None:
    _, r = talk_over(data, ["잠실역 곱창", "차 가져가도 돼?"], WEDNESDAY_EVENING)
    assert r.decision == "context"


@pytest.mark.parametrize("text", ["체인 곱창집은 빼줘", "프차 곱창은 말고", "프랜차이즈 곱창집 빼고"])
def test_chains_of_the_kind_asked_rule_out_the_chains_not_the_kind(data: Path, text: str) -> None:
    first, r = talk_over(data, ["잠실역 곱창 5곳", text], WEDNESDAY_EVENING)
    assert "chain" in {c.id for c in first.cards}
    assert r.frame is not None and r.frame.exclude_chains and r.frame.kinds == ["곱창·막창"]
    assert not r.frame.exclude_kinds and not r.frame.exclude_menu
    assert {c.id for c in r.cards} == {"night", "story", "dear", "cheap"}


# --- class 8: nearer to the station in other words -----------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["좀 더 역이랑 가까운 데", "역에서 제일 가까운 데로", "역세권으로", "anything closer to the station?"],
)
def test_nearer_to_the_station_refines_by_distance(data: Path, text: str) -> None:
    first, r = talk_over(data, ["잠실역 곱창", text], WEDNESDAY_EVENING)
    assert {c.id for c in first.cards} == {"night", "story", "dear"}  # the farthest is 200 m
    assert r.frame is not None and r.frame.sort == "distance" and r.frame.kinds == ["곱창·막창"]
    assert [c.id for c in r.cards] == ["night", "story"]  # 100 m and 150 m


# --- class 13: a comparison of the first shown, or of a named place with the one in focus ---------


@pytest.mark.parametrize("text", ["두 곳 비교해줘", "2개 중에 어디가 더 나아?", "compare the first two"])
def test_two_of_the_list_compared(data: Path, text: str) -> None:
    first, r = talk_over(data, ["잠실역 곱창", text], WEDNESDAY_EVENING)
    names = [c.name for c in first.cards]
    assert r.decision == "context" and not r.cards
    assert names[0] in r.answer and names[1] in r.answer and names[2] not in r.answer


def test_a_named_place_compared_with_the_one_in_focus(data: Path) -> None:
    turns = ["곱창이야기 몇시까지 해?", "밤곱창이랑 비교하면 어디가 더 늦게까지 해?"]
    _, r = talk_over(data, turns, WEDNESDAY_EVENING)
    assert "곱창이야기" in r.answer and "밤곱창" in r.answer
    assert "02:00" in r.answer and "23:00" in r.answer


# --- class 9: a route whose start is said after the question, a route said as a refinement -------


@pytest.mark.parametrize(
    "text",
    [
        "천호역 가는 길목에 곱창집 있나? 잠실역에서 출발함",
        "천호역 가는 길에 곱창 먹을 데 있어? 잠실역에서 출발할 거야",
        "잠실역에서 탈 건데 천호역 가는 길에 곱창집",
        "퇴근길에 잠실역에서 천호역까지 가면서 곱창",
    ],
)
def test_a_route_with_the_start_said_last(data: Path, text: str) -> None:
    (r,) = talk_over(data, [text], WEDNESDAY_EVENING)
    plan = r.frame or r.plan
    assert plan is not None and plan.strategy == "route" and plan.route is not None
    assert (plan.route.origin.name, plan.route.destination.name) == ("잠실역", "천호역")
    assert "'퇴근길'" not in r.answer


def test_a_route_said_as_a_refinement_keeps_the_kind(data: Path) -> None:
    _, r = talk_over(
        data, ["잠실역 곱창", "아니 그냥 잠실역에서 천호역 가는 길에 있는 걸로"], WEDNESDAY_EVENING
    )
    plan = r.frame or r.plan
    assert plan is not None and plan.strategy == "route" and plan.kinds == ["곱창·막창"]
    assert plan.route is not None and plan.route.destination.name == "천호역"
    assert r.cards and {c.id for c in r.cards} <= {"night", "story", "dear", "cheap", "chain"}


# --- class 8/11: seats asked and a headcount said without 명 are said to be unknowable ------------


@pytest.mark.parametrize(
    "text", ["2번째꺼 자리 몇 개야?", "두번째 집 몇 명까지 앉을 수 있어?", "2번 좌석 수 알아?"]
)
def test_seats_asked_of_a_shown_place_are_said_to_be_unknown(data: Path, text: str) -> None:
    first, r = talk_over(data, ["잠실역 곱창", text], WEDNESDAY_EVENING)
    second = first.cards[1].name
    assert r.decision == "context"
    assert f"{second}의 좌석 수는 데이터에 없어서 모르겠어요" in r.answer


@pytest.mark.parametrize("text", ["잠실역 곱창 인원 여섯", "인원 6 잠실역 곱창집"])
def test_a_headcount_without_myeong_is_a_party(data: Path, text: str) -> None:
    (r,) = talk_over(data, [text], WEDNESDAY_EVENING)
    assert "6명이 함께 앉을 자리가 있는지는 좌석 정보가 없어서 알 수 없어요" in r.answer
    assert "'인원'" not in r.answer


# --- class 11: conveniences said as alternatives -----------------------------------------------


@pytest.mark.parametrize(
    "text", ["잠실역 곱창 발렛이나 주차 되는 곳", "잠실역 곱창집 주차 또는 발렛 가능한 데"]
)
def test_valet_or_parking_asks_for_parking(data: Path, text: str) -> None:
    (r,) = talk_over(data, [text], WEDNESDAY_EVENING)
    assert r.frame is not None and r.frame.convenience == ["주차"]
    assert [c.id for c in r.cards][:1] == ["story"]
    assert "'발렛' 정보가 있는 곳이 없어서" not in r.answer


# --- class 1/2: a name that is both a dong and a hot place, said with its 동 -----------------------


@pytest.mark.parametrize(
    ("text", "mode", "place_type"),
    [
        ("연남동 쌀국수 집", "in", "legal_dong"),
        ("연남동 파스타집 좀", "in", "legal_dong"),
        ("남포동 돼지국밥", "in", "admin_dong"),
        ("연남동 쪽 밥집", "near", "hot_place"),
        ("연남동 근처 카페", "near", "hot_place"),
        ("연남 카페", "near", "hot_place"),
    ],
)
def test_a_dong_said_with_its_dong_is_searched_in_the_dong(text: str, mode: str, place_type: str) -> None:
    gazetteer = Gazetteer.load()
    nlu = OfflineNLU(Vocabulary.from_restaurants([]), gazetteer).parse(text)
    got = resolve(nlu, text, None, [], gazetteer).context
    assert got is not None and got.mode == mode and got.place_type == place_type


# --- class 8: a food named with a reason not to have it now is not asked for ---------------------


@pytest.mark.parametrize(
    "text",
    [
        "곱창은 어제 먹어서.. 국밥 하는 데는?",
        "곱창은 질려서 국밥으로",
        "곱창은 점심에 먹었으니까 국밥 먹을래",
    ],
)
def test_a_food_eaten_already_is_not_asked_for(data: Path, text: str) -> None:
    _, r = talk_over(data, ["잠실역 곱창", text], WEDNESDAY_EVENING)
    assert r.frame is not None and r.frame.kinds == ["국밥·순대국"]
    assert "'어제'" not in r.answer and "'점심'" not in r.answer


# --- class 2: a food word inside the name of the place said -------------------------------------


@pytest.mark.parametrize("text", ["천호 쭈꾸미골목 근처 아구찜", "천호동 주꾸미골목 쪽 아구찜 잘하는 데"])
def test_a_food_in_a_landmark_name_is_no_kind_asked(data: Path, text: str) -> None:
    (r,) = talk_over(data, [text], WEDNESDAY_EVENING)
    assert r.frame is not None and r.frame.kinds == ["아구찜"]
    assert [c.id for c in r.cards][:1] == ["agu"] and "jjukku" not in {c.id for c in r.cards}


# --- class 8: a price band said as a ceiling ------------------------------------------------------


@pytest.mark.parametrize("text", ["잠실역 곱창 인당 만원대 안쪽으로", "잠실역 곱창 1인 만원대까지"])
def test_a_band_said_as_a_ceiling_rules_nothing_cheaper_out(data: Path, text: str) -> None:
    (r,) = talk_over(data, [text], WEDNESDAY_EVENING)
    assert r.frame is not None and r.frame.price_max == 19_999 and r.frame.price_min is None
    # medians: 싼곱창 9,000 and 곱창이야기 15,000 are within; 밤곱창 20,000 is not
    assert {c.id for c in r.cards} == {"cheap", "story"}


# --- class 14: a verbatim repeat of a widened search reuses it -----------------------------------


def test_a_repeated_question_after_a_refinement_reuses_the_widened_search(data: Path) -> None:
    first, _, again = talk_over(data, ["천호역 아구찜", "주차되는곳만", "천호역 아구찜"], WEDNESDAY_EVENING)
    assert first.plan is not None and first.frame is not None
    assert first.plan.signature() != first.frame.signature()  # one 아구찜 house: the radius was widened
    assert again.reused and [c.id for c in again.cards] == [c.id for c in first.cards]


def test_a_dish_starting_like_a_sort_word_is_no_closer_ask() -> None:
    from matjip.agent.acts import asks_closer

    assert not asks_closer("여기서 가까운 순대국집") and asks_closer("가까운 순으로 보여줘")
