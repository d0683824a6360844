"""The plan stage: the LLM writes a JSON plan that the server validates and clamps; the offline plan is the fallback."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from matjip.agent.stages.core import _PLAN_REJECTS, PROMPTS, StageCore
from matjip.agent.stages.grounding import compact
from matjip.agent.stages.schemas import PlanOut
from matjip.errors import ValidationFailure
from matjip.providers.base import Message, error_text
from matjip.providers.prompts import as_data


class PlanStage(StageCore):
    def write_plan(
        self, state: Mapping[str, Any], offline_raw: Mapping[str, Any]
    ) -> tuple[dict[str, Any] | None, list[str]]:
        """A raw plan written by the LLM (the node validates it again), or ``(None, notes)``.

        The server keeps what the model cannot know: the resolved location, the time and the
        per-title k come from ``offline_raw``. The LLM's part is checked with
        :func:`~matjip.agent.plan.validate_plan`; a reply that is not JSON, violates the schema or
        needs repairs beyond clamping is sent back once with the errors, then dropped.
        """
        from matjip.agent.plan import validate_plan

        led = self.ledgers.get(state)
        notes: list[str] = []
        query = str(state.get("query", ""))
        server_fields = {
            "location": offline_raw.get("location"),
            "open_at": offline_raw.get("open_at"),
            "open_label": offline_raw.get("open_label"),
            "per_title_k": offline_raw.get("per_title_k"),
            # "혼술": the word the message said a wish by (kept for the wishes the LLM's plan has)
            "wish_words": offline_raw.get("wish_words"),
            # seed 003's strategies: the LLM may choose one, the server supplies its fields
            **{k: offline_raw.get(k) for k in ("route", "travel", "course", "overseas", "caution")},
        }
        default_view = {k: v for k, v in offline_raw.items() if k in PlanOut.model_fields}
        kw = {
            "cuisines": self.cuisines or None,
            "conveniences": self.conveniences or None,
            "fallback_text": query,
            "timezone": self.timezone,
        }
        _, offline_repairs = validate_plan(dict(offline_raw), **kw)  # type: ignore[arg-type]
        msgs: list[Message] = PROMPTS.messages(
            "plan",
            query=query,
            now=state.get("now") or "",
            timezone=self.timezone,
            cuisines=", ".join(sorted(self.cuisines)),
            conveniences=", ".join(sorted(self.conveniences)),
            default_k=offline_raw.get("k", 3),
            schema=json.dumps(PlanOut.model_json_schema().get("properties", {}), ensure_ascii=False),
            default_plan=as_data(default_view),  # a place name may be a crawled title: data, quoted
        )
        for attempt in (1, 2):
            try:
                out = self._call_json(led, "plan", msgs, PlanOut)
            except ValidationFailure as exc:
                if attempt == 1:
                    msgs = self._retry_messages(msgs, getattr(exc, "raw", None), [str(exc)])
                    notes.append(f"llm plan rejected ({exc}); retrying once")
                    continue
                notes.append(f"llm plan rejected again ({exc}); using the offline plan")
                break
            except Exception as exc:
                notes.append(f"llm plan unavailable ({error_text(exc)}); using the offline plan")
                break
            raw = {**out.model_dump(), **server_fields}
            dropped = self._ground_titles(raw, query)
            _, repairs = validate_plan(raw, **kw)  # type: ignore[arg-type]
            rejects = [r for r in repairs if r not in offline_repairs and any(p in r for p in _PLAN_REJECTS)]
            if not rejects:
                notes.append(
                    "plan written by the LLM" + (f" (dropped unknown titles {dropped})" if dropped else "")
                )
                led.note(notes[-1])
                return raw, notes
            if attempt == 1:
                notes.append(f"llm plan needs fixing ({'; '.join(rejects)}); retrying once")
                msgs = self._retry_messages(msgs, out.model_dump_json(), rejects)
                continue
            notes.append(f"llm plan still invalid ({'; '.join(rejects)}); using the offline plan")
        for n in notes:
            led.note(n)
        return None, notes

    @staticmethod
    def _retry_messages(msgs: list[Message], raw: str | None, errors: list[str]) -> list[Message]:
        feedback: Message = {
            "role": "user",
            "content": PROMPTS.render("plan_retry.user.jinja2", errors=errors),
        }
        reply: list[Message] = [{"role": "assistant", "content": raw[:2000]}] if raw else []
        return [*msgs, *reply, feedback]

    def _ground_titles(self, raw: dict[str, Any], query: str) -> list[str]:
        """Drop titles that are neither in the index nor written in the question."""
        titles = raw.get("titles") or []
        if not isinstance(titles, list):
            return []
        q = compact(query)
        kept: list[Any] = []
        dropped: list[Any] = []
        for t in titles:
            ok = isinstance(t, str) and (
                compact(t) in q or (self._title_exists is not None and self._title_exists(t))
            )
            (kept if ok else dropped).append(t)
        raw["titles"] = kept
        return [str(d) for d in dropped]
