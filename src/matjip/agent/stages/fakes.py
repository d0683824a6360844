"""Stage-aware default replies for the scripted fake model (``MATJIP_LLM_PROVIDER=fake``).

Deterministic and grounded, read from the agent's own prompts: the grader marks every listed
document relevant, the planner echoes the offline plan it is shown, generation streams back the
offline draft it is shown, the need-search decision repeats the system's first judgement, NLU
adds nothing, enrichment returns no records. So the fake exercises every LLM code path without a
network. Use as ``FakeLLM(function=default_reply)``.
"""

from __future__ import annotations

import re

from matjip.errors import ValidationFailure
from matjip.providers.fake import Chunks, FakeCall, Reply, split_text

_DOC_ID = re.compile(r'document_id:\s*"([^"]+)"')
_JSON_BLOCK = re.compile(r"```json\s*\n(.*?)\n```", re.DOTALL)
_DRAFT = re.compile(r"<초안>\n?(.*?)\n?</초안>", re.DOTALL)


def default_reply(call: FakeCall) -> Reply:
    """Deterministic, grounded replies read from the prompt itself (see the module docstring)."""
    text = call.prompt
    if call.stage == "grade":
        ids = _DOC_ID.findall(text)
        return {
            "overall_relevance": "relevant" if ids else "irrelevant",
            "reason": "fake grader: every document accepted",
            "document_scores": [{"document_id": i, "relevance": "relevant", "reason": "fake"} for i in ids],
        }
    if call.stage == "plan":
        m = _JSON_BLOCK.search(text)
        return m.group(1) if m else {}
    if call.stage == "generate":
        m = _DRAFT.search(text)
        return Chunks(split_text(m.group(1) if m else "자료에서 답을 찾지 못했어요."))
    if call.stage == "need_search":
        need = "1차 판단: 검색 필요" in text
        return {"need_search": need, "reason": "fake: same as the system's first judgement"}
    if call.stage == "nlu":
        return {"intent": "search", "entities": {}}
    return ValidationFailure(f"fake LLM has no reply for stage {call.stage!r}")
