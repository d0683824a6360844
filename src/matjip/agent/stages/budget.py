"""Per-turn LLM bookkeeping: the call budget, and the records and notes waiting for the trace.

A turn is identified by ``(session_id, turn)`` from the agent state, so concurrent sessions
never share a budget and nodes of one turn may run on any thread. Each stage call reserves one
unit of the budget before it goes out (a retry with the validation error is a second call);
when the budget is spent :class:`~matjip.errors.BudgetExceeded` is raised and the stage falls
back to its offline twin. Earlier stages leave one call for generation when generation is on,
since the answer is the stage a user sees. Records and notes are drained by the agent's node wrapper after each
node, so every call lands in the trace entry of the node that made it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from matjip.errors import BudgetExceeded
from matjip.providers.base import CallRecord

TurnKey = tuple[str, int]


def turn_key(state: Mapping[str, Any]) -> TurnKey:
    return (str(state.get("session_id") or ""), int(state.get("turn") or 0))


@dataclass
class TurnLedger:
    budget: int
    used: int = 0
    records: list[CallRecord] = field(default_factory=list)  # every call of the turn
    pending: list[CallRecord] = field(default_factory=list)  # not yet drained into the trace
    notes: list[str] = field(default_factory=list)

    def reserve(self, stage: str, *, keep: int = 0) -> None:
        """Take one call from the budget, leaving ``keep`` calls for later stages (generation)."""
        if self.used + keep >= self.budget:
            what = "spent" if self.used >= self.budget else f"kept for later stages ({keep})"
            raise BudgetExceeded(f"LLM budget of {self.budget} call(s) per turn {what}; {stage} runs offline")
        self.used += 1

    def count(self, stage: str) -> int:
        """Calls of ``stage`` made this turn."""
        return sum(1 for r in self.records if r.stage == stage)

    def add(self, record: CallRecord) -> None:
        self.records.append(record)
        self.pending.append(record)

    def note(self, text: str) -> None:
        self.notes.append(text)


class Ledgers:
    """Thread-safe ledgers of recent turns (the oldest are forgotten beyond ``keep``)."""

    def __init__(self, budget: int, keep: int = 1024) -> None:
        self.budget = budget
        self.keep = keep
        self._lock = threading.Lock()
        self._turns: OrderedDict[TurnKey, TurnLedger] = OrderedDict()

    def get(self, state: Mapping[str, Any]) -> TurnLedger:
        key = turn_key(state)
        with self._lock:
            led = self._turns.get(key)
            if led is None:
                led = self._turns[key] = TurnLedger(self.budget)
                while len(self._turns) > self.keep:
                    self._turns.popitem(last=False)
            else:
                self._turns.move_to_end(key)
            return led

    def drain(self, state: Mapping[str, Any]) -> dict[str, Any]:
        """Records and notes added since the last drain of this turn, JSON-ready."""
        led = self.get(state)
        with self._lock:
            calls, notes = led.pending, led.notes
            led.pending, led.notes = [], []
        return {"calls": [c.model_dump(mode="json") for c in calls], "notes": notes}

    def records(self, state: Mapping[str, Any]) -> list[CallRecord]:
        """Every call of the turn so far (drained or not)."""
        return list(self.get(state).records)
