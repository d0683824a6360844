"""Coordinates the crawl gave as a placeholder to many addresses (issue 24, audit r10 FA: two 양재
branches said to be 790 m from 신사동 — their point is shared by 15 records from 강남대로 184 to 345).
Expected points are computed here from the raw records, never by the code under test."""

from __future__ import annotations

import json
import math
from pathlib import Path

from matjip.agent.answer import _card_distance
from matjip.agent.models import Shown
from matjip.ingest.enrich import get_enricher
from matjip.ingest.pipeline import ingest
from matjip.ingest.placement import located, placements
from matjip.ingest.store import DocumentStore
from support.demo import raw_records

SHARED = ("1270211737", "375111077")  # mapx, mapy of the 강남대로 group in the demo crawl
YANGJAE_STATION = (37.4841, 127.0346)  # 양재역 (3호선/신분당선)


def _metres(a: tuple[float, float], b: tuple[float, float]) -> float:
    dy = (a[0] - b[0]) * 111_000
    dx = (a[1] - b[1]) * 111_000 * math.cos(math.radians(a[0]))
    return math.hypot(dx, dy)


def _rec(pid: str, road: str, mapx: str, mapy: str) -> dict[str, object]:
    return {
        "place_id": pid,
        "title": f"식당{pid}",
        "category": "한식",
        "roadAddress": road,
        "mapx": mapx,
        "mapy": mapy,
    }


def test_a_placeholder_point_is_replaced_by_the_road_position_and_flagged(tmp_path: Path) -> None:
    road = "서울 서초구 강남대로"
    records = [
        _rec("a213", f"{road} 213 엘타워", "1270350497", "374827664"),  # anchors: their own points
        _rec("a359", f"{road} 359 2층", "1270285707", "374947827"),
        _rec("g283", f"{road} 283 남성빌딩 1층", *SHARED),  # the placeholder group
        _rec("g222", f"{road} 222-6 2층", *SHARED),
        _rec("g184", f"{road} 184", *SHARED),
        _rec("m1", "서울 송파구 법원로 114", "1271210105", "374860542"),  # one building: a true shared point
        _rec("m2", "서울 송파구 법원로 114 2층", "1271210105", "374860542"),
        _rec("m3", "서울 송파구 법원로 114 B1", "1271210105", "374860542"),
    ]
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in records) + "\n", encoding="utf-8")
    store = DocumentStore(tmp_path / "docs.sqlite")
    report = ingest([path], store, get_enricher("offline"))
    assert report.new == 8
    lo, hi = (37.4827664, 127.0350497), (37.4947827, 127.0285707)
    t = (283 - 213) / (359 - 213)
    want = (lo[0] + t * (hi[0] - lo[0]), lo[1] + t * (hi[1] - lo[1]))
    g283 = store.get("g283")
    assert g283 is not None and g283.lat is not None and g283.lon is not None
    assert _metres((g283.lat, g283.lon), want) < 1.0
    assert "estimated_coordinates" in g283.flags
    g184 = store.get("g184")  # below every anchor and 29 numbers from the nearest: left, said uncertain
    assert g184 is not None and (g184.lat, g184.lon) == (37.5111077, 127.0211737)
    assert "shared_coordinates" in g184.flags
    for pid in ("m1", "m2", "m3", "a213"):
        doc = store.get(pid)
        assert doc is not None and not {"estimated_coordinates", "shared_coordinates"} & set(doc.flags)
    again = ingest([path], store, get_enricher("offline"))
    assert again.unchanged == 8  # the placement is part of the record's digest: stable across runs


def test_the_yangjae_branches_of_the_demo_crawl_are_put_near_yangjae() -> None:
    records = raw_records()
    placed = placements(located(pid, rec) for pid, rec in records.items())
    for title in ("봉피양 양재점", "교대이층집 양재점", "세광양대창 양재점"):
        pid = next(p for p, r in records.items() if r["title"] == title)
        assert (records[pid]["mapx"], records[pid]["mapy"]) == SHARED
        where = placed[pid]
        assert where.flag == "estimated_coordinates"
        assert _metres((where.lat, where.lon), YANGJAE_STATION) < 800, title


def test_a_card_says_how_its_distance_was_estimated() -> None:
    records = raw_records()
    pid = next(p for p, r in records.items() if r["title"] == "봉피양 양재점")
    from matjip.ingest.crawl import CrawlDocument
    from matjip.ingest.preprocess import preprocess

    doc = preprocess(CrawlDocument.model_validate(records[pid]))
    doc.flags.append("estimated_coordinates")
    assert "도로명 주소로 추정" in _card_distance(Shown(doc, distance_m=420.0), "양재역")
    doc.flags[-1] = "shared_coordinates"
    assert "위치 불확실" in _card_distance(Shown(doc, distance_m=420.0), "양재역")
