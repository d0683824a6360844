"""The index update as the terminal shows it: rich progress bars around :mod:`matjip.index.sync`
(used by ``matjip ingest`` and, through :func:`matjip.commands.ingest.ensure_index`, before
answering)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Final

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

from matjip.index import sync
from matjip.settings import Settings
from matjip.wording import say, table

if TYPE_CHECKING:
    from matjip.index.backend import BuildProgress
    from matjip.ingest.store import DocumentStore

_STAGES: Final = table("cli.index.stage")  # a build stage → its progress bar's label


@contextmanager
def build_progress(console: Console) -> Iterator[BuildProgress]:
    """A build progress callback drawing one bar per stage; the bars appear at its first call."""
    bar: Progress | None = None
    tasks: dict[str, TaskID] = {}

    def progress(stage: str, done: int, total: int | None) -> None:
        nonlocal bar
        if bar is None:
            bar = Progress(
                TextColumn("[progress.description]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=console,
            )
            bar.start()
        if stage not in tasks:
            tasks[stage] = bar.add_task(_STAGES.get(stage, stage), total=total)
        bar.update(tasks[stage], completed=done, total=total)

    try:
        yield progress
    finally:
        if bar is not None:
            bar.stop()


def rebuild_notice(console: Console) -> sync.Notice:
    """Say why an unusable index is about to be rebuilt."""
    return lambda reason: console.print(say("cli.index.rebuild", reason=reason))


def print_result(settings: Settings, result: sync.SyncResult, console: Console) -> None:
    """One line on what the synchronisation did (nothing when it only opened the index)."""
    if result.action == "rebuilt":
        console.print(say("cli.index.rebuilt", n=f"{result.index.count():,}", path=settings.index_dir))
    elif result.action == "current":
        console.print(say("cli.index.current", n=f"{result.index.count():,}"))
    elif result.action == "updated":
        console.print(
            say("cli.index.updated", upserted=f"{result.upserted:,}", n=f"{result.index.count():,}")
        )


def update_index(settings: Settings, store: DocumentStore, console: Console) -> None:
    """Build the index if missing (or built with another embedder), else upsert what changed."""
    with build_progress(console) as progress:
        result = sync.update_index(settings, store, progress, rebuild_notice(console))
    print_result(settings, result, console)
