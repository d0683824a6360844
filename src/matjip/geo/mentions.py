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

from matjip.geo.names import CAPITAL_SIDO, INTERPUNCT
from matjip.geo.places import TIER_ALIAS, Place, PlaceType


def _plain_word_risk(place: Place) -> bool:
    """A station or dong outside the capital area: its two-letter name (노포역's 노포, 안심역's 안심,
    내면) is read in free text only with its suffix ("노포역", "안심역"); lookup still knows it."""
    return place.sido not in CAPITAL_SIDO and place.type in (
        PlaceType.SUBWAY_STATION,
        PlaceType.ADMIN_DONG,
        PlaceType.LEGAL_DONG,
    )


def _words(text: str) -> list[str]:
    return text.split()


# Keys that are ordinary words far more often than place names: never found inside free text
# (lookup still resolves them). Mostly station names: 가능역, 국수역, 오리역, 구성역, 장기역 ...
TEXT_STOPWORDS: frozenset[str] = frozenset(
    _words("""
    가능 가정 가오리 강변 경기 구성 국수 금곡 단원 대화 도심 동구 동안 마산 미아 방학 방화 보정 사리 사우
    상수 서구 남구 수유 신원 양수 오리 온수 원시 이동 작전 장기 정자 중동 중앙 중화 진위 청구 초당 효자
    시민공원 예술회관 운동장 송산 신정 중앙시장 신흥 산성 상동 본동 사동 대동 내동 신동 원동 하동 궁동
    능동 명학 세류 직산 야목 어천 고색 화서 석수 당정 금정 신현 선부 시우 달미 원덕 지평 오빈 아신 용문
    구래 마전 완정 독정 검암 도원 주안 간석 동암 부개 백운 송내 소사 역곡 구일 개봉 가좌 정왕 초지 고잔
    반월 대야미 수리산 산본 군포 의왕 성환 두정 봉명 쌍용 배방 신창 사릉 평내 마석 청평 상천 가평
    계산 고양 남성 내방 합동 삼가 연수 일동 하계 장기주차장 워터파크
    사천 공주 상주 양산 나주 남해 완주 보은 음성 예산 고령 장수 진도 영광 무안 거창 성주 봉화 청양 임실
    순창 안심 노포 수영 공항 상무 해안 신기 동백 기장 냉정 좌천 사월 대명 만덕 고산
    """)
)

# What may follow a short (2-character) name inside a word: particles and place words.
_FOLLOWERS: tuple[str, ...] = tuple(
    sorted(
        set(
            _words("""
            에서 에선 에도 에 엔 의 은 는 이 가 을 를 도 만 쪽 근처 주변 부근 인근 근방 앞 뒤 옆 일대 로 으로
            까지 부터 랑 이랑 하고 과 와 서 맛집 권 안 내 쯤 방면 점 지역 인데 이나 나 역 동 구 께
            """)
        ),
        key=lambda w: (-len(w), w),
    )
)


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
        return word.startswith(_FOLLOWERS) or self.starts_key(word)
