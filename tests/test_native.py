"""The compiled copy of the review reader (matjip.ingest.enrich.native): used only when built from
the sources on disk, and reading exactly as the source does."""

from __future__ import annotations

import gc
import gzip
import json
import random
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from matjip.eval.review_eval import load
from matjip.ingest.crawl import CrawlDocument
from matjip.ingest.enrich import Enrichment, native, offline
from matjip.ingest.preprocess import to_restaurants
from matjip.settings import DEMO_DATA


@pytest.fixture
def fresh_loader() -> Iterator[None]:
    native.offline_module.cache_clear()
    yield
    native.offline_module.cache_clear()


@pytest.mark.usefixtures("fresh_loader")
def test_a_copy_built_from_other_sources_is_never_imported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(native, "source_digest", lambda root=native._SRC: "an edited source")
    assert native.offline_module() is offline


@pytest.mark.usefixtures("fresh_loader")
def test_no_copy_or_switched_off_means_the_source(monkeypatch: pytest.MonkeyPatch) -> None:
    assert native.offline_module(False) is offline
    monkeypatch.setattr(native, "_built_digest", lambda root=native._SRC: "")
    assert native.offline_module() is offline


def test_the_digest_covers_both_sources(tmp_path: Path) -> None:
    root = native._SRC
    base = native.source_digest(root)
    for module in native.COPIES:
        assert native._path(module, root).is_file()
    copy = tmp_path / "src"
    for module in native.COPIES:
        target = native._path(module, copy)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(native._path(module, root).read_bytes())
    assert native.source_digest(copy) == base
    first = native._path(next(iter(native.COPIES)), copy)
    first.write_bytes(first.read_bytes() + b"\n")
    assert native.source_digest(copy) != base


def test_the_copy_imports_the_compiled_pairs() -> None:
    text = native._copy_source("matjip.ingest.enrich.offline", "d" * 64, native._SRC)
    assert "from matjip.text._pairs_native import tokenize_pairs_iter" in text
    assert "from matjip.text.pairs import" not in text
    assert text.rstrip().endswith(f'SOURCE_DIGEST = "{"d" * 64}"')


def _docs() -> list[CrawlDocument]:
    texts = [item.text for item in load("all")]
    rng = random.Random(5)
    with gzip.open(DEMO_DATA, "rt", encoding="utf-8") as fh:
        records = [json.loads(next(fh)) for _ in range(120)]
    docs = []
    for rec in records:
        rec["reviews"] = [
            rng.choice(texts) + rng.choice(["", " ", "\n", "!! ", "~ "]) + rng.choice(texts)
            for _ in range(12)
        ]
        docs.append(CrawlDocument.model_validate(rec))
    return docs + [item.document() for item in load("all")]


@pytest.mark.usefixtures("fresh_loader")
def test_the_compiled_copy_reads_exactly_as_the_source() -> None:
    module = native.offline_module()
    if not native.is_native(module):
        pytest.skip("the compiled copy is not built here (make setup-test builds it)")
    docs = _docs()
    assert module.OfflineEnricher().enrich_many(docs) == offline.OfflineEnricher().enrich_many(docs)


class _Recorder:
    name = "recorder"

    def __init__(self, fail: bool = False) -> None:
        self.fail = fail
        self.collecting: list[bool] = []

    def enrich(self, doc: CrawlDocument) -> Enrichment:
        return self.enrich_many([doc])[0]

    def enrich_many(self, docs: Sequence[CrawlDocument]) -> list[Enrichment]:
        self.collecting.append(gc.isenabled())
        if self.fail:
            raise RuntimeError("boom")
        return [Enrichment() for _ in docs]


def test_the_cycle_collector_pauses_for_a_batch_and_resumes() -> None:
    doc = CrawlDocument.model_validate({"place_id": "p", "title": "가게"})
    assert gc.isenabled()
    ok = _Recorder()
    assert len(to_restaurants([doc], ok)) == 1
    assert ok.collecting == [False] and gc.isenabled()
    bad = _Recorder(fail=True)
    with pytest.raises(RuntimeError):
        to_restaurants([doc], bad)
    assert bad.collecting == [False] and gc.isenabled()
    gc.disable()
    try:
        to_restaurants([doc], ok)
        assert not gc.isenabled()  # left as the caller had it
    finally:
        gc.enable()
