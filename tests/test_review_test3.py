"""The real-review set of issue 24 (review_test3.jsonl + review_test3_places.jsonl): it parses, names only
known values, is unchanged since it was frozen, and the place-level scorer counts what it should."""

from __future__ import annotations

from pathlib import Path

from matjip.eval.review_eval import FIELDS, load, load_places, place_document, run_by_place, score_places
from matjip.ingest.enrich import Enrichment, OfflineEnricher
from matjip.ingest.enrich.tables import lexicons
from support.frozen import assert_files_frozen

EVAL = Path(__file__).resolve().parents[1] / "src" / "matjip" / "eval"
SET = EVAL / "review_test3.jsonl"


def test_the_real_review_set_is_frozen() -> None:
    assert_files_frozen("review_test3_FROZEN.txt", ("review_test3.jsonl", "review_test3_places.jsonl"))


def test_the_real_review_set_parses_with_known_values() -> None:
    items = load("all", SET)
    places = load_places("all", SET)
    assert len(items) >= 300 and len({i.place for i in items}) >= 40
    assert {p.place for p in places} == {i.place for i in items}
    for p in places:
        assert p.reviews == sum(1 for i in items if i.place == p.place)
        for f in FIELDS:
            assert p.gold[f] <= set(lexicons()[f]), (p.place, f)
    for item in items:
        for f in FIELDS:
            assert set(item.gold[f]) <= set(lexicons()[f]), (item.id, item.gold[f])


def test_place_scoring_counts_values_per_place() -> None:
    [p01] = [p for p in load_places("all", SET) if p.place == "p01"]
    assert p01.gold["atmosphere"] == {"분위기 좋은"} and p01.gold["occasion"] == {"점심"}
    doc = place_document("p01", load("all", SET))
    assert len(doc.reviews) == p01.reviews
    said = [Enrichment(atmosphere=["분위기 좋은", "조용한"], occasion=[])]
    report = score_places([p01], said, unscored=frozenset())  # 점심 scored (see MEAL_TIMES)
    a, o = report.per_field["atmosphere"], report.per_field["occasion"]
    assert (a.tp, a.fp, a.fn) == (1, 1, 0) and (o.tp, o.fp, o.fn) == (0, 0, 1)


def test_conveniences_hold_per_place_on_the_development_places() -> None:
    """A development figure (the reader was tuned on these places): one first-hand review keeps a fact."""
    c = run_by_place(OfflineEnricher(), "dev", SET).per_field["convenience"]
    assert c.precision >= 0.93 and c.recall >= 0.85, (c.tp, c.fp, c.fn)
