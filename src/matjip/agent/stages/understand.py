"""The understanding stage: the LLM reads the message; the offline NLU result is the fallback."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from matjip.agent.stages.budget import TurnLedger
from matjip.agent.stages.core import PROMPTS, StageCore, _clean_terms, _union
from matjip.agent.stages.schemas import NLUOut

if TYPE_CHECKING:
    from matjip.nlu.models import NLUResult


class UnderstandStage(StageCore):
    def understand(self, state: Mapping[str, Any], text: str, offline: NLUResult) -> NLUResult:
        """docs/design.md NLU by the LLM, grounded and merged into the offline result."""
        led = self.ledgers.get(state)
        try:
            msgs = PROMPTS.messages(
                "nlu",
                query=text,
                cuisines=", ".join(sorted(self.cuisines)),
                conveniences="|".join(sorted(self.conveniences)),
            )
            out = self._call_json(led, "nlu", msgs, NLUOut)
            return self._merge_nlu(led, text, offline, out)
        except Exception as exc:
            self._fallback(led, "nlu", exc, "kept the offline NLU")
            return offline

    def _merge_nlu(self, led: TurnLedger, text: str, offline: NLUResult, out: NLUOut) -> NLUResult:
        dropped: list[str] = []
        ents = out.entities

        def keep(kind: str, values: list[str], ok: Callable[[str], bool] | None) -> list[str]:
            kept = []
            for v in _clean_terms(values):
                if ok is None or ok(v):
                    kept.append(v)
                else:
                    dropped.append(f"{kind} {v!r}")
            return kept

        title_ok = self._title_exists
        grounded = {
            "location": keep("location", ents.location, self._place_exists or (lambda v: False)),
            "title": keep("title", ents.title, title_ok or (lambda v: False)),
            "category": keep("category", ents.category, lambda v: v in self.cuisines),
            "convenience": keep("convenience", ents.convenience, lambda v: v in self.conveniences),
            "menu": keep("menu", ents.menu, None),
            "atmosphere": keep("atmosphere", ents.atmosphere, None),
            "occasion": keep("occasion", ents.occasion, None),
        }
        base = offline.entities
        merged = base.model_copy(
            update={k: _union(getattr(base, k), v) for k, v in grounded.items()},
        )
        intent = offline.intent
        if out.intent != offline.intent:
            if out.intent == "compare" and len(merged.title) >= 2:
                intent = "compare"
            elif out.intent == "information" and (merged.title or merged.location):
                intent = "information"
            elif out.intent == "search":
                intent = "search"
            else:
                led.note(f"nlu: intent {out.intent!r} ignored (its entities are missing)")
        added = {k: [v for v in merged.get(k) if v not in base.get(k)] for k in grounded}
        added_text = ", ".join(f"{k}+{v}" for k, vs in added.items() for v in vs)
        led.note(
            f"nlu: LLM merged (intent {intent}"
            + (f"; {added_text}" if added_text else "")
            + (f"; dropped ungrounded {', '.join(dropped)}" if dropped else "")
            + ")"
        )
        return offline.model_copy(
            update={"intent": intent, "entities": merged, "notes": [*offline.notes, "llm"]}
        )
