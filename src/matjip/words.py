"""Word lists and phrase tables as data: one typed loader for every lexicon of matjip.

Vocabulary lives in ``src/matjip/data/words/`` — one TOML file per concept (``query_kinds.toml``,
``review_facts.toml`` …), never in code. A file's top-level keys are its tables; a table is either
a **list** (an array of strings, order kept) or a **map** (a table of arrays: key → strings)::

    # data/words/example.toml — what the file holds, who reads it
    regex = ["ask"]             # optional: tables whose strings are regular expressions
    overlap = ["menu_synonyms"] # optional: map tables where one string may stand under two keys

    pronouns = ["거기", "그 집"]          # a list

    [ask]                                # a map (here of regexes)
    hours = ["몇\\s*시", "영업\\s*시간"]

A word list may also be a text file ``data/words/<name>.txt``: one entry per line, ``#`` starts a
comment, blank lines are skipped (:func:`lines`).

Readers ask by file and table: :func:`words` (tuple), :func:`word_set` (frozenset),
:func:`word_map` (dict of tuples), :func:`patterns` / :func:`pattern_map` (compiled regexes).
Files are read once (cached). :func:`problems` checks every file — tables of one shape, regex
tables compile, no string twice in a list, no string under two keys of a map unless the file
allows it — and ``tests/test_words.py`` asserts it finds none.
"""

from __future__ import annotations

import re
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

WORDS_DIR = Path(__file__).parent / "data" / "words"
_META_KEYS = frozenset({"regex", "overlap"})


class WordsError(ValueError):
    """A word file or table that is missing or has the wrong shape."""


@cache
def _file(name: str) -> dict[str, Any]:
    path = WORDS_DIR / f"{name}.toml"
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except FileNotFoundError as e:
        raise WordsError(f"no word file {path}") from e


def _table(name: str, table: str) -> Any:
    data = _file(name)
    if table not in data or table in _META_KEYS:
        raise WordsError(f"{name}.toml has no table {table!r}")
    return data[table]


def words(name: str, table: str) -> tuple[str, ...]:
    """A list table, in file order."""
    value = _table(name, table)
    if not isinstance(value, list):
        raise WordsError(f"{name}.toml: {table} is not a list")
    return tuple(str(v) for v in value)


def word_set(name: str, table: str) -> frozenset[str]:
    """A list table as a set."""
    return frozenset(words(name, table))


def word_map(name: str, table: str) -> dict[str, tuple[str, ...]]:
    """A map table: key → strings, keys in file order."""
    value = _table(name, table)
    if not isinstance(value, dict):
        raise WordsError(f"{name}.toml: {table} is not a map")
    return {str(k): tuple(str(v) for v in vs) for k, vs in value.items()}


def patterns(name: str, table: str, flags: int = 0) -> tuple[re.Pattern[str], ...]:
    """A list table of regexes, compiled."""
    return tuple(re.compile(p, flags) for p in words(name, table))


def pattern_map(name: str, table: str, flags: int = 0) -> dict[str, tuple[re.Pattern[str], ...]]:
    """A map table of regexes, compiled."""
    return {k: tuple(re.compile(p, flags) for p in vs) for k, vs in word_map(name, table).items()}


@cache
def lines(name: str) -> tuple[str, ...]:
    """A text word list ``data/words/<name>.txt``: one entry per line, ``#`` comments."""
    path = WORDS_DIR / f"{name}.txt"
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as e:
        raise WordsError(f"no word list {path}") from e
    out = []
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if line:
            out.append(line)
    return tuple(out)


def _file_problems(name: str, data: dict[str, Any]) -> list[str]:
    out: list[str] = []
    regex = set(data.get("regex", []))
    overlap = set(data.get("overlap", []))
    tables = {k: v for k, v in data.items() if k not in _META_KEYS}
    for unknown in sorted((regex | overlap) - set(tables)):
        out.append(f"{name}.toml: regex/overlap names no table {unknown!r}")
    for table, value in tables.items():
        where = f"{name}.toml:{table}"
        if isinstance(value, list):
            groups = {"": value}
        elif isinstance(value, dict):
            groups = value
        else:
            out.append(f"{where}: neither a list nor a map")
            continue
        owner: dict[str, str] = {}
        for key, strings in groups.items():
            if not isinstance(strings, list) or not all(isinstance(s, str) for s in strings):
                out.append(f"{where}.{key}: not a list of strings")
                continue
            seen: set[str] = set()
            for s in strings:
                if s in seen:
                    out.append(f"{where}.{key}: {s!r} twice")
                seen.add(s)
                if table in regex:
                    try:
                        re.compile(s)
                    except re.error as e:
                        out.append(f"{where}.{key}: {s!r} does not compile ({e})")
                if isinstance(value, dict) and table not in overlap:
                    if s in owner and owner[s] != key:
                        out.append(f"{where}: {s!r} under both {owner[s]!r} and {key!r}")
                    owner.setdefault(s, key)
    return out


def toml_files(directory: Path) -> tuple[list[tuple[str, dict[str, Any]]], list[str]]:
    """Every TOML file of ``directory`` read: ``(stem, contents)`` in name order, and a problem line
    for each file that does not parse (shared by the word and the wording checks)."""
    read: list[tuple[str, dict[str, Any]]] = []
    broken: list[str] = []
    for path in sorted(directory.glob("*.toml")):
        try:
            with path.open("rb") as f:
                read.append((path.stem, tomllib.load(f)))
        except tomllib.TOMLDecodeError as e:
            broken.append(f"{path.name}: {e}")
    return read, broken


def problems(directory: Path = WORDS_DIR) -> list[str]:
    """Every problem of every word file in ``directory`` (empty when all are sound)."""
    read, out = toml_files(directory)
    for name, data in read:
        out.extend(_file_problems(name, data))
    return out
