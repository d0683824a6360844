"""Keeping the search index in step with the document store (used by ``matjip ingest``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

from matjip.errors import IndexError_, IndexNotBuiltError
from matjip.ingest.store import DocumentStore
from matjip.settings import Settings

if TYPE_CHECKING:
    from matjip.index.embedded import EmbeddedIndex

_STAGES = {"analyze": "형태소 분석", "fit": "임베딩 학습", "embed": "임베딩", "write": "저장"}


def _state_path(settings: Settings) -> Path:
    return settings.index_dir / "store_state.json"


def _indexed_version(settings: Settings) -> int | None:
    try:
        return int(json.loads(_state_path(settings).read_text())["version"])
    except (OSError, ValueError, KeyError):
        return None


def _write_state(settings: Settings, store: DocumentStore) -> None:
    _state_path(settings).write_text(json.dumps({"version": store.version, "count": store.count()}))


def rebuild(settings: Settings, store: DocumentStore, console: Console) -> None:
    from matjip.index import build_index

    docs = list(store.iter_documents())
    with Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
    ) as bar:
        tasks: dict[str, TaskID] = {}

        def progress(stage: str, done: int, total: int | None) -> None:
            if stage not in tasks:
                tasks[stage] = bar.add_task(_STAGES.get(stage, stage), total=total)
            bar.update(tasks[stage], completed=done, total=total)

        index = build_index(settings, docs, progress)
    _write_state(settings, store)
    console.print(f"색인 완료: 문서 {index.count():,}건 ({settings.index_dir})")


def update_index(settings: Settings, store: DocumentStore, console: Console) -> None:
    """Build the index if missing (or built with another embedder), else upsert what changed."""
    from matjip.index import open_index

    try:
        index = open_index(settings)
    except IndexError_ as exc:
        if not isinstance(exc, IndexNotBuiltError):  # another embedder or an older index format
            console.print(f"[yellow]{exc}[/] → 다시 색인합니다.")
        rebuild(settings, store, console)
        return
    since = _indexed_version(settings)
    if since is None:
        rebuild(settings, store, console)
        return
    if since == store.version:
        console.print(f"색인 최신 상태: 문서 {index.count():,}건")
        return
    changed = list(store.iter_documents(since_version=since))
    n = index.upsert(changed)
    _write_state(settings, store)
    console.print(f"색인 갱신: {n:,}건 반영, 문서 {index.count():,}건")


def ensure_index(settings: Settings) -> EmbeddedIndex:
    """Before answering: return the index, building it first when it is missing or stale
    (a fresh machine ingests the embedded demo data)."""
    from matjip.index import open_index

    console = Console(stderr=True)
    if settings.store_path.exists():
        try:
            return open_index(settings)
        except IndexError_ as exc:
            if not isinstance(exc, IndexNotBuiltError):
                console.print(f"[yellow]{exc}[/] → 다시 색인합니다.")
            with DocumentStore(settings.store_path) as store:
                if store.count():
                    rebuild(settings, store, console)
                    return open_index(settings)
    console.print("[bold]색인이 없어 내장 데모 데이터를 먼저 준비합니다.[/]")
    from matjip.commands.ingest import run_ingest

    run_ingest(settings, [], resume=False, enricher_name="offline", do_index=True)
    return open_index(settings)
