"""Query-side word tables: how users *ask* for things, mapped to the canonical values documents use.

Documents are enriched with the review lexicons of :mod:`matjip.ingest.enrich`; queries are phrased
differently ("주차되는", "차 가져가도 돼?", "조용히 대화할 수 있는"), so the query side keeps its own
surfaces, as data under ``data/words/`` (read through :mod:`matjip.words`):

- ``query_conditions.toml`` — category, convenience, atmosphere and occasion surfaces (regexes),
  plus the ``query`` surfaces ``data/vocabulary.toml`` adds (:func:`with_vocabulary`);
- ``dialogue_cues.toml`` — compare/search/ask/order/pronoun/place/smalltalk/injection cues (regexes);
- ``menu.toml`` — menu synonyms, combined words, one-character menus, menu stopwords (plain);
- ``titles.toml`` — generic title words and chain-name shortenings (plain);
- ``function_words.txt`` and ``not_conditions.txt`` — words that are never unknown terms.

Canonical values are the document vocabulary: the cuisine and convenience names of
:mod:`matjip.vocab` (checked at import), atmosphere/occasion keys of the enrichment lexicon.
"""

from __future__ import annotations

from typing import Final

from matjip.vocab import check_names, vocab
from matjip.words import lines, pattern_map, word_map, word_set, words

Table = dict[str, tuple[str, ...]]


def with_vocabulary(table: Table, field: str) -> Table:
    """``table`` with the ``query`` surfaces of ``data/vocabulary.toml`` for ``field`` appended
    (per value, after the table's own; values the table lacks come last, in the file's order)."""
    out = dict(table)
    for name, regexes in vocab().surfaces(field, "query").items():
        out[name] = out.get(name, ()) + regexes
    return out


def _conditions(table: str, allowed: tuple[str, ...] | None = None) -> Table:
    merged = word_map("query_conditions", table)
    if table != "category":
        merged = with_vocabulary(merged, table)
    if allowed is not None:
        check_names(merged, allowed, f"nlu.terms.{table.upper()}")
    return merged


# --- conditions (query_conditions.toml + data/vocabulary.toml) ------------------------------------
CATEGORY: Final = _conditions("category", vocab().cuisines)
CONVENIENCE: Final = _conditions("convenience", vocab().conveniences)
ATMOSPHERE: Final = _conditions("atmosphere")
OCCASION: Final = _conditions("occasion")

# --- menus (menu.toml) ----------------------------------------------------------------------------
MENU_SYNONYMS: Final = word_map("menu", "synonyms")
MENU_COMBOS: Final = word_map("menu", "combos")
SINGLE_CHAR_MENUS: Final = word_set("menu", "single_char")
MENU_STOPWORDS: Final = word_set("menu", "stopwords")
INGREDIENTS: Final = words("menu", "ingredients")
INGREDIENT_CUES: Final = words("menu", "ingredient_cues")

# --- intent, question and slot cues (dialogue_cues.toml) ------------------------------------------
COMPARE_CUES: Final = words("dialogue_cues", "compare")
SEARCH_CUES: Final = words("dialogue_cues", "search")
ASK: Final = word_map("dialogue_cues", "ask")
ORDER: Final = word_map("dialogue_cues", "order")
PRONOUN: Final = words("dialogue_cues", "pronoun")
# what one did before or the day before, told around the wish (never a condition on the place)
CONTEXT: Final = pattern_map("dialogue_cues", "context")
FOLLOWUP_PLACE: Final = words("dialogue_cues", "followup_place")
USER_LOCATION: Final = words("dialogue_cues", "user_location")
NEAR_MARKERS: Final = words("dialogue_cues", "near_markers")
IN_MARKERS: Final = words("dialogue_cues", "in_markers")
SMALLTALK: Final = word_map("dialogue_cues", "smalltalk")
INJECTION: Final = words("dialogue_cues", "injection")

# --- titles (titles.toml) -------------------------------------------------------------------------
GENERIC_TITLE_WORDS: Final = word_set("titles", "generic_words")
TITLE_ALIASES: Final = word_map("titles", "aliases")
SHOP_NOUNS: Final = word_set("titles", "shop_nouns")  # "과자점": a kind of shop, no branch

# --- words that are never unknown terms -----------------------------------------------------------
FUNCTION_WORDS: Final = frozenset(lines("function_words"))


def not_condition_words() -> frozenset[str]:
    """Words that put no condition on a restaurant ("안쪽", "중요하"): ``data/words/not_conditions.txt``."""
    return frozenset(lines("not_conditions"))
