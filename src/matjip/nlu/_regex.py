"""A regex with a first-character prefilter.

Python's ``re`` tries every alternative of a large alternation at every position; for the
query lexicons (hundreds of alternatives) that costs ~8 µs per character. Most alternatives
start with a literal, so the set of characters a match can start with is small: matching is
attempted only at those positions. Patterns whose first character cannot be determined
(``.``, ``\\w``, a large range) fall back to the plain regex.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

try:  # Python ≥ 3.11
    import re._constants as _c
    import re._parser as _p
except ImportError:  # pragma: no cover
    import sre_constants as _c  # type: ignore[no-redef]
    import sre_parse as _p  # type: ignore[no-redef]

_MAX_RANGE = 64
_DIGITS = frozenset("0123456789")
_SPACES = frozenset(" \t\n\r\f\v")


def _first(items: Any, flags: int) -> tuple[set[str] | None, bool]:
    """(first characters or None for "anything", whether the sequence can match empty)."""
    out: set[str] = set()
    for op, av in items:
        f: set[str] | None
        nullable: bool
        if op is _c.LITERAL:
            f, nullable = {chr(av)}, False
        elif op is _c.IN:
            f = set()
            for iop, iav in av:
                if iop is _c.LITERAL:
                    f.add(chr(iav))
                elif iop is _c.RANGE and iav[1] - iav[0] <= _MAX_RANGE:
                    f.update(chr(x) for x in range(iav[0], iav[1] + 1))
                elif iop is _c.CATEGORY and iav is _c.CATEGORY_DIGIT:
                    f |= _DIGITS
                elif iop is _c.CATEGORY and iav is _c.CATEGORY_SPACE:
                    f |= _SPACES
                else:
                    return None, False
            nullable = False
        elif op is _c.BRANCH:
            f, nullable = set(), False
            for branch in av[1]:
                bf, bn = _first(branch, flags)
                if bf is None:
                    return None, False
                f |= bf
                nullable = nullable or bn
        elif op is _c.SUBPATTERN:
            f, nullable = _first(av[-1], flags)
        elif op in (_c.MAX_REPEAT, _c.MIN_REPEAT) or op is getattr(_c, "POSSESSIVE_REPEAT", None):
            f, nullable = _first(av[2], flags)
            nullable = nullable or av[0] == 0
        elif op is getattr(_c, "ATOMIC_GROUP", None):
            f, nullable = _first(av, flags)
        elif op in (_c.AT, _c.ASSERT, _c.ASSERT_NOT):
            continue  # zero-width
        else:
            return None, False
        if f is None:
            return None, False
        out |= f
        if not nullable:
            return out, False
    return out, True


def first_chars(pattern: str, flags: int = 0) -> frozenset[str] | None:
    try:
        parsed = _p.parse(pattern, flags)
    except Exception:  # pragma: no cover - the pattern compiles elsewhere anyway
        return None
    chars, nullable = _first(list(parsed), flags)
    if chars is None or nullable:
        return None
    if flags & re.IGNORECASE:
        chars = chars | {ch.upper() for ch in chars} | {ch.lower() for ch in chars}
    return frozenset(chars)


class FastRegex:
    """``finditer``/``search`` of a compiled pattern, tried only where a match can start."""

    __slots__ = ("first", "regex")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.regex = re.compile(pattern, flags)
        self.first = first_chars(pattern, flags)

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        if self.first is None:
            yield from self.regex.finditer(text)
            return
        first = self.first
        match = self.regex.match
        i, n = 0, len(text)
        while i < n:
            if text[i] in first:
                m = match(text, i)
                if m is not None and m.end() > m.start():
                    yield m
                    i = m.end()
                    continue
            i += 1

    def search(self, text: str) -> re.Match[str] | None:
        return next(self.finditer(text), None)
