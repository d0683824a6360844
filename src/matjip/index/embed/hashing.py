"""A deterministic, instant, dependency-free embedder: hashed character n-grams.

Each word contributes itself and its character bigrams and trigrams (with word-boundary
marks), hashed (CRC-32, stable across processes, unlike ``hash()``) into ``dim`` signed
buckets with log term frequency. It captures shared spelling only — ``해장국`` and
``뼈해장국`` meet, ``라멘`` and ``일본식라면`` do not — which makes it the baseline the semantic
embedders must beat, the embedder for fast tests, and the last-resort fallback.
"""

from __future__ import annotations

import math
import re
import unicodedata
import zlib
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from matjip.index.embed._tokens import normalize

_WORD = re.compile(r"[0-9a-z\uac00-\ud7a3\u3131-\u318e\u4e00-\u9fff]+")


def _features(text: str) -> Counter[str]:
    text = unicodedata.normalize("NFKC", text).lower()
    feats: Counter[str] = Counter()
    for word in _WORD.findall(text):
        feats["w:" + word] += 1
        marked = f"<{word}>"
        for n in (2, 3):
            for i in range(len(marked) - n + 1):
                gram = marked[i : i + n]
                if gram not in ("<>",):
                    feats[gram] += 1
    return feats


class HashingEmbedder:
    """Signed feature hashing of words and character 2/3-grams (no fitting, no state)."""

    name = "hash"

    def __init__(self, dim: int = 256) -> None:
        if dim < 8:
            raise ValueError("dim must be at least 8")
        self.dim = dim

    def fit(self, texts: Sequence[str]) -> None:
        return None

    def _vector(self, text: str) -> np.ndarray:
        v = np.zeros(self.dim, dtype=np.float32)
        for feat, count in _features(text).items():
            h = zlib.crc32(feat.encode("utf-8"))
            sign = 1.0 if (h >> 31) & 1 else -1.0
            v[h % self.dim] += sign * (1.0 + math.log(count))
        return normalize(v)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, t in enumerate(texts):
            out[i] = self._vector(t)
        return out

    def embed_query(self, text: str) -> np.ndarray:
        return self._vector(text)

    def save(self, directory: Path) -> None:
        return None

    def load(self, directory: Path) -> None:
        return None
