"""Issue 12: answers use the review evidence — counts and a quote for yes, the negative evidence stated,
"모르겠어요" only when nothing is said, and seed 003's caution for what only reviews suggest."""

from __future__ import annotations

from typing import Any

from matjip.agent.answer import REVIEW_CAUTION, convenience_answer
from matjip.documents import Restaurant
from matjip.ingest.crawl import CrawlDocument
from matjip.ingest.enrich import OfflineEnricher
from matjip.ingest.preprocess import to_restaurants


def restaurant(*reviews: str, **kw: Any) -> Restaurant:
    raw: dict[str, Any] = {"place_id": "p1", "title": "골목집", "category": "한식", "reviews": list(reviews)}
    raw.update(kw)
    [r] = to_restaurants([CrawlDocument.model_validate(raw)], OfflineEnricher())
    return r


FILLER = [f"김치찌개가 맛있어요 {i}" for i in range(7)]


def test_negative_evidence_is_stated_with_its_count() -> None:
    r = restaurant("주차는 골목에 해야 해서 힘들어요", "주차 자리가. 협소해요", "주차는 좀 아쉬워요", *FILLER)
    assert "주차" not in r.convenience
    text = convenience_answer(r, "주차")
    assert "주차가 어렵거나 안 된다는 리뷰가 3건" in text and "네," not in text and REVIEW_CAUTION in text


def test_yes_comes_with_counts_a_quote_and_the_caution() -> None:
    r = restaurant("주차장 넓어서 편했어요", "주차 편하고 음식도 맛있어요", *FILLER)
    text = convenience_answer(r, "주차")
    assert text.startswith("네,") and "리뷰 9건 중 2건" in text and '"주차장 넓어서 편했어요"' in text
    assert REVIEW_CAUTION in text  # only reviews say so


def test_pets_always_carry_the_caution_and_silence_is_not_a_no() -> None:
    r = restaurant("애견동반 가능해서 같이 왔어요", reviewKeywords={"주차": 3})
    assert REVIEW_CAUTION in convenience_answer(r, "반려동물")
    tagged = convenience_answer(r, "주차")
    assert tagged.startswith("네,") and REVIEW_CAUTION not in tagged  # a visitor tag, not only a review
    assert "모르겠어요" in convenience_answer(r, "콜키지")
