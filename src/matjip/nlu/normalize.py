"""The user's message as every layer reads it: one normaliser and one length cap.

The agent normalises each message once (:func:`normalize_query`) and cuts it at
:data:`MAX_QUERY_CHARS`; the offline parser applies the same normaliser, after folding
full-width forms and before dropping noise runs of its own.
"""

from __future__ import annotations

import unicodedata
from typing import Final

MAX_QUERY_CHARS: Final = 500  # longer messages are cut to this (and the cut is noted)


def normalize_query(text: str) -> str:
    """NFC; unprintable characters (controls, zero-width and format characters, unusual spaces)
    dropped; runs of spaces, tabs and newlines collapsed to one space; no outer spaces."""
    t = unicodedata.normalize("NFC", text)
    t = "".join(ch for ch in t if ch.isprintable() or ch in "\n\t")
    return " ".join(t.split())
