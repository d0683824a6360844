"""The user's message as every layer reads it: one normaliser and one length cap.

The agent normalises each message once (:func:`normalize_query`) and cuts it at
:data:`MAX_QUERY_CHARS`; the offline parser applies the same normaliser, after folding
full-width forms and before dropping noise runs of its own.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

MAX_QUERY_CHARS: Final = 500  # longer messages are cut to this (and the cut is noted)


_LAUGH_FINAL = {24: "ㅋ", 27: "ㅎ"}  # final consonants ㅋ, ㅎ of a Hangul syllable (jongseong index)
_LAUGH_RE = re.compile(r"[가-힣](?=[ㅋㅎ])")


def _unlaugh(m: re.Match[str]) -> str:
    """ "석촌호숰ㅋ" → "석촌호수ㅋ": a laugh typed into the last syllable's final consonant."""
    ch = m.group(0)
    code = ord(ch) - 0xAC00
    final = code % 28
    nxt = m.string[m.end()]
    if _LAUGH_FINAL.get(final) == nxt:
        return chr(0xAC00 + code - final)
    return ch


def normalize_query(text: str) -> str:
    """NFC; unprintable characters (controls, zero-width and format characters, unusual spaces)
    dropped; runs of spaces, tabs and newlines collapsed to one space; no outer spaces; a laugh
    typed into a syllable's final consonant taken out of it ("석촌호숰ㅋ" → "석촌호수ㅋ")."""
    t = unicodedata.normalize("NFC", text)
    t = "".join(ch for ch in t if ch.isprintable() or ch in "\n\t")
    t = _LAUGH_RE.sub(_unlaugh, t)
    return " ".join(t.split())
