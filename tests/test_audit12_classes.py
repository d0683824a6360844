"""Classes of weak picks of the twelfth issue-24 audit (docs/audit_issue24_r12.md on branch audit12, base
61faa53), one test per class, each failing on that code. Expected facts are read from the raw demo crawl,
never from the product.
"""

from __future__ import annotations

from matjip.index.request import SearchHit
from support.demo import raw_records


def _doc(title: str):  # type: ignore[no-untyped-def]
    from matjip.ingest.crawl import CrawlDocument
    from matjip.ingest.enrich import get_enricher
    from matjip.ingest.preprocess import finish, preprocess

    rec = next(r for r in raw_records().values() if r["title"] == title)
    crawl = CrawlDocument.model_validate(rec)
    return finish(preprocess(crawl), get_enricher("offline").enrich_many([crawl])[0])


def _hit(title: str, distance_m: float | None = None) -> SearchHit:
    doc = _doc(title)
    return SearchHit(id=doc.place_id, score=0.5, document=doc, distance_m=distance_m)


def test_a_name_saying_the_kind_against_its_menu_is_a_weaker_member() -> None:
    """Class 2 (Q3, Q14): '참고깃간직영정육식당' (된장찌개 · 불고기전골 · 제육볶음 · 한우육회비빔밥 · 회냉면) made a
    소고기 회식 place by '정육' in its name and one 한우 line; '우리집밥상' (닭갈비 · 오겹살 · 돼지갈비) a 백반집 by
    the 집밥 inside its name. Both are weaker members, after the proven ones; a 한우 house whose menu backs
    its name (대원정육식당: 안창살, 토시살, 살치살 …; 선복한우촌총각들: 육회, 등심 …) stays a proven one."""
    from matjip.agent.retrieval.rank import kind_evidence

    assert kind_evidence(_hit("참고깃간직영정육식당"), ["한우·소고기"]) == (2, "weak")
    assert kind_evidence(_hit("우리집밥상"), ["백반"]) == (2, "weak")
    assert kind_evidence(_hit("대원정육식당"), ["한우·소고기"])[0] <= 1
    assert kind_evidence(_hit("선복한우촌총각들"), ["한우·소고기"])[0] <= 1


def test_a_share_of_a_handful_of_reviews_decides_no_comparison_and_two_places_are_compared_with_more() -> (
    None
):
    """Class 5 (C1.2): "'맛'의 리뷰 대비 비율로는 야곱293이 가장 높아요 (40%)" — 2 tags of 5 reviews against 9 of
    64 at 진성한우곱창, and "가장" for two places. A share of too few reviews says the numbers are too few;
    two places with enough reviews are compared with "더"."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from matjip.agent.answer import _verdict

    now = datetime(2026, 11, 25, 19, 40, tzinfo=ZoneInfo("Asia/Seoul"))
    big, small = _doc("진성한우곱창"), _doc("야곱293")
    assert (small.review_count or 0) <= 5 < 60 <= (big.review_count or 0)
    said = _verdict([big, small], "taste", now)
    assert "가장" not in said and "야곱293이" not in said, said
    assert "적어요" in said, said
    both = _verdict([big, _doc("군자대한곱창 문정역점")], "taste", now)
    assert "더 높아요" in both and "가장" not in both, both
