"""Issue 12: review text read clause by clause — one test per error class of the issue (each fails on
the extractor before issue 12), plus support, conflict and the vocabulary both sides read."""

from __future__ import annotations

from typing import Any

import pytest

from matjip.ingest.crawl import CrawlDocument
from matjip.ingest.enrich import Enrichment, OfflineEnricher
from matjip.settings import Settings

ENRICHER = OfflineEnricher()


def doc(*reviews: str, **kw: Any) -> CrawlDocument:
    base: dict[str, Any] = {"place_id": "p1", "title": "테스트식당", "category": "", "reviews": list(reviews)}
    base.update(kw)
    return CrawlDocument.model_validate(base)


def read(*reviews: str) -> list[Enrichment]:
    """Each review as its own one-review document."""
    return ENRICHER.enrich_many([doc(r) for r in reviews])


@pytest.mark.parametrize(
    "text",
    [
        "주차는 골목에 해야 해서 힘들어요",
        "주차는 좀 아쉬워요",
        "주차 자리가. 협소해요",
        "주차할 수 있는 곳이 없다",
        "따로 주차할 곳만 있다면 좋겠다",
        "주차는 가능한데 자리가 너무 좁아서 힘들었어요",
        "주차가 가능하다고 들었는데 막상 가보니 자리가 없었어요",
        "주차? 없어요ㅋㅋ",
        "주차 되나요?",
    ],
)
def test_negation_beyond_the_simple_forms(text: str) -> None:
    [e] = read(text)
    assert "주차" not in e.convenience, text


def test_negations_that_are_positive_stay_positive_and_quote_the_whole_clause() -> None:
    texts = [
        "주차 걱정은 안하셔도 돼요",
        "주차가 불편하다는 말이 있었는데 전혀 아니에요",
        "주차는 되는데 유료예요",
    ]
    for text, e in zip(texts, read(*texts), strict=True):
        assert "주차" in e.convenience, text
    [e] = read("음식은 맛있고 주차는 되는데 유료예요")
    [ev] = e.evidence_for("convenience", "주차")
    # the clause and its continuation, not a cut-off "주차는 되는데"
    assert ev.span == "주차는 되는데 유료예요"


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("깔끔한 맛이라 계속 들어가요", "atmosphere", "깔끔한"),
        ("국물이 깔끔하고 시원해요", "atmosphere", "깔끔한"),
        ("24시간 우려낸 육수라 진해요", "convenience", "24시"),
        ("24시간 저온 숙성한 고기래요", "convenience", "24시"),
        ("PC방 가기 전에 들렀는데 호텔 룸에서 먹는 느낌이었어요", "convenience", "룸"),
        ("다이닝룸 같았어요", "convenience", "룸"),
        ("플레이팅이 이뻐요", "atmosphere", "감성적인"),
    ],
)
def test_word_sense(text: str, field: str, value: str) -> None:
    [e] = read(text)
    assert value not in e.values(field), text  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("사장님이 점심 드시고 계셔서 좀 기다렸어요", "occasion", "점심"),
        ("사장님이 키우시는 애견이 반겨줘요", "convenience", "반려동물"),
        ("사장님이 선물로 해장 음료 주셨어요", "occasion", "해장"),
    ],
)
def test_whose_property(text: str, field: str, value: str) -> None:
    [e] = read(text)
    assert value not in e.values(field), text  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("가게가 너무 이뿌다", "atmosphere", "감성적인"),
        ("인테리어가 이뻐요", "atmosphere", "감성적인"),
        ("힙 하고 좋네요", "atmosphere", "힙한"),
        ("술이 술술 들어가요", "occasion", "술자리"),
        ("막걸리에 파전 최고", "occasion", "술자리"),
        ("고량주랑 마셨는데 최고", "occasion", "술자리"),
        ("아이들이 좋아해요", "occasion", "아이와"),
        ("특별한 날 오기 좋은 곳", "occasion", "기념일"),
        ("딸이랑 같이 왔어요", "occasion", "가족"),
        ("엄마가 너무 좋아하셨어요", "occasion", "가족"),
        ("일본 이자카야 온 느낌이에요", "atmosphere", "이국적인"),
        ("콘센트 있는 자리가 많아요", "convenience", "콘센트"),
        ("카공하기 좋은 곳", "occasion", "카공"),
        ("노트북 들고 작업하기 좋은 카페", "occasion", "카공"),
        ("창가 자리 앉았어요", "convenience", "창가석"),
        ("신발 벗고 들어가는 좌식이에요", "convenience", "좌식"),
        ("1인석이 따로 있어요", "convenience", "혼밥석"),
    ],
)
def test_vocabulary_misses(text: str, field: str, value: str) -> None:
    [e] = read(text)
    assert value in e.values(field), text  # type: ignore[arg-type]


def test_seat_types_are_facts_even_when_uncomfortable() -> None:
    [e] = read("좌식이라 다리 저려요ㅠ 좌식 자리밖에 없어서 불편했어요")
    assert "좌식" in e.convenience


FILLER = [f"음식이 맛있어요 {i}번째 방문" for i in range(60)]


def test_one_mention_among_many_reviews_is_not_enough() -> None:
    [e] = ENRICHER.enrich_many([doc("분위기가 조용해서 좋았어요", *FILLER)])
    assert "조용한" not in e.atmosphere
    [e] = ENRICHER.enrich_many([doc(*(["분위기가 조용해서 좋았어요"] * 3), *FILLER)])
    assert "조용한" in e.atmosphere
    [ev, *_] = e.evidence_for("atmosphere", "조용한")
    assert (ev.support, ev.reviews) == (3, 63)


def test_support_comes_from_settings() -> None:
    strict = OfflineEnricher(Settings(enrich_min_reviews=4))
    [e] = strict.enrich_many([doc(*(["분위기가 조용해서 좋았어요"] * 3), *FILLER)])
    assert "조용한" not in e.atmosphere
    lenient = OfflineEnricher(Settings(enrich_support_from=1000))
    [e] = lenient.enrich_many([doc("분위기가 조용해서 좋았어요", *FILLER)])
    assert "조용한" in e.atmosphere


def test_opposite_values_are_resolved_by_majority() -> None:
    quiet = ["조용하고 아늑해요"] * 5
    loud = ["시끌벅적한 분위기예요"] * 2
    [e] = ENRICHER.enrich_many([doc(*quiet, *loud, *FILLER[:10])])
    assert "조용한" in e.atmosphere and "시끌벅적한" not in e.atmosphere
    [e] = ENRICHER.enrich_many([doc(*quiet, *(loud * 2), *FILLER[:10])])
    assert "조용한" in e.atmosphere and "시끌벅적한" in e.atmosphere  # a real split keeps both, with counts


def test_query_side_reads_the_same_vocabulary() -> None:
    from matjip.nlu.terms import CONVENIENCE, OCCASION
    from matjip.vocab import vocab

    for name in ("콘센트", "좌식", "입식", "혼밥석", "창가석"):
        assert name in vocab().conveniences and CONVENIENCE[name], name
    assert "카공" in OCCASION


def test_wanting_it_again_and_no_burden_are_positive() -> None:
    [takeout, alone] = read("포장해서 먹었는데 또 포장하고 싶네요", "혼자 가기엔 부담 없어요")
    assert "포장" in takeout.convenience
    assert "혼밥" in alone.occasion


# --- a second development set (review_dev2.jsonl): forms the first set lacked ---------------------
@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("주차는 꿈도 꾸지 마세요 골목이 좁아요", "convenience", "주차"),
        ("주차 ㄴㄴ 지하철 타고 오세요", "convenience", "주차"),
        ("주차장은 있는데 늘 만차ㅠ", "convenience", "주차"),  # Kiwi: 만/NR 차/NNB
        ("회식 장소로 비추해요 자리가 좁아요", "occasion", "회식"),  # Kiwi: 비/XPN 추하/VA
        ("뷰가 좋다는데 솔직히 벽밖에 안보여요", "atmosphere", "뷰 좋은"),  # hearsay in -다는데
        ("포장 받으시면 좋겠어요", "convenience", "포장"),  # a wish
        ("단체석이 생기면 회식하기 좋을 듯", "convenience", "단체석"),
        ("분위기 좋을 거라 기대했는데 너무 시끄러웠어요", "atmosphere", "분위기 좋은"),
        ("접대 자리로 가기엔 좀 허름해요", "occasion", "접대"),  # purpose, two words on
        ("데이트보다는 친구랑 가볍게 한잔하기 좋아요", "occasion", "데이트"),
        ("고기는 직접 구워드셔야 돼요", "convenience", "구워줌"),  # the guest grills
        ("24시간 하던 곳인데 요즘은 새벽 2시에 닫아요", "convenience", "24시"),  # no longer so
        ("데이트하기 딱인데 주차가 좀 불편해요", "convenience", "주차"),
    ],
)
def test_more_negative_forms(text: str, field: str, value: str) -> None:
    [e] = read(text)
    assert value not in e.values(field), text  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("가족끼리 오기 나쁘지 않아요", "occasion", "가족"),
        ("데이트하기 딱인데 주차가 좀 불편해요", "occasion", "데이트"),  # "-ᆫ데" (Kiwi's jamo) ends the clause
        ("술자리 하기 나쁘지 않은 곳", "occasion", "술자리"),
    ],
)
def test_more_positive_forms(text: str, field: str, value: str) -> None:
    [e] = read(text)
    assert value in e.values(field), text  # type: ignore[arg-type]


def test_the_guest_grilling_is_said_against_grilling_service() -> None:
    [e] = read("고기는 알아서 구워드셔야 돼요")
    assert "구워줌" not in e.convenience
    assert [ev.span for ev in e.against if ev.value == "구워줌"] == ["구워드셔야 돼요"]  # the whole clause


def test_endings_are_read_in_kiwis_spelling() -> None:
    from matjip.ingest.enrich.rules import rules

    p = rules().p
    assert "ᆫ데" in p.contrast_endings and "ㄴ데" in p.contrast_endings
    assert "ᆯ까" in p.question_endings and "ᆫ지" in p.question_endings
