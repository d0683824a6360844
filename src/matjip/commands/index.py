"""The index update as the terminal shows it: rich progress bars around :mod:`matjip.index.sync`
(used by ``matjip ingest`` and, through :func:`matjip.commands.ingest.ensure_index`, before
answering)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

from matjip.index import sync
from matjip.settings import Settings

if TYPE_CHECKING:
    from matjip.index.embedded import BuildProgress
    from matjip.ingest.store import DocumentStore

_STAGES = {"analyze": "형태소 분석", "fit": "임베딩 학습", "embed": "임베딩", "write": "저장"}


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
    return lambda reason: console.print(f"[yellow]{reason}[/] → 다시 색인합니다.")


def print_result(settings: Settings, result: sync.SyncResult, console: Console) -> None:
    """One line on what the synchronisation did (nothing when it only opened the index)."""
    if result.action == "rebuilt":
        console.print(f"색인 완료: 문서 {result.index.count():,}건 ({settings.index_dir})")
    elif result.action == "current":
        console.print(f"색인 최신 상태: 문서 {result.index.count():,}건")
    elif result.action == "updated":
        console.print(f"색인 갱신: {result.upserted:,}건 반영, 문서 {result.index.count():,}건")


def update_index(settings: Settings, store: DocumentStore, console: Console) -> None:
    """Build the index if missing (or built with another embedder), else upsert what changed."""
    with build_progress(console) as progress:
        result = sync.update_index(settings, store, progress, rebuild_notice(console))
    print_result(settings, result, console)
