"""One search on the PostgreSQL backend: the request's filters as bound parameters and clause names
(:func:`filter_params`), and the :class:`~matjip.index.ranking.CandidateSource` the shared ranking
reads (:class:`PgCandidates`).

A search is one statement (``pg_sql.QUERIES["search"]``): the candidates are materialised once
from the narrow ``matjip_rows`` (from the narrower ``matjip_keys`` when every filter of the request
is on its columns: ``pg_sql.KEY_FILTERS``) and the count, the BM25 list (from ``matjip_postings``), the exact
vector list of the candidates (with ``MATJIP_DATABASE_HNSW`` and no filter, from the HNSW index, the
walk cut to the exact order's first rows; recall measured against the exact scan, README), the best by prior and the nearest come back together; then
the hit rows (a kNN search's come with the statement: the vector list's first rows carry them). Only a walk that falls short of the rows asked takes one more statement (the exact
scan). Every list is re-ordered here exactly (float32 as the embedded backend computes it, ties to
the lower row) from a few rows past its cut (:data:`MARGIN`).
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from datetime import tzinfo
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from pydantic import BaseModel, ConfigDict

from matjip.documents import Restaurant
from matjip.index import fusion, pg_sql
from matjip.index.analyzer import query_terms
from matjip.index.embed.base import Embedder
from matjip.index.postgres_rows import K1, B, idf
from matjip.index.ranking import BM25_DEPTH, VECTOR_DEPTH, HitRow, SearchMode, query_vector
from matjip.index.reference import (
    BRANCH_SUFFIXES,
    MAX_BRANCH_CHARS,
    normalize_key,
    normalize_phrase,
    polygon_place,
    title_words,
)
from matjip.index.request import SearchRequest

Run = Callable[..., list[tuple[Any, ...]]]
"""Runs one whitelisted statement with its parameters on the search's connection (``last=True``:
the read's last statement, the transaction ends with it)."""
IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

MARGIN = 32  # extra rows read past a cut, re-ordered here exactly
DF_CACHE = 50_000  # terms whose document frequency is kept per index version
DF_VERSIONS = 4  # index versions whose frequencies are kept (replicas may be at different ones)
# rows taken from the walk, re-ordered exactly in the statement: the recall is the candidate list's
# (ef_search), a longer take walks further for no measured gain (README, "HNSW")
ANN_LIMIT = VECTOR_DEPTH + MARGIN
# the BM25 and vector lists' first k + this many rows (the statement's order) carry their hit rows
# in a search's statement (pg_sql._HITS_HEAD): a kNN search's hits differ from the server's order only
# by a float tie; a fused list's lie there but for a few (2 of the benchmark's 100 filtered hybrid
# searches, 17 of its 100 unfiltered ones at 100k, README), read in a read of their own
HIT_MARGIN = 8
PROBE_COST = 6  # a candidate's posting looked up by (term, row) costs about this many postings scanned
# the bound on |exact inner product - the halfvec codes'| (matjip_keys' codes, pg_sql._CODED_BRANCH),
# as CODE_ERR * |q| * (|v| + 1) + CODE_ERR_ABS * (|v| + 1): rounding the row and the query to
# halfvec costs at most 2^-11 of each component (2^-25 absolute below halfvec's normal range), so
# 2^-10 * |q|·|v| by Cauchy–Schwarz plus 2^-25 * 16 * (|q| + |v|) for 256 dimensions, and each side's
# float4 sum 256 * 2^-24 * |q|·|v|; 1.5e-3 is 1.5 times the sum at 256 dimensions (more scales with them)
CODE_ERR = 1.5e-3
CODE_ERR_ABS = 1e-5

INNER_SHARE = 0.7  # the inner box's half-side, a share of the radius (0.7·√2 < 0.99)
INNER_MAX_M = 100_000.0  # circles up to this radius get an inner box (the bound is for small angles)
INNER_MAX_LAT = 80.0  # … and boxes away from the poles


class SearchStatement(BaseModel):
    """The search statement of one request (a whitelisted variant) with its bound parameters,
    the lists it returns and whether it runs over every row."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    sql: str
    params: dict[str, Any]
    want: frozenset[str]
    all_rows: bool
    hits: bool = False  # the hit rows of the vector list's first rows come with it (a kNN search)
    coded: bool = False  # the exact vector list from matjip_keys' codes (pg_sql._CODED_BRANCH)


_PARTS = {"bm25": 1, "vector": 2, "prior": 3, "nearest": 4}  # a list's part number in the search's rows


def _geo_params(req: SearchRequest, p: dict[str, Any], names: list[str]) -> None:
    from matjip.geo.distance import bounding_box

    if req.geo is not None:
        names.append("geo")
        # the box of a slightly larger circle: a superset whatever the rounding
        box = bounding_box(req.geo.lat, req.geo.lon, req.geo.radius_m * 1.01 + 10.0)
        p.update(
            geo_lat=req.geo.lat,
            geo_lon=req.geo.lon,
            geo_radius=req.geo.radius_m,
            geo_min_lat=box[0],
            geo_max_lat=box[1],
            geo_min_lon=box[2],
            geo_max_lon=box[3],
        )
        p.update(
            zip(
                ("geo_in_min_lat", "geo_in_max_lat", "geo_in_min_lon", "geo_in_max_lon"),
                inner_box(req.geo.lat, req.geo.lon, req.geo.radius_m),
                strict=True,
            )
        )
    if req.near_any:
        names.append("near_any")
        boxes = [bounding_box(c.lat, c.lon, c.radius_m * 1.01 + 10.0) for c in req.near_any]
        p.update(
            near_lat=[c.lat for c in req.near_any],
            near_lon=[c.lon for c in req.near_any],
            near_radius=[c.radius_m for c in req.near_any],
            near_min_lat=min(b[0] for b in boxes),
            near_max_lat=max(b[1] for b in boxes),
            near_min_lon=min(b[2] for b in boxes),
            near_max_lon=max(b[3] for b in boxes),
        )


def inner_box(lat: float, lon: float, radius_m: float) -> tuple[float, float, float, float]:
    """``(min_lat, max_lat, min_lon, max_lon)`` of a box inside the circle: its half-sides are
    0.7 of the radius (east-west at the box's latitude nearest the equator, where a degree of
    longitude is longest), so its corners are under 0.99 of the radius away by the haversine and
    the exact test may be skipped for the rows in it. An empty box (min above max) when the
    circle is too large or too near a pole for that bound."""
    from matjip.geo.distance import EARTH_RADIUS_M

    angular = radius_m / EARTH_RADIUS_M
    dlat = math.degrees(INNER_SHARE * angular)
    nearest_equator = max(0.0, abs(lat) - dlat)
    if radius_m > INNER_MAX_M or abs(lat) + dlat > INNER_MAX_LAT:
        return 1.0, 0.0, 1.0, 0.0
    dlon = math.degrees(INNER_SHARE * angular / math.cos(math.radians(nearest_equator)))
    return lat - dlat, lat + dlat, lon - dlon, lon + dlon


def knn_limit(k: int) -> int:
    """The rows of a kNN search's vector list (a ``+hits`` statement): the hits are its first
    ``k`` in the exact order, so ``k`` and the margin past the cut, not the fused list's depth."""
    return min(VECTOR_DEPTH, max(1, k)) + MARGIN


def code_err(qv: npt.NDArray[np.float32], dim: int) -> float:
    """The factor of a row's ``vnorm + 1`` bounding how far its code's inner product with ``qv``
    lies from the exact one (:data:`CODE_ERR`; the float4 sums' share grows with ``dim``)."""
    norm = float(np.linalg.norm(qv.astype(np.float64)))
    scale = max(1.0, dim / 256)
    return CODE_ERR * scale * norm + CODE_ERR_ABS * scale


def unpack_vector(data: bytes) -> npt.NDArray[np.float32]:
    """A vector as pgvector's binary form holds it (``vector_send``: the dimension and a reserved
    word as int16, then big-endian float4s), the same floats bit for bit, without the text round
    trip (formatting and parsing 256 floats a row cost more than the search's own scan of a small
    candidate set)."""
    dim = int.from_bytes(data[:2], "big")
    return np.frombuffer(data, dtype=">f4", count=dim, offset=4).astype(np.float32)


def unpack_vectors(data: Sequence[bytes]) -> npt.NDArray[np.float32]:
    """Vectors of one dimension in pgvector's binary form, as rows of one matrix (one conversion,
    not one a vector): the same floats as :func:`unpack_vector` gives each."""
    dim = int.from_bytes(data[0][:2], "big")
    raw = np.frombuffer(b"".join(data), dtype=np.uint8).reshape(len(data), 4 + 4 * dim)
    return raw[:, 4:].copy().view(">f4").astype(np.float32)


def like(needle: str) -> str:
    """A LIKE pattern that matches where ``needle`` occurs (``strpos(text, needle) > 0``)."""
    return "%" + needle.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def bigrams(text: str) -> set[str]:
    """The character bigrams of ``text``, as ``pg_sql``'s derived ``menu_grams`` holds them."""
    return {text[i : i + 2] for i in range(len(text) - 1)}


_LIKE_FIELDS = frozenset({"sub_category", "menu", "exclude_menu"})


def _key_params(req: SearchRequest, p: dict[str, Any], names: list[str]) -> None:
    lists = (
        ("cuisine", req.cuisine),
        ("sub_category", req.sub_category),
        ("menu", req.menu),
        ("kind", req.kind),
        ("exclude_kind", req.exclude_kind),
        ("exclude_cuisine", req.exclude_cuisine),
        ("exclude_menu", req.exclude_menu),
    )
    for name, values in lists:
        if values:
            names.append(name)
            keys = [normalize_key(v) for v in values]
            p[name] = [like(k) for k in keys] if name in _LIKE_FIELDS else keys
            if name == "menu" and (grams := sorted({g for k in keys for g in bigrams(k)})):
                names.append("menu_grams")
                p["menu_grams"] = grams
    if req.exclude_title:
        keys = [normalize_key(t) for t in req.exclude_title if normalize_key(t)]
        if keys:
            names.append("exclude_title")
            p["exclude_title"] = [like(k) for k in keys]
    if req.convenience:
        names.append("convenience")
        p["convenience"] = [normalize_key(v) for v in req.convenience]


def filter_params(
    req: SearchRequest, timezone: tzinfo, polygon_rows: Callable[[str | None], list[int]]
) -> tuple[dict[str, Any], list[str] | None]:
    """Bound parameters and the names of the filter clauses; None when nothing can pass."""
    p: dict[str, Any] = {"geo_on": req.geo is not None, "geo_lat": None, "geo_lon": None}
    names: list[str] = []
    _geo_params(req, p, names)
    if req.region is not None:
        names.append("region")
        needles = [" " + normalize_phrase(t) for t in req.region.terms if t.strip()]
        p["region_needles"] = [like(n) for n in needles]
        p["region_seqs"] = polygon_rows(req.region.polygon_place)
        # every needle's bigrams are in an address holding it: the ones all needles share narrow
        # the rows by the address's bigram index (no outline's rows, which hold no needle)
        shared = set.intersection(*(bigrams(n) for n in needles)) if needles else set()
        if shared and not p["region_seqs"]:
            names.append("region_grams")
            p["region_grams"] = sorted(shared)
    _key_params(req, p, names)
    p["boost_key"] = None
    if req.title is not None:
        words = title_words(req.title)
        if not words:
            return p, None
        key = "".join(words)
        names.append("title")
        p.update(
            title_key=key,
            title_len=len(key),
            title_branch=MAX_BRANCH_CHARS,
            title_suffixes=list(BRANCH_SUFFIXES),
            title_words=sorted(set(words)),
            boost_key=key,
        )
    if req.price is not None:
        names.append("price")
        cap = 2**62  # no menu costs more; int8range's inclusive bound stays in range
        p.update(price_low=min(req.price.low, cap), price_high=min(req.price.high, cap))
    if req.open_at is not None:
        names.append("open_at")
        minutes = []
        for when in req.open_at.instants():
            t = when.astimezone(timezone)
            minutes.append(t.weekday() * 1440 + t.hour * 60 + t.minute)
        points = ",".join(f"[{m},{m + 1})" for m in sorted(set(minutes)))
        p.update(open_minutes="{" + points + "}", open_unknown=req.open_at.include_unknown)
    if req.exclude_ids:
        names.append("exclude_ids")
        p["exclude_ids"] = list(req.exclude_ids)
    return p, names


def polygon_rows(run: Run, key: str | None) -> list[int]:
    """Rows whose coordinates lie inside the gazetteer outline ``key`` (tested in Python)."""
    if not key:
        return []
    place = polygon_place(key)
    if place is None:
        return []
    from matjip.geo import get_gazetteer

    rows = run(pg_sql.COORDINATES)
    if not rows:
        return []
    seqs = np.asarray([r[0] for r in rows], dtype=np.int64)
    inside = get_gazetteer().contains_points(
        place, np.asarray([r[1] for r in rows], np.float64), np.asarray([r[2] for r in rows], np.float64)
    )
    if inside is None:
        return []
    return [int(s) for s in seqs[np.asarray(inside, dtype=np.bool_)].tolist()]


def distances_m(req: SearchRequest, lats: Sequence[float | None], lons: Sequence[float | None]) -> FloatArray:
    """The haversine distance of each point from the request's geo centre."""
    from matjip.geo.distance import haversine_m_array

    assert req.geo is not None
    la = np.asarray([math.nan if v is None else v for v in lats], dtype=np.float64)
    lo = np.asarray([math.nan if v is None else v for v in lons], dtype=np.float64)
    return haversine_m_array(req.geo.lat, req.geo.lon, la, lo)


class DocFreqs:
    """Documents holding each term, cached per index version (any write starts a new one; the last
    few are kept, as replicas may be at different ones). The version is read in the same snapshot
    as the rows, so counts never come from another version."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._df: OrderedDict[str, dict[str, int]] = OrderedDict()  # index version → term → docs

    def cached(self, terms: list[str], version: str) -> dict[str, int] | None:
        """The frequencies of ``terms`` when every one is cached for ``version``, else None."""
        with self._lock:
            cache = self._df.get(version)
            if cache is None or any(t not in cache for t in terms):
                return None
            return {t: cache[t] for t in terms}

    def get(self, run: Run, terms: list[str], version: str) -> dict[str, int]:
        with self._lock:
            cache = self._df.get(version)
            if cache is None:
                cache = self._df[version] = {}
                while len(self._df) > DF_VERSIONS:
                    self._df.popitem(last=False)
            else:
                self._df.move_to_end(version)
            known = {t: cache[t] for t in terms if t in cache}
        missing = [t for t in terms if t not in known]
        if missing:
            found = {str(t): int(n) for t, n in run(pg_sql.DOC_FREQ, {"terms": missing})}
            with self._lock:
                if len(cache) > DF_CACHE:
                    cache.clear()
                cache.update({t: found.get(t, 0) for t in missing})
            known.update({t: found.get(t, 0) for t in missing})
        return {t: known[t] for t in terms}


def _wanted(req: SearchRequest, terms: Sequence[str], qv: npt.NDArray[np.float32] | None) -> set[str]:
    """The lists :func:`matjip.index.ranking.rank` will read for ``req`` (others are read on demand)."""
    if req.sort == "distance":
        return {"nearest", "bm25"} if terms else {"nearest"}
    if terms or qv is not None:
        want = {"bm25"} if terms else set()
        if qv is not None:
            want.add("vector")
        if qv is None or req.k > VECTOR_DEPTH:  # the fused lists may fall short: filled up by prior
            want.add("prior")
        return want
    return {"prior"}


class _QueryOnce:
    """An embedder that embeds a request's query text once: the search statement and the ranking
    both ask for its vector (the same floats, the second time without the model)."""

    def __init__(self, embedder: Embedder) -> None:
        self._inner = embedder
        self.name = embedder.name
        self.dim = embedder.dim
        self._last: tuple[str, npt.NDArray[np.float32]] | None = None

    def fit(self, texts: Sequence[str]) -> None:
        self._inner.fit(texts)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        return self._inner.embed_documents(texts)

    def embed_query(self, text: str) -> np.ndarray:
        if self._last is None or self._last[0] != text:
            self._last = (text, np.asarray(self._inner.embed_query(text), dtype=np.float32))
        return self._last[1].copy()

    def save(self, directory: Path) -> None:
        self._inner.save(directory)

    def load(self, directory: Path) -> None:
        self._inner.load(directory)


class PgCandidates:
    """The candidates of one request in one read snapshot (the filter clauses ``names`` with their
    bound ``params``): :meth:`fetch` runs the search statement, the ranking then reads its lists."""

    def __init__(
        self,
        run: Run,
        embedder: Embedder,
        req: SearchRequest,
        params: dict[str, Any],
        names: list[str],
        stats: tuple[int, int, str],
        doc_freqs: DocFreqs,
        *,
        hnsw: bool = False,
    ) -> None:
        self.run = run
        self._embedder = _QueryOnce(embedder)
        self.req = req
        self.params = params
        self.names = names
        self.stats = stats
        self.doc_freqs = doc_freqs
        self.hnsw = hnsw  # an unfiltered search's vector list from the HNSW index (else exact)
        self.total = 0
        self.approximate = False  # the vector list came from the HNSW index
        self.lists: dict[str, list[tuple[Any, ...]]] = {}
        self._where: dict[int, tuple[float | None, float | None]] = {}
        self._weights: dict[str, np.float32] = {}
        self._avg = np.float32(1.0)
        self.folded: dict[int, tuple[Any, ...]] | None = None  # seq → hit row, from a kNN statement

    @property
    def embedder(self) -> Embedder:
        return self._embedder

    @property
    def dim(self) -> int:
        return int(self._embedder.dim)

    # -- the search statement ---------------------------------------------------------------

    def fetch(self, mode: SearchMode) -> int:
        """Run the search statement for what ``mode`` ranks by; returns the number of candidates."""
        statement = self.statement(mode)
        assert statement is not None
        return self.take(statement, self.run(statement.sql, statement.params))

    def statement(
        self, mode: SearchMode, *, cached_only: bool = False, hits: bool = False
    ) -> SearchStatement | None:
        """The search statement for what ``mode`` ranks by, with its parameters. ``cached_only``:
        None when a term's document frequency is not cached (it would take a statement first).
        ``hits``: a search ranked by its BM25 or vector list (no order by distance) takes the variant
        with the hit rows of the lists' first rows."""
        req = self.req
        terms = query_terms(req.text) if req.text and mode != "vector" else []
        qv = query_vector(self, req.text) if req.text and mode != "bm25" else None
        want = _wanted(req, terms, qv)
        docs_n, tokens, version = self.stats
        all_rows = not self.names
        weights: list[float] = []
        postings = 0
        if terms:
            df = self.doc_freqs.cached(terms, version) if cached_only else None
            if df is None:
                if cached_only:
                    return None
                df = self.doc_freqs.get(self.run, terms, version)
            n = max(1, docs_n)
            self._weights = {t: idf(df.get(t, 0), n) * (np.float32(1.0) + K1) for t in terms}
            avg = np.float32(tokens) / np.float32(n)
            self._avg = avg if avg > 0 else np.float32(1.0)
            weights = [float(self._weights[t]) for t in terms]
            postings = sum(df.values())
        k = req.k
        params = {
            **self.params,
            "all_rows": all_rows,
            "terms": terms,
            "weights": weights,
            "k1": float(K1),
            "b": float(B),
            "avgdl": float(self._avg),
            "qv": [float(x) for x in qv.tolist()] if qv is not None else None,
            "small_max": postings // max(1, PROBE_COST * len(terms)),
            "all_exact": not self.hnsw,
            "bm25_limit": BM25_DEPTH + MARGIN,
            "vector_limit": VECTOR_DEPTH + MARGIN,
            "ann_limit": max(VECTOR_DEPTH + MARGIN, ANN_LIMIT),
            "code_err": code_err(qv, self.dim) if qv is not None else 0.0,
            "prior_limit": 2 * k + MARGIN,
            "nearest_limit": k + MARGIN,
            **{f"want_{part}": part in want for part in _PARTS},
        }
        # the statement's variant with only the wanted parts (the others' flags are off anyway),
        # its candidates from the narrow matjip_keys when every filter's columns are there
        keys = not all_rows and set(self.names) <= pg_sql.KEY_FILTERS
        hits = (
            hits and want <= pg_sql.HIT_PARTS and bool(want & {"bm25", "vector"}) and req.sort != "distance"
        )
        if hits:
            params["hit_limit"] = k + HIT_MARGIN
            if want == {"vector"}:
                # a kNN search shows the list's first k rows: its list is cut k + MARGIN rows down (every
                # vector read back crosses to the client; the exact order of the first k needs no more)
                params["vector_limit"] = knn_limit(k)
        template = pg_sql.search_template(all_rows, sorted(want), keys, hits)
        sql = pg_sql.compose(template, self.names)
        # a filtered vector list is exact, with HNSW on too: the codes scored in the filter scan
        # cost less than a walk kept to the candidates (fifteenth round, README)
        coded = keys and "vector" in want
        return SearchStatement(
            sql=sql, params=params, want=frozenset(want), all_rows=all_rows, hits=hits, coded=coded
        )

    def take(self, statement: SearchStatement, rows: list[tuple[Any, ...]]) -> int:
        """Keep the lists of the search statement's ``rows``; returns the number of candidates."""
        parts: dict[int, list[tuple[Any, ...]]] = {}
        for r in rows:
            parts.setdefault(int(r[0]), []).append(r)
        all_rows, want = statement.all_rows, statement.want
        self.total = self.stats[0] if all_rows else int(parts[0][0][2])
        for part, i in _PARTS.items():
            if part in want and not (part == "vector" and not self._vector_ran(all_rows, parts.get(i, []))):
                self.lists[part] = parts.get(i, [])
                for r in self.lists[part]:
                    self._where[int(r[1])] = (r[3], r[4])
        if statement.hits:
            # seq → (seq, doc, terms, vector, lat, lon, prior), as QUERIES["rows"] gives a hit row
            # (a vector row's vector in its own column, a BM25 row's in the last)
            self.folded = {
                int(r[1]): (r[1], r[12], r[13], r[10] if r[10] is not None else r[17], r[14], r[15], r[16])
                for i in (_PARTS["bm25"], _PARTS["vector"])
                for r in parts.get(i, [])
                if r[12] is not None
            }
        return self.total

    def _vector_ran(self, all_rows: bool, rows: list[tuple[Any, ...]]) -> bool:
        """Whether the statement's vector list is the one to use: the exact scan's, or with HNSW and
        no filter the index's when the walk gave as many rows as asked (else the exact scan runs)."""
        if not self.hnsw or not all_rows:
            return True
        walked = int(rows[0][9]) if rows else 0  # the walk's row count rides in the field norm's column
        self.approximate = walked >= min(max(VECTOR_DEPTH + MARGIN, ANN_LIMIT), self.total)
        return self.approximate

    # -- the lists the ranking reads ------------------------------------------------------------

    def bm25(self, terms: Sequence[str]) -> fusion.Ranked:
        """The best ``BM25_DEPTH`` BM25 hits inside the candidates, tantivy's scores, best first."""
        rows = self.lists.get("bm25", [])
        if not rows:
            return np.zeros(0, np.int64), np.zeros(0, np.float64)
        seqs = np.asarray([r[1] for r in rows], dtype=np.int64)
        scores = np.zeros(len(rows), dtype=np.float32)
        w = [self._weights[t] for t in terms]
        for j, r in enumerate(rows):
            tf_at = dict(zip(r[7], r[8], strict=True))  # 1-based query term position → tf
            cache = K1 * ((np.float32(1.0) - B) + (B * np.float32(r[9])) / self._avg)
            total = np.float32(0.0)
            for i in range(len(terms)):
                tf = tf_at.get(i + 1)
                if tf:
                    f = np.float32(tf)
                    total = np.float32(total + w[i] * (f / (f + cache)))
            scores[j] = total
        order = np.lexsort((seqs, -scores.astype(np.float64)))[:BM25_DEPTH]
        return seqs[order], scores[order].astype(np.float64)

    def vector(self, qv: npt.NDArray[np.float32]) -> fusion.Ranked:
        rows = self._vector_rows(qv)
        if not rows:
            return np.zeros(0, np.int64), np.zeros(0, np.float64)
        seqs = np.asarray([r[0] for r in rows], dtype=np.int64)
        mat = unpack_vectors([r[1] for r in rows])
        sims = np.einsum("ij,j->i", mat, qv).astype(np.float64)
        order = np.lexsort((seqs, -sims))[: min(VECTOR_DEPTH, len(rows))]
        return seqs[order], sims[order]

    def _vector_rows(self, qv: npt.NDArray[np.float32]) -> list[tuple[Any, ...]]:
        """(seq, vector) of the best candidates by inner product: the search statement's (exact, or
        from the HNSW index), else (the walk fell short) an exact scan."""
        if "vector" in self.lists:
            return [(r[1], r[10]) for r in self.lists["vector"]]
        params = {**self.params, "qv": [float(x) for x in qv.tolist()], "limit": VECTOR_DEPTH + MARGIN}
        rows = self.run(pg_sql.compose("vector", self.names), params)
        self._remember(rows)
        return [(r[0], r[1]) for r in rows]

    def _remember(self, rows: list[tuple[Any, ...]]) -> None:
        for r in rows:
            self._where[int(r[0])] = (r[2], r[3])

    def nearest(self, k: int) -> list[int]:
        rows = self.lists.get("nearest")
        if rows is not None:
            found = [(r[1], r[5], r[3], r[4]) for r in rows]
        else:
            found = self.run(pg_sql.compose("distance", self.names), {**self.params, "limit": k + MARGIN})
        seqs = np.asarray([r[0] for r in found], dtype=np.int64)
        prior = np.asarray([np.float32(r[1]) for r in found], dtype=np.float32)
        d = distances_m(self.req, [r[2] for r in found], [r[3] for r in found])
        return [int(s) for s in seqs[np.lexsort((seqs, -prior, d))[:k]].tolist()]

    def by_prior(self, k: int, exclude: Sequence[int] | None = None) -> list[int]:
        rows = self.lists.get("prior")
        limit = 2 * self.req.k + MARGIN
        gone = set(exclude or ())
        if rows is not None and (len(rows) < limit or len(rows) - len(gone) >= k + MARGIN):
            kept = [(r[1], r[5], r[3], r[4], r[6]) for r in rows if int(r[1]) not in gone]
        else:
            params, names = self.params, self.names
            if exclude is not None:
                params, names = {**params, "chosen": list(exclude)}, [*names, "not_chosen"]
            kept = self.run(pg_sql.compose("prior", names), {**params, "limit": k + MARGIN})
        if not kept:
            return []
        seqs = np.asarray([r[0] for r in kept], dtype=np.int64)
        key = np.asarray([np.float32(r[1]) for r in kept], dtype=np.float32).astype(np.float64)
        key = key + np.asarray([bool(r[4]) for r in kept], dtype=np.float64) * 10.0
        if self.req.geo:
            d = distances_m(self.req, [r[2] for r in kept], [r[3] for r in kept])
        else:
            d = np.zeros(len(kept))
        order = np.lexsort((seqs, d, -key))[:k]
        return [int(s) for s in seqs[order].tolist()]

    def distances(self, rows: IntArray) -> FloatArray:
        if self.req.geo is None or not len(rows):
            return np.zeros(len(rows))
        seqs = [int(s) for s in rows.tolist()]
        missing = [s for s in seqs if s not in self._where]
        if missing:
            for r in self.run(pg_sql.QUERIES["locate"], {"seqs": missing}):
                self._where[int(r[0])] = (r[1], r[2])
        return distances_m(self.req, [self._where[s][0] for s in seqs], [self._where[s][1] for s in seqs])

    def hit_rows(self, rows: list[int]) -> list[HitRow]:
        folded = self.folded
        if folded is not None and all(seq in folded for seq in rows):
            found = folded  # with the search statement (a kNN search)
        else:  # the read's last statement: its COMMIT goes with it
            found = {int(r[0]): r for r in self.run(pg_sql.QUERIES["rows"], {"seqs": rows}, last=True)}
        out: list[HitRow] = []
        for seq in rows:
            _, raw, doc_terms, vec, lat, lon, prior32 = found[seq]
            distance = float(distances_m(self.req, [lat], [lon])[0]) if self.req.geo is not None else None
            doc = Restaurant.model_validate_json(raw)
            out.append(HitRow(doc, doc_terms, unpack_vector(vec), float(np.float32(prior32)), distance))
        return out
