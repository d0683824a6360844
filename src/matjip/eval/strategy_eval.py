"""``matjip eval strategies``: seed 003's search strategies (issue 14), scored per question.

A set is JSON Lines, one question per line::

    {"id", "split": "dev"|"test", "question", "gps": null|{"lat","lon"},
     "expect": {"strategy", "from", "to", "minutes", "mode": "walk|car|transit"|null, "km",
                "roles": [식사|카페|디저트|술집|관광지|숙박]|null, "days", "kind", "overseas": bool,
                "caution": "pet"|"activity"|null}, "note"}

Scoring (the set's README): ``strategy``, ``from``/``to`` (surface names without spaces; for a
"사이" question either order), ``minutes``, ``km``, ``days``, ``overseas`` and ``caution`` must equal
the expectation (null included); ``mode`` and ``roles`` are scored only when not null (null: not said,
any sensible reading is fine). ``kind`` is reported apart (the food asked for, when one is named).
A question is *right* when every scored field is. The stops returned are checked against the plan's
constraints: a route's places lie within the search radius of the route, a point-travel place within
the travel threshold, a course's stops are numbered in order, carry the plan's roles and are at most
the walking leg (twice it, after the one widening) apart; an overseas question shows no index place
and says so; a caution question carries the disclaimer.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from matjip.agent.models import TurnResult
from matjip.geo.route import locate
from matjip.kinds import kinds, norm
from matjip.nlu.kinds import detect_kinds

EVAL_DIR = Path(__file__).resolve().parent
SETS = {"dev": EVAL_DIR / "strategy_dev.jsonl", "test": EVAL_DIR / "strategy_test.jsonl"}
FIELDS = ("strategy", "from", "to", "minutes", "mode", "km", "roles", "days", "overseas", "caution")
OPTIONAL = ("mode", "roles")  # null: not said, not scored


class Expect(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    strategy: str
    from_: str | None = Field(None, alias="from")
    to: str | None = None
    minutes: int | None = None
    mode: Literal["walk", "car", "transit"] | None = None
    km: float | None = None
    roles: list[str] | None = None
    days: int | None = None
    kind: str | None = None
    overseas: bool = False
    caution: Literal["pet", "activity"] | None = None


class Item(BaseModel):
    id: str
    split: str = "dev"
    question: str
    gps: dict[str, float] | None = None
    expect: Expect
    note: str = ""


def load(path: Path, split: str = "all", limit: int | None = None) -> list[Item]:
    items = [
        Item.model_validate_json(line)
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    if split != "all":
        items = [i for i in items if i.split == split]
    return items[:limit] if limit else items


def set_paths(split: str, path: Path | None) -> list[Path]:
    """The set files of a split: ``path`` when given, else the bundled ones that exist."""
    if path is not None:
        return [path]
    names = ["dev", "test"] if split == "all" else [split]
    return [SETS[n] for n in names if SETS[n].exists()]


@dataclass
class Observed:
    strategy: str
    values: dict[str, Any]
    kinds: list[str]
    words: list[str]
    stops_ok: bool | None  # the returned stops keep the plan's constraints (None: nothing to check)
    stop_problem: str = ""


def observe(result: TurnResult, question: str = "") -> Observed:
    """The strategy and its fields as the turn planned them: the validated plan when the turn
    searched, else the understanding of the message (a reply such as "해외 장소는 지원하지 않아요")."""
    plan = result.plan or result.frame
    spec: dict[str, Any] = dict(result.nlu.get("strategy") or {})
    ents: dict[str, Any] = dict(result.nlu.get("entities") or {})
    values: dict[str, Any] = {f: None for f in FIELDS}
    values["overseas"] = bool(spec.get("overseas") or (plan is not None and plan.overseas))
    values["caution"] = (plan.caution if plan is not None else None) or spec.get("caution")
    strategy = "global"
    if values["overseas"]:
        strategy = "global"
    elif plan is not None and plan.strategy != "title":
        strategy = plan.strategy
        loc = plan.location
        if loc is not None and loc.name != "내 위치":
            values["from"] = loc.name
        if plan.route is not None:
            values["from"], values["to"] = plan.route.origin.name, plan.route.destination.name
        if plan.travel is not None:
            values["minutes"], values["mode"], values["km"] = (
                plan.travel.minutes,
                plan.travel.mode,
                plan.travel.km,
            )
        if plan.course is not None:
            values["roles"], values["days"] = list(plan.course.roles), plan.course.days
    elif spec.get("strategy"):
        strategy = str(spec["strategy"])
        values.update(
            {
                "from": spec.get("origin"),
                "to": spec.get("destination"),
                "minutes": spec.get("minutes"),
                "mode": spec.get("mode"),
                "km": spec.get("km"),
                "roles": spec.get("roles") or None,
                "days": spec.get("days"),
            }
        )
    elif result.location is not None and result.location.type != "GPS":
        strategy = "region" if result.location.mode == "in" else "radius"
        values["from"] = result.location.name
    elif ents.get("location"):
        strategy = "region" if result.nlu.get("location_mode") == "in" else "radius"
        values["from"] = ents["location"][0]
    if strategy == "global":
        values["from"] = None
    if plan is not None:
        named = list(plan.kinds)
        words = [*plan.kinds, *plan.menu, *plan.cuisine]
    else:  # a reply ("해외 장소는 지원하지 않아요", "어느 동네에서 찾을까요?"): what the message names
        frame = detect_kinds(question)
        named = list(frame.kinds)
        words = [*frame.kinds, *ents.get("menu", []), *ents.get("category", [])]
    ok, problem = _stops_ok(result, values["overseas"], values["caution"])
    return Observed(strategy, values, named, words, ok, problem)


def _stops_ok(result: TurnResult, overseas: bool, caution: str | None) -> tuple[bool | None, str]:
    plan = result.plan
    cards = result.cards
    if overseas:
        internal = [c for c in cards if c.source_type == "internal"]
        if internal:
            return False, "an index place shown for a place abroad"
        if not [c for c in cards if c.source_type == "google"] and "해외" not in result.answer:
            return False, "abroad not said"
        return True, ""
    if caution and cards and "⚠️" not in result.answer:
        return False, "no caution in the answer"
    if plan is None or not cards:
        return (True, "") if caution else (None, "")
    if plan.route is not None:
        r = plan.route
        line = [
            (r.origin.lat or 0.0, r.origin.lon or 0.0),
            (r.destination.lat or 0.0, r.destination.lon or 0.0),
        ]
        for c in cards:
            if c.lat is None or c.lon is None or not c.route_note:
                return False, f"{c.name}: no position on the route"
            _, off = locate(line, (c.lat, c.lon))
            # a routed polyline may bend away from the straight line: only the straight fallback is checked
            if "직선" in result.answer and off > r.search_radius_m * 1.05:
                return False, f"{c.name}: {off:.0f} m off the route (radius {r.search_radius_m})"
        return True, ""
    if plan.travel is not None:
        t = plan.travel
        for c in cards:
            if c.travel_minutes is None:
                return False, f"{c.name}: no travel estimate"
            if t.minutes is not None and c.travel_minutes > t.minutes:
                return False, f"{c.name}: {c.travel_minutes} min > {t.minutes}"
            if t.minutes is None and (c.travel_m or 0) > t.threshold_m:
                return False, f"{c.name}: {c.travel_m} m > {t.threshold_m}"
        return True, ""
    if plan.course is not None:
        co = plan.course
        stops = [c.stop for c in cards]
        if stops != list(range(1, len(cards) + 1)):
            return False, f"stops out of order: {stops}"
        days = [c.day_group or 1 for c in cards]
        if days != sorted(days):
            return False, "days out of order"
        for c in cards:
            if c.trip_role not in co.roles:
                return False, f"{c.name}: role {c.trip_role} not asked"
            if c.leg_m is not None and c.leg_m > 2 * co.leg_m:
                return False, f"{c.name}: {c.leg_m} m from the previous stop"
        return True, ""
    return (True, "") if caution else (None, "")


def _same_place(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return "".join(str(a).split()) == "".join(str(b).split())


def field_right(name: str, want: Expect, got: Observed) -> bool | None:
    """Whether one field is right; None when the field is not scored for this question."""
    expected = want.model_dump(by_alias=True)[name]
    value = got.values.get(name) if name != "strategy" else got.strategy
    if name in OPTIONAL and expected is None:
        return None
    if name in ("from", "to"):
        if want.strategy == "route" and got.strategy == "route" and not _same_place(value, expected):
            # "A와 B 사이": either order
            return _same_place(got.values["from"], want.to) and _same_place(got.values["to"], want.from_)
        return _same_place(value, expected)
    if name == "km":
        return (value is None and expected is None) or (
            value is not None and expected is not None and abs(float(value) - float(expected)) < 0.01
        )
    return bool(value == expected)


def kind_right(want: Expect, got: Observed) -> bool | None:
    """The food asked for is in the plan (a kind it names, or the word as a menu/cuisine term)."""
    if want.kind is None:
        return None
    looked = kinds().lookup(want.kind)
    if looked is not None and (looked[0] in got.kinds or set(kinds().related([looked[0]])) & set(got.kinds)):
        return True
    w = norm(want.kind)
    return any(w in norm(x) or norm(x) in w for x in got.words if x)


@dataclass
class Report:
    n: int = 0
    right: int = 0
    fields: Counter[str] = field(default_factory=Counter)
    scored: Counter[str] = field(default_factory=Counter)
    by_strategy: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    kind: list[int] = field(default_factory=lambda: [0, 0])
    stops: list[int] = field(default_factory=lambda: [0, 0])
    failures: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    ms: list[float] = field(default_factory=list)

    def rows(self) -> list[tuple[str, str]]:
        def pct(a: int, b: int) -> str:
            return f"{a / b:.1%} ({a}/{b})" if b else "–"

        rows = [("questions", str(self.n)), ("all scored fields right", pct(self.right, self.n))]
        rows += [(f"  {f}", pct(self.fields[f], self.scored[f])) for f in FIELDS]
        rows.append(("kind named in the plan", pct(*self.kind)))
        rows.append(("returned stops keep the constraints", pct(*self.stops)))
        for s, (ok, n) in sorted(self.by_strategy.items()):
            rows.append((f"expected {s}: right", pct(ok, n)))
        if self.ms:
            ms = sorted(self.ms)
            rows.append(
                (
                    "latency p50 / p95 ms",
                    f"{ms[len(ms) // 2]:.0f} / {ms[min(len(ms) - 1, int(len(ms) * 0.95))]:.0f}",
                )
            )
        return rows


Ask = Callable[[str, dict[str, float] | None], tuple[TurnResult, float]]


def run(ask: Ask, items: Sequence[Item]) -> Report:
    report = Report()
    for item in items:
        try:
            result, ms = ask(item.question, item.gps)
        except Exception as exc:  # one broken question never stops the evaluation
            report.errors.append(f"{item.id}: {type(exc).__name__}: {exc}")
            continue
        report.n += 1
        report.ms.append(ms)
        got = observe(result, item.question)
        wrong: list[str] = []
        for f in FIELDS:
            ok = field_right(f, item.expect, got)
            if ok is None:
                continue
            report.scored[f] += 1
            report.fields[f] += int(ok)
            if not ok:
                want = item.expect.model_dump(by_alias=True)[f]
                have = got.strategy if f == "strategy" else got.values.get(f)
                wrong.append(f"{f}: want {want!r}, got {have!r}")
        k = kind_right(item.expect, got)
        if k is not None:
            report.kind[1] += 1
            report.kind[0] += int(k)
            if not k:
                wrong.append(f"kind (reported apart): want {item.expect.kind!r}, plan has {got.words!r}")
        if got.stops_ok is not None:
            report.stops[1] += 1
            report.stops[0] += int(got.stops_ok)
            if not got.stops_ok:
                wrong.append(f"stops: {got.stop_problem}")
        cell = report.by_strategy[item.expect.strategy]
        cell[1] += 1
        if not [w for w in wrong if not w.startswith(("stops", "kind"))]:
            report.right += 1
            cell[0] += 1
        if wrong:
            report.failures.append(f"{item.id} {item.question!r}: " + "; ".join(wrong))
    return report


def load_items(paths: Sequence[Path], split: str, limit: int | None) -> list[Item]:
    items: list[Item] = []
    for p in paths:
        items += load(p, split)
    return items[:limit] if limit else items


def to_json(report: Report) -> str:
    return json.dumps(dict(report.rows()), ensure_ascii=False, indent=1)
