"""Issue 24, class 7 (second round): how real visitor reviews say things, one test per class fixed (each
fails on the reader before it). The texts are written for these tests in the manner of real Kakao Map
reviews (not copied from a set); the expected values are read off each text by hand: a convenience
holds when the guest used or saw it, a mood or an occasion when the text says it of the place or the
visit."""

from __future__ import annotations

from typing import Any

import pytest

from matjip.ingest.crawl import CrawlDocument
from matjip.ingest.enrich import Enrichment, OfflineEnricher

ENRICHER = OfflineEnricher()


def read(text: str) -> Enrichment:
    """One review as a one-review document."""
    raw: dict[str, Any] = {"place_id": "p1", "title": "테스트식당", "category": "", "reviews": [text]}
    [e] = ENRICHER.enrich_many([CrawlDocument.model_validate(raw)])
    return e


def against(e: Enrichment) -> set[tuple[str, str]]:
    return {(a.field, a.value) for a in e.against}


def test_headings_of_a_structured_review_end_the_clause_before_them() -> None:
    # "안가는이유" (why not to go) opens the second section: its 안 negates nothing of the first one
    e = read("가볼이유 : 아기자기한 소품 가득한 카페, 포장 용기도 예쁜 안가는이유 : 주말엔 자리가 부족")
    assert "아기자기한" in e.atmosphere and "포장" in e.convenience
    # a heading's colon is a boundary, a time of day is not a heading
    e = read("장점:주차 편함 단점: 좀 시끄러움")
    assert "주차" in e.convenience
    # a crawl that flattened line breaks into two spaces: the next line is a new sentence
    e = read("케이크 몇 개 포장해 가는 손님이 많은  안쪽 자리는 좁고 답답한")
    assert "포장" in e.convenience


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("가게가 넓지않은게 흠이라면 흠", "atmosphere", "넓은"),
        ("실내가 쾌적하지 못한 게 아쉬웠어요", "atmosphere", "쾌적한"),
        ("주차장이 없는 게 제일 불편해요", "convenience", "주차"),
    ],
)
def test_a_regret_after_an_absence_keeps_the_negation(text: str, field: str, value: str) -> None:
    e = read(text)
    assert value not in e.values(field) and (field, value) in against(e), text


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("쭈꾸미볶음 배달 너무 안좋았어요 양념이 다 식어서 옴", "배달"),
        ("유아의자는 좋지 않았는데 그래도 아이가 앉을 수는 있었어요", "유아의자"),
    ],
)
def test_a_fact_used_but_poor_is_there(text: str, value: str) -> None:
    assert value in read(text).convenience, text


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("팀 회식으로 갔는데 사장님이 계속 주문을 재촉해서 기분 나빴어요", "회식"),
        ("가족끼리 다녀왔는데 이 동네에 이런 집이 있는지 몰랐네요!", "가족"),
    ],
)
def test_an_occasion_told_as_a_past_visit_is_first_hand(text: str, value: str) -> None:
    assert value in read(text).occasion, text


def test_an_intention_is_no_visit() -> None:
    e = read("오늘 모임도 여기서 하려 했으나, 사장님 태도 때문에 안 가요")
    assert "모임" not in e.occasion


def test_the_guests_own_company_is_no_staff_subject() -> None:
    e = read("서빙 직원분의 퉁명스러운 응대에 저희 가족 모두 기분이 상했어요")
    assert "가족" in e.occasion


def test_a_quoted_request_of_the_guest_is_no_hearsay() -> None:
    e = read("창가 자리로 예약 부탁드린다고 했더니 흔쾌히 잡아주셨어요")
    assert "예약" in e.convenience


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("회식하기엔 여기만한 데가 없어요", "occasion", "회식"),
        ("조용한 카페로는 이만한 곳이 없음", "atmosphere", "조용한"),
    ],
)
def test_none_is_as_good_is_a_superlative_not_an_absence(text: str, field: str, value: str) -> None:
    assert value in read(text).values(field), text


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("커피도 맛있고 공간도 진짜좋았어요", "atmosphere", "분위기 좋은"),
        ("친구랑 수다 떨기 좋고 분위기도 괜춘", "atmosphere", "분위기 좋은"),
        ("가게가 생각보다 널찍해요", "atmosphere", "넓은"),
        ("주방이 위생적이라 믿고 먹어요", "atmosphere", "깔끔한"),
        ("해 질 무렵 밖이 잘 보이는 자리에 앉았어요", "convenience", "창가석"),
        ("여럿이서 가서 세트로 시켰어요", "occasion", "단체"),
        ("내 사람과 함께 먹으니 더 맛있네요", "occasion", "데이트"),
    ],
)
def test_real_review_wordings(text: str, field: str, value: str) -> None:
    assert value in read(text).values(field), text


def test_unhygienic_is_against_clean() -> None:
    e = read("주방이 비위생적이에요")
    assert "깔끔한" not in e.atmosphere and ("atmosphere", "깔끔한") in against(e)


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        # round 2: food bought to take away is 포장
        ("마들렌 몇 개 사갔는데 식어도 맛있었어요", "convenience", "포장"),
        ("쿠키 하나 사서 왔네요 집에서 먹으니 또 좋음", "convenience", "포장"),
        ("주문해둔 케이크 세트 픽업했습니다", "convenience", "포장"),
        ("상자가 고급스러워 선물용으로 딱이에요", "convenience", "포장"),
        # round 2: the mood told as satisfaction
        ("지나가다 분위기가 마음에 들어서 들어갔어요", "atmosphere", "분위기 좋은"),
        # round 2: an evening visit told by the meal
        ("퇴근하고 가볍게 한잔하고 가기 좋았어요", "occasion", "술자리"),
    ],
)
def test_real_review_wordings_round_two(text: str, field: str, value: str) -> None:
    assert value in read(text).values(field), text


def test_a_delivery_that_did_not_arrive_was_ordered() -> None:
    # the order was placed; "안 와요" says the delivery was late, not that there is none
    for text in ("주문한 지 두 시간인데 배달이 안 와요", "배달도 안오고 연락도 없음"):
        e = read(text)
        assert "배달" in e.convenience and ("convenience", "배달") not in against(e), text
    # no delivery service stays against
    e = read("여기는 배달 안 돼요")
    assert "배달" not in e.convenience and ("convenience", "배달") in against(e)


def test_clean_after_a_taste_predicate_is_the_place() -> None:
    # "맛있고" is a judgement of its own, not the noun 맛 that 깨끗 would describe
    assert "깔끔한" in read("맛있고 깨끗 직원도 친절").atmosphere
    # the food sense stays: the broth is clean
    assert "깔끔한" not in read("국물이 아주 깔끔해요").atmosphere
