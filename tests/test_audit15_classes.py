"""Classes of the fifteenth issue-24 audit (docs/audit_issue24_r15.md, on 92dd2af), one test each, failing
on that code; built from hand-made records (support.records) near 잠실/석촌 or the gazetteer, never the
audit's places or questions.

1. An hours condition is read from the hours (F1): "24시" (every listed day 00:00~24:00) with none is no "정보가
   없어서"; the places open latest are looked for instead, and a late-hours wish ("늦게까지") is kept through
   a wider circle rather than dropped for closed cards.
2./3. A taste rule's exclusions are said where they are counted (F2): "맵지 않은 찌개" names the red kinds it
   rules out, the widening count says them, and a place listing a mild version comes first, quoted.
4. A landmark said beside its dong ("석촌동 … 병원 앞") is the point searched.
6. A short list in a dong is filled from a little wider, said so.
7. "내일 아침에도 열어?" of a shown place answers yes or no for that part of the day, then the hours.
8. Wording: "새벽 2시까지 영업" takes no second "영업"; a menu asked with its prices is said once.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from matjip.geo.distance import haversine_m
from matjip.geo.gazetteer import get_gazetteer
from support.chat import SEOUL
from support.records import M_PER_DEG_LAT, ingest_records, jamsil_record, near_jamsil, talk_over

FRIDAY_NIGHT = datetime(2026, 11, 27, 23, 20, tzinfo=SEOUL)
TUESDAY_NOON = datetime(2026, 11, 24, 12, 5, tzinfo=SEOUL)


def _card_heads(answer: str) -> list[str]:
    return [b.split("\n")[0] for b in answer.split("\n**")[1:]]


def test_a_round_the_clock_wish_is_read_from_the_hours_and_the_latest_open_stand_in(tmp_path: Path) -> None:
    records = [
        near_jamsil(
            "g1",
            "가나감자탕",
            150,
            "한식>감자탕",
            ["감자탕(소)", "뼈해장국"],
            businessHours="매일 11:00 ~ 05:30",
        ),
        near_jamsil(
            "g2",
            "다라감자탕",
            250,
            "한식>감자탕",
            ["감자탕(중)", "뼈해장국"],
            businessHours="매일 10:00 ~ 22:00",
            reviewCount=80,
        ),
        near_jamsil(
            "g3", "마바감자탕", 400, "한식>감자탕", ["감자탕(대)"], businessHours="월~토 11:00 ~ 24:00"
        ),
    ]
    data = ingest_records(tmp_path, records)
    [res] = talk_over(data, ["잠실역 24시간 하는 감자탕집"], FRIDAY_NIGHT)
    assert "정보가 있는 곳이 없어서" not in res.answer, res.answer  # the hours were read
    assert "24시간 영업" in res.answer, res.answer  # "… 24시간 영업인 곳은 없어서"
    heads = _card_heads(res.answer)
    assert heads and "가나감자탕" in heads[0], res.answer  # open latest (to 05:30)
    assert all("다라감자탕" not in h for h in heads), res.answer  # closed since 22:00


def test_a_late_hours_wish_is_kept_through_a_wider_circle(tmp_path: Path) -> None:
    records = [
        near_jamsil(
            "n1", "가나라멘", 200, "일식>일본식라면", ["돈코츠라멘"], businessHours="매일 11:00 ~ 20:00"
        ),
        near_jamsil(
            "n2", "다라라멘", 350, "일식>일본식라면", ["쇼유라멘"], businessHours="매일 11:00 ~ 21:00"
        ),
        near_jamsil(
            "n3", "마바라멘", 1800, "일식>일본식라면", ["미소라멘"], businessHours="매일 17:00 ~ 03:00"
        ),
    ]
    data = ingest_records(tmp_path, records)
    [res] = talk_over(data, ["잠실역 늦게까지 하는 라멘집"], FRIDAY_NIGHT)
    heads = _card_heads(res.answer)
    assert heads and "마바라멘" in heads[0], res.answer
    assert all("가나라멘" not in h and "다라라멘" not in h for h in heads), res.answer  # closed, not shown


def test_a_taste_rule_names_what_it_takes_out_and_puts_the_mild_dish_first(tmp_path: Path) -> None:
    records = [
        near_jamsil(
            "j1",
            "가나부대찌개",
            120,
            "한식>찌개,전골",
            ["부대찌개", "햄사리"],
            businessHours="매일 10:00 ~ 22:00",
            reviewCount=120,
        ),
        near_jamsil(
            "j2",
            "다라순두부",
            300,
            "한식>두부전문점",
            ["해물순두부", "곱창순두부"],
            businessHours="매일 10:00 ~ 22:00",
            reviewCount=60,
        ),
        near_jamsil(
            "j3",
            "마바손두부",
            700,
            "한식>두부전문점",
            ["두부구이", "시골된장찌개"],
            businessHours="매일 10:00 ~ 22:00",
            reviewCount=4,
        ),
    ]
    records += [
        near_jamsil(
            f"k{i}",
            f"사아찌개{i}",
            1600 + 200 * i,
            "한식>찌개,전골",
            ["청국장", "비지찌개"],
            businessHours="매일 10:00 ~ 22:00",
        )
        for i in range(2)
    ]
    data = ingest_records(tmp_path, records)
    [res] = talk_over(data, ["잠실역 맵지 않은 찌개 먹고싶다"], TUESDAY_NOON)
    notes = res.answer.split("\n**")[0]
    assert "부대찌개" in notes, res.answer  # the exclusion that shapes the count is said
    if "곳뿐" in notes:
        assert "뺀 찌개" in notes, res.answer  # the count says what it left out
    heads = _card_heads(res.answer)
    assert heads and "마바손두부" in heads[0], res.answer  # lists a mild 된장찌개 and is nearest of those
    assert "안 매운 메뉴 '시골된장찌개'" in res.answer, res.answer


def test_a_landmark_beside_its_dong_is_the_point_searched(tmp_path: Path) -> None:
    gz = get_gazetteer()
    [hospital] = [p for p in gz.lookup("강동성심병원") if str(p.type) == "landmark"]
    records = [
        jamsil_record(
            "l1",
            "가나칼국수",
            "한식>국수>칼국수",
            ["바지락칼국수"],
            lat=hospital.lat + 0.001,
            lon=hospital.lon,
        ),
    ]
    data = ingest_records(tmp_path, records)
    [res] = talk_over(data, ["길동 강동성심병원 앞에 칼국수 잘하는데"], TUESDAY_NOON)
    assert res.plan is not None and res.plan.location is not None
    loc = res.plan.location
    assert loc.lat is not None and loc.lon is not None
    assert haversine_m(loc.lat, loc.lon, hospital.lat, hospital.lon) < 50, loc  # not the dong's centre


def test_a_short_list_in_a_dong_is_filled_from_a_little_wider(tmp_path: Path) -> None:
    gz = get_gazetteer()
    dong = next(p for p in gz.lookup("석촌동") if str(p.type) == "legal_dong")

    def bar(pid: str, title: str, north_m: float, hours: str) -> dict[str, object]:
        return jamsil_record(
            pid,
            title,
            "술집>호프,요리주점",
            ["생맥주", "치킨"],
            lat=dong.lat + north_m / M_PER_DEG_LAT,
            lon=dong.lon,
            businessHours=hours,
        )

    records = [
        bar("b1", "가나호프", 200, "매일 17:00 ~ 03:00"),
        bar("b2", "다라포차", -1700, "매일 18:00 ~ 04:00"),
        bar("b3", "마바주점", 1900, "매일 18:00 ~ 02:30"),
    ]
    data = ingest_records(tmp_path, records)
    [res] = talk_over(data, ["석촌동 새벽까지 하는 술집"], FRIDAY_NIGHT)
    heads = _card_heads(res.answer)
    assert len(heads) == 3, res.answer
    assert "넓혀" in res.answer, res.answer  # the wider circle is said


def test_a_part_of_another_day_asked_of_a_shown_place_is_answered_yes_or_no(tmp_path: Path) -> None:
    records = [
        near_jamsil(
            "h1",
            "가나해장국",
            100,
            "한식>해장국",
            ["선지해장국", "내장탕"],
            businessHours="매일 11:00 ~ 05:00",
        ),
    ]
    data = ingest_records(tmp_path, records)
    first, second = talk_over(data, ["잠실역 해장국", "거기 낼 아침에도 문 열어?"], FRIDAY_NIGHT)
    assert "가나해장국" in first.answer
    assert second.answer.startswith("아니요"), second.answer  # 05:00 to 11:00 closed: no breakfast
    assert "11:00" in second.answer, second.answer  # then the hours


def test_an_hours_label_that_says_open_is_not_said_twice(tmp_path: Path) -> None:
    records = [
        near_jamsil(
            "w1", "가나순대국", 100, "한식>순대", ["순대국", "머리국밥"], businessHours="매일 00:00 ~ 24:00"
        ),
    ]
    data = ingest_records(tmp_path, records)
    [res] = talk_over(data, ["잠실역 새벽 2시까지 하는 순댓국"], FRIDAY_NIGHT)
    assert "가나순대국" in res.answer, res.answer
    assert "영업 영업" not in res.answer, res.answer


def test_a_menu_asked_with_its_prices_is_said_once(tmp_path: Path) -> None:
    records = [
        near_jamsil(
            "m1",
            "가나쌀국수",
            100,
            "아시아>베트남음식",
            {"양지쌀국수": "11,000", "분짜": "13,000"},
            businessHours="매일 11:00 ~ 21:00",
        ),
    ]
    data = ingest_records(tmp_path, records)
    _, second = talk_over(data, ["잠실역 쌀국수", "1번 점심 메뉴 가격 얼마에요"], TUESDAY_NOON)
    assert second.answer.count("양지쌀국수") == 1, second.answer


def test_a_place_open_round_the_clock_on_every_day_it_lists_is_a_24_hour_place(tmp_path: Path) -> None:
    records = [
        near_jamsil(
            "t1", "가나국밥", 200, "한식>국밥", ["순대국밥", "수육"], businessHours="화~일 00:00 ~ 24:00"
        ),
        near_jamsil("t2", "다라국밥", 300, "한식>국밥", ["소머리국밥"], businessHours="매일 06:00 ~ 22:00"),
    ]
    data = ingest_records(tmp_path, records)
    [res] = talk_over(data, ["잠실역 24시간 국밥집"], FRIDAY_NIGHT)
    assert "없어서" not in res.answer.split("\n**")[0], res.answer
    heads = _card_heads(res.answer)
    assert heads and "가나국밥" in heads[0], res.answer
