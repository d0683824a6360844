"""Does the offline enrichment cost grow linearly with the length of a review? (issue 13)

    .venv/bin/python bench/enrich_scaling.py [--sizes 0.1,1,5] [--ingest 0.5,5]

1. Enrichment alone (no size caps): one document with one review of each size (realistic review
   sentences, numbered so Kiwi's cache does not flatter the figure); prints seconds per MB and the
   ratio of the largest to the smallest CPU seconds per MB (best of a few runs) (linear: close to 1; the issue asks ≤ 1.5).
2. The whole ``ingest`` of a record with one review of each ``--ingest`` size, with the default size
   caps (settings ``ingest_max_field_chars`` / ``ingest_max_record_chars``), in the same run;
   prints the time ratio (the issue asks a 5 MB review to take under 10x a 0.5 MB one).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from ingest import REVIEW_BITS
from matjip.ingest.crawl import CrawlDocument
from matjip.ingest.enrich import get_enricher
from matjip.ingest.pipeline import ingest
from matjip.ingest.store import DocumentStore


def review_text(n_bytes: int, seed: int) -> str:
    rng = random.Random(seed)
    parts: list[str] = []
    size = 0
    k = 0
    while size < n_bytes:
        k += 1
        piece = f"{rng.choice(REVIEW_BITS)} {k}번째 방문{rng.choice(['. ', '! ', ' ', chr(10)])}"
        parts.append(piece)
        size += len(piece.encode("utf-8"))
    return "".join(parts)


def doc(text: str, i: int) -> CrawlDocument:
    return CrawlDocument(place_id=f"b{i}", title="벤치 식당", category="음식점 > 한식", reviews=[text])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="0.1,1,5", help="review sizes in MB for the enrichment run")
    ap.add_argument("--ingest", default="0.5,5", help="review sizes in MB for the ingest run")
    ap.add_argument("--repeat-mb", type=float, default=2.0, help="repeat each size for about this many MB")
    args = ap.parse_args()
    enricher = get_enricher("offline")
    enricher.enrich_many([doc("워밍업 리뷰, 주차 편해요.", 0)])  # load Kiwi and the lexicons

    # CPU time of the process (Kiwi's worker threads included), the best of a few runs: on a
    # shared machine wall time mostly measures the neighbours
    per_mb: list[float] = []
    for i, mb in enumerate(float(x) for x in args.sizes.split(",")):
        text = review_text(int(mb * 1_000_000), seed=i + 1)
        runs: list[tuple[float, float]] = []
        for _ in range(max(1, round(args.repeat_mb / mb))):
            wall, cpu = time.perf_counter(), time.process_time()
            enricher.enrich_many([doc(text, i + 1)])
            runs.append((time.process_time() - cpu, time.perf_counter() - wall))
        cpu_s, wall_s = min(runs)
        per_mb.append(cpu_s / mb)
        print(
            f"enrich {mb:>5g} MB: {cpu_s:7.2f} s CPU ({cpu_s / mb:6.2f} s/MB; wall {wall_s:.2f} s; "
            f"best of {len(runs)})",
            flush=True,
        )
    print(f"enrich: largest / smallest CPU s/MB = {max(per_mb) / min(per_mb):.2f}  (≤ 1.5 wanted)")

    times: list[tuple[float, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, mb in enumerate(float(x) for x in args.ingest.split(",")):
            rec = {
                "place_id": f"big{i}",
                "title": "큰 리뷰 식당",
                "category": "음식점 > 한식",
                "reviews": [review_text(int(mb * 1_000_000), seed=100 + i)],
            }
            path = Path(tmp) / f"big{i}.jsonl"
            path.write_text(json.dumps(rec, ensure_ascii=False) + "\n", encoding="utf-8")
            store = DocumentStore(Path(tmp) / f"docs{i}.sqlite")
            started = time.process_time()
            report = ingest([path], store, enricher)
            elapsed = time.process_time() - started
            store.close()
            times.append((mb, elapsed))
            print(f"ingest {mb:>5g} MB review: {elapsed:7.2f} s CPU (truncated records: {report.truncated})")
    (small_mb, small), (big_mb, big) = times[0], times[-1]
    print(f"ingest: {big_mb:g} MB / {small_mb:g} MB time ratio = {big / small:.2f}  (< 10 wanted)")


if __name__ == "__main__":
    main()
