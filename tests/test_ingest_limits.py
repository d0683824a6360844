"""Issue 13, defects 2 and 10: one bad or huge record never stops a crawl.

* per-field and per-record size caps (settings), the record stored and flagged ``truncated``;
* offline enrichment linear in the text length (Kiwi gets pieces; no quadratic scans) — the time
  figures live in ``bench/enrich_scaling.py`` (no timed assertions here); here the pieces are checked
  to give the same morphemes as the whole text, and a huge review is ingested at all;
* JSONL decoded line by line: an invalid UTF-8 byte is a reject with its line, the rest is stored;
  a truncated gzip stores every complete line before the damage and says where reading stopped.
"""

from __future__ import annotations

import gzip
import itertools
import json
from pathlib import Path

import pytest

from matjip.ingest.crawl import CrawlDocument, RawRecord, Reject, read_raw
from matjip.ingest.enrich import get_enricher
from matjip.ingest.limits import IngestLimits, cap_document
from matjip.ingest.pipeline import ingest
from matjip.ingest.store import DocumentStore
from matjip.text.kiwi import chunk_bounds, tokenize_many


def rec(i: int, **extra: object) -> dict[str, object]:
    return {"place_id": f"p{i}", "title": f"식당{i}", "category": "음식점 > 한식", **extra}


def line(obj: object) -> bytes:
    return json.dumps(obj, ensure_ascii=False).encode("utf-8") + b"\n"


@pytest.fixture
def store(tmp_path: Path) -> DocumentStore:
    return DocumentStore(tmp_path / "docs.sqlite")


def test_invalid_utf8_rejects_one_line_and_keeps_the_rest(tmp_path: Path, store: DocumentStore) -> None:
    path = tmp_path / "mixed.jsonl"
    bad = line(rec(2)).replace("식당2".encode(), b"\xff\xfe bad")
    path.write_bytes(line(rec(1)) + bad + line(rec(3)) + line(rec(4)))
    report = ingest([path], store, get_enricher("offline"))
    assert report.new == 3 and report.rejected == 1 and report.balanced
    (reject,) = report.rejects
    assert reject.line == 2 and "UTF-8" in reject.reason
    assert store.count() == 3


def test_truncated_gzip_stores_what_it_could_read(tmp_path: Path, store: DocumentStore) -> None:
    path = tmp_path / "cut.jsonl.gz"
    data = gzip.compress(b"".join(line(rec(i, reviews=[f"리뷰 {i} " * 30])) for i in range(200)))
    path.write_bytes(data[: len(data) * 2 // 3])
    items = list(read_raw(path))
    records = [r for r in items if isinstance(r, RawRecord)]
    assert isinstance(items[-1], Reject) and all(isinstance(r, RawRecord) for r in items[:-1])
    stop = items[-1]
    assert len(records) > 50 and stop.line == len(records) + 1
    assert "truncated gzip" in stop.reason and f"after line {len(records)}" in stop.reason
    report = ingest([path], store, get_enricher("offline"))
    assert store.count() == len(records) and report.rejected == 1


def test_json_array_bad_element_keeps_the_elements_before(tmp_path: Path) -> None:
    path = tmp_path / "arr.json"
    path.write_text(
        "[" + ",".join(json.dumps(rec(i)) for i in range(3)) + ', {"place_id": "x", ', encoding="utf-8"
    )
    items = list(read_raw(path))
    assert [type(i).__name__ for i in items] == ["RawRecord"] * 3 + ["Reject"]
    assert items[-1].line == 4


def test_caps_cut_fields_and_flag_the_document(tmp_path: Path, store: DocumentStore) -> None:
    limits = IngestLimits(max_field_chars=1_000, max_record_chars=3_000)
    doc = CrawlDocument.model_validate(
        rec(1, description="설명 " * 2_000, reviews=["주차 편해요. " * 500, "맛있어요", "조용해요. " * 1000])
    )
    capped, cut = cap_document(doc, limits)
    assert len(capped.description) == 1_000 and all(len(r) <= 1_000 for r in capped.reviews)
    assert sum(len(r) for r in capped.reviews) + len(capped.description) <= 3_000
    assert "description" in cut and "reviews[0]" in cut
    same, none = cap_document(CrawlDocument.model_validate(rec(2, reviews=["좋아요"])), limits)
    assert none == [] and same.reviews == ["좋아요"]

    path = tmp_path / "big.jsonl"
    path.write_bytes(line(rec(1, reviews=["가" * 50_000])) + line(rec(2, reviews=["주차 편해요"])))
    report = ingest([path], store, get_enricher("offline"), limits=limits)
    assert report.new == 2 and report.truncated == 1
    big, small = store.get("p1"), store.get("p2")
    assert big is not None and small is not None
    assert "truncated" in big.flags and "truncated" not in small.flags


def test_long_text_is_tokenized_in_pieces_with_the_same_offsets() -> None:
    text = ("주차가 편하고 직원이 친절해요. 양이 많아요!\n" * 200) + "가" * 3_000 + " 끝"
    bounds = chunk_bounds(text, 500)
    assert bounds[0][0] == 0 and bounds[-1][1] == len(text)
    assert all(a[1] == b[0] for a, b in itertools.pairwise(bounds))
    assert all(0 < e - s <= 500 for s, e in bounds)
    (morphs,) = tokenize_many([text])
    assert all(text[m.start : m.end] for m in morphs)
    assert [m.start for m in morphs] == sorted(m.start for m in morphs)
    # the pieces end at sentence or line ends where there are any: whole sentences read the same
    short = "주차가 편하고 직원이 친절해요. 양이 많아요!\n"
    (alone,) = tokenize_many([short + "x"])
    assert [(m.form, m.tag) for m in morphs[: len(alone) - 1]] == [(m.form, m.tag) for m in alone[:-1]]


def test_a_huge_review_is_enriched_and_votes_are_still_counted() -> None:
    review = "주차가 편해요. 노키즈존이에요. 아이랑 가기 좋아요. " * 6_000  # ~200k characters
    (result,) = get_enricher("offline").enrich_many([CrawlDocument.model_validate(rec(1, reviews=[review]))])
    assert "주차" in result.convenience, result
