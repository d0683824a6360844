"""The offline review reader's vocabulary, read from ``data/words/review_*.toml`` (docs/design.md).

* ``review_values.toml``: the canonical values of convenience, atmosphere, occasion and features and
  the surfaces that signal them in free text (how a surface is matched: the file's header).
  ``data/vocabulary.toml`` adds review surfaces to the first three; :func:`lexicons` merges them
  once (new values last; the convenience values in the vocabulary's order, checked).
* ``review_cues.toml``: negative surfaces, homographs that cancel a match, values implying others.
* ``review_sources.toml``: what visitor tags, category paths and menu names vote for.
* ``review_food.toml``: dishes, compound-dish heads and modifiers, stopwords, particles.

Targets are written ``"field:value"`` in the files (:func:`~matjip.ingest.enrich.rules.parse_target`).
Negation is handled by :mod:`matjip.ingest.enrich.offline`, not here.
"""

from __future__ import annotations

from functools import cache
from typing import Final

from matjip.documents import EnrichField
from matjip.ingest.enrich.rules import Target, parse_target
from matjip.vocab import check_names, vocab
from matjip.words import word_map, word_set, words

Lexicon = dict[str, tuple[str, ...]]

# reviewKeywords: a tag not in ``single_vote_tags`` needs this many votes (a single vote for a
# subjective strength is noise); it must also hold ≥ TAG_SHARE_MIN of all tag votes when the
# restaurant has ≥ TAG_SHARE_FROM_TOTAL votes (a lone 2 among 300 votes says little).
SUBJECTIVE_TAG_MIN_VOTES: Final[int] = 2
TAG_SHARE_MIN: Final[float] = 0.05
TAG_SHARE_FROM_TOTAL: Final[int] = 40


def _merge(table: Lexicon, field: str) -> Lexicon:
    """``table`` plus the review surfaces ``data/vocabulary.toml`` lists for ``field`` and, for moods and
    occasions, those of ``data/words/review_moods.toml`` (new values last)."""
    out = dict(table)
    extra = [vocab().surfaces(field, "review")]
    if field in ("atmosphere", "occasion"):
        extra.append(word_map("review_moods", field))
    for more in extra:
        for value, surfaces in more.items():
            out[value] = out.get(value, ()) + tuple(s for s in surfaces if s not in out.get(value, ()))
    return out


@cache
def lexicons() -> dict[EnrichField, Lexicon]:
    """Canonical value → surface variants, per field (convenience, atmosphere, occasion, features),
    with the review surfaces of ``data/vocabulary.toml`` merged in. Built once."""
    merged = _merge(word_map("review_values", "convenience"), "convenience")
    convenience = {name: merged.get(name, ()) for name in vocab().conveniences}
    check_names(convenience, vocab().conveniences, "ingest.enrich.tables.convenience", complete=True)
    return {
        "convenience": convenience,
        "atmosphere": _merge(word_map("review_values", "atmosphere"), "atmosphere"),
        "occasion": _merge(word_map("review_values", "occasion"), "occasion"),
        "features": word_map("review_values", "features"),
    }


def _by_target(table: dict[str, tuple[str, ...]]) -> dict[Target, tuple[str, ...]]:
    return {parse_target(key): strings for key, strings in table.items()}


def _targets(strings: tuple[str, ...]) -> tuple[Target, ...]:
    return tuple(parse_target(s) for s in strings)


def _keyword_tags() -> dict[str, tuple[EnrichField, str, int]]:
    single = word_set("review_sources", "single_vote_tags")
    out: dict[str, tuple[EnrichField, str, int]] = {}
    for tag, (target,) in word_map("review_sources", "tags").items():
        fld, value = parse_target(target)
        out[tag] = (fld, value, 1 if tag in single else SUBJECTIVE_TAG_MIN_VOTES)
    return out


def _category_rules() -> tuple[tuple[tuple[str, ...], tuple[Target, ...]], ...]:
    targets = word_map("review_sources", "category_targets")
    return tuple(
        (names, _targets(targets[rule]))
        for rule, names in word_map("review_sources", "category_names").items()
    )


def _menu_rules() -> tuple[tuple[str, Target], ...]:
    return tuple(
        (regex, parse_target(target))
        for target, regexes in word_map("review_sources", "menu").items()
        for regex in regexes
    )


# Surfaces that count as a vote AGAINST a value (they are negative by themselves).
NEGATIVE_VARIANTS: Final[dict[Target, tuple[str, ...]]] = _by_target(word_map("review_cues", "negative"))
# Surfaces that cancel any positive match lying inside them (homographs, not negations).
EXCLUSIONS: Final[tuple[str, ...]] = words("review_cues", "exclusions")
# Words that a value's surface begins or lies inside of, which are other words ("술찜", "무알콜맥주", "사케동"): a
# positive mention that starts inside one is cancelled however far its match reaches.
WORD_PARTS: Final[tuple[str, ...]] = words("review_cues", "word_parts")
# A value that implies others (only positive votes propagate).
IMPLIES: Final[dict[Target, tuple[Target, ...]]] = {
    t: _targets(implied) for t, implied in _by_target(word_map("review_cues", "implies")).items()
}
# Patterns that signal a value where no fixed surface does (the clock time of a visit, drinks by the bottle):
# target → regexes, judged like a surface's mention.
PATTERN_SURFACES: Final[dict[Target, tuple[str, ...]]] = _by_target(word_map("review_moods", "patterns"))
# What every pattern needs somewhere in a text (a cheap first look before the patterns run).
# Session 13 (rev37): patterns whose mention tells the value as had, whatever its clause says next
TOLD_PATTERNS: Final[dict[Target, tuple[str, ...]]] = _by_target(word_map("review_moods", "told"))
PATTERN_GATE: Final[str] = "|".join(words("review_moods", "pattern_gate"))
# reviewKeywords (Kakao visitor tags, one vote per visitor) → (field, value, minimum votes).
REVIEW_KEYWORD_TAGS: Final[dict[str, tuple[EnrichField, str, int]]] = _keyword_tags()
# Category rules (conservative; evidence source "category"): segments, matched exactly after
# splitting on ">", → targets; the CATEGORY_LEAF_ONLY segments count only as the path's leaf.
CATEGORY_RULES: Final[tuple[tuple[tuple[str, ...], tuple[Target, ...]], ...]] = _category_rules()
CATEGORY_LEAF_ONLY: Final[frozenset[str]] = word_set("review_sources", "category_leaf_only")
# Menu-name rules: (regex, target), searched case-insensitively, in order.
MENU_RULES: Final[tuple[tuple[str, Target], ...]] = _menu_rules()

FOOD_DISHES: Final[frozenset[str]] = word_set("review_food", "dishes")
FOOD_HEADS: Final[frozenset[str]] = word_set("review_food", "heads")
FOOD_MODIFIERS: Final[frozenset[str]] = word_set("review_food", "modifiers")
FOOD_STOPWORDS: Final[frozenset[str]] = word_set("review_food", "stopwords")
PARTICLES: Final[tuple[str, ...]] = words("review_food", "particles")


def canonical_values(field: EnrichField) -> tuple[str, ...]:
    """Canonical values of one field, in output order (empty for ``review_food``)."""
    return tuple(lexicons().get(field, {}))


def lexicon_sizes() -> dict[str, int]:
    """Number of canonical values and surface variants per table (for reports and tests)."""
    sizes: dict[str, int] = {}
    for field, table in lexicons().items():
        sizes[f"{field}.values"] = len(table)
        sizes[f"{field}.variants"] = sum(len(v) for v in table.values())
    sizes["negative_variants"] = sum(len(v) for v in NEGATIVE_VARIANTS.values())
    sizes["food_dishes"] = len(FOOD_DISHES)
    sizes["food_heads"] = len(FOOD_HEADS)
    sizes["food_modifiers"] = len(FOOD_MODIFIERS)
    return sizes
