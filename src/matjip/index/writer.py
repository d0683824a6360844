"""Writing versions of the embedded index: a whole build, or a copy of the current version with
documents appended or tombstoned. Rows are append-only: an upsert writes a new row and tombstones
the old one (``alive``), a delete tombstones; a rebuild compacts. Every function here writes into
a version directory that nobody reads yet; :class:`~matjip.index.embedded.EmbeddedIndex` switches
to it (:mod:`matjip.index.layout`) once :func:`finish_version` has written its manifest."""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Sequence, Sized
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import tantivy

from matjip.documents import Restaurant
from matjip.index import layout, quantized, signs
from matjip.index.analyzer import analyze_documents, embedding_text
from matjip.index.backend import BuildProgress
from matjip.index.batches import batched
from matjip.index.columns import (
    GEO_LEVELS,
    PRICE_EDGES,
    STRING_COLUMNS,
    Rows,
    Vocab,
    concat_columns,
    finish_columns,
)
from matjip.index.embed.base import Embedder
from matjip.index.snapshot import Snapshot
from matjip.index.storage import BACKEND_NAME, FORMAT_VERSION, save_columns, schema, tantivy_doc, write_json

BUILD_BATCH = 1000  # documents analysed per Kiwi batch in a build
EMBED_BATCH = 1024  # texts embedded per call


@dataclass
class _Analysed:
    """A build's rows after the first pass: columns, what to embed, and the superseded rows."""

    vocab: Vocab = field(default_factory=Vocab)
    rows: Rows = field(init=False)
    texts: list[str] = field(default_factory=list)
    dead: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rows = Rows(self.vocab, [], 0)


def write_build(
    tmp: Path,
    docs: Iterable[Restaurant],
    embedder: Embedder,
    progress: BuildProgress | None = None,
    state: dict[str, Any] | None = None,
) -> None:
    """A whole version in the new directory ``tmp`` from ``docs`` (the last copy of a place id
    wins), with ``state`` as ``store_state.json``; refits ``embedder`` in place."""
    report = progress or (lambda stage, done, total: None)
    started = time.perf_counter()
    tmp.mkdir(parents=True)
    (tmp / "tantivy").mkdir()
    built = _write_rows(tmp, docs, report)
    if built.texts:
        report("fit", 0, len(built.texts))
        embedder.fit(built.texts)
        report("fit", len(built.texts), len(built.texts))
    dim = int(embedder.dim)
    _write_vectors(tmp, embedder, built.texts, dim, report)
    (tmp / "embedder").mkdir()
    embedder.save(tmp / "embedder")
    rows = built.rows
    cols = finish_columns(rows.arrays())
    if built.dead:
        cols["alive"][np.asarray(built.dead, dtype=np.int64)] = False
    save_columns(tmp, cols, {**rows.strings, "menu_vocab": rows.menu_vocab})
    now = datetime.now(UTC).isoformat(timespec="seconds")
    meta = {
        "format": FORMAT_VERSION,
        "backend": BACKEND_NAME,
        "embedder": {"name": embedder.name, "dim": dim},
        "rows": rows.n,
        "geo_levels": list(GEO_LEVELS),
        "price_edges": list(PRICE_EDGES),  # every row has the tantivy terms of its price buckets
        "vocab": built.vocab.to_json(),
        "built_at": now,
        "updated_at": now,
        "build_seconds": round(time.perf_counter() - started, 2),
    }
    write_json(tmp / "meta.json", meta)
    if state is not None:
        write_json(tmp / "store_state.json", state)
    layout.write_manifest(tmp)
    report("write", rows.n, rows.n)


def _write_rows(tmp: Path, docs: Iterable[Restaurant], report: BuildProgress) -> _Analysed:
    """``docs.tsv`` and the tantivy index of a build; the columns stay in memory."""
    total = len(docs) if isinstance(docs, Sized) else None
    index = tantivy.Index(schema(), path=str(tmp / "tantivy"))
    writer = index.writer(heap_size=256_000_000, num_threads=1)
    built = _Analysed()
    latest: dict[str, int] = {}
    done = 0
    with (tmp / "docs.tsv").open("w", encoding="utf-8") as fh:
        for batch in batched(docs, BUILD_BATCH):
            for doc, terms in zip(batch, analyze_documents(batch), strict=True):
                prev = latest.get(doc.place_id)
                if prev is not None:
                    built.dead.append(prev)
                    writer.delete_documents_by_term("pid", doc.place_id)
                row, line, filt = built.rows.add(doc, terms)
                latest[doc.place_id] = row
                fh.write(line + "\n")
                writer.add_document(tantivy_doc(row, doc.place_id, terms, filt))
                built.texts.append(embedding_text(doc))
            done += len(batch)
            report("analyze", done, total)
    writer.commit()
    writer.wait_merging_threads()
    return built


def _write_vectors(tmp: Path, embedder: Embedder, texts: list[str], dim: int, report: BuildProgress) -> None:
    seen: dict[str, np.ndarray] = {}  # a text's vector, for its later copies (up to SEEN_MAX texts)
    with (tmp / "vectors.f32").open("wb") as vf:
        for i in range(0, len(texts), EMBED_BATCH):
            chunk = texts[i : i + EMBED_BATCH]
            vf.write(np.ascontiguousarray(_chunk_vectors(embedder, chunk, dim, seen)).tobytes())
            report("embed", min(len(texts), i + EMBED_BATCH), len(texts))
    _write_quantized(tmp, len(texts), dim, None, None)


SEEN_MAX = 100_000  # distinct texts whose vectors a build keeps for their copies (~100 MB)


def _chunk_vectors(embedder: Embedder, chunk: list[str], dim: int, seen: dict[str, np.ndarray]) -> np.ndarray:
    """The vectors of ``chunk``: each distinct text embedded once, texts seen earlier in the build
    not again (a text's vector does not depend on the others embedded with it)."""
    todo = [t for t in dict.fromkeys(chunk) if t not in seen]
    got: dict[str, np.ndarray] = {}
    if todo:
        vecs = np.asarray(embedder.embed_documents(todo), dtype=np.float32).reshape(len(todo), dim)
        got = dict(zip(todo, vecs, strict=True))
        for t, v in got.items():
            if len(seen) < SEEN_MAX:
                seen[t] = v
    if not chunk:
        return np.zeros((0, dim), dtype=np.float32)
    return np.stack([got[t] if t in got else seen[t] for t in chunk])


def _write_quantized(
    d: Path, n: int, dim: int, old: quantized.Quantized | None, old_signs: signs.Signs | None
) -> None:
    """The int8 dimension-major copy and the sign bits of ``d``'s ``vectors.f32`` (their first
    rows from ``old`` / ``old_signs``)."""
    if n and dim:
        mapped = np.memmap(d / "vectors.f32", dtype=np.float32, mode="r", shape=(n, dim))
        quantized.write(d, np.asarray(mapped), old)
        signs.write(d, np.asarray(mapped), old_signs)
        del mapped
    else:
        quantized.write(d, np.zeros((n, dim), dtype=np.float32))
        signs.write(d, np.zeros((n, dim), dtype=np.float32))


@dataclass
class Version:
    """What a new version's files hold besides its rows: the columns, strings and vocabularies
    :func:`finish_version` writes, and the row count."""

    cols: dict[str, np.ndarray]
    strings: dict[str, Sequence[str]]
    vocab: Vocab
    n: int


def append_docs(s: Snapshot, d: Path, batch: list[Restaurant], embedder: Embedder) -> Version:
    """Append ``batch`` (distinct place ids) as new rows to the copy ``d`` of ``s``'s version,
    tombstoning the rows they replace."""
    terms = analyze_documents(batch)
    dim = int(embedder.dim)
    vecs = np.asarray(embedder.embed_documents([embedding_text(x) for x in batch]), dtype=np.float32).reshape(
        len(batch), dim
    )
    vocab = s.vocab.copy()
    rows = Rows(vocab, list(s.strings["menu_vocab"]), s.n, s.meta["geo_levels"], s.meta.get("price_edges"))
    writer = tantivy.Index.open(str(d / "tantivy")).writer(heap_size=64_000_000, num_threads=1)
    lines: list[str] = []
    replaced: list[int] = []
    for doc, t in zip(batch, terms, strict=True):
        old = s.pid_row.get(doc.place_id)
        if old is not None:
            replaced.append(old)
        writer.delete_documents_by_term("pid", doc.place_id)
        row, line, filt = rows.add(doc, t)
        lines.append(line)
        writer.add_document(tantivy_doc(row, doc.place_id, t, filt))
    writer.commit()
    writer.wait_merging_threads()
    _append_files(s, d, lines, vecs, dim)
    cols = finish_columns(concat_columns(dict(s.cols), rows.arrays()))
    if replaced:
        cols["alive"][np.asarray(replaced, dtype=np.int64)] = False
    strings: dict[str, Sequence[str]] = {k: [*s.strings[k], *rows.strings[k]] for k in STRING_COLUMNS}
    strings["menu_vocab"] = rows.menu_vocab
    return Version(cols, strings, vocab, s.n + rows.n)


def _append_files(s: Snapshot, d: Path, lines: list[str], vecs: np.ndarray, dim: int) -> None:
    """Append to the row files, first cutting anything a crashed write left behind."""
    with (d / "docs.tsv").open("r+b") as fh:
        fh.truncate(int(s.doc_off[-1]))
        fh.seek(0, os.SEEK_END)
        fh.write("".join(x + "\n" for x in lines).encode("utf-8"))
    with (d / "vectors.f32").open("a+b") as vf:
        vf.truncate(s.n * dim * 4)
        vf.seek(0, os.SEEK_END)
        vf.write(np.ascontiguousarray(vecs).tobytes())
    if s.quantized is not None or not s.n:  # an index written without the copy stays without it
        _write_quantized(d, s.n + len(vecs), dim, s.quantized, s.signs)


def tombstone(s: Snapshot, d: Path, rows: list[tuple[str, int]]) -> Version:
    """Delete the (place id, row) ``rows`` in the copy ``d`` of ``s``'s version."""
    writer = tantivy.Index.open(str(d / "tantivy")).writer(heap_size=32_000_000, num_threads=1)
    for pid, _ in rows:
        writer.delete_documents_by_term("pid", pid)
    writer.commit()
    writer.wait_merging_threads()
    cols = dict(s.cols)
    cols["alive"] = cols["alive"].copy()
    cols["alive"][np.asarray([r for _, r in rows], dtype=np.int64)] = False
    return Version(cols, s.strings, s.vocab, s.n)


def finish_version(s: Snapshot, d: Path, version: Version, state: dict[str, Any] | None = None) -> None:
    """Write the columns and meta of the new version ``d`` (a successor of ``s``), then its
    manifest last."""
    save_columns(d, version.cols, version.strings)
    meta = dict(s.meta)
    meta["format"] = FORMAT_VERSION  # the string columns are written in the current layout
    meta["rows"] = version.n
    meta["vocab"] = version.vocab.to_json()
    meta["updated_at"] = datetime.now(UTC).isoformat(timespec="seconds")
    write_json(d / "meta.json", meta)
    if state is not None:
        write_json(d / "store_state.json", state)
    layout.write_manifest(d)
