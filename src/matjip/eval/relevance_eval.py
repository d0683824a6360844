"""``matjip eval relevance``: the judged relevance set, asked of the agent, graded on raw documents.

Each question of ``relevance_set.jsonl`` is asked in a new session (with its ``now`` and device
location); the first three cards are graded by :mod:`matjip.eval.relevance_judge` on the RAW crawl
record of each card (never on the product's own enrichment). Figures:

* **strict P@3** — grade-2 cards among the first three, over ``min(3, grade-2 pool)``; a missing
  card counts 0 (an answer shorter than it could have been loses).
* **lenient P@3** — the same with grade ≥ 1 cards over ``min(3, grade-2 + grade-1 pool)``.
* **wrong-kind rate** — shown cards whose raw record is not the asked kind, over all shown cards.
* **nDCG@3** — gains 2/1/0; the ideal ranking is built from the pool counts.
* **short answers** — fewer cards than ``min(3, grade-2 pool)`` although better ones exist.
* **pop@3** — how popular the first three cards are among the places that match: for each judged
  question with at least one matching place (grade ≥ 1 in the judge's pool), the percentile of each
  shown card's raw ``reviewCount`` among the review counts of all matching places (mid-rank: places
  with fewer reviews count 1, equal ones ½; a random pick scores 0.5), averaged over all such cards.
* **low@3** — among the shown cards of questions whose matching pool holds a place with ≥ 50 reviews,
  the share with ≤ 5 reviews (a barely-known place shown while locals' favourites exist).
* **honest when nothing matches** — for ``expect_none`` questions: no card shown, or the answer
  says plainly that nothing was found / the place is not in the data / what was widened or dropped
  to find anything ("1km 안에는 없어서 3km까지 넓혔어요").

The ``test`` split is frozen (``relevance_FROZEN.txt`` holds its sha256): report figures from it;
tune only on ``dev``.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Final

from matjip.eval import relevance_judge as judge
from matjip.words import words

POPULAR_MIN = 50  # low@3: a matching place with at least this many reviews exists ...
OBSCURE_MAX = 5  # ... and the shown card has at most this many

HONEST_PHRASES: Final = words("eval_phrases", "honest")

Ask = Callable[[str, dict[str, float] | None, datetime], tuple[list[str], str]]


@dataclass
class ItemResult:
    id: str
    question: str
    expect_none: bool
    shown: list[str]
    grades: list[int]
    kind_ok: list[bool]
    pool2: int
    pool1: int
    answer: str
    ms: float
    # raw reviewCount of the shown cards and of every matching (grade >= 1) place of the pool
    shown_reviews: list[int] = field(default_factory=list)
    pool_reviews: list[int] = field(default_factory=list)

    @property
    def popularity(self) -> list[float]:
        """Mid-rank percentile of each shown card's review count within the matching pool."""
        pool = self.pool_reviews
        if not pool:
            return []
        return [
            (sum(p < n for p in pool) + 0.5 * sum(p == n for p in pool)) / len(pool)
            for n in self.shown_reviews[:3]
        ]

    @property
    def obscure(self) -> list[bool] | None:
        """Per shown card: ≤ 5 reviews; None when the pool holds no place with ≥ 50 reviews."""
        if not any(p >= POPULAR_MIN for p in self.pool_reviews):
            return None
        return [n <= OBSCURE_MAX for n in self.shown_reviews[:3]]

    @property
    def strict(self) -> float:
        denom = min(3, self.pool2)
        return sum(g == 2 for g in self.grades[:3]) / denom if denom else 0.0

    @property
    def lenient(self) -> float:
        denom = min(3, self.pool2 + self.pool1)
        return sum(g >= 1 for g in self.grades[:3]) / denom if denom else 0.0

    @property
    def ndcg(self) -> float:
        def dcg(gains: Sequence[int]) -> float:
            return sum((2**g - 1) / math.log2(i + 2) for i, g in enumerate(gains[:3]))

        ideal = ([2] * self.pool2 + [1] * self.pool1)[:3]
        best = dcg(ideal)
        return dcg(self.grades) / best if best else 0.0

    @property
    def short(self) -> bool:
        return len(self.shown) < min(3, self.pool2)

    @property
    def honest(self) -> bool:
        return not self.shown or any(p in self.answer for p in HONEST_PHRASES)


@dataclass
class Report:
    split: str
    items: list[ItemResult] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def answerable(self) -> list[ItemResult]:
        return [r for r in self.items if not r.expect_none]

    @property
    def unanswerable(self) -> list[ItemResult]:
        return [r for r in self.items if r.expect_none]

    def rows(self) -> list[tuple[str, str]]:
        ans, none = self.answerable, self.unanswerable
        shown = [ok for r in ans for ok in r.kind_ok]
        ms = sorted(r.ms for r in self.items) or [0.0]

        def mean(xs: Sequence[float]) -> str:
            return f"{statistics.fmean(xs):.3f}" if xs else "-"

        p95 = ms[min(len(ms) - 1, math.ceil(0.95 * len(ms)) - 1)]
        pops = [p for r in ans for p in r.popularity]
        lows = [o for r in ans for o in (r.obscure or [])]
        return [
            ("questions", f"{len(self.items)} ({len(ans)} answerable, {len(none)} nothing-matches)"),
            ("strict P@3", mean([r.strict for r in ans])),
            ("lenient P@3", mean([r.lenient for r in ans])),
            (
                "wrong-kind rate",
                f"{(sum(not ok for ok in shown) / len(shown)):.3f} ({sum(not ok for ok in shown)}/{len(shown)} cards)"
                if shown
                else "-",
            ),
            ("pop@3 (review-count percentile among matches)", mean(pops)),
            (
                f"low@3 (≤ {OBSCURE_MAX} reviews while ≥ {POPULAR_MIN} exist)",
                f"{sum(lows) / len(lows):.3f} ({sum(lows)}/{len(lows)} cards)" if lows else "-",
            ),
            ("nDCG@3", mean([r.ndcg for r in ans])),
            ("short answers (better ones exist)", f"{sum(r.short for r in ans)}/{len(ans)}"),
            ("honest when nothing matches", f"{sum(r.honest for r in none)}/{len(none)}"),
            ("latency p50 / p95 (ms)", f"{statistics.median(ms):.1f} / {p95:.1f}"),
            ("errors", str(len(self.errors))),
        ]

    def failures(self) -> list[str]:
        out = []
        for r in self.items:
            if r.expect_none and not r.honest:
                out.append(f"{r.id} {r.question!r}: expected nothing, showed {len(r.shown)} cards")
            elif not r.expect_none and (r.strict < 1.0 or not all(r.kind_ok)):
                out.append(f"{r.id} {r.question!r}: grades {r.grades} (pool {r.pool2}/{r.pool1})")
        return out


def review_count(doc: judge.Doc) -> int:
    """The raw crawl's ``reviewCount`` (0 when missing or not a number)."""
    n = doc.get("reviewCount")
    return int(n) if isinstance(n, int | float) and n > 0 else 0


def run(ask: Ask, split: str = "test", limit: int | None = None, path: Path | None = None) -> Report:
    """Ask every question of ``split`` (``dev``, ``test`` or ``all``) of the set at ``path`` (the
    bundled ``relevance_set.jsonl`` by default) and grade the cards."""
    raw = {str(d.get("place_id")): d for d in judge.load_raw()}
    items = [it for it in judge.load_set(path or judge.SET_PATH) if split == "all" or it.split == split]
    report = Report(split=split)
    for it in items[:limit] if limit else items:
        gps = {"lat": it.gps.lat, "lon": it.gps.lon} if it.gps else None
        started = time.perf_counter()
        try:
            shown, answer = ask(it.question, gps, datetime.fromisoformat(it.now))
        except Exception as exc:  # one broken turn is a finding, not the end of the run
            report.errors.append(f"{it.id}: {type(exc).__name__}: {exc}")
            shown, answer = [], ""
        ms = (time.perf_counter() - started) * 1000
        docs = [raw.get(pid, {}) for pid in shown[:3]]
        pool2, pool1 = (
            (it.pool.grade2, it.pool.grade1) if it.pool else judge.count_grades(it.rubric, raw.values())
        )
        matching = [] if it.rubric.expect_none else judge.matching_docs(it.rubric, raw.values())
        report.items.append(
            ItemResult(
                id=it.id,
                question=it.question,
                expect_none=it.rubric.expect_none,
                shown=shown[:3],
                grades=[judge.grade(d, it.rubric) for d in docs],
                kind_ok=[judge.is_kind(d, it.rubric.kind, it.rubric.not_kind) for d in docs],
                pool2=pool2,
                pool1=pool1,
                answer=answer,
                ms=ms,
                shown_reviews=[review_count(d) for d in docs if d],
                pool_reviews=[review_count(d) for d in matching],
            )
        )
    return report
