"""The need-search stage: the LLM confirms or overrules the offline decision."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from matjip.agent.stages.core import PROMPTS, StageCore
from matjip.agent.stages.schemas import NeedSearchOut
from matjip.errors import ValidationFailure


class DecideStage(StageCore):
    def decide(self, state: Mapping[str, Any], offline_search: bool) -> dict[str, Any] | None:
        """``{"need_search": bool, "reason": str}``, or ``None`` to keep the offline decision."""
        led = self.ledgers.get(state)
        context = state.get("context") or []
        try:
            msgs = PROMPTS.messages(
                "need_search",
                query=state.get("query", ""),
                searches=[s.get("query", "") for s in (state.get("searches") or [])][-5:],
                context_titles=self._context_titles(context),
                history=self._history(state),
                offline_search=offline_search,
            )
            out = self._call_json(led, "need_search", msgs, NeedSearchOut)
            if not out.need_search and not context:
                raise ValidationFailure("answer-from-context chosen but the conversation has no results yet")
            led.note(
                f"need_search: LLM says {'search' if out.need_search else 'context'} ({out.reason[:80]})"
            )
            return {"need_search": out.need_search, "reason": out.reason[:200]}
        except Exception as exc:
            self._fallback(led, "need_search", exc, "kept the offline decision")
            return None
