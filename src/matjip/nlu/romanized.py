"""English and romanised questions: place names become the Korean names the gazetteer knows.

"gangnam station korean bbq" → "강남역 korean bbq": the place is read by the usual Korean path and
the dish words are read by the kinds vocabulary, which lists English words too ("korean bbq",
"sushi"). Names come from the stations' English names in the bundled KRIC data (영문역사명) and
from ``data/gazetteer/romanized.tsv`` (hongdae, seokchon lake …).
"""

from __future__ import annotations

import csv
import re
from functools import cache
from pathlib import Path

_GAZ = Path(__file__).resolve().parents[1] / "data" / "gazetteer"
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
                names.setdefault(en, ko if ko.endswith("역") else f"{ko}역")
    return dict(sorted(names.items(), key=lambda kv: -len(kv[0])))


@cache
def _station_pattern() -> re.Pattern[str]:
    names = "|".join(re.escape(en) for en in station_names())
    return re.compile(rf"(?<![a-z])({names})\.?\s+(?:station|stn\.?)(?![a-z])", re.IGNORECASE)


@cache
def _pattern() -> re.Pattern[str]:
    names = "|".join(re.escape(en) for en in romanized_names())  # longest first
    return re.compile(rf"(?<![a-z])({names})\.?(\s+(?:station|stn\.?|역))?(?![a-z])", re.IGNORECASE)


def koreanize_places(text: str) -> str:
    """Replace romanised place names (with "station", "stn", "near", "in") by their Korean names."""
    names = romanized_names()

    def korean(m: re.Match[str]) -> str:
        ko = names.get(m.group(1).lower(), m.group(1))
        return ko + ("역" if m.group(2) and not ko.endswith("역") else "")

    out = re.sub(r"(?i)\b(?:near\s+me|nearby|around\s+me|close\s+by)\b", "내 근처", text)
    out = re.sub(r"(?i)\b(?:open\s+now|opened\s+now|open\s+right\s+now)\b", "지금 영업중인", out)
    out = re.sub(r"(?i)\b(?:open\s+late|late\s+night)\b", "늦게까지 하는", out)
    out = _station_pattern().sub(lambda m: station_names().get(m.group(1).lower(), m.group(0)), out)
    out = _pattern().sub(korean, out)
    return re.sub(r"(?i)\bnear\s+([가-힣]+)", r"\1 근처", out)
