"""The default embedder must rank Korean paraphrases clearly better than spelling overlap.

tests/data/embed_eval.json: 41 queries over 42 short restaurant summaries, written so that
most queries share little or no spelling with their answer ("라멘" -> "일본식라면, 돈코츠";
"치맥" -> "치킨, 생맥주"). The hashing embedder (shared character n-grams) is the baseline.
bench/embeddings.py prints the full comparison.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from matjip.index.embed.evaluation import EvalResult, EvalSet, evaluate
from matjip.index.embed.hashing import HashingEmbedder
from matjip.index.embed.registry import create
from matjip.settings import DEMO_DATA, Settings

EVAL = Path(__file__).parent / "data" / "embed_eval.json"
DEMO_RECORDS = 300  # enough corpus for idf and whitening, fast enough for the unit suite


def _demo_texts(n: int) -> list[str]:
    out: list[str] = []
    with gzip.open(DEMO_DATA, "rt", encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)
            parts = [rec.get("title", ""), rec.get("category", "").replace(">", " ").replace(",", " ")]
            parts += [m.get("name", "") for m in rec.get("menus") or []]
            parts += list(rec.get("reviewKeywords") or {})
            out.append(" ".join(p for p in parts if p))
            if len(out) == n:
                break
    return out


@pytest.fixture(scope="module")
def data() -> EvalSet:
    return EvalSet.load(EVAL)


@pytest.fixture(scope="module")
def baseline(data: EvalSet) -> EvalResult:
    return evaluate(HashingEmbedder(), data)


def test_eval_set_is_large_enough(data: EvalSet) -> None:
    assert len(data.queries) >= 30
    assert len(data.doc_ids) >= 40


def test_default_embedder_beats_hashing(data: EvalSet, baseline: EvalResult) -> None:
    name = Settings.model_fields["embedder"].default
    emb = create(name)
    emb.fit(_demo_texts(DEMO_RECORDS) + data.doc_texts)
    result = evaluate(emb, data)
    msg = f"{name}: MRR {result.mrr:.3f} top-1 {result.top1:.3f}; hash: MRR {baseline.mrr:.3f} top-1 {baseline.top1:.3f}"
    print(msg)
    # measured (kiwipiepy 0.24): kiwi-cong 0.704 MRR / 0.634 top-1, hash 0.324 / 0.171.
    # Deterministic; without its post-processing kiwi-cong drops to ≈ 0.62 and this fails.
    assert result.mrr >= baseline.mrr + 0.30, msg
    assert result.mrr >= 0.65, msg
    assert result.top1 >= baseline.top1 + 0.30, msg
