"""A deterministic embedder satisfying the ``matjip.index.embed.base.Embedder`` protocol."""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np


class FakeEmbedder:
    """Deterministic hashed character-bigram embedder (dim 32) satisfying the Embedder protocol."""

    def __init__(self, name: str = "fake", dim: int = 32) -> None:
        self.name = name
        self.dim = dim
        self.fitted = 0

    def fit(self, texts: Sequence[str]) -> None:
        self.fitted = len(texts)

    def _one(self, text: str) -> np.ndarray:
        v = np.zeros(self.dim, dtype=np.float32)
        s = "".join(text.split())
        for i in range(len(s) - 1):
            h = zlib.crc32(s[i : i + 2].encode())
            v[h % self.dim] += 1.0 if (h >> 31) & 1 else -1.0
        n = float(np.linalg.norm(v))
        return v / n if n > 0 else v

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        return np.stack([self._one(t) for t in texts]) if texts else np.zeros((0, self.dim), np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        return self._one(text)

    def save(self, directory: Path) -> None:
        (directory / "fake.txt").write_text(str(self.fitted))

    def load(self, directory: Path) -> None:
        p = directory / "fake.txt"
        self.fitted = int(p.read_text()) if p.exists() else 0
