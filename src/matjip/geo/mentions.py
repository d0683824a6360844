"""Place names inside free text: which names may be read in a sentence, and the matcher.

Longest match over every name and alias, starting at a word start; two-letter names must end the
word or be followed by a particle ("홍대에", "잠실쪽"); :data:`TEXT_STOPWORDS` keeps station names that
are ordinary words (가능, 국수, 오리, 중앙) out, and a two-letter name that only stations or dongs of
other cities carry (노포, 안심, 내면) is read only with its suffix ("노포역").
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from matjip.geo.names import CAPITAL_SIDO, INTERPUNCT
from matjip.geo.places import TIER_ALIAS, Place, PlaceType
from matjip.words import word_set, words


def _plain_word_risk(place: Place) -> bool:
    """A station or dong outside the capital area: its two-letter name (노포역's 노포, 안심역's 안심,
    내면) is read in free text only with its suffix ("노포역", "안심역"); lookup still knows it."""
    return place.sido not in CAPITAL_SIDO and place.type in (
        PlaceType.SUBWAY_STATION,
        PlaceType.ADMIN_DONG,
        PlaceType.LEGAL_DONG,
    )


# Keys that are ordinary words far more often than place names, and what may follow a short name
# inside a word (data/words/place_mentions.toml); the longest follower is tried first.
TEXT_STOPWORDS: Final = word_set("place_mentions", "text_stopwords")
_FOLLOWERS: Final = tuple(sorted(set(words("place_mentions", "followers")), key=lambda w: (-len(w), w)))


def _is_hangul(ch: str) -> bool:
    return "\uac00" <= ch <= "\ud7a3"


def _is_word_char(ch: str) -> bool:
    return _is_hangul(ch) or ch.isalnum()


def text_keys(index: Mapping[str, Mapping[int, tuple[int, int]]], places: Sequence[Place]) -> set[str]:
    """The lookup keys that may be read in free text: names and aliases (no query expansions)
    that are no ordinary words."""
    keys: set[str] = set()
    for key, bucket in index.items():
        if len(key) < 2 or key in TEXT_STOPWORDS or key.isdigit():
            continue
        if not any(tier <= TIER_ALIAS for tier, _ in bucket.values()):
            continue
        if len(key) == 2 and all(_plain_word_risk(places[i]) for i in bucket):
            continue  # 노포, 안심, 공항, 수영, 내면: a station or dong of another city, or a word
        keys.add(key)
    return keys


class MentionFinder:
    """Finds mentions of the given lookup keys (normalized names) in a sentence."""

    def __init__(self, keys: Iterable[str]) -> None:
        self._text_keys = frozenset(keys)
        lengths: dict[str, set[int]] = defaultdict(set)
        for k in self._text_keys:
            lengths[k[0]].add(len(k))
        self._lengths = {ch: tuple(sorted(ls, reverse=True)) for ch, ls in lengths.items()}

    def starts_key(self, compact: str) -> bool:
        for n in self._lengths.get(compact[:1], ()):
            if n <= len(compact) and compact[:n] in self._text_keys:
                return True
        return False

    def find(self, text: str) -> list[tuple[str, int, int]]:
        """Place mentions in a sentence as ``(surface, start, end)``, longest match first.

        "강남역 주차되는 일식집" -> ``[("강남역", 0, 3)]``. A mention must start a word (or follow
        another mention); a two-letter name must end the word or be followed by a particle or a
        place word ("홍대에", "마포 맛집", "잠실쪽"), so "수유실" or "대화하기" are no places.
        Names may span spaces ("서울 대공원"). Offsets index the NFC form of ``text``.
        """
        t = unicodedata.normalize("NFC", text).translate(INTERPUNCT).replace(".", "·")
        t = "".join(c.lower() if c.isascii() else c for c in t)
        pos = [i for i, c in enumerate(t) if not c.isspace()]
        compact = "".join(t[i] for i in pos)
        n = len(compact)
        found: list[tuple[str, int, int]] = []
        i = 0
        chained = -1
        while i < n:
            start = pos[i]
            if not (start == 0 or not _is_word_char(t[start - 1]) or i == chained):
                i += 1
                continue
            for length in self._lengths.get(compact[i], ()):
                if i + length > n:
                    continue
                key = compact[i : i + length]
                if key not in self._text_keys:
                    continue
                end = pos[i + length - 1] + 1
                if self._end_ok(t, end, key, spans_space=(end - start) != length):
                    found.append((text[start:end] if len(text) == len(t) else t[start:end], start, end))
                    i += length
                    chained = i
                    break
            else:
                i += 1
        return found

    def _end_ok(self, t: str, end: int, key: str, spans_space: bool) -> bool:
        nxt = t[end] if end < len(t) else ""
        if not nxt or not _is_word_char(nxt):
            return True
        if key.isascii() or nxt.isdigit() or nxt.isascii():
            return False
        if len(key) >= 3 and not spans_space:
            return True
        rest = t[end:]
        word_end = len(rest)
        for j, c in enumerate(rest):
            if c.isspace() or not _is_word_char(c):
                word_end = j
                break
        word = rest[:word_end]
        if spans_space:
            # "강남 역삼동": a name spanning a space never cuts the next word when that word, whole,
            # starts a name itself (역삼동, not 강남 역 + 삼동)
            head = t[:end].rsplit(" ", 1)[-1]
            if self.starts_key(head + word):
                return False
        return word.startswith(_FOLLOWERS) or self.starts_key(word)
