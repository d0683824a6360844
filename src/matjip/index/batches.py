"""Cutting a stream of items into lists of a fixed size (the last may be shorter)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")


def batched(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """``items`` in consecutive lists of ``size`` (``itertools.batched`` from Python 3.12, as lists)."""
    batch: list[T] = []
    for it in items:
        batch.append(it)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch
