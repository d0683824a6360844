"""Search core: the backend-neutral request, the embedded hybrid index, embeddings.

Entry points (imports are deferred so ``import matjip.index`` stays cheap)::

    from matjip.index import build_index, open_index
    index = open_index(settings)             # IndexNotBuiltError / EmbedderMismatchError
    response = index.search(SearchRequest(text="데이트", cuisine=["양식"], k=3))
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, TypeAlias

if TYPE_CHECKING:
    from matjip.documents import Restaurant
    from matjip.index.backend import BuildProgress
    from matjip.index.embedded import EmbeddedIndex
    from matjip.index.postgres import PostgresIndex
    from matjip.settings import Settings

    AnyIndex: TypeAlias = EmbeddedIndex | PostgresIndex


def open_index(settings: Settings) -> AnyIndex:
    """Load the index of ``settings.backend`` (the files in ``settings.index_dir``, or the database
    at ``settings.database_url``) with the embedder ``settings.embedder``.

    Raises :class:`matjip.errors.IndexNotBuiltError` when there is none and
    :class:`matjip.errors.EmbedderMismatchError` when it was built with another embedder.
    """
    from matjip.index.embed import get_embedder

    embedder = get_embedder(settings.embedder, settings)
    if settings.backend == "postgres":
        from matjip.index.postgres import open_postgres

        return open_postgres(settings, embedder).load()
    from matjip.index.embedded import EmbeddedIndex

    return EmbeddedIndex(settings.index_dir, embedder, settings).load()


def build_index(
    settings: Settings,
    docs: Iterable[Restaurant],
    progress: BuildProgress | None = None,
    *,
    state: dict[str, Any] | None = None,
) -> AnyIndex:
    """(Re)build the index of ``settings.backend`` from ``docs`` and return it loaded."""
    from matjip.index.embed import get_embedder

    embedder = get_embedder(settings.embedder, settings)
    if settings.backend == "postgres":
        from matjip.index.postgres import PostgresIndex, database_url

        return PostgresIndex(database_url(settings), embedder, settings).build(docs, progress)
    from matjip.index.embedded import EmbeddedIndex

    return EmbeddedIndex(settings.index_dir, embedder, settings).build(docs, progress, state=state)


__all__ = ["build_index", "open_index"]
