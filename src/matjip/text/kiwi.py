"""One lazily loaded, shared Kiwi instance.

Loading Kiwi takes 1-3 s and ~480 MB, so the process holds exactly one. Kiwi runs its own
worker threads for batch calls; callers pass lists to :func:`tokenize_many` for throughput.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from kiwipiepy import Kiwi

_lock = threading.Lock()
_kiwi: Kiwi | None = None


class Morph(NamedTuple):
    form: str
    tag: str
    start: int
    end: int


def get_kiwi() -> Kiwi:
    """Return the process-wide Kiwi, loading it on first use."""
    global _kiwi
    if _kiwi is None:
        with _lock:
            if _kiwi is None:
                from kiwipiepy import Kiwi

                # -1: one worker per core; since kiwipiepy 0.21, 0 means single-thread (no batch calls)
                _kiwi = Kiwi(num_workers=-1)
    return _kiwi


def _convert(tokens: Iterable[object]) -> list[Morph]:
    out: list[Morph] = []
    for t in tokens:
        start = int(t.start)  # type: ignore[attr-defined]
        out.append(Morph(str(t.form), str(t.tag), start, start + int(t.len)))  # type: ignore[attr-defined]
    return out


_cache: dict[str, tuple[Morph, ...]] = {}
_CACHE_MAX = 200_000


def _remember(text: str, morphs: tuple[Morph, ...]) -> None:
    if len(_cache) >= _CACHE_MAX:
        _cache.clear()
    _cache[text] = morphs


def tokenize(text: str) -> list[Morph]:
    """Morphemes of ``text`` with character offsets (cached, so indexing never tokenizes twice)."""
    if not text or not text.strip():
        return []
    hit = _cache.get(text)
    if hit is None:
        hit = tuple(_convert(get_kiwi().tokenize(text)))
        _remember(text, hit)
    return list(hit)


def tokenize_many(texts: Sequence[str]) -> list[list[Morph]]:
    """Tokenize many texts with Kiwi's worker threads; results share the cache of :func:`tokenize`."""
    results: list[list[Morph]] = [[] for _ in texts]
    todo: list[int] = []
    for i, t in enumerate(texts):
        if not t or not t.strip():
            continue
        hit = _cache.get(t)
        if hit is None:
            todo.append(i)
        else:
            results[i] = list(hit)
    if todo:
        kiwi = get_kiwi()
        for i, toks in zip(todo, kiwi.tokenize([texts[i] for i in todo]), strict=True):
            morphs = tuple(_convert(toks))
            _remember(texts[i], morphs)
            results[i] = list(morphs)
    return results


CONTENT_TAGS = frozenset({"NNG", "NNP", "NNB", "VV", "VA", "XR", "SL", "SN", "MAG", "SH"})


def content_forms(morphs: Iterable[Morph]) -> list[str]:
    """Content morphemes (nouns, verb/adjective stems, roots, foreign words, numbers)."""
    out = []
    for m in morphs:
        if m.tag in CONTENT_TAGS or m.tag.startswith("NN"):
            out.append(m.form.lower() if m.tag == "SL" else m.form)
    return out
