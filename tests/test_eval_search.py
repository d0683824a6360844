"""``matjip eval search``: nDCG arithmetic, grade rules, the labelled set, and a real run on the sample."""

from __future__ import annotations

import math
from typing import Any

import pytest
from click.testing import CliRunner

from matjip.documents import MenuItem, Restaurant
from matjip.eval import search_eval as se
from matjip.index.request import SearchHit, SearchRequest, SearchResponse
from matjip.settings import Settings

# -- nDCG ------------------------------------------------------------------------------------


def test_dcg_by_hand() -> None:
    # gains 2^g - 1 = 3, 0, 1 at ranks 1..3; discounts log2(2), log2(3), log2(4)
    assert se.dcg([2, 0, 1]) == pytest.approx(3 / 1 + 0 / math.log2(3) + 1 / 2)


def test_ndcg_by_hand() -> None:
    # returned [2, 0, 1]: DCG = 3 + 0 + 0.5 = 3.5
    # ideal from the candidates [2, 1, 0, 0]: 3 + 1/log2(3) = 3.630930; 3.5 / 3.630930 = 0.963940
    value = se.ndcg([2, 0, 1], [0, 2, 1, 0])
    assert value == pytest.approx(3.5 / (3 + 1 / math.log2(3)))
    assert value == pytest.approx(0.963940, abs=1e-6)


def test_ndcg_edges() -> None:
    assert se.ndcg([3, 2, 1], [1, 2, 3, 0]) == pytest.approx(1.0)
    assert se.ndcg([0, 0], [0, 0, 0]) is None  # nothing relevant: no nDCG
    assert se.ndcg([], [1]) == 0.0  # relevant candidates but nothing returned
    # only the first five ranks count
    assert se.ndcg([0, 0, 0, 0, 0, 3], [3, 0, 0, 0, 0, 0]) == 0.0
    # a grade-3 document first is worth more than two grade-1 documents
    assert se.ndcg([3, 0], [3, 1, 1]) > se.ndcg([1, 1], [3, 1, 1])  # type: ignore[operator]


# -- grade rules -----------------------------------------------------------------------------


def _doc(**kw: Any) -> Restaurant:
    base: dict[str, Any] = {"place_id": "p1", "title": "스시 하나 잠실점", "category": "일식>초밥,롤"}
    base.update(kw)
    return Restaurant(**base)


def test_rule_conditions() -> None:
    d = _doc(
        cuisine="일식",
        menus=[MenuItem(name="돈코츠 라멘", price=9000)],
        atmosphere=["분위기 좋은"],
        features=["가성비"],
        review_keywords={"분위기": 6},
        rating=4.2,
    )
    assert se.rule_matches(d, {"cuisine_any": ["양식", "일식"]})
    assert se.rule_matches(d, {"category_any": ["초밥"]})
    assert se.rule_matches(d, {"menu_any": ["라멘"]})  # substring, spaces ignored
    assert se.rule_matches(d, {"menu_any": ["돈코츠라멘"]})
    assert se.rule_matches(d, {"title_any": ["스시하나"]})
    assert se.rule_matches(d, {"atmosphere_any": ["분위기 좋은"], "tag_min": {"분위기": 5}})
    assert not se.rule_matches(d, {"atmosphere_any": ["분위기 좋은"], "tag_min": {"분위기": 7}})
    assert not se.rule_matches(d, {"occasion_any": ["회식"]})
    assert se.rule_matches(d, {"rating_min": 4.0})
    assert not se.rule_matches(d, {"not": {"cuisine_any": ["일식"]}})
    assert se.rule_matches(d, {"place_ids": ["p1"]})


def test_grades_take_the_highest_matching_level() -> None:
    g = se.Grades.parse(
        {
            "1": {"atmosphere_any": ["분위기 좋은"]},
            "3": {"atmosphere_any": ["분위기 좋은"], "tag_min": {"분위기": 5}},
            "2": [{"cuisine_any": ["양식"]}, {"features_any": ["가성비"]}],
        }
    )
    assert g.max_grade == 3
    assert g.grade(_doc(atmosphere=["분위기 좋은"], review_keywords={"분위기": 9})) == 3
    assert g.grade(_doc(atmosphere=["분위기 좋은"], review_keywords={"분위기": 1})) == 1
    assert g.grade(_doc(features=["가성비"])) == 2
    assert g.grade(_doc()) == 0


def test_bad_rules_are_rejected() -> None:
    with pytest.raises(ValueError, match="unknown rule keys"):
        se.Grades.parse({"2": {"atmosphere": ["분위기 좋은"]}})
    with pytest.raises(ValueError, match="grades start at 1"):
        se.Grades.parse({"0": {"cuisine_any": ["한식"]}})
    with pytest.raises(ValueError, match=r"semantic\.text"):
        se.parse_item({"id": "x", "request": {"text": "데이트"}})


# -- the set ---------------------------------------------------------------------------------


def test_set_size_and_coverage() -> None:
    items = se.load_set()
    assert len(items) >= 60
    assert len({it.id for it in items}) == len(items)
    assert all(it.description for it in items)
    used = {f for it in items for f in it.filters}
    assert set(se.FILTER_FIELDS) <= used
    assert {"region_polygon", "sort_distance", "text"} <= used
    text_only = [it for it in items if it.request.text and not it.request.has_hard_filters]
    assert len(text_only) >= 6
    graded = [it for it in items if it.grades is not None]
    assert len(graded) >= 30
    assert all(it.request.text for it in graded)
    hand = [it for it in items if it.id.startswith("hand-")]
    assert len(hand) >= 3
    assert all(it.request.k >= se.NDCG_K or it.grades is None for it in items)


def test_near_is_resolved_with_the_gazetteer() -> None:
    from matjip.geo.gazetteer import Gazetteer

    place = Gazetteer.load().lookup("잠실역")[0]
    req = se.build_request({"near": "잠실역", "cuisine": ["일식"]}, "조용한")
    assert req.geo is not None
    assert (req.geo.lat, req.geo.lon, req.geo.radius_m) == (place.lat, place.lon, place.default_radius_m)
    assert req.text == "조용한" and req.k == se.DEFAULT_K
    assert se.build_request({"near": "잠실역", "radius_m": 500}).geo.radius_m == 500  # type: ignore[union-attr]
    poly = se.build_request({"region": {"name": "석촌동", "polygon_of": "석촌동"}})
    assert poly.region is not None and poly.region.polygon_place
    with pytest.raises(ValueError):
        se.build_request({"near": "없는장소이름xyz"})


# -- a real run on the ingested sample -------------------------------------------------------


@pytest.fixture(scope="module")
def sample_run(sample_settings: Settings) -> tuple[Any, list[Restaurant], list[se.EvalItem], dict[str, Any]]:
    from matjip.index import open_index
    from matjip.ingest.store import DocumentStore

    index = open_index(sample_settings)
    with DocumentStore(sample_settings.store_path) as store:
        docs = list(store.iter_documents())
    items = se.load_set()
    return index, docs, items, se.reference(items, docs)


def test_eval_on_the_sample(sample_run: Any) -> None:
    index, docs, items, refs = sample_run
    report = se.run(index, docs, items=items, refs=refs)
    assert len(report.results) == len(items)
    assert report.hits_checked > 0
    assert report.precision == 1.0, report.failures
    assert report.nonempty, "some queries must have candidates on the sample"
    assert report.recall == 1.0, report.failures
    assert report.mean_recall_at_k == 1.0, report.failures
    assert report.false_hits_on_empty == 0
    assert report.candidate_agreement == 1.0, report.failures
    assert all(report.distance_checks)
    assert report.failures == []
    assert report.ndcgs, "some graded queries must have relevant candidates"
    assert all(0.0 <= x <= 1.0 for x in report.ndcgs)
    assert 0.0 <= report.ndcg <= 1.0
    assert dict(report.rows())["hard-constraint precision"].startswith("1.000")


def test_other_modes_and_fusions_keep_the_filters(sample_run: Any) -> None:
    index, docs, items, refs = sample_run
    before = index.settings.fusion
    for mode in ("bm25", "vector"):
        rep = se.run(index, docs, mode=mode, items=items, refs=refs)
        assert rep.precision == 1.0 and rep.recall == 1.0, rep.failures
    rep = se.run(index, docs, se.FusionConfig("convex", 0.3, 0.7), items=items, refs=refs)
    assert rep.label == "convex bm25=0.3 vec=0.7"
    assert rep.precision == 1.0 and rep.recall == 1.0, rep.failures
    assert index.settings.fusion == before  # the override used a copy


def test_compare_rows(sample_run: Any) -> None:
    index, docs, items, _ = sample_run
    comp = se.compare(
        index,
        docs,
        [se.FusionConfig("rrf", rrf_k=60), se.FusionConfig("convex", 0.5, 0.5)],
        items=items[:20],
    )
    labels = [(r.label, r.mode) for r in comp.reports]
    assert labels[0] == ("rrf k=60", "hybrid")  # the current setting first, not repeated
    assert ("convex bm25=0.5 vec=0.5", "hybrid") in labels
    assert ("bm25 only", "bm25") in labels and ("vector only", "vector") in labels
    assert comp.vs_first[0][0] == comp.vs_first[0][2] == 0


class _Broken:
    """Wraps the real index and breaks it: adds a document that fails the filters, or drops
    every hit (so the checks are shown to fail)."""

    def __init__(self, index: Any, extra: Restaurant | None, drop: bool) -> None:
        self.index, self.extra, self.drop = index, extra, drop

    def search(self, req: SearchRequest) -> SearchResponse:
        res = self.index.search(req)
        hits = [] if self.drop else list(res.hits)
        if self.extra is not None and not self.drop:
            hits.append(SearchHit(document=self.extra, score=0.5))
        return res.model_copy(update={"hits": hits})


def test_the_checks_can_fail(sample_run: Any) -> None:
    index, docs, items, refs = sample_run
    item = next(it for it in items if it.id == "title-jindaegam")
    outsider = next(d for d in docs if "진대감" not in d.title)
    rep = se.run(_Broken(index, outsider, drop=False), docs, items=[item], refs=refs)
    assert rep.precision < 1.0
    assert any("false hit" in f and "title" in f for f in rep.failures)

    rep = se.run(_Broken(index, None, drop=True), docs, items=[item], refs=refs)
    assert rep.recall == 0.0
    assert any("no hit" in f for f in rep.failures)


def test_cli_eval_search(sample_settings: Settings) -> None:
    from matjip.cli import cli

    result = CliRunner().invoke(
        cli,
        ["--data-dir", str(sample_settings.data_dir), "eval", "search", "--compare-fusion", "--per-query"],
    )
    assert result.exit_code == 0, result.output
    assert "hard-constraint precision" in result.output
    assert "convex bm25=0.5 vec=0.5" in result.output
    assert "nDCG@5" in result.output
    assert "title-jindaegam" in result.output
