"""The executable definition of every hard filter, in plain Python.

:func:`brute_force_filter` walks every document and applies :func:`passes`; it is obviously
correct and slow, and it is what tests and the evaluation compare backends against. The
per-field predicates are also used by the embedded index for its exact per-candidate checks
(title, menu, address), so the two cannot drift apart on those definitions.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from datetime import datetime

from matjip.documents import Restaurant
from matjip.geo.distance import haversine_m
from matjip.geo.gazetteer import Place
from matjip.index.request import OpenAt, PriceRange, RegionFilter, SearchRequest
from matjip.words import word_map

_SPACE = re.compile(r"\s+")
_TITLE_WORD = re.compile(r"\w+")
BRANCH_SUFFIXES = ("점", "관")
MAX_BRANCH_CHARS = 6


def normalize_key(text: str) -> str:
    """Comparison key: NFKC, lowercase, all whitespace removed."""
    return _SPACE.sub("", unicodedata.normalize("NFKC", text).lower())


def normalize_phrase(text: str) -> str:
    """NFKC, lowercase, whitespace collapsed to single spaces (word boundaries kept)."""
    return " ".join(unicodedata.normalize("NFKC", text).lower().split())


# -- title ----------------------------------------------------------------------------------


def title_words(text: str) -> list[str]:
    """Words of a name: runs of letters/digits after NFKC + lowercase (punctuation separates)."""
    return _TITLE_WORD.findall(unicodedata.normalize("NFKC", text).lower().replace("_", " "))


def title_matches(title: str, query: str) -> bool:
    """Whether a restaurant ``title`` answers a name ``query``.

    True when, ignoring case, width, spaces and punctuation:

    1. the title equals the query (``"진대감"`` / ``"진 대감"``);
    2. the title starts with the query and the query ends at a word boundary of the title
       (``"진대감 마포점"``, ``"진대감(마포점)"``, ``"진대감 갈비"``);
    3. the title starts with the query and the rest is a short branch name ending in 점/관
       (``"진대감마포점"``, ``"진대감2호점"``; at most 6 characters);
    4. every query word is a word of the title (``"마포 진대감"`` finds ``"진대감 마포"``).

    ``"진대감"`` does not find ``"진대감갈비"`` or ``"원조진대감"``.
    """
    q_words = title_words(query)
    t_words = title_words(title)
    nq = "".join(q_words)
    if not nq or not t_words:
        return False
    nt = "".join(t_words)
    if nt == nq:
        return True
    if nt.startswith(nq):
        joined = ""
        for w in t_words:
            joined += w
            if joined == nq:
                return True
            if len(joined) >= len(nq):
                break
        rest = nt[len(nq) :]
        if len(rest) <= MAX_BRANCH_CHARS and rest.endswith(BRANCH_SUFFIXES):
            return True
    return set(q_words) <= set(t_words)


def title_exact(title: str, query: str) -> bool:
    """The title is the query itself (ranked before branches)."""
    return "".join(title_words(title)) == "".join(title_words(query))


# -- menu -----------------------------------------------------------------------------------


def _forms() -> list[tuple[str, tuple[str, ...], tuple[str, ...]]]:
    """(dish, its written forms longest first, the other dishes holding a form) of words/menu.toml."""
    others = {
        normalize_key(k): tuple(normalize_key(o) for o in v)
        for k, v in word_map("menu", "menu_form_others").items()
    }
    out = []
    for dish, forms in word_map("menu", "menu_forms").items():
        key = normalize_key(dish)
        ordered = tuple(sorted((normalize_key(f) for f in forms), key=len, reverse=True))
        out.append((key, ordered, others.get(key, ())))
    return out


_MENU_FORMS = _forms()


def dish_forms(entry: str) -> list[str]:
    """The entry written as each dish one of its forms names (words/menu.toml ``menu_forms``):
    "유니짜장" → ["유니짜장면"], "시래기순댓국" → ["시래기순대국"]; none for "짜장밥" (another dish)."""
    out: list[str] = []
    for dish, forms, others in _MENU_FORMS:
        if dish in entry:
            continue
        rest = entry
        for other in others:
            rest = rest.replace(other, " ")
        form = next((f for f in forms if f in rest), None)
        if form is not None:
            out.append(entry.replace(form, dish))
    return out


def line_matches(name: str, term: str) -> bool:
    """One menu line holds the term (normalised), as written or as the dish a form of it names
    ("유니짜장" holds "짜장면"; "짜장밥" does not): the per-line twin of :func:`menu_matches`."""
    e, t = normalize_key(name), normalize_key(term)
    return bool(t) and (t in e or any(t in f for f in dish_forms(e)))


def menu_entries(doc: Restaurant) -> list[str]:
    """Normalised menu names and review_food entries (what menu terms are matched against), each
    followed by the same line written as a dish one of its forms names (:func:`dish_forms`)."""
    out: list[str] = []
    for raw in [m.name for m in doc.menus] + list(doc.review_food):
        e = normalize_key(raw)
        if e:
            out.append(e)
            out.extend(dish_forms(e))
    return out


def menu_matches(doc: Restaurant, terms: Iterable[str]) -> bool:
    """Every term is a substring of some menu name or review_food entry (normalised)."""
    entries = menu_entries(doc)
    return all(any(normalize_key(t) in e for e in entries) for t in terms)


# -- address / region -----------------------------------------------------------------------


def address_matches(doc: Restaurant, terms: Iterable[str]) -> bool:
    """Some term starts a word of ``address`` or ``roadAddress`` (normalised)."""
    addrs = [" " + normalize_phrase(a) for a in (doc.address, doc.road_address) if a]
    return any((" " + normalize_phrase(t)) in a for t in terms for a in addrs if t.strip())


PolygonTest = Callable[[float, float], bool]


def polygon_place(key: str) -> Place | None:
    """The gazetteer place with this key, if it has an outline."""
    from matjip.geo import get_gazetteer

    return get_gazetteer().get(key)


def polygon_test(key: str) -> PolygonTest | None:
    """A point-in-outline test for the gazetteer place ``key`` (None when unknown)."""
    from matjip.geo import contains_point

    place = polygon_place(key)
    if place is None:
        return None

    def test(lat: float, lon: float) -> bool:
        return contains_point(place, lat, lon) is True

    return test


def region_matches(doc: Restaurant, region: RegionFilter, polygon: PolygonTest | None = None) -> bool:
    if address_matches(doc, region.terms):
        return True
    return polygon is not None and doc.lat is not None and doc.lon is not None and polygon(doc.lat, doc.lon)


# -- the rest -------------------------------------------------------------------------------


def price_matches(doc: Restaurant, price: PriceRange) -> bool:
    return any(m.price is not None and price.low <= m.price <= price.high for m in doc.menus)


def open_status(doc: Restaurant, when: datetime) -> bool | None:
    """Open / closed / unknown at ``when`` (Seoul time)."""
    return doc.hours.is_open(when) if doc.hours is not None else None


def open_in_window(doc: Restaurant, open_at: OpenAt) -> bool | None:
    """Open at one of the filter's instants (True), closed at all (False), or unknown (None)."""
    statuses = [open_status(doc, t) for t in open_at.instants()]
    if any(st is True for st in statuses):
        return True
    return None if all(st is None for st in statuses) else False


def open_matches(doc: Restaurant, open_at: OpenAt) -> bool:
    """Open at one of the filter's instants; unknown hours only with ``include_unknown``."""
    status = open_in_window(doc, open_at)
    return status is True or (status is None and open_at.include_unknown)


def convenience_matches(doc: Restaurant, values: Iterable[str]) -> bool:
    have = {normalize_key(c) for c in doc.convenience}
    return all(normalize_key(v) in have for v in values)


def cuisine_matches(doc: Restaurant, values: Iterable[str]) -> bool:
    return normalize_key(doc.cuisine) in {normalize_key(v) for v in values}


def sub_category_matches(doc: Restaurant, values: Iterable[str]) -> bool:
    sub = normalize_key(doc.sub_category or "")
    return bool(sub) and any(normalize_key(v) in sub for v in values)


def kind_matches(doc: Restaurant, values: Iterable[str]) -> bool:
    have = {normalize_key(k) for k in doc.kinds}
    return any(normalize_key(v) in have for v in values)


def excluded(doc: Restaurant, req: SearchRequest) -> bool:
    """Whether ``doc`` has anything the request excludes (kind, cuisine, menu term, name part)."""
    if req.exclude_kind and kind_matches(doc, req.exclude_kind):
        return True
    if req.exclude_cuisine and cuisine_matches(doc, req.exclude_cuisine):
        return True
    if req.exclude_menu:
        entries = menu_entries(doc)
        if any(normalize_key(t) in e for t in req.exclude_menu for e in entries):
            return True
    title = "".join(title_words(doc.title))
    return any(normalize_key(t) and normalize_key(t) in title for t in req.exclude_title)


def distance_m(doc: Restaurant, lat: float, lon: float) -> float | None:
    if doc.lat is None or doc.lon is None:
        return None
    return haversine_m(lat, lon, doc.lat, doc.lon)


def passes(doc: Restaurant, req: SearchRequest, polygon: PolygonTest | None = None) -> bool:
    """Whether ``doc`` satisfies every hard filter of ``req``."""
    if doc.place_id in req.exclude_ids:
        return False
    if req.geo is not None:
        d = distance_m(doc, req.geo.lat, req.geo.lon)
        if d is None or d > req.geo.radius_m:
            return False
    if req.near_any:
        ds = [distance_m(doc, c.lat, c.lon) for c in req.near_any]
        if not any(d is not None and d <= c.radius_m for d, c in zip(ds, req.near_any, strict=True)):
            return False
    if req.region is not None and not region_matches(doc, req.region, polygon):
        return False
    if req.cuisine and not cuisine_matches(doc, req.cuisine):
        return False
    if req.sub_category and not sub_category_matches(doc, req.sub_category):
        return False
    if req.menu and not menu_matches(doc, req.menu):
        return False
    if req.kind and not kind_matches(doc, req.kind):
        return False
    if excluded(doc, req):
        return False
    if req.convenience and not convenience_matches(doc, req.convenience):
        return False
    if req.title is not None and not title_matches(doc.title, req.title):
        return False
    if req.price is not None and not price_matches(doc, req.price):
        return False
    return req.open_at is None or open_matches(doc, req.open_at)


def brute_force_filter(docs: Iterable[Restaurant], req: SearchRequest) -> set[str]:
    """Place ids of the documents that pass every hard filter (the last copy of an id wins)."""
    polygon = polygon_test(req.region.polygon_place) if req.region and req.region.polygon_place else None
    latest: dict[str, Restaurant] = {}
    for d in docs:
        latest[d.place_id] = d
    return {pid for pid, d in latest.items() if passes(d, req, polygon)}
