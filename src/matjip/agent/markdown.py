"""Answers are Markdown; text in them that came from a crawl or a model must stay text.

An answer's own Markdown is bold (``**``), ``-``/``1.`` lists and line breaks — never a link, an
image or HTML. :func:`inert` escapes, with CommonMark's backslash escapes, the three characters
every live construct needs: ``[`` (links, images ``![…](…)``, reference links), ``<`` (HTML tags,
``<script>``, ``<img onerror>``, autolinks) and ``\\`` itself (so a crawled backslash cannot undo
an escape). Every CommonMark reader — the page, the terminal, the chat UIs of the
OpenAI-compatible endpoint — then shows ``[쿠폰](javascript:…)`` or ``<b>`` as written and makes
nothing of it. The mapping is per character, so pieces of a stream can be escaped one by one.
"""

from __future__ import annotations

_ESCAPES = str.maketrans({"\\": "\\\\", "[": "\\[", "<": "\\<"})


def inert(text: str) -> str:
    """``text`` with ``\\``, ``[`` and ``<`` backslash-escaped (see the module docstring)."""
    return text.translate(_ESCAPES)
