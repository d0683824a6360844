"""What a search at 1M builds on first use, done for the candidates only, and what a build does once
per distinct text: each gives what the whole-index way gives."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from fakes.embedder import FakeEmbedder
from matjip.documents import Restaurant
from matjip.index import filters, writer
from matjip.index.embed._tokens import distinct_morphs
from matjip.index.embedded import EmbeddedIndex
from matjip.index.reference import title_exact
from matjip.index.request import SEOUL, OpenAt
from matjip.index.snapshot import Snapshot
from matjip.settings import Settings
from support.index import make_corpus


@pytest.fixture(scope="module")
def corpus() -> list[Restaurant]:
    return make_corpus()


@pytest.fixture(scope="module")
def snap(corpus: list[Restaurant], tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    index = EmbeddedIndex(tmp_path_factory.mktemp("idx") / "index", FakeEmbedder(), Settings()).build(corpus)
    return index._require()


def _windows(rng: random.Random, count: int) -> list[OpenAt]:
    monday = datetime(2025, 3, 3, tzinfo=SEOUL)
    out = []
    for i in range(count):
        when = monday + timedelta(minutes=rng.randrange(7 * 1440))
        until = when + timedelta(minutes=rng.randrange(1, 1440)) if i % 2 else None
        out.append(OpenAt(when=when, until=until))
    return out


def test_open_window_of_few_rows_is_the_whole_index_status(corpus: list[Restaurant], snap: Snapshot) -> None:
    """The candidates' own intervals (a day's window: 48 instants) give each row the status the
    whole-index pass gives it, and the schedule's own ``is_open`` agrees."""
    rng = random.Random(7)
    few = int(snap.n * filters.OPEN_ROWS_SHARE)
    by_row = {r: corpus[r] for r in range(snap.n)}  # one document per row: the corpus has no repeats
    tested = 0
    for oa in _windows(rng, 40):
        rows = np.array(sorted(rng.sample(range(snap.n), rng.randrange(1, few))), dtype=np.int64)
        snap.cache = type(snap.cache)()  # nothing cached: the candidates' way runs
        got = filters.open_window_of(snap, oa, SEOUL, rows)
        assert got.tolist() == filters.open_window(snap, oa, SEOUL)[rows].tolist()
        for r, status in zip(rows.tolist(), got.tolist(), strict=True):
            hours = by_row[r].hours
            if hours is None or not hours.parsed:
                assert status == -1
                continue
            want = any(hours.is_open(t) for t in oa.instants())
            assert status == int(want), (by_row[r].place_id, oa)
            tested += 1
    assert tested > 100


def test_title_exact_rows_are_the_rows_whose_title_is_the_query(
    corpus: list[Restaurant], snap: Snapshot
) -> None:
    titles = [d.title for d in corpus]
    for query in {titles[0], titles[3], titles[0] + " ", titles[5].upper(), "없는 이름"}:
        want = [r for r, t in enumerate(titles) if title_exact(t, query)]
        assert filters.title_exact_rows(snap, query).tolist() == want


def test_distinct_morphs_counts_copies_per_chunk() -> None:
    texts = ["김치찌개 맛집", "조용한 카페", "김치찌개 맛집", "조용한 카페", "김치찌개 맛집", "국밥"]
    got = [(" ".join(m.form for m in ms), n) for ms, n in distinct_morphs(texts, chunk=4)]
    assert [n for _, n in got] == [2, 2, 1, 1]  # chunk 1: two texts twice; chunk 2: one each
    assert sum(n for _, n in got) == len(texts)
    assert got[0][0].startswith("김치")


class _CountingEmbedder(FakeEmbedder):
    """The protocol fake, counting the texts it is asked to embed."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[str] = []

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        self.asked.extend(texts)
        return super().embed_documents(texts)


def test_a_build_embeds_each_distinct_text_once(tmp_path: Path) -> None:
    texts = [f"식당 {i % 7} 메뉴 {i % 3}" for i in range(3000)]  # 21 distinct texts, over several batches
    emb = _CountingEmbedder()
    tmp = tmp_path / "v"
    tmp.mkdir()
    writer._write_vectors(tmp, emb, texts, emb.dim, lambda stage, done, total: None)
    assert sorted(emb.asked) == sorted(set(texts))
    got = np.fromfile(tmp / "vectors.f32", dtype=np.float32).reshape(len(texts), emb.dim)
    assert np.array_equal(got, FakeEmbedder().embed_documents(texts))


def test_box_rows_are_the_rows_inside_the_box(snap: Snapshot) -> None:
    """The latitude-ordered slice gives the rows the four whole-column comparisons give (rows
    without coordinates never), or None over ``most``."""
    rng = random.Random(3)
    lat, lon = snap.cols["lat"], snap.cols["lon"]
    assert np.isnan(lat).any()  # the corpus has rows without coordinates
    for _ in range(30):
        c_lat, c_lon = 37.4 + rng.random() * 0.3, 126.8 + rng.random() * 0.4
        box = (
            c_lat - rng.random() * 0.05,
            c_lat + rng.random() * 0.05,
            c_lon - 0.04,
            c_lon + rng.random() * 0.04,
        )
        want = np.flatnonzero((lat >= box[0]) & (lat <= box[1]) & (lon >= box[2]) & (lon <= box[3]))
        got = snap.box_rows(*box, most=snap.n)
        assert got is not None and got.tolist() == want.tolist()
        band = int(((lat >= box[0]) & (lat <= box[1])).sum())
        if band:
            assert snap.box_rows(*box, most=band - 1) is None


def test_lru_holds_many_small_arrays_and_few_large_ones() -> None:
    from matjip.index.snapshot import LRU

    cache = LRU(size=100, max_bytes=10_000)
    for i in range(50):
        cache.put(("small", i), np.zeros(10, dtype=np.int64))  # 80 bytes each: all 50 fit
    assert all(cache.get(("small", i)) is not None for i in range(50))
    for i in range(5):
        cache.put(("large", i), np.zeros(3000, dtype=np.bool_))  # 3 kB each: the oldest go first
    assert cache.get(("large", 4)) is not None and cache.get(("large", 3)) is not None
    assert cache.get(("large", 0)) is None and cache.get(("small", 0)) is None
    cache.put(("huge", 0), np.zeros(50_000, dtype=np.bool_))  # over the bound alone: kept, alone
    assert cache.get(("huge", 0)) is not None and cache.get(("large", 4)) is None
