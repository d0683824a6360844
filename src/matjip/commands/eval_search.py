"""``matjip eval search``: print the structured-search development-set tables."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Console
from rich.table import Table

from matjip.settings import Settings
from matjip.wording import say, text

if TYPE_CHECKING:
    from matjip.documents import Restaurant
    from matjip.eval.search_eval import EvalItem, SearchEvalReport
    from matjip.index import AnyIndex


def run_eval_search(
    settings: Settings,
    fusion: str | None,
    compare_fusion: bool,
    per_query: bool,
    show_failures: int,
) -> None:
    from matjip.eval.search_eval import load_set, reference, run

    console = Console()
    if not console.is_terminal:  # piped or captured: keep the tables readable
        console = Console(width=160)
    if fusion is not None:
        if fusion not in ("rrf", "convex"):
            raise ValueError(f"unknown fusion {fusion!r}")
        settings = settings.model_copy(update={"fusion": fusion})
    index, docs = _index_and_documents(settings, console)
    items = load_set()
    refs = reference(items, docs)
    report = run(index, docs, items=items, refs=refs)
    _print_report(console, report, len(items), len(docs))
    if per_query:
        _print_per_query(console, report, items)
    if compare_fusion:
        _print_fusion_comparison(console, index, docs, items)
    _print_failures(console, report, show_failures)


def _index_and_documents(settings: Settings, console: Console) -> tuple[AnyIndex, list[Restaurant]]:
    """The index (built when missing) and the stored documents; a count mismatch is said."""
    from matjip.commands.ingest import ensure_index
    from matjip.ingest.store import DocumentStore

    index = ensure_index(settings)
    with DocumentStore(settings.store_path) as store:
        docs = list(store.iter_documents())
    if index.count() != len({d.place_id for d in docs}):
        console.print(
            say("cli.eval_search.stale_index", indexed=f"{index.count():,}", stored=f"{len(docs):,}")
        )
    return index, docs


def _print_report(console: Console, report: SearchEvalReport, n_items: int, n_docs: int) -> None:
    table = Table(title=f"matjip eval search ({n_items} requests, {n_docs:,} documents)")
    table.add_column("metric")
    table.add_column("value", justify="right")
    for name, value in report.rows():
        table.add_row(name, value)
    console.print(table)
    console.print(f"coverage (requests per filter): {report.coverage_line()}")


def _print_per_query(console: Console, report: SearchEvalReport, items: list[EvalItem]) -> None:
    from matjip.eval.search_eval import NDCG_K

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


def _print_fusion_comparison(
    console: Console, index: AnyIndex, docs: list[Restaurant], items: list[EvalItem]
) -> None:
    from matjip.eval.search_eval import NDCG_K, compare

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


def _print_failures(console: Console, report: SearchEvalReport, show_failures: int) -> None:
    failures = list(report.failures)
    if failures and show_failures:
        console.print(f"[bold red]failures[/] (first {show_failures} of {len(failures)}):")
        for f in failures[:show_failures]:
            console.print(f"  {f}", markup=False)
    elif not failures:
        console.print(text("cli.eval_search.all_passed"))
