"""Classes the lead found by asking fresh questions of its own on 92dd2af (session s41,
/work/notes/s41/lead_base.md), one test each, failing on that code. Expected facts come from
hand-made records.

- L1.2 (class 14, 11): "거기 웨이팅 있어?" after a list showed the place's card again and said nothing
  about waiting; "대기 없이 들어갈 수 있는 데" dropped the wish without a word.
- L8 (class 10, 13): "신천역 순대국 맛집 리뷰 많은 순으로" listed 15, 18 and 19 reviews in that order.
- N1 (class 11): "아이 생일 파티할 만한 곳" dropped '아이' and '파티' as unknowable and put a beer pub first;
  "애들 데리고 갈 데" listed an izakaya second.
- N9 (class 11): "강남역 11번 출구 근처" measured from the station and said nothing of the exit.
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


def test_a_childs_birthday_party_is_read_not_dropped() -> None:
    """N1: "아이 생일 파티할 만한 곳" said "'아이', '파티'는 데이터로 확인할 수 없어서 빼고 찾았어요"."""
    from matjip.nlu.evaluate import build_default_nlu

    r = build_default_nlu().parse("강동구청역 근처 아이 생일 파티할 만한 곳")
    assert r.party.with_children, r
    assert "기념일" in r.entities.occasion, r
    assert not {"아이", "파티"} & set(r.unknown_terms), r.unknown_terms


@pytest.fixture(scope="module")
def family_street(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    records = [
        near(
            "b1",
            "맥주창고",
            100,
            "술집>호프,요리주점",
            {"생맥주": "5,000원", "치킨": "18,000원"},
            reviewCount=120,
        ),
        near("b2", "사케바요시", 150, "술집>일본식주점", {"모둠사시미": "35,000원"}, reviewCount=90),
        near("f1", "엄마손밥상", 400, "한식>백반,가정식", {"제육볶음": "9,000원"}, reviewCount=40),
        near("f2", "잠실돈까스", 500, "일식>돈까스,우동", {"등심돈까스": "10,000원"}, reviewCount=30),
        near("f3", "소문난칼국수", 600, "한식>국수>칼국수", {"칼국수": "9,000원"}, reviewCount=20),
    ]
    return ingest_records(tmp_path_factory.mktemp("lead41kids"), records)


@pytest.mark.parametrize("text", ["잠실역 애들 데리고 갈 데", "잠실역 아이 생일에 갈 만한 식당"])
def test_no_bar_for_a_meal_with_children(family_street, text) -> None:  # type: ignore[no-untyped-def]
    (r,) = talk_over(family_street, [text], WED_NOON)
    assert {c.name for c in r.cards} == {"엄마손밥상", "잠실돈까스", "소문난칼국수"}, r.answer
    assert "술집(호프·이자카야·포차·와인바)은 빼고" in r.answer, r.answer


def test_a_bar_asked_with_children_stays(family_street) -> None:  # type: ignore[no-untyped-def]
    (r,) = talk_over(family_street, ["잠실역 아이랑 갈 호프"], WED_NOON)
    assert [c.name for c in r.cards][:1] == ["맥주창고"], r.answer
    assert "빼고" not in r.answer, r.answer


@pytest.mark.parametrize("text", ["잠실역 11번 출구 근처 돈까스", "잠실역 3번출구 앞 돈까스"])
def test_an_exit_number_is_named_as_unknowable(family_street, text) -> None:  # type: ignore[no-untyped-def]
    """N9: "강남역 11번 출구 근처 파스타" measured from the station without a word about the exit."""
    (r,) = talk_over(family_street, [text], WED_NOON)
    assert r.answer.splitlines()[0] == "출구별 위치는 데이터에 없어서 역 중심에서 거리를 쟀어요.", r.answer
    assert [c.name for c in r.cards] == ["잠실돈까스"], r.answer
