"""Review-keyword search (seed 003, issue 12): BM25 over the sentences of the reviews, for a term that
no structured field records ("테라스", "콘센트 많은", "창밖 풍경").

Sentences are cut at sentence punctuation and line breaks; both sentences and the term are read as
character bigrams of their text without spaces, which suits Korean without a morphological analyser
(particles stay attached, "테라스가" still holds "테라", "라스"). A sentence matches only when it holds
every bigram of the term (a one-syllable term: the syllable); matches are ranked by BM25 over the
bigrams. The matching sentence is the evidence, with its source and offsets into the review.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from matjip.documents import Restaurant

_SENTENCE = re.compile(r"[^.!?\n。]+[.!?。]*")
K1, B = 1.2, 0.75
MAX_SENTENCE_CHARS = 200


def _grams(text: str) -> list[str]:
    compact = "".join(text.lower().split())
    if len(compact) < 2:
        return [compact] if compact else []
    return [compact[i : i + 2] for i in range(len(compact) - 1)]


@dataclass(frozen=True)
class ReviewHit:
    place_id: str
    title: str
    source: str  # "reviews[3]"
    sentence: str
    start: int
    end: int
    score: float


@dataclass(frozen=True)
class _Sentence:
    doc: int
    source: str
    text: str
    start: int
    end: int
    grams: Counter[str]


class ReviewIndex:
    """BM25 over the review sentences of ``docs`` (built in memory; cheap for the documents of an answer)."""

    def __init__(self, docs: Sequence[Restaurant]) -> None:
        self.docs = list(docs)
        self.sentences: list[_Sentence] = []
        self.postings: dict[str, list[int]] = {}
        for d, doc in enumerate(self.docs):
            for i, review in enumerate(doc.reviews):
                for m in _SENTENCE.finditer(review):
                    raw = m.group()
                    text = raw.strip()
                    if not text:
                        continue
                    start = m.start() + (len(raw) - len(raw.lstrip()))
                    text = text[:MAX_SENTENCE_CHARS]
                    grams = Counter(_grams(text))
                    k = len(self.sentences)
                    self.sentences.append(
                        _Sentence(d, f"reviews[{i}]", text, start, start + len(text), grams)
                    )
                    for g in grams:
                        self.postings.setdefault(g, []).append(k)
        total = sum(sum(s.grams.values()) for s in self.sentences)
        self.avg_len = total / len(self.sentences) if self.sentences else 0.0

    def search(self, term: str, k: int = 5) -> list[ReviewHit]:
        """The best ``k`` sentences holding every bigram of ``term``, one per restaurant, best first."""
        grams = list(dict.fromkeys(_grams(term)))
        if not grams or not self.sentences:
            return []
        lists = [set(self.postings.get(g, ())) for g in grams]
        candidates = set.intersection(*lists) if lists else set()
        n = len(self.sentences)
        scored: list[tuple[float, int]] = []
        for c in candidates:
            s = self.sentences[c]
            length = sum(s.grams.values())
            score = 0.0
            for g in grams:
                df = len(self.postings[g])
                idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
                tf = s.grams[g]
                score += idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * length / (self.avg_len or 1)))
            scored.append((score, c))
        scored.sort(key=lambda x: (-x[0], x[1]))
        out: list[ReviewHit] = []
        seen: set[int] = set()
        for score, c in scored:
            s = self.sentences[c]
            if s.doc in seen:
                continue
            seen.add(s.doc)
            doc = self.docs[s.doc]
            out.append(ReviewHit(doc.place_id, doc.title, s.source, s.text, s.start, s.end, round(score, 4)))
            if len(out) >= k:
                break
        return out

    def count(self, term: str, place_id: str) -> int:
        """How many reviews of one restaurant mention ``term`` (every bigram)."""
        grams = list(dict.fromkeys(_grams(term)))
        if not grams:
            return 0
        sources = {
            self.sentences[c].source
            for c in set.intersection(*[set(self.postings.get(g, ())) for g in grams])
            if self.docs[self.sentences[c].doc].place_id == place_id
        }
        return len(sources)
