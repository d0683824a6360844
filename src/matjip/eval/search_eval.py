"""``matjip eval search``: the labelled structured-search set against a brute-force reference.

Each line of ``search_set.jsonl`` is one request a user might make::

    {"id": "geo-jamsil-japanese",
     "description": "잠실역 근처 일식집",                 # what the user meant (Korean)
     "request": {"near": "잠실역", "radius_m": 1000,      # gazetteer name, resolved at run time
                 "cuisine": ["일식"], "k": 10},           # any other SearchRequest field
     "semantic": {"text": "조용한 분위기",                 # becomes SearchRequest.text
                  "grades": {"2": {...rule...}, "1": [{...}, {...}]}}}

``request`` holds :class:`~matjip.index.request.SearchRequest` fields, except that a circle is
written ``"near": <place name>`` (+ optional ``"radius_m"``, else the place's default radius) and
a region may say ``"polygon_of": <dong name>`` to search inside that dong's outline. ``k``
defaults to :data:`DEFAULT_K` (nDCG@5 needs at least five hits). ``semantic`` is optional: a
filter-only request has no semantic part and no nDCG.

Grades are rules over document fields, assigned by hand per query. ``grades`` maps a grade
(``"1"``..``"3"``) to a rule or a list of rules (any of them); a document's grade is the highest
grade with a matching rule, 0 otherwise. A rule is a dict whose conditions must all hold (see
:data:`RULE_KEYS`), for instance ``{"atmosphere_any": ["분위기 좋은"], "tag_min": {"분위기": 5}}``.
``{"place_ids": [...]}`` names documents judged one by one.

Metrics (:class:`SearchEvalReport`):

- **hard-constraint precision**: share of all returned hits whose place id is in the brute-force
  set (:func:`matjip.index.reference.brute_force_filter` over the store's documents). Must be 1.
- **recall**: share of the queries with a non-empty brute-force set that return at least one
  hit (must be 1); also mean recall@k = |hits ∩ brute| / min(k, |brute|).
- **candidate agreement**: ``total_candidates`` of the response equals |brute| (should be 1).
- **distance order**: for ``sort="distance"``, the hits are the k nearest of the brute-force set.
- **nDCG@5** of the semantic part: graded labels of the returned ranking against the ideal
  ranking of the brute-force set's grades; gain ``2^g - 1``, discount ``log2(rank + 1)``.
  Queries whose candidates are all grade 0 have no nDCG and are left out of the mean.
- **latency** p50/p95 of ``index.search`` (wall clock, after a warm-up).
"""

from __future__ import annotations

import json
import math
import statistics
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Literal, Protocol

from matjip.documents import Restaurant
from matjip.index.reference import (
    brute_force_filter,
    distance_m,
    menu_entries,
    normalize_key,
    passes,
    polygon_test,
)
from matjip.index.request import GeoFilter, RegionFilter, SearchRequest, SearchResponse

SET_NAME = "search_set.jsonl"
DEFAULT_K = 10
NDCG_K = 5
FILTER_FIELDS = (
    "geo",
    "region",
    "cuisine",
    "sub_category",
    "menu",
    "convenience",
    "title",
    "price",
    "open_at",
    "exclude_ids",
)
RULE_KEYS = frozenset(
    {
        "cuisine_any",  # doc.cuisine is one of these
        "category_any",  # some value is a substring of doc.category (normalised)
        "menu_any",  # some value is a substring of a menu name or review_food entry (normalised)
        "title_any",  # some value is a substring of the title (normalised)
        "atmosphere_any",
        "occasion_any",
        "features_any",
        "convenience_any",  # the field holds one of these values
        "tag_min",  # {visitor tag: minimum count}, all must hold
        "rating_min",  # rating known and >= value
        "place_ids",  # judged by hand
        "not",  # a nested rule that must not match
    }
)
Mode = Literal["hybrid", "bm25", "vector"]


class Searchable(Protocol):
    def search(self, req: SearchRequest) -> SearchResponse: ...


# -- grading --------------------------------------------------------------------------------


Rule = Mapping[str, Any]


def _check_rule(rule: Rule, where: str) -> None:
    if not isinstance(rule, Mapping) or not rule:
        raise ValueError(f"{where}: a rule must be a non-empty object")
    unknown = set(rule) - RULE_KEYS
    if unknown:
        raise ValueError(f"{where}: unknown rule keys {sorted(unknown)}")
    if "not" in rule:
        _check_rule(rule["not"], where + ".not")


class _Facts:
    """Normalised fields of one document, computed on first use (rules ask for them often)."""

    def __init__(self, doc: Restaurant) -> None:
        self.doc = doc
        self._menu: list[str] | None = None
        self._category: str | None = None
        self._title: str | None = None

    @property
    def menu(self) -> list[str]:
        if self._menu is None:
            self._menu = menu_entries(self.doc)
        return self._menu

    @property
    def category(self) -> str:
        if self._category is None:
            self._category = normalize_key(self.doc.category)
        return self._category

    @property
    def title(self) -> str:
        if self._title is None:
            self._title = normalize_key(self.doc.title)
        return self._title


_NORMALISED = ("cuisine_any", "category_any", "menu_any", "title_any")
_FIELD_SETS = ("atmosphere_any", "occasion_any", "features_any", "convenience_any", "place_ids")


def compile_rule(rule: Rule) -> dict[str, Any]:
    """``rule`` with its values normalised once (what :func:`_match` expects)."""
    out: dict[str, Any] = {}
    for key, value in rule.items():
        if key in _NORMALISED:
            out[key] = tuple(normalize_key(str(v)) for v in value)
        elif key in _FIELD_SETS:
            out[key] = frozenset(str(v) for v in value)
        elif key == "tag_min":
            out[key] = {str(t): int(n) for t, n in value.items()}
        elif key == "rating_min":
            out[key] = float(value)
        elif key == "not":
            out[key] = compile_rule(value)
        else:
            raise ValueError(f"unknown rule key {key!r}")
    return out


def _match(facts: _Facts, rule: Mapping[str, Any]) -> bool:
    d = facts.doc
    for key, value in rule.items():
        if key == "cuisine_any":
            ok = normalize_key(d.cuisine) in value
        elif key == "category_any":
            ok = any(v in facts.category for v in value)
        elif key == "menu_any":
            ok = any(v in e for v in value for e in facts.menu)
        elif key == "title_any":
            ok = any(v in facts.title for v in value)
        elif key == "place_ids":
            ok = d.place_id in value
        elif key in _FIELD_SETS:
            ok = not value.isdisjoint(getattr(d, key.removesuffix("_any")))
        elif key == "tag_min":
            ok = all(d.review_keywords.get(tag, 0) >= n for tag, n in value.items())
        elif key == "rating_min":
            ok = d.rating is not None and d.rating >= value
        else:  # "not"
            ok = not _match(facts, value)
        if not ok:
            return False
    return True


def rule_matches(doc: Restaurant, rule: Rule) -> bool:
    """Whether ``doc`` satisfies every condition of ``rule``."""
    return _match(_Facts(doc), compile_rule(rule))


@dataclass(frozen=True)
class Grades:
    """Graded relevance rules of one query: grade -> rules (any of them)."""

    levels: tuple[tuple[int, tuple[Rule, ...]], ...]  # highest grade first, compiled rules

    @classmethod
    def parse(cls, raw: Mapping[str, Any], where: str = "grades") -> Grades:
        levels: list[tuple[int, tuple[Rule, ...]]] = []
        for g, rules in raw.items():
            grade = int(g)
            if grade < 1:
                raise ValueError(f"{where}: grades start at 1 (0 is 'no rule matched')")
            alts = tuple(rules) if isinstance(rules, list) else (rules,)
            for i, r in enumerate(alts):
                _check_rule(r, f"{where}[{g}][{i}]")
            levels.append((grade, tuple(compile_rule(r) for r in alts)))
        if not levels:
            raise ValueError(f"{where}: no grades")
        return cls(tuple(sorted(levels, key=lambda x: -x[0])))

    def grade(self, doc: Restaurant) -> int:
        facts = _Facts(doc)
        for g, rules in self.levels:
            if any(_match(facts, r) for r in rules):
                return g
        return 0

    @property
    def max_grade(self) -> int:
        return self.levels[0][0]


def dcg(grades: Sequence[int], k: int = NDCG_K) -> float:
    """Discounted cumulative gain of the first ``k`` grades: Σ (2^g − 1) / log2(rank + 1)."""
    return sum((2.0**g - 1.0) / math.log2(i + 2) for i, g in enumerate(grades[:k]))


def ndcg(ranked: Sequence[int], candidates: Iterable[int], k: int = NDCG_K) -> float | None:
    """nDCG@k of ``ranked`` (grades of the returned hits, in order) against the best ranking of
    ``candidates`` (the grades of every document that passes the filters). None when no
    candidate has a positive grade (the query cannot tell rankings apart)."""
    ideal = dcg(sorted(candidates, reverse=True), k)
    if ideal <= 0:
        return None
    return min(1.0, dcg(ranked, k) / ideal)


# -- the set --------------------------------------------------------------------------------


@dataclass(frozen=True)
class EvalItem:
    id: str
    description: str
    request: SearchRequest
    grades: Grades | None = None
    near: str | None = None

    @property
    def filters(self) -> list[str]:
        """Names of the hard filters this request uses (for the coverage line)."""
        out = [f for f in FILTER_FIELDS if getattr(self.request, f)]
        if self.request.region is not None and self.request.region.polygon_place:
            out.append("region_polygon")
        if self.request.sort == "distance":
            out.append("sort_distance")
        if self.request.text:
            out.append("text")
        return out


def _resolve_place(name: str) -> tuple[float, float, int, str]:
    from matjip.geo.gazetteer import Gazetteer

    found = Gazetteer.load().lookup(name)
    if not found:
        raise ValueError(f"unknown place {name!r}")
    p = found[0]
    return p.lat, p.lon, p.default_radius_m, p.key


def _resolve_polygon(name: str) -> str:
    from matjip.geo.gazetteer import Gazetteer, PlaceType

    for p in Gazetteer.load().lookup(name):
        if p.type is PlaceType.LEGAL_DONG:
            return p.key
    raise ValueError(f"no legal dong outline for {name!r}")


def build_request(raw: Mapping[str, Any], text: str = "") -> SearchRequest:
    """A :class:`SearchRequest` from a set line's ``request`` (resolving ``near``/``polygon_of``)."""
    data = dict(raw)
    near = data.pop("near", None)
    radius = data.pop("radius_m", None)
    if near is not None:
        lat, lon, default_radius, _ = _resolve_place(str(near))
        data["geo"] = GeoFilter(lat=lat, lon=lon, radius_m=float(radius or default_radius))
    elif radius is not None:
        raise ValueError("radius_m without near")
    region = data.get("region")
    if isinstance(region, Mapping):
        region = dict(region)
        poly = region.pop("polygon_of", None)
        if poly is not None:
            region["polygon_place"] = _resolve_polygon(str(poly))
        data["region"] = RegionFilter(**region)
    if text:
        data["text"] = text
    data.setdefault("k", DEFAULT_K)
    return SearchRequest(**data)


def parse_item(obj: Mapping[str, Any]) -> EvalItem:
    iid = str(obj["id"])
    unknown = set(obj) - {"id", "description", "request", "semantic"}
    if unknown:
        raise ValueError(f"{iid}: unknown keys {sorted(unknown)}")
    semantic = obj.get("semantic")
    text = ""
    grades = None
    if semantic is not None:
        text = str(semantic["text"])
        grades = Grades.parse(semantic["grades"], f"{iid}.grades")
    raw = obj.get("request") or {}
    if "text" in raw:
        raise ValueError(f"{iid}: put the text in semantic.text")
    return EvalItem(
        id=iid,
        description=str(obj.get("description", "")),
        request=build_request(raw, text),
        grades=grades,
        near=raw.get("near"),
    )


def load_set(name: str = SET_NAME) -> list[EvalItem]:
    text = resources.files("matjip.eval").joinpath(name).read_text(encoding="utf-8")
    items = [parse_item(json.loads(line)) for line in text.splitlines() if line.strip()]
    ids = Counter(it.id for it in items)
    dup = [i for i, n in ids.items() if n > 1]
    if dup:
        raise ValueError(f"duplicate ids in {name}: {dup}")
    return items


# -- the brute-force reference --------------------------------------------------------------


@dataclass(frozen=True)
class Reference:
    """What the documents say about one item: the passing ids and their grades and distances."""

    brute: frozenset[str]
    grades: Mapping[str, int]  # place id -> grade (only with semantic grades)
    distances: Mapping[str, float]  # place id -> metres (only with geo)


def reference(items: Sequence[EvalItem], docs: Iterable[Restaurant]) -> dict[str, Reference]:
    latest: dict[str, Restaurant] = {}
    for d in docs:
        latest[d.place_id] = d
    out: dict[str, Reference] = {}
    for it in items:
        brute = brute_force_filter(latest.values(), it.request)
        grades = {pid: it.grades.grade(latest[pid]) for pid in brute} if it.grades is not None else {}
        geo = it.request.geo
        dists: dict[str, float] = {}
        if geo is not None:
            for pid in brute:
                dm = distance_m(latest[pid], geo.lat, geo.lon)
                if dm is not None:
                    dists[pid] = dm
        out[it.id] = Reference(frozenset(brute), grades, dists)
    return out


def failed_filters(doc: Restaurant, req: SearchRequest) -> list[str]:
    """Which of ``req``'s hard filters ``doc`` fails, each tested on its own."""
    out: list[str] = []
    for f in FILTER_FIELDS:
        value = getattr(req, f)
        if not value:
            continue
        single = SearchRequest(**{f: value})
        poly = None
        if f == "region" and req.region is not None and req.region.polygon_place:
            poly = polygon_test(req.region.polygon_place)
        if not passes(doc, single, poly):
            out.append(f)
    return out


# -- running --------------------------------------------------------------------------------


@dataclass(frozen=True)
class FusionConfig:
    """Settings overrides for a fusion comparison row (None keeps the index's setting)."""

    fusion: Literal["rrf", "convex"]
    weight_bm25: float | None = None
    weight_vector: float | None = None
    rrf_k: int | None = None

    def update(self) -> dict[str, Any]:
        out: dict[str, Any] = {"fusion": self.fusion}
        for k in ("weight_bm25", "weight_vector", "rrf_k"):
            v = getattr(self, k)
            if v is not None:
                out[k] = v
        return out

    def label(self) -> str:
        if self.fusion == "rrf":
            return f"rrf k={self.rrf_k}" if self.rrf_k is not None else "rrf"
        if self.weight_bm25 is None and self.weight_vector is None:
            return "convex"
        return f"convex bm25={self.weight_bm25:g} vec={self.weight_vector:g}"


def with_fusion(index: Any, config: FusionConfig) -> Any:
    """The same index directory opened again with a settings copy carrying other fusion settings.

    The embedded index reads ``settings.fusion``/``weight_*``/``rrf_k`` on every search; a fresh
    instance (sharing the already loaded embedder, ~0.1 s on the demo) shares no caches with
    ``index`` and leaves it untouched."""
    settings = getattr(index, "settings", None)
    directory = getattr(index, "directory", None)
    embedder = getattr(index, "embedder", None)
    if settings is None or directory is None or embedder is None:
        raise TypeError(f"{type(index).__name__} cannot be reopened with other fusion settings")
    return type(index)(directory, embedder, settings.model_copy(update=config.update())).load()


def describe_fusion(index: Any) -> str:
    s = getattr(index, "settings", None)
    if s is None:
        return "?"
    if s.fusion == "rrf":
        return f"rrf k={s.rrf_k}"
    return f"convex bm25={s.weight_bm25:g} vec={s.weight_vector:g}"


@dataclass
class QueryResult:
    id: str
    brute: int
    k: int
    hits: list[str]
    wrong: list[str]
    total_candidates: int
    ms: float
    ndcg: float | None = None
    distance_ok: bool | None = None
    filtered: bool = True  # the request has hard filters (else text only)

    @property
    def recall_at_k(self) -> float | None:
        if not self.brute:
            return None
        return (len(self.hits) - len(self.wrong)) / min(self.k, self.brute)


@dataclass
class SearchEvalReport:
    label: str
    mode: str = "hybrid"
    results: list[QueryResult] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    coverage: Counter[str] = field(default_factory=Counter)

    @property
    def hits_checked(self) -> int:
        return sum(len(r.hits) for r in self.results)

    @property
    def hits_correct(self) -> int:
        return sum(len(r.hits) - len(r.wrong) for r in self.results)

    @property
    def precision(self) -> float:
        n = self.hits_checked
        return self.hits_correct / n if n else 1.0

    @property
    def nonempty(self) -> list[QueryResult]:
        return [r for r in self.results if r.brute]

    @property
    def recall(self) -> float:
        """Share of queries with a non-empty brute-force set that returned at least one hit."""
        q = self.nonempty
        return sum(1 for r in q if len(r.hits) > len(r.wrong)) / len(q) if q else 1.0

    @property
    def mean_recall_at_k(self) -> float:
        xs = [r.recall_at_k for r in self.nonempty if r.recall_at_k is not None]
        return statistics.fmean(xs) if xs else 1.0

    @property
    def false_hits_on_empty(self) -> int:
        return sum(len(r.hits) for r in self.results if not r.brute)

    @property
    def candidate_agreement(self) -> float:
        return sum(1 for r in self.results if r.total_candidates == r.brute) / max(1, len(self.results))

    @property
    def ndcgs(self) -> list[float]:
        return [r.ndcg for r in self.results if r.ndcg is not None]

    @property
    def ndcg(self) -> float:
        xs = self.ndcgs
        return statistics.fmean(xs) if xs else 0.0

    def ndcg_of(self, filtered: bool) -> float:
        """Mean nDCG@5 over the filtered (True) or text-only (False) graded queries."""
        xs = [r.ndcg for r in self.results if r.ndcg is not None and r.filtered == filtered]
        return statistics.fmean(xs) if xs else 0.0

    @property
    def distance_checks(self) -> list[bool]:
        return [r.distance_ok for r in self.results if r.distance_ok is not None]

    def latency(self, q: float) -> float:
        xs = sorted(r.ms for r in self.results)
        if not xs:
            return 0.0
        return xs[min(len(xs) - 1, max(0, math.ceil(q * len(xs)) - 1))]

    def rows(self) -> Iterator[tuple[str, str]]:
        n = len(self.results)
        empty = n - len(self.nonempty)
        yield "queries", f"{n} ({len(self.nonempty)} with candidates, {empty} with none)"
        yield "fusion / mode", f"{self.label} / {self.mode}"
        yield (
            "hard-constraint precision",
            f"{self.precision:.3f} ({self.hits_correct}/{self.hits_checked} hits)",
        )
        ok = sum(1 for r in self.nonempty if len(r.hits) > len(r.wrong))
        yield "recall (queries with ≥1 hit)", f"{self.recall:.3f} ({ok}/{len(self.nonempty)})"
        yield "mean recall@k vs min(k, |brute|)", f"{self.mean_recall_at_k:.3f}"
        yield "false hits on empty queries", str(self.false_hits_on_empty)
        agree = sum(1 for r in self.results if r.total_candidates == r.brute)
        yield "total_candidates = |brute|", f"{self.candidate_agreement:.3f} ({agree}/{n})"
        d = self.distance_checks
        if d:
            yield "distance sort = k nearest", f"{sum(d)}/{len(d)}"
        yield f"nDCG@{NDCG_K} (semantic)", f"{self.ndcg:.3f} ({len(self.ndcgs)} graded queries)"
        yield "latency p50 / p95 (ms)", f"{self.latency(0.5):.1f} / {self.latency(0.95):.1f}"

    def coverage_line(self) -> str:
        """How many requests use each filter type (and text, distance sort)."""
        return ", ".join(f"{k} {v}" for k, v in sorted(self.coverage.items()))


def _search(index: Searchable, req: SearchRequest, mode: Mode) -> SearchResponse:
    if mode == "hybrid":
        return index.search(req)
    return index.search(req, mode=mode)  # type: ignore[call-arg]


def _distance_ok(res: SearchResponse, ref: Reference, k: int) -> bool:
    got = [ref.distances.get(h.document.place_id, math.inf) for h in res.hits]
    want = sorted(ref.distances.values())[:k]
    return len(got) == len(want) and all(abs(a - b) <= 0.01 for a, b in zip(got, want, strict=True))


def run(
    index: Searchable,
    docs: Iterable[Restaurant],
    fusion_override: FusionConfig | None = None,
    *,
    mode: Mode = "hybrid",
    items: Sequence[EvalItem] | None = None,
    refs: Mapping[str, Reference] | None = None,
    warmup: int = 3,
) -> SearchEvalReport:
    """Run every item through ``index`` and score it against the brute-force reference.

    ``docs`` are the documents the index was built from (the store's); ``refs`` may pass a
    reference computed once by :func:`reference` (then ``docs`` is only used for failure
    messages). ``fusion_override`` searches the same index with other fusion settings.
    """
    items = list(items) if items is not None else load_set()
    by_id = {d.place_id: d for d in docs}
    if refs is None:
        refs = reference(items, by_id.values())
    if fusion_override is not None:
        index = with_fusion(index, fusion_override)
    label = describe_fusion(index) if mode == "hybrid" else f"{mode} only"
    report = SearchEvalReport(label=label, mode=mode)
    for it in items:
        report.coverage.update(it.filters)
    for it in items[:warmup]:
        _search(index, it.request, mode)
    for it in items:
        ref = refs[it.id]
        req = it.request
        started = time.perf_counter()
        res = _search(index, req, mode)
        ms = (time.perf_counter() - started) * 1000
        hits = [h.document.place_id for h in res.hits]
        wrong = [pid for pid in hits if pid not in ref.brute]
        r = QueryResult(
            id=it.id,
            brute=len(ref.brute),
            k=req.k,
            hits=hits,
            wrong=wrong,
            total_candidates=res.total_candidates,
            ms=ms,
            filtered=req.has_hard_filters or bool(req.exclude_ids),
        )
        for pid in wrong:
            doc = by_id.get(pid)
            why = failed_filters(doc, req) if doc is not None else ["not in the store"]
            report.failures.append(f"{it.id}: false hit {pid} {doc.title if doc else ''} fails {why}")
        if ref.brute and len(hits) == len(wrong):
            report.failures.append(f"{it.id}: no hit although {len(ref.brute)} documents pass")
        elif ref.brute and len(hits) - len(wrong) < min(req.k, len(ref.brute)):
            report.failures.append(
                f"{it.id}: {len(hits) - len(wrong)} hits, expected min(k={req.k}, {len(ref.brute)})"
            )
        if res.total_candidates != len(ref.brute):
            report.failures.append(
                f"{it.id}: total_candidates {res.total_candidates} ≠ brute force {len(ref.brute)}"
            )
        if req.sort == "distance" and ref.brute:
            r.distance_ok = _distance_ok(res, ref, req.k)
            if not r.distance_ok:
                report.failures.append(f"{it.id}: distance sort is not the k nearest")
        if it.grades is not None and req.text:
            r.ndcg = ndcg([ref.grades.get(pid, 0) for pid in hits], ref.grades.values())
        report.results.append(r)
    return report


DEFAULT_CONFIGS: tuple[FusionConfig, ...] = (
    FusionConfig("rrf", rrf_k=60),
    FusionConfig("rrf", rrf_k=20),
    FusionConfig("rrf", rrf_k=5),
    FusionConfig("convex", 0.5, 0.5),
    FusionConfig("convex", 0.3, 0.7),
    FusionConfig("convex", 0.7, 0.3),
    FusionConfig("convex", 0.2, 0.8),
    FusionConfig("convex", 0.8, 0.2),
)


def current_config(index: Any) -> FusionConfig:
    """The fusion settings ``index`` searches with now."""
    s = index.settings
    if s.fusion == "rrf":
        return FusionConfig("rrf", rrf_k=s.rrf_k)
    return FusionConfig("convex", s.weight_bm25, s.weight_vector)


def _ranking_key(index: Any, c: FusionConfig) -> tuple[object, ...]:
    """What decides the ranking (both fusions weight the lists; convex ignores rrf_k)."""
    s = index.settings.model_copy(update=c.update())
    weights = (s.weight_bm25, s.weight_vector)
    return ("rrf", s.rrf_k, *weights) if s.fusion == "rrf" else ("convex", *weights)


@dataclass
class Comparison:
    """One report per row; ``vs_first`` counts per-query nDCG@5 (better, same, worse) than row 0,
    which is the index's current fusion setting."""

    reports: list[SearchEvalReport]
    vs_first: list[tuple[int, int, int]]


def compare(
    index: Any,
    docs: Iterable[Restaurant],
    configs: Sequence[FusionConfig] = DEFAULT_CONFIGS,
    *,
    modes: Sequence[Mode] = ("bm25", "vector"),
    items: Sequence[EvalItem] | None = None,
) -> Comparison:
    """The current fusion, every other configuration in ``configs`` (hybrid mode), then each
    single list (``modes``) alone."""
    items = list(items) if items is not None else load_set()
    docs = list(docs)
    refs = reference(items, docs)
    base = current_config(index)
    rows = [base] + [c for c in configs if _ranking_key(index, c) != _ranking_key(index, base)]
    reports = [run(index, docs, c, items=items, refs=refs) for c in rows]
    for m in modes:
        reports.append(run(index, docs, base, mode=m, items=items, refs=refs))
    first = {r.id: r.ndcg for r in reports[0].results}
    vs_first: list[tuple[int, int, int]] = []
    for rep in reports:
        better = same = worse = 0
        for r in rep.results:
            a = first.get(r.id)
            if r.ndcg is None or a is None:
                continue
            if r.ndcg > a + 1e-9:
                better += 1
            elif r.ndcg < a - 1e-9:
                worse += 1
            else:
                same += 1
        vs_first.append((better, same, worse))
    return Comparison(reports, vs_first)
