"""Recall of the PostgreSQL backend's HNSW vector lists against the exact scan, on bench/search.py's
queries (the filtered hybrid, kNN, unfiltered text and loose-filter families).

    .venv/bin/python bench/pg_recall.py --database-url URL --work DIR [--n 100000]

``URL`` holds the corpus ``MATJIP_DATABASE_HNSW=true bench/search.py --backend postgres --database-url
URL`` built last (with its HNSW index; its ``--work`` directory holds the query files). For every query whose vector list comes from the HNSW
index (a large candidate set), the list is read again by the exact scan: recall@50 of the vector
list (the rows fusion reads) and recall@k of the hits the search returns, with the share of hits
in the same order.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np

from matjip.index.embed import get_embedder
from matjip.index.postgres import PostgresIndex
from matjip.index.ranking import VECTOR_DEPTH, query_vector
from matjip.index.request import SearchRequest
from matjip.settings import Settings


def _families(work: Path, label: str) -> dict[str, list[tuple[SearchRequest, str]]]:
    queries = [
        SearchRequest.model_validate(q) for q in json.loads((work / f"queries-{label}.json").read_text())
    ]
    loose = [
        SearchRequest.model_validate(q["request"])
        for q in json.loads((work / f"loose-{label}.json").read_text())
    ]
    return {
        "hybrid": [(q, "hybrid") for q in queries],
        "knn": [(q, "vector") for q in queries],
        "text": [(SearchRequest(text=q.text + " " + " ".join(q.menu), k=q.k), "hybrid") for q in queries],
        "loose": [(q, "hybrid") for q in loose],
    }


def _vector_list(ix: PostgresIndex, req: SearchRequest, exact: bool) -> tuple[list[int], bool]:
    """The vector list of ``req`` (rows) and whether the HNSW index made it."""
    from matjip.index.postgres_search import PgCandidates, filter_params, polygon_rows

    def read(conn: Any, meta: Any) -> tuple[list[int], bool]:
        def run(sql: str, params: dict[str, Any] | None = None) -> list[tuple[Any, ...]]:
            return ix._run(conn, sql, params)

        params, names = filter_params(req, ix.timezone, lambda key: polygon_rows(run, key))
        if names is None:
            return [], False
        src = PgCandidates(
            run, ix.embedder, req, params, names, ix._version(meta), ix._doc_freqs, hnsw=not exact
        )
        if not src.fetch("vector"):
            return [], False
        qv = query_vector(src, req.text or "")
        if qv is None:
            return [], False
        rows, _ = src.vector(qv)
        return [int(r) for r in rows.tolist()], src.approximate

    hnsw, ix.hnsw = ix.hnsw, not exact
    try:
        local = ix.walk_setting(req)  # the walk's setting the search would use (unfiltered: shorter)
    finally:
        ix.hnsw = hnsw
    return ix._read(read, local=local)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--database-url", required=True)
    ap.add_argument("--work", type=Path, required=True)
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--embedder", default="hash")
    args = ap.parse_args()
    settings = Settings()
    ix = PostgresIndex(args.database_url, get_embedder(args.embedder, settings), settings).load()
    out: dict[str, Any] = {}
    for family, items in _families(args.work, f"{args.n // 1000}k").items():
        list_recall: list[float] = []
        hit_recall: list[float] = []
        same_order = 0
        for req, mode in items:
            if not req.text:
                continue
            approx, ann = _vector_list(ix, req, exact=False)
            if not ann:
                continue
            exact, _ = _vector_list(ix, req, exact=True)
            list_recall.append(len(set(approx[:VECTOR_DEPTH]) & set(exact)) / max(1, len(exact)))
            ix.hnsw = True
            a = [h.document.place_id for h in ix.search(req, mode=mode).hits]  # type: ignore[arg-type]
            ix.hnsw = False
            e = [h.document.place_id for h in ix.search(req, mode=mode).hits]  # type: ignore[arg-type]
            hit_recall.append(len(set(a) & set(e)) / max(1, len(e)))
            same_order += a == e
        out[family] = {
            "queries": len(items),
            "hnsw": len(list_recall),
            "vector_list_recall@50": round(float(np.mean(list_recall)), 4) if list_recall else None,
            "vector_list_recall_min": round(float(np.min(list_recall)), 4) if list_recall else None,
            "hits_recall@k": round(float(np.mean(hit_recall)), 4) if hit_recall else None,
            "hits_same_order": same_order,
        }
    ix.close()
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
