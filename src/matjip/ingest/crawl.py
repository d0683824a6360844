"""The crawl document (docs/design.md) and a reader for JSON arrays or JSONL, plain or gzip.

A malformed record never stops a read: :func:`read_records` yields it as a :class:`Reject`
with its file, line and reason, and carries on.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from matjip.errors import IngestError


class CrawlMenu(BaseModel):
    model_config = ConfigDict(extra="allow")

    name: str
    price: str = ""

    @field_validator("price", mode="before")
    @classmethod
    def _price_to_text(cls, v: Any) -> str:
        if v is None:
            return ""
        if isinstance(v, bool):
            raise ValueError("price must be text or a number")
        if isinstance(v, int | float):
            return f"{int(v):,}원"
        return str(v)


class CrawlDocument(BaseModel):
    """One crawled restaurant. Unknown fields are kept (``model_extra``), never fatal."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)

    place_id: str
    search_keyword: str | None = None
    title: str
    category: str = ""
    address: str = ""
    roadAddress: str = ""
    mapx: str | None = None
    mapy: str | None = None
    menus: list[CrawlMenu] = Field(default_factory=list)
    reviews: list[str] = Field(default_factory=list)
    description: str = ""
    telephone: str | None = None
    businessHours: str | None = None
    reviewKeywords: dict[str, int] = Field(default_factory=dict)
    rating: float | None = None
    reviewCount: int | None = None
    source: str | None = None

    @field_validator("place_id", mode="before")
    @classmethod
    def _id_text(cls, v: Any) -> str:
        if isinstance(v, bool) or v is None:
            raise ValueError("place_id is required")
        s = str(v).strip()
        if not s:
            raise ValueError("place_id is empty")
        return s

    @field_validator("title")
    @classmethod
    def _title_present(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("title is empty")
        return v

    @field_validator("mapx", "mapy", mode="before")
    @classmethod
    def _coord_text(cls, v: Any) -> str | None:
        if v is None or v == "":
            return None
        if isinstance(v, bool):
            raise ValueError("coordinate must be text or a number")
        return str(v)

    @field_validator("address", "roadAddress", "description", "category", mode="before")
    @classmethod
    def _none_to_empty(cls, v: Any) -> Any:
        return "" if v is None else v

    @field_validator("menus", mode="before")
    @classmethod
    def _drop_placeholder_menus(cls, v: Any) -> Any:
        # seed examples abbreviate lists with a bare string such as "(...줄임)"
        if v is None:
            return []
        if isinstance(v, list):
            return [m for m in v if not isinstance(m, str)]
        return v

    @field_validator("reviews", mode="before")
    @classmethod
    def _reviews_list(cls, v: Any) -> Any:
        if v is None:
            return []
        if isinstance(v, list):
            return [r for r in v if isinstance(r, str) and r.strip() and r.strip() != "(...줄임)"]
        return v

    @field_validator("reviewKeywords", mode="before")
    @classmethod
    def _keywords(cls, v: Any) -> Any:
        return {} if v is None else v

    @property
    def extra_fields(self) -> dict[str, Any]:
        return dict(self.model_extra or {})


@dataclass(frozen=True)
class RawRecord:
    source: str
    line: int  # 1-based line (JSONL) or element index + 1 (JSON array)
    text: str  # canonical JSON text of the record (used for content hashing)
    data: dict[str, Any]

    @property
    def content_hash(self) -> str:
        return hashlib.sha1(self.text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Reject:
    source: str
    line: int
    reason: str
    place_id: str | None = None


def _open_text(path: Path) -> Iterator[str]:
    with path.open("rb") as fh:
        magic = fh.read(2)
    opener = gzip.open if magic == b"\x1f\x8b" else open
    try:
        with opener(path, "rt", encoding="utf-8-sig", errors="strict") as fh:  # type: ignore[operator]
            yield from fh
    except (OSError, EOFError, UnicodeDecodeError) as exc:
        raise IngestError(f"{path}: cannot read ({exc})") from exc


def _first_non_space(path: Path) -> str:
    for line in _open_text(path):
        stripped = line.lstrip()
        if stripped:
            return stripped[0]
    return ""


def read_raw(path: Path) -> Iterator[RawRecord | Reject]:
    """Yield raw records (dicts) or rejects for undecodable lines, in file order."""
    if not path.exists():
        raise IngestError(f"{path}: no such file")
    source = str(path)
    if _first_non_space(path) == "[":
        text = "".join(_open_text(path))
        try:
            items = json.loads(text)
        except json.JSONDecodeError as exc:
            yield Reject(
                source, exc.lineno, f"invalid JSON array: {exc.msg} (line {exc.lineno}, column {exc.colno})"
            )
            return
        for i, item in enumerate(items, start=1):
            if not isinstance(item, dict):
                yield Reject(source, i, f"record is {type(item).__name__}, not an object")
                continue
            yield RawRecord(source, i, json.dumps(item, ensure_ascii=False, sort_keys=True), item)
        return
    for lineno, line in enumerate(_open_text(path), start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            yield Reject(source, lineno, f"invalid JSON: {exc.msg} (column {exc.colno})")
            continue
        if not isinstance(item, dict):
            yield Reject(source, lineno, f"record is {type(item).__name__}, not an object")
            continue
        yield RawRecord(source, lineno, json.dumps(item, ensure_ascii=False, sort_keys=True), item)


def parse_record(raw: RawRecord) -> CrawlDocument | Reject:
    """Validate one raw record; a validation failure becomes a reject with a readable reason."""
    try:
        return CrawlDocument.model_validate(raw.data)
    except ValidationError as exc:
        reasons = []
        for err in exc.errors()[:3]:
            loc = ".".join(str(p) for p in err["loc"]) or "record"
            reasons.append(f"{loc}: {err['msg']}")
        pid = raw.data.get("place_id")
        return Reject(raw.source, raw.line, "; ".join(reasons), str(pid) if pid is not None else None)


def read_records(path: Path) -> Iterator[tuple[RawRecord, CrawlDocument] | Reject]:
    for item in read_raw(path):
        if isinstance(item, Reject):
            yield item
            continue
        parsed = parse_record(item)
        yield parsed if isinstance(parsed, Reject) else (item, parsed)
