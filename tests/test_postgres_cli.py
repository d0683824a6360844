"""``matjip ingest --backend postgres`` fills the database; ``search``, ``stats`` and the agent
(what ``matjip serve`` runs) answer from it with ``MATJIP_BACKEND=postgres``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from matjip.cli import cli
from matjip.settings import Settings
from support.demo import write_sample
from support.pgserver import PgServer

pytestmark = pytest.mark.postgres


def test_ingest_search_and_agent_on_postgres(
    pg_server: PgServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = pg_server.database("cli")
    sample = tmp_path / "sample.jsonl"
    write_sample(sample, every=200)
    monkeypatch.chdir(tmp_path)  # no .env from the working tree
    monkeypatch.setenv("MATJIP_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("MATJIP_DATABASE_URL", url)
    monkeypatch.setenv("MATJIP_EMBEDDER", "hash")
    runner = CliRunner()
    res = runner.invoke(cli, ["ingest", str(sample), "--backend", "postgres"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    monkeypatch.setenv("MATJIP_BACKEND", "postgres")
    res = runner.invoke(cli, ["stats", "--json"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    assert '"backend": "postgres"' in res.output
    res = runner.invoke(cli, ["search", "버거", "--k", "3", "--json"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    found = json.loads(res.output)
    assert found["backend"] == "postgres" and found["hits"]
    # the embedded files were never written: the index lives in the database only
    assert not (tmp_path / "data" / "index" / "meta.json").exists()

    from matjip.agent.service import Agent

    agent = Agent(Settings(), persist=False)
    assert type(agent.resources.index).__name__ == "PostgresIndex"
    turn = agent.ask("맥도날드 어디 있어?")
    assert turn.answer
