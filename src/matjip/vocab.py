"""The shared vocabulary: the cuisines and conveniences documents, filters and queries use.

Read once from ``data/vocabulary.toml`` (:func:`vocab`); every layer asks this module for the
lists, never the file. The file format (TOML)::

    unknown_cuisine = "기타"    # the cuisine of a restaurant nothing more specific fits
    menu_badges = ["추천", …]   # crawl badges standing in a menu list instead of a dish name

    [[cuisine]]                 # one table per cuisine, in their order (labels, stats, prompts)
    name = "한식"               # the value of Restaurant.cuisine and of the cuisine filter
    covers = "Korean: …"        # what the cuisine includes (documentation; optional)

    [[convenience]]             # one table per convenience, in document order
    name = "주차"               # the value of Restaurant.convenience and of the convenience filter
    review = ["콘센트"]         # optional: surfaces in reviews (literal; a space = optional particle/space)
    query = ["콘센트"]          # optional: regexes of how people ask (the NLU side)
    [[atmosphere]]              # optional: surfaces of an atmosphere/occasion value ([[occasion]] alike)
    name = "힙한"               # merged into both sides' lexicons (review + query keys as above)
    [[visitor_tag]]             # a visitor tag of the crawl (reviewKeywords) and the wishes it backs
    name = "분위기"             # the tag as crawled
    wishes = ["데이트", "조용한"] # atmosphere/occasion words a tag count supports (ranking only)

Names are unique within their list, and ``unknown_cuisine`` is one of the cuisines. The
older synonyms of these values (how people ask, how reviews say it) stay with their lexicons, which
check with :func:`check_names` that they name no value missing here; new surfaces go into this file
(``review``/``query`` keys, :meth:`Vocab.surfaces`), which both lexicons merge, so the query side and
the review side read one vocabulary.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, model_validator

VOCABULARY_FILE = Path(__file__).parent / "data" / "vocabulary.toml"


class Cuisine(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    covers: str = ""


class Convenience(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    review: tuple[str, ...] = ()  # literal surfaces in review text (ingest.enrich.tables)
    query: tuple[str, ...] = ()  # regexes of how people ask (nlu.terms)


class Wish(BaseModel):
    """An atmosphere or occasion value with surfaces both sides read (merged into their lexicons)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    review: tuple[str, ...] = ()
    query: tuple[str, ...] = ()


class VisitorTag(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str
    wishes: tuple[str, ...] = ()


class Vocab(BaseModel):
    """The contents of ``vocabulary.toml`` (field names are the file's keys)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    unknown_cuisine: str
    cuisine: tuple[Cuisine, ...]
    convenience: tuple[Convenience, ...]
    visitor_tag: tuple[VisitorTag, ...] = ()
    menu_badges: frozenset[str] = frozenset()
    atmosphere: tuple[Wish, ...] = ()
    occasion: tuple[Wish, ...] = ()

    def is_menu_badge(self, name: str) -> bool:
        """A menu line that names a crawl badge ("추천"), not a dish."""
        return name.strip() in self.menu_badges

    @model_validator(mode="after")
    def _consistent(self) -> Vocab:
        for what, names in (("cuisine", self.cuisines), ("convenience", self.conveniences)):
            if len(set(names)) != len(names):
                raise ValueError(f"duplicate {what} name in {list(names)}")
        if self.unknown_cuisine not in self.cuisines:
            raise ValueError(f"unknown_cuisine {self.unknown_cuisine!r} is not a cuisine")
        return self

    @property
    def cuisines(self) -> tuple[str, ...]:
        """Every cuisine name, in order."""
        return tuple(c.name for c in self.cuisine)

    def surfaces(self, field: str, side: str) -> dict[str, tuple[str, ...]]:
        """The ``review`` or ``query`` surfaces this file adds to ``field`` (convenience, atmosphere,
        occasion), by value name."""
        entries: tuple[Convenience | Wish, ...] = getattr(self, field)
        out: dict[str, tuple[str, ...]] = {}
        for e in entries:
            out[e.name] = out.get(e.name, ()) + tuple(getattr(e, side))
        return out

    def tags_for(self, wish: str) -> list[str]:
        """The visitor tags that back a wish ("데이트" → ["분위기"])."""
        return [t.name for t in self.visitor_tag if wish == t.name or wish in t.wishes]

    @property
    def conveniences(self) -> tuple[str, ...]:
        """Every convenience name, in document order."""
        return tuple(c.name for c in self.convenience)


@cache
def vocab() -> Vocab:
    """The vocabulary of ``data/vocabulary.toml`` (loaded once)."""
    with VOCABULARY_FILE.open("rb") as f:
        return Vocab.model_validate(tomllib.load(f))


def check_names(names: Iterable[str], allowed: Iterable[str], what: str, *, complete: bool = False) -> None:
    """Raise :class:`ValueError` if ``what`` (a lexicon's keys, a classifier's targets) names a
    value that ``allowed`` (a vocabulary list) lacks, or with ``complete`` if it is not exactly
    ``allowed``, in the same order."""
    names, allowed = list(names), list(allowed)
    strays = [n for n in names if n not in allowed]
    if strays:
        raise ValueError(f"{what} names values the vocabulary (data/vocabulary.toml) lacks: {strays}")
    if complete and names != allowed:
        raise ValueError(f"{what} must list the vocabulary's values in its order: {allowed}")
