"""Review text analysed in word pairs, on the shared Kiwi (:mod:`matjip.text.kiwi`).

Each word is analysed together with the word after it (its ending is told apart by what follows:
"어렵지 않아요" -지/EC, "어렵지" at the end -지/EF), never with the words before it, so its
morphemes are a function of the pair alone and are cached by the pair. Visitor reviews repeat
their phrases ("잘 먹었습니다", "주차 공간이", "또 올게요"), so in a crawl most pairs have been
analysed before and Kiwi sees only the new ones, as two-word texts. On the review gold set the pair
analysis reads the same values as the analysis of whole texts for 510 of 512 texts
(``tests/test_pairs.py``); a text where every pair is new costs about twice the Kiwi time of the
whole-text analysis (each word is analysed twice), ``bench/ingest.py`` prints both.

This module and :mod:`matjip.ingest.enrich.offline` are also compiled with mypyc
(:mod:`matjip.ingest.enrich.native`); keep them free of dynamic tricks.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from matjip.text.kiwi import Morph, get_kiwi, tokenize_iter, workers_yield_to_reader

_new = tuple.__new__  # builds a Morph without its generated __new__ (twice as fast; ingest makes millions)
_WORDS = re.compile(r"\S+")
_PAIR_WORD_MAX = 64  # a text with a longer "word" (no spaces) is analysed whole, as before
# (word, next word or "") → its morphemes as plain (form, tag, start, end) tuples: the cycle collector
# stops tracking tuples of strings and ints, so a cache of a million of them costs the rest of the
# process nothing (Morph tuples it would scan at every full collection)
_Plain = tuple[str, str, int, int]
_pairs: dict[tuple[str, str], tuple[_Plain, ...]] = {}
_PAIRS_MAX = 200_000  # ~880 bytes a pair: at most ~180 MB, cleared when full


def _pair_keys(text: str) -> list[tuple[int, tuple[str, str]]] | None:
    """(offset, (word, next word or "" when the word ends the text or its line)) of every word;
    None when a word is too long to be analysed in pairs."""
    if text.isprintable():  # the common case: no line break, tab or other space than " "
        words: list[tuple[int, str]] = []
        pos = 0
        for w in text.split(" "):
            if w:
                words.append((pos, w))
            pos += len(w) + 1
        if any(len(w) > _PAIR_WORD_MAX for _, w in words):
            return None
        last = len(words) - 1
        return [(o, (w, words[i + 1][1] if i < last else "")) for i, (o, w) in enumerate(words)]
    found = [(m.start(), m.end(), m.group()) for m in _WORDS.finditer(text)]
    if any(e - s > _PAIR_WORD_MAX for s, e, _ in found):
        return None
    out = []
    for i, (s, e, w) in enumerate(found):
        nxt = ""
        if i + 1 < len(found) and "\n" not in text[e : found[i + 1][0]]:
            nxt = found[i + 1][2]
        out.append((s, (w, nxt)))
    return out


def tokenize_pairs_iter(texts: Sequence[str]) -> Iterator[list[Morph]]:
    """Like :func:`tokenize_iter`, but each word is analysed with the word after it (see above):
    the morphemes of each text in order, each as soon as its new word pairs are analysed."""
    if len(_pairs) > _PAIRS_MAX:
        _pairs.clear()
    workers_yield_to_reader()
    plans: list[list[tuple[int, tuple[str, str]]] | None] = []
    # taken now (another caller may clear the cache while this one streams); new pairs are added
    # in the order the texts first need them
    known: dict[tuple[str, str], tuple[_Plain, ...] | None] = {}
    whole: list[str] = []  # texts analysed whole (a very long word)
    cache_get = _pairs.get
    for text in texts:
        keys = _pair_keys(text) if text.strip() else []
        plans.append(keys)
        if keys is None:
            whole.append(text)
            continue
        for _, key in keys:
            if key not in known:
                known[key] = cache_get(key)
    pending = [key for key, morphs in known.items() if morphs is None]
    sources = [f"{w} {nxt}" if nxt else w for w, nxt in pending]
    stream: Iterator[Iterable[Any]] = iter(get_kiwi().tokenize(sources)) if sources else iter(())
    whole_stream = tokenize_iter(whole) if whole else iter(())
    k = 0  # the next pair of ``stream``
    for keys in plans:
        if keys is None:
            yield next(whole_stream)
            continue
        for _, key in keys:
            while known[key] is None:  # this pair, or an earlier one, is the next one analysed
                done = pending[k]
                k += 1
                limit = len(done[0])
                known[done] = _pairs[done] = tuple(
                    (t.form, t.tag, t.start, min(t.start + t.len, limit))
                    for t in next(stream)
                    if t.start < limit
                )
        morphs = [
            _new(Morph, (f, tag, s + offset, e + offset))
            for offset, key in keys
            for f, tag, s, e in known[key] or ()
        ]
        yield morphs
