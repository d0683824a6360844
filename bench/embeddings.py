"""Benchmark the offline embedders: ranking quality on tests/data/embed_eval.json and build cost
on the bundled demo corpus (11,854 Kakao restaurants).

    .venv/bin/python bench/embeddings.py            # full demo corpus
    .venv/bin/python bench/embeddings.py --limit 2000 --per-query

The learnt embedders (lsa, kiwi-cong) are fitted on the demo corpus texts plus the evaluation
documents, as an index build would fit them on its whole corpus. A demo record's text is its
title, category, menu names and review-keyword tag names.
"""

from __future__ import annotations

import argparse
import gzip
import json
import resource
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from matjip.index.embed._tokens import morphs_of
from matjip.index.embed.base import Embedder
from matjip.index.embed.combo import ComboEmbedder
from matjip.index.embed.evaluation import EvalResult, EvalSet, evaluate
from matjip.index.embed.hashing import HashingEmbedder
from matjip.index.embed.kiwi_cong import KiwiCongEmbedder
from matjip.index.embed.lsa import LsaEmbedder
from matjip.settings import DEMO_DATA
from matjip.text.kiwi import get_kiwi

ROOT = Path(__file__).resolve().parent.parent
EVAL = ROOT / "tests" / "data" / "embed_eval.json"


def demo_text(rec: dict[str, Any]) -> str:
    """Title + category + menu names + review-keyword tag names of one demo record."""
    parts = [str(rec.get("title", "")), str(rec.get("category", "")).replace(">", " ").replace(",", " ")]
    parts += [str(m.get("name", "")) for m in rec.get("menus") or [] if isinstance(m, dict)]
    parts += [str(k) for k in rec.get("reviewKeywords") or {}]
    return " ".join(p for p in parts if p)


def load_demo(limit: int | None) -> list[str]:
    with gzip.open(DEMO_DATA, "rt", encoding="utf-8") as f:
        recs = [json.loads(line) for line in f if line.strip()]
    return [demo_text(r) for r in recs[:limit]]


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def timed(fn: Callable[[], object]) -> float:
    """Wall-clock seconds of ``fn()``; its CPU seconds are added to ``CPU``."""
    t, c = time.perf_counter(), time.process_time()
    fn()
    CPU[0] = time.process_time() - c
    return time.perf_counter() - t


CPU = [0.0]  # CPU seconds of the last timed() call (wall time lies on a loaded machine)


def cpu() -> str:
    return f"(cpu {CPU[0]:.1f} s)"


def line(label: str, r: EvalResult, extra: str = "") -> None:
    print(f"  {label:<34} MRR {r.mrr:.3f}  top-1 {r.top1:.3f}  {extra}")


def build_report(name: str, emb: Embedder, corpus: list[str], data: EvalSet) -> None:
    rss0 = rss_mb()
    fit_s = timed(lambda: emb.fit(corpus))
    fit_cpu = cpu()
    embed_s = timed(lambda: emb.embed_documents(corpus))
    embed_cpu = cpu()
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        save_s = timed(lambda: emb.save(d))
        size = sum(p.stat().st_size for p in d.iterdir()) / 1e6
        fresh = type(emb)()
        load_s = timed(lambda: fresh.load(d))
        queries = [q.text for q in data.queries]
        q_s = timed(lambda: [fresh.embed_query(q) for q in queries]) / len(queries)
        r = evaluate(fresh, data)
    print(
        f"  {name}: fit {fit_s:.1f} s {fit_cpu}, embed {len(corpus)} docs {embed_s:.1f} s {embed_cpu}, save {save_s:.2f} s "
        f"({size:.1f} MB), load {load_s:.2f} s, first-time query {q_s * 1000:.1f} ms, "
        f"peak RSS +{rss_mb() - rss0:.0f} MB; reloaded MRR {r.mrr:.3f}"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--limit", type=int, default=None, help="use only the first N demo records")
    ap.add_argument("--per-query", action="store_true", help="print each query's rank per embedder")
    args = ap.parse_args(argv)

    data = EvalSet.load(EVAL)
    print(f"eval set: {len(data.queries)} queries over {len(data.doc_ids)} docs")

    kiwi_s = timed(get_kiwi)
    print(f"Kiwi load: {kiwi_s:.1f} s {cpu()}, RSS {rss_mb():.0f} MB")
    demo = load_demo(args.limit)
    corpus = demo + data.doc_texts
    tok_s = timed(lambda: morphs_of(corpus))
    print(
        f"demo corpus: {len(demo)} records; tokenize (shared Kiwi, cached afterwards): {tok_s:.1f} s {cpu()}"
    )

    print("\nbuild cost on the demo corpus (tokens already cached):")
    build_report("kiwi-cong", KiwiCongEmbedder(), corpus, data)
    build_report("lsa", LsaEmbedder(), corpus, data)

    print("\nranking quality (fitted on demo corpus + eval docs):")
    hashing = HashingEmbedder()
    lsa = LsaEmbedder()
    lsa.fit(corpus)
    cong = KiwiCongEmbedder()
    cong.fit(corpus)
    cong_raw = KiwiCongEmbedder(whiten_eps=None)
    cong_raw.fit(corpus)
    cong_small = KiwiCongEmbedder()
    cong_small.fit(data.doc_texts)
    results: dict[str, EvalResult] = {}
    singles: list[tuple[str, Embedder]] = [
        ("hash", hashing),
        ("lsa", lsa),
        ("kiwi-cong", cong),
        ("kiwi-cong (no whitening)", cong_raw),
        ("kiwi-cong (fit on eval docs only)", cong_small),
    ]
    for label, emb in singles:
        results[label] = evaluate(emb, data)
        line(label, results[label])

    print("\ncombinations (cosine = weighted mean of the parts' cosines):")
    for w in (0.5, 0.6, 0.7, 0.8, 0.9):
        for other_name, other in (("lsa", lsa), ("hash", hashing)):
            label = f"kiwi-cong {w:.1f} + {other_name} {1 - w:.1f}"
            results[label] = evaluate(ComboEmbedder([cong, other], [w, 1 - w]), data)
            line(label, results[label])
    for wc, wl, wh in ((0.6, 0.2, 0.2), (0.5, 0.25, 0.25), (0.7, 0.15, 0.15)):
        label = f"kiwi-cong {wc} + lsa {wl} + hash {wh}"
        results[label] = evaluate(ComboEmbedder([cong, lsa, hashing], [wc, wl, wh]), data)
        line(label, results[label])

    if args.per_query:
        names = ["hash", "lsa", "kiwi-cong", "kiwi-cong 0.8 + hash 0.2"]
        print("\nrank of the first relevant doc per query: " + " | ".join(names))
        for i, q in enumerate(data.queries):
            ranks = " ".join(f"{results[n].ranks[i]:>3}" for n in names)
            print(f"  {ranks}  {q.text}")
    print(f"\npeak RSS {rss_mb():.0f} MB")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    np.set_printoptions(precision=3)
    raise SystemExit(main())
