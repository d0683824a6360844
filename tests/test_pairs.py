"""Issue 12, ingest speed: review text is analysed in word pairs (matjip.text.pairs). Each word's
morphemes are Kiwi's analysis of the word followed by the next one, whatever was analysed before."""

from __future__ import annotations

import pytest

from matjip.eval.review_eval import load
from matjip.ingest.enrich import offline as offline_mod
from matjip.text import pairs as pairs_mod
from matjip.text.kiwi import Morph, get_kiwi, tokenize, tokenize_iter
from matjip.text.pairs import tokenize_pairs_iter

TEXTS = [
    "주차 공간이 넓어서 편했어요",
    "여자친구랑 데이트하러 왔어요~ 주차가 어려워서 매번 택시타고 가요",
    "주차는  골목에 해야 해서\n힘들어요 ㅠㅠ",
    "분위기 좋고 조용해요 👍 또 올게요",
]


def _kiwi_pair(word: str, nxt: str) -> list[tuple[str, str, int, int]]:
    """Kiwi's own analysis of "word nxt", cut to the morphemes that start in ``word``."""
    tokens = get_kiwi().tokenize(f"{word} {nxt}" if nxt else word)
    return [(t.form, t.tag, t.start, min(t.start + t.len, len(word))) for t in tokens if t.start < len(word)]


def _words(text: str) -> list[tuple[int, str, str]]:
    lines = text.split("\n")
    out = []
    offset = 0
    for line in lines:
        pos = 0
        words = []
        for w in line.split(" "):
            if w:
                words.append((offset + pos, w))
            pos += len(w) + 1
        for i, (o, w) in enumerate(words):
            out.append((o, w, words[i + 1][1] if i + 1 < len(words) else ""))
        offset += len(line) + 1
    return out


def test_each_word_is_kiwis_analysis_of_it_and_the_next_word() -> None:
    pairs_mod._pairs.clear()
    for text, morphs in zip(TEXTS, tokenize_pairs_iter(TEXTS), strict=True):
        expected = [(f, t, s + o, e + o) for o, w, nxt in _words(text) for f, t, s, e in _kiwi_pair(w, nxt)]
        assert [tuple(m) for m in morphs] == expected, text
        for m in morphs:  # offsets point into the text
            assert 0 <= m.start < m.end <= len(text)


def test_a_line_break_ends_the_pair() -> None:
    [morphs] = tokenize_pairs_iter(["주차 안돼요\n분위기 좋아요"])
    first_line = [m for m in morphs if m.start < 6]
    assert [(m.form, m.tag) for m in first_line] == [
        (f, t) for f, t, _, _ in _kiwi_pair("주차", "안돼요")
    ] + [(f, t) for f, t, _, _ in _kiwi_pair("안돼요", "")]


def test_the_analysis_does_not_depend_on_what_was_analysed_before() -> None:
    pairs_mod._pairs.clear()
    alone = [next(iter(tokenize_pairs_iter([t]))) for t in TEXTS]
    pairs_mod._pairs.clear()
    list(tokenize_pairs_iter([t[::-1] for t in TEXTS] + ["데이트하러 왔어요 주차는"]))
    assert list(tokenize_pairs_iter(list(reversed(TEXTS)))) == list(reversed(alone))
    assert list(tokenize_pairs_iter(TEXTS)) == alone


def test_the_cache_may_be_cleared_while_a_batch_streams(monkeypatch: pytest.MonkeyPatch) -> None:
    batch = [f"주차 되는지 물어봤어요 {i}번째" for i in range(30)]
    pairs_mod._pairs.clear()
    expected = list(tokenize_pairs_iter(batch))
    pairs_mod._pairs.clear()
    list(tokenize_pairs_iter(batch[::2]))
    monkeypatch.setattr(pairs_mod, "_PAIRS_MAX", 3)
    assert list(tokenize_pairs_iter(batch)) == expected
    assert len(pairs_mod._pairs) > 3  # cleared at the start of the call, then filled again


def test_a_text_with_a_very_long_word_is_analysed_whole() -> None:
    long = "주차" + "가" * pairs_mod._PAIR_WORD_MAX + " 좋아요"
    [morphs] = tokenize_pairs_iter([long])
    assert morphs == tokenize(long)


def test_empty_and_blank_texts_have_no_morphemes() -> None:
    assert list(tokenize_pairs_iter(["", "   ", "좋아요"]))[:2] == [[], []]


def test_pairs_read_the_review_set_as_whole_sentences_do(monkeypatch: pytest.MonkeyPatch) -> None:
    """The values read from the 512 gold texts with the pair analysis and with Kiwi's analysis of
    whole texts (every split; no gold label is used) differ for at most 1 % of the texts."""
    docs = [item.document() for item in load("all")]
    pairs = offline_mod.OfflineEnricher().enrich_many(docs)
    monkeypatch.setattr(offline_mod, "tokenize_pairs_iter", tokenize_iter)
    whole = offline_mod.OfflineEnricher().enrich_many(docs)
    fields = ("convenience", "atmosphere", "occasion", "review_food")
    differ = sum(any(a.values(f) != b.values(f) for f in fields) for a, b in zip(pairs, whole, strict=True))
    assert differ <= len(docs) // 100


def test_morphs_are_morph_tuples() -> None:
    [morphs] = tokenize_pairs_iter(["포장 가능해요"])
    assert all(type(m) is Morph for m in morphs)
    assert morphs[0].form == "포장" and morphs[0].start == 0


@pytest.mark.parametrize(
    ("text", "kept", "against"),
    [
        # Kiwi tags 어요 as a connective (EC) when another sentence follows unmarked: the polite ending
        # still closes the sentence, so the date is not read through the next one
        (
            "여자친구랑 데이트하러 왔어요~ 주차가 어려워서 매번 택시타고 가요",
            ("occasion", "데이트"),
            ("convenience", "주차"),
        ),
        ("와이프랑 둘이 왔어요~ 주차공간 부족해요", ("occasion", "가족"), ("convenience", "주차")),
    ],
)
def test_a_polite_ending_closes_its_sentence_whatever_its_tag(
    text: str, kept: tuple[str, str], against: tuple[str, str]
) -> None:
    e = offline_mod.OfflineEnricher().enrich(
        offline_mod.CrawlDocument.model_validate({"place_id": "p", "title": "가게", "reviews": [text]})
    )
    assert kept[1] in e.values(kept[0])  # type: ignore[arg-type]
    assert against[1] not in e.values(against[0])  # type: ignore[arg-type]
    assert any(ev.value == against[1] for ev in e.against)
