"""The search backend interface: what the agent, the API and the CLI call.

:class:`matjip.index.embedded.EmbeddedIndex` is the default, in-process implementation and
:class:`matjip.index.postgres.PostgresIndex` the shared-database one; both rank through
:mod:`matjip.index.ranking`. An Elasticsearch backend can implement the same protocol (see the
field mapping in :mod:`matjip.index.request`).

The protocol covers a backend's whole life: :meth:`~SearchBackend.load` (built elsewhere, by
:func:`matjip.index.build_index`), :meth:`~SearchBackend.warm` before the first request,
:meth:`~SearchBackend.pinned` around one agent turn, :meth:`~SearchBackend.health` for the
service's health check, the reads and writes, and :meth:`~SearchBackend.close`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from matjip.documents import Restaurant
from matjip.index.request import SearchRequest, SearchResponse

if TYPE_CHECKING:
    from matjip.index.ranking import SearchMode

BuildProgress = Callable[[str, int, int | None], None]
"""``progress(stage, done, total)``; stages: "analyze", "fit", "embed", "write"."""


@runtime_checkable
class SearchBackend(Protocol):
    name: str

    # -- lifecycle ----------------------------------------------------------------------------

    def load(self) -> SearchBackend:
        """Check the stored index against the configured embedder and restore the embedder's learnt
        state; returns the backend, ready to search."""
        ...

    def warm(self) -> None:
        """Prime what the first request would otherwise load (the analyzer, the embedder, caches)."""
        ...

    def pinned(self) -> AbstractContextManager[None]:
        """A context in which every read (one agent turn) sees one version of the index."""
        ...

    def health(self) -> str | None:
        """Why the index is not fine right now, or None when it is."""
        ...

    def close(self) -> None:
        """Release connections and background work (the backend is not used afterwards)."""
        ...

    # -- reads --------------------------------------------------------------------------------

    def search(self, req: SearchRequest, mode: SearchMode = "hybrid") -> SearchResponse:
        """Documents passing every hard filter of ``req``, best first, at most ``req.k``. ``mode``
        is a knob for ablations: "bm25" or "vector" ranks text with that list alone."""
        ...

    def get(self, place_id: str) -> Restaurant | None:
        """The stored document, or None when the id is unknown (or deleted)."""
        ...

    def ids(self) -> list[str]:
        """The place ids of every live document."""
        ...

    def count(self) -> int:
        """Number of live documents."""
        ...

    def stats(self) -> dict[str, Any]:
        """JSON-serialisable facts about the index (size, embedder, vocabularies, timings)."""
        ...

    # -- writes -------------------------------------------------------------------------------

    def upsert(self, docs: Iterable[Restaurant]) -> int:
        """Insert or replace documents by ``place_id``; returns how many were written."""
        ...

    def delete(self, ids: Iterable[str]) -> int:
        """Remove documents by ``place_id``; returns how many existed."""
        ...
