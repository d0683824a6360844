"""Judge for the relevance set (``relevance_set.jsonl``): grades RAW crawl documents against a
hand-written rubric, independently of the product.

The set was written against the raw crawl (``data/kakao_capital.jsonl.gz``) before anyone looked at
the product's output, so this module deliberately imports nothing from ``matjip`` (no ingest, nlu,
index or agent code): only the standard library and pydantic. It has its own text matching, its own
distance and its own opening-hours parser.

Rules of judgement
------------------
A raw document gets

* **grade 2** if it is the right kind AND inside the area AND every hard condition holds on the raw
  fields AND (when the rubric has a soft condition) the soft condition is supported by the raw
  visitor tags;
* **grade 1** if it is the right kind, inside the area and every hard condition holds, but the soft
  condition is unknown or not supported by the tags;
* **grade 0** otherwise: wrong kind, outside the area, or a hard condition broken *or unknown*
  (unknown never satisfies a hard condition; in particular unknown or unparseable hours never
  satisfy ``open_at``).

Definitions (all text matching is case-insensitive substring matching after removing whitespace):

* **Right kind** (``kind``): the category path (e.g. ``"한식>육류,고기>삼겹살"``) contains one of
  ``category_any``, OR the title contains one of ``title_any``, OR at least ``menu_share_min`` of the
  document's named menu lines contain one of ``menu_any``; AND the document matches neither
  ``not_kind.category_any`` (on the category path) nor ``not_kind.title_any`` (on the title).
  ``kind: null`` means any document is the right kind (``not_kind`` still applies).
* **Area**: inside if the document's coordinates (``mapx``/``mapy``, WGS84 x 10^7; empty or 0 means
  unknown) are within ``radius_m`` metres of ``center`` (haversine), OR its road address contains one
  of ``address_any``. ``area: null`` means anywhere.
* **Hard conditions** (``hard``), each must hold:

  - ``tags_any``: ``reviewKeywords`` has a key containing one of the terms with a count >= 1
    (documents without ``reviewKeywords`` fail);
  - ``open_at``: the parsed ``businessHours`` say the place is open at that weekday (Mon=0) and
    time; a span that crosses midnight (``18:00 ~ 02:00``) covers the early hours of the next day;
    an end of ``24:00`` or ``23:59`` is midnight and ``00:00 ~ 24:00`` is all day; spans are read
    literally (``07:00 ~ 06:00`` is open 23 hours) except that an overnight span ending after
    08:00 and shorter than 23 hours (``17:00 ~ 13:00``, a typo) is unknown; days not listed in the
    string are not open (we only know the listed schedule); strings without a time range (the
    crawl often holds only the closing day, e.g. ``"일요일"``), free text, start == end and notes
    that change the schedule (weekday mentions, 격주, 예약, 포장/배달/픽업-only hours, …) are
    unknown;
  - ``price_max``: the median price of the priced menu lines that match ``kind.menu_any`` (all priced
    lines when none match or the rubric has no kind) is <= ``price_max`` won; no priced lines = fail;
  - ``exclude_menu_any``: no named menu line contains any of the terms;
  - ``exclude_category_any`` / ``exclude_title_any``: the category path / title contains none.

* **Soft conditions** (``soft.tags_any``): supported when ``reviewKeywords`` has a key containing one
  of the terms with a count >= 1. Only five tags exist in the crawl (맛, 친절, 가성비, 분위기,
  주차), so soft wishes are mapped to the closest tag (분위기 for 분위기 좋은 / 데이트, and as a
  stated proxy for 조용한; 가성비; 맛 for 맛있는) and the ``note`` of the question says so; wishes
  with no tag at all (회식, 상견례, 배달, 포장 …) carry no rubric and are judged on kind + area.

``expect_none: true`` marks questions whose honest answer is "nothing in the data matches"
(a place outside the crawl, or a combination that has no grade-2 document); their rubric still
describes what would be relevant, and their grade-2 pool is 0.

Usage::

    python -m matjip.eval.relevance_judge            # recompute and check every question's pool
    python -m matjip.eval.relevance_judge --write    # ... and store the pools in the set file
"""

from __future__ import annotations

import argparse
import datetime as dt
import functools
import gzip
import hashlib
import json
import math
import re
import statistics
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from matjip.words import words

EVAL_DIR = Path(__file__).resolve().parent
RAW_DATA = EVAL_DIR.parent / "data" / "kakao_capital.jsonl.gz"
SET_PATH = EVAL_DIR / "relevance_set.jsonl"

Doc = Mapping[str, Any]


# --------------------------------------------------------------------------- rubric models


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class LatLon(_Strict):
    lat: float = Field(ge=-90, le=90)
    lon: float = Field(ge=-180, le=180)


class KindSpec(_Strict):
    label: str
    category_any: list[str] = Field(default_factory=list)
    title_any: list[str] = Field(default_factory=list)
    menu_any: list[str] = Field(default_factory=list)
    menu_share_min: float = Field(default=0.4, gt=0, le=1)


class NotKindSpec(_Strict):
    category_any: list[str] = Field(default_factory=list)
    title_any: list[str] = Field(default_factory=list)


class AreaSpec(_Strict):
    center: LatLon | None = None
    radius_m: float | None = Field(default=None, gt=0)
    address_any: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _center_with_radius(self) -> AreaSpec:
        if (self.center is None) != (self.radius_m is None):
            raise ValueError("center and radius_m go together")
        if self.center is None and not self.address_any:
            raise ValueError("an area needs center+radius_m or address_any (use area: null for anywhere)")
        return self


class OpenAt(_Strict):
    weekday: int = Field(ge=0, le=6)
    time: str = Field(pattern=r"^([01]\d|2[0-3]):[0-5]\d$")

    @property
    def minute(self) -> int:
        hh, mm = self.time.split(":")
        return int(hh) * 60 + int(mm)


class HardSpec(_Strict):
    tags_any: list[str] = Field(default_factory=list)
    open_at: OpenAt | None = None
    price_max: int | None = Field(default=None, gt=0)
    exclude_menu_any: list[str] = Field(default_factory=list)
    exclude_category_any: list[str] = Field(default_factory=list)
    exclude_title_any: list[str] = Field(default_factory=list)


class SoftSpec(_Strict):
    tags_any: list[str] = Field(default_factory=list)


class Rubric(_Strict):
    kind: KindSpec | None = None
    not_kind: NotKindSpec | None = None
    area: AreaSpec | None = None
    hard: HardSpec | None = None
    soft: SoftSpec | None = None
    expect_none: bool = False


class Pool(_Strict):
    grade2: int = Field(ge=0)
    grade1: int = Field(ge=0)


class RelevanceItem(_Strict):
    # r: development sets and the first frozen split; t: the second frozen set (relevance_test2)
    id: str = Field(pattern=r"^[rt]\d{3,4}$")
    split: Literal["dev", "test"]
    question: str = Field(min_length=1)
    now: str
    gps: LatLon | None = None
    rubric: Rubric
    note: str = ""
    pool: Pool | None = None

    @field_validator("now")
    @classmethod
    def _aware_iso(cls, v: str) -> str:
        if dt.datetime.fromisoformat(v).tzinfo is None:
            raise ValueError("now must carry a UTC offset, e.g. +09:00")
        return v


# --------------------------------------------------------------------------- raw-field helpers

_WS = re.compile(r"\s+")


@functools.cache
def norm(text: str) -> str:
    """Case-folded text without whitespace (the form every match is made on); cached."""
    return _WS.sub("", text).casefold()


def contains_any(text: str, terms: Iterable[str]) -> bool:
    t = norm(text)
    for term in terms:
        n = norm(term)
        if n and n in t:
            return True
    return False


def menu_names(doc: Doc) -> list[str]:
    names: list[str] = []
    for m in doc.get("menus") or []:
        name = m.get("name") if isinstance(m, Mapping) else None
        if isinstance(name, str) and name.strip():
            names.append(name)
    return names


_PRICE = re.compile(r"^\s*([\d,]+)\s*원\s*$")


def parse_price(text: object) -> int | None:
    """``"8,500원"`` -> 8500; anything else (empty, ranges, text) -> None."""
    if not isinstance(text, str):
        return None
    m = _PRICE.match(text)
    if not m:
        return None
    digits = m.group(1).replace(",", "")
    return int(digits) if digits.isdigit() and int(digits) > 0 else None


def priced_lines(doc: Doc) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for m in doc.get("menus") or []:
        if not isinstance(m, Mapping):
            continue
        name, price = m.get("name"), parse_price(m.get("price"))
        if isinstance(name, str) and name.strip() and price is not None:
            out.append((name, price))
    return out


def coords(doc: Doc) -> tuple[float, float] | None:
    """(lat, lon) from the crawl's ``mapy``/``mapx`` (WGS84 x 10^7), None when missing or 0."""
    return _coords(str(doc.get("mapx") or ""), str(doc.get("mapy") or ""))


@functools.cache
def _coords(mapx: str, mapy: str) -> tuple[float, float] | None:
    try:
        x, y = int(mapx), int(mapy)
    except ValueError:
        return None
    if x == 0 or y == 0:
        return None
    return y / 1e7, x / 1e7


_EARTH_M = 6_371_000
_M_PER_DEG = math.pi * _EARTH_M / 180


def haversine_m(a: tuple[float, float], b: tuple[float, float]) -> float:
    lat1, lon1, lat2, lon2 = map(math.radians, (*a, *b))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * _EARTH_M * math.asin(math.sqrt(h))


def within_m(center: tuple[float, float], point: tuple[float, float], radius_m: float) -> bool:
    """haversine distance <= radius_m, with a cheap latitude pre-check."""
    if abs(point[0] - center[0]) * _M_PER_DEG > radius_m:
        return False
    return haversine_m(center, point) <= radius_m


def address(doc: Doc) -> str:
    return " ".join(str(doc.get(k) or "") for k in ("roadAddress", "address"))


def has_tag(doc: Doc, terms: Sequence[str]) -> bool:
    kw = doc.get("reviewKeywords")
    if not isinstance(kw, Mapping):
        return False
    for key, count in kw.items():
        if isinstance(count, int | float) and count >= 1 and contains_any(str(key), terms):
            return True
    return False


# --------------------------------------------------------------------------- opening hours

_DAYS = "월화수목금토일"
_SPAN = re.compile(
    r"^(?P<days>[월화수목금토일,~\s]+?|매일)\s+(?P<s>\d{1,2}):(?P<sm>\d{2})\s*~\s*(?P<e>\d{1,2}):(?P<em>\d{2})$"
)
_NOTE = re.compile(r"^(?P<body>[^()]*?)\s*(?:\((?P<note>.*)\))?\s*$")
# notes that change or restrict the schedule -> the string is treated as unknown
_SCHEDULE_NOTES: Final = words("eval_phrases", "schedule_notes")
_LATEST_CLOSE = 8 * 60  # an overnight span may run to 08:00 the next morning

Schedule = list[tuple[frozenset[int], int, int]]


def _parse_days(text: str) -> frozenset[int] | None:
    text = text.replace(" ", "")
    if text == "매일":
        return frozenset(range(7))
    days: set[int] = set()
    for part in text.split(","):
        if re.fullmatch(r"[월화수목금토일]~[월화수목금토일]", part):
            a, b = _DAYS.index(part[0]), _DAYS.index(part[2])
            if b < a:
                return None
            days.update(range(a, b + 1))
        elif re.fullmatch(r"[월화수목금토일]", part):
            days.add(_DAYS.index(part))
        else:
            return None
    return frozenset(days) if days else None


def parse_hours(text: object) -> Schedule | None:
    """Parse one ``businessHours`` string into ``[(days, start_min, end_min)]``; None = unknown.

    ``end_min`` may be <= ``start_min`` for spans that cross midnight (never equal: that is unknown).
    """
    if not isinstance(text, str) or not text.strip():
        return None
    m = _NOTE.match(text.strip())
    if not m:
        return None
    note = m.group("note") or ""
    if any(word in note for word in _SCHEDULE_NOTES):
        return None
    span = _SPAN.match(m.group("body").strip())
    if not span:
        return None
    days = _parse_days(span.group("days"))
    if days is None:
        return None
    s = int(span.group("s")) * 60 + int(span.group("sm"))
    e = int(span.group("e")) * 60 + int(span.group("em"))
    if s > 24 * 60 or e > 24 * 60 or s == e or int(span.group("sm")) > 59 or int(span.group("em")) > 59:
        return None
    if s == 24 * 60:
        s = 0
    if e == 23 * 60 + 59:  # "~ 23:59" means until midnight
        e = 24 * 60
    if s == e:
        return None
    if e < s and e > _LATEST_CLOSE and (e + 24 * 60 - s) < 23 * 60:
        # e.g. "17:00 ~ 13:00" is a typo, not a 20-hour bar; 23 h+ cycles ("10:00 ~ 09:59") are kept
        return None
    return [(days, s, e)]


def is_open(schedule: Schedule, weekday: int, minute: int) -> bool:
    for days, s, e in schedule:
        if e > s:
            if weekday in days and s <= minute < e:
                return True
        else:  # crosses midnight: [s, 24:00) on the day, [00:00, e) on the next day
            if weekday in days and minute >= s:
                return True
            if (weekday - 1) % 7 in days and minute < e:
                return True
    return False


def open_at(doc: Doc, when: OpenAt) -> bool | None:
    """True/False when the raw hours decide it, None when they are missing or unparseable."""
    schedule = parse_hours(doc.get("businessHours"))
    if schedule is None:
        return None
    return is_open(schedule, when.weekday, when.minute)


# --------------------------------------------------------------------------- grading


def menu_share(doc: Doc, terms: Sequence[str]) -> float:
    names = menu_names(doc)
    if not names or not terms:
        return 0.0
    return sum(1 for n in names if contains_any(n, terms)) / len(names)


def is_not_kind(doc: Doc, not_kind: NotKindSpec | None) -> bool:
    if not_kind is None:
        return False
    return contains_any(str(doc.get("category") or ""), not_kind.category_any) or contains_any(
        str(doc.get("title") or ""), not_kind.title_any
    )


def is_kind(doc: Doc, kind: KindSpec | None, not_kind: NotKindSpec | None = None) -> bool:
    if is_not_kind(doc, not_kind):
        return False
    if kind is None:
        return True
    return (
        contains_any(str(doc.get("category") or ""), kind.category_any)
        or contains_any(str(doc.get("title") or ""), kind.title_any)
        or (bool(kind.menu_any) and menu_share(doc, kind.menu_any) >= kind.menu_share_min)
    )


def in_area(doc: Doc, area: AreaSpec | None) -> bool:
    if area is None:
        return True
    if area.address_any and contains_any(address(doc), area.address_any):
        return True
    if area.center is not None and area.radius_m is not None:
        c = coords(doc)
        if c is not None and within_m((area.center.lat, area.center.lon), c, area.radius_m):
            return True
    return False


def reference_price(doc: Doc, kind: KindSpec | None) -> float | None:
    lines = priced_lines(doc)
    if not lines:
        return None
    if kind is not None and kind.menu_any:
        own = [p for n, p in lines if contains_any(n, kind.menu_any)]
        if own:
            return float(statistics.median(own))
    return float(statistics.median(p for _, p in lines))


def hard_ok(doc: Doc, hard: HardSpec | None, kind: KindSpec | None = None) -> bool:
    if hard is None:
        return True
    if hard.tags_any and not has_tag(doc, hard.tags_any):
        return False
    if hard.open_at is not None and open_at(doc, hard.open_at) is not True:
        return False
    if hard.price_max is not None:
        ref = reference_price(doc, kind)
        if ref is None or ref > hard.price_max:
            return False
    if hard.exclude_menu_any and any(contains_any(n, hard.exclude_menu_any) for n in menu_names(doc)):
        return False
    if contains_any(str(doc.get("category") or ""), hard.exclude_category_any):
        return False
    return not contains_any(str(doc.get("title") or ""), hard.exclude_title_any)


def grade(doc: Doc, rubric: Rubric) -> int:
    """0, 1 or 2 for one raw crawl document (see the module docstring for the rules)."""
    if not in_area(doc, rubric.area):
        return 0
    if not is_kind(doc, rubric.kind, rubric.not_kind):
        return 0
    if not hard_ok(doc, rubric.hard, rubric.kind):
        return 0
    if rubric.soft is not None and rubric.soft.tags_any and not has_tag(doc, rubric.soft.tags_any):
        return 1
    return 2


def count_grades(rubric: Rubric, docs: Iterable[Doc]) -> tuple[int, int]:
    """(number of grade-2 documents, number of grade-1 documents)."""
    n2 = n1 = 0
    for doc in docs:
        g = grade(doc, rubric)
        if g == 2:
            n2 += 1
        elif g == 1:
            n1 += 1
    return n2, n1


def matching_docs(rubric: Rubric, docs: Iterable[Doc]) -> list[Doc]:
    """The documents of grade >= 1 (the places that match the question)."""
    return [doc for doc in docs if grade(doc, rubric) >= 1]


# --------------------------------------------------------------------------- loading / checking


def load_raw(path: Path = RAW_DATA) -> list[dict[str, Any]]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def load_set(path: Path = SET_PATH) -> list[RelevanceItem]:
    with path.open(encoding="utf-8") as fh:
        return [RelevanceItem.model_validate_json(line) for line in fh if line.strip()]


def frozen_sha256(path: Path = SET_PATH) -> str:
    """sha256 of the test lines (exact text, sorted by id, each followed by a newline)."""
    rows: list[tuple[str, str]] = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                obj = json.loads(line)
                if obj["split"] == "test":
                    rows.append((obj["id"], line.rstrip("\n")))
    blob = "".join(text + "\n" for _, text in sorted(rows))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def check_set(items: Sequence[RelevanceItem], docs: Sequence[Doc]) -> list[str]:
    """Problems with the set: duplicate ids, pools that contradict ``expect_none``, stale pools."""
    problems: list[str] = []
    seen: set[str] = set()
    for it in items:
        if it.id in seen:
            problems.append(f"{it.id}: duplicate id")
        seen.add(it.id)
        n2, n1 = count_grades(it.rubric, docs)
        if it.rubric.expect_none and n2 != 0:
            problems.append(f"{it.id}: expect_none but {n2} grade-2 documents")
        if not it.rubric.expect_none and n2 == 0:
            problems.append(f"{it.id}: no grade-2 document")
        if it.pool is not None and (it.pool.grade2, it.pool.grade1) != (n2, n1):
            problems.append(f"{it.id}: stored pool {it.pool} != computed ({n2}, {n1})")
    return problems


def write_pools(path: Path, docs: Sequence[Doc]) -> None:
    """Recompute every line's ``pool`` and rewrite the file (other fields and their order kept)."""
    out: list[str] = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            obj = json.loads(line)
            rubric = Rubric.model_validate(obj["rubric"])
            n2, n1 = count_grades(rubric, docs)
            obj["pool"] = {"grade2": n2, "grade1": n1}
            out.append(json.dumps(obj, ensure_ascii=False))
    path.write_text("".join(s + "\n" for s in out), encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    ap.add_argument("--set", type=Path, default=SET_PATH)
    ap.add_argument("--raw", type=Path, default=RAW_DATA)
    ap.add_argument("--write", action="store_true", help="store the recomputed pools in the set file")
    args = ap.parse_args(argv)
    docs = load_raw(args.raw)
    if args.write:
        write_pools(args.set, docs)
    items = load_set(args.set)
    problems = check_set(items, docs)
    # relevance_set.jsonl → relevance_FROZEN.txt, relevance_test2.jsonl → relevance_test2_FROZEN.txt
    frozen = args.set.with_name(args.set.stem.replace("_set", "") + "_FROZEN.txt")
    if frozen.exists():
        recorded = re.findall(r"\b[0-9a-f]{64}\b", frozen.read_text(encoding="utf-8"))
        if recorded and recorded[0] != frozen_sha256(args.set):
            problems.append(f"test split changed: sha256 {frozen_sha256(args.set)} != frozen {recorded[0]}")
    for p in problems:
        print(p)
    print(f"{len(items)} questions, {len(problems)} problems; test sha256 {frozen_sha256(args.set)}")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
