"""Issue 12, ingest speed: the faster paths of the offline enricher give exactly what the plain ones
give — the streamed tokenizer and the particle stripping — on the review evaluation set (every split)
and on texts built to reach the edge cases."""

from __future__ import annotations

import pytest

from matjip.eval.review_eval import load
from matjip.ingest.enrich import offline as offline_mod
from matjip.ingest.enrich.offline import _MenuVocab, _strip_particle
from matjip.ingest.enrich.tables import FOOD_DISHES
from matjip.ingest.enrich.tables import PARTICLES as _PARTICLES
from matjip.text import kiwi as kiwi_mod
from matjip.text import pairs as pairs_mod
from matjip.text.kiwi import Morph, tokenize, tokenize_iter, tokenize_many

TEXTS = [item.text for item in load("all")]


def _reference_strip(m: Morph, menu: _MenuVocab) -> Morph | None:
    form = m.form
    if m.end - m.start != len(form) or form in menu.dishes or form in FOOD_DISHES:
        return None
    for p in _PARTICLES:
        if form.endswith(p) and len(form) - len(p) >= 2:
            base = form[: -len(p)]
            if base in menu.dishes or base in FOOD_DISHES:
                return Morph(base, m.tag, m.start, m.end - len(p))
    return None


def test_particle_stripping_matches_the_plain_loop() -> None:
    menu = _MenuVocab.of(["오리로스구이", "차돌된장찌개(1인분)", "이랑이"])
    bases = [*sorted(FOOD_DISHES), "오리로스구이", "된장찌개", "이랑이", "이", "가", "주차"]
    forms = {b + p for b in bases for p in (*_PARTICLES, "", "요", "이랑이")} | set(_PARTICLES)
    for form in sorted(forms):
        for end in (len(form), len(form) + 1):  # a form Kiwi changed (length ≠ span) is never cut
            m = Morph(form, "NNG", 10, 10 + end)
            assert _strip_particle(m, menu) == _reference_strip(m, menu), form
    assert _strip_particle(Morph("오리로스구이랑", "NNG", 0, 7), menu) == Morph("오리로스구이", "NNG", 0, 6)


def test_streamed_tokens_equal_the_batch_and_single_calls() -> None:
    long = " ".join(TEXTS[:60])  # longer than CHUNK_CHARS: tokenized in pieces
    assert len(long) > kiwi_mod.CHUNK_CHARS
    batch = [*TEXTS[:40], "", "   ", TEXTS[0], long, TEXTS[0], "새로운 문장이에요 스트림 확인"]
    kiwi_mod._cache.clear()
    streamed = list(tokenize_iter(batch))  # cold: everything from Kiwi
    assert streamed == tokenize_many(batch)  # warm: everything from the cache
    assert streamed == [tokenize(t) if t.strip() else [] for t in batch]
    assert streamed[40] == streamed[41] == [] and streamed[42] == streamed[0]


def test_streamed_tokens_survive_the_cache_being_cleared_midway(monkeypatch: pytest.MonkeyPatch) -> None:
    """Texts found in the cache when the stream starts keep their morphemes even when tokenizing the
    others fills the cache and clears it."""
    batch = [f"주차 되는지 물어봤어요 {i}번" for i in range(30)]
    expected = tokenize_many(batch)
    kiwi_mod._cache.clear()
    tokenize_many(batch[::2])  # every other text cached
    monkeypatch.setattr(kiwi_mod, "_CACHE_MAX", 3)
    assert list(tokenize_iter(batch)) == expected


def test_enrichment_of_the_review_set_is_the_same_streamed_or_not(monkeypatch: pytest.MonkeyPatch) -> None:
    """The enricher reads each text while Kiwi analyses the next ones; analysing everything first
    gives the very same enrichment, evidence included."""
    docs = [item.document() for item in load("all")]
    pairs_mod._pairs.clear()
    streamed = offline_mod.OfflineEnricher().enrich_many(docs)
    first = list(pairs_mod.tokenize_pairs_iter([t for d in docs for t in d.reviews]))
    monkeypatch.setattr(offline_mod, "tokenize_pairs_iter", lambda texts: iter(first))
    assert offline_mod.OfflineEnricher().enrich_many(docs) == streamed
