"""Issue 13, defect 8: sessions keep the latest checkpoint and a bounded history; idle sessions are
pruned; ``matjip stats`` reports the sizes."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from matjip.agent.retention import Retention, session_stats
from matjip.settings import Settings

QUESTIONS = ["강남역 스시", "첫 번째 가게 영업시간", "주차 되는 곳", "두 번째 집 주소", "가격대는?"]


def checkpoints(path: Path, thread: str | None = None) -> int:
    with sqlite3.connect(path) as conn:
        if thread is None:
            return int(conn.execute("SELECT COUNT(*) FROM checkpoints").fetchone()[0])
        return int(
            conn.execute("SELECT COUNT(*) FROM checkpoints WHERE thread_id = ?", (thread,)).fetchone()[0]
        )


@pytest.fixture
def agent(tmp_path: Path, api_resources: Any) -> Any:
    import dataclasses

    from matjip.agent.configuration import AgentConfig
    from matjip.agent.service import Agent

    settings = Settings(data_dir=tmp_path / "data", session_max_turns=3, _env_file=None)  # type: ignore[call-arg]
    resources = dataclasses.replace(api_resources, config=AgentConfig.from_settings(settings))
    a = Agent(settings, resources, persist=True)
    yield a
    a.close()


def test_a_session_keeps_one_checkpoint_and_a_bounded_history(agent: Any) -> None:
    sid = "retention-test-1"
    sizes = []
    for i in range(12):
        result = agent.ask(QUESTIONS[i % len(QUESTIONS)], sid)
        assert result.answer
        sizes.append(session_stats(agent.settings.sessions_path)["checkpoint_bytes"])
    assert checkpoints(agent.settings.sessions_path, sid) == 1
    history = agent.history(sid)
    assert len(history) <= 6 and history[-1]["role"] == "assistant"
    assert history[-2]["content"] == QUESTIONS[11 % len(QUESTIONS)]
    assert sizes[-1] <= 2 * sizes[3], sizes  # no growth with the number of turns
    # the conversation still works after trimming: a follow-up about the listed places
    follow = agent.ask("첫 번째 가게 영업시간", sid)
    assert follow.answer


def test_idle_sessions_are_pruned(tmp_path: Path, api_resources: Any) -> None:
    from matjip.agent.service import Agent

    settings = Settings(data_dir=tmp_path / "data", session_max_age_days=1, _env_file=None)  # type: ignore[call-arg]
    agent = Agent(settings, api_resources, persist=True)
    try:
        clock = [1_000_000.0]
        agent.retention = Retention(agent._checkpointer, 1, clock=lambda: clock[0])
        agent.ask("강남역 스시", "old-session-1")
        clock[0] += 2 * 86_400
        agent.ask("강남역 스시", "new-session-1")
        assert agent.retention.prune() == 1
        assert checkpoints(settings.sessions_path, "old-session-1") == 0
        assert checkpoints(settings.sessions_path, "new-session-1") == 1
        assert agent.history("old-session-1") == []
    finally:
        agent.close()


def test_in_memory_sessions_keep_one_checkpoint(api_resources: Any, api_settings: Settings) -> None:
    from matjip.agent.service import Agent

    agent = Agent(api_settings, api_resources, persist=False)
    for q in QUESTIONS:
        agent.ask(q, "mem-session-1")
    storage = agent._checkpointer.storage["mem-session-1"]
    assert all(len(cps) == 1 for cps in storage.values())
    agent.close()


def test_stats_report_session_sizes(sample_settings: Settings, capsys: pytest.CaptureFixture[str]) -> None:
    from matjip.commands.search import run_stats

    run_stats(sample_settings, as_json=True)
    out = json.loads(capsys.readouterr().out)
    assert {"sessions", "checkpoints", "bytes"} <= set(out["sessions"])
