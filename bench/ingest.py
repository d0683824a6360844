"""Ingest benchmark: documents per second for preprocessing + offline enrichment + summary.

    .venv/bin/python bench/ingest.py [--n 100000] [--reviews 50 --review-docs 200]

Measures, in one process and on the same records:
  * baseline   - JSON decoding + CrawlDocument validation only (the floor of any ingest);
  * preprocess - §5.1 (category, prices, coordinates, hours, cleaning);
  * full       - preprocess + offline enrichment + summary (what ``matjip ingest`` does per record);
on the demo data, on ``--n`` documents (the demo replicated with new ids and jittered coordinates)
and on documents carrying ``--reviews`` review sentences each. Each figure is the median of
``--repeat`` runs; ratios are against the baseline of the same corpus.

The reviews line is timed after a warm-up over the same documents, so Kiwi's cache already holds
every review sentence: it measures the reading of the morphemes, not Kiwi. The "cold" line times
documents whose sentences Kiwi has never seen (new ones every run): what ``matjip ingest`` of a new
crawl costs, tokenization included. Their sentences are new but built from ten phrases, as visitor
reviews reuse phrases; review text is analysed in word pairs (``matjip.text.pairs``), so only the
new pairs reach Kiwi. The "new words" line is the worst case: every word of every review is new
(random syllables), every pair goes to Kiwi.

The first line says which review reader ran: the mypyc-compiled copy (``make native``,
``matjip.ingest.enrich.native``) or the plain Python one.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from matjip.ingest.crawl import CrawlDocument
from matjip.ingest.enrich import get_enricher
from matjip.ingest.preprocess import preprocess, to_restaurants
from matjip.settings import DEMO_DATA, Settings

REVIEW_BITS = [
    "주차 공간이 넓어서 편했어요",
    "직원분이 고기를 직접 구워주셔서 좋았습니다",
    "분위기가 조용해서 대화하기 좋아요",
    "웨이팅이 좀 있었지만 회전이 빨라요",
    "아이랑 가기 좋은 놀이방이 있어요",
    "포장도 되고 배달도 빨라요",
    "가성비 최고, 양이 정말 많아요",
    "주차는 안 돼서 대중교통 추천해요",
    "데이트하기 좋은 분위기, 창가 뷰가 멋져요",
    "회식 장소로 단체석이 넉넉합니다",
]


def demo_lines() -> list[str]:
    with gzip.open(DEMO_DATA, "rt", encoding="utf-8") as fh:
        return [line for line in fh if line.strip()]


def replicate(lines: Sequence[str], n: int, seed: int = 1) -> list[str]:
    rng = random.Random(seed)
    out = list(lines[:n])
    j = 0
    while len(out) < n:
        j += 1
        for line in lines:
            if len(out) >= n:
                break
            rec = json.loads(line)
            rec["place_id"] = f"{rec['place_id']}-r{j}"
            if rec.get("mapx") and rec.get("mapy"):
                rec["mapx"] = str(int(rec["mapx"]) + rng.randint(-170_000, 170_000))
                rec["mapy"] = str(int(rec["mapy"]) + rng.randint(-135_000, 135_000))
            out.append(json.dumps(rec, ensure_ascii=False))
    return out


def with_reviews(
    lines: Sequence[str], n_docs: int, n_reviews: int, seed: int = 2, run: str = ""
) -> list[str]:
    rng = random.Random(seed)
    out = []
    for i, line in enumerate(lines[:n_docs]):
        rec = json.loads(line)
        # unique sentences so Kiwi's cache does not flatter the figure (``run`` sets them apart
        # between runs as well)
        rec["reviews"] = [f"{rng.choice(REVIEW_BITS)} {run}{i}-{k}번째 방문" for k in range(n_reviews)]
        out.append(json.dumps(rec, ensure_ascii=False))
    return out


def with_new_words(
    lines: Sequence[str], n_docs: int, n_reviews: int, seed: int = 3, run: str = ""
) -> list[str]:
    """Like :func:`with_reviews`, but every word of every review is new (random syllables of the
    review bits): nothing is cached, the worst case for the word-pair analysis."""
    rng = random.Random(f"{seed}{run}")
    syllables = sorted({c for bit in REVIEW_BITS for c in bit if "가" <= c <= "힣"})
    out = []
    for line in lines[:n_docs]:
        rec = json.loads(line)
        rec["reviews"] = [
            " ".join("".join(rng.choices(syllables, k=rng.randint(2, 4))) for _ in range(rng.randint(4, 7)))
            for _ in range(n_reviews)
        ]
        out.append(json.dumps(rec, ensure_ascii=False))
    return out


def timed(fn: Callable[[], Any], repeat: int) -> float:
    runs = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - t)
    return statistics.median(runs)


def measure(name: str, lines: Sequence[str], repeat: int) -> None:
    enricher = get_enricher("offline", Settings())

    def baseline() -> list[CrawlDocument]:
        return [CrawlDocument.model_validate(json.loads(x)) for x in lines]

    docs = baseline()

    def pre() -> None:
        for d in docs:
            preprocess(d)

    def full() -> None:
        for i in range(0, len(docs), 256):
            to_restaurants(docs[i : i + 256], enricher)

    full()  # warm-up: loads Kiwi when reviews need it, fills lexicon caches
    n = len(lines)
    t_base, t_pre, t_full = timed(baseline, repeat), timed(pre, repeat), timed(full, repeat)
    print(
        f"{name:<22} {n:>8,} docs | baseline {n / t_base:>9,.0f}/s | preprocess {n / t_pre:>8,.0f}/s"
        f" | full {n / t_full:>7,.0f}/s | full/baseline time ×{t_full / t_base:.1f}"
    )


def measure_cold(name: str, corpus: Callable[[str], Sequence[str]], repeat: int) -> None:
    """Like :func:`measure` (baseline and full only), on sentences Kiwi has not seen: a new corpus
    for every timed run, after a warm-up on yet another one (loads Kiwi and the lexicons)."""
    enricher = get_enricher("offline", Settings())

    def parse(lines: Sequence[str]) -> list[CrawlDocument]:
        return [CrawlDocument.model_validate(json.loads(x)) for x in lines]

    def full(docs: Sequence[CrawlDocument]) -> None:
        for i in range(0, len(docs), 256):
            to_restaurants(docs[i : i + 256], enricher)

    full(parse(corpus("w")))
    t_base, t_full = [], []
    n = 0
    for r in range(repeat):
        lines = corpus(f"c{r}")
        n = len(lines)
        t = time.perf_counter()
        docs = parse(lines)
        t_base.append(time.perf_counter() - t)
        t = time.perf_counter()
        full(docs)
        t_full.append(time.perf_counter() - t)
    tb, tf = statistics.median(t_base), statistics.median(t_full)
    print(
        f"{name:<22} {n:>8,} docs | baseline {n / tb:>9,.0f}/s | {'':>20} | full {n / tf:>7,.0f}/s"
        f" | full/baseline time ×{tf / tb:.1f}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--reviews", type=int, default=50)
    ap.add_argument("--review-docs", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    lines = demo_lines()
    reader = type(get_enricher("offline", Settings())).__module__
    native = reader.endswith("_native")
    print(f"review reader: {reader} ({'compiled' if native else 'plain Python: make native compiles it'})")
    measure("demo", lines, args.repeat)
    measure(f"replicated {args.n // 1000}k", replicate(lines, args.n), max(1, args.repeat - 2))
    measure(f"{args.reviews} reviews/doc", with_reviews(lines, args.review_docs, args.reviews), 1)
    measure_cold(
        f"{args.reviews} reviews/doc cold",
        lambda run: with_reviews(lines, args.review_docs, args.reviews, run=run),
        args.repeat,
    )
    measure_cold(
        f"{args.reviews} reviews, new words",
        lambda run: with_new_words(lines, args.review_docs, args.reviews, run=run),
        args.repeat,
    )


if __name__ == "__main__":
    main()
