"""Helpers shared by the Kiwi-based embedders: tokenization, normalisation, saved state
(private to this package)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from matjip.errors import EmbedderMismatchError, SearchIndexError
from matjip.text.kiwi import Morph, tokenize, tokenize_many

FIT_CHUNK = 20_000  # texts tokenized at a time by a fit (it keeps counts, not morphemes)


def morphs_of(texts: Sequence[str]) -> list[list[Morph]]:
    """Morphemes of every text, through the shared (cached) Kiwi; each distinct text is tokenized
    once (its copies share one list: callers only read it).

    Batch tokenization is tried first; kiwipiepy >= 0.21 refuses batch calls when the shared
    Kiwi was created single-threaded, in which case the texts are tokenized one by one (each
    result still lands in the shared cache).
    """
    distinct = list(dict.fromkeys(texts))
    if len(distinct) < len(texts):
        got = dict(zip(distinct, _tokenized(distinct), strict=True))
        return [got[t] for t in texts]
    return _tokenized(texts)


def _tokenized(texts: Sequence[str]) -> list[list[Morph]]:
    try:
        return tokenize_many(texts)
    except Exception:  # kiwipiepy raises a bare Exception("`asyncAnalyze` doesn't work ...")
        return [tokenize(t) for t in texts]


def distinct_morphs(texts: Sequence[str], chunk: int = FIT_CHUNK) -> Iterator[tuple[list[Morph], int]]:
    """The morphemes of each distinct text of a chunk of ``texts`` and how many times the chunk
    holds it, chunk after chunk: what a fit counts (document frequencies add up over copies),
    holding one chunk's morphemes at a time."""
    for i in range(0, len(texts), chunk):
        counts = Counter(texts[i : i + chunk])
        yield from zip(morphs_of(list(counts)), counts.values(), strict=True)


def base_tag(tag: str) -> str:
    """``VV-I`` -> ``VV`` (irregular-conjugation suffixes dropped)."""
    return tag.split("-", 1)[0]


def normalize_rows(m: np.ndarray) -> np.ndarray:
    """Rows scaled to unit L2 norm (zero rows stay zero), as float32."""
    m = np.asarray(m, dtype=np.float32)
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    norms[norms < 1e-12] = 1.0
    return (m / norms).astype(np.float32, copy=False)


def normalize(v: np.ndarray) -> np.ndarray:
    """``v`` scaled to unit L2 norm (a zero vector stays zero), as float32."""
    v = np.asarray(v, dtype=np.float32)
    n = float(np.linalg.norm(v))
    if n < 1e-12:
        return np.zeros_like(v)
    return (v / n).astype(np.float32, copy=False)


@contextmanager
def saved_arrays(path: Path, embedder: str, fmt: int) -> Iterator[Any]:
    """The arrays an embedder saved in ``path`` (an ``.npz`` file), open while the block runs.

    A missing file raises :class:`SearchIndexError` (the index was built with another embedder); a
    file of another format than ``fmt`` raises :class:`EmbedderMismatchError`.
    """
    if not path.exists():
        raise SearchIndexError(f"{path} is missing: the index was not built with the {embedder} embedder")
    with np.load(path, allow_pickle=False) as z:
        if int(z["format"]) != fmt:
            raise EmbedderMismatchError(f"{path}: unsupported format {int(z['format'])}; rebuild the index")
        yield z
