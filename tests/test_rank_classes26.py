"""Issue 24 classes 10, 11, 12 and 15 (helper rank26, session s39), one test each, failing on c679a19.
Expected facts come from hand-made crawl records near 잠실역 (``support.records``).

- class 10: "맛집" means good places first within the kind — a place with a handful of reviews went ahead of
  places of the same kind and standing with 20+ reviews in the radius (audit r12 C1.1: 진곱창 rc 8, 야곱293
  rc 5 before 군자대한곱창 rc 27), and an empty document (no review, menu or hours: 영희네식품) was second
  for "밥집" with well-reviewed restaurants in range (audit r12 final Q5).
- class 12: asked in the evening with no time said ("잠실역 술집" at 19:40), a card closing within the hour or
  closed for the day carried no flag (the flag began at 20:00); at night a rating order ("평점 높은 술집")
  put a place closed for the day first.
- class 15/11: a cuisine alone asked ("조용한 일식") over cards all of that cuisine by their category
  got the "검색 점수가 낮아서" caveat, which kinds asked by name had lost (test_audit12_lead).
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from support.records import ingest_records, talk_over
from support.records import near_jamsil as near

KST = ZoneInfo("Asia/Seoul")
WED_EVENING = datetime(2026, 11, 25, 19, 40, tzinfo=KST)
WED_NIGHT = datetime(2026, 11, 25, 22, 30, tzinfo=KST)


def test_a_cuisine_asked_alone_over_cards_of_it_by_category_gets_no_low_score_caveat(tmp_path) -> None:  # type: ignore[no-untyped-def]
    records = [
        near("j1", "스시하루", 150, "일식>초밥,롤", {"모둠초밥": "16,000원"}, reviewCount=12),
        near("j2", "우동명가", 300, "일식>우동,소바", {"냄비우동": "9,000원"}, reviewCount=8),
        near("j3", "돈카츠하우스", 450, "일식>돈까스,우동", {"로스카츠": "11,000원"}, reviewCount=5),
        near("k1", "김치찌개집", 200, "한식>찌개,전골", {"김치찌개": "9,000원"}, reviewCount=30),
    ]
    data = ingest_records(tmp_path, records)
    (r,) = talk_over(data, ["잠실역 조용한 일식"], WED_EVENING)
    assert r.cards and all(c.cuisine == "일식" for c in r.cards), r.answer
    assert "검색 점수가 낮아서" not in r.answer, r.answer


def test_a_drink_alone_is_named_as_asked_and_found_at_bars(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Class 15: "혼술" was read as 혼밥 and answered "혼밥하기 좋은 곳인지는 정보가 없어요" over 김밥 houses
    (a 분식 category suits a meal alone); a local means a bar, and the heading names what was asked."""
    records = [
        near("b1", "김밥나라", 100, "분식>김밥", {"참치김밥": "4,000원"}, reviewCount=20),
        near("b2", "라면공방", 180, "분식", {"라면": "5,000원"}, reviewCount=15),
        near("d1", "달빛주점", 300, "술집>요리주점", {"모둠전": "18,000원"}, reviewCount=25),
        near("d2", "하루이자카야", 450, "술집>일본식주점", {"꼬치모둠": "22,000원"}, reviewCount=18),
    ]
    data = ingest_records(tmp_path, records)
    (r,) = talk_over(data, ["잠실역 혼술"], WED_EVENING)
    assert {c.name for c in r.cards} == {"달빛주점", "하루이자카야"}, r.answer
    assert "혼술" in r.answer and "혼밥" not in r.answer, r.answer
    (r,) = talk_over(data, ["잠실역 혼밥"], WED_EVENING)  # a meal alone: still the 분식 houses, said as asked
    assert {"김밥나라", "라면공방"} <= {c.name for c in r.cards} and "혼술" not in r.answer, r.answer
    (r,) = talk_over(data, ["잠실역 혼자 커피 마시기 좋은 카페"], WED_EVENING)  # a coffee alone is no 혼술
    assert "혼술" not in r.answer, r.answer


HOURS = {"businessHours": "매일 11:00 ~ 23:00"}


def test_little_known_places_go_after_well_known_ones_of_their_standing_about_as_near(tmp_path) -> None:  # type: ignore[no-untyped-def]
    gop = "한식>육류,고기>곱창,막창"
    records = [
        near("g1", "대박곱창", 300, gop, {"모둠곱창": "25,000원"}, reviewCount=60, **HOURS),
        near("g2", "작은곱창", 580, gop, {"소곱창": "24,000원"}, reviewCount=3, **HOURS),
        near("g3", "골목막창", 620, gop, {"막창": "15,000원"}, reviewCount=4, **HOURS),
        near("g4", "원조곱창골목", 790, gop, {"곱창전골": "30,000원"}, reviewCount=22, **HOURS),
        near("g5", "황소곱창", 840, gop, {"대창": "28,000원"}, reviewCount=20, **HOURS),
    ]
    data = ingest_records(tmp_path, records)
    (r,) = talk_over(data, ["잠실역 곱창 맛집"], WED_EVENING)
    # 원조곱창골목 (22 reviews) is at most a quarter of the radius beyond both little-known places and goes
    # first; 황소곱창 (20) lies more than that beyond 작은곱창 (near a station means near), which stays
    assert [c.name for c in r.cards] == ["대박곱창", "원조곱창골목", "작은곱창"], r.answer


def test_an_empty_document_is_not_shown_for_a_meal_when_known_places_are_in_range(tmp_path) -> None:  # type: ignore[no-untyped-def]
    records = [
        near("e1", "영희네식품", 150, "한식>두부전문점", []),
        near("m1", "콩나물국밥집", 600, "한식>국밥", {"콩나물국밥": "7,000원"}, reviewCount=6),
        near("m2", "돈카츠명가", 400, "일식>돈까스,우동", {"로스카츠": "11,000원"}, reviewCount=40, **HOURS),
        near("m3", "만리향", 500, "중식>중국요리", {"짜장면": "7,000원"}, reviewCount=35, **HOURS),
    ]
    data = ingest_records(tmp_path, records)
    (r,) = talk_over(data, ["잠실역 밥집"], WED_EVENING)
    names = [c.name for c in r.cards]
    assert names and "영희네식품" not in names and names[0] == "콩나물국밥집", r.answer


BAR = "술집>요리주점"


def test_the_evening_cards_flag_places_closing_within_the_hour_or_closed_for_the_day(tmp_path) -> None:  # type: ignore[no-untyped-def]
    records = [
        near(
            "a1",
            "밤새주점",
            200,
            BAR,
            {"모둠전": "18,000원"},
            reviewCount=30,
            businessHours="매일 17:00 ~ 01:00",
        ),
        near(
            "a2",
            "여덟시주점",
            300,
            BAR,
            {"골뱅이": "17,000원"},
            reviewCount=28,
            businessHours="매일 11:00 ~ 20:00",
        ),
        near(
            "a3", "낮술집", 250, BAR, {"파전": "15,000원"}, reviewCount=26, businessHours="매일 11:00 ~ 19:00"
        ),
    ]
    data = ingest_records(tmp_path, records)
    (r,) = talk_over(data, ["잠실역 술집"], WED_EVENING)  # 19:40, no time asked
    blocks = {b.split("**")[1]: b for b in r.answer.split("\n\n") if b.startswith("**")}
    assert "- 지금: 곧 마감 · 20:00" in blocks["2. 여덟시주점"], r.answer
    assert "- 지금: 오늘 영업 종료" in blocks["3. 낮술집"], r.answer  # closed for the day: last, and said
    assert "지금:" not in blocks["1. 밤새주점"], r.answer


def test_a_rating_order_at_night_puts_places_closed_for_the_day_after_open_ones(tmp_path) -> None:  # type: ignore[no-untyped-def]
    records = [
        near(
            "r1",
            "별점주점",
            200,
            BAR,
            {"모둠전": "18,000원"},
            reviewCount=40,
            rating=4.9,
            businessHours="매일 11:00 ~ 22:00",
        ),
        near(
            "r2",
            "심야주점",
            300,
            BAR,
            {"골뱅이": "17,000원"},
            reviewCount=35,
            rating=4.5,
            businessHours="매일 17:00 ~ 02:00",
        ),
        near(
            "r3",
            "새벽주점",
            400,
            BAR,
            {"파전": "15,000원"},
            reviewCount=30,
            rating=4.3,
            businessHours="매일 18:00 ~ 03:00",
        ),
    ]
    data = ingest_records(tmp_path, records)
    (r,) = talk_over(data, ["잠실역 평점 높은 술집"], WED_NIGHT)  # 22:30
    assert [c.name for c in r.cards][:2] == ["심야주점", "새벽주점"], r.answer
