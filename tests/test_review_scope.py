"""Issue 24, class 7 (round three): clause and negation scope, moods and occasions said without the cue
words, and guesses that tell no visit. One test per rule added (each fails on the reader before it). The
texts are written for these tests in the manner of real Kakao Map reviews (not copied from any set); the
expected values are read off each text by hand: a convenience holds when the guest used, needed or saw it,
a mood or an occasion when the text says it of the place or of the visit."""

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


@pytest.mark.parametrize(
    "text",
    ["주말엔 예약 안 하면 한참 기다려야 돼요", "예약 안하면 자리 없어서 못 먹어요 꼭 하고 가세요"],
)
def test_a_booking_one_cannot_do_without_is_a_booking(text: str) -> None:
    # doing without it goes wrong, so the place takes bookings
    assert "예약" in read(text).convenience, text


def test_a_wish_to_do_without_a_booking_is_no_booking() -> None:
    assert "예약" not in read("예약 안 하면 좋겠어요").convenience


@pytest.mark.parametrize(
    "text",
    ["저녁에 주문했는데 배달시간 한시간 반 지나도 배달안됨", "주문시켰는데 두시간이 되도록 배달도 안오네요"],
)
def test_a_delivery_ordered_and_late_is_a_delivery(text: str) -> None:
    assert "배달" in read(text).convenience, text


def test_a_delivery_refused_is_no_delivery() -> None:
    assert "배달" not in read("배달 안 돼서 포장해 왔어요").convenience


def test_a_fact_stated_with_a_copula_is_not_negated_by_the_next_clause() -> None:
    # "포장인데": it was a takeaway; the spoon that was not given is another matter
    assert "포장" in read("떡볶이 포장인데 숟가락도 안 챙겨주셨어요").convenience


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("딸내미랑 둘이서 데이트 겸 다녀왔어요", "occasion", "가족"),
        ("애 데리고 가도 편하게 먹을 수 있어요", "occasion", "아이와"),
        ("아이 포크 달라니까 바로 갖다주셨어요", "occasion", "아이와"),
        ("분위기 맛 모두 굳", "atmosphere", "분위기 좋은"),
        ("커피도 맛있고 분위기 미쳤어요", "atmosphere", "분위기 좋은"),
        ("오래된 느낌의 인테리어가 정겨워요", "atmosphere", "노포"),
        ("어수선한 분위기에 좀 감점", "atmosphere", "시끌벅적한"),
        ("위생상태 좋고 직원분들도 친절해요", "atmosphere", "깔끔한"),
    ],
)
def test_moods_and_company_said_without_the_cue_words(text: str, field: str, value: str) -> None:
    assert value in read(text).values(field), text


def test_a_taste_likened_to_home_cooking_is_no_company() -> None:
    assert "가족" not in read("엄마가 해준 음식 같았어요 또 올게요").occasion


def test_the_guests_colleagues_are_no_staff_subject() -> None:
    # "여직원들과": the guest came with them; the dinner is the guest's — a work dinner (a meal time itself is no
    # occasion: session-6 convention 5)
    assert "회식" in read("회사 여직원들과 저녁 먹으러 갔어요").occasion


def test_the_time_of_a_visit_but_not_of_a_wish() -> None:
    # session-6 convention 5: a meal time is no occasion, told or wished
    assert "저녁" not in read("저녁에 만두 먹고 배탈 나서 혼났어요").occasion
    assert "저녁" not in read("점심에 갔는데 다음엔 저녁에 가보고 싶네요").occasion


def test_a_guess_about_the_mood_tells_nothing() -> None:
    assert "분위기 좋은" not in read("점심은 별로였어요. 밤에는 분위기는 좋을 수는 있겠네요").atmosphere


def test_a_dish_called_clean_is_the_taste() -> None:
    assert "깔끔한" not in read("깔끔하고 칼칼한 생태찌개 최고").atmosphere


def test_a_verbless_sentence_that_judged_ends_at_its_full_stop() -> None:
    # "다 만족." closes its sentence: the distance regretted in the next sentence is not the mood's
    e = read("카페 분위기 다 만족. 역이랑 좀 멀어서 찾기 힘들어요")
    assert "분위기 좋은" in e.atmosphere
    # a sentence that stops at a particle still waits for its judgement
    assert "주차" not in read("맛은 괜찮았어요. 주차가. 진짜 최악이에요").convenience
