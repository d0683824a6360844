"""Issue 24, classes 10, 12, 13 and 15: a local guide's answer — good places first (and why), the
clock, facts worded as what they are, and a heading that claims only what the cards show.

Each test ingests a few hand-written crawl records (the raw crawl's shape) into a fresh data
directory and asks one question; expected values are worked out by hand from the records.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from support.records import ask_over as records_ask_over

SEOUL = ZoneInfo("Asia/Seoul")
WEDNESDAY_EVENING = datetime(2026, 11, 25, 19, 30, tzinfo=SEOUL)
JAMSIL = (37.513977, 127.102198)  # 잠실역
M_PER_DEG_LAT = 111_195


def record(place_id: str, title: str, category: str, north_m: float, **extra: Any) -> dict[str, Any]:
    """A crawl record ``north_m`` metres north of 잠실역 with a priced menu."""
    lat = JAMSIL[0] + north_m / M_PER_DEG_LAT
    menus = extra.pop("menus", [{"name": "생삼겹살", "price": "15,000원"}])
    return {
        "place_id": place_id,
        "title": title,
        "category": category,
        "mapx": str(round(JAMSIL[1] * 1e7)),
        "mapy": str(round(lat * 1e7)),
        "roadAddress": "서울 송파구 올림픽로 300",
        "menus": menus,
        **extra,
    }


def ask_over(
    tmp_path: Path, records: list[dict[str, Any]], text: str, now: datetime = WEDNESDAY_EVENING
) -> Any:
    return records_ask_over(tmp_path, records, text, now)


# --- class 10: 맛집 means good places first ----------------------------------------------------


def test_a_well_reviewed_place_comes_before_a_barely_known_nearer_one_and_says_why(tmp_path: Path) -> None:
    records = [
        record("1", "골목삼겹", "한식>육류,고기>삼겹살", 80, rating=5.0, reviewCount=2),
        record("2", "동네고기", "한식>육류,고기>삼겹살", 150, reviewCount=0),
        record(
            "3",
            "잠실삼겹명가",
            "한식>육류,고기>삼겹살",
            520,
            rating=4.4,
            reviewCount=218,
            reviewKeywords={"맛": 41, "친절": 12},
            businessHours="매일 11:00 ~ 23:00",
        ),
    ]
    r = ask_over(tmp_path, records, "잠실역 삼겹살 맛집")
    assert [c.id for c in r.cards][:1] == ["3"]
    assert r.cards[0].standing is not None and "리뷰 218건" in r.cards[0].standing
    assert "리뷰 218건" in r.answer


# --- class 12: the clock ------------------------------------------------------------------------


def test_small_hours_asked_in_the_evening_mean_tonight(tmp_path: Path) -> None:
    pub = "술집>호프,요리주점"
    records = [
        # open until 02:00 after Monday and Tuesday: 01:00 this (Wednesday) morning, not tonight
        record("mon", "월화호프", pub, 100, businessHours="월~화 18:00 ~ 02:00", reviewCount=30),
        # open until 02:00 after Wednesday: tonight
        record("wed", "수요호프", pub, 120, businessHours="수 18:00 ~ 02:00", reviewCount=3),
    ]
    wednesday_night = datetime(2026, 11, 25, 21, 0, tzinfo=SEOUL)
    r = ask_over(tmp_path, records, "잠실역 새벽 1시에 하는 호프집", now=wednesday_night)
    assert [c.id for c in r.cards] == ["wed"]


def test_a_question_about_another_day_shows_that_days_hours(tmp_path: Path) -> None:
    records = [
        record(
            "1", "토요삼겹", "한식>육류,고기>삼겹살", 100, businessHours="매일 11:00 ~ 22:00", reviewCount=40
        ),
    ]
    r = ask_over(tmp_path, records, "잠실역 토요일 점심 삼겹살")
    assert r.cards and r.cards[0].hours_asked == "토요일 영업: 11:00~22:00"
    assert "토요일 영업: 11:00~22:00" in r.answer


def test_at_night_a_place_closing_within_the_hour_is_flagged_and_comes_after_open_ones(
    tmp_path: Path,
) -> None:
    meat = "한식>육류,고기>삼겹살"
    records = [
        record(
            "early",
            "일찍닫는삼겹",
            meat,
            100,
            businessHours="매일 11:00 ~ 22:00",
            reviewCount=300,
            rating=4.5,
        ),
        record(
            "late", "늦게까지삼겹", meat, 110, businessHours="매일 11:00 ~ 24:00", reviewCount=40, rating=4.2
        ),
    ]
    half_past_nine = datetime(2026, 11, 25, 21, 30, tzinfo=SEOUL)
    r = ask_over(tmp_path, records, "잠실역 삼겹살", now=half_past_nine)
    assert [c.id for c in r.cards] == ["late", "early"]
    assert "- 지금: 곧 마감 · 22:00" in r.answer


# --- class 13: facts a user relies on -----------------------------------------------------------


def test_one_parking_tag_among_many_reviews_is_a_mention_not_a_fact(tmp_path: Path) -> None:
    records = [
        record(
            "1",
            "주차삼겹",
            "한식>육류,고기>삼겹살",
            100,
            reviewCount=218,
            rating=4.3,
            reviewKeywords={"맛": 60, "주차": 1},
        ),
    ]
    r = ask_over(tmp_path, records, "잠실역 주차 되는 삼겹살")
    assert [c.id for c in r.cards] == ["1"]
    assert "주차 언급 1건" in r.answer
    assert "주차 가능 (" not in r.answer


def _place(pid: str, title: str, parking_votes: int, **kw: Any) -> Any:
    from matjip.agent.models import Shown
    from matjip.documents import Evidence, Restaurant

    ev = [
        Evidence(field="convenience", value="주차", source="reviewKeywords", span="주차", count=parking_votes)
    ]
    doc = Restaurant(
        place_id=pid,
        title=title,
        review_count=200,
        review_keywords={"주차": parking_votes, **kw.pop("review_keywords", {})},
        convenience=["주차"],
        evidence=ev,
        **kw,
    )
    return Shown(doc=doc)


def test_a_parking_comparison_shows_the_counts_and_names_the_better_one() -> None:
    from matjip.agent.answer import compare_answer

    a, b = _place("a", "넓은주차삼겹", 12), _place("b", "골목삼겹", 1)
    text = "".join(compare_answer([("넓은주차삼겹", [a]), ("골목삼겹", [b])], WEDNESDAY_EVENING, "parking"))
    row = next(line for line in text.splitlines() if line.startswith("| 주차 |"))
    assert row == "| 주차 | 가능 (태그 12건) | 언급 1건 |"
    assert (
        "주차는 넓은주차삼겹 쪽 근거가 가장 많아요 (방문자 태그 '주차' 넓은주차삼겹 12건, 골목삼겹 1건)."
        in text
    )


def test_only_real_branches_are_called_other_branches() -> None:
    from matjip.agent.answer import information_answer

    first, branch, other = (
        _place("1", "진대감 마포점", 3),
        _place("2", "진대감 잠실점", 3),
        _place("3", "진대감갈비", 3),
    )
    text = "".join(information_answer([first, branch, other], ["hours"], [], WEDNESDAY_EVENING, None))
    assert "같은 이름의 다른 지점도 있어요: 진대감 잠실점\n" in text


def test_a_median_of_an_even_count_is_the_mean_of_the_middle_two() -> None:
    from matjip.agent.answer import typical_price
    from matjip.documents import MenuItem, Restaurant

    doc = Restaurant(
        place_id="1",
        title="국밥집",
        menus=[MenuItem(name="국밥", price=9000), MenuItem(name="수육", price=11000)],
    )
    assert typical_price(doc) == 10000


def test_particles_fit_the_word() -> None:
    from matjip.text.josa import josa

    assert josa("주차", "이/가") == "주차가"
    assert josa("예약", "이/가") == "예약이"
    assert josa("스시마이우", "은/는") == "스시마이우는"
    assert josa("교촌치킨", "은/는") == "교촌치킨은"
    assert josa("서울", "으로/로") == "서울로"
    assert josa("강남역", "으로/로") == "강남역으로"
    assert josa("'주차'", "은/는") == "'주차'는"
    assert josa("BBQ", "이/가") == "BBQ가"
    assert josa("79대포", "을/를") == "79대포를"
    assert josa("2호점 7", "이/가") == "2호점 7이"


def test_a_comparison_verdict_uses_the_fitting_particle() -> None:
    from matjip.agent.answer import compare_answer

    a = _place("a", "스시마이우", 1, rating=4.5, review_keywords={"맛": 80})
    b = _place("b", "교촌치킨", 1, rating=4.0, review_keywords={"맛": 10})
    text = "".join(compare_answer([("스시마이우", [a]), ("교촌치킨", [b])], WEDNESDAY_EVENING, "taste"))
    assert "스시마이우가 더 높아요" in text and "이(가)" not in text


# --- class 15: the heading never overclaims ------------------------------------------------------


def test_the_heading_names_only_the_wishes_the_cards_show(tmp_path: Path) -> None:
    bar = "술집>와인바"
    records = [
        record("1", "석촌와인", bar, 100, reviewCount=40, menus=[{"name": "하우스와인", "price": "9,000원"}]),
        record(
            "2", "호수와인", bar, 150, reviewCount=20, menus=[{"name": "글라스와인", "price": "12,000원"}]
        ),
    ]
    r = ask_over(tmp_path, records, "잠실역 조용한 와인바")
    first = (
        r.answer.split("\n")[0]
        if "곳을 찾았어요" in r.answer.split("\n")[0]
        else next(line for line in r.answer.split("\n") if "곳을 찾았어요" in line)
    )
    assert "조용한 와인바" not in first
    assert "(조용한 곳인지는 정보가 없어요)" in first
