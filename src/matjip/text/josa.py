"""Korean particles that fit the word before them (은/는, 이/가, 을/를, 과/와, 으로/로, 이에요/예요).

A particle's form depends on whether the word's last syllable has a final consonant (받침):
"주차가" / "예약이", "교촌치킨은" / "스시마이우는", "으로" except after ㄹ ("서울로"). The last
character decides: a Hangul syllable by its code point, a digit by how it is read (1 일, 3 삼, 6 육,
7 칠, 8 팔, 0 영 end in a consonant), an acronym's last Latin letter by its usual Korean reading (L 엘, M 엠,
N 엔, R 알 end in one), an English word by how its spelling ends ("pub" 펍, "burger" 버거). Anything else (a symbol, an empty word) gets both forms, "은(는)", as before.
"""

from __future__ import annotations

import re
from typing import Final

from matjip.words import word_map

_HANGUL_FIRST, _HANGUL_LAST = 0xAC00, 0xD7A3
_RIEUL = 8  # index of ㄹ among the final consonants
# final consonant (jong index) of digits and Latin letters as read aloud ("3" 삼: ㅁ); 0 = none
_READ_FINAL: Final = {
    char: (ord(reading[0][-1]) - _HANGUL_FIRST) % 28
    for char, reading in word_map("josa", "read_aloud").items()
}
_PAIRS: Final = word_map("josa", "pairs")  # "은/는" → ("은", "는")
# an English word's last sound by its spelling ("pub" 펍: ㅂ), in file order; none matching: a vowel
_WORD_ENDINGS: Final = tuple(
    (re.compile(pattern), (ord(reading[0][-1]) - _HANGUL_FIRST) % 28)
    for pattern, reading in word_map("josa", "latin_word_endings").items()
)
_LATIN_TAIL: Final = re.compile(r"[A-Za-z]+$")
_VOWEL_LETTERS: Final = frozenset("aeiouAEIOU")


def _latin_final(tail: str) -> int:
    """The final consonant of a Latin-letter word's last sound: an acronym ("KFC", "BBQ", "OK") by its
    last letter read aloud, a word ("pub", "burger") by how its spelling ends."""
    acronym = len(tail) == 1 or (tail.isupper() and (len(tail) <= 2 or not set(tail) & _VOWEL_LETTERS))
    if acronym:
        return _READ_FINAL.get(tail[-1].lower(), 0)
    word = tail.lower()
    return next((jong for pattern, jong in _WORD_ENDINGS if pattern.search(word)), 0)


def final_consonant(word: str) -> int | None:
    """The final-consonant index (0 = none, 8 = ㄹ, …) of the word's last sound; None when unknown."""
    text = word.rstrip(" )]'\"")
    if not text:
        return None
    last = text[-1]
    code = ord(last)
    if _HANGUL_FIRST <= code <= _HANGUL_LAST:
        return (code - _HANGUL_FIRST) % 28
    tail = _LATIN_TAIL.search(text)
    if tail is not None:
        return _latin_final(tail.group(0))
    if last.isdigit():
        lower = last.lower()
        if lower in _READ_FINAL:
            return _READ_FINAL[lower]
        return 0 if last.isalpha() else None
    return None


def particle(word: str, pair: str) -> str:
    """The form of ``pair`` ("은/는", "이/가", "을/를", "과/와", "으로/로", "이에요/예요", "이라/라") that
    fits ``word`` ("주차", "이/가" → "가"); "은(는)" when the last sound is unknown."""
    with_final, without = _PAIRS[pair]
    jong = final_consonant(word)
    if jong is None:
        return f"{with_final}({without})" if pair != "으로/로" else "(으)로"
    if pair == "으로/로":
        return without if jong in (0, _RIEUL) else with_final
    return with_final if jong else without


def josa(word: str, pair: str) -> str:
    """``word`` followed by the fitting particle: josa("교촌치킨", "은/는") → "교촌치킨은"."""
    return word + particle(word, pair)
