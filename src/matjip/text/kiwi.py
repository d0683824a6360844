"""One lazily loaded, shared Kiwi instance.

Loading Kiwi takes 1-3 s and ~480 MB, so the process holds exactly one. Kiwi runs its own
worker threads for batch calls; callers pass lists to :func:`tokenize_many` for throughput.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from matjip.words import word_set, words

if TYPE_CHECKING:
    from kiwipiepy import Kiwi

_lock = threading.Lock()
_kiwi: Kiwi | None = None


class Morph(NamedTuple):
    form: str
    tag: str
    start: int
    end: int


def _threads() -> set[int]:
    try:
        return {int(t) for t in os.listdir("/proc/self/task")}
    except OSError:  # not on Linux
        return set()


_workers: set[int] = set()  # the thread ids of Kiwi's workers (Linux)
_yielded = False


def workers_yield_to_reader() -> None:
    """Lower the scheduling priority of Kiwi's worker threads (nice 10; Linux, once per process).

    Ingest reads each review while Kiwi's workers analyse the next ones; with one worker per core
    the reading thread shares its core with a worker and waits, although the workers have less to
    do. Niced, the workers use what the reader leaves (bench/ingest.py: 50-review documents
    ~145 → ~230 docs/s on 2 cores; Kiwi-only work such as indexing is as fast as before). Only the
    ingest reader calls this: a serving process keeps its workers at normal priority (an
    unprivileged process cannot raise a priority again)."""
    global _yielded
    if _yielded:
        return
    _yielded = True
    get_kiwi()
    for tid in _workers:
        with contextlib.suppress(OSError):  # the thread is gone
            os.setpriority(os.PRIO_PROCESS, tid, 10)


def get_kiwi() -> Kiwi:
    """Return the process-wide Kiwi, loading it on first use."""
    global _kiwi
    if _kiwi is None:
        with _lock:
            if _kiwi is None:
                from kiwipiepy import Kiwi

                # one worker per core (since kiwipiepy 0.21, 0 means single-thread, without batch
                # calls); the ingest reader lowers their priority (workers_yield_to_reader)
                kiwi = Kiwi(num_workers=-1)
                before = _threads()
                list(kiwi.tokenize(["가", "나"]))  # its worker threads start with the first batch
                _workers.update(_threads() - before)
                _kiwi = kiwi
    return _kiwi


def _convert(tokens: Iterable[Any]) -> list[Morph]:
    # kiwipiepy's Token: form and tag are str, start and len int (character offsets)
    return [Morph(t.form, t.tag, t.start, t.start + t.len) for t in tokens]


_cache: dict[str, tuple[Morph, ...]] = {}
_CACHE_MAX = 200_000


# Kiwi's cost grows faster than linearly with the length of one text (measured: 100 KB 0.8 s,
# 200 KB 2.1 s; one 500 KB run of a single syllable far worse), so long texts are cut into pieces of
# at most CHUNK_CHARS at a line break, a sentence end or a space (a hard cut only when there is
# none) and tokenized piece by piece: the cost is then linear in the length. Texts up to
# CHUNK_CHARS (every review of the demo data) are tokenized whole, exactly as before.
CHUNK_CHARS = 1000
_CACHE_TEXT_MAX = 20_000  # longer texts are not cached (a cache key would hold megabytes)
_SENTENCE_END: Final = words("text_tags", "sentence_ends")


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
    return list(tokenize_iter(texts))


def tokenize_iter(texts: Sequence[str]) -> Iterator[list[Morph]]:
    """:func:`tokenize_many` as a stream: the morphemes of each text in order, each as soon as Kiwi
    has it, so the caller reads one text while Kiwi's workers tokenize the next ones."""
    todo: list[int] = []
    cached: dict[int, tuple[Morph, ...]] = {}  # taken now: the cache may be cleared while streaming
    for i, t in enumerate(texts):
        if not t or not t.strip():
            continue
        hit = _cache.get(t)
        if hit is None:
            todo.append(i)
        else:
            cached[i] = hit
    pieces: list[str] = []
    owners: list[tuple[int, int]] = []  # (text index, offset of the piece in that text)
    for i in todo:
        text = texts[i]
        for start, end in chunk_bounds(text) if len(text) > CHUNK_CHARS else [(0, len(text))]:
            if text[start:end].strip():
                pieces.append(text[start:end])
                owners.append((i, start))
    stream: Iterator[Iterable[Any]] = iter(get_kiwi().tokenize(pieces)) if pieces else iter(())
    todo_set = set(todo)
    k = 0  # the next piece of ``stream``
    for i, text in enumerate(texts):
        if i not in todo_set:
            yield list(cached.get(i, ()))
            continue
        morphs: list[Morph] = []
        while k < len(owners) and owners[k][0] == i:
            offset = owners[k][1]
            converted = _convert(next(stream))
            if offset:
                converted = [Morph(m.form, m.tag, m.start + offset, m.end + offset) for m in converted]
            morphs.extend(converted)
            k += 1
        morphs_t = tuple(morphs)
        _remember(text, morphs_t)
        yield list(morphs_t)


CONTENT_TAGS: Final = word_set("text_tags", "content")


def content_forms(morphs: Iterable[Morph]) -> list[str]:
    """Content morphemes (nouns, verb/adjective stems, roots, foreign words, numbers)."""
    out = []
    for m in morphs:
        if m.tag in CONTENT_TAGS or m.tag.startswith("NN"):
            out.append(m.form.lower() if m.tag == "SL" else m.form)
    return out
