"""LLM usage per turn, read back from a turn's trace (for ``matjip eval agent --llm``).

The agent's node wrapper puts each node's calls into its trace entry as
``detail["llm"] = {"calls": [CallRecord...], "notes": [...]}`` (and web searches as
``detail["web"] = [CallRecord...]``), so usage can be computed from any
:class:`~matjip.agent.models.TurnResult` (or its JSON) without access to the live agent.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from matjip.providers.base import CallRecord


@dataclass
class TurnUsage:
    calls: int = 0
    failed: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = 0.0  # None once any call's cost is unknown
    latency_ms: float = 0.0
    web_calls: int = 0
    by_stage: dict[str, int] = field(default_factory=dict)
    by_node: dict[str, int] = field(default_factory=dict)
    records: list[CallRecord] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add(self, rec: CallRecord, node: str) -> None:
        self.records.append(rec)
        self.calls += 1
        self.failed += 0 if rec.ok else 1
        self.input_tokens += rec.input_tokens or 0
        self.output_tokens += rec.output_tokens or 0
        if self.cost_usd is not None:
            self.cost_usd = None if rec.cost_usd is None else round(self.cost_usd + rec.cost_usd, 8)
        self.latency_ms += rec.latency_ms
        self.by_stage[rec.stage] = self.by_stage.get(rec.stage, 0) + 1
        self.by_node[node] = self.by_node.get(node, 0) + 1

    def as_dict(self) -> dict[str, Any]:
        return {
            "calls": self.calls,
            "failed": self.failed,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "cost_usd": self.cost_usd,
            "latency_ms": round(self.latency_ms, 1),
            "web_calls": self.web_calls,
            "by_stage": dict(self.by_stage),
            "by_node": dict(self.by_node),
            "notes": list(self.notes),
        }


def _entries(trace: Any) -> Iterable[Mapping[str, Any]]:
    if isinstance(trace, Mapping):  # a whole TurnResult dict
        trace = trace.get("trace") or []
    elif hasattr(trace, "trace"):  # a TurnResult
        trace = trace.trace
    for entry in trace or []:
        if isinstance(entry, Mapping):
            yield entry
        elif hasattr(entry, "model_dump"):
            yield entry.model_dump(mode="json")


def turn_usage(trace: Any) -> TurnUsage:
    """LLM calls and tokens of one turn, from its trace (a list of trace entries, a
    ``TurnResult`` or its JSON dict). A turn without LLM calls gives zeros; cost is ``None``
    when any call's model has no known price."""
    usage = TurnUsage()
    for entry in _entries(trace):
        node = str(entry.get("node", "?"))
        detail = entry.get("detail") or {}
        llm = detail.get("llm") or {}
        for raw in llm.get("calls") or []:
            usage.add(CallRecord.model_validate(raw), node)
        usage.notes.extend(str(n) for n in llm.get("notes") or [])
        usage.web_calls += len(detail.get("web") or [])
    return usage


def summarize(usages: Sequence[TurnUsage]) -> dict[str, Any]:
    """Totals and per-turn averages over many turns (an eval run)."""
    n = len(usages) or 1
    costs = [u.cost_usd for u in usages]
    total_cost = None if any(c is None for c in costs) else round(sum(c or 0.0 for c in costs), 6)
    stages: dict[str, int] = {}
    for u in usages:
        for k, v in u.by_stage.items():
            stages[k] = stages.get(k, 0) + v
    return {
        "turns": len(usages),
        "calls": sum(u.calls for u in usages),
        "calls_per_turn": round(sum(u.calls for u in usages) / n, 3),
        "max_calls_in_a_turn": max((u.calls for u in usages), default=0),
        "failed": sum(u.failed for u in usages),
        "input_tokens": sum(u.input_tokens for u in usages),
        "output_tokens": sum(u.output_tokens for u in usages),
        "tokens_per_turn": round(sum(u.input_tokens + u.output_tokens for u in usages) / n, 1),
        "cost_usd": total_cost,
        "web_calls": sum(u.web_calls for u in usages),
        "by_stage": stages,
    }
