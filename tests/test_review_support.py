"""Issue 24, class 7: on a real crawl a convenience holds from one first-hand review with no
contradiction, while moods and occasions still need the share the settings set."""

from __future__ import annotations

from typing import Any

from matjip.ingest.crawl import CrawlDocument
from matjip.ingest.enrich import OfflineEnricher
from matjip.ingest.enrich.offline import Support
from matjip.settings import Settings

ENRICHER = OfflineEnricher()
FILLER = [f"음식이 맛있어요 {i}번째 방문" for i in range(40)]


def doc(*reviews: str, **kw: Any) -> CrawlDocument:
    base: dict[str, Any] = {"place_id": "p1", "title": "테스트식당", "category": "", "reviews": list(reviews)}
    base.update(kw)
    return CrawlDocument.model_validate(base)


def test_one_first_hand_mention_keeps_a_convenience_among_many_reviews() -> None:
    [e] = ENRICHER.enrich_many([doc("포장해서 집에서 먹었는데 맛있어요", *FILLER)])
    assert "포장" in e.convenience
    [ev, *_] = e.evidence_for("convenience", "포장")
    assert (ev.support, ev.reviews) == (1, 41)  # the answer can still say "리뷰 41건 중 1건"
    [e] = ENRICHER.enrich_many([doc("배민으로 시켰는데 배달 빨라요", *FILLER)])
    assert "배달" in e.convenience


def test_a_contradicted_convenience_is_not_kept() -> None:
    [e] = ENRICHER.enrich_many([doc("포장해서 먹었어요", "포장은 안 된대요 매장식사만", *FILLER)])
    assert "포장" not in e.convenience


def test_moods_and_occasions_still_need_the_share() -> None:
    [e] = ENRICHER.enrich_many([doc("분위기가 조용해서 좋았어요", "회식하기 좋아요", *FILLER)])
    assert "조용한" not in e.atmosphere and "회식" not in e.occasion


def test_the_fact_support_comes_from_settings() -> None:
    strict = OfflineEnricher(Settings(enrich_fact_min_reviews=2))
    [e] = strict.enrich_many([doc("포장해서 집에서 먹었는데 맛있어요", *FILLER)])
    assert "포장" not in e.convenience
    assert Support().needed(41, "convenience") == 1 and Support().needed(41, "atmosphere") == 2
