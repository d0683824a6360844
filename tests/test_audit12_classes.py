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
