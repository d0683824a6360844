"""English and romanised questions: place names become the Korean names the gazetteer knows.

"gangnam station korean bbq" → "강남역 korean bbq": the place is read by the usual Korean path and
the dish words are read by the kinds vocabulary, which lists English words too ("korean bbq",
"sushi"). Names come from the stations' English names in the bundled KRIC data (영문역사명) and
from ``data/gazetteer/romanized.tsv`` (hongdae, seokchon lake …).
"""

from __future__ import annotations

import csv
import re
import tomllib
from functools import cache
from pathlib import Path

from pydantic import BaseModel

from matjip.kinds import kinds

_GAZ = Path(__file__).resolve().parents[1] / "data" / "gazetteer"
ENGLISH_FILE = Path(__file__).resolve().parents[1] / "data" / "english.toml"
_PAREN = re.compile(r"\s*\(.*?\)")


@cache
def romanized_names() -> dict[str, str]:
    """Lower-case romanised name → Korean name, longest names first."""
    names: dict[str, str] = {}
    with (_GAZ / "subway_stations_kric.csv").open(encoding="utf-8") as f:
        for row in csv.DictReader(f):
            en = _PAREN.sub("", row.get("영문역사명") or "").strip().lower().rstrip(".")
            ko = (row.get("역사명") or "").strip()
            if en and ko and len(en) >= 4:
                names.setdefault(en, ko)
    for line in (_GAZ / "romanized.tsv").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#") and "\t" in line:
            en, ko = line.split("\t", 1)
            names[en.strip().lower()] = ko.strip()
    return dict(sorted(names.items(), key=lambda kv: -len(kv[0])))


@cache
def station_names() -> dict[str, str]:
    """Lower-case English station name → Korean station name, any length ("ori" → 오리역, "sinsa" →
    신사역): read only when followed by "station"/"stn"/"역", so short names stay safe."""
    names: dict[str, str] = {}
    with (_GAZ / "subway_stations_kric.csv").open(encoding="utf-8") as f:
        for row in csv.DictReader(f):
            en = _PAREN.sub("", row.get("영문역사명") or "").strip().lower().rstrip(".")
            ko = _PAREN.sub("", (row.get("역사명") or "").strip())
            if en and ko:
                station = ko if ko.endswith("역") else f"{ko}역"
                names.setdefault(en, station)
                for end in _split_endings():  # "dunchon-dong station", "dunchon dong station"
                    if en.endswith(end) and len(en) - len(end) >= 3 and en[-len(end) - 1].isalpha():
                        names.setdefault(f"{en[: -len(end)]}-{end}", station)
                        names.setdefault(f"{en[: -len(end)]} {end}", station)
    return dict(sorted(names.items(), key=lambda kv: -len(kv[0])))


@cache
def _split_endings() -> tuple[str, ...]:
    """English name endings written apart from the name (data/english.toml ``station_names``)."""
    raw = tomllib.loads(ENGLISH_FILE.read_text(encoding="utf-8"))
    return tuple(raw["station_names"]["split_endings"])


@cache
def _station_pattern() -> re.Pattern[str]:
    names = "|".join(re.escape(en) for en in station_names())
    return re.compile(rf"(?<![a-z])({names})\.?\s+(?:station|stn\.?)(?![a-z])", re.IGNORECASE)


@cache
def _pattern() -> re.Pattern[str]:
    names = "|".join(re.escape(en) for en in romanized_names())  # longest first
    return re.compile(rf"(?<![a-z])({names})\.?(\s+(?:station|stn\.?|역))?(?![a-z])", re.IGNORECASE)


class EnglishPhrase(BaseModel):
    pattern: str
    korean: str


class EnglishWords(BaseModel):
    """``data/english.toml``: English follow-up words and the Korean they stand for."""

    phrase: list[EnglishPhrase]
    count_words: dict[str, int]
    count_nouns: list[str]


@cache
def english_words() -> EnglishWords:
    raw = tomllib.loads(ENGLISH_FILE.read_text(encoding="utf-8"))
    return EnglishWords(
        phrase=raw["phrase"], count_words=raw["count"]["words"], count_nouns=raw["count"]["nouns"]
    )


@cache
def _english_rules() -> tuple[tuple[re.Pattern[str], str], ...]:
    return tuple((re.compile(p.pattern, re.IGNORECASE), p.korean) for p in english_words().phrase)


@cache
def _english_count() -> re.Pattern[str]:
    """A count word followed within a few words by a word for places ("one good … restaurant")."""
    words = english_words()
    nums = "|".join(words.count_words)
    nouns = "|".join(re.escape(n) for n in words.count_nouns)
    return re.compile(rf"\b({nums})\b(?=(?:\s+[a-z]+){{0,3}}?\s+(?:{nouns})\b)", re.IGNORECASE)


def koreanize_phrases(text: str) -> str:
    """English follow-up words ("second one", "cheaper ones?", "one good … restaurant") in the
    Korean the offline reader understands (``data/english.toml``)."""
    for rx, korean in _english_rules():
        text = rx.sub(korean, text)
    counts = english_words().count_words
    # "one good chinese restaurant" → "1곳 good chinese restaurant"
    return _english_count().sub(lambda m: f"{counts[m.group(1).lower()]}곳", text)


def _latin_kinds(text: str) -> str:
    """A message said in English (two Latin words or more, no Hangul): its words that name a kind only
    in English become the kind ("bbq near seokchon station" → 고깃집 …, data/kinds.toml ``latin_words``),
    read before the place names turn the message half Korean — in a Korean message "BBQ" is the chicken
    chain, and "bbq chicken" still is."""
    if re.search(r"[가-힣]", text) or len(re.findall(r"[A-Za-z]+", text)) < 2:
        return text
    words = sorted(kinds().latin_words.items(), key=lambda kv: -len(kv[0]))
    for word, kind in words:
        rx = rf"(?i)(?<![a-z]){re.escape(word)}(?![a-z])(?!\s*(?:chicken|치킨))"
        text = re.sub(rx, kind, text)
    return text


def koreanize_places(text: str) -> str:
    """Replace romanised place names (with "station", "stn", "near", "in") by their Korean names."""
    names = romanized_names()
    text = _latin_kinds(text)

    def korean(m: re.Match[str]) -> str:
        ko = names.get(m.group(1).lower(), m.group(1))
        return ko + ("역" if m.group(2) and not ko.endswith("역") else "")

    out = re.sub(r"(?i)\b(?:near\s+me|nearby|around\s+me|close\s+by)\b", "내 근처", text)
    out = re.sub(r"(?i)\b(?:open\s+now|opened\s+now|open\s+right\s+now)\b", "지금 영업중인", out)
    out = re.sub(r"(?i)\b(?:open\s+late|late\s+night)\b", "늦게까지 하는", out)
    out = _station_pattern().sub(lambda m: station_names().get(m.group(1).lower(), m.group(0)), out)
    out = _pattern().sub(korean, out)
    out = koreanize_phrases(out)
    return re.sub(r"(?i)\bnear\s+([가-힣]+)", r"\1 근처", out)
