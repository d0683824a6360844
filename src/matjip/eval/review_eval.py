"""``matjip eval reviews``: the review-text gold set (``review_set.jsonl``, see ``review_set.md``)
run through an enricher, scored per field.

Each gold item becomes a one-review :class:`~matjip.ingest.crawl.CrawlDocument` (a neutral title, no
category, menus or tags), so only the review text can produce values. Per field (convenience,
atmosphere, occasion): precision and recall of the values labelled ``true``; micro P/R over the three;
negation accuracy over every label of a ``negation`` item and every ``false`` label. This module is a
measuring instrument and never changes the product.

The meal times 점심 and 저녁 are left out of the score by default (gold and predictions alike): the sets
disagree on them — review_set … review_test10 label the time of a visit ("점심에 갔는데"), the sets from
session 6 on (review_test11 …, convention 5 of ``review_set.md``) only what a place suits, as the
product now reads them — so no reader can meet both; ``unscored=frozenset()`` scores them too.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from matjip.ingest.crawl import CrawlDocument
from matjip.ingest.enrich.base import Enricher, Enrichment
from matjip.nlu.evaluate import PRF

SET_PATH = Path(__file__).parent / "review_set.jsonl"
FIELDS: tuple[Literal["convenience", "atmosphere", "occasion"], ...] = (
    "convenience",
    "atmosphere",
    "occasion",
)
MEAL_TIMES = frozenset({"점심", "저녁"})  # unscored by default (see the module docstring)


@dataclass(frozen=True)
class ReviewItem:
    id: str
    split: str
    phenomena: tuple[str, ...]
    text: str
    gold: dict[str, dict[str, bool]]
    place: str = ""  # the place the review is about (real-crawl sets), for ``--by-place``

    def document(self) -> CrawlDocument:
        return CrawlDocument.model_validate(
            {"place_id": self.id, "title": "리뷰평가", "category": "", "reviews": [self.text]}
        )


def load(split: str = "test", path: Path = SET_PATH) -> list[ReviewItem]:
    """Items of ``split`` (``dev``, ``test`` or ``all``)."""
    items: list[ReviewItem] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        raw = json.loads(line)
        if split != "all" and raw["split"] != split:
            continue
        gold: dict[str, dict[str, bool]] = {
            f: {str(k): bool(v) for k, v in raw["gold"].get(f, {}).items()} for f in FIELDS
        }
        items.append(
            ReviewItem(
                raw["id"], raw["split"], tuple(raw["phenomena"]), raw["text"], gold, str(raw.get("place", ""))
            )
        )
    return items


@dataclass
class ReviewReport:
    split: str
    items: int = 0
    per_field: dict[str, PRF] = field(default_factory=lambda: {f: PRF() for f in FIELDS})
    negation_right: int = 0
    negation_total: int = 0
    per_phenomenon: dict[str, tuple[int, int]] = field(default_factory=dict)  # items fully right / items
    failures: list[str] = field(default_factory=list)

    @property
    def micro(self) -> PRF:
        total = PRF()
        for c in self.per_field.values():
            total.tp += c.tp
            total.fp += c.fp
            total.fn += c.fn
        return total

    @property
    def negation_accuracy(self) -> float:
        return self.negation_right / self.negation_total if self.negation_total else 1.0

    def rows(self) -> list[tuple[str, str]]:
        rows = [("items", str(self.items))]
        for f, c in self.per_field.items():
            rows.append(
                (f"{f} P / R", f"{c.precision:.3f} / {c.recall:.3f}  (tp {c.tp}, fp {c.fp}, fn {c.fn})")
            )
        m = self.micro
        rows.append(("micro P / R", f"{m.precision:.3f} / {m.recall:.3f}"))
        rows.append(
            (
                "negation accuracy",
                f"{self.negation_accuracy:.3f}  ({self.negation_right}/{self.negation_total})",
            )
        )
        for ph, (ok, n) in sorted(self.per_phenomenon.items()):
            rows.append((f"items fully right: {ph}", f"{ok}/{n}"))
        return rows


def score(
    items: Sequence[ReviewItem],
    results: Sequence[Enrichment],
    split: str = "",
    unscored: frozenset[str] = MEAL_TIMES,
) -> ReviewReport:
    """Score ``results`` (one per item, same order) against the gold, leaving ``unscored`` values out."""
    report = ReviewReport(split=split, items=len(items))
    for item, res in zip(items, results, strict=True):
        wrong: list[str] = []
        for f in FIELDS:
            gold = {v: pol for v, pol in item.gold[f].items() if v not in unscored}
            predicted = set(res.values(f)) - unscored
            positives = {v for v, pol in gold.items() if pol}
            c = report.per_field[f]
            for v in predicted:
                if v in positives:
                    c.tp += 1
                else:
                    c.fp += 1
                    wrong.append(f"+{f[0]}:{v}")
            for v in positives - predicted:
                c.fn += 1
                wrong.append(f"-{f[0]}:{v}")
            for v, pol in gold.items():
                if "negation" in item.phenomena or not pol:
                    report.negation_total += 1
                    report.negation_right += int((v in predicted) == pol)
        for ph in item.phenomena:
            ok, n = report.per_phenomenon.get(ph, (0, 0))
            report.per_phenomenon[ph] = (ok + int(not wrong), n + 1)
        if wrong:
            report.failures.append(f"{item.id} [{','.join(item.phenomena)}] {item.text}  → {' '.join(wrong)}")
    return report


def run(
    enricher: Enricher,
    split: str = "test",
    limit: int | None = None,
    path: Path = SET_PATH,
    unscored: frozenset[str] = MEAL_TIMES,
) -> ReviewReport:
    """Enrich every item of ``split`` with ``enricher`` and score it."""
    items = load(split, path)[:limit] if limit else load(split, path)
    results = enricher.enrich_many([i.document() for i in items])
    return score(items, results, split, unscored)


# --- place level (real crawls: ``review_test3.jsonl`` + ``review_test3_places.jsonl``) -------------
@dataclass(frozen=True)
class PlaceGold:
    place: str
    split: str
    reviews: int
    gold: dict[str, frozenset[str]]


def places_path(path: Path) -> Path:
    """The place-level gold beside a set file: ``x.jsonl`` → ``x_places.jsonl``."""
    return path.with_name(f"{path.stem}_places{path.suffix}")


def load_places(split: str = "test", path: Path = SET_PATH) -> list[PlaceGold]:
    """The place-level gold of the set at ``path`` (see :func:`places_path`), for ``split``."""
    out: list[PlaceGold] = []
    for line in places_path(path).read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        raw = json.loads(line)
        if split != "all" and raw["split"] != split:
            continue
        gold: dict[str, frozenset[str]] = {
            f: frozenset(str(v) for v in raw["gold"].get(f, [])) for f in FIELDS
        }
        out.append(PlaceGold(str(raw["place"]), str(raw["split"]), int(raw["reviews"]), gold))
    return out


def place_document(place: str, items: Sequence[ReviewItem]) -> CrawlDocument:
    """All reviews of ``place`` (in set order) as one document, as a crawl would hold them."""
    reviews = [i.text for i in items if i.place == place]
    return CrawlDocument.model_validate(
        {"place_id": place, "title": "리뷰평가", "category": "", "reviews": reviews}
    )


def score_places(
    places: Sequence[PlaceGold],
    results: Sequence[Enrichment],
    split: str = "",
    unscored: frozenset[str] = MEAL_TIMES,
) -> ReviewReport:
    """Per field, P/R of the values each place keeps against the place-level gold (``unscored`` left out)."""
    report = ReviewReport(split=split, items=len(places))
    for place, res in zip(places, results, strict=True):
        wrong: list[str] = []
        for f in FIELDS:
            predicted, gold = set(res.values(f)) - unscored, place.gold[f] - unscored
            c = report.per_field[f]
            c.tp += len(predicted & gold)
            c.fp += len(predicted - gold)
            c.fn += len(gold - predicted)
            wrong += [f"+{f[0]}:{v}" for v in sorted(predicted - gold)]
            wrong += [f"-{f[0]}:{v}" for v in sorted(gold - predicted)]
        ok, n = report.per_phenomenon.get("place", (0, 0))
        report.per_phenomenon["place"] = (ok + int(not wrong), n + 1)
        if wrong:
            report.failures.append(f"{place.place} ({place.reviews} reviews)  → {' '.join(wrong)}")
    return report


def run_by_place(
    enricher: Enricher, split: str = "test", path: Path = SET_PATH, unscored: frozenset[str] = MEAL_TIMES
) -> ReviewReport:
    """Enrich each place of ``split`` with all its reviews and score it against the place-level gold."""
    items = load("all", path)
    places = load_places(split, path)
    results = enricher.enrich_many([place_document(p.place, items) for p in places])
    return score_places(places, results, split, unscored)
