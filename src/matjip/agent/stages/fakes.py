"""Stage-aware default replies for the scripted fake model (``MATJIP_LLM_PROVIDER=fake``).

Deterministic and grounded, read from the agent's own prompts: the grader marks every listed
document relevant, the planner echoes the offline plan it is shown, generation streams back the
offline draft it is shown, the need-search decision repeats the system's first judgement, NLU
adds nothing, enrichment returns no records. So the fake exercises every LLM code path without a
network. Like a model that keeps to its instructions, it reads only the prompt's own lines and
the JSON inside the delimited data blocks, never instructions written inside the data. Use as ``FakeLLM(function=default_reply)``.
"""

from __future__ import annotations

import json
import re

from matjip.errors import ValidationFailure
from matjip.providers.fake import Chunks, FakeCall, Reply, split_text

# The prompts quote collected text as JSON inside delimited blocks (providers.prompts.as_data), so
# a delimiter or a line of the prompt's own is only ever found at the start of a line, outside them.
_DOCUMENTS = re.compile(r"^<documents>\n(.*?)^</documents>$", re.DOTALL | re.MULTILINE)
_JSON_BLOCK = re.compile(r"^```json\s*\n(.*?)\n```$", re.DOTALL | re.MULTILINE)
_DRAFT = re.compile(r"^<초안>\n(.*?)\n</초안>$", re.DOTALL | re.MULTILINE)
_FIRST_JUDGEMENT = re.compile(r"^시스템의 1차 판단: (.*)$", re.MULTILINE)


def _document_ids(text: str) -> list[str]:
    ids: list[str] = []
    for block in _DOCUMENTS.findall(text):
        for line in block.splitlines():
            try:
                doc = json.loads(line)
            except ValueError:
                continue
            if isinstance(doc, dict) and isinstance(doc.get("document_id"), str):
                ids.append(doc["document_id"])
    return ids


def _draft(text: str) -> str | None:
    m = _DRAFT.search(text)
    if m is None:
        return None
    try:
        draft = json.loads(m.group(1))
    except ValueError:
        return None
    return draft if isinstance(draft, str) else None


def default_reply(call: FakeCall) -> Reply:
    """Deterministic, grounded replies read from the prompt itself (see the module docstring)."""
    text = call.prompt
    if call.stage == "grade":
        ids = _document_ids(text)
        return {
            "overall_relevance": "relevant" if ids else "irrelevant",
            "reason": "fake grader: every document accepted",
            "document_scores": [{"document_id": i, "relevance": "relevant", "reason": "fake"} for i in ids],
        }
    if call.stage == "plan":
        m = _JSON_BLOCK.search(text)
        return m.group(1) if m else {}
    if call.stage == "generate":
        draft = _draft(text)
        return Chunks(split_text(draft if draft is not None else "자료에서 답을 찾지 못했어요."))
    if call.stage == "need_search":
        m = _FIRST_JUDGEMENT.search(text)
        need = m is not None and m.group(1).startswith("검색 필요")
        return {"need_search": need, "reason": "fake: same as the system's first judgement"}
    if call.stage == "nlu":
        return {"intent": "search", "entities": {}}
    return ValidationFailure(f"fake LLM has no reply for stage {call.stage!r}")
