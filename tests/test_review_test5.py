"""The blind real-review set of issue 24, round 2 (review_test5.jsonl + review_test5_places.jsonl): it parses, is all
held out, names only known values, is unchanged since it was frozen, shares no place with review_test3, and its
place gold follows the support rule from its item labels."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

from matjip.eval.review_eval import FIELDS, load, load_places, score_places
from matjip.ingest.enrich import Enrichment
from matjip.ingest.enrich.tables import lexicons
from support.frozen import assert_files_frozen

EVAL = Path(__file__).resolve().parents[1] / "src" / "matjip" / "eval"
SET = EVAL / "review_test5.jsonl"


def test_the_blind_review_set_is_frozen() -> None:
    assert_files_frozen("review_test5_FROZEN.txt", ("review_test5.jsonl", "review_test5_places.jsonl"))


def test_the_blind_review_set_parses_held_out_with_known_values() -> None:
    items = load("all", SET)
    places = load_places("all", SET)
    assert len(items) >= 300 and len({i.place for i in items}) == 30
    assert all(i.text.strip() for i in items)
    assert load("test", SET) == items and load_places("test", SET) == places
    assert {p.place for p in places} == {i.place for i in items}
    for p in places:
        assert p.reviews == sum(1 for i in items if i.place == p.place)
        for f in FIELDS:
            assert p.gold[f] <= set(lexicons()[f]), (p.place, f)
    for item in items:
        for f in FIELDS:
            assert set(item.gold[f]) <= set(lexicons()[f]), (item.id, item.gold[f])


def test_no_review_test3_or_test4_place_is_drawn_again() -> None:
    """Each review_test3/4 place kept all its reviews, so a shared place would repeat a whole review list."""
    old = Counter(i.text for n in ("review_test3", "review_test4") for i in load("all", EVAL / f"{n}.jsonl"))
    items = load("all", SET)
    for place in {i.place for i in items}:
        texts = [i.text for i in items if i.place == place]
        assert not all(old[t] for t in texts), place


def test_place_gold_follows_the_support_rule() -> None:
    """Convenience: one review for, more for than against; moods and occasions: 2 reviews and 3 % from 10
    reviews on (one below 10), more for than against."""
    items = load("all", SET)
    for p in load_places("all", SET):
        mine = [i for i in items if i.place == p.place]
        support = 1 if len(mine) < 10 else max(2, math.ceil(0.03 * len(mine)))
        for f in FIELDS:
            yes = Counter(v for i in mine for v, pol in i.gold[f].items() if pol)
            no = Counter(v for i in mine for v, pol in i.gold[f].items() if not pol)
            need = 1 if f == "convenience" else support
            assert p.gold[f] == {v for v in yes if yes[v] >= need and yes[v] > no[v]}, (p.place, f)


def test_place_scoring_counts_values_per_place() -> None:
    [s08] = [p for p in load_places("all", SET) if p.place == "s08"]
    assert s08.gold["convenience"] == {"발렛", "주차"} and not s08.gold["atmosphere"]
    report = score_places([s08], [Enrichment(convenience=["주차"], atmosphere=["조용한"])])
    c, a = report.per_field["convenience"], report.per_field["atmosphere"]
    assert (c.tp, c.fp, c.fn) == (1, 0, 1) and (a.tp, a.fp, a.fn) == (0, 1, 0)
