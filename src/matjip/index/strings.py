"""The string columns of the embedded index on disk: one memory-mapped UTF-8 file, read by row.

``strings.u8`` holds every string column (place ids, titles, the normalised title, menu, address
and kind keys, and the distinct menu entries) as its texts, each followed by a newline;
``columns.npz`` holds where each text starts (``str_off:<column>``, one more than the texts) and
the alive rows sorted by place id (``pid_order``); ``strings.json`` names the layout. Nothing is
parsed when an index opens, and every worker of ``matjip serve --workers N`` reads the same pages
of the page cache (a JSON list of a million strings took ~3 s and ~0.8 GB in each process).

An index written before (``strings.json`` holding the lists themselves) is read as before.
"""

from __future__ import annotations

import json
import os
from bisect import bisect_left
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, overload

import numpy as np
import numpy.typing as npt

LAYOUT = "utf8-lines"
DATA_FILE = "strings.u8"
OFF_PREFIX = "str_off:"
PID_ORDER = "pid_order"

IntArray = npt.NDArray[np.int64]


class StringColumn(Sequence[str]):
    """Texts ``data[off[i] : off[i + 1] - 1]`` (UTF-8, each followed by a newline), decoded on access."""

    def __init__(self, data: npt.NDArray[np.uint8], off: IntArray) -> None:
        self.data = data
        self.off = off
        self._raw = data.data if len(data) else memoryview(b"")

    def __len__(self) -> int:
        return len(self.off) - 1

    @overload
    def __getitem__(self, i: int) -> str: ...

    @overload
    def __getitem__(self, i: slice) -> list[str]: ...

    def __getitem__(self, i: int | slice) -> str | list[str]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        return str(self._raw[int(self.off[i]) : int(self.off[i + 1]) - 1], "utf-8")

    def __iter__(self) -> Iterator[str]:
        if not len(self):
            return iter(())
        start, end = int(self.off[0]), int(self.off[-1])
        text = str(self._raw[start:end], "utf-8")
        return iter(text.split("\n")[:-1]) if text.count("\n") == len(self) else super().__iter__()

    def joined(self) -> str | None:
        """All texts joined by newlines (with a final one), when no text holds a newline itself."""
        start, end = int(self.off[0]), int(self.off[-1])
        text = str(self._raw[start:end], "utf-8")
        return text if text.count("\n") == len(self) else None


class PidIndex(Mapping[str, int]):
    """Place id → its alive row, by binary search over the alive rows sorted by place id."""

    def __init__(self, pids: Sequence[str], order: IntArray) -> None:
        self.pids = pids
        self.order = order

    def get(self, pid: str, default: Any = None) -> Any:
        at = bisect_left(self.order, pid, key=lambda r: self.pids[int(r)])
        if at < len(self.order) and self.pids[int(self.order[at])] == pid:
            return int(self.order[at])
        return default

    def __getitem__(self, pid: str) -> int:
        row = self.get(pid)
        if row is None:
            raise KeyError(pid)
        return int(row)

    def __contains__(self, pid: object) -> bool:
        return isinstance(pid, str) and self.get(pid) is not None

    def __iter__(self) -> Iterator[str]:
        return (self.pids[int(r)] for r in self.order)

    def __len__(self) -> int:
        return len(self.order)


def pid_order(pids: Sequence[str], alive: npt.NDArray[np.bool_]) -> IntArray:
    """The alive rows sorted by place id (code point order; a later row wins a duplicate id)."""
    rows = np.flatnonzero(alive).tolist()
    latest = {pids[r]: r for r in rows}
    return np.asarray([latest[p] for p in sorted(latest)], dtype=np.int64)


def write(directory: Path, strings: Mapping[str, Sequence[str]], cols: dict[str, np.ndarray]) -> None:
    """``strings.u8`` and ``strings.json`` in ``directory``; the offsets and the place-id order go
    into ``cols`` (saved with the other columns)."""
    tmp = directory / (DATA_FILE + ".tmp")
    at = 0
    with tmp.open("wb") as fh:
        for name, texts in strings.items():
            data = "".join(t + "\n" for t in texts).encode("utf-8")
            lens = np.fromiter((len(t.encode("utf-8")) + 1 for t in texts), dtype=np.int64, count=len(texts))
            cols[OFF_PREFIX + name] = (at + np.concatenate([[0], np.cumsum(lens)])).astype(np.int64)
            fh.write(data)
            at += len(data)
    os.replace(tmp, directory / DATA_FILE)
    cols[PID_ORDER] = pid_order(strings["place_ids"], cols["alive"])
    layout = {"layout": LAYOUT, "file": DATA_FILE, "columns": list(strings)}
    jtmp = directory / "strings.json.tmp"
    jtmp.write_text(json.dumps(layout), encoding="utf-8")
    os.replace(jtmp, directory / "strings.json")


def read(directory: Path, cols: dict[str, np.ndarray]) -> tuple[dict[str, Sequence[str]], Mapping[str, int]]:
    """The string columns of the version in ``directory`` and its place-id index (empty for an
    index written before: the snapshot builds a dict), from the offsets in ``cols``."""
    raw = json.loads((directory / "strings.json").read_text(encoding="utf-8"))
    if raw.get("layout") != LAYOUT:
        return {k: list(v) for k, v in raw.items()}, {}
    path = directory / DATA_FILE
    size = path.stat().st_size
    data = np.asarray(np.memmap(path, dtype=np.uint8, mode="r")) if size else np.zeros(0, np.uint8)
    out: dict[str, Sequence[str]] = {}
    for name in raw["columns"]:
        out[name] = StringColumn(data, cols[OFF_PREFIX + name])
    order = cols[PID_ORDER]
    return out, PidIndex(out["place_ids"], order)
