"""Classes the lead found by asking fresh questions of its own on c679a19 (session s39,
/work/notes/s39/probe_lead_base.md), one test each, failing on that code. Expected facts come from
hand-made records or the gazetteer's own files.

- L2 (wording): "석촌역 근처 지금 문 연 칼국수" widened with "지금 영업 중 영업하는 칼국수가 2곳뿐이라".
- L5 (class 11): "합정역 와인 한잔 조용한 데" said "'한잔'은 데이터로 확인할 수 없어서 빼고 찾았어요".
- L7 (class 1): "하남 미사 브런치 카페" dropped 미사 (a place outside the data inside the city said) and
  searched all 하남시, answering "조건에 맞는 식당을 찾지 못했어요" instead of saying 미사 is not covered.
- L11 (class 16): "안매운 떡볶이" put "매운 짜장 떡볶이" on the first card as the mild version (짜장 is a mild word).
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from support.records import ingest_records, talk_over
from support.records import near_jamsil as near

KST = ZoneInfo("Asia/Seoul")
FRI_NIGHT = datetime(2026, 12, 4, 21, 40, tzinfo=KST)
SAT_NOON = datetime(2026, 12, 5, 12, 20, tzinfo=KST)


def test_the_widening_note_says_open_now_once(tmp_path) -> None:  # type: ignore[no-untyped-def]
    noodle = "한식>국수>칼국수"
    records = [
        near("k1", "바지락칼국수", 150, noodle, {"칼국수": "9,000원"}, businessHours="매일 10:00 ~ 23:00"),
        near("k2", "장칼국수", 300, noodle, {"장칼국수": "9,000원"}, businessHours="매일 09:00 ~ 23:00"),
        near("k3", "먼칼국수", 1800, noodle, {"칼국수": "8,000원"}, businessHours="매일 10:00 ~ 23:30"),
    ]
    data = ingest_records(tmp_path, records)
    (r,) = talk_over(data, ["잠실역 근처 지금 문 연 칼국수"], FRI_NIGHT)
    assert "먼칼국수" in [c.name for c in r.cards], r.answer
    widened = next(line for line in r.answer.splitlines() if "넓혀" in line)
    assert "영업 중 영업하는" not in widened and "지금 영업 중인 칼국수" in widened, widened


def test_a_drink_word_beside_a_kind_is_no_dropped_condition(tmp_path) -> None:  # type: ignore[no-untyped-def]
    records = [near("w1", "와인하우스", 200, "술집>와인바", {"하우스와인": "9,000원"}, reviewCount=20)]
    data = ingest_records(tmp_path, records)
    (r,) = talk_over(data, ["잠실역 와인 한잔 조용한 데"], FRI_NIGHT)
    assert [c.name for c in r.cards] == ["와인하우스"], r.answer
    assert "'한잔'" not in r.answer, r.answer


def test_a_place_inside_the_city_said_beside_it_is_the_place_asked(sample_agent) -> None:  # type: ignore[no-untyped-def]
    from support.chat import Chat

    r = Chat(sample_agent)("하남 미사 브런치 카페")
    first = r.answer.splitlines()[0]
    assert "미사" in first and "데이터에 없어요" in first, r.answer
    # a word that reaches a place only with a suffix, of another city, stays a word ("사리" → 안산 사리역)
    r = Chat(sample_agent)("칼국수 사리 넣어먹는 집 강동역 근처")
    assert "사리" not in r.answer.splitlines()[0] and r.cards, r.answer


def test_a_spicy_line_is_never_the_mild_version(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from matjip.kinds import kinds

    prefer = ["간장", "짜장", "로제"]
    assert not kinds().is_mild_line("매운 짜장 떡볶이", prefer)
    assert kinds().is_mild_line("짜장 떡볶이", prefer) and kinds().is_mild_line("로제떡볶이", prefer)
    records = [
        near("t1", "매운짜장분식", 150, "분식>떡볶이", {"매운 짜장 떡볶이": "7,500원", "떡볶이": "5,000원"}),
        near("t2", "궁중떡집", 400, "분식>떡볶이", {"궁중떡볶이": "8,000원", "떡볶이": "5,000원"}),
    ]
    data = ingest_records(tmp_path, records)
    (r,) = talk_over(data, ["잠실역 안매운 떡볶이"], SAT_NOON)
    assert [c.name for c in r.cards][:1] == ["궁중떡집"], r.answer
    assert "매운 짜장" not in r.answer.split("궁중떡집")[1].split("**2.")[0], r.answer


# -- audit r13 (docs/audit_issue24_r13.md), graded on c679a19 -------------------------------------------


def test_cheaper_below_the_typical_price_is_looked_for_in_the_wider_circle_first(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """F1: "가격대 좀 낮춰서" said "가운데 값보다 싼 곳은 없어서" and relaxed the price before the radius,
    while places below the typical price lay in the circle the answer then used."""
    cutlet = "일식>돈까스,우동"
    records = [
        near(
            "c1", "비싼카츠", 150, cutlet, {"특등심카츠": "14,000원", "안심카츠": "13,000원"}, reviewCount=40
        ),
        near("c2", "중간카츠", 300, cutlet, {"등심카츠": "10,500원", "치즈카츠": "11,000원"}, reviewCount=30),
        near("c3", "보통카츠", 600, cutlet, {"등심카츠": "10,000원", "안심카츠": "11,000원"}, reviewCount=20),
        near("c4", "싼카츠", 2200, cutlet, {"돈까스": "7,000원", "치즈까스": "8,000원"}, reviewCount=10),
    ]
    data = ingest_records(tmp_path, records)
    _, r = talk_over(data, ["잠실역 돈까스집", "가격대 좀 낮춰서"], FRI_NIGHT)
    assert "싼카츠" in [c.name for c in r.cards], r.answer
    assert "싼 곳은 없어서" not in r.answer, r.answer


def test_a_count_with_conditions_names_the_places_listing_the_dish(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """F2: "1km 안에는 지금 영업하는 국밥·순대국이 2곳뿐이라" while a 감자탕 house open all night 150 m away
    lists 뼈해장국 (filed as another kind): the line names it, never denies it."""
    day_night = "매일 00:00 ~ 24:00"
    records = [
        near("g1", "순대국집", 200, "한식>국밥", {"순대국": "9,000원"}, businessHours=day_night),
        near(
            "g2",
            "뼈감자탕",
            150,
            "한식>감자탕",
            {"감자탕": "30,000원", "뼈해장국": "9,000원"},
            businessHours=day_night,
        ),
        near("g3", "먼설렁탕", 1500, "한식>설렁탕", {"설렁탕": "11,000원"}, businessHours=day_night),
        near("g4", "더먼곰탕", 2000, "한식>곰탕", {"곰탕": "12,000원"}, businessHours=day_night),
    ]
    data = ingest_records(tmp_path, records)
    (r,) = talk_over(data, ["잠실역 지금 국밥 먹을 수 있는 데"], datetime(2026, 11, 28, 0, 50, tzinfo=KST))
    widened = next(line for line in r.answer.splitlines() if "넓혀" in line)
    assert "뼈감자탕 '뼈해장국'" in widened, widened


def test_a_stew_is_no_pancake_on_the_menu(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """F3: "두부김치전골" was offered as a 전·막걸리 menu (김치전 inside 김치전골)."""
    from matjip.kinds import kinds

    assert "전·막걸리" not in {e.kind for e in kinds().classify("술집", "동네술집", ["두부김치전골", "소주"])}
    assert "전·막걸리" in {e.kind for e in kinds().classify("술집", "동네술집", ["김치전", "막걸리"])}
    records = [
        near("d1", "두부마을", 200, "한식>두부전문점", {"두부김치전골": "12,000원", "순두부": "9,000원"}),
        near("d2", "파전집", 2000, "한식>전,빈대떡", {"해물파전": "15,000원", "막걸리": "5,000원"}),
    ]
    data = ingest_records(tmp_path, records)
    (r,) = talk_over(data, ["잠실역 막걸리에 파전"], SAT_NOON)
    assert [c.name for c in r.cards] == ["파전집"], r.answer
    assert "전골" not in r.answer, r.answer


def test_a_spicy_line_is_not_quoted_for_a_mild_wish(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Q13 (class 16): "안 매운 쭈꾸미집" quoted '매운쭈꾸미' as the matched menu."""
    records = [
        near(
            "j1",
            "천호쭈꾸미",
            200,
            "한식>해물,생선요리>주꾸미요리",
            {"매운쭈꾸미": "14,000원", "쭈꾸미볶음밥": "3,000원"},
        )
    ]
    data = ingest_records(tmp_path, records)
    (r,) = talk_over(data, ["잠실역 안 매운 쭈꾸미집 있어?"], SAT_NOON)
    assert [c.name for c in r.cards] == ["천호쭈꾸미"], r.answer
    assert "'매운쭈꾸미'" not in r.answer, r.answer


def test_the_price_line_quoted_is_one_of_the_kind_asked(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """D2.2 (lead probe): "송리단길 파스타" → "좀 더 저렴한 데는" quoted a place's '에스프레소' 5,500원 as the price
    met, while its pasta was within the limit too."""
    records = [
        near(
            "p1",
            "파스타하우스",
            200,
            "양식>이탈리안",
            {"에스프레소": "5,000원", "까르보나라": "15,000원"},
            reviewCount=30,
        )
    ]
    data = ingest_records(tmp_path, records)
    (r,) = talk_over(data, ["잠실역 2만원 이하 파스타"], SAT_NOON)
    assert [c.name for c in r.cards] == ["파스타하우스"], r.answer
    assert (
        "'까르보나라' 15,000원" in r.answer and "에스프레소' 5,000원" not in r.answer.split("대표 메뉴")[0]
    ), r.answer


def test_a_place_only_locals_know_is_a_local_shop(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Q14 (audit r13) and the lead's probe: "동네 사람들만 아는 백반집", "현지인만 아는 숨은 맛집" reported
    '동네' / '현지인' as dropped conditions and put a mall chain branch first."""
    records = [
        near("h1", "딤섬하우스 롯데월드몰점", 150, "중식>딤섬", {"하가우": "9,000원"}, reviewCount=300),
        near("h2", "할매국밥", 400, "한식>국밥", {"순대국": "9,000원"}, reviewCount=60),
        near("h3", "골목백반", 500, "한식>한식뷔페", {"백반": "8,000원"}, reviewCount=40),
    ]
    data = ingest_records(tmp_path, records)
    for ask in ("잠실역 현지인만 아는 숨은 맛집", "잠실역 동네 사람들만 가는 밥집"):
        (r,) = talk_over(data, [ask], SAT_NOON)
        names = [c.name for c in r.cards]
        assert names and "딤섬하우스 롯데월드몰점" not in names, r.answer
        assert "'현지인'" not in r.answer and "'동네'" not in r.answer and "체인" in r.answer, r.answer


def test_two_gu_said_together_are_no_city_and_dong(sample_agent) -> None:  # type: ignore[no-untyped-def]
    """relevance_dev9 r946 (after the city-and-dong reading of this session): "추어탕 잘하는 곳 송파 강동"
    was read as a dong "강동" of 송파구 and answered "'송파구 강동' 위치를 찾지 못했어요"."""
    from support.chat import Chat

    r = Chat(sample_agent)("추어탕 잘하는 곳 송파 강동")
    assert "찾지 못했어요" not in r.answer and r.cards, r.answer
    r = Chat(sample_agent)("고양 오금동 맛집")  # a dong of another city said with its city stays that dong
    assert "고양시 오금동" in r.answer, r.answer
