"""Index lifecycle (build, load, upsert, delete, errors), BM25 exactness under filters, fusion,
the analyzer."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fakes.embedder import FakeEmbedder
from matjip.documents import MenuItem, Restaurant
from matjip.errors import EmbedderMismatchError, IndexNotBuiltError
from matjip.index import build_index, fusion, open_index
from matjip.index.analyzer import analyze, analyze_documents, document_fragments
from matjip.index.embedded import EmbeddedIndex
from matjip.index.reference import brute_force_filter
from matjip.index.request import GeoFilter, PriceRange, RegionFilter, SearchRequest
from matjip.settings import Settings
from support.index import make_corpus, tuned
from support.index_checks import check_bm25, check_response

REQUESTS = [
    SearchRequest(text="데이트 파스타", k=5),
    SearchRequest(title="진대감", k=3),
    SearchRequest(
        geo=GeoFilter(lat=37.5566, lon=126.9236, radius_m=5000), cuisine=["한식"], text="회식", k=5
    ),
    SearchRequest(menu=["라멘"], k=10),
    SearchRequest(
        convenience=["주차"], sort="distance", geo=GeoFilter(lat=37.55, lon=126.98, radius_m=20000)
    ),
]


@pytest.fixture()
def built(tmp_path: Path) -> tuple[EmbeddedIndex, list[Restaurant]]:
    docs = make_corpus()
    return EmbeddedIndex(tmp_path / "index", FakeEmbedder(), Settings()).build(docs), docs


def _ids(index: EmbeddedIndex, req: SearchRequest) -> list[str]:
    return [h.document.place_id for h in index.search(req).hits]


# -- persistence & errors -------------------------------------------------------------------


def test_round_trip(built: tuple[EmbeddedIndex, list[Restaurant]]) -> None:
    index, docs = built
    again = EmbeddedIndex(index.directory, FakeEmbedder(), Settings()).load()
    assert again.count() == index.count() == len(docs)
    assert again.embedder.fitted == len(docs)  # type: ignore[attr-defined]  # the embedder state came back
    for req in REQUESTS:
        a, b = index.search(req), again.search(req)
        assert [(h.document.place_id, h.score) for h in a.hits] == [
            (h.document.place_id, h.score) for h in b.hits
        ]
    assert again.get("h-ramen") == next(d for d in docs if d.place_id == "h-ramen")
    assert again.get("nope") is None
    assert again.load_seconds is not None


def test_not_built(tmp_path: Path) -> None:
    with pytest.raises(IndexNotBuiltError):
        EmbeddedIndex(tmp_path / "missing", FakeEmbedder(), Settings()).load()
    with pytest.raises(IndexNotBuiltError):
        EmbeddedIndex(tmp_path / "missing", FakeEmbedder(), Settings()).search(SearchRequest(text="x"))


def test_embedder_mismatch(built: tuple[EmbeddedIndex, list[Restaurant]]) -> None:
    index, _ = built
    with pytest.raises(EmbedderMismatchError, match=r"'fake'.*'other'"):
        EmbeddedIndex(index.directory, FakeEmbedder(name="other"), Settings()).load()
    with pytest.raises(EmbedderMismatchError, match="32"):
        EmbeddedIndex(index.directory, FakeEmbedder(dim=16), Settings()).load()


def test_rebuild_replaces(built: tuple[EmbeddedIndex, list[Restaurant]]) -> None:
    index, docs = built
    index.build(docs[:10])
    assert index.count() == 10
    assert EmbeddedIndex(index.directory, FakeEmbedder(), Settings()).load().count() == 10


def test_duplicate_ids_in_build_last_wins(tmp_path: Path) -> None:
    docs = [Restaurant(place_id="1", title="첫째"), Restaurant(place_id="1", title="둘째")]
    index = EmbeddedIndex(tmp_path / "i", FakeEmbedder(), Settings()).build(docs)
    assert index.count() == 1
    assert index.get("1") is not None and index.get("1").title == "둘째"  # type: ignore[union-attr]
    assert _ids(index, SearchRequest(text="첫째")) == ["1"]  # the one live copy
    assert index.search(SearchRequest(text="첫째")).hits[0].bm25 is None  # old terms are gone


def test_empty_index(tmp_path: Path) -> None:
    index = EmbeddedIndex(tmp_path / "i", FakeEmbedder(), Settings()).build([])
    assert index.count() == 0
    index.warm()
    res = index.search(SearchRequest(text="라멘", cuisine=["일식"]))
    assert res.hits == [] and res.total_candidates == 0
    index.upsert([Restaurant(place_id="1", title="라멘집", cuisine="일식")])
    assert _ids(index, SearchRequest(text="라멘", cuisine=["일식"])) == ["1"]


def test_open_and_build_index_with_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import matjip.index.embed as embed_pkg

    monkeypatch.setattr(embed_pkg, "get_embedder", lambda name, settings=None: FakeEmbedder(name=name))
    settings = Settings(data_dir=tmp_path, embedder="fake")
    with pytest.raises(IndexNotBuiltError):
        open_index(settings)
    stages: list[str] = []
    built = build_index(settings, make_corpus(20), lambda stage, done, total: stages.append(stage))
    assert {"analyze", "fit", "embed", "write"} <= set(stages)
    assert open_index(settings).count() == built.count() == 25
    with pytest.raises(EmbedderMismatchError):
        open_index(Settings(data_dir=tmp_path, embedder="hash2"))


# -- writes ---------------------------------------------------------------------------------


def test_upsert_and_delete(built: tuple[EmbeddedIndex, list[Restaurant]]) -> None:
    index, docs = built
    n = index.count()
    old = next(d for d in docs if d.place_id == "h-ramen")
    new = old.model_copy(
        update={
            "title": "멘야 신주쿠",
            "cuisine": "중식",
            "lat": 37.50,
            "lon": 127.03,
            "convenience": ["발렛"],
        }
    )
    added = Restaurant(
        place_id="new-1", title="새집 라멘", cuisine="일식", menus=[MenuItem(name="미소라멘", price=9000)]
    )
    assert index.upsert([new, added]) == 2
    assert index.count() == n + 1
    assert index.get("h-ramen") == new
    assert "h-ramen" not in _ids(index, SearchRequest(title="멘야 하카타"))
    assert _ids(index, SearchRequest(title="멘야 신주쿠")) == ["h-ramen"]
    assert "h-ramen" in _ids(index, SearchRequest(cuisine=["중식"], convenience=["발렛"], k=50))
    assert "h-ramen" not in _ids(index, SearchRequest(cuisine=["일식"], k=50))
    assert "new-1" in _ids(index, SearchRequest(menu=["미소라멘"], k=50))
    # BM25 sees the new terms and not the old ones
    assert index.search(SearchRequest(text="신주쿠", k=1)).hits[0].document.place_id == "h-ramen"
    hakata = index.search(SearchRequest(text="하카타", k=50)).hits
    assert all(h.bm25 is None for h in hakata if h.document.place_id == "h-ramen")

    assert index.delete(["h-ramen", "unknown"]) == 1
    assert index.get("h-ramen") is None
    assert index.count() == n
    assert "h-ramen" not in _ids(index, SearchRequest(cuisine=["중식"], k=50))
    assert index.stats()["tombstones"] == 2

    # the same state from disk, and still in agreement with the reference
    current = [d for d in docs if d.place_id != "h-ramen"] + [added]
    again = EmbeddedIndex(index.directory, FakeEmbedder(), Settings()).load()
    assert again.count() == len(current)
    for req in [*REQUESTS, SearchRequest(menu=["라멘"], k=50), SearchRequest(cuisine=["중식"], k=50)]:
        check_response(again, current, req)
        check_response(index, current, req)


def test_convenience_vocabulary_grows_past_64(built: tuple[EmbeddedIndex, list[Restaurant]]) -> None:
    index, docs = built
    many = [f"편의{i}" for i in range(70)]
    index.upsert([Restaurant(place_id="lots", title="다있음", convenience=many)])
    assert _ids(index, SearchRequest(convenience=["편의69", "편의3"])) == ["lots"]
    assert len(_ids(index, SearchRequest(convenience=["주차"], k=50))) == min(
        50, len(brute_force_filter(docs, SearchRequest(convenience=["주차"])))
    )


def test_crashed_append_is_cut(built: tuple[EmbeddedIndex, list[Restaurant]]) -> None:
    """Bytes a crashed write left after the last committed row are discarded on the next write."""
    index, _ = built
    with (index.directory / "docs.tsv").open("ab") as fh:
        fh.write(b'{"garbage": tru')
    with (index.directory / "vectors.f32").open("ab") as fh:
        fh.write(b"\x00" * 12)
    index.upsert([Restaurant(place_id="after", title="크래시 이후")])
    again = EmbeddedIndex(index.directory, FakeEmbedder(), Settings()).load()
    assert again.get("after") is not None and again.get("after").title == "크래시 이후"  # type: ignore[union-attr]
    assert again.get("h-pasta") is not None


# -- BM25 is exact inside the candidates and unchanged by filters ---------------------------


BM25_CASES = [
    SearchRequest(text="데이트 파스타 스테이크"),  # no filter: global
    SearchRequest(text="회식 삼겹살", geo=GeoFilter(lat=37.5566, lon=126.9236, radius_m=8000)),  # geo cells
    SearchRequest(text="라멘 혼밥", menu=["라멘"]),  # small candidate set: row-id restriction
    SearchRequest(text="주차 가족", cuisine=["한식", "양식"], convenience=["주차"]),
    SearchRequest(text="파스타", price=PriceRange(max_won=50000)),  # large set, nothing tantivy can express
    SearchRequest(text="회식 가족", region=RegionFilter(name="마포구")),  # address bigrams
    SearchRequest(text="갈비 회식", title="진대감"),  # title bigrams
    SearchRequest(text="데이트", menu=["파스타", "크림"], cuisine=["양식"]),  # menu bigrams, all of
]


@pytest.mark.parametrize("first_fetch", [2000, 3])
@pytest.mark.parametrize("row_set_max", [1500, 0])
@pytest.mark.parametrize("depth", [100, 4])
@pytest.mark.parametrize("case", range(len(BM25_CASES)))
def test_bm25_inside_candidates_is_exact(
    built: tuple[EmbeddedIndex, list[Restaurant]],
    case: int,
    depth: int,
    row_set_max: int,
    first_fetch: int,
) -> None:
    index, docs = built
    req = BM25_CASES[case]
    index = tuned(index, first_fetch=first_fetch, row_set_max=row_set_max, bm25_depth=depth)
    check_bm25(index, docs, req, depth)


def test_bm25_pages_across_segments(built: tuple[EmbeddedIndex, list[Restaurant]]) -> None:
    """Offset paging stays exact when the hits come from several tantivy segments and tie
    (copies of documents score the same as their originals)."""
    index, docs = built
    copies = [d.model_copy(update={"place_id": d.place_id + "-copy"}) for d in docs[:80]]
    index.upsert(copies[:40])
    index.upsert(copies[40:])
    assert index._require().searcher.num_segments > 1
    for depth in (5, 100):
        paged = tuned(index, first_fetch=3, row_set_max=0, bm25_depth=depth)
        for req in BM25_CASES:
            check_bm25(paged, docs + copies, req, depth)


def test_bm25_reported_score_does_not_depend_on_filters(
    built: tuple[EmbeddedIndex, list[Restaurant]],
) -> None:
    index, _ = built
    free = {h.document.place_id: h.bm25 for h in index.search(SearchRequest(text="라멘 혼밥", k=50)).hits}
    filtered = index.search(SearchRequest(text="라멘 혼밥", menu=["라멘"], cuisine=["일식"], k=50)).hits
    common = [h for h in filtered if h.document.place_id in free and h.bm25 is not None]
    assert common
    for h in common:
        assert free[h.document.place_id] == pytest.approx(h.bm25)


# -- ranking --------------------------------------------------------------------------------


def test_text_ranking_finds_the_obvious(built: tuple[EmbeddedIndex, list[Restaurant]]) -> None:
    index, _ = built
    assert _ids(index, SearchRequest(text="하카타 교자", k=1)) == ["h-ramen"]
    hits = index.search(SearchRequest(text="트러플 크림파스타 창가뷰 기념일", k=5)).hits
    best_bm25 = max(hits, key=lambda h: h.bm25 or 0.0)
    assert best_bm25.document.place_id == "h-pasta"
    assert all(h.vector is not None for h in hits)


def test_convex_fusion(tmp_path: Path) -> None:
    docs = make_corpus()
    settings = Settings(data_dir=tmp_path, fusion="convex", weight_bm25=0.7, weight_vector=0.3)
    index = EmbeddedIndex(tmp_path / "i", FakeEmbedder(), settings).build(docs)
    assert _ids(index, SearchRequest(text="하카타 교자", k=1)) == ["h-ramen"]
    hit = index.search(SearchRequest(text="트러플 크림파스타 창가뷰 기념일", k=1)).hits[0]
    assert hit.document.place_id == "h-pasta"  # the BM25 margin counts under convex fusion
    assert hit.score >= 0.65  # every query term is in the document
    for req in REQUESTS:
        check_response(index, docs, req)


def test_unknown_hours_lower_score(tmp_path: Path) -> None:
    from datetime import datetime

    from matjip.documents import DayHours, TimeRange, WeeklySchedule
    from matjip.index.request import SEOUL, OpenAt

    always = WeeklySchedule(
        raw="x", parsed=True, days={d: DayHours(open=[TimeRange(start=0, end=1440)]) for d in range(7)}
    )
    docs = [
        Restaurant(place_id="known", title="a", hours=always, rating=4.0),
        Restaurant(place_id="unknown", title="b", rating=4.0),
    ]
    index = EmbeddedIndex(tmp_path / "i", FakeEmbedder(), Settings()).build(docs)
    hits = index.search(
        SearchRequest(open_at=OpenAt(when=datetime(2025, 3, 5, 12, tzinfo=SEOUL), include_unknown=True), k=2)
    ).hits
    assert [h.document.place_id for h in hits] == ["known", "unknown"]
    assert hits[0].open_now is True and hits[1].open_now is None
    assert hits[0].score > hits[1].score


def test_single_list_modes(built: tuple[EmbeddedIndex, list[Restaurant]]) -> None:
    index, docs = built
    req = SearchRequest(text="회식 가족", cuisine=["한식"], k=10)
    expected = brute_force_filter(docs, req)
    vector_only = index.search(req, mode="vector").hits
    bm25_only = index.search(req, mode="bm25").hits
    assert {h.document.place_id for h in vector_only} <= expected
    assert {h.document.place_id for h in bm25_only} <= expected
    assert all(h.bm25 is None and h.vector is not None for h in vector_only)
    assert all(h.vector is None for h in bm25_only)
    matched = [h.bm25 for h in bm25_only if h.bm25 is not None]
    assert matched and matched == sorted(matched, reverse=True)


# -- fusion ---------------------------------------------------------------------------------


def _r(ids: list[int], scores: list[float]) -> fusion.Ranked:
    return np.asarray(ids, dtype=np.int64), np.asarray(scores, dtype=np.float64)


def test_rrf() -> None:
    ids, fused = fusion.rrf([_r([1, 2, 3], [9, 5, 1]), _r([3, 1], [0.9, 0.8])], k=60)
    assert ids.tolist() == [1, 3, 2]
    assert fused[0] == pytest.approx(1 / 61 + 1 / 62)
    assert fused[1] == pytest.approx(1 / 63 + 1 / 61)
    assert fused[2] == pytest.approx(1 / 62)
    empty_ids, _ = fusion.rrf([_r([], []), _r([], [])])
    assert empty_ids.tolist() == []


def test_convex() -> None:
    ids, fused = fusion.convex([_r([1, 2, 3], [10, 5, 0]), _r([3, 2], [1.0, 0.5])], weights=[0.5, 0.5])
    assert dict(zip(ids.tolist(), fused.tolist(), strict=True)) == pytest.approx({1: 0.5, 2: 0.25, 3: 0.5})
    assert ids.tolist()[0] == 1  # ties keep first appearance
    assert fusion.minmax(np.asarray([2.0, 2.0])).tolist() == [1.0, 1.0]


# -- analyzer -------------------------------------------------------------------------------


def test_analyzer_keeps_compounds_and_parts() -> None:
    terms = analyze("돈코츠라멘")
    assert {"돈코츠", "라멘", "돈코츠라멘"} <= set(terms)
    assert "라멘" in analyze("라멘")
    assert "pasta" in analyze("Pasta 맛집")
    assert "좋은" not in analyze("분위기 좋은 곳")  # inflected words are not kept whole


def test_document_text_excludes_address() -> None:
    doc = Restaurant(
        place_id="1",
        title="멘야",
        roadAddress="서울 마포구 와우산로 20",
        menus=[MenuItem(name="돈코츠라멘")],
        atmosphere=["아늑한"],
    )
    assert not any("마포" in f for f in document_fragments(doc))
    terms = analyze_documents([doc])[0]
    assert "라멘" in terms and "멘야" in terms
    assert "마포구" not in terms and "와우산로" not in terms
