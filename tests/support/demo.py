"""The demo data's raw crawl records: the stratified sample the shared fixtures ingest, and look-ups
of a record by place id (tests check answers against RAW records, never the product's enrichment)."""

from __future__ import annotations

import gzip
import json
from functools import cache
from pathlib import Path
from typing import Any

from matjip.settings import DEMO_DATA

SAMPLE_BRANDS = ("진대감", "버거킹", "맥도날드", "롯데리아", "맘스터치", "교촌", "BBQ", "본죽")
SAMPLE_EVERY = 5


def write_sample(path: Path, every: int = SAMPLE_EVERY) -> int:
    """Every ``every``-th demo record plus all records of a few brands used by tests."""
    n = 0
    with gzip.open(DEMO_DATA, "rt", encoding="utf-8") as src, path.open("w", encoding="utf-8") as dst:
        for i, line in enumerate(src):
            rec = json.loads(line)
            if i % every == 0 or any(b in rec.get("title", "") for b in SAMPLE_BRANDS):
                dst.write(line)
                n += 1
    return n


@cache
def raw_records() -> dict[str, dict[str, Any]]:
    with gzip.open(DEMO_DATA, "rt", encoding="utf-8") as f:
        return {str(r["place_id"]): r for r in map(json.loads, f)}


def raw(place_id: str) -> dict[str, Any]:
    return raw_records()[place_id]


def menu_names(rec: dict[str, Any]) -> list[str]:
    return [str(m.get("name") or "") for m in rec.get("menus") or []]
