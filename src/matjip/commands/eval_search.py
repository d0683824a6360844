"""``matjip eval search``: print the structured-search development-set tables."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from matjip.settings import Settings


def run_eval_search(
    settings: Settings,
    fusion: str | None,
    compare_fusion: bool,
    per_query: bool,
    show_failures: int,
) -> None:
    from matjip.commands.ingest import ensure_index
    from matjip.eval.search_eval import NDCG_K, compare, load_set, reference, run
    from matjip.ingest.store import DocumentStore

    console = Console()
    if not console.is_terminal:  # piped or captured: keep the tables readable
        console = Console(width=160)
    if fusion is not None:
        if fusion not in ("rrf", "convex"):
            raise ValueError(f"unknown fusion {fusion!r}")
        settings = settings.model_copy(update={"fusion": fusion})
    index = ensure_index(settings)
    with DocumentStore(settings.store_path) as store:
        docs = list(store.iter_documents())
    if index.count() != len({d.place_id for d in docs}):
        console.print(
            f"[yellow]색인 문서 {index.count():,}건 ≠ 저장소 문서 {len(docs):,}건: "
            "색인이 오래됐을 수 있어요 (matjip ingest 로 갱신).[/]"
        )
    items = load_set()
    refs = reference(items, docs)
    report = run(index, docs, items=items, refs=refs)

    table = Table(title=f"matjip eval search ({len(items)} requests, {len(docs):,} documents)")
    table.add_column("metric")
    table.add_column("value", justify="right")
    for name, value in report.rows():
        table.add_row(name, value)
    console.print(table)
    console.print(f"coverage (requests per filter): {report.coverage_line()}")

    if per_query:
        by_id = {it.id: it for it in items}
        q = Table(title="per query")
        for col, just in (
            ("id", "left"),
            ("filters", "left"),
            ("|brute|", "right"),
            ("hits", "right"),
            ("false", "right"),
            (f"nDCG@{NDCG_K}", "right"),
            ("ms", "right"),
        ):
            q.add_column(col, justify=just)  # type: ignore[arg-type]
        for r in report.results:
            q.add_row(
                r.id,
                ",".join(by_id[r.id].filters),
                str(r.brute),
                str(len(r.hits)),
                str(len(r.wrong)),
                "-" if r.ndcg is None else f"{r.ndcg:.3f}",
                f"{r.ms:.1f}",
            )
        console.print(q)

    if compare_fusion:
        comp = compare(index, docs, items=items)
        t = Table(
            title=f"fusion comparison (hybrid rows, then single lists); Δ is per-query nDCG@{NDCG_K} vs row 1"
        )
        for col, just in (
            ("fusion", "left"),
            ("mode", "left"),
            ("precision", "right"),
            ("recall", "right"),
            ("recall@k", "right"),
            (f"nDCG@{NDCG_K}", "right"),
            ("filtered", "right"),
            ("text only", "right"),
            ("Δ +/=/-", "right"),
            ("p50 ms", "right"),
            ("p95 ms", "right"),
        ):
            t.add_column(col, justify=just)  # type: ignore[arg-type]
        for rep, (better, same, worse) in zip(comp.reports, comp.vs_first, strict=True):
            t.add_row(
                rep.label,
                rep.mode,
                f"{rep.precision:.3f}",
                f"{rep.recall:.3f}",
                f"{rep.mean_recall_at_k:.3f}",
                f"{rep.ndcg:.3f}",
                f"{rep.ndcg_of(True):.3f}",
                f"{rep.ndcg_of(False):.3f}",
                f"{better}/{same}/{worse}",
                f"{rep.latency(0.5):.1f}",
                f"{rep.latency(0.95):.1f}",
            )
        console.print(t)
        n_graded = len(comp.reports[0].ndcgs) if comp.reports else 0
        n_text = sum(1 for r in comp.reports[0].results if r.ndcg is not None and not r.filtered)
        console.print(
            f"nDCG@{NDCG_K} over {n_graded} graded queries ({n_graded - n_text} filtered, {n_text} text only). "
            "RRF rows use the settings' list weights (weight_bm25/weight_vector)."
        )

    failures = list(report.failures)
    if failures and show_failures:
        console.print(f"[bold red]failures[/] (first {show_failures} of {len(failures)}):")
        for f in failures[:show_failures]:
            console.print(f"  {f}", markup=False)
    elif not failures:
        console.print("[green]모든 하드 조건 검사 통과[/] (precision 1, recall 1, candidate counts equal)")
