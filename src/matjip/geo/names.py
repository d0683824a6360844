"""How Korean place names and addresses are written: sido names, the lookup key of a name, the
region and dongs of an address, collective dong names (역삼1동 → 역삼동)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Final

from matjip.geo.places import Place, PlaceType
from matjip.words import word_map, words

# data/words/sido.toml: the forms of each sido in addresses (서울특별시 → 서울), its official name
# today and the names that qualify a place ("서울 강남구").
SIDO_SHORT: Final[dict[str, str]] = {
    name: short for short, names in word_map("sido", "address_names").items() for name in names
}
SIDO_FULL: Final[dict[str, str]] = {short: full for short, (full,) in word_map("sido", "official").items()}
SIDO_ALIASES: Final[dict[str, tuple[str, ...]]] = word_map("sido", "qualifiers")
# The capital area: its places come from places_capital.csv and rank first among same-name places.
CAPITAL_SIDO: frozenset[str] = frozenset({"서울", "경기", "인천"})

# Old names in the 2013/2018 outlines and lists.
RENAMED_SIGUNGU = {("인천", "남구"): "미추홀구"}
INTERPUNCT: Final = str.maketrans(dict.fromkeys(words("gazetteer", "interpuncts"), "·"))


def normalize(text: str) -> str:
    """The lookup key of a name: NFC, no whitespace, ASCII lower-case, one interpunct (·)."""
    if not text.isascii():
        text = unicodedata.normalize("NFC", text).translate(INTERPUNCT)
    return "".join(text.replace(".", "·").split()).lower()


_PARENS = re.compile(r"\s*\([^)]*\)")


def strip_parens(name: str) -> str:
    return _PARENS.sub("", name).strip() if "(" in name else name.strip()


def split_city_gu(name: str) -> tuple[str, str] | None:
    """``"수원시장안구"`` or ``"수원시 장안구"`` -> ``("수원시", "장안구")``."""
    m = re.match(r"^(\S+?시)\s*(\S+구)$", name.strip())
    return (m.group(1), m.group(2)) if m else None


def spaced_sigungu(name: str) -> str:
    parts = split_city_gu(name)
    return f"{parts[0]} {parts[1]}" if parts else name.strip()


def clean_aliases(raw: Iterable[str]) -> list[str]:
    """Drop fragments the upstream alias generator left behind ("4", "19 카페거리", "종로5·동")."""
    out: list[str] = []
    for a in raw:
        a = a.strip()
        k = normalize(a)
        if len(k) < 2 or k.isdigit() or k[0].isdigit() or re.search(r"·동$", k):
            continue
        if a not in out:
            out.append(a)
    return out


def parse_address_region(address: str) -> tuple[str | None, str | None]:
    """``"서울특별시 송파구 송파대로 지하257"`` -> ``("서울", "송파구")``; ``(None, None)`` without a sido."""
    tokens = address.replace(",", " ").split()
    if not tokens or tokens[0] not in SIDO_SHORT:
        return None, None
    sido = SIDO_SHORT[tokens[0]]
    rest = tokens[1:]
    if rest and (parts := split_city_gu(rest[0])):
        return sido, f"{parts[0]} {parts[1]}"
    if len(rest) >= 2 and rest[0].endswith("시") and rest[1].endswith("구"):
        return sido, f"{rest[0]} {rest[1]}"
    if rest and rest[0].endswith(("시", "군", "구")):
        return sido, rest[0]
    return sido, None


_DONG_WORD = re.compile(r"^[가-힣0-9·]+(동|동\d+가|\d+가|읍|면|리)$")


def address_dongs(address: str) -> list[str]:
    """Dong names in an address: the jibun part ("서울 강남구 역삼동 823") or the parenthesis of a
    road address ("... 테헤란로 152 (역삼동, 강남파이낸스센터)")."""
    found: list[str] = []
    for inner in re.findall(r"\(([^)]*)\)", address):
        found += [w.strip() for w in inner.split(",") if _DONG_WORD.match(w.strip())]
    head = re.sub(r"\([^)]*\)", " ", address).split()
    if head and head[0] in SIDO_SHORT:
        head = head[1:]
    while head and re.search(r"(시|군|구)$", head[0]) and not _DONG_WORD.match(head[0]):
        head = head[1:]
    if head and _DONG_WORD.match(head[0]):
        found.append(head[0])
    return found


def collective_dong(name: str) -> str | None:
    """역삼1동 -> 역삼동, 성수1가1동 -> 성수동1가 (the legal name used in jibun addresses)."""
    m = re.match(r"^(.+?)(\d+)가(\d+)?동$", name)
    if m:
        return f"{m.group(1)}동{m.group(2)}가"
    m = re.match(r"^(.+?)\d+동$", name)
    if m and not m.group(1).endswith("·"):
        return f"{m.group(1)}동"
    return None


def station_stem(name: str) -> str:
    name = strip_parens(name)
    return name[:-1] if name.endswith("역") and len(name) > 2 else name


def address_in_region(place: Place, address: str) -> bool | None:
    """Whether an address lies in the region of ``place``; ``None`` when the address cannot
    tell (a road address for a dong, or an empty address) or the place is not a region."""
    if not address.strip():
        return None
    sido, sigungu = parse_address_region(address)
    if place.type is PlaceType.SIDO:
        return None if sido is None else sido == place.sido
    if place.type is PlaceType.SIGUNGU:
        if sigungu is None:
            return None
        if sido is not None and place.sido is not None and sido != place.sido:
            return False
        sg = normalize(place.sigungu or "")
        return normalize(sigungu) == sg or (normalize(sigungu).startswith(sg) and sg.endswith("시"))
    if place.type in (PlaceType.LEGAL_DONG, PlaceType.ADMIN_DONG):
        if (
            sigungu is not None
            and place.sigungu is not None
            and normalize(sigungu) != normalize(place.sigungu)
        ):
            return False
        name = place.name if place.type is PlaceType.LEGAL_DONG else collective_dong(place.name) or place.name
        dongs = address_dongs(address)
        if not dongs:
            return None
        return any(d == name or re.fullmatch(rf"{re.escape(name)}\d+가", d) is not None for d in dongs)
    return None


_MARKET_KINDS: Final = tuple(words("gazetteer", "market_kinds"))
_MARKET_NAMES: Final = tuple(words("gazetteer", "market_names"))


def market_aliases(name: str) -> list[str]:
    """A market's other names: 가락시장 -> 가락농산물시장, 가락 수산시장, 가락동 시장 … (none for a name
    that is no market's)."""
    if not name.endswith("시장") or " " in name:
        return []
    stem = name.removesuffix("시장")
    for kind in _MARKET_KINDS:
        if stem.endswith(kind) and len(stem) > len(kind) + 1:
            stem = stem.removesuffix(kind)
            break
    if len(stem) < 2:
        return []
    stems = [stem, f"{stem} "] + ([f"{stem}동 "] if not stem.endswith("동") else [])
    return [f"{s}{n}" for s in stems for n in _MARKET_NAMES if f"{s}{n}" != name]
