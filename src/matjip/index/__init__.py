"""Search core: the backend-neutral request, the embedded hybrid index, embeddings.

Entry points (imports are deferred so ``import matjip.index`` stays cheap)::

    from matjip.index import build_index, open_index
    index = open_index(settings)             # IndexNotBuiltError / EmbedderMismatchError
    response = index.search(SearchRequest(text="데이트", cuisine=["양식"], k=3))
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matjip.documents import Restaurant
    from matjip.index.embedded import BuildProgress, EmbeddedIndex
    from matjip.settings import Settings


def open_index(settings: Settings) -> EmbeddedIndex:
    """Load the index in ``settings.index_dir`` with the embedder ``settings.embedder``.

    Raises :class:`matjip.errors.IndexNotBuiltError` when there is none and
    :class:`matjip.errors.EmbedderMismatchError` when it was built with another embedder.
    """
    from matjip.index.embed import get_embedder
    from matjip.index.embedded import EmbeddedIndex

    return EmbeddedIndex(settings.index_dir, get_embedder(settings.embedder, settings), settings).load()


def build_index(
    settings: Settings,
    docs: Iterable[Restaurant],
    progress: BuildProgress | None = None,
    *,
    state: dict[str, Any] | None = None,
) -> EmbeddedIndex:
    """(Re)build the index in ``settings.index_dir`` from ``docs`` and return it loaded."""
    from matjip.index.embed import get_embedder
    from matjip.index.embedded import EmbeddedIndex

    embedder = get_embedder(settings.embedder, settings)
    return EmbeddedIndex(settings.index_dir, embedder, settings).build(docs, progress, state=state)


__all__ = ["build_index", "open_index"]
