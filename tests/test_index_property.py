"""Property: over random requests, the embedded index agrees with the brute-force reference.

For every request: no hit violates a hard filter, ``total_candidates`` equals the reference
count, ``min(k, matches)`` hits come back (so never empty when something matches), distances
agree with a haversine reference within 1 m, and scores are in [0, 1] and ordered.
Runs on the synthetic corpus and on a sample of the real demo records.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fakes.embedder import FakeEmbedder
from matjip.documents import Restaurant
from matjip.index import embedded
from matjip.index.embedded import EmbeddedIndex
from matjip.settings import Settings
from support.index import CUISINES, GUS, demo_sample, make_corpus, tuned
from support.index_checks import check_bm25, check_response, requests


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory: pytest.TempPathFactory) -> tuple[EmbeddedIndex, list[Restaurant]]:
    docs = make_corpus()
    return EmbeddedIndex(tmp_path_factory.mktemp("p") / "index", FakeEmbedder(), Settings()).build(docs), docs


@pytest.fixture(scope="module")
def synthetic_large_paths(
    synthetic: tuple[EmbeddedIndex, list[Restaurant]],
) -> tuple[EmbeddedIndex, list[Restaurant]]:
    """The synthetic index searched with the knobs of a large corpus's code paths."""
    index, docs = synthetic
    return tuned(index, py_check_max=0, row_set_max=0, first_fetch=2, bm25_depth=3), docs


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[EmbeddedIndex, list[Restaurant]]:
    docs = demo_sample(every=20)
    return EmbeddedIndex(tmp_path_factory.mktemp("d") / "index", FakeEmbedder(), Settings()).build(docs), docs


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_synthetic_agrees_with_reference(
    synthetic: tuple[EmbeddedIndex, list[Restaurant]], data: st.DataObject
) -> None:
    index, docs = synthetic
    req = data.draw(requests(docs, list(CUISINES), GUS))
    check_response(index, docs, req)
    check_bm25(index, docs, req, depth=embedded.BM25_DEPTH)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_demo_sample_agrees_with_reference(
    demo: tuple[EmbeddedIndex, list[Restaurant]], data: st.DataObject
) -> None:
    index, docs = demo
    cuisines = sorted({d.cuisine for d in docs})
    gus = sorted(
        {
            (d.road_address or d.address).split()[1]
            for d in docs
            if len((d.road_address or d.address).split()) > 1
        }
    )
    req = data.draw(requests(docs, cuisines, gus[:20]))
    check_response(index, docs, req)


def test_demo_sample_has_real_variety(demo: tuple[EmbeddedIndex, list[Restaurant]]) -> None:
    """Guard the property test's power: the sample exercises every filter kind."""
    _, docs = demo
    assert len(docs) > 400
    assert any(d.convenience for d in docs)
    assert any(d.hours is not None and d.hours.parsed for d in docs)
    assert any(m.price is not None for d in docs for m in d.menus)
    assert any(d.lat is None for d in docs) or all(d.lat is not None for d in docs)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_large_corpus_code_paths_agree(
    synthetic_large_paths: tuple[EmbeddedIndex, list[Restaurant]], data: st.DataObject
) -> None:
    """The same property with the thresholds set so the small corpus takes the paths a large one
    takes: whole-index string masks (joined-text search, menu vocabulary), no row-id restriction
    of tantivy, and many small tantivy pages."""

    index, docs = synthetic_large_paths
    req = data.draw(requests(docs, list(CUISINES), GUS))
    check_response(index, docs, req)
    check_bm25(index, docs, req, depth=3)
