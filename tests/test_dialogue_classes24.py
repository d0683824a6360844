"""Issue 24, classes 8, 9, 11, 13, 14 and 15 as they show in a conversation: "cheaper" in other
words, a party that must be seated, another day for the restaurant in focus, a night past midnight,
a comparison of one restaurant with itself, English follow-ups, a budget along a route, and the
scorer's reading of a route.

The dialogues run the real offline agent over a few hand-written crawl records (the raw crawl's
shape) ingested into a fresh data directory; expected values are worked out by hand from the
records.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from matjip.agent.cardinfo import other_day_hours
from matjip.agent.models import PlanLocation, RoutePlan, SearchPlan
from matjip.eval.dialogue_eval import check_frame
from matjip.ingest.hours import parse_business_hours
from matjip.kinds import kinds
from matjip.nlu.romanized import koreanize_places
from support.records import ingest_records, jamsil_record, talk_over

SEOUL = ZoneInfo("Asia/Seoul")
WEDNESDAY_EVENING = datetime(2026, 11, 25, 19, 30, tzinfo=SEOUL)
SATURDAY_MORNING = datetime(2026, 11, 28, 10, 0, tzinfo=SEOUL)
JAMSIL = (37.513977, 127.102198)  # 잠실역
SAENAE = (37.511653, 127.086224)  # 잠실새내역
M_PER_DEG_LAT = 111_195
GOPCHANG = "한식>곱창,막창"


def record(place_id: str, title: str, north_m: float, menus: dict[str, str], **extra: Any) -> dict[str, Any]:
    """A 곱창 place ``north_m`` metres north of 잠실역."""
    return jamsil_record(
        place_id,
        title,
        extra.pop("category", GOPCHANG),
        menus,
        lat=JAMSIL[0] + north_m / M_PER_DEG_LAT,
        lon=JAMSIL[1],
        **extra,
    )


# Medians (the price level "더 싼 데" compares): 밤곱창 20,000; 곱창이야기 15,000; 비싼곱창 35,000;
# 싼곱창 9,000. The first three have the most reviews, so they are the list shown first.
RECORDS = [
    record(
        "night",
        "밤곱창",
        100,
        {"한우곱창": "20,000원"},
        businessHours="월~토 17:00 ~ 02:00",
        reviewCount=90,
        rating=4.4,
        phone="02-111-1111",
    ),
    record(
        "story",
        "곱창이야기",
        150,
        {"곱창": "15,000원"},
        businessHours="매일 12:00 ~ 23:00",
        reviewCount=70,
        rating=4.4,
        phone="02-222-2222",
    ),
    record(
        "dear",
        "비싼곱창",
        200,
        {"특곱창": "35,000원"},
        businessHours="매일 12:00 ~ 23:00",
        reviewCount=60,
        rating=4.4,
    ),
    record(
        "cheap",
        "싼곱창",
        250,
        {"곱창": "9,000원"},
        businessHours="매일 12:00 ~ 23:00",
        reviewCount=4,
        rating=4.0,
    ),
]


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ingest_records(tmp_path_factory.mktemp("dlg24"), RECORDS)


# --- class 8: "cheaper" in other words ----------------------------------------------------------


def test_cheaper_in_other_words_refines_the_list_shown(data: Path) -> None:
    first, cheaper = talk_over(data, ["잠실역 곱창", "좀 더 합리적인 가격으로"], WEDNESDAY_EVENING)
    assert sorted(c.id for c in first.cards) == ["dear", "night", "story"]
    # below the dearest shown (비싼곱창, 35,000), the places shown left out: only 싼곱창
    assert cheaper.decision == "search"
    assert [c.id for c in cheaper.cards] == ["cheap"]


# --- class 8/11: a party that must be seated ------------------------------------------------------


def test_a_party_asking_for_a_place_that_can_seat_it_asks_for_group_seating(data: Path) -> None:
    (r,) = talk_over(data, ["12명 회식 가능한 곱창집 잠실역"], WEDNESDAY_EVENING)
    assert r.frame is not None and "단체석" in r.frame.convenience
    assert "12명" in r.answer and "알 수 없어요" in r.answer  # the size itself stays unchecked


# --- class 11/14: another day for the restaurant in focus ----------------------------------------


def test_an_elliptical_day_question_answers_for_the_restaurant_in_focus(data: Path) -> None:
    _, _, sunday = talk_over(data, ["잠실역 곱창", "곱창이야기 전화번호", "일요일도 해?"], WEDNESDAY_EVENING)
    assert sunday.decision == "context" and not sunday.cards
    assert "곱창이야기" in sunday.answer and "일요일 영업: 12:00~23:00" in sunday.answer
    assert "밤곱창" not in sunday.answer and "비싼곱창" not in sunday.answer


# --- class 13: a night past midnight, a day the timetable does not list ----------------------------


def test_a_small_hours_time_the_day_before_reaches_is_that_night() -> None:
    hours = parse_business_hours("월~토 17:00 ~ 02:00")
    friday = datetime(2026, 11, 27, 10, 0, tzinfo=SEOUL)
    sunday_1am = datetime(2026, 11, 29, 1, 0, tzinfo=SEOUL)
    assert other_day_hours(hours, sunday_1am, friday) == ("토요일 영업", "17:00~02:00")
    # asked on the Saturday itself: today's night, the card's own line for today
    assert other_day_hours(hours, sunday_1am, SATURDAY_MORNING) is None


def test_a_day_the_timetable_does_not_list_is_never_no_information() -> None:
    hours = parse_business_hours("월~토 17:00 ~ 02:00")
    sunday_noon = datetime(2026, 11, 29, 12, 0, tzinfo=SEOUL)
    label, said = other_day_hours(hours, sunday_noon, WEDNESDAY_EVENING) or ("", "")
    assert label == "일요일 영업"
    assert said == "영업일이 아니에요 (적힌 영업시간: 월~토 17:00 ~ 02:00)"


def test_late_night_cards_on_a_saturday_show_saturdays_night(data: Path) -> None:
    (r,) = talk_over(data, ["잠실역 새벽까지 하는 곱창"], SATURDAY_MORNING)
    night = next(c for c in r.cards if c.id == "night")
    assert night.hours_asked is None  # tonight is today's night: "오늘 영업: 17:00~02:00"
    assert "일요일 영업: 정보 없음" not in r.answer
    assert "오늘 영업: 17:00~02:00" in r.answer


# --- class 13/14: a comparison of one restaurant with itself ----------------------------------------


def test_comparing_a_restaurant_with_itself_says_it_is_the_same_place(data: Path) -> None:
    first, _, same = talk_over(
        data, ["잠실역 곱창", "곱창이야기 몇 시까지 해?", "거기랑 2번 비교해줘"], WEDNESDAY_EVENING
    )
    assert [c.id for c in first.cards][1] == "story"  # 2번 is 곱창이야기, the one in focus
    assert same.decision == "context"
    assert "같은 곳" in same.answer and "곱창이야기" in same.answer


# --- class 2 in dialogues: English follow-ups and romanised names ----------------------------------


def test_english_follow_ups_read_as_the_korean_the_reader_knows() -> None:
    assert koreanize_places("is the second one open on sunday?") == "두 번째 일요일 영업해?"
    assert koreanize_places("오향가 phone number?") == "오향가 전화번호?"
    assert koreanize_places("only places with parking") == "주차 되는 데로"
    assert koreanize_places("any coffee near the first one?") == "any coffee 첫 번째 근처?"
    assert koreanize_places("jamsil saenae pocha") == "잠실새내역 pocha"
    # "bar" reads as 술집 since dlg31 (English bars); "wine 술집" is still read as the 와인바 kind
    assert koreanize_places("songridan-gil wine bar") == "송리단길 wine 술집"
    assert kinds().lookup("pocha") is not None


# --- class 9: a budget along a route ----------------------------------------------------------------


def test_a_route_keeps_the_budget_rule_of_every_search(tmp_path: Path) -> None:
    mid = ((JAMSIL[0] + SAENAE[0]) / 2, (JAMSIL[1] + SAENAE[1]) / 2)

    def between(pid: str, title: str, menus: dict[str, str]) -> dict[str, Any]:
        return {
            "place_id": pid,
            "title": title,
            "category": GOPCHANG,
            "mapx": str(round(mid[1] * 1e7)),
            "mapy": str(round(mid[0] * 1e7)),
            "roadAddress": "서울 송파구 백제고분로 100",
            "menus": [{"name": m, "price": p} for m, p in menus.items()],
            "reviewCount": 30,
        }

    records = [
        # one cheap side dish, a typical (median) price of 35,000: over a 20,000 budget
        between("side", "볶음밥곱창", {"특곱창": "35,000원", "모둠곱창": "35,000원", "볶음밥": "3,000원"}),
        between("fit", "알뜰곱창", {"곱창": "15,000원", "막창": "16,000원"}),
    ]
    (r,) = talk_over(
        ingest_records(tmp_path, records), ["잠실역이랑 잠실새내역 사이 곱창 2만원 이하"], WEDNESDAY_EVENING
    )
    assert r.frame is not None and r.frame.strategy == "route"
    assert [c.id for c in r.cards] == ["fit"]


# --- the scorer: a gold route ---------------------------------------------------------------------


def test_the_scorer_checks_a_gold_route_on_the_plans_route_ends() -> None:
    from matjip.agent.models import TurnResult

    def end(name: str, at: tuple[float, float]) -> PlanLocation:
        return PlanLocation(name=name, lat=at[0], lon=at[1])

    plan = SearchPlan(
        intent="search",
        strategy="route",
        kinds=[(kinds().lookup("곱창") or ("?", False))[0]],
        route=RoutePlan(origin=end("잠실역", JAMSIL), destination=end("잠실새내역", SAENAE)),
    )
    res = TurnResult(session_id="s", decision="search", answer="", plan=plan, frame=plan)
    gold = {
        "kind": "곱창",
        "place": "잠실역",
        "near": True,
        "conveniences": [],
        "exclude": [],
        "price_max": None,
        "k": 3,
        "open": None,
        "route": ["잠실역", "잠실새내역"],
    }
    assert check_frame(gold, res, gps=None) == []
    assert check_frame({**gold, "route": ["잠실새내역", "잠실역"]}, res, gps=None) != []


# --- class 13: particles fit the word in every note -------------------------------------------------


def test_the_notes_particles_fit_the_word() -> None:
    from matjip.agent.answer import plan_notes

    said = plan_notes(SearchPlan(intent="search", unused_terms=["자리"]), None)
    assert said == ["'자리'는 데이터로 확인할 수 없어서 빼고 찾았어요."]
    said = plan_notes(SearchPlan(intent="search", exclude_menu=["순대국"]), None)
    assert said == ["'순대국'은 빼고 찾았어요."]


# --- class 8: "cheaper" said as a burden -------------------------------------------------------------


def test_a_lighter_burden_on_the_wallet_asks_for_cheaper_places() -> None:
    from matjip.agent.acts import asks_cheaper

    assert asks_cheaper("가격 부담 덜한 데로")
    assert asks_cheaper("지갑이 얇아서 저렴이로 부탁")
    assert not asks_cheaper("가격 정보 있는 데로")


# --- class 13: a comparison shows the numbers that decide it ------------------------------------------


def test_an_hours_comparison_names_the_times_and_a_day_the_timetable_skips(data: Path) -> None:
    ask = "밤곱창이랑 곱창이야기 중에 어디가 더 늦게까지 해?"
    _, wednesday = talk_over(data, ["잠실역 곱창", ask], WEDNESDAY_EVENING)
    assert (
        "오늘은 밤곱창이 가장 늦게까지 하고(02:00까지), 곱창이야기가 가장 일찍 열어요(12:00부터"
        in wednesday.answer
    )
    sunday_noon = datetime(2026, 11, 29, 12, 0, tzinfo=SEOUL)
    _, sunday = talk_over(data, ["잠실역 곱창", ask], sunday_noon)
    assert "밤곱창은 오늘(일) 영업일이 아니라서" in sunday.answer
    assert "정보가 없어서" not in sunday.answer


# --- class 14: references survive any follow-up ---------------------------------------------------

TITLES = {r["place_id"]: r["title"] for r in RECORDS}
PHONES = {"night": "02-111-1111", "story": "02-222-2222"}
# each record's Sunday as its timetable says it (by hand from RECORDS)
SUNDAY = {
    "night": "일요일 영업: 영업일이 아니에요 (월~토 영업)",
    "story": "일요일 영업: 12:00~23:00",
    "dear": "일요일 영업: 12:00~23:00",
}


def test_a_refinement_that_still_shows_the_one_in_focus_keeps_there_pointing_at_it(data: Path) -> None:
    first, _, refined, phone = talk_over(
        data, ["잠실역 곱창", "두 번째 어때", "룸 있는 데로", "거기 전화번호"], WEDNESDAY_EVENING
    )
    second = first.cards[1].id
    assert second in {c.id for c in refined.cards}  # 룸 is in no record: dropped, said, same places
    assert phone.decision == "context"
    assert TITLES[second] in phone.answer
    assert all(TITLES[c.id] not in phone.answer for c in first.cards if c.id != second)


def test_a_day_question_after_a_travel_question_answers_that_day_for_the_same_place(data: Path) -> None:
    first, travel, sunday = talk_over(
        data,
        ["잠실역 곱창", "첫 번째 거기 잠실새내역에서 걸어가면 몇 분?", "거기 일요일도 해?"],
        WEDNESDAY_EVENING,
    )
    one = first.cards[0].id
    assert "분" in travel.answer and TITLES[one] in travel.answer
    assert TITLES[one] in sunday.answer and SUNDAY[one] in sunday.answer


def test_which_is_nearer_is_a_comparison_by_distance_with_the_distances(data: Path) -> None:
    _, nearer = talk_over(
        data, ["잠실역 곱창", "밤곱창이랑 곱창이야기 중에 어디가 더 가까워?"], WEDNESDAY_EVENING
    )
    assert nearer.decision == "context" and not nearer.cards
    # 100 m and 150 m north of 잠실역 (RECORDS)
    assert "검색한 곳에서 밤곱창이 더 가까워요 (밤곱창 100m, 곱창이야기 150m)" in nearer.answer
