"""The hard filters of the embedded index: exact, vectorised over the columns of a snapshot.

:func:`candidates` first combines the cheap whole-column tests (bounding boxes, cuisine and
sub-category codes, the convenience bitmask) into one mask, then runs the exact tests on the
survivors, each narrowing them (:data:`EXACT_TESTS`, in a fixed order): the haversine distance,
menu prices, excluded ids, title, menu, kinds, a route's circles, the exclusions, the region and
opening hours. Title, menu and region are the plain-Python predicates of
:mod:`matjip.index.reference` on few candidates, else a whole-index mask (a substring search over
the column's joined text) kept in the snapshot's cache; opening hours are an interval table
evaluated vectorised, cached per minute of the week.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import reduce
from zoneinfo import ZoneInfo

import numpy as np
import numpy.typing as npt

from matjip.geo.distance import bounding_box, haversine_m_array
from matjip.index.columns import SEP, band_buckets
from matjip.index.reference import normalize_key, normalize_phrase, polygon_place, title_matches, title_words
from matjip.index.request import OpenAt, SearchRequest
from matjip.index.snapshot import Snapshot

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

PY_CHECK_MAX = 2000  # per-candidate Python checks up to this many, else a cached full mask


def candidates(
    s: Snapshot, req: SearchRequest, tz: ZoneInfo, py_check_max: int = PY_CHECK_MAX
) -> tuple[IntArray, FloatArray | None]:
    """Rows passing every hard filter (ascending) and, with geo, their distances."""
    driver = driver_rows(s, req)
    rows = driver[0] if driver is not None else None
    masks = column_masks(s, req, rows)
    if masks is None:
        return np.zeros(0, np.int64), (np.zeros(0) if req.geo else None)
    if rows is not None:
        keep = reduce(lambda a, b: a & b, masks, s.cols["alive"][rows])
        idx = rows[keep]
    elif masks:
        idx = np.flatnonzero(reduce(lambda a, b: a & b, masks) & s.cols["alive"]).astype(np.int64)
    else:
        idx = s.alive_rows
    survivors = Survivors(s, req, tz, py_check_max, idx, driven=driver[1] if driver is not None else "")
    for test in EXACT_TESTS:
        test(survivors)
    return survivors.idx, survivors.dist


# -- 0. the rows to start from ---------------------------------------------------------------

DRIVER_SHARE = 0.125  # a filter's own rows drive the search when they are at most this share


def driver_rows(s: Snapshot, req: SearchRequest) -> tuple[IntArray, str] | None:
    """The exact rows (ascending) of the request's most selective menu term, of its kinds or of its
    geo bounding box, when few enough that testing only them beats a pass over whole columns; and
    which filter they settle ("menu:<key>" or "kind"; the box settles nothing). None: start from
    every row."""
    best: tuple[IntArray, str] | None = None
    for term in req.menu:
        key = normalize_key(term)
        rows = menu_rows(s, key)
        if best is None or len(rows) < len(best[0]):
            best = (rows, "menu:" + key)
    if req.kind and (best is None or len(best[0]) > s.n * DRIVER_SHARE):
        rows = kind_rows(s, req.kind)
        if best is None or len(rows) < len(best[0]):
            best = (rows, "kind")
    if req.geo is not None and (best is None or len(best[0]) > s.n * DRIVER_SHARE):
        box = bounding_box(req.geo.lat, req.geo.lon, req.geo.radius_m)
        found = s.box_rows(*box, most=int(s.n * DRIVER_SHARE * 2))
        if found is not None and (best is None or len(found) < len(best[0])):
            best = (found, "geo box")  # settles nothing: the box is tested again, then the distance
    if best is None or len(best[0]) > s.n * DRIVER_SHARE:
        return None
    return best


def menu_rows(s: Snapshot, key: str) -> IntArray:
    """The rows whose menu holds ``key`` (ascending), through the distinct menu entries; cached."""
    hit = s.cache.get(("menu_rows", key))
    if hit is None:
        entries = s.blob("menu_vocab").find(key)
        if len(entries):
            pairs, off = s.cols["menu_pairs"], s.menu_off
            hit = np.unique(np.concatenate([pairs[off[e] : off[e + 1], 1] for e in entries.tolist()]))
        else:
            hit = np.zeros(0, np.int64)
        s.cache.put(("menu_rows", key), hit)
    out: IntArray = hit
    return out


def kind_rows(s: Snapshot, values: Sequence[str]) -> IntArray:
    """The rows of any of the kinds ``values`` (ascending); each kind's rows found once per snapshot
    (a substring search of the joined kind keys), and their union once per list of kinds."""
    union_key = ("kinds", tuple(sorted({normalize_key(v) for v in values})))
    cached = s.cache.get(union_key)
    if cached is not None:
        out: IntArray = cached
        return out
    found: list[IntArray] = []
    for v in values:
        key = SEP + normalize_key(v) + SEP
        hit = s.cache.get(("kind", key))
        if hit is None:
            hit = s.blob("kind_keys").find(key)
            s.cache.put(("kind", key), hit)
        found.append(hit)
    rows = np.zeros(0, np.int64) if not found else found[0] if len(found) == 1 else _union(s.n, found)
    s.cache.put(union_key, rows)
    return rows


def _union(n: int, parts: Sequence[IntArray]) -> IntArray:
    """The ascending union of row lists of an index of ``n`` rows (a mask: no sort)."""
    mask = np.zeros(n, dtype=np.bool_)
    for p in parts:
        mask[p] = True
    out: IntArray = np.flatnonzero(mask).astype(np.int64, copy=False)
    return out


# -- 1. cheap whole-column tests -------------------------------------------------------------


def column_masks(s: Snapshot, req: SearchRequest, rows: IntArray | None = None) -> list[BoolArray] | None:
    """The masks of the cheap tests over whole columns, or over the ``rows`` given (their AND is
    a superset of the candidates), or None when a requested value is unknown to the index, so
    nothing can pass."""
    view = _View(s, rows)
    masks: list[BoolArray] = []
    for test in (_geo_box, _near_box, _cuisine, _sub_category, _convenience):
        found = test(s, req, view)
        if found is None:
            return None
        masks.extend(found)
    return masks


class _View:
    """Whole columns, or the columns at some rows (each gathered once)."""

    def __init__(self, s: Snapshot, rows: IntArray | None) -> None:
        self.s, self.rows = s, rows
        self._got: dict[str, np.ndarray] = {}

    def __getitem__(self, name: str) -> np.ndarray:
        col = self.s.cols[name]
        if self.rows is None:
            return col
        got = self._got.get(name)
        if got is None:
            got = self._got[name] = col[self.rows]
        return got


def _geo_box(s: Snapshot, req: SearchRequest, cols: _View) -> list[BoolArray] | None:
    if req.geo is None:
        return []
    min_lat, max_lat, min_lon, max_lon = bounding_box(req.geo.lat, req.geo.lon, req.geo.radius_m)
    lat, lon = cols["lat"], cols["lon"]
    return [(lat >= min_lat) & (lat <= max_lat) & (lon >= min_lon) & (lon <= max_lon)]


def _near_box(s: Snapshot, req: SearchRequest, cols: _View) -> list[BoolArray] | None:
    if not req.near_any:
        return []
    boxes = [bounding_box(c.lat, c.lon, c.radius_m) for c in req.near_any]
    lat, lon = cols["lat"], cols["lon"]
    return [
        (lat >= min(b[0] for b in boxes))
        & (lat <= max(b[1] for b in boxes))
        & (lon >= min(b[2] for b in boxes))
        & (lon <= max(b[3] for b in boxes))
    ]


def _cuisine(s: Snapshot, req: SearchRequest, cols: _View) -> list[BoolArray] | None:
    if not req.cuisine:
        return []
    codes = [c for c in (s.vocab.lookup("cuisine", v) for v in req.cuisine) if c is not None]
    if not codes:
        return None
    lut = np.zeros(len(s.vocab.cuisine) + 1, dtype=np.bool_)
    lut[codes] = True
    return [lut[cols["cuisine"]]]


def _sub_category(s: Snapshot, req: SearchRequest, cols: _View) -> list[BoolArray] | None:
    if not req.sub_category:
        return []
    codes = sub_codes(s, req.sub_category)
    if not codes:
        return None
    lut = np.zeros(len(s.vocab.sub) + 1, dtype=np.bool_)  # code -1 (none) hits the last slot
    lut[codes] = True
    return [lut[cols["sub"]]]


def _convenience(s: Snapshot, req: SearchRequest, cols: _View) -> list[BoolArray] | None:
    """All-of: one mask per 64-bit word of the bitmask that a requested value sets."""
    if not req.convenience:
        return []
    bits = cols["conv_bits"]
    need = np.zeros(bits.shape[1], dtype=np.uint64)
    for v in req.convenience:
        c = s.vocab.lookup("conv", v)
        if c is None or c // 64 >= len(need):
            return None
        need[c // 64] |= np.uint64(1) << np.uint64(c % 64)
    return [(bits[:, w] & need[w]) == need[w] for w in np.flatnonzero(need).tolist()]


# -- 2. exact tests on the survivors ---------------------------------------------------------


@dataclass
class Survivors:
    """The rows that passed so far (ascending) and, once the geo test ran, their distances."""

    s: Snapshot
    req: SearchRequest
    tz: ZoneInfo
    py_check_max: int
    idx: IntArray
    dist: FloatArray | None = None
    driven: str = ""  # the filter the starting rows already settle (see driver_rows)

    def keep(self, m: BoolArray) -> None:
        self.idx = self.idx[m]
        if self.dist is not None:
            self.dist = self.dist[m]


def _geo(c: Survivors) -> None:
    geo = c.req.geo
    if geo is not None:
        c.dist = haversine_m_array(geo.lat, geo.lon, c.s.cols["lat"][c.idx], c.s.cols["lon"][c.idx])
        c.keep(c.dist <= geo.radius_m)


def _price(c: Survivors) -> None:
    """The price buckets first (:meth:`Snapshot.price_bits`: a row with a price in a bucket
    inside the band passes, one with none in a bucket the band touches fails); where they cannot
    decide (a price in a bucket at an end of the band), per-row min/max, then the exact per-menu
    check."""
    if c.req.price is None:
        return
    lo, hi = c.req.price.low, c.req.price.high
    touch, full = band_buckets(lo, hi)
    bits = c.s.price_bits()[c.idx]
    ok = (bits & _bitmask(full)) != 0
    unsure = np.flatnonzero(~ok & ((bits & _bitmask(touch)) != 0))
    if len(unsure):
        ok[unsure] = _prices_in(c.s, c.idx[unsure], lo, hi)
    c.keep(ok)


def _prices_in(s: Snapshot, rows: IntArray, lo: int, hi: int) -> BoolArray:
    """Per row: is any of its menu prices in [lo, hi]? Its min or max first, then every price."""
    pmin, pmax = s.cols["price_min"][rows], s.cols["price_max"][rows]
    ok = ((pmin >= lo) & (pmin <= hi)) | ((pmax >= lo) & (pmax <= hi))
    unsure = np.flatnonzero(~ok & (pmin <= hi) & (pmax >= lo))
    if len(unsure):
        ok[unsure] = any_price_in(s.cols["price_val"], s.price_off, rows[unsure], lo, hi)
    return ok


def _bitmask(buckets: Sequence[int]) -> np.uint32:
    return np.uint32(sum(1 << b for b in buckets))


def _exclude_ids(c: Survivors) -> None:
    if c.req.exclude_ids:
        gone = [c.s.pid_row[p] for p in c.req.exclude_ids if p in c.s.pid_row]
        if gone:
            c.keep(~np.isin(c.idx, gone))


def _title(c: Survivors) -> None:
    if c.req.title is not None:
        c.keep(_title_mask(c.s, c.req.title, c.idx, c.py_check_max))


def _menu(c: Survivors) -> None:
    for term in c.req.menu:
        if c.driven != "menu:" + normalize_key(term):
            c.keep(_menu_mask(c.s, term, c.idx, c.py_check_max))


def _kind(c: Survivors) -> None:
    if c.req.kind and c.driven != "kind":
        c.keep(_kind_mask(c.s, c.req.kind, c.idx))


def _near_any(c: Survivors) -> None:
    """Inside any of a route's circles (after the kind: the circles are many, the rows of a kind
    along them few)."""
    if not c.req.near_any or not len(c.idx):
        return
    lat, lon = c.s.cols["lat"], c.s.cols["lon"]
    rest = np.arange(len(c.idx))
    inside = np.zeros(len(c.idx), dtype=np.bool_)
    for circle in c.req.near_any:
        if not len(rest):
            break
        near = haversine_m_array(circle.lat, circle.lon, lat[c.idx[rest]], lon[c.idx[rest]])
        hit = near <= circle.radius_m
        inside[rest[hit]] = True
        rest = rest[~hit]  # a row inside one circle needs no other
    c.keep(inside)


def _exclude_kind(c: Survivors) -> None:
    if c.req.exclude_kind:
        c.keep(~_kind_mask(c.s, c.req.exclude_kind, c.idx))


def _exclude_cuisine(c: Survivors) -> None:
    if c.req.exclude_cuisine:
        vocab = c.s.vocab
        codes = [x for x in (vocab.lookup("cuisine", v) for v in c.req.exclude_cuisine) if x is not None]
        if codes:
            c.keep(~np.isin(c.s.cols["cuisine"][c.idx], codes))


def _exclude_menu(c: Survivors) -> None:
    for term in c.req.exclude_menu:
        c.keep(~_menu_mask(c.s, term, c.idx, c.py_check_max))


def _exclude_title(c: Survivors) -> None:
    if c.req.exclude_title:
        keys = tuple(k for k in (normalize_key(t) for t in c.req.exclude_title) if k)
        if keys:
            c.keep(~_any_title_key_mask(c.s, keys, c.idx, c.py_check_max))


def _region(c: Survivors) -> None:
    if c.req.region is not None:
        c.keep(_region_mask(c.s, c.req, c.idx, c.py_check_max))


def _open_at(c: Survivors) -> None:
    open_at = c.req.open_at
    if open_at is not None:
        status = open_window_of(c.s, open_at, c.tz, c.idx)
        c.keep((status == 1) | ((status == -1) & open_at.include_unknown))


EXACT_TESTS: tuple[Callable[[Survivors], None], ...] = (
    _geo,
    _price,
    _exclude_ids,
    _title,
    _menu,
    _kind,
    _near_any,
    _exclude_kind,
    _exclude_cuisine,
    _exclude_menu,
    _exclude_title,
    _region,
    _open_at,
)
"""The exact tests, in the order they run (each sees only the rows the earlier ones kept)."""


# -- masks -----------------------------------------------------------------------------------


def any_price_in(vals: IntArray, off: IntArray, rows: IntArray, lo: int, hi: int) -> BoolArray:
    """Per row: does any of its menu prices (``vals[off[r]:off[r + 1]]``) lie in [lo, hi]?

    Vectorised over the rows' concatenated price slices (a per-row Python loop took ~5 µs a row,
    40 ms for a loose price band over 100k documents)."""
    starts, ends = off[rows], off[rows + 1]
    counts = ends - starts
    total = int(counts.sum())
    if total == 0:
        return np.zeros(len(rows), dtype=np.bool_)
    seg = np.cumsum(counts) - counts  # where each row's slice begins in the gathered array
    pos = np.arange(total, dtype=np.int64) + np.repeat(starts - seg, counts)
    v = vals[pos]
    inside = np.concatenate([[0], np.cumsum((v >= lo) & (v <= hi))])
    out: BoolArray = inside[seg + counts] > inside[seg]
    return out


def sub_codes(s: Snapshot, values: Sequence[str]) -> list[int]:
    keys = [normalize_key(v) for v in values]
    return [i for i, sub in enumerate(s.vocab.sub) if sub and any(k and k in sub for k in keys)]


def _string_mask(
    s: Snapshot,
    key: object,
    idx: IntArray,
    pred: Callable[[int], bool],
    all_rows: Callable[[], IntArray],
    py_check_max: int,
) -> BoolArray:
    """``pred`` on each candidate when they are few; otherwise a whole-index mask built from
    ``all_rows()`` (a substring search over the joined column) and kept in the LRU cache."""
    full = s.cache.get(key)
    if full is None and len(idx) > py_check_max:
        full = np.zeros(s.n, dtype=np.bool_)
        full[all_rows()] = True
        s.cache.put(key, full)
    if full is not None:
        out: BoolArray = full[idx]
        return out
    return np.fromiter((pred(r) for r in idx.tolist()), dtype=np.bool_, count=len(idx))


def _title_mask(s: Snapshot, title: str, idx: IntArray, py_check_max: int) -> BoolArray:
    words = title_words(title)
    longest = max(words, key=len) if words else ""
    titles, keys = s.strings["titles"], s.strings["title_keys"]

    def pred(r: int) -> bool:
        return longest in keys[r] and title_matches(titles[r], title)

    def all_rows() -> IntArray:
        rows = s.blob("title_keys").find(longest)  # every match contains its longest word
        seen: dict[str, bool] = {}  # branches of a chain share titles: each distinct one tested once
        out = [r for r in rows.tolist() if _memo(seen, titles[r], title)]
        return np.asarray(out, dtype=np.int64)

    return _string_mask(s, ("title", title), idx, pred, all_rows, py_check_max)


def _memo(seen: dict[str, bool], t: str, title: str) -> bool:
    hit = seen.get(t)
    if hit is None:
        hit = seen[t] = title_matches(t, title)
    return hit


def title_exact_rows(s: Snapshot, title: str) -> IntArray:
    """The rows (ascending) whose title is ``title`` itself (:func:`~matjip.index.reference.title_exact`:
    its normalised key equals the title's), cached per snapshot."""
    key = "".join(title_words(title))
    hit = s.cache.get(("title_exact", key))
    if hit is None:
        keys = s.strings["title_keys"]
        found = s.blob("title_keys").find(key) if key else np.zeros(0, np.int64)
        hit = np.asarray([r for r in found.tolist() if keys[r] == key], dtype=np.int64)
        s.cache.put(("title_exact", key), hit)
    out: IntArray = hit
    return out


def _any_title_key_mask(s: Snapshot, keys: tuple[str, ...], idx: IntArray, py_check_max: int) -> BoolArray:
    """Rows of ``idx`` whose title key contains any of ``keys``: a Python test on few candidates,
    else a whole-index mask from a substring search of the joined title keys, cached (the agent
    sends the same exclusions with nearly every request, and nearly every row passes them)."""
    titles = s.strings["title_keys"]

    def pred(r: int) -> bool:
        return any(k in titles[r] for k in keys)

    def all_rows() -> IntArray:
        blob = s.blob("title_keys")
        return np.concatenate([blob.find(k) for k in keys])

    return _string_mask(s, ("exclude_title", keys), idx, pred, all_rows, py_check_max)


def _kind_mask(s: Snapshot, values: Sequence[str], idx: IntArray) -> BoolArray:
    """Rows of ``idx`` of any of the kinds; each kind's rows are found once per snapshot."""
    if not values:
        return np.zeros(len(idx), dtype=np.bool_)
    return member(idx, kind_rows(s, values))


def member(idx: IntArray, rows: IntArray) -> BoolArray:
    """Which of ``idx`` are in the ascending ``rows`` (a binary search: no hashing of either)."""
    if not len(rows):
        return np.zeros(len(idx), dtype=np.bool_)
    pos = np.minimum(np.searchsorted(rows, idx), len(rows) - 1)
    found: BoolArray = rows[pos] == idx
    return found


def _menu_mask(s: Snapshot, term: str, idx: IntArray, py_check_max: int) -> BoolArray:
    key = normalize_key(term)
    menus = s.strings["menu_keys"]

    def pred(r: int) -> bool:
        return key in menus[r]

    def all_rows() -> IntArray:
        return menu_rows(s, key)  # distinct entries, then their rows

    return _string_mask(s, ("menu", key), idx, pred, all_rows, py_check_max)


def _region_mask(s: Snapshot, req: SearchRequest, idx: IntArray, py_check_max: int) -> BoolArray:
    region = req.region
    assert region is not None
    needles = [" " + normalize_phrase(t) for t in region.terms if t.strip()]
    addrs = s.strings["addr_keys"]

    def pred(r: int) -> bool:
        a = addrs[r]
        return any(n in a for n in needles)

    def all_rows() -> IntArray:
        found = [s.blob("addr_keys").find(n) for n in needles]
        return np.concatenate(found) if found else np.zeros(0, np.int64)

    mask = _string_mask(s, ("region", tuple(needles)), idx, pred, all_rows, py_check_max)
    if region.polygon_place:
        place = polygon_place(region.polygon_place)
        if place is not None:
            from matjip.geo import get_gazetteer

            rest = np.flatnonzero(~mask)
            inside = get_gazetteer().contains_points(
                place, s.cols["lat"][idx[rest]], s.cols["lon"][idx[rest]]
            )
            if inside is not None:
                mask = mask.copy()
                mask[rest[np.asarray(inside, dtype=np.bool_)]] = True
    return mask


OPEN_ROWS_SHARE = 0.125  # up to this share of the index, opening hours are read for the candidates only


def open_window_of(s: Snapshot, open_at: OpenAt, tz: ZoneInfo, idx: IntArray) -> npt.NDArray[np.int8]:
    """:func:`open_window` for the rows ``idx`` (ascending): read off the whole-index status of each
    instant when every instant is cached or the rows are many; else computed from those rows'
    intervals alone (a day's window is 48 instants: 48 passes over every interval of the index
    on first use, against a binary search per candidate)."""
    instants = [_instant(when, tz) for when in open_at.instants()]
    if len(idx) > s.n * OPEN_ROWS_SHARE or all(s.cache.get(("open", *i)) is not None for i in instants):
        return open_window(s, open_at, tz)[idx]
    days: dict[tuple[str, int], tuple[IntArray, np.ndarray]] = {}

    def day(name: str, wd: int) -> tuple[IntArray, np.ndarray]:
        if (name, wd) not in days:
            days[name, wd] = _day_intervals(s, name, wd, idx)
        return days[name, wd]

    out = np.zeros(len(idx), dtype=np.int8)
    for wd, minute in instants:
        yesterday = day("open_iv", (wd - 1) % 7)
        is_open = _rows_open_at(len(idx), minute, day("open_iv", wd), day("break_iv", wd), yesterday)
        out = np.maximum(out, is_open.astype(np.int8))
    known = s.cols["hours_known"][idx]
    return np.where(known, out, np.int8(-1)).astype(np.int8)


def _rows_open_at(
    n: int,
    minute: int,
    today: tuple[IntArray, np.ndarray],
    breaks: tuple[IntArray, np.ndarray],
    yesterday: tuple[IntArray, np.ndarray],
) -> npt.NDArray[np.bool_]:
    """Which of ``n`` rows are open at ``minute`` — :meth:`WeeklySchedule.is_open`'s rule, the one
    place it is vectorised: inside one of today's opening intervals and not in a break, or inside
    yesterday's interval that runs past midnight. Each day is (owner row of each interval, the
    intervals: columns 2 and 3 are the start and end minute)."""
    is_open = np.zeros(n, dtype=np.bool_)
    owner, iv = today
    is_open[owner[(iv[:, 2] <= minute) & (minute < iv[:, 3])]] = True
    owner, iv = breaks
    is_open[owner[(iv[:, 2] <= minute) & (minute < iv[:, 3])]] = False
    owner, iv = yesterday
    is_open[owner[(iv[:, 3] > 1440) & (minute + 1440 < iv[:, 3])]] = True
    return is_open


def _instant(when: datetime, tz: ZoneInfo) -> tuple[int, int]:
    """(weekday, minute of the day) of ``when`` in ``tz``."""
    when = when.astimezone(tz)
    return when.weekday(), when.hour * 60 + when.minute


def _day_intervals(s: Snapshot, name: str, wd: int, idx: IntArray) -> tuple[IntArray, np.ndarray]:
    """The intervals of day ``wd`` in ``name`` that belong to the rows ``idx`` (ascending), and
    for each the position of its row in ``idx``. A day's intervals are sorted by row
    (:meth:`Snapshot.by_day`), so each row's run is found by binary search."""
    table, off = s.by_day(name)
    part = table[off[wd] : off[wd + 1]]
    lo = np.searchsorted(part[:, 0], idx, side="left")
    hi = np.searchsorted(part[:, 0], idx, side="right")
    counts = hi - lo
    owner = np.repeat(np.arange(len(idx), dtype=np.int64), counts)
    starts = np.repeat(lo - np.concatenate([[0], np.cumsum(counts)[:-1]]), counts)
    pos = starts + np.arange(len(owner), dtype=np.int64)
    return owner, part[pos]


def open_window(s: Snapshot, open_at: OpenAt, tz: ZoneInfo) -> npt.NDArray[np.int8]:
    """Per row over the filter's instants: 1 open at one of them, 0 closed at all, -1 unknown."""
    out: npt.NDArray[np.int8] | None = None
    for when in open_at.instants():
        st = _open_status(s, when, tz)
        out = st if out is None else np.maximum(out, st)
    assert out is not None
    return out


def _open_status(s: Snapshot, when: datetime, tz: ZoneInfo) -> npt.NDArray[np.int8]:
    """Per row: 1 open, 0 closed, -1 unknown — :meth:`WeeklySchedule.is_open`, vectorised."""
    wd, minute = _instant(when, tz)
    key = ("open", wd, minute)
    hit = s.cache.get(key)
    if hit is not None:
        cached: npt.NDArray[np.int8] = hit
        return cached
    (o, o_off), (b, b_off) = s.by_day("open_iv"), s.by_day("break_iv")

    def whole_day(table: np.ndarray, off: IntArray, day: int) -> tuple[IntArray, np.ndarray]:
        part = table[off[day] : off[day + 1]]
        return part[:, 0], part

    is_open = _rows_open_at(
        s.n, minute, whole_day(o, o_off, wd), whole_day(b, b_off, wd), whole_day(o, o_off, (wd - 1) % 7)
    )
    status = np.where(s.cols["hours_known"], is_open.astype(np.int8), np.int8(-1)).astype(np.int8)
    s.cache.put(key, status)
    return status
