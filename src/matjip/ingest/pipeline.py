"""The ingest run: read → dedupe → skip unchanged → preprocess + enrich + summarise → store.

Before any record is processed, one pass over the whole run finds the coordinates the crawl gave
as a placeholder to many addresses and places those records again (:mod:`matjip.ingest.placement`).

Work is committed in batches together with a per-input checkpoint, so a crash or Ctrl-C loses
at most one batch and never duplicates: documents are keyed by ``place_id`` and each carries
the hash of its raw record, so re-ingesting unchanged input does no work.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from matjip.documents import Restaurant
from matjip.ingest.crawl import CrawlDocument, RawRecord, Reject, parse_record, read_raw
from matjip.ingest.enrich import Enricher
from matjip.ingest.enrich.rules import reader_version
from matjip.ingest.limits import TRUNCATED_FLAG, IngestLimits, cap_document
from matjip.ingest.placement import Placement, located, placements
from matjip.ingest.preprocess import PIPELINE_VERSION, to_restaurants
from matjip.ingest.store import DocumentStore
from matjip.kinds import kinds

BATCH_SIZE = 256

ProgressFn = Callable[[int], None]


@dataclass
class IngestReport:
    read: int = 0
    new: int = 0
    updated: int = 0
    unchanged: int = 0
    rejected: int = 0
    superseded: int = 0  # an earlier record with the same place_id in the input; the later one wins
    resumed: int = 0  # skipped because a previous interrupted run had already committed them
    rejects: list[Reject] = field(default_factory=list)
    elapsed_s: float = 0.0
    processed: int = 0  # records that went through preprocess + enrich + summary
    truncated: int = 0  # records cut to the size limits (stored, flagged 'truncated')

    @property
    def balanced(self) -> bool:
        parts = self.new + self.updated + self.unchanged + self.rejected + self.superseded + self.resumed
        return self.read == parts

    @property
    def changed(self) -> int:
        return self.new + self.updated

    @property
    def docs_per_s(self) -> float:
        return self.processed / self.elapsed_s if self.elapsed_s > 0 else 0.0


def file_fingerprint(path: Path) -> str:
    h = hashlib.sha1()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def record_hash(raw: RawRecord, enricher_name: str, placement: Placement | None = None) -> str:
    # new kinds data → documents re-classified; a new review reader (rules, words, code) → read again
    version = f"{PIPELINE_VERSION}+kinds:{kinds().version}+reader:{reader_version()}"
    placed = "" if placement is None else f"\x00{placement}"  # a new placement → the record re-processed
    return hashlib.sha1(f"{version}\x00{enricher_name}\x00{raw.text}{placed}".encode()).hexdigest()


def _place_key(raw: RawRecord) -> str | None:
    pid = raw.data.get("place_id")
    if pid is None or isinstance(pid, bool | dict | list):
        return None
    s = str(pid).strip()
    return s or None


@dataclass
class _Pending:
    raw: RawRecord
    doc: CrawlDocument
    digest: str
    is_new: bool
    truncated: list[str] = field(default_factory=list)
    placement: Placement | None = None


def scan(paths: Sequence[Path]) -> list[tuple[Path, list[RawRecord | Reject]]]:
    """Read every input once (cheap JSON decoding only)."""
    return [(p, list(read_raw(p))) for p in paths]


def count_records(scanned: Sequence[tuple[Path, list[RawRecord | Reject]]]) -> int:
    return sum(len(items) for _, items in scanned)


def ingest(
    paths: Sequence[Path],
    store: DocumentStore,
    enricher: Enricher,
    *,
    resume: bool = False,
    progress: ProgressFn | None = None,
    scanned: Sequence[tuple[Path, list[RawRecord | Reject]]] | None = None,
    batch_size: int = BATCH_SIZE,
    limits: IngestLimits | None = None,
) -> IngestReport:
    """Ingest ``paths`` into ``store`` and report what happened. Records are cut to ``limits``
    (default :class:`~matjip.ingest.limits.IngestLimits`) before they are processed."""
    limits = limits or IngestLimits()
    started = time.perf_counter()
    report = IngestReport()
    if scanned is None:
        scanned = scan(paths)

    # later record wins: remember the last position of every place_id across all inputs
    last_pos: dict[str, tuple[int, int]] = {}
    winners: dict[str, RawRecord] = {}
    for si, (_, items) in enumerate(scanned):
        for ii, item in enumerate(items):
            if isinstance(item, RawRecord):
                key = _place_key(item)
                if key is not None:
                    last_pos[key] = (si, ii)
                    winners[key] = item
    placed = placements(located(key, raw.data) for key, raw in winners.items())

    stored = store.hashes()

    for si, (path, items) in enumerate(scanned):
        source = str(path)
        fingerprint = file_fingerprint(path)
        skip_until = 0
        if resume:
            cp = store.checkpoint(source)
            if cp is not None and cp[0] == fingerprint and not cp[2]:
                skip_until = cp[1]
        pending: list[_Pending] = []
        last_line = 0

        def flush(
            upto_line: int, pending: list[_Pending] = pending, source: str = source, fp: str = fingerprint
        ) -> None:
            if pending:
                docs = _process(pending, enricher, report)
                store.write_batch(
                    [(d, p.digest, p.raw.source, p.raw.line) for d, p in docs],
                    checkpoint=(source, fp, upto_line),
                )
                for _, p in docs:
                    if p.is_new:
                        report.new += 1
                    else:
                        report.updated += 1
                    stored[p.doc.place_id] = p.digest
                pending.clear()
            else:
                store.set_checkpoint(source, fp, upto_line, finished=False)

        for ii, item in enumerate(items):
            report.read += 1
            line = item.line
            last_line = line
            if isinstance(item, Reject):
                if resume and line <= skip_until:
                    report.resumed += 1
                else:
                    report.rejected += 1
                    report.rejects.append(item)
            else:
                key = _place_key(item)
                if key is not None and last_pos.get(key) != (si, ii):
                    report.superseded += 1
                elif resume and line <= skip_until:
                    report.resumed += 1
                else:
                    placement = placed.get(key) if key is not None else None
                    digest = record_hash(item, enricher.name, placement)
                    if key is not None and stored.get(key) == digest:
                        report.unchanged += 1
                    else:
                        parsed = parse_record(item)
                        if isinstance(parsed, Reject):
                            report.rejected += 1
                            report.rejects.append(parsed)
                        else:
                            capped, cut = cap_document(parsed, limits)
                            if cut:
                                report.truncated += 1
                            pending.append(
                                _Pending(item, capped, digest, parsed.place_id not in stored, cut, placement)
                            )
            if progress is not None:
                progress(1)
            if len(pending) >= batch_size:
                flush(line)
        flush(last_line)
        store.set_checkpoint(source, fingerprint, last_line, finished=True)

    report.elapsed_s = time.perf_counter() - started
    return report


def _process(
    pending: list[_Pending], enricher: Enricher, report: IngestReport
) -> list[tuple[Restaurant, _Pending]]:
    """Batch-process; if the batch fails, isolate the failing records as rejects."""
    try:
        docs = to_restaurants([p.doc for p in pending], enricher)
        report.processed += len(docs)
        return [(_flag(d, p), p) for d, p in zip(docs, pending, strict=True)]
    except Exception:
        out: list[tuple[Restaurant, _Pending]] = []
        for p in pending:
            try:
                out.append((_flag(to_restaurants([p.doc], enricher)[0], p), p))
                report.processed += 1
            except Exception as exc:  # a bad record must not stop the run
                report.rejected += 1
                report.rejects.append(
                    Reject(
                        p.raw.source,
                        p.raw.line,
                        f"processing failed: {type(exc).__name__}: {exc}",
                        p.doc.place_id,
                    )
                )
        return out


def _flag(doc: Restaurant, p: _Pending) -> Restaurant:
    if p.truncated and TRUNCATED_FLAG not in doc.flags:
        doc.flags.append(TRUNCATED_FLAG)
    if p.placement is not None:
        doc.lat, doc.lon = p.placement.lat, p.placement.lon
        if p.placement.flag not in doc.flags:
            doc.flags.append(p.placement.flag)
    return doc


def write_rejects(path: Path, rejects: Sequence[Reject]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as fh:
        for r in rejects:
            fh.write(
                json.dumps(
                    {"file": r.source, "line": r.line, "reason": r.reason, "place_id": r.place_id},
                    ensure_ascii=False,
                )
                + "\n"
            )
