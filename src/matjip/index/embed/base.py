"""The embedder interface.

An embedder maps texts to L2-normalised float32 vectors of a fixed dimension. Some embedders
learn from the corpus at index time (``fit``) and save what they learnt next to the index
(``save``/``load``), so queries never retrain. The index records ``name`` and ``dim`` and
refuses to be queried with a different embedder. Embedders are built by name in
:mod:`matjip.index.embed.registry`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Embedder(Protocol):
    name: str
    dim: int

    def fit(self, texts: Sequence[str]) -> None:
        """Learn from the corpus (no-op for pre-trained embedders)."""

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """(n, dim) float32, rows L2-normalised (zero rows allowed for empty texts)."""

    def embed_query(self, text: str) -> np.ndarray:
        """(dim,) float32, L2-normalised (or zeros)."""

    def save(self, directory: Path) -> None:
        """Persist learnt state into ``directory`` (no-op if stateless)."""

    def load(self, directory: Path) -> None:
        """Restore state saved by :meth:`save`."""
