"""Asking the real agent at a fixed moment: one question (``ask``) or a dialogue in one new session
(``Chat``)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from matjip.agent.models import TurnResult
from matjip.agent.service import Agent

SEOUL = ZoneInfo("Asia/Seoul")
WEDNESDAY_EVENING = datetime(2026, 11, 25, 19, 30, tzinfo=SEOUL)
FRIDAY_EVENING = datetime(2026, 11, 27, 19, 30, tzinfo=SEOUL)  # 19:30: not yet night (20:00)


def ask(agent: Agent, text: str, **kw: Any) -> Any:
    return agent.ask(text, now=kw.pop("now", WEDNESDAY_EVENING), **kw)


class Chat:
    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.sid = f"t-{uuid.uuid4().hex}"

    def __call__(self, text: str, **kw: Any) -> TurnResult:
        return self.agent.ask(text, session_id=self.sid, now=WEDNESDAY_EVENING, **kw)
