"""The BM25 analyzer, the same for documents and queries.

Terms are Kiwi content morphemes (nouns, verb/adjective stems, roots, foreign words, numbers)
with Latin lowercased, plus the whole word when a word is a compound of two or more content
morphemes, so ``"돈코츠라멘"`` yields ``돈코츠``, ``라멘`` and ``돈코츠라멘`` (a query for either
part, or for the whole name, matches). Terms never contain whitespace, so the index stores them
joined by spaces in a field with tantivy's ``whitespace`` tokenizer.

The BM25 document text is the title, cuisine, category, menu names and the enrichment fields
(review_food, convenience, atmosphere, occasion, features) — not the address: location is a
filter, and address words would make every "강남" query match on the street name.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Final

from matjip.documents import Restaurant
from matjip.text.kiwi import CONTENT_TAGS, Morph, tokenize_many
from matjip.words import word_set

_WORD = re.compile(r"[0-9A-Za-z\u3131-\u318e\uac00-\ud7a3]+")
# tags that may be part of a compound word kept whole
_COMPOUND_TAGS: Final = word_set("index_tags", "compound")


def _is_content(tag: str) -> bool:
    return tag in CONTENT_TAGS or tag.startswith("NN")


def _terms_of(text: str, morphs: Sequence[Morph]) -> list[str]:
    terms: list[str] = []
    mi = 0
    n = len(morphs)
    for w in _WORD.finditer(text):
        ws, we = w.start(), w.end()
        inside: list[Morph] = []
        while mi < n and morphs[mi].start < we:
            m = morphs[mi]
            if m.end > ws:
                inside.append(m)
            mi += 1
        content = 0
        compound = len(inside) >= 2
        for m in inside:
            if _is_content(m.tag):
                form = m.form.lower() if m.tag == "SL" else m.form
                if form.strip():
                    terms.append(form.replace(" ", ""))
                    content += 1
            if m.tag not in _COMPOUND_TAGS:
                compound = False
        if compound and content >= 2:
            terms.append(w.group().lower())
    return terms


def prepare(text: str) -> str:
    """Unicode-normalise (NFKC) and collapse whitespace before analysis."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


def analyze_many(texts: Sequence[str]) -> list[list[str]]:
    """BM25 terms of each text (Kiwi batch call; results cached by the shared tokenizer)."""
    prepared = [prepare(t) for t in texts]
    morphs = tokenize_many(prepared)
    return [_terms_of(t, m) for t, m in zip(prepared, morphs, strict=True)]


def analyze(text: str) -> list[str]:
    """BM25 terms of one text (query or document fragment)."""
    return analyze_many([text])[0]


def query_terms(text: str) -> list[str]:
    """Distinct BM25 terms of a query, in order of first occurrence."""
    return list(dict.fromkeys(analyze(text)))


def document_fragments(doc: Restaurant) -> list[str]:
    """The pieces of a document that feed BM25 (each analysed on its own, then concatenated)."""
    parts: list[str] = [doc.title, doc.cuisine, doc.category.replace(">", " ")]
    parts.extend(m.name for m in doc.menus)
    for values in (doc.review_food, doc.convenience, doc.atmosphere, doc.occasion, doc.features):
        parts.extend(values)
    return [p for p in parts if p and p.strip()]


def analyze_documents(docs: Sequence[Restaurant]) -> list[list[str]]:
    """BM25 terms per document. Distinct fragments are analysed once per call (menu names and
    tags repeat a lot across restaurants), in one Kiwi batch."""
    fragments = [document_fragments(d) for d in docs]
    unique: dict[str, int] = {}
    for frs in fragments:
        for f in frs:
            unique.setdefault(f, len(unique))
    analysed = analyze_many(list(unique))
    return [[t for f in frs for t in analysed[unique[f]]] for frs in fragments]


def embedding_text(doc: Restaurant) -> str:
    """The text embedded for vector search: the ingest ``summary`` (docs/design.md) when present,
    otherwise the same layout rebuilt from the fields."""
    if doc.summary.strip():
        return doc.summary
    menus = [m.name for m in doc.menus] + list(doc.review_food)
    lines = [f"식당 이름: {doc.title}", f"카테고리: {doc.category or doc.cuisine}"]
    if menus:
        lines.append("메뉴: " + ",".join(menus))
    for label, values in (
        ("편의", doc.convenience),
        ("분위기", doc.atmosphere),
        ("상황", doc.occasion),
        ("기타 특징", doc.features),
    ):
        if values:
            lines.append(f"{label}: " + ",".join(values))
    return "\n".join(lines)
