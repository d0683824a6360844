"""Menu price text to an integer number of won (docs/design.md, step 2).

Accepted forms: ``"20,000원"``, ``"20000"``, ``"₩20,000"``, Korean units ``"1만5천원"``,
``"1.5만원"``, ``"1만 2,000원"``; ranges ``"10,000~15,000원"``, ``"10,000원 ~ 15,000원"``,
``"1~2만원"`` (the lower bound is kept, ``is_range`` is set); open ranges ``"10,000원~"`` /
``"10,000원부터"`` (the bound, ``is_range``); several options such as ``"소 15,000 / 대 20,000"``
(the cheapest, ``is_range``). Text mentioning ``"시가"``, ``"싯가"``, ``"변동"`` or ``"문의"``
gives ``None`` even with a number in it (the number is a guess or a phone number), and so
does anything without an amount; ``"무료"`` gives 0. Numbers that count something (``"2인"``, ``"300g"``,
``"12개"``) are not prices. The result is never negative.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class ParsedPrice:
    value: int | None  # won; the lower bound when is_range
    is_range: bool = False


_NUM = r"[0-9]+(?:,[0-9]{3})*(?:\.[0-9]+)?"
_AMOUNT = re.compile(
    rf"(?:(?P<man>{_NUM})\s*만\s*)?"
    rf"(?:(?P<cheon>{_NUM})\s*천\s*)?"
    rf"(?:(?P<baek>{_NUM})\s*백\s*)?"
    rf"(?P<rest>{_NUM})?"
    r"(?P<won>\s*(?:원|won\b|krw\b))?",
    re.IGNORECASE,
)
_RANGE_SEP = re.compile(r"^\s*(?:~|-|–|—|〜|～|부터)\s*$")
_OPEN_END = re.compile(r"^\s*(?:~|-|부터|이상|\+)")
_LETTER_AFTER = re.compile(r"^\s*[^\W\d_]")  # a unit word follows: "2인", "300g", "12개"
_NO_PRICE = re.compile(r"시가|싯가|시세|변동|문의|상담|market", re.IGNORECASE)
_FREE = re.compile(r"무료|free", re.IGNORECASE)
_WON_SIGN = re.compile(r"[₩￦]\s*")
_MAX_DIGITS = 4000  # below Python's int/str conversion limit; no price is anywhere near
_PLAIN = re.compile(r"([0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)\s*원")  # the common case, fast


@dataclass(frozen=True)
class _Amount:
    value: int
    start: int
    end: int
    marked: bool  # has 원, a Korean unit or thousands separators: certainly money
    unit: str | None  # the largest Korean unit used ("만", "천", "백")


def _num(text: str | None) -> Fraction:
    return Fraction(text.replace(",", "")) if text else Fraction(0)


def _amounts(text: str) -> list[_Amount]:
    found: list[_Amount] = []
    for m in _AMOUNT.finditer(text):
        man, cheon, baek, rest, won = (m.group(g) for g in ("man", "cheon", "baek", "rest", "won"))
        if not (man or cheon or baek or rest) or m.end() - m.start() > _MAX_DIGITS:
            continue
        total = _num(man) * 10000 + _num(cheon) * 1000 + _num(baek) * 100 + _num(rest)
        value = math.floor(total + Fraction(1, 2))  # exact, half up
        unit = "만" if man else "천" if cheon else "백" if baek else None
        marked = bool(won or unit or (rest and "," in rest))
        if not marked and _LETTER_AFTER.match(text[m.end() :]):
            continue  # a count or a measure, not money
        found.append(_Amount(value, m.start(), m.end(), marked, unit))
    return found


def parse_price(text: str) -> ParsedPrice:
    """Parse a menu price; never raises, never negative."""
    if (m := _PLAIN.fullmatch(text)) and len(m.group(1)) <= _MAX_DIGITS:
        return ParsedPrice(int(m.group(1).replace(",", "")))
    s = _WON_SIGN.sub("", unicodedata.normalize("NFKC", text or "")).strip()
    if not s or _NO_PRICE.search(s):
        return ParsedPrice(None)
    found = _amounts(s)
    # a bare number counts when it is the only one, looks like money (>= 100) or starts a range
    amounts = [
        a
        for i, a in enumerate(found)
        if a.marked
        or a.value >= 100
        or len(found) == 1
        or (i + 1 < len(found) and _RANGE_SEP.match(s[a.end : found[i + 1].start]))
    ]
    if not amounts:
        return ParsedPrice(0 if _FREE.search(s) else None)

    first = amounts[0]
    if len(amounts) == 1:
        before = s[: first.start].strip()
        if before in {"~", "〜"}:
            return ParsedPrice(None, True)  # "~15,000원": only an upper bound
        if before in {"-", "–", "—"}:
            return ParsedPrice(None)  # "-5,000원": a discount, not a price
        return ParsedPrice(first.value, bool(_OPEN_END.match(s[first.end :])))

    second = amounts[1]
    low = first.value
    if len(amounts) == 2 and _RANGE_SEP.match(s[first.end : second.start]):
        # "1~2만원": the unit written once applies to both ends
        if not first.marked and second.unit == "만" and first.value < 1000:
            low = first.value * 10000
        elif not first.marked and second.unit == "천" and first.value < 100:
            low = first.value * 1000
        return ParsedPrice(min(low, second.value), True)
    return ParsedPrice(min(a.value for a in amounts), True)


def format_won(value: int) -> str:
    """``20000`` -> ``"20,000원"``."""
    return f"{value:,}원"
