"""``matjip eval agent``: run the labelled development set through the agent.

Reports intent accuracy, entity F1 per entity type, hard-constraint precision of the returned
restaurants, clarification accuracy, follow-up behaviour, and latency p50/p95 per turn.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from matjip.agent.grader import constraint_violations
from matjip.agent.models import TurnResult
from matjip.agent.service import Agent
from matjip.nlu.models import ENTITY_TYPES

# a client that sends GPS when the user says "내 근처" (near 잠실역)
DEFAULT_GPS = {"lat": 37.5133, "lon": 127.1001}


def load_jsonl(name: str) -> list[dict[str, Any]]:
    text = resources.files("matjip.eval").joinpath(name).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def query_text(item: dict[str, Any]) -> str:
    rep = item.get("query_repeat")
    if rep:
        return str(rep[0]) * int(rep[1])
    return str(item.get("query", ""))


def _norm(values: Iterable[str]) -> set[str]:
    return {str(v).replace(" ", "") for v in values if str(v).strip()}


@dataclass
class Counts:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    def add(self, gold: set[str], pred: set[str]) -> None:
        self.tp += len(gold & pred)
        self.fp += len(pred - gold)
        self.fn += len(gold - pred)

    @property
    def f1(self) -> float:
        if self.tp == 0:
            return 1.0 if self.fp == 0 and self.fn == 0 else 0.0
        p = self.tp / (self.tp + self.fp)
        r = self.tp / (self.tp + self.fn)
        return 2 * p * r / (p + r)


@dataclass
class Report:
    turns: int = 0
    intent_total: int = 0
    intent_ok: int = 0
    entities: dict[str, Counts] = field(default_factory=lambda: {t: Counts() for t in ENTITY_TYPES})
    constraint_checked: int = 0
    constraint_ok: int = 0
    clar_total: int = 0
    clar_ok: int = 0
    followup_total: int = 0
    followup_ok: int = 0
    latencies_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    llm_calls: int = 0
    llm_tokens: int = 0

    @property
    def intent_accuracy(self) -> float:
        return self.intent_ok / self.intent_total if self.intent_total else 1.0

    @property
    def constraint_precision(self) -> float:
        return self.constraint_ok / self.constraint_checked if self.constraint_checked else 1.0

    @property
    def clarification_accuracy(self) -> float:
        return self.clar_ok / self.clar_total if self.clar_total else 1.0

    @property
    def followup_accuracy(self) -> float:
        return self.followup_ok / self.followup_total if self.followup_total else 1.0

    def latency(self, q: float) -> float:
        if not self.latencies_ms:
            return 0.0
        xs = sorted(self.latencies_ms)
        return xs[min(len(xs) - 1, int(q * len(xs)))]

    def rows(self) -> Iterator[tuple[str, str]]:
        yield "turns", str(self.turns)
        yield "intent accuracy", f"{self.intent_accuracy:.3f} ({self.intent_ok}/{self.intent_total})"
        for t, c in self.entities.items():
            yield f"entity F1 {t}", f"{c.f1:.3f} (tp {c.tp}, fp {c.fp}, fn {c.fn})"
        yield (
            "hard-constraint precision",
            f"{self.constraint_precision:.3f} ({self.constraint_ok}/{self.constraint_checked} restaurants)",
        )
        yield (
            "clarification accuracy",
            f"{self.clarification_accuracy:.3f} ({self.clar_ok}/{self.clar_total})",
        )
        yield "follow-up accuracy", f"{self.followup_accuracy:.3f} ({self.followup_ok}/{self.followup_total})"
        yield (
            "latency p50 / p95 (ms)",
            f"{statistics.median(self.latencies_ms) if self.latencies_ms else 0:.1f} / {self.latency(0.95):.1f}",
        )
        if self.llm_calls:
            yield (
                "LLM calls / tokens per turn",
                f"{self.llm_calls / max(1, self.turns):.2f} / {self.llm_tokens / max(1, self.turns):.0f}",
            )
        yield "errors", str(len(self.errors))


def _check_turn(agent: Agent, report: Report, label: dict[str, Any], result: TurnResult, ms: float) -> None:
    report.turns += 1
    report.latencies_ms.append(ms)
    if agent.resources.llm is not None:
        from matjip.agent.stages.accounting import turn_usage

        usage = turn_usage(result)
        report.llm_calls += usage.calls
        report.llm_tokens += usage.input_tokens + usage.output_tokens
    expect = label.get("expect") or {}
    gold_intent = label.get("intent")
    nlu = result.nlu or {}
    if gold_intent and nlu and not result.resumed:
        report.intent_total += 1
        if nlu.get("intent") == gold_intent:
            report.intent_ok += 1
        else:
            report.failures.append(
                f"intent {label.get('query', '')[:40]!r}: {nlu.get('intent')} ≠ {gold_intent}"
            )
    gold_ents = label.get("entities")
    if gold_ents is not None and nlu and not result.resumed:
        pred_ents = nlu.get("entities") or {}
        for t in ENTITY_TYPES:
            g, p = _norm(gold_ents.get(t) or []), _norm(pred_ents.get(t) or [])
            report.entities[t].add(g, p)
            if g != p and t in ("location", "menu", "category", "convenience"):
                report.failures.append(f"{t} {label.get('query', '')[:40]!r}: {sorted(p)} ≠ {sorted(g)}")
    if "clarification" in expect:
        report.clar_total += 1
        if bool(expect["clarification"]) == (result.clarification is not None):
            report.clar_ok += 1
        else:
            report.failures.append(
                f"clarification {label.get('query', '')[:40]!r}: expected {expect['clarification']}"
            )
    for key in ("need_search", "location_carried"):
        if key in expect:
            report.followup_total += 1
            actual = (result.searched or result.reused) if key == "need_search" else result.location_carried
            if bool(expect[key]) == bool(actual):
                report.followup_ok += 1
            else:
                report.failures.append(f"{key} {label.get('query', '')[:40]!r}: expected {expect[key]}")
    if result.plan is not None and result.cards:
        for card in result.cards:
            doc = agent.resources.index.get(card.id)
            if doc is None:
                continue
            report.constraint_checked += 1
            if not constraint_violations(doc, result.plan):
                report.constraint_ok += 1
            else:
                report.failures.append(
                    f"constraint violated by {doc.title} for {label.get('query', '')[:40]!r}"
                )


def run(agent: Agent, *, limit: int | None = None, warmup: int = 5) -> Report:
    report = Report()
    singles = load_jsonl("agent_set.jsonl")
    dialogues = load_jsonl("agent_dialogues.jsonl")
    if limit:
        singles, dialogues = singles[:limit], dialogues[: max(1, limit // 6)]
    for item in singles[:warmup]:
        agent.ask(query_text(item))
    for i, item in enumerate(singles):
        started = time.perf_counter()
        try:
            gps = item.get("location") or (DEFAULT_GPS if item.get("user_location") else None)
            result = agent.ask(query_text(item), f"eval-single-{i}-{time.time_ns()}", gps)
        except Exception as exc:  # the point of the eval is to find these
            report.errors.append(f"{item.get('id')}: {type(exc).__name__}: {exc}")
            continue
        _check_turn(
            agent, report, {**item, "query": query_text(item)}, result, (time.perf_counter() - started) * 1000
        )
    for d, dialogue in enumerate(dialogues):
        sid = f"eval-dialogue-{d}-{time.time_ns()}"
        for turn in dialogue.get("turns") or []:
            started = time.perf_counter()
            try:
                gps = turn.get("location") or (DEFAULT_GPS if turn.get("user_location") else None)
                result = agent.ask(query_text(turn), sid, gps)
            except Exception as exc:
                report.errors.append(f"{dialogue.get('id')}: {type(exc).__name__}: {exc}")
                break
            _check_turn(agent, report, turn, result, (time.perf_counter() - started) * 1000)
    return report
