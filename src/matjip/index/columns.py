"""The per-row columns of the embedded index, and how a document becomes one row of them.

A row holds its filter columns (coordinates, cuisine and sub-category codes, a convenience
bitmask, menu prices, opening intervals, the prior of :func:`matjip.index.ranking.trust`), its
strings (place id, title, the normalised title, menu, address and kind keys), its line of
``docs.tsv`` and the coarse tantivy filter terms (geo cells, codes, character bigrams) that let
BM25 walk only a superset of the candidates. :class:`Vocab` maps values to codes; it only grows.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from matjip.documents import Restaurant
from matjip.index.ranking import trust
from matjip.index.reference import menu_entries, normalize_key, normalize_phrase, title_words

GEO_LEVELS = (0.005, 0.02, 0.08)  # cell sizes (degrees) of the coarse tantivy geo restriction; kept in meta
PRICE_EDGES = tuple(range(5_000, 155_000, 5_000))
"""Upper ends (exclusive) of the menu-price buckets: bucket 0 is below 5,000 won, bucket i is
[5,000·i, 5,000·(i + 1)), the last (30) is 150,000 won and above. A row has the bit (snapshot
``price_bits``) and the tantivy term ``pb:<i>`` of every bucket one of its menu prices falls in;
kept in meta (``price_edges``) for the terms, absent from an index written before them."""
NO_PRICE_MIN = np.iinfo(np.int64).max
NO_PRICE_MAX = -1
SEP = "\x1f"  # between the entries of a string column's value


def cell_terms(lat: float, lon: float, levels: Sequence[float] = GEO_LEVELS) -> list[str]:
    return [f"g{i}:{math.floor(lat / s)}:{math.floor(lon / s)}" for i, s in enumerate(levels)]


def price_buckets(prices: np.ndarray, edges: Sequence[int] = PRICE_EDGES) -> np.ndarray:
    """The bucket (see :data:`PRICE_EDGES`) of each price."""
    out: np.ndarray = np.searchsorted(np.asarray(edges, dtype=np.int64), prices, side="right")
    return out


def band_buckets(low: int, high: int, edges: Sequence[int] = PRICE_EDGES) -> tuple[list[int], list[int]]:
    """The buckets a price in [low, high] may fall in, and those every price of which lies in it."""
    bounds = [-math.inf, *edges, math.inf]  # bucket i holds the integers in [bounds[i], bounds[i + 1])
    touch = [i for i in range(len(edges) + 1) if bounds[i] <= high and bounds[i + 1] - 1 >= low]
    full = [i for i in touch if bounds[i] >= low and bounds[i + 1] - 1 <= high]
    return touch, full


def bigrams(texts: Iterable[str]) -> set[str]:
    """Character bigrams of each text (never across texts): a text containing a substring of
    two or more characters contains all of that substring's bigrams."""
    return {t[i : i + 2] for t in texts for i in range(len(t) - 1)}


@dataclass
class Vocab:
    """Value vocabularies (normalised keys; codes are list positions). They only grow."""

    cuisine: list[str] = field(default_factory=list)
    cuisine_display: list[str] = field(default_factory=list)
    sub: list[str] = field(default_factory=list)
    conv: list[str] = field(default_factory=list)
    conv_display: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._maps: dict[str, dict[str, int]] = {
            kind: {k: i for i, k in enumerate(getattr(self, kind))} for kind in ("cuisine", "sub", "conv")
        }

    def code(self, kind: str, value: str) -> int:
        """The code of ``value``, added to the vocabulary when new."""
        key = normalize_key(value)
        m = self._maps[kind]
        c = m.get(key)
        if c is None:
            keys: list[str] = getattr(self, kind)
            c = m[key] = len(keys)
            keys.append(key)
            if kind != "sub":
                display: list[str] = getattr(self, kind + "_display")
                display.append(value)
        return c

    def lookup(self, kind: str, value: str) -> int | None:
        return self._maps[kind].get(normalize_key(value))

    @property
    def conv_words(self) -> int:
        return max(1, (len(self.conv) + 63) // 64)

    def to_json(self) -> dict[str, list[str]]:
        return {
            "cuisine": list(self.cuisine),
            "cuisine_display": list(self.cuisine_display),
            "sub": list(self.sub),
            "conv": list(self.conv),
            "conv_display": list(self.conv_display),
        }

    @classmethod
    def from_json(cls, d: dict[str, list[str]]) -> Vocab:
        return cls(**{k: list(v) for k, v in d.items()})

    def copy(self) -> Vocab:
        return Vocab.from_json(self.to_json())


STRING_COLUMNS = ("place_ids", "titles", "title_keys", "menu_keys", "addr_keys", "kind_keys")
"""The string columns of a row (``strings.json`` also holds ``menu_vocab``, the distinct menu entries)."""


class Rows:
    """Columns for a batch of new rows, as Python lists (converted with :meth:`arrays`)."""

    def __init__(
        self,
        vocab: Vocab,
        menu_vocab: list[str],
        first_row: int,
        geo_levels: Sequence[float] = GEO_LEVELS,
        price_edges: Sequence[int] | None = PRICE_EDGES,
    ) -> None:
        self.vocab = vocab
        self.geo_levels = tuple(geo_levels)
        self.price_edges = tuple(price_edges) if price_edges is not None else None
        self.menu_vocab = menu_vocab  # distinct normalised menu entries; grows in place
        self._menu_ids = {m: i for i, m in enumerate(menu_vocab)}
        self.menu_pairs: list[tuple[int, int]] = []  # (entry id, row)
        self.first_row = first_row
        self.n = 0
        self.lat: list[float] = []
        self.lon: list[float] = []
        self.cuisine: list[int] = []
        self.sub: list[int] = []
        self.conv: list[list[int]] = []
        self.price_min: list[int] = []
        self.price_max: list[int] = []
        self.price_count: list[int] = []
        self.price_val: list[int] = []
        self.hours_known: list[bool] = []
        self.open_iv: list[tuple[int, int, int, int]] = []  # row, day, start, end
        self.break_iv: list[tuple[int, int, int, int]] = []
        self.prior: list[float] = []
        self.doc_len: list[int] = []
        self.strings: dict[str, list[str]] = {k: [] for k in STRING_COLUMNS}

    def add(self, doc: Restaurant, terms: Sequence[str]) -> tuple[int, str, list[str]]:
        """Add a row; returns (row, the docs.tsv line, the tantivy filter terms)."""
        row = self.first_row + self.n
        self.n += 1
        lat, lon = doc.lat, doc.lon
        has_geo = lat is not None and lon is not None and math.isfinite(lat) and math.isfinite(lon)
        self.lat.append(float(lat) if has_geo and lat is not None else math.nan)
        self.lon.append(float(lon) if has_geo and lon is not None else math.nan)
        cu = self.vocab.code("cuisine", doc.cuisine)
        self.cuisine.append(cu)
        sub_key = normalize_key(doc.sub_category or "")
        self.sub.append(self.vocab.code("sub", doc.sub_category or "") if sub_key else -1)
        conv_codes = sorted({self.vocab.code("conv", c) for c in doc.convenience if normalize_key(c)})
        self.conv.append(conv_codes)
        prices = [int(m.price) for m in doc.menus if m.price is not None]
        self.price_val.extend(prices)
        self.price_count.append(len(prices))
        self.price_min.append(min(prices) if prices else int(NO_PRICE_MIN))
        self.price_max.append(max(prices) if prices else NO_PRICE_MAX)
        h = doc.hours
        self.hours_known.append(bool(h is not None and h.parsed and h.days))
        if h is not None:
            for day, dh in h.days.items():
                for r in dh.open:
                    self.open_iv.append((row, int(day), r.start, r.end))
                for b in dh.breaks:
                    self.break_iv.append((row, int(day), b.start, b.end))
        self.prior.append(trust(doc))
        s = self.strings
        s["place_ids"].append(doc.place_id)
        s["titles"].append(" ".join(doc.title.split()))
        s["title_keys"].append("".join(title_words(doc.title)))
        entries = menu_entries(doc)
        s["menu_keys"].append(SEP.join(entries))
        for e in dict.fromkeys(entries):
            eid = self._menu_ids.get(e)
            if eid is None:
                eid = self._menu_ids[e] = len(self.menu_vocab)
                self.menu_vocab.append(e)
            self.menu_pairs.append((eid, row))
        addrs = [" " + normalize_phrase(a) for a in (doc.address, doc.road_address) if a.strip()]
        s["addr_keys"].append(SEP.join(addrs))
        s["kind_keys"].append(SEP + SEP.join(normalize_key(k) for k in doc.kinds) + SEP)
        # "<BM25 terms, space-separated>\t<document JSON>" (terms never contain tabs or newlines)
        line = " ".join(terms) + "\t" + doc.model_dump_json(by_alias=True)
        data = (line + "\n").encode("utf-8")
        self.doc_len.append(len(data))
        filt = [f"cu:{self.vocab.cuisine[cu]}"]
        if sub_key:
            filt.append(f"sb:{sub_key}")
        filt.extend(f"cv:{self.vocab.conv[c]}" for c in conv_codes)
        if has_geo and lat is not None and lon is not None:
            filt.extend(cell_terms(lat, lon, self.geo_levels))
        filt.extend("mb:" + g for g in bigrams(entries))
        filt.extend("ab:" + g for g in bigrams(addrs))
        filt.extend("tb:" + g for g in bigrams([s["title_keys"][-1]]))
        if self.price_edges is not None and prices:
            filt.extend(
                f"pb:{b}" for b in sorted(set(price_buckets(np.asarray(prices), self.price_edges).tolist()))
            )
        return row, line, filt

    def arrays(self) -> dict[str, np.ndarray]:
        n = self.n
        w = self.vocab.conv_words
        bits = np.zeros((n, w), dtype=np.uint64)
        for i, codes in enumerate(self.conv):
            for c in codes:
                bits[i, c // 64] |= np.uint64(1) << np.uint64(c % 64)

        def iv(rows: list[tuple[int, int, int, int]]) -> np.ndarray:
            return np.asarray(rows, dtype=np.int32).reshape(-1, 4)

        return {
            "lat": np.asarray(self.lat, dtype=np.float64),
            "lon": np.asarray(self.lon, dtype=np.float64),
            "alive": np.ones(n, dtype=np.bool_),
            "cuisine": np.asarray(self.cuisine, dtype=np.int32),
            "sub": np.asarray(self.sub, dtype=np.int32),
            "conv_bits": bits,
            "price_min": np.asarray(self.price_min, dtype=np.int64),
            "price_max": np.asarray(self.price_max, dtype=np.int64),
            "price_count": np.asarray(self.price_count, dtype=np.int64),
            "price_val": np.asarray(self.price_val, dtype=np.int64),
            "hours_known": np.asarray(self.hours_known, dtype=np.bool_),
            "open_iv": iv(self.open_iv),
            "break_iv": iv(self.break_iv),
            "prior": np.asarray(self.prior, dtype=np.float32),
            "doc_len": np.asarray(self.doc_len, dtype=np.int64),
            "menu_pairs": np.asarray(self.menu_pairs, dtype=np.int64).reshape(-1, 2),
        }


def concat_columns(old: dict[str, np.ndarray], new: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    out: dict[str, np.ndarray] = {}
    for k, v in new.items():
        o = old.get(k)
        if o is None:
            out[k] = v
            continue
        if k == "conv_bits" and o.shape[1] != v.shape[1]:
            w = max(o.shape[1], v.shape[1])
            o = np.pad(o, ((0, 0), (0, w - o.shape[1])))
            v = np.pad(v, ((0, 0), (0, w - v.shape[1])))
        out[k] = np.concatenate([o, v])
    return out


def finish_columns(cols: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Sort the (menu entry, row) pairs by entry so each entry's rows are one slice."""
    pairs = cols["menu_pairs"]
    cols["menu_pairs"] = pairs[np.argsort(pairs[:, 0], kind="stable")]
    return cols
