"""Ranking quality of an embedder on a small labelled set (used by the benchmark and tests).

The set is JSON: ``{"docs": {id: text}, "queries": [{"q": text, "relevant": [id, ...]}]}``.
Every document is ranked by cosine similarity to the query; the reciprocal rank of the first
relevant document is averaged (MRR) and the share of queries whose best document is relevant
is reported as top-1.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from matjip.index.embed.base import Embedder


@dataclass(frozen=True)
class EvalQuery:
    text: str
    relevant: frozenset[str]


@dataclass(frozen=True)
class EvalSet:
    doc_ids: list[str]
    doc_texts: list[str]
    queries: list[EvalQuery]

    @classmethod
    def load(cls, path: Path) -> EvalSet:
        data = json.loads(path.read_text(encoding="utf-8"))
        docs: dict[str, str] = data["docs"]
        queries = [EvalQuery(q["q"], frozenset(q["relevant"])) for q in data["queries"]]
        for q in queries:
            unknown = q.relevant - docs.keys()
            if unknown or not q.relevant:
                raise ValueError(f"query {q.text!r}: bad relevant ids {sorted(unknown)}")
        return cls(list(docs), list(docs.values()), queries)


@dataclass
class EvalResult:
    mrr: float
    top1: float
    ranks: list[int] = field(default_factory=list)  # 1-based rank of the best relevant doc (ties lose)


def evaluate(embedder: Embedder, data: EvalSet) -> EvalResult:
    """Rank ``data``'s documents for each query with ``embedder`` (already fitted if it needs it)."""
    docs = embedder.embed_documents(data.doc_texts)
    ranks: list[int] = []
    for q in data.queries:
        scores = docs @ embedder.embed_query(q.text)
        relevant = np.array([d in q.relevant for d in data.doc_ids])
        best = float(scores[relevant].max())
        # Ties count against the embedder: a zero query vector ranks the relevant doc last.
        ranks.append(1 + int(np.sum(scores[~relevant] >= best - 1e-7)))
    n = len(ranks)
    return EvalResult(
        mrr=sum(1.0 / r for r in ranks) / n,
        top1=sum(r == 1 for r in ranks) / n,
        ranks=ranks,
    )
