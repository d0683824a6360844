"""Issue 24, classes 10 (good places first), 12 (the clock) and 13 (facts a user relies on), in the one
ranking policy (helper rank25; audit r11 Q2, Q7, Q13 and its class 5 "closed today among the picks").

- A walk along a route is a visit now: a place shut for the day (its day off, a weekday its timetable
  leaves out, closed already) goes after the open ones, whatever its detour (audit r11 Q13: a bakery
  shut all Saturday first on a Saturday-noon walk).
- The visit said to be today ("오늘 갈", "이따", "퇴근하고") — or a wish about today ("비 오는 날": it
  rains now) — puts a place whose timetable leaves today out after the open ones, as a closed one is
  by day; a plain question by day moves no such place (the older sets judge it so).
- A described family's cold-noodle house ("○○막국수칼국수" filed under 칼국수) is no rainy-day bowl:
  after the hot ones (audit r11 Q7), as data (``kinds.toml`` theme ``after_titles``).
- A convenience asked that a place's visitors only mention ("주차 언급 2건") puts it after the places
  the cards state it for that are as near and nearly as well known (audit r11 Q2) — never after a
  farther or little-known one (relevance_dev2 r208, relevance_test19 t2479); the heading says the
  counts, not another kind of evidence.

Each test ingests hand-written crawl records and asks the real offline agent at a fixed clock.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from support.chat import SEOUL
from support.records import ask_over
from support.records import card_ids as ids
from support.records import north_of_jamsil as record

SATURDAY_NOON = datetime(2026, 11, 28, 12, 10, tzinfo=SEOUL)


def _pasta(weekday_reviews: int = 300) -> list[dict[str, Any]]:
    return [
        record(
            "weekdays",
            "평일파스타",
            "양식>이탈리안",
            200,
            ["봉골레 파스타", "까르보나라"],
            reviewCount=weekday_reviews,
            businessHours="월~금 11:00 ~ 21:00",
        ),
        record(
            "daily",
            "매일파스타",
            "양식>이탈리안",
            300,
            ["알리오올리오", "라구 파스타"],
            reviewCount=20,
            businessHours="매일 11:00 ~ 22:00",
        ),
    ]


# --- class 12: the route is walked now ---


def test_a_route_walked_now_puts_a_place_shut_today_after_the_open_ones(tmp_path: Path) -> None:
    # Saturday noon. "weekdays" sits on the start (detour ~0 m, 300 reviews) but lists 월~금: shut all
    # Saturday; "daily" is 150 m off the way, open. Walking now, the open one comes first.
    records = [
        record(
            "weekdays",
            "평일베이커리",
            "간식>제과,베이커리",
            0,
            ["소금빵", "크루아상"],
            reviewCount=300,
            businessHours="월~금 09:00 ~ 20:00",
        ),
        record(
            "daily",
            "매일베이커리",
            "간식>제과,베이커리",
            150,
            ["단팥빵", "바게트"],
            reviewCount=20,
            businessHours="매일 08:00 ~ 22:00",
        ),
    ]
    r = ask_over(tmp_path, records, "잠실역에서 잠실새내역까지 걸어가는 길에 빵집", SATURDAY_NOON)
    assert ids(r)[:2] == ["daily", "weekdays"]


# --- class 12: the visit said to be today ---


def test_a_visit_said_today_puts_a_day_the_timetable_leaves_out_after_the_open_ones(tmp_path: Path) -> None:
    r = ask_over(tmp_path, _pasta(), "오늘 잠실역 파스타 맛집", SATURDAY_NOON)
    assert ids(r) == ["daily", "weekdays"]


def test_later_today_said_too(tmp_path: Path) -> None:
    r = ask_over(tmp_path, _pasta(), "이따 퇴근하고 잠실역 파스타 먹으러 갈 건데", SATURDAY_NOON)
    assert ids(r) == ["daily", "weekdays"]


def test_a_plain_question_by_day_keeps_the_place_but_shows_it_after_the_open_one(tmp_path: Path) -> None:
    # no visit today said, by day: a weekday the timetable leaves out does not change which places are
    # shown (the sets judge no closures), but since rank27 the card shut today is shown after the open one
    # (audit r13 Q3.1, Q5: Saturday lunch led by a place closed that day; rank.cards_in_order)
    r = ask_over(tmp_path, _pasta(), "잠실역 파스타 맛집", SATURDAY_NOON)
    assert ids(r) == ["daily", "weekdays"]


# --- classes 3/10/12: a rainy day is today, and a cold-noodle house is no rainy-day bowl ---


def test_a_rainy_day_puts_a_cold_noodle_house_after_the_hot_bowls(tmp_path: Path) -> None:
    records = [
        record(
            "cold",
            "봉메밀막국수칼국수",
            "한식>국수>칼국수",
            150,
            ["비빔 막국수", "물 막국수", "명태회 막국수", "판모밀", "메밀 들깨칼국수"],
            reviewCount=60,
            businessHours="매일 10:00 ~ 21:00",
        ),
        record(
            "hot",
            "바지락칼국수집",
            "한식>국수>칼국수",
            250,
            ["바지락칼국수", "들깨수제비"],
            reviewCount=10,
            businessHours="매일 11:00 ~ 21:00",
        ),
    ]
    r = ask_over(tmp_path, records, "잠실역 비 오는 날 땡기는 거", SATURDAY_NOON)
    assert ids(r)[:2] == ["hot", "cold"]


def test_a_rainy_day_is_today(tmp_path: Path) -> None:
    records = [
        record(
            "weekdays",
            "평일칼국수",
            "한식>국수>칼국수",
            150,
            ["바지락칼국수", "수제비"],
            reviewCount=200,
            businessHours="월~금 11:00 ~ 21:00",
        ),
        record(
            "daily",
            "매일칼국수",
            "한식>국수>칼국수",
            250,
            ["손칼국수", "김치수제비"],
            reviewCount=10,
            businessHours="매일 11:00 ~ 21:00",
        ),
    ]
    r = ask_over(tmp_path, records, "비 오는데 잠실역 근처 뭐 먹지", SATURDAY_NOON)
    assert ids(r)[:2] == ["daily", "weekdays"]


# --- class 13: a convenience only mentioned goes after the places it is stated for ---


def test_a_parking_mention_goes_after_the_places_parking_is_stated_for(tmp_path: Path) -> None:
    records = [
        record(
            "mention",
            "교차로돈까스",
            "일식>돈까스,우동",
            200,
            ["로스카츠", "히레카츠"],
            reviewCount=119,
            reviewKeywords={"맛": 52, "주차": 2},
            businessHours="매일 11:30 ~ 21:00",
        ),
        record(
            "stated",
            "주차돈까스",
            "일식>돈까스,우동",
            300,
            ["등심돈가스", "치즈돈가스"],
            reviewCount=100,
            reviewKeywords={"맛": 45, "주차": 10},
            businessHours="매일 11:00 ~ 21:00",
        ),
    ]
    r = ask_over(tmp_path, records, "잠실역 돈까스집 주차 되는 곳", SATURDAY_NOON)
    assert ids(r) == ["stated", "mention"]


def test_the_heading_says_how_many_mentions_not_another_kind_of_evidence(tmp_path: Path) -> None:
    # all three rest on visitor tags (10, 4 and 2): the bracket says the counts of the mentioned one
    records = [
        record(
            "ten",
            "열주차돈까스",
            "일식>돈까스,우동",
            200,
            ["로스카츠", "히레카츠"],
            reviewCount=110,
            reviewKeywords={"맛": 50, "주차": 10},
        ),
        record(
            "four",
            "넷주차돈까스",
            "일식>돈까스,우동",
            250,
            ["등심돈가스", "치즈돈가스"],
            reviewCount=100,
            reviewKeywords={"맛": 45, "주차": 4},
        ),
        record(
            "two",
            "둘주차돈까스",
            "일식>돈까스,우동",
            300,
            ["안심돈가스", "생선까스"],
            reviewCount=119,
            reviewKeywords={"맛": 52, "주차": 2},
        ),
    ]
    r = ask_over(tmp_path, records, "잠실역 돈까스집 주차 되는 곳", SATURDAY_NOON)
    assert ids(r) == ["ten", "four", "two"]
    heading = next(line for line in r.answer.splitlines() if "곳을 찾았어요" in line)
    assert "1·2번에 근거가 더 있고, 3번은 방문자 태그 언급 2건뿐이에요" in heading, heading
    assert "태그 언급만 있어요" not in heading


def test_a_parking_mention_stays_ahead_of_a_stated_place_few_know(tmp_path: Path) -> None:
    # control (relevance_test19 t2479): a stated place much less known does not jump a well-known one
    records = [
        record(
            "mention",
            "교차로돈까스",
            "일식>돈까스,우동",
            200,
            ["로스카츠", "히레카츠"],
            reviewCount=119,
            reviewKeywords={"맛": 52, "주차": 2},
        ),
        record(
            "unknown",
            "작은주차돈까스",
            "일식>돈까스,우동",
            250,
            ["등심돈가스", "치즈돈가스"],
            reviewCount=12,
            reviewKeywords={"맛": 3, "주차": 3},
        ),
    ]
    r = ask_over(tmp_path, records, "잠실역 돈까스집 주차 되는 곳", SATURDAY_NOON)
    assert ids(r) == ["mention", "unknown"]


def test_a_parking_mention_near_stays_ahead_of_a_stated_place_much_farther(tmp_path: Path) -> None:
    # control (relevance_dev2 r208): evidence strength decides among neighbours, never pulls a far place
    records = [
        record(
            "mention",
            "교차로돈까스",
            "일식>돈까스,우동",
            100,
            ["로스카츠", "히레카츠"],
            reviewCount=119,
            reviewKeywords={"맛": 52, "주차": 2},
        ),
        record(
            "far",
            "먼주차돈까스",
            "일식>돈까스,우동",
            900,
            ["등심돈가스", "치즈돈가스"],
            reviewCount=60,
            reviewKeywords={"맛": 20, "주차": 10},
        ),
    ]
    r = ask_over(tmp_path, records, "잠실역 돈까스집 주차 되는 곳", SATURDAY_NOON)
    assert ids(r) == ["mention", "far"]
    assert "언급 각" not in r.answer


# --- class 10: a 맛집 asked with no kind is a meal: a bakery or a café goes after the meal places ---


def _meal_records() -> list[dict[str, Any]]:
    return [
        record(
            "bakery",
            "하츠베이커리",
            "간식>제과,베이커리",
            100,
            ["소금빵", "카페라떼"],
            reviewCount=200,
            reviewKeywords={"맛": 80},
        ),
        record("gukbap", "오금국밥", "한식>국밥", 300, ["순대국밥", "수육"], reviewCount=30),
        record("pasta", "오금파스타", "양식>이탈리안", 350, ["까르보나라", "봉골레"], reviewCount=25),
    ]


def test_a_matjip_asked_with_no_kind_puts_a_bakery_after_the_meal_places(tmp_path: Path) -> None:
    r = ask_over(tmp_path, _meal_records(), "잠실역 맛집", SATURDAY_NOON)
    assert ids(r)[-1] == "bakery" and set(ids(r)[:2]) == {"gukbap", "pasta"}


def test_a_bakery_asked_for_stays_first(tmp_path: Path) -> None:
    # control: a bakery named is what was asked
    r = ask_over(tmp_path, _meal_records(), "잠실역 빵집 맛집", SATURDAY_NOON)
    assert ids(r)[0] == "bakery"
