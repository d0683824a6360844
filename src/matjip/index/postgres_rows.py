"""The ``matjip_docs`` row of a document for the PostgreSQL backend: the filter columns, the opening
minutes of the week, the BM25 terms with tantivy's field norm, the vector (:func:`doc_row`, the
columns of :data:`matjip.index.pg_sql.COPY_DOCS`); and tantivy's BM25 constants (:func:`idf`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from matjip.documents import Restaurant
from matjip.index.ranking import trust
from matjip.index.reference import menu_entries, normalize_key, normalize_phrase, title_words

K1 = np.float32(1.2)
B = np.float32(0.75)
WEEK = 7 * 1440
_SEP = "\x1f"

# tantivy's field-norm buckets (src/fieldnorm/code.rs): a document length is stored as the
# largest bucket value not above it
FIELD_NORMS: tuple[int, ...] = (
    *range(41),
    *(42, 44, 46, 48, 50, 52, 54, 56, 60, 64, 68, 72, 76, 80, 84, 88, 96, 104, 112, 120, 128, 136, 144),
    *(152, 168, 184, 200, 216, 232, 248, 264, 280, 312, 344, 376, 408, 440, 472, 504, 536, 600, 664),
    *(728, 792, 856, 920, 984, 1048, 1176, 1304, 1432, 1560, 1688, 1816, 1944, 2072, 2328, 2584, 2840),
    *(3096, 3352, 3608, 3864, 4120, 4632, 5144, 5656, 6168, 6680, 7192, 7704, 8216, 9240, 10264, 11288),
    *(12312, 13336, 14360, 15384, 16408, 18456, 20504, 22552, 24600, 26648, 28696, 30744, 32792, 36888),
    *(40984, 45080, 49176, 53272, 57368, 61464, 65560, 73752, 81944, 90136, 98328, 106520, 114712),
)
_NORMS = np.asarray(FIELD_NORMS, dtype=np.int64)

FloatArray = npt.NDArray[np.float64]


def fieldnorm(length: int) -> int:
    """The decoded tantivy field norm of a document of ``length`` tokens."""
    return int(_NORMS[int(np.searchsorted(_NORMS, length, side="right")) - 1])


def idf(doc_freq: int, docs: int) -> np.float32:
    """tantivy's BM25 idf, in float32."""
    x = (np.float32(docs - doc_freq) + np.float32(0.5)) / (np.float32(doc_freq) + np.float32(0.5))
    return np.float32(np.log(np.float32(1.0) + x))


def open_minutes(doc: Restaurant) -> tuple[bool, list[tuple[int, int]]]:
    """Whether the hours are known, and the minutes of the week (Monday 00:00 = 0) when the place
    is open, as disjoint sorted ranges [lo, hi) — :meth:`WeeklySchedule.is_open` for every minute:
    a day's ranges minus that day's breaks, plus past-midnight parts of the day before."""
    h = doc.hours
    if h is None or not h.parsed or not h.days:
        return False, []
    spans: list[tuple[int, int]] = []
    for day, dh in h.days.items():
        base = int(day) * 1440
        breaks = sorted((b.start, min(b.end, 1440)) for b in dh.breaks if b.start < min(b.end, 1440))
        for r in dh.open:
            lo, hi = r.start, min(r.end, 1440)
            pieces = [(lo, hi)] if lo < hi else []
            for bs, be in breaks:
                nxt: list[tuple[int, int]] = []
                for a, c in pieces:
                    if be <= a or bs >= c:
                        nxt.append((a, c))
                        continue
                    if a < bs:
                        nxt.append((a, bs))
                    if be < c:
                        nxt.append((be, c))
                pieces = nxt
            spans.extend((base + a, base + c) for a, c in pieces)
            if r.end > 1440:  # past midnight: the next day from 00:00
                nb = ((int(day) + 1) % 7) * 1440
                spans.append((nb, nb + min(r.end - 1440, 1440)))
    spans.sort()
    merged: list[tuple[int, int]] = []
    for a, c in spans:
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], c))
        else:
            merged.append((a, c))
    return True, merged


def _multirange(spans: Sequence[tuple[int, int]]) -> str:
    return "{" + ",".join(f"[{a},{c})" for a, c in spans) + "}"


def _vector_text(v: npt.NDArray[np.float32]) -> str:
    return "[" + ",".join(repr(float(x)) for x in v.tolist()) + "]"


def doc_row(doc: Restaurant, terms: Sequence[str], vector: npt.NDArray[np.float32]) -> tuple[Any, ...]:
    """The ``matjip_docs`` row of a document (the columns of :data:`pg_sql.COPY_DOCS`, in order)."""
    lat, lon = doc.lat, doc.lon
    has_geo = lat is not None and lon is not None and math.isfinite(lat) and math.isfinite(lon)
    words = title_words(doc.title)
    prefixes: list[str] = []
    acc = ""
    for w in words:
        acc += w
        prefixes.append(acc)
    entries = menu_entries(doc)
    addrs = [" " + normalize_phrase(a) for a in (doc.address, doc.road_address) if a.strip()]
    prices = [int(m.price) for m in doc.menus if m.price is not None]
    known, spans = open_minutes(doc)
    counts: dict[str, int] = {}
    for t in terms:
        counts[t] = counts.get(t, 0) + 1
    return (
        doc.place_id,
        doc.model_dump_json(by_alias=True),
        float(lat) if has_geo and lat is not None else None,
        float(lon) if has_geo and lon is not None else None,
        normalize_key(doc.cuisine),
        normalize_key(doc.sub_category or ""),
        sorted({normalize_key(c) for c in doc.convenience if normalize_key(c)}),
        sorted({normalize_key(k) for k in doc.kinds}),
        " ".join(doc.title.split()),
        "".join(words),
        sorted(set(words)),
        prefixes,
        _SEP.join(entries),
        _SEP.join(addrs),
        prices,
        len(prices),
        known,
        _multirange(spans),
        float(np.float32(trust(doc))),
        list(counts),
        list(counts.values()),
        len(terms),
        fieldnorm(len(terms)),
        _vector_text(vector),
    )
