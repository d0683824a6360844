"""Keeping the search index in step with the document store.

The index remembers the store version it was last brought up to in ``store_state.json``
(``{"version": …, "count": …}`` in the index directory). :func:`update_index` builds the index
when it is missing, unusable (another embedder, an older format) or of unknown version, upserts
the documents changed since that version otherwise, and does nothing when the index is current.
:func:`ensure_index` is what answering needs: the index, rebuilt from the store when it cannot
be opened.

Nothing here prints. Callers pass ``progress`` (``(stage, done, total)``, called while an index
is built; see :data:`~matjip.index.backend.BuildProgress`) and ``on_rebuild`` (called with the
reason before an unusable index is rebuilt) to show what happens.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from matjip.errors import IndexNotBuiltError, SearchIndexError

if TYPE_CHECKING:
    from matjip.index import AnyIndex
    from matjip.index.backend import BuildProgress
    from matjip.ingest.store import DocumentStore
    from matjip.settings import Settings

Notice = Callable[[str], None]


@dataclass(frozen=True)
class SyncResult:
    """What :func:`update_index` or :func:`ensure_index` did, and the index it left."""

    index: AnyIndex
    action: Literal["rebuilt", "updated", "current", "opened"]
    upserted: int = 0  # documents written by an update


def state_path(settings: Settings) -> Path:
    """Which store version the index holds (per backend: the files, or the database)."""
    if settings.backend == "postgres":
        import hashlib

        from matjip.settings import secret

        key = hashlib.sha1((secret(settings.database_url) or "").encode()).hexdigest()[:16]
        return settings.index_dir / f"store_state.postgres-{key}.json"
    return settings.index_dir / "store_state.json"


def indexed_version(settings: Settings) -> int | None:
    """The store version the index was last brought up to, or ``None`` when unknown."""
    try:
        return int(json.loads(state_path(settings).read_text())["version"])
    except (OSError, ValueError, KeyError):
        return None


def store_state(store: DocumentStore) -> dict[str, int]:
    return {"version": store.version, "count": store.count()}


def write_state(settings: Settings, store: DocumentStore) -> None:
    """Record that the index now holds the store's current version (atomically)."""
    path = state_path(settings)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(store_state(store)))
    os.replace(tmp, path)


def rebuild(settings: Settings, store: DocumentStore, progress: BuildProgress | None = None) -> AnyIndex:
    """Build the index from every document of ``store``; the new version records the store version."""
    from matjip.index import build_index

    index = build_index(settings, list(store.iter_documents()), progress, state=store_state(store))
    if settings.backend == "postgres":  # the embedded index keeps its state in its own version
        write_state(settings, store)
    return index


def _notice_unusable(exc: SearchIndexError, on_rebuild: Notice | None) -> None:
    if on_rebuild is not None and not isinstance(exc, IndexNotBuiltError):  # another embedder, old format
        on_rebuild(str(exc))


def update_index(
    settings: Settings,
    store: DocumentStore,
    progress: BuildProgress | None = None,
    on_rebuild: Notice | None = None,
) -> SyncResult:
    """Build the index if missing (or built with another embedder), else upsert what changed."""
    from matjip.index import open_index

    try:
        index = open_index(settings)
    except SearchIndexError as exc:
        _notice_unusable(exc, on_rebuild)
        return SyncResult(rebuild(settings, store, progress), "rebuilt")
    since = indexed_version(settings)
    if since is None:
        return SyncResult(rebuild(settings, store, progress), "rebuilt")
    if since == store.version:
        return SyncResult(index, "current")
    changed = list(store.iter_documents(since_version=since))
    from matjip.index.embedded import EmbeddedIndex

    if isinstance(index, EmbeddedIndex):
        n = index.upsert(changed, state=store_state(store))
        if not n:
            write_state(settings, store)
    else:  # PostgreSQL: the rows are written in one transaction, then the state
        n = index.upsert(changed)
        write_state(settings, store)
    return SyncResult(index, "updated", n)


def ensure_index(
    settings: Settings, progress: BuildProgress | None = None, on_rebuild: Notice | None = None
) -> SyncResult | None:
    """The index, rebuilt from the store first when it is missing or unusable; ``None`` when
    there is nothing to build it from (no store, or an empty one)."""
    from matjip.index import open_index
    from matjip.ingest.store import DocumentStore

    if not settings.store_path.exists():
        return None
    try:
        return SyncResult(open_index(settings), "opened")
    except SearchIndexError as exc:
        _notice_unusable(exc, on_rebuild)
        with DocumentStore(settings.store_path) as store:
            if not store.count():
                return None
            rebuild(settings, store, progress)
            return SyncResult(open_index(settings), "rebuilt")
