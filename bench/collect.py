"""Collector benchmark (issue 22): Kakao rect enumeration vs seed 000's Naver recipe, same area.

    .venv/bin/python bench/collect.py [--n 3200] [--menus 0] [--sorts random,comment]

Both collectors run as `matjip collect` does (SQLite state, quota bookkeeping, JSONL export)
against the protocol fakes of ``tests/fakes`` served over real local HTTP, on one synthetic area
around 잠실 (``--n`` places: dense clusters, a 30-place mall and a 90-place food court on one point).
Naver's place names are the gazetteer's stations, hot places and dongs inside the area, its menu
words the kinds vocabulary (``--menus N`` keeps the first N). Prints, per collector: places found,
calls spent, places per 1,000 calls, coverage of the area's places, unreached (reported), wall time.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from fakes.kakao_local import KEY, KakaoLocalFake
from fakes.local_area import AREA, FakeServer, synthetic_area
from fakes.naver_local import CLIENT_ID, CLIENT_SECRET, NaverLocalFake
from matjip.collect import kakao, naver
from matjip.collect.area import Rect, area_place_names
from matjip.collect.runner import Collection, export
from matjip.geo import get_gazetteer
from matjip.settings import Settings


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=3200)
    ap.add_argument("--menus", type=int, default=0, help="Keep the first N menu words (0: all).")
    ap.add_argument("--sorts", default="random,comment")
    args = ap.parse_args()
    rect = Rect(*AREA)
    places = synthetic_area(n=args.n)
    truth = {p.id for p in places}
    names = area_place_names(rect)
    points = {p.name: (p.lon, p.lat) for p in get_gazetteer().places if p.name in names}
    menus = naver.menu_words()[: args.menus or None]
    sorts = tuple(s for s in args.sorts.split(",") if s)
    kfake, nfake = KakaoLocalFake(places), NaverLocalFake(places, points)
    work = Path(tempfile.mkdtemp(prefix="matjip-collect-bench-"))
    rows = []
    with FakeServer(kfake.handle) as ks, FakeServer(nfake.handle) as ns:
        settings = Settings(
            data_dir=work / "data",
            kakao_rest_api_key=KEY,
            naver_client_id=CLIENT_ID,
            naver_client_secret=CLIENT_SECRET,
            kakao_local_url=ks.url,
            naver_search_url=ns.url,
            collect_rate_per_s=0,
        )
        t0 = time.perf_counter()
        coll = Collection(settings, work / "kakao.jsonl")
        coll.prepare(kakao.SOURCE, "bench", lambda: kakao.start_tasks(rect, ["FD6", "CE7"]), resume=False)
        kakao.KakaoCollector(coll.kakao_client(), coll.state, naver.menu_words()).run()
        export(coll.state, coll.out)
        found = {p.place_id for p in coll.state.places(kakao.SOURCE)} & truth
        rows.append(
            (
                "kakao rect",
                len(found),
                kfake.calls,
                coll.state.unreached(kakao.SOURCE),
                time.perf_counter() - t0,
            )
        )
        coll.close()

        t0 = time.perf_counter()
        coll = Collection(settings, work / "naver.jsonl")
        coll.prepare(naver.SOURCE, "bench", lambda: naver.query_tasks(names, menus, sorts), resume=False)
        naver.NaverCollector(coll.naver_client(), coll.state, rect).run()
        export(coll.state, coll.out)
        by_key = {(p.name, round(p.x * 1e7), round(p.y * 1e7)) for p in places}
        got = {(p.title, int(p.mapx or 0), int(p.mapy or 0)) for p in coll.state.places(naver.SOURCE)}
        rows.append(("naver recipe", len(got & by_key), nfake.calls, 0, time.perf_counter() - t0))
        coll.close()
    print(
        f"area: {len(truth):,} places; naver: {len(names)} place names × {len(menus)} menu words × {len(sorts)} sorts"
    )
    print(
        f"{'collector':<14}{'places':>8}{'calls':>8}{'per 1k calls':>14}{'coverage':>10}{'unreached':>11}{'wall s':>9}"
    )
    for name, n, calls, unreached, wall in rows:
        per_k = 1000 * n / calls if calls else 0.0
        print(
            f"{name:<14}{n:>8,}{calls:>8,}{per_k:>14,.0f}{100 * n / len(truth):>9.1f}%{unreached:>11,}{wall:>9.1f}"
        )


if __name__ == "__main__":
    main()
