"""Map a crawled category path to a small, user-meaningful cuisine (docs/design.md, step 1).

Crawled categories are Kakao/Naver paths such as ``"한식>육류,고기>족발,보쌈"``, bare leaves such
as ``"육류"`` or even brand names such as ``"명륜진사갈비"``. Search needs one coarse cuisine
per restaurant (for filters like "중식 말고") and keeps the rest of the path as ``sub_category``.

The taxonomy (:data:`CUISINES`) is the cuisine list of :mod:`matjip.vocab`; its data file
``data/vocabulary.toml`` says what each cuisine covers (한식: meat grills, stews, soups, noodles,
seafood and 회, …; 기타: unknown, generic "음식점"/"기타"/food courts with nothing more specific).

Decisions: pizza stays under 양식 (as Kakao files it); ``"베이커리,카페"`` is a café unless the
title says bakery; ``간식`` is split by its second level (bakery, dessert, 치킨 for 닭강정,
패스트푸드 for 토스트). The first path level decides, except for the generic levels
(``음식점``, ``간식``, ``퓨전요리``, ``기타``) which defer to the next level. A level with no
table entry falls back to keyword rules (``갈비`` → 한식, ``피자`` → 양식, ``커피`` → 카페·디저트,
…), then to a short brand table. The title only refines generic or ambiguous categories
(``기타``, ``음식점``, ``면류``, ``퓨전요리``, ``간식``, ``베이커리,카페``, empty); it never
overrides a clear category.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from matjip.vocab import check_names, vocab
from matjip.words import pattern_map, word_map, word_set, words

CUISINES: Final[tuple[str, ...]] = vocab().cuisines
UNKNOWN: Final = vocab().unknown_cuisine


@dataclass(frozen=True)
class CategoryInfo:
    original: str  # the category string as crawled
    cuisine: str  # one of CUISINES
    sub_category: str | None  # the rest of the path, e.g. "육류,고기>족발,보쌈"


def _by_name(groups: dict[str, tuple[str, ...]]) -> dict[str, str]:
    """``{cuisine: names}`` -> ``{name: cuisine}`` (cuisines checked against the vocabulary)."""
    check_names(groups, CUISINES, "ingest.category")
    return {name: cuisine for cuisine, names in groups.items() for name in names}


# The tables of data/words/cuisine_categories.toml (what each one is: that file).
_LEVELS: Final[dict[str, str]] = _by_name(word_map("cuisine_categories", "levels"))
# Generic levels: the next path level decides when it can; otherwise this default (None = 기타).
_DEFER: Final[dict[str, str | None]] = {
    **dict.fromkeys(words("cuisine_categories", "defer_to_unknown")),
    **_by_name(word_map("cuisine_categories", "defer")),
}
# Single-level categories the title may refine, with the cuisines it may move them to (None = any).
_REFINABLE: Final[dict[str, frozenset[str] | None]] = {
    **dict.fromkeys(words("cuisine_categories", "refinable_to_any")),
    **{level: frozenset(cuisines) for level, cuisines in word_map("cuisine_categories", "refinable").items()},
}
check_names({c for cs in _REFINABLE.values() if cs for c in cs}, CUISINES, "ingest.category")
# A single level that just names the cuisine adds nothing as a sub-category.
_NO_SUB: Final[frozenset[str]] = word_set("cuisine_categories", "no_sub")
# Keyword rules on a level (or the title), first match wins (order matters).
_KEYWORD_RULES: Final[tuple[tuple[re.Pattern[str], str], ...]] = tuple(
    (pattern, cuisine)
    for cuisine, patterns in pattern_map("cuisine_categories", "keywords", re.IGNORECASE).items()
    for pattern in patterns
)
check_names([c for _, c in _KEYWORD_RULES], CUISINES, "ingest.category")
# Chain brands that appear as bare categories and carry no keyword.
_BRANDS: Final[dict[str, str]] = _by_name(word_map("cuisine_categories", "brands"))

_SEP = re.compile(r"\s*>\s*")
_SPACES = re.compile(r"\s+")


def _key(level: str) -> str:
    return _SPACES.sub("", level)


def _by_keyword(text: str, allowed: frozenset[str] | None = None) -> str | None:
    for pattern, cuisine in _KEYWORD_RULES:
        if (allowed is None or cuisine in allowed) and pattern.search(text):
            return cuisine
    return None


def _level_cuisine(level: str) -> str | None:
    """The cuisine a single level names, or None when it names none (generic or unknown)."""
    key = _key(level)
    if key in _DEFER:
        return None
    if key in _LEVELS:
        return _LEVELS[key]
    return _BRANDS.get(key) or _by_keyword(key)


def classify_category(category: str, title: str = "") -> CategoryInfo:
    """Classify a crawled ``category`` (``title`` only refines generic categories).

    >>> classify_category("한식>육류,고기>족발,보쌈")
    CategoryInfo(original='한식>육류,고기>족발,보쌈', cuisine='한식', sub_category='육류,고기>족발,보쌈')
    """
    original = category
    levels = [lv for lv in _SEP.split(category.strip()) if lv]
    # Naver prefixes food places with "음식점"; drop that level when more follow.
    while len(levels) > 1 and _key(levels[0]) == "음식점":
        levels = levels[1:]

    cuisine: str | None = None
    for level in levels:
        cuisine = _level_cuisine(level)
        if cuisine is not None:
            break
    if cuisine is None and levels:
        cuisine = _DEFER.get(_key(levels[0]))

    # The title refines only generic or ambiguous categories, within the cuisines allowed.
    head = _key(levels[0]) if len(levels) == 1 else None
    if title.strip() and (cuisine is None or not levels or head in _REFINABLE):
        allowed = None if cuisine is None or head is None else _REFINABLE[head]
        cuisine = _by_keyword(title, allowed) or cuisine

    if len(levels) > 1:
        sub: str | None = ">".join(levels[1:])
    elif len(levels) == 1 and _key(levels[0]) not in _NO_SUB:
        sub = levels[0]
    else:
        sub = None
    return CategoryInfo(original=original, cuisine=cuisine or UNKNOWN, sub_category=sub)
