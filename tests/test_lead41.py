"""Classes the lead found by asking fresh questions of its own on 92dd2af (session s41,
/work/notes/s41/lead_base.md), one test each, failing on that code. Expected facts come from
hand-made records.

- L1.2 (class 14, 11): "거기 웨이팅 있어?" after a list showed the place's card again and said nothing
  about waiting; "대기 없이 들어갈 수 있는 데" dropped the wish without a word.
- L8 (class 10, 13): "신천역 순대국 맛집 리뷰 많은 순으로" listed 15, 18 and 19 reviews in that order.
- M11.2 (class 8, 13): "더 싼데" said "메뉴 가격 중간값 18,999원 이하" and "송파 18,999원 이하 초밥" (a bound one won
  below the typical price, said as if a price).
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from support.records import ingest_records, talk_over
from support.records import near_jamsil as near

KST = ZoneInfo("Asia/Seoul")
WED_NOON = datetime(2026, 12, 2, 12, 10, tzinfo=KST)
HOURS = "매일 10:00 ~ 21:00"


def _ramen() -> list[dict[str, object]]:
    return [
        near(
            "w1",
            "줄서는라멘",
            200,
            "일식>일본식라면",
            {"돈코츠라멘": "10,000원"},
            reviews=["웨이팅이 30분이나 있었지만 맛있어요", "국물이 진해요"],
            reviewCount=40,
        ),
        near(
            "w2", "한적한라멘", 300, "일식>일본식라면", {"쇼유라멘": "9,000원"}, reviews=["국물이 깔끔해요"]
        ),
    ]


@pytest.mark.parametrize(
    ("follow", "place", "said"),
    [
        ("거기 웨이팅 있어?", "줄서는라멘", "웨이팅 이야기가 있어요"),
        ("1번 줄 서야 돼?", "줄서는라멘", "웨이팅 이야기가 있어요"),
        ("2번 대기 길어?", "한적한라멘", "웨이팅 정보는 모르겠어요"),
    ],
)
def test_waiting_asked_of_a_place_is_answered_from_its_reviews(tmp_path, follow, place, said) -> None:  # type: ignore[no-untyped-def]
    data = ingest_records(tmp_path, _ramen())
    first, answer = talk_over(data, ["잠실역 라멘", follow], WED_NOON)
    assert [c.name for c in first.cards][:2] == ["줄서는라멘", "한적한라멘"], first.answer
    line = answer.answer.splitlines()[0]
    assert place in line and said in line, answer.answer


@pytest.mark.parametrize("text", ["잠실역 웨이팅 없는 라멘", "잠실역 라멘 대기 없이 들어갈 수 있는 데"])
def test_a_wish_for_no_wait_is_named_not_dropped(tmp_path, text) -> None:  # type: ignore[no-untyped-def]
    data = ingest_records(tmp_path, _ramen())
    (r,) = talk_over(data, [text], WED_NOON)
    assert "웨이팅이 없는지는 데이터에 없어서 알 수 없어요" in r.answer, r.answer
    assert r.cards, r.answer


@pytest.mark.parametrize(
    "text", ["잠실역 순대국 리뷰 많은 순으로", "잠실역 순대국 후기 많은 데부터", "잠실역 순대국 리뷰순"]
)
def test_an_order_by_reviews_asked_orders_the_cards_by_reviews(tmp_path, text) -> None:  # type: ignore[no-untyped-def]
    records = [
        near("s1", "가순대", 150, "한식>순대", {"순대국": "9,000원"}, reviewCount=15, businessHours=HOURS),
        near("s2", "나순대", 350, "한식>순대", {"순대국": "9,000원"}, reviewCount=18, businessHours=HOURS),
        near("s3", "다순대", 250, "한식>순대", {"순대국": "9,000원"}, reviewCount=19, businessHours=HOURS),
    ]
    data = ingest_records(tmp_path, records)
    (r,) = talk_over(data, [text], WED_NOON)
    assert [c.name for c in r.cards] == ["다순대", "나순대", "가순대"], r.answer


def test_a_cheaper_bound_is_said_below_a_round_price(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """M11.2: "더 싼데" after a list whose typical price was 19,000원 said "18,999원 이하" twice."""
    records = [
        near(
            f"c{i}",
            f"{n}초밥",
            100 + 50 * i,
            "일식>초밥,롤",
            {"모둠초밥": "19,000원"},
            reviewCount=90 - i,
            businessHours=HOURS,
        )
        for i, n in enumerate(["가", "나", "다"])
    ] + [
        near(
            "c9", "라초밥", 400, "일식>초밥,롤", {"모둠초밥": "12,000원"}, reviewCount=10, businessHours=HOURS
        )
    ]
    data = ingest_records(tmp_path, records)
    first, second = talk_over(data, ["잠실역 초밥", "더 싼데"], WED_NOON)
    assert {c.name for c in first.cards} == {"가초밥", "나초밥", "다초밥"}, first.answer
    assert [c.name for c in second.cards] == ["라초밥"], second.answer
    assert "19,000원 미만" in second.answer and "18,999" not in second.answer, second.answer
