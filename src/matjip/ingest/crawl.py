"""The crawl document (docs/design.md) and a reader for JSON arrays or JSONL, plain or gzip.

A malformed record never stops a read: :func:`read_records` yields it as a :class:`Reject`
with its file, line and reason, and carries on.
"""

from __future__ import annotations

import hashlib
import json
import zlib
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


_GZIP_MAGIC = b"\x1f\x8b"
_READ_CHUNK = 1 << 16
_BOM = b"\xef\xbb\xbf"


class _Stopped(Exception):
    """Reading stopped early: a truncated or corrupt gzip stream, or an unreadable file."""


def _chunks(path: Path) -> Iterator[bytes]:
    """The file's bytes in chunks, gunzipped when it is gzip (several members allowed). Everything
    that could be decompressed is yielded before :class:`_Stopped` says where reading stopped."""
    try:
        fh = path.open("rb")
    except OSError as exc:
        raise IngestError(f"{path}: cannot read ({exc})") from exc
    with fh:
        first = fh.read(_READ_CHUNK)
        if not first.startswith(_GZIP_MAGIC):
            while first:
                yield first
                try:
                    first = fh.read(_READ_CHUNK)
                except OSError as exc:
                    raise _Stopped(f"read error: {exc}") from exc
            return
        dec = zlib.decompressobj(16 + zlib.MAX_WBITS)
        data = first
        fed = False  # the current member has received input
        while True:
            while data:
                fed = True
                try:
                    out = dec.decompress(data)
                except zlib.error as exc:
                    raise _Stopped(f"corrupt gzip data ({exc})") from exc
                if out:
                    yield out
                if dec.eof:  # end of one member; another may follow
                    data = dec.unused_data
                    dec = zlib.decompressobj(16 + zlib.MAX_WBITS)
                    fed = False
                    if data and not _GZIP_MAGIC.startswith(data[:2]):
                        return  # trailing garbage after the last member, as gzip(1) ignores it
                else:
                    data = b""
            try:
                data = fh.read(_READ_CHUNK)
            except OSError as exc:
                raise _Stopped(f"read error: {exc}") from exc
            if not data:
                break
        if fed and not dec.eof:
            tail = dec.flush()
            if tail:
                yield tail
            raise _Stopped("truncated gzip: the compressed data ended before the end of the stream")


def _lines(path: Path) -> Iterator[bytes | _Stopped]:
    """Raw lines (without the line break) in order; a :class:`_Stopped` last when reading stopped
    early. A last line without a line break that was cut by the stop is part of the stop."""
    pending = b""
    try:
        for chunk in _chunks(path):
            pending += chunk
            *complete, pending = pending.split(b"\n")
            yield from complete
    except _Stopped as stop:
        if pending:
            stop.args = (f"{stop.args[0]}; an incomplete last line of {len(pending):,} bytes was dropped",)
        yield stop
        return
    if pending:
        yield pending


def _decode(raw: bytes, first: bool) -> str:
    if first and raw.startswith(_BOM):
        raw = raw[len(_BOM) :]
    return raw.decode("utf-8")


def _first_non_space(path: Path) -> str:
    try:
        for chunk in _chunks(path):
            stripped = chunk.lstrip().lstrip(_BOM).lstrip()
            if stripped:
                return chr(stripped[0])
    except _Stopped:
        pass
    return ""


def _undecodable(item: Any) -> bool:
    """True when a decoded JSON value holds bytes that were not UTF-8 (kept as lone surrogates)."""
    text = json.dumps(item, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _read_array(path: Path, source: str) -> Iterator[RawRecord | Reject]:
    """A JSON array, element by element: a bad element is a reject, the ones before it are kept."""
    parts: list[bytes] = []
    stopped: _Stopped | None = None
    try:
        for chunk in _chunks(path):
            parts.append(chunk)
    except _Stopped as exc:
        stopped = exc
    text = b"".join(parts).decode("utf-8", errors="surrogateescape").lstrip("\ufeff")
    decoder = json.JSONDecoder()
    pos = text.index("[") + 1
    n = len(text)
    index = 0
    while True:
        while pos < n and text[pos] in " \t\r\n":
            pos += 1
        if pos < n and text[pos] == "]":
            return
        if pos >= n:
            reason = "the array ended early" + (f" ({stopped.args[0]})" if stopped else "")
            yield Reject(source, index + 1, f"{reason}; reading stopped after element {index}")
            return
        try:
            item, pos = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            where = f"line {exc.lineno}, column {exc.colno}"
            why = f" ({stopped.args[0]})" if stopped else ""
            yield Reject(
                source,
                index + 1,
                f"invalid JSON array element: {exc.msg} ({where}){why}; reading stopped here",
            )
            return
        index += 1
        if not isinstance(item, dict):
            yield Reject(source, index, f"record is {type(item).__name__}, not an object")
        elif _undecodable(item):
            yield Reject(source, index, "invalid UTF-8 bytes in this element")
        else:
            yield RawRecord(source, index, json.dumps(item, ensure_ascii=False, sort_keys=True), item)
        while pos < n and text[pos] in " \t\r\n":
            pos += 1
        if pos < n and text[pos] == ",":
            pos += 1


def read_raw(path: Path) -> Iterator[RawRecord | Reject]:
    """Yield raw records (dicts) or rejects, in file order.

    JSONL is decoded line by line: a line that is not UTF-8 or not JSON is a reject with its line
    number and the rest of the file is read. A truncated or corrupt gzip keeps every complete line
    before the damage and ends with a reject saying where reading stopped. JSON arrays are read
    element by element the same way.
    """
    if not path.exists():
        raise IngestError(f"{path}: no such file")
    source = str(path)
    if _first_non_space(path) == "[":
        yield from _read_array(path, source)
        return
    lineno = 0
    for raw in _lines(path):
        if isinstance(raw, _Stopped):
            yield Reject(source, lineno + 1, f"{raw.args[0]}; reading stopped after line {lineno}")
            return
        lineno += 1
        try:
            line = _decode(raw, lineno == 1)
        except UnicodeDecodeError as exc:
            yield Reject(source, lineno, f"invalid UTF-8 (byte {exc.start + 1} of the line: {exc.reason})")
            continue
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
