"""Menu-price buckets of the embedded index (``PRICE_EDGES``): the per-row bitmask that decides a
price band before the per-menu check, and the tantivy terms ``pb:<bucket>`` that restrict BM25 to
rows with a price in a bucket the band touches. The hits, candidate counts and BM25 lists are the
reference's for bands on, across and beside the bucket edges."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from fakes.embedder import FakeEmbedder
from matjip.documents import MenuItem, Restaurant
from matjip.index import layout
from matjip.index.columns import band_buckets
from matjip.index.embedded import EmbeddedIndex
from matjip.index.request import PriceRange, SearchRequest
from matjip.settings import Settings
from support.index import make_corpus, tuned
from support.index_checks import check, check_bm25

# prices on, just below and just above the bucket edges (5,000-won steps, the last from 150,000)
EDGE_PRICES = [0, 1, 4999, 5000, 5001, 9999, 10000, 14999, 15000, 149_999, 150_000, 150_001, 900_000]
BANDS = [
    (10000, 14999),  # one whole bucket
    (5000, 24999),  # whole buckets
    (9999, 10000),  # across an edge: no bucket decides
    (4999, 5000),
    (5001, 9998),  # inside one bucket, not all of it
    (0, 0),
    (0, 4999),  # bucket 0 reaches down to every price below 5,000 (none here)
    (150_000, 10**9),  # the open last bucket
    (149_999, 150_001),
    (12345, 12346),  # no price at all
    (None, 8000),
    (30000, None),
]


def edge_corpus() -> list[Restaurant]:
    rng = random.Random(7)
    docs = make_corpus(150)
    extra = []
    for i in range(120):
        prices = rng.sample(EDGE_PRICES, rng.randint(1, 3))
        menus = [MenuItem(name=f"메뉴{j}", price=p) for j, p in enumerate(prices)]
        base = docs[i % len(docs)]
        extra.append(base.model_copy(update={"place_id": f"edge-{i}", "menus": menus}))
    return docs + extra


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[EmbeddedIndex, list[Restaurant]]:
    docs = edge_corpus()
    index = EmbeddedIndex(tmp_path_factory.mktemp("pb") / "index", FakeEmbedder(), Settings())
    return index.build(docs), docs


def _band(lo: int | None, hi: int | None) -> PriceRange:
    return PriceRange(min_won=lo, max_won=hi)


def test_band_buckets_by_hand() -> None:
    assert band_buckets(10000, 14999) == ([2], [2])
    assert band_buckets(9999, 10000) == ([1, 2], [])
    assert band_buckets(5001, 9998) == ([1], [])
    assert band_buckets(5000, 24999) == ([1, 2, 3, 4], [1, 2, 3, 4])
    assert band_buckets(0, 4999) == ([0], [])  # bucket 0 holds every price below 5,000
    assert band_buckets(150_000, 10**6) == ([30], [])  # the last bucket has no upper end
    assert band_buckets(149_999, 150_000) == ([29, 30], [])


def test_each_row_has_the_bits_of_its_prices(built: tuple[EmbeddedIndex, list[Restaurant]]) -> None:
    index, docs = built
    s = index._require()
    bits = s.price_bits()
    for d in docs:
        want = 0
        for m in d.menus:
            if m.price is not None:
                want |= 1 << min(int(m.price) // 5000, 30)
        assert int(bits[s.pid_row[d.place_id]]) == want, d.place_id


@pytest.mark.parametrize(("lo", "hi"), BANDS)
def test_a_band_keeps_the_reference_rows(
    built: tuple[EmbeddedIndex, list[Restaurant]], lo: int, hi: int
) -> None:
    index, docs = built
    check(index, docs, SearchRequest(price=_band(lo, hi), k=50))
    check(index, docs, SearchRequest(text="국밥 맛집", price=_band(lo, hi), k=20))


@pytest.mark.parametrize(("lo", "hi"), BANDS)
@pytest.mark.parametrize("depth", [100, 4])
def test_bm25_inside_a_band_is_exact(
    built: tuple[EmbeddedIndex, list[Restaurant]], lo: int, hi: int, depth: int
) -> None:
    """Through the tantivy restriction (no row-id set: ``row_set_max=0``), paged from 3 hits."""
    index, docs = built
    paged = tuned(index, first_fetch=3, row_set_max=0, bm25_depth=depth)
    for text in ("국밥 맛집", "메뉴1 데이트", "고기"):
        check_bm25(paged, docs, SearchRequest(text=text, price=_band(lo, hi), k=10), depth)


def test_the_terms_are_the_buckets_of_the_prices(built: tuple[EmbeddedIndex, list[Restaurant]]) -> None:
    import tantivy

    index, docs = built
    s = index._require()
    assert s.meta["price_edges"][0] == 5000 and len(s.meta["price_edges"]) == 30
    for b in (0, 1, 2, 29, 30):
        q = tantivy.Query.term_query(s.schema, "filt", f"pb:{b}")
        hits = s.searcher.search(q, limit=s.n + 1, count=False).hits
        rows = {int(r) for r in s.searcher.fast_field_values("row", [a for _, a in hits])}
        want = {
            s.pid_row[d.place_id]
            for d in docs
            if any(m.price is not None and min(int(m.price) // 5000, 30) == b for m in d.menus)
        }
        assert rows == want, b


def test_an_index_without_the_terms_searches_alike(built: tuple[EmbeddedIndex, list[Restaurant]]) -> None:
    """An index written before the price terms (no ``price_edges`` in meta) is not restricted by
    them, and an ingest into it adds none."""
    index, docs = built
    other = Path(str(index.directory) + "-old")
    old = EmbeddedIndex(other, FakeEmbedder(), Settings()).build(docs)
    d = old._require().directory
    meta = json.loads((d / "meta.json").read_text(encoding="utf-8"))
    del meta["price_edges"]
    (d / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
    layout.write_manifest(d)
    old = EmbeddedIndex(other, FakeEmbedder(), Settings()).load()
    for lo, hi in BANDS:
        req = SearchRequest(text="국밥 맛집", price=_band(lo, hi), k=10)
        a, b = index.search(req), old.search(req)
        assert [(h.document.place_id, h.score) for h in a.hits] == [
            (h.document.place_id, h.score) for h in b.hits
        ]
    old.upsert([docs[0].model_copy(update={"place_id": "new-one"})])
    assert "price_edges" not in old._require().meta
    assert np.any(old._require().price_bits())
