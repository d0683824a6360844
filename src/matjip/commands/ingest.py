"""``matjip ingest``: progress bar, summary table, rejects file, then the index update; and
:func:`ensure_index`, which ingests the embedded demo data on a fresh machine before answering."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from matjip.settings import DEMO_DATA, Settings
from matjip.wording import say, text

if TYPE_CHECKING:
    from matjip.index import AnyIndex


def run_ingest(
    settings: Settings, paths: list[Path], *, resume: bool, enricher_name: str, do_index: bool
) -> None:
    from matjip.ingest.enrich import get_enricher
    from matjip.ingest.limits import IngestLimits
    from matjip.ingest.pipeline import count_records, ingest, scan, write_rejects
    from matjip.ingest.store import DocumentStore

    console = Console(stderr=True)
    inputs = paths or [DEMO_DATA]
    enricher = get_enricher(enricher_name, settings)
    store = DocumentStore(settings.store_path)
    console.print(f"[bold]matjip ingest[/] → {settings.data_dir}")
    scanned = scan(inputs)
    total = count_records(scanned)
    with Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=False,
    ) as bar:
        task = bar.add_task(text("cli.ingest.progress"), total=total)
        try:
            report = ingest(
                inputs,
                store,
                enricher,
                resume=resume,
                scanned=scanned,
                progress=lambda n: bar.advance(task, n),
                limits=IngestLimits.from_settings(settings),
            )
        except KeyboardInterrupt:
            bar.stop()
            console.print(text("cli.ingest.interrupted"))
            sys.exit(130)

    write_rejects(settings.rejects_path, report.rejects)
    table = Table(title="ingest", show_lines=False)
    for col in ("read", "new", "updated", "unchanged", "rejected", "superseded", "resumed", "docs/s"):
        table.add_column(col, justify="right")
    table.add_row(
        str(report.read),
        str(report.new),
        str(report.updated),
        str(report.unchanged),
        str(report.rejected),
        str(report.superseded),
        str(report.resumed),
        f"{report.docs_per_s:,.0f}" if report.processed else "-",
    )
    Console().print(table)
    console.print(say("cli.ingest.stored", n=f"{store.count():,}", path=settings.store_path))
    if report.rejects:
        console.print(say("cli.ingest.rejected", n=len(report.rejects), path=settings.rejects_path))
    if report.truncated:
        console.print(say("cli.ingest.truncated", n=report.truncated))
        for r in report.rejects[:5]:
            console.print(f"  {r.source}:{r.line}: {r.reason}")
    if report.superseded:
        console.print(say("cli.ingest.superseded", n=report.superseded))
    stats = getattr(enricher, "stats", None)
    if stats:
        console.print(f"LLM enrichment: {stats}")
    close = getattr(enricher, "close", None)
    if callable(close):
        close()
    if do_index:
        from matjip.commands.index import update_index

        update_index(settings, store, console)
    store.close()


def ensure_index(settings: Settings) -> AnyIndex:
    """Before answering: return the index, building it first when it is missing or stale
    (a fresh machine ingests the embedded demo data)."""
    from matjip.commands.index import build_progress, print_result, rebuild_notice
    from matjip.index import open_index, sync

    console = Console(stderr=True)
    with build_progress(console) as progress:
        result = sync.ensure_index(settings, progress, rebuild_notice(console))
    if result is not None:
        print_result(settings, result, console)
        return result.index
    console.print(text("cli.ingest.demo_first"))
    run_ingest(settings, [], resume=False, enricher_name="offline", do_index=True)
    return open_index(settings)
