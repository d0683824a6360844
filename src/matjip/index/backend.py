"""The search backend interface: what the agent, the API and the CLI call.

:class:`matjip.index.embedded.EmbeddedIndex` is the default, in-process implementation; an
Elasticsearch backend can implement the same protocol (see the field mapping in
:mod:`matjip.index.request`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol, runtime_checkable

from matjip.documents import Restaurant
from matjip.index.request import SearchRequest, SearchResponse


@runtime_checkable
class SearchBackend(Protocol):
    name: str

    def search(self, req: SearchRequest) -> SearchResponse:
        """Documents passing every hard filter of ``req``, best first, at most ``req.k``."""
        ...

    def get(self, place_id: str) -> Restaurant | None:
        """The stored document, or None when the id is unknown (or deleted)."""
        ...

    def upsert(self, docs: Iterable[Restaurant]) -> int:
        """Insert or replace documents by ``place_id``; returns how many were written."""
        ...

    def delete(self, ids: Iterable[str]) -> int:
        """Remove documents by ``place_id``; returns how many existed."""
        ...

    def count(self) -> int:
        """Number of live documents."""
        ...

    def stats(self) -> dict[str, Any]:
        """JSON-serialisable facts about the index (size, embedder, vocabularies, timings)."""
        ...
