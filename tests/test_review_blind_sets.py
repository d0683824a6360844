"""The blind real-review sets of issue 24 (review_test4 … review_test12, each
``.jsonl`` + ``_places.jsonl``): each parses, is all held out, names only known values, is unchanged since it was
frozen, shares no place with the sets drawn before it, and its place gold follows the support rule from
its item labels."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path
from typing import NamedTuple

import pytest

from matjip.eval.review_eval import FIELDS, load, load_places, score_places
from matjip.ingest.enrich import Enrichment
from matjip.ingest.enrich.tables import lexicons
from support.frozen import assert_files_frozen

EVAL = Path(__file__).resolve().parents[1] / "src" / "matjip" / "eval"


ORDER = [f"review_test{n}" for n in range(3, 21)]  # the draw order: none of an earlier set's places again


class BlindSet(NamedTuple):
    name: str
    min_reviews: int
    places: int
    sample: str  # a place whose convenience gold is ``sample_convenience`` (with 주차), atmosphere ``sample_atmosphere``
    sample_convenience: frozenset[str] = frozenset({"발렛", "주차"})
    sample_atmosphere: frozenset[str] = frozenset()

    @property
    def earlier(self) -> tuple[str, ...]:
        """The sets drawn before it: none of their places again."""
        return tuple(ORDER[: ORDER.index(self.name)])


SETS = [
    BlindSet("review_test4", 450, 40, "q04"),
    BlindSet("review_test5", 300, 30, "s08"),
    BlindSet("review_test6", 320, 32, "u09", frozenset({"구워줌", "발렛", "좌식", "주차"})),
    BlindSet("review_test7", 350, 32, "w03", frozenset({"주차", "포장"})),
    BlindSet("review_test8", 350, 32, "x28", frozenset({"주차"}), frozenset({"정갈한"})),
    BlindSet("review_test9", 350, 32, "y29"),
    BlindSet("review_test10", 340, 32, "z20"),
    BlindSet("review_test11", 360, 54, "w22"),
    BlindSet("review_test12", 300, 86, "v72", frozenset({"룸", "주차"}), frozenset({"조용한"})),
    BlindSet("review_test13", 330, 51, "n48", frozenset({"주차"})),
    BlindSet("review_test14", 460, 78, "m25", frozenset({"주차"})),
    BlindSet("review_test15", 380, 64, "n15", frozenset({"구워줌", "주차"})),
    BlindSet("review_test16", 420, 71, "o64"),
    BlindSet("review_test17", 385, 65, "p14", frozenset({"주차", "포장"})),
    BlindSet("review_test18", 390, 66, "r05", frozenset({"배달", "주차"})),
    BlindSet("review_test19", 360, 60, "t25", frozenset({"주차"}), frozenset({"쾌적한"})),
    BlindSet("review_test20", 408, 68, "k38", frozenset({"주차"}), frozenset({"분위기 좋은"})),
]


@pytest.fixture(params=SETS, ids=[s.name for s in SETS])
def blind(request: pytest.FixtureRequest) -> BlindSet:
    return request.param  # type: ignore[no-any-return]


def test_the_blind_review_set_is_frozen(blind: BlindSet) -> None:
    assert_files_frozen(f"{blind.name}_FROZEN.txt", (f"{blind.name}.jsonl", f"{blind.name}_places.jsonl"))


def test_the_blind_review_set_parses_held_out_with_known_values(blind: BlindSet) -> None:
    path = EVAL / f"{blind.name}.jsonl"
    items = load("all", path)
    places = load_places("all", path)
    assert len(items) >= blind.min_reviews and len({i.place for i in items}) == blind.places
    assert all(i.text.strip() for i in items)
    assert load("test", path) == items and load_places("test", path) == places
    assert {p.place for p in places} == {i.place for i in items}
    for p in places:
        assert p.reviews == sum(1 for i in items if i.place == p.place)
        for f in FIELDS:
            assert p.gold[f] <= set(lexicons()[f]), (p.place, f)
    for item in items:
        for f in FIELDS:
            assert set(item.gold[f]) <= set(lexicons()[f]), (item.id, item.gold[f])


def test_no_earlier_place_is_drawn_again(blind: BlindSet) -> None:
    """Each earlier set's place kept all its reviews, so a shared place would repeat a whole review list."""
    old = Counter(i.text for n in blind.earlier for i in load("all", EVAL / f"{n}.jsonl"))
    items = load("all", EVAL / f"{blind.name}.jsonl")
    for place in {i.place for i in items}:
        texts = [i.text for i in items if i.place == place]
        assert not all(old[t] for t in texts), place


def test_place_gold_follows_the_support_rule(blind: BlindSet) -> None:
    """Convenience: one review for, more for than against; moods and occasions: 2 reviews and 3 % from 10
    reviews on (one below 10), more for than against."""
    path = EVAL / f"{blind.name}.jsonl"
    items = load("all", path)
    for p in load_places("all", path):
        mine = [i for i in items if i.place == p.place]
        support = 1 if len(mine) < 10 else max(2, math.ceil(0.03 * len(mine)))
        for f in FIELDS:
            yes = Counter(v for i in mine for v, pol in i.gold[f].items() if pol)
            no = Counter(v for i in mine for v, pol in i.gold[f].items() if not pol)
            need = 1 if f == "convenience" else support
            assert p.gold[f] == {v for v in yes if yes[v] >= need and yes[v] > no[v]}, (p.place, f)


def test_place_scoring_counts_values_per_place(blind: BlindSet) -> None:
    [place] = [p for p in load_places("all", EVAL / f"{blind.name}.jsonl") if p.place == blind.sample]
    assert place.gold["convenience"] == blind.sample_convenience
    assert place.gold["atmosphere"] == blind.sample_atmosphere
    report = score_places([place], [Enrichment(convenience=["주차"], atmosphere=["조용한"])])
    c, a = report.per_field["convenience"], report.per_field["atmosphere"]
    missed = len(blind.sample_convenience) - 1
    assert (c.tp, c.fp, c.fn) == (1, 0, missed)
    quiet = int("조용한" in blind.sample_atmosphere)
    assert (a.tp, a.fp, a.fn) == (quiet, 1 - quiet, len(blind.sample_atmosphere) - quiet)
