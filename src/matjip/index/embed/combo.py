"""Weighted concatenation of embedders.

With unit part vectors ``a_i`` and weights ``w_i``, the combined vector is
``concat(sqrt(w_i) · a_i)`` renormalised, so the cosine of two combined vectors is the weighted
mean of the parts' cosines (exactly so when no part vector is zero).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from matjip.index.embed._tokens import normalize_rows
from matjip.index.embed.base import Embedder


class ComboEmbedder:
    """Concatenate the vectors of ``parts`` with cosine weights ``weights``."""

    def __init__(self, parts: Sequence[Embedder], weights: Sequence[float], name: str | None = None) -> None:
        if not parts or len(parts) != len(weights):
            raise ValueError("one weight per part, at least one part")
        if any(w < 0 for w in weights) or sum(weights) <= 0:
            raise ValueError("weights must be non-negative and not all zero")
        total = float(sum(weights))
        self.parts = list(parts)
        self.weights = [w / total for w in weights]
        self.name = (
            name
            or "combo(" + ",".join(f"{p.name}={w:g}" for p, w in zip(parts, self.weights, strict=True)) + ")"
        )
        self.dim = sum(p.dim for p in parts)

    def fit(self, texts: Sequence[str]) -> None:
        for p in self.parts:
            p.fit(texts)

    def _join(self, blocks: list[np.ndarray]) -> np.ndarray:
        scaled = [b * np.float32(math.sqrt(w)) for b, w in zip(blocks, self.weights, strict=True)]
        return normalize_rows(np.concatenate(scaled, axis=1))

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        return self._join([p.embed_documents(texts) for p in self.parts])

    def embed_query(self, text: str) -> np.ndarray:
        out: np.ndarray = self._join([p.embed_query(text)[None, :] for p in self.parts])[0]
        return out

    def save(self, directory: Path) -> None:
        # Each part writes its own file name (kiwi_cong.npz, lsa.npz, ...).
        for p in self.parts:
            p.save(directory)

    def load(self, directory: Path) -> None:
        for p in self.parts:
            p.load(directory)
