"""The ``summary`` text of a restaurant (docs/design.md) and its LLM context block .

The summary is the one text that is embedded and handed to the answer LLM::

    식당 이름: {title}
    카테고리: {category}
    주소: {address}({roadAddress})
    메뉴: {menu1(가격원)},{menu2},...,{review_food...}
    편의: {convenience}
    분위기: {atmosphere}
    상황: {occasion}
    기타 특징: {features}

A line whose value would be empty is left out (the seed prints ``None`` there, which only adds
noise to embeddings). Menu items carry their price in parentheses when it is known, as in the
design's example (``한우차돌삼합(29000원)``); review foods that merely repeat a menu dish
("오리로스구이" for the menu item "오리로스구이(한마리)") are not listed twice. The category is the cleaned cuisine ("한식>전,빈대떡" → "한식"); the
original string is used only when the cuisine is unknown ("기타"), and the line is omitted when
there is neither.
"""

from __future__ import annotations

from collections.abc import Sequence

from matjip.documents import MenuItem, Restaurant
from matjip.ingest.enrich.offline import menu_dish_names

MAX_SUMMARY_MENUS = 60  # menu items listed in the summary (review foods come on top)
UNKNOWN_CUISINE = "기타"


def _menu_label(m: MenuItem) -> str:
    if m.price is None:
        return m.name
    return f"{m.name}({m.price}원{'~' if m.price_is_range else ''})"


def _address(r: Restaurant) -> str:
    address = r.address.strip()
    road = r.road_address.strip()
    if address and road and address != road:
        return f"{address}({road})"
    return address or road


def _category(r: Restaurant) -> str:
    cuisine = (r.cuisine or "").strip()
    if cuisine and cuisine != UNKNOWN_CUISINE:
        return cuisine
    return r.category.strip()  # "기타" alone says nothing: the line is omitted


def menu_line_items(r: Restaurant) -> list[str]:
    """Menu labels (with prices) followed by review foods not already on the menu."""
    items = [_menu_label(m) for m in r.menus[:MAX_SUMMARY_MENUS] if m.name.strip()]
    names = [m.name for m in r.menus]
    seen = {m.strip() for m in names} | menu_dish_names(names)
    for food in r.review_food:
        f = food.strip()
        if f and f not in seen and "".join(f.split()) not in seen:
            items.append(f)
            seen.add(f)
    return items


def build_summary(r: Restaurant) -> str:
    """The docs/design.md summary of ``r``; lines with no value are omitted."""
    lines: list[tuple[str, str]] = [
        ("식당 이름", r.title.strip()),
        ("카테고리", _category(r)),
        ("주소", _address(r)),
        ("메뉴", ",".join(menu_line_items(r))),
        ("편의", ",".join(r.convenience)),
        ("분위기", ",".join(r.atmosphere)),
        ("상황", ",".join(r.occasion)),
        ("기타 특징", ",".join(r.features)),
    ]
    return "\n".join(f"{label}: {value}" for label, value in lines if value)


def build_context_block(r: Restaurant, n: int, *, description_chars: int = 0) -> str:
    """One document of the answer LLM's context (docs/design.md): ``문서{n}:`` + the summary.

    With ``description_chars > 0`` the restaurant's own description is added as a
    ``식당 소개:`` line, cut to that many characters.
    """
    text = r.summary.strip() or build_summary(r)
    block = f"문서{n}:\n{text}"
    desc = " ".join(r.description.split())
    if description_chars > 0 and desc:
        if len(desc) > description_chars:
            cut = desc[:description_chars]
            if not desc[description_chars].isspace() and " " in cut:
                cut = cut.rsplit(" ", 1)[0]  # do not split a word
            desc = cut.rstrip() + " (...줄임)"
        block += f"\n식당 소개: {desc}"
    return block


def build_context(restaurants: Sequence[Restaurant], *, description_chars: int = 0) -> str:
    """Numbered context blocks (from 1), separated by two blank lines as in"""
    return "\n\n\n".join(
        build_context_block(r, i, description_chars=description_chars) for i, r in enumerate(restaurants, 1)
    )
