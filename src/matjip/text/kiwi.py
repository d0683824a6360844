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


# Kiwi's cost grows faster than linearly with the length of one text (measured: 100 KB 0.8 s,
# 200 KB 2.1 s; one 500 KB run of a single syllable far worse), so long texts are cut into pieces of
# at most CHUNK_CHARS at a line break, a sentence end or a space (a hard cut only when there is
# none) and tokenized piece by piece: the cost is then linear in the length. Texts up to
# CHUNK_CHARS (every review of the demo data) are tokenized whole, exactly as before.
CHUNK_CHARS = 1000
_CACHE_TEXT_MAX = 20_000  # longer texts are not cached (a cache key would hold megabytes)
_SENTENCE_END = (". ", "! ", "? ", ".\n", "!\n", "?\n", "。", "~ ")


def chunk_bounds(text: str, size: int = CHUNK_CHARS) -> list[tuple[int, int]]:
    """``(start, end)`` pieces covering ``text``, each at most ``size`` characters long."""
    n = len(text)
    out: list[tuple[int, int]] = []
    start = 0
    while n - start > size:
        limit = start + size
        floor = start + size // 2
        cut = text.rfind("\n", floor, limit) + 1
        if cut <= floor:
            cut = max((text.rfind(p, floor, limit - len(p) + 1) + len(p) for p in _SENTENCE_END), default=0)
        if cut <= floor:
            cut = max(text.rfind(" ", floor, limit), text.rfind("\t", floor, limit)) + 1
        if cut <= floor:
            cut = limit
        out.append((start, cut))
        start = cut
    out.append((start, n))
    return out


def _remember(text: str, morphs: tuple[Morph, ...]) -> None:
    if len(text) > _CACHE_TEXT_MAX:
        return
    if len(_cache) >= _CACHE_MAX:
        _cache.clear()
    _cache[text] = morphs


def tokenize(text: str) -> list[Morph]:
    """Morphemes of ``text`` with character offsets (cached, so indexing never tokenizes twice)."""
    return tokenize_many([text])[0]


def tokenize_many(texts: Sequence[str]) -> list[list[Morph]]:
    """Tokenize many texts with Kiwi's worker threads; results share the cache of :func:`tokenize`.

    Long texts are tokenized in pieces (:func:`chunk_bounds`), offsets mapped back to the text."""
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
    if not todo:
        return results
    pieces: list[str] = []
    owners: list[tuple[int, int]] = []  # (text index, offset of the piece in that text)
    for i in todo:
        text = texts[i]
        for start, end in chunk_bounds(text) if len(text) > CHUNK_CHARS else [(0, len(text))]:
            if text[start:end].strip():
                pieces.append(text[start:end])
                owners.append((i, start))
    merged: dict[int, list[Morph]] = {i: [] for i in todo}
    if pieces:
        kiwi = get_kiwi()
        for (i, offset), toks in zip(owners, kiwi.tokenize(pieces), strict=True):
            morphs = _convert(toks)
            if offset:
                morphs = [Morph(m.form, m.tag, m.start + offset, m.end + offset) for m in morphs]
            merged[i].extend(morphs)
    for i in todo:
        morphs_t = tuple(merged[i])
        _remember(texts[i], morphs_t)
        results[i] = list(morphs_t)
    return results


CONTENT_TAGS = frozenset({"NNG", "NNP", "NNB", "VV", "VA", "XR", "SL", "SN", "MAG", "SH"})


def content_forms(morphs: Iterable[Morph]) -> list[str]:
    """Content morphemes (nouns, verb/adjective stems, roots, foreign words, numbers)."""
    out = []
    for m in morphs:
        if m.tag in CONTENT_TAGS or m.tag.startswith("NN"):
            out.append(m.form.lower() if m.tag == "SL" else m.form)
    return out
