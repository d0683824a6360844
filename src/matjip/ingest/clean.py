"""Text clean-up for crawled strings: HTML markup, entities and odd whitespace.

The Naver local-search API highlights the query in titles (``"<b>농민</b>백암순대"``) and
escapes characters (``&amp;``, ``&#39;``). :func:`strip_html` removes tags and decodes
entities until nothing changes (so double-escaped text is decoded fully and the result never
contains a tag); :func:`normalize_space` collapses every kind of whitespace (including NBSP and
the ideographic space) to one space and drops zero-width characters (the zero-width joiner is
kept: it holds emoji sequences together). :func:`clean_title` does both; all three are
idempotent.
"""

from __future__ import annotations

import html
import re
from typing import Final

# Only things that look like real tags: an ASCII name, optional attributes. "<맛집>" stays.
_TAG: Final = re.compile(r"<!--.*?-->|</?[A-Za-z][A-Za-z0-9:-]*(?:\s[^<>]*)?/?>", re.DOTALL)
_BLOCK_TAG: Final = re.compile(r"</?(?:br|p|div|li|tr|td|h[1-6])\b[^<>]*>", re.IGNORECASE)
_ZERO_WIDTH: Final = re.compile("[\u200b\u200c\u2060\ufeff\u180e\u00ad]")


def strip_html(text: str) -> str:
    """Remove tags and decode entities: ``"<b>A</b> &amp; B"`` -> ``"A & B"``."""
    current = text
    while True:
        # block-level tags separate words; inline ones (the <b> highlight) split none
        stripped = _TAG.sub("", _BLOCK_TAG.sub(" ", current))
        decoded = html.unescape(stripped)
        if decoded == current:
            return decoded
        current = decoded  # every change shortens the text, so this ends


def normalize_space(text: str) -> str:
    """Collapse whitespace runs to one space, drop zero-width characters, trim."""
    return " ".join(_ZERO_WIDTH.sub("", text).split())


def clean_title(text: str) -> str:
    """:func:`strip_html` then :func:`normalize_space`, repeated until stable."""
    current = text
    while True:
        cleaned = normalize_space(strip_html(current))
        if cleaned == current:
            return cleaned
        current = cleaned
