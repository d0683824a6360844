"""Score :class:`~matjip.nlu.parser.OfflineNLU` on the labelled development set.

``python -m matjip.nlu.evaluate`` prints intent accuracy, per-entity precision/recall/F1 (micro,
over all queries), slot accuracies, latency and the mismatches. The set lives in
``matjip/eval/agent_set.jsonl`` (see the README section "NLU evaluation set").
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from matjip.nlu.models import ENTITY_TYPES, NLUResult
from matjip.nlu.parser import OfflineNLU


def default_set_path() -> Path:
    return Path(str(resources.files("matjip") / "eval" / "agent_set.jsonl"))


def load_items(path: str | Path | None = None) -> list[dict[str, Any]]:
    """Items of the set; ``query_repeat: [text, n]`` expands to ``text * n``."""
    p = Path(path) if path is not None else default_set_path()
    items: list[dict[str, Any]] = []
    for line in p.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        item = json.loads(line)
        if "query_repeat" in item:
            text, n = item["query_repeat"]
            item["query"] = str(text) * int(n)
        items.append(item)
    return items


@dataclass
class PRF:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


@dataclass
class Report:
    n: int = 0
    intent_total: int = 0
    intent_correct: int = 0
    entities: dict[str, PRF] = field(default_factory=lambda: {k: PRF() for k in ENTITY_TYPES})
    slots_total: dict[str, int] = field(default_factory=dict)
    slots_correct: dict[str, int] = field(default_factory=dict)
    expect_failures: int = 0
    mismatches: list[dict[str, Any]] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)

    @property
    def intent_accuracy(self) -> float:
        return self.intent_correct / self.intent_total if self.intent_total else 1.0

    def slot_accuracy(self, name: str) -> float:
        total = self.slots_total.get(name, 0)
        return self.slots_correct.get(name, 0) / total if total else 1.0

    def summary(self) -> dict[str, Any]:
        lat = sorted(self.latencies_ms)
        return {
            "items": self.n,
            "intent_accuracy": round(self.intent_accuracy, 4),
            "entity_f1": {k: round(v.f1, 4) for k, v in self.entities.items()},
            "entity_pr": {k: (round(v.precision, 3), round(v.recall, 3)) for k, v in self.entities.items()},
            "slot_accuracy": {k: round(self.slot_accuracy(k), 4) for k in sorted(self.slots_total)},
            "expect_failures": self.expect_failures,
            "latency_ms_p50": round(statistics.median(lat), 3) if lat else None,
            "latency_ms_p95": round(lat[int(0.95 * (len(lat) - 1))], 3) if lat else None,
        }


def _slot_ok(name: str, want: Any, got: NLUResult) -> bool:
    if name == "price":
        p = got.price
        if p is None:
            return False
        return all(getattr(p, k) == v for k, v in want.items())
    if name == "time":
        t = got.time
        if t is None:
            return False
        return all(getattr(t, k) == v for k, v in want.items())
    if name == "party":
        return all(getattr(got.party, k) == v for k, v in want.items())
    if name == "ask":
        return set(want) == set(got.ask)
    if name == "exclude":
        return all(set(v) == set(got.exclude.get(k)) for k, v in want.items())
    return bool(getattr(got, name) == want)


SLOT_KEYS: tuple[str, ...] = (
    "price",
    "time",
    "count",
    "order",
    "party",
    "location_mode",
    "user_location",
    "ask",
    "ordinal",
    "ordinals",
    "pronoun_ref",
    "followup_place",
    "smalltalk",
    "exclude",
    "lang",
)


def score(nlu: OfflineNLU, items: Iterable[dict[str, Any]], warmup: bool = True) -> Report:
    items = list(items)
    report = Report()
    if warmup:
        for it in items:
            nlu.parse(it["query"])
    for it in items:
        t0 = time.perf_counter()
        got = nlu.parse(it["query"])
        report.latencies_ms.append((time.perf_counter() - t0) * 1000)
        report.n += 1
        problems: list[str] = []
        want_intent = it.get("intent")
        if want_intent is not None:
            report.intent_total += 1
            if got.intent == want_intent:
                report.intent_correct += 1
            else:
                problems.append(f"intent {got.intent} != {want_intent}")
        for kind in ENTITY_TYPES:
            want = set(it["entities"].get(kind, []))
            have = set(got.entities.get(kind))
            prf = report.entities[kind]
            prf.tp += len(want & have)
            prf.fp += len(have - want)
            prf.fn += len(want - have)
            if want != have:
                problems.append(f"{kind} {sorted(have)} != {sorted(want)}")
        for name in SLOT_KEYS:
            if name not in it:
                continue
            report.slots_total[name] = report.slots_total.get(name, 0) + 1
            if _slot_ok(name, it[name], got):
                report.slots_correct[name] = report.slots_correct.get(name, 0) + 1
            else:
                problems.append(f"{name} {getattr(got, name)!r} != {it[name]!r}")
        max_conf = it.get("expect", {}).get("max_confidence")
        if max_conf is not None and got.confidence > max_conf:
            report.expect_failures += 1
            problems.append(f"confidence {got.confidence} > {max_conf}")
        if problems:
            report.mismatches.append({"id": it["id"], "query": it["query"][:80], "problems": problems})
    return report


def build_default_nlu() -> OfflineNLU:
    """The NLU over the bundled demo data and gazetteer (what the tests use)."""
    import gzip

    from matjip.geo.gazetteer import Gazetteer
    from matjip.nlu.vocabulary import Vocabulary
    from matjip.settings import DEMO_DATA

    def records() -> Iterable[tuple[str, Sequence[str], str]]:
        with gzip.open(DEMO_DATA, "rt", encoding="utf-8") as f:
            for line in f:
                d = json.loads(line)
                yield (
                    d.get("title", ""),
                    [m.get("name", "") for m in d.get("menus") or []],
                    d.get("category", ""),
                )

    return OfflineNLU(Vocabulary.build(records()), Gazetteer.load())


def main() -> None:  # pragma: no cover - a developer tool
    nlu = build_default_nlu()
    report = score(nlu, load_items())
    print(json.dumps(report.summary(), ensure_ascii=False, indent=2))
    for m in report.mismatches:
        print(m["id"], m["query"], "|", "; ".join(m["problems"]))


if __name__ == "__main__":  # pragma: no cover
    main()
