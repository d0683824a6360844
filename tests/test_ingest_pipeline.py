"""The ingest run: accounting, rejects with line and reason, idempotence, resume after a crash."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from matjip.ingest.crawl import CrawlDocument, read_records
from matjip.ingest.enrich import get_enricher
from matjip.ingest.pipeline import ingest
from matjip.ingest.store import MIGRATIONS, DocumentStore
from matjip.settings import DEMO_DATA


def _demo_lines(n: int, start: int = 0) -> list[str]:
    out = []
    with gzip.open(DEMO_DATA, "rt", encoding="utf-8") as fh:
        for i, line in enumerate(fh):
            if i >= start + n:
                break
            if i >= start:
                out.append(line.rstrip("\n"))
    return out


@pytest.fixture
def store(tmp_path: Path) -> DocumentStore:
    return DocumentStore(tmp_path / "docs.sqlite")


def test_accounting_and_rejects_with_line_and_reason(tmp_path: Path, store: DocumentStore) -> None:
    lines = _demo_lines(50)
    bad = [
        "{not json",
        json.dumps({"title": "이름만 있음"}, ensure_ascii=False),  # no place_id
        json.dumps({"place_id": "x1", "title": "   "}, ensure_ascii=False),  # empty title
        json.dumps(
            {"place_id": "x2", "title": "메뉴가 이상함", "menus": [{"price": "1,000원"}]}, ensure_ascii=False
        ),
        "[1, 2, 3]",
    ]
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join(lines[:10] + bad + lines[10:]) + "\n", encoding="utf-8")
    report = ingest([path], store, get_enricher("offline"))
    assert report.read == 55
    assert report.read == report.new + report.updated + report.unchanged + report.rejected
    assert report.balanced
    assert report.new == 50 and report.rejected == 5
    by_line = {r.line: r.reason for r in report.rejects}
    assert set(by_line) == {11, 12, 13, 14, 15}
    assert "invalid JSON" in by_line[11]
    assert "place_id" in by_line[12]
    assert "title" in by_line[13]
    assert "menus.0.name" in by_line[14]
    assert "not an object" in by_line[15]
    assert store.count() == 50


def test_second_run_is_unchanged_and_does_no_work(tmp_path: Path, store: DocumentStore) -> None:
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join(_demo_lines(80)) + "\n", encoding="utf-8")
    first = ingest([path], store, get_enricher("offline"))
    second = ingest([path], store, get_enricher("offline"))
    assert first.new == 80
    assert (second.new, second.updated, second.unchanged, second.processed) == (0, 0, 80, 0)


def test_a_new_review_reader_reads_every_record_again(
    tmp_path: Path, store: DocumentStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Review rules, word lists or the reader's code changed (a product upgrade): an index already
    built is read again, as it is re-classified when the kinds change — not skipped as unchanged."""
    import matjip.ingest.pipeline as pipeline

    path = tmp_path / "in.jsonl"
    path.write_text("\n".join(_demo_lines(30)) + "\n", encoding="utf-8")
    ingest([path], store, get_enricher("offline"))
    monkeypatch.setattr(pipeline, "reader_version", lambda: "a-newer-reader")
    again = ingest([path], store, get_enricher("offline"))
    assert (again.new, again.updated, again.unchanged) == (0, 30, 0)


def test_changed_record_is_updated(tmp_path: Path, store: DocumentStore) -> None:
    lines = _demo_lines(20)
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    ingest([path], store, get_enricher("offline"))
    rec = json.loads(lines[3])
    rec["title"] = rec["title"] + " 2호점"
    lines[3] = json.dumps(rec, ensure_ascii=False)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = ingest([path], store, get_enricher("offline"))
    assert (report.new, report.updated, report.unchanged) == (0, 1, 19)
    doc = store.get(rec["place_id"])
    assert doc is not None and doc.title.endswith("2호점")


def test_later_duplicate_wins_and_is_counted(tmp_path: Path, store: DocumentStore) -> None:
    lines = _demo_lines(5)
    rec = json.loads(lines[0])
    rec["title"] = "나중에 온 이름"
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join([*lines, json.dumps(rec, ensure_ascii=False)]) + "\n", encoding="utf-8")
    report = ingest([path], store, get_enricher("offline"))
    assert report.superseded == 1 and report.new == 5 and report.balanced
    doc = store.get(rec["place_id"])
    assert doc is not None and doc.title == "나중에 온 이름"
    again = ingest([path], store, get_enricher("offline"))
    assert again.unchanged == 5 and again.superseded == 1 and again.updated == 0


class _Crash(Exception):
    pass


def test_crash_midway_then_resume_matches_clean_run(tmp_path: Path) -> None:
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join(_demo_lines(700)) + "\n", encoding="utf-8")
    clean = DocumentStore(tmp_path / "clean.sqlite")
    ingest([path], clean, get_enricher("offline"), batch_size=64)

    crashed = DocumentStore(tmp_path / "crashed.sqlite")
    seen = 0

    def die_at_400(n: int) -> None:
        nonlocal seen
        seen += n
        if seen == 400:
            raise _Crash

    with pytest.raises(_Crash):
        ingest([path], crashed, get_enricher("offline"), batch_size=64, progress=die_at_400)
    partial = crashed.count()
    assert 0 < partial < 700  # some batches were committed, not all
    resumed = ingest([path], crashed, get_enricher("offline"), batch_size=64, resume=True)
    assert resumed.resumed > 0 and resumed.balanced
    assert crashed.count() == clean.count() == 700
    assert crashed.ids() == clean.ids()
    # a run without --resume after the crash is also safe: everything already there is unchanged
    again = ingest([path], crashed, get_enricher("offline"))
    assert again.new == 0 and again.updated == 0


def test_json_array_gzip_and_unknown_fields(tmp_path: Path) -> None:
    recs = [json.loads(x) for x in _demo_lines(3)]
    recs[0]["something_new"] = {"nested": True}
    arr = tmp_path / "in.json.gz"
    with gzip.open(arr, "wt", encoding="utf-8") as fh:
        json.dump(recs, fh, ensure_ascii=False)
    parsed = [x for x in read_records(arr) if isinstance(x, tuple)]
    assert len(parsed) == 3
    doc: CrawlDocument = parsed[0][1]
    assert doc.extra_fields == {"something_new": {"nested": True}}
    store = DocumentStore(tmp_path / "s.sqlite")
    report = ingest([arr], store, get_enricher("offline"))
    assert report.new == 3
    stored = store.get(recs[0]["place_id"])
    assert stored is not None and stored.extra == {"something_new": {"nested": True}}


def test_seed_example_record_with_placeholders(tmp_path: Path) -> None:
    rec = {
        "place_id": "1993900101",
        "search_keyword": "우드멜로우 서울특별시 강동구 아리수로",
        "title": "<b>우드멜로우</b>",
        "category": "음식점>카페,디저트",
        "address": "서울특별시 강동구 고덕동 482",
        "roadAddress": "서울특별시 강동구 아리수로 243",
        "mapx": "1271551201",
        "mapy": "375630641",
        "menus": [{"name": "클래식 까르보나라", "price": "19,000원"}, "(...줄임)"],
        "reviews": ["주차 가능하고 창밖 경치가 좋아요", "(...줄임)"],
        "description": "예쁘고 편안한 공간에서 맛있는 커피와 브런치를 즐겨보세요 :)",
    }
    path = tmp_path / "seed.json"
    path.write_text(json.dumps([rec], ensure_ascii=False), encoding="utf-8")
    store = DocumentStore(tmp_path / "s.sqlite")
    report = ingest([path], store, get_enricher("offline"))
    assert report.new == 1
    doc = store.get("1993900101")
    assert doc is not None
    assert doc.title == "우드멜로우"
    assert doc.lat == pytest.approx(37.5630641) and doc.lon == pytest.approx(127.1551201)
    assert doc.menus[0].price == 19000
    assert "식당 이름: 우드멜로우" in doc.summary


def test_store_migrations_are_applied_in_order(tmp_path: Path) -> None:
    s = DocumentStore(tmp_path / "m.sqlite")
    assert s.schema_version == len(MIGRATIONS)
    s.close()
    reopened = DocumentStore(tmp_path / "m.sqlite")
    assert reopened.schema_version == len(MIGRATIONS)
