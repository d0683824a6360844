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
