"""BM25 over the candidates of the embedded index, exact, with tantivy.

Filters never enter scoring: BM25 statistics are index-wide and filter clauses are constant-score
0. A small candidate set C (up to ``row_set_max``) is passed to tantivy itself, as a term set on
the ``row`` field. Otherwise the filters tantivy can express coarsely become ``Must`` clauses
(:func:`restrictions`), so tantivy walks only a superset of C: geo cells covering the bounding
box, cuisine, sub-category and convenience terms, the price buckets a price band touches, and for the substring filters (menu, title,
region) every character bigram of the needle. Hits are intersected with C. The first page is
sized from C's share of the index (at most ``first_fetch``); while a full page leaves fewer than
``depth`` hits inside C, the next page is read (tantivy offset, the total read growing ×4) until
the best ``depth`` hits inside C are certain (every unread hit scores no higher) or everything was
read — so the BM25 list over C is exact, never a sample.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import tantivy

from matjip.geo.distance import bounding_box
from matjip.index.columns import band_buckets, bigrams
from matjip.index.filters import sub_codes
from matjip.index.reference import normalize_key, normalize_phrase, title_words
from matjip.index.request import SearchRequest
from matjip.index.snapshot import Snapshot

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

MAX_GEO_CELLS = 64
FIRST_FETCH = 2000  # first tantivy page; grows x4 while the top BM25_DEPTH inside C is uncertain
ROW_SET_MAX = 200  # up to this many candidates, restrict tantivy by their row ids (~5 µs per row)


def top_hits(
    s: Snapshot,
    terms: Sequence[str],
    req: SearchRequest,
    idx: IntArray,
    *,
    depth: int,
    first_fetch: int = FIRST_FETCH,
    row_set_max: int = ROW_SET_MAX,
) -> tuple[IntArray, FloatArray]:
    """The best ``depth`` BM25 hits inside the candidates ``idx`` (exact), best first."""
    query, inside_share = _query(s, terms, req, idx, row_set_max)
    member = np.zeros(s.n, dtype=np.bool_)
    member[idx] = True
    # The first page: enough for `depth` hits inside C if C's share of the hits is its
    # share of the index (a restriction only raises it), with a margin; at most `first_fetch`.
    # It is only a guess for speed: while a full page holds fewer than `depth` hits
    # inside C, the next page is read (offset paging, so no hit is converted twice), the
    # total read growing x4 per page, until the best `depth` inside C are certain (every
    # unread hit scores no higher) or every match was read.
    limit = min(first_fetch, max(depth, math.ceil(1.5 * depth / max(inside_share, 1e-9)) + 32))
    offset = 0
    total_docs = max(1, s.searcher.num_docs)
    found = 0
    row_pages: list[IntArray] = []
    score_pages: list[FloatArray] = []
    while True:
        rows, scores, full = _page(s, query, member, limit, offset)
        row_pages.append(rows)
        score_pages.append(scores)
        found += len(rows)
        if not full or found >= depth or offset + limit >= total_docs:
            break
        offset += limit
        limit = 3 * offset
    if len(row_pages) == 1:
        return row_pages[0][:depth], score_pages[0][:depth]
    return np.concatenate(row_pages)[:depth], np.concatenate(score_pages)[:depth]


def _query(
    s: Snapshot, terms: Sequence[str], req: SearchRequest, idx: IntArray, row_set_max: int
) -> tuple[tantivy.Query, float]:
    """The tantivy query (the terms, restricted to a superset of ``idx`` by constant-score-0
    clauses) and the expected share of its hits inside ``idx``."""
    schema = s.schema
    text_q = tantivy.Query.boolean_query(
        [(tantivy.Occur.Should, tantivy.Query.term_query(schema, "body", t)) for t in terms]
    )
    inside_share = len(idx) / max(1, len(s.alive_rows))  # of the hits, expected inside C
    if len(idx) <= row_set_max and len(idx) < len(s.alive_rows):
        restrict = [tantivy.Query.term_set_query(schema, "row", idx.tolist())]
        inside_share = 1.0
    else:
        restrict = restrictions(s, req)
    if not restrict:
        return text_q, inside_share
    query = tantivy.Query.boolean_query(
        [(tantivy.Occur.Must, text_q)]
        + [(tantivy.Occur.Must, tantivy.Query.const_score_query(q, 0.0)) for q in restrict]
    )
    return query, inside_share


def _page(
    s: Snapshot, query: tantivy.Query, member: npt.NDArray[np.bool_], limit: int, offset: int
) -> tuple[IntArray, FloatArray, bool]:
    """One page of hits: those inside the candidates (rows, scores), and whether the page was full."""
    hits = s.searcher.search(query, limit=limit, offset=offset, count=False).hits
    rows = np.asarray(s.searcher.fast_field_values("row", [a for _, a in hits]), dtype=np.int64).reshape(-1)
    scores = np.asarray([sc for sc, _ in hits], dtype=np.float64)
    valid = rows < s.n
    inside = np.zeros(len(rows), dtype=np.bool_)
    inside[valid] = member[rows[valid]]
    return rows[inside], scores[inside], len(hits) >= limit


def query_cells(lat: float, lon: float, radius_m: float, levels: Sequence[float]) -> list[str] | None:
    """Cell terms covering the circle's bounding box at the finest level with few cells."""
    min_lat, max_lat, min_lon, max_lon = bounding_box(lat, lon, radius_m)
    if min_lon <= -180.0 and max_lon >= 180.0:
        return None
    for i, s in enumerate(levels):
        i0, i1 = math.floor(min_lat / s), math.floor(max_lat / s)
        j0, j1 = math.floor(min_lon / s), math.floor(max_lon / s)
        if (i1 - i0 + 1) * (j1 - j0 + 1) <= MAX_GEO_CELLS:
            return [f"g{i}:{a}:{b}" for a in range(i0, i1 + 1) for b in range(j0, j1 + 1)]
    return None


def restrictions(s: Snapshot, req: SearchRequest) -> list[tantivy.Query]:
    """Coarse tantivy clauses implied by the hard filters (each a superset of the exact one)."""
    schema = s.schema
    out: list[tantivy.Query] = []

    def any_of(values: Sequence[str]) -> tantivy.Query:
        return tantivy.Query.term_set_query(schema, "filt", list(values))

    if req.geo is not None:
        cells = query_cells(req.geo.lat, req.geo.lon, req.geo.radius_m, s.meta["geo_levels"])
        if cells:
            out.append(any_of(cells))
    if req.cuisine:
        codes = [c for c in (s.vocab.lookup("cuisine", v) for v in req.cuisine) if c is not None]
        out.append(any_of([f"cu:{s.vocab.cuisine[c]}" for c in codes]))
    if req.sub_category:
        out.append(any_of([f"sb:{s.vocab.sub[c]}" for c in sub_codes(s, req.sub_category)]))
    for v in req.convenience:
        out.append(tantivy.Query.term_query(schema, "filt", f"cv:{normalize_key(v)}"))
    edges = s.meta.get("price_edges")  # absent: an index written before the price-bucket terms
    if req.price is not None and edges is not None:
        touch, _ = band_buckets(req.price.low, req.price.high, edges)
        if len(touch) <= len(edges):  # not every bucket
            out.append(any_of([f"pb:{b}" for b in touch]))

    def allbigrams(prefix: str, text: str) -> tantivy.Query | None:
        grams = sorted(bigrams([text]))
        if not grams:
            return None
        return tantivy.Query.boolean_query(
            [(tantivy.Occur.Must, tantivy.Query.term_query(schema, "filt", prefix + g)) for g in grams]
        )

    # substring filters: a row passing one has every bigram of the needle (single characters
    # have none and add no clause)
    for term in req.menu:
        q = allbigrams("mb:", normalize_key(term))
        if q is not None:
            out.append(q)
    if req.title is not None:
        words = title_words(req.title)
        q = allbigrams("tb:", max(words, key=len)) if words else None
        if q is not None:
            out.append(q)
    if req.region is not None and not req.region.polygon_place:
        alternatives = [allbigrams("ab:", " " + normalize_phrase(t)) for t in req.region.terms]
        if alternatives and all(a is not None for a in alternatives):
            out.append(tantivy.Query.boolean_query([(tantivy.Occur.Should, a) for a in alternatives if a]))
    return out
