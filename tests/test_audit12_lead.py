"""Classes of the twelfth issue-24 audit (docs/audit_issue24_r12.md, graded on 61faa53) fixed by the lead,
one test each, failing on that code. Expected facts come from hand-made records or the raw demo crawl.

Q6 (F1, class 12): "강동구청역 11시 넘어서도 하는 포차" at 23:10 was read as "open at 11:00", so two 포차 open
inside 1 km were dropped and "1km 안에는 없어서" was said. Q16 (class 2): "학암동 조용한 카페" — a dong the
gazetteer does not know — was asked "어느 동네에서 찾을까요?". Q11 (classes 11, 15): "가볍게 샐러드나 포케" gave
"(캐주얼한 곳인지는 정보가 없어요)" and searched 포케 alone. Q8: "검색 점수가 낮아서 … 확신하기 어려워요" above three
라멘 houses filed 일본식라면. C2.1 (class 9): a course asked at 19:40 put dinner at 18:30 and said
"'관광지'은(는) … (실시간 장소 검색이 설정되어 있지 않아요)" under a heading claiming a 관광지 stop.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from support.records import ingest_records, talk_over
from support.records import near_jamsil as near

KST = ZoneInfo("Asia/Seoul")
WED_NIGHT = datetime(2026, 11, 25, 23, 10, tzinfo=KST)
WED_EVENING = datetime(2026, 11, 25, 19, 40, tzinfo=KST)


def test_a_bare_hour_said_with_past_is_that_hour_of_the_night() -> None:
    from matjip.nlu.slots import parse_time

    spec, _ = parse_time("강동구청역 11시 넘어서도 하는 포차")
    assert spec is not None and spec.kind == "at" and spec.minute == 23 * 60 + 1, spec
    assert spec.label == "밤 11시 넘어서도"
    spec, _ = parse_time("새벽 2시 넘어서도 여는 술집")
    assert spec is not None and spec.minute == 24 * 60 + 2 * 60 + 1, spec
    spec, _ = parse_time("10시 이후에도 하는 고깃집")
    assert spec is not None and spec.minute == 22 * 60 + 1, spec
    spec, _ = parse_time("11시에 여는 브런치")  # no "past": the plain reading stays
    assert spec is not None and spec.minute == 11 * 60, spec


def test_places_open_past_the_hour_asked_are_found_inside_the_first_radius(tmp_path) -> None:  # type: ignore[no-untyped-def]
    pocha = "술집>실내포장마차"
    records = [
        near(
            "p1",
            "삼주포차",
            200,
            pocha,
            ["김치전", "육전"],
            businessHours="매일 18:00 ~ 02:00",
            reviewCount=5,
        ),
        near("p2", "다올포차", 700, pocha, ["오뎅탕"], businessHours="매일 17:00 ~ 04:00", reviewCount=6),
        near("p3", "낮포차", 400, pocha, ["파전"], businessHours="매일 11:00 ~ 22:00", reviewCount=40),
    ]
    data = ingest_records(tmp_path, records)
    (r,) = talk_over(data, ["잠실역 11시 넘어서도 하는 포차"], WED_NIGHT)
    names = [c.name for c in r.cards]
    assert names and set(names) <= {"삼주포차", "다올포차"}, r.answer
    assert "없어서" not in r.answer.splitlines()[0], r.answer


def test_a_dong_the_gazetteer_does_not_know_is_said_so_not_asked_again(sample_agent) -> None:  # type: ignore[no-untyped-def]
    from support.chat import Chat

    r = Chat(sample_agent)("학암동 조용한 카페")
    assert "학암동" in r.answer and "어느 동네" not in r.answer, r.answer
    r = Chat(sample_agent)("우동 맛집")  # a food, not a dong: where is still asked
    assert "어느 동네" in r.answer, r.answer


def test_a_kind_said_as_an_alternative_to_its_child_keeps_the_broader(tmp_path) -> None:  # type: ignore[no-untyped-def]
    records = [
        near("s1", "그린샐러드", 150, "샐러드", {"리코타 샐러드": "9,000원"}, reviewCount=30),
        near("s2", "하와이포케", 250, "샐러드>포케", {"연어포케": "11,000원"}, reviewCount=20),
    ]
    data = ingest_records(tmp_path, records)
    (r,) = talk_over(data, ["잠실역 가볍게 샐러드나 포케"], WED_EVENING)
    assert {c.name for c in r.cards} == {"그린샐러드", "하와이포케"}, r.answer
    assert "캐주얼" not in r.answer, r.answer
    (r,) = talk_over(data, ["잠실역 포케 샐러드"], WED_EVENING)  # no "or": the child narrows
    assert [c.name for c in r.cards] == ["하와이포케"], r.answer


def test_places_all_of_the_kind_by_category_get_no_low_score_caveat(tmp_path) -> None:  # type: ignore[no-untyped-def]
    ramen = "일식>일본식라면"
    records = [
        near(f"r{i}", f"라멘집{i}", 120 + 90 * i, ramen, {"돈코츠라멘": "10,000원"}, reviewCount=20 - i)
        for i in range(3)
    ]
    data = ingest_records(tmp_path, records)
    (r,) = talk_over(data, ["잠실역 혼밥하기 좋은 라멘집"], WED_EVENING)
    assert len(r.cards) == 3, r.answer
    assert "검색 점수가 낮아서" not in r.answer, r.answer


def test_a_course_today_starts_no_earlier_than_now_and_claims_no_stop_it_lacks(tmp_path) -> None:  # type: ignore[no-untyped-def]
    meat = "한식>육류,고기>곱창,막창"
    records = [
        near(
            "g1",
            "별미곱창",
            300,
            meat,
            {"모듬곱창": "25,000원"},
            businessHours="매일 14:00 ~ 02:00",
            reviewCount=80,
        )
    ]
    data = ingest_records(tmp_path, records)
    (r,) = talk_over(data, ["잠실역 산책하고 저녁 먹을 코스 짜줘"], WED_EVENING)
    assert "별미곱창" in r.answer, r.answer
    assert "18:30" not in r.answer and "19:40" in r.answer, r.answer
    heading = r.answer.splitlines()[0]
    assert "관광지" not in heading, r.answer
    assert "실시간 장소 검색" not in r.answer and "은(는)" not in r.answer, r.answer


def test_an_outside_city_with_a_place_of_its_own_is_named_as_narrowed() -> None:
    """dialogue_test18 em008/em009: "전주 한옥마을 비빔밥 맛집" was answered "'전주' 쪽은 … 없어요"."""
    from matjip.agent.coverage import outside_place

    assert outside_place("전주 한옥마을 비빔밥 맛집") == "전주 한옥마을"
    assert outside_place("부산 자갈치시장에서 회 먹을 데") == "부산 자갈치시장"
    assert outside_place("전주 비빔밥 맛집") == "전주"  # a food after the city is no place of its own
