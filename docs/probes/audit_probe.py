"""The mechanics every audit probe shares (docs/probes/audit_r*.py): one offline agent over the data dir
of the environment (``MATJIP_DATA_DIR``), each turn asked at its fixed clock, the raw answers written as
Markdown to stdout. A probe lists its turns and calls :func:`run`."""

from __future__ import annotations

import json
import sys
from datetime import datetime
from zoneinfo import ZoneInfo

Single = tuple[str, str, str]  # (id, question, clock as ISO 8601)
Dialogue = tuple[str, list[str], str]  # (id, messages of one conversation, clock)


def _location(res: object) -> str:
    plan = getattr(res, "plan", None)
    loc = getattr(plan, "location", None) if plan is not None else None
    return json.dumps(loc.model_dump(mode="json") if loc is not None else None, ensure_ascii=False)


def run(name: str, singles: list[Single], dialogues: list[Dialogue]) -> None:
    """Ask every turn at its clock and write "## id — message (clock …)", the plan's place and the answer."""
    from matjip.agent.service import Agent, load_resources
    from matjip.commands.ingest import ensure_index
    from matjip.settings import Settings

    settings = Settings()
    resources = load_resources(settings, ensure_index(settings))
    agent = Agent(settings, resources, persist=False)
    out = sys.stdout
    out.write(f"# Audit {name} — raw answers (docs/probes/audit_{name}.py)\n\n")
    for qid, question, when in singles:
        now = datetime.fromisoformat(when).astimezone(ZoneInfo("Asia/Seoul"))
        resources.clock = lambda now=now: now
        res = agent.ask(question, now=now)
        out.write(f"## {qid} — {question}  (clock {when})\nLocation: {_location(res)}\n\n{res.answer}\n\n")
    for cid, turns, when in dialogues:
        now = datetime.fromisoformat(when).astimezone(ZoneInfo("Asia/Seoul"))
        resources.clock = lambda now=now: now
        for t, message in enumerate(turns, 1):
            res = agent.ask(message, session_id=f"audit{name}-{cid}", now=now)
            out.write(
                f"## {cid}.{t} — {message}  (clock {when})\nLocation: {_location(res)}\n\n{res.answer}\n\n"
            )
