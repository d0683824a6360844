"""The on-disk format of one version of an embedded index (see :mod:`matjip.index.embedded`).

``meta.json`` (format, embedder, rows, vocabularies, timestamps), ``columns.npz`` (aligned, so it
is memory-mapped), ``strings.u8`` and ``strings.json`` (:mod:`matjip.index.strings`), ``docs.tsv``, ``vectors.f32``, ``vectors.q8`` and
``vectors.q8scale`` and ``vectors.i8`` (:mod:`matjip.index.quantized`; optional), ``vectors.sign`` and ``vectors.center``
(:mod:`matjip.index.signs`; optional), ``tantivy/`` and ``embedder/``;
:func:`read_snapshot` opens them all as a :class:`~matjip.index.snapshot.Snapshot`.
"""

from __future__ import annotations

import io
import json
import math
import mmap
import os
import struct
import zipfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import tantivy

from matjip.errors import EmbedderMismatchError, SearchIndexError
from matjip.index import layout
from matjip.index import strings as string_columns
from matjip.index.columns import Vocab
from matjip.index.embed.base import Embedder
from matjip.index.quantized import Quantized
from matjip.index.signs import Signs
from matjip.index.snapshot import Snapshot

FORMAT_VERSION = (
    10  # 4: restaurant kinds; 5: the prior is index.ranking.trust; 6: strings.u8; 7: vectors.sign
)
# 8: menu entries carry the dish forms of words/menu.toml (reference.menu_entries: "유니짜장" is also "유니짜장면");
# an older index lacks them, so it is refused and rebuilt (sync.ensure_index / update_index); 9: "꽃삼겹" is also
# "꽃삼겹살" (menu_forms of 삼겹살); 10: '런치세트 A' is also a 점심특선 line (menu_forms of 점심특선)
READABLE_FORMATS = (10,)
BACKEND_NAME = "embedded"


def schema() -> tantivy.Schema:
    sb = tantivy.SchemaBuilder()
    sb.add_text_field("body", tokenizer_name="whitespace", index_option="freq")
    sb.add_text_field("filt", tokenizer_name="raw", index_option="basic")
    sb.add_text_field("pid", tokenizer_name="raw", index_option="basic")
    sb.add_unsigned_field("row", indexed=True, fast=True)
    return sb.build()


def tantivy_doc(row: int, pid: str, terms: Sequence[str], filt: Sequence[str]) -> tantivy.Document:
    d = tantivy.Document()
    d.add_text("body", " ".join(terms))
    for f in filt:
        d.add_text("filt", f)
    d.add_text("pid", pid)
    d.add_unsigned("row", row)
    return d


def write_json(path: Path, obj: object) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(obj, ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, path)


ALIGN = 64  # where each array's data starts in columns.npz (so a mapped array is aligned)
_ALIGN_EXTRA_ID = 0xD935  # the zip extra field zipalign pads with; readers skip it


def save_columns(directory: Path, cols: dict[str, np.ndarray], strings: Mapping[str, Sequence[str]]) -> None:
    """``columns.npz`` as ``np.savez`` writes it (uncompressed ``.npy`` members, ``np.load`` reads
    it), each member's data starting at a multiple of :data:`ALIGN` in the file (padding in the
    zip extra field), so :func:`map_columns` maps aligned arrays; and the string columns
    (:mod:`matjip.index.strings`, their offsets among the columns)."""
    cols = dict(cols)
    string_columns.write(directory, strings, cols)
    tmp = directory / "columns.tmp.npz"
    with tmp.open("wb") as fh, zipfile.ZipFile(fh, "w", zipfile.ZIP_STORED, allowZip64=True) as zf:
        for name, arr in cols.items():
            buf = io.BytesIO()
            np.lib.format.write_array(buf, np.asanyarray(arr), allow_pickle=False)
            data = buf.getvalue()
            info = zipfile.ZipInfo(name + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
            zip64 = 20 if len(data) * 1.05 > zipfile.ZIP64_LIMIT else 0  # zipfile then appends its own extra
            start = fh.tell() + 30 + len(info.filename.encode()) + zip64
            pad = -start % ALIGN
            if 0 < pad < 4:
                pad += ALIGN
            if pad:
                info.extra = struct.pack("<HH", _ALIGN_EXTRA_ID, pad - 4) + bytes(pad - 4)
            zf.writestr(info, data)
    os.replace(tmp, directory / "columns.npz")


def map_columns(path: Path) -> dict[str, np.ndarray]:
    """``columns.npz`` memory-mapped, read-only: ``np.savez`` stores each array uncompressed
    (a ``.npy`` member of a plain zip), so each is a view of one map of the file where its data
    starts. Every worker of ``matjip serve --workers N`` maps the same pages: the page cache holds
    the columns once, whatever N. One map for the file (a map holds a file descriptor: one per
    array ran an index to dozens). A member that cannot be mapped (compressed, object dtype) is read."""
    out: dict[str, np.ndarray] = {}
    with zipfile.ZipFile(path) as zf, path.open("rb") as fh:
        whole = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) if path.stat().st_size else None
        for info in zf.infolist():
            name = info.filename.removesuffix(".npy")
            if info.compress_type != zipfile.ZIP_STORED or whole is None:
                with zf.open(info) as member:
                    out[name] = np.lib.format.read_array(member)
                continue
            out[name] = _member_array(fh, whole, info)
    return out


def _member_array(fh: Any, whole: mmap.mmap, info: zipfile.ZipInfo) -> np.ndarray:
    """One stored ``.npy`` member as a read-only view of ``whole`` (read into memory when its data
    is unaligned, as in an index written before the columns were aligned, or holds objects)."""
    fh.seek(info.header_offset)
    local = fh.read(30)  # the local file header: its name and extra field lengths at 26..30
    name_len, extra_len = struct.unpack("<HH", local[26:30])
    start = info.header_offset + 30 + name_len + extra_len
    fh.seek(start)
    version = np.lib.format.read_magic(fh)
    if version == (1, 0):
        shape, fortran, dtype = np.lib.format.read_array_header_1_0(fh)
    else:
        shape, fortran, dtype = np.lib.format.read_array_header_2_0(fh)
    if dtype.hasobject or math.prod(shape) == 0:
        fh.seek(start)
        return np.lib.format.read_array(fh)
    view = np.ndarray(shape, dtype=dtype, buffer=whole, offset=fh.tell(), order="F" if fortran else "C")
    return view if view.flags.aligned else np.array(view)


def dir_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def read_snapshot(d: Path, restore_embedder: bool, embedder: Embedder) -> Snapshot:
    """The version in ``d`` as a snapshot, checked against ``embedder`` (whose learnt state is
    restored from the version when ``restore_embedder``)."""
    meta = json.loads((d / "meta.json").read_text(encoding="utf-8"))
    check_meta(d, meta, embedder, restore_embedder)
    cols = map_columns(d / "columns.npz")
    strings, pid_row = string_columns.read(d, cols)
    n = int(meta["rows"])
    dim = int(meta["embedder"]["dim"])
    vectors = map_vectors(d / "vectors.f32", n, dim)
    index = tantivy.Index.open(str(d / "tantivy"))
    index.reload()
    snap = Snapshot(
        directory=d,
        meta=meta,
        cols=cols,
        strings=strings,
        vocab=Vocab.from_json(meta["vocab"]),
        vectors=vectors,
        index=index,
        searcher=index.searcher(),
        schema=index.schema,
        embedder=embedder,
        docs_file=(d / "docs.tsv").open("rb"),
        vectors_file=(d / "vectors.f32").open("rb") if n and dim else None,
        quantized=Quantized.open(d, n, dim),
        signs=Signs.open(d, n, dim),
        pid_row=pid_row,
    )
    if snap.n != n:
        raise SearchIndexError(
            f"{d}: index files disagree ({snap.n} rows vs {n} in meta.json); {layout.RECOVERY}"
        )
    return snap


def check_meta(d: Path, meta: dict[str, Any], embedder: Embedder, restore_embedder: bool) -> None:
    """Refuse another format or another embedder; restore the embedder's learnt state when asked."""
    if meta.get("format") not in READABLE_FORMATS:
        raise SearchIndexError(
            f"{d}: index format {meta.get('format')} is not supported (expected {FORMAT_VERSION}); "
            f"{layout.RECOVERY}"
        )
    built = meta["embedder"]
    if built["name"] != embedder.name:
        raise EmbedderMismatchError(
            f"the index in {d} was built with embedder {built['name']!r} (dim {built['dim']}), "
            f"but embedder {embedder.name!r} is configured; `matjip ingest` rebuilds the index, or set "
            f"MATJIP_EMBEDDER={built['name']}"
        )
    if restore_embedder and (d / "embedder").is_dir():
        embedder.load(d / "embedder")
    if int(embedder.dim) != int(built["dim"]):
        raise EmbedderMismatchError(
            f"the index in {d} holds {built['dim']}-dimensional vectors from {built['name']!r}, "
            f"but the configured embedder produces {embedder.dim}; `matjip ingest` rebuilds the index"
        )


def map_vectors(path: Path, n: int, dim: int) -> np.ndarray:
    """``vectors.f32`` memory-mapped as an (n, dim) float32 matrix."""
    if n and dim:
        # a plain ndarray view of the mapping (it keeps the map alive): indexing an np.memmap
        # goes through the subclass machinery, ~2x slower for a large gather
        return np.asarray(np.memmap(path, dtype=np.float32, mode="r", shape=(n, dim)))
    return np.zeros((n, dim), dtype=np.float32)
