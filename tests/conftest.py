"""Shared fixtures. ``sample_data_dir`` ingests and indexes a stratified sample of the demo data
once per test session (a real run of the product's own pipeline, ~2.5k documents)."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from matjip.settings import DEMO_DATA, Settings

SAMPLE_BRANDS = ("진대감", "버거킹", "맥도날드", "롯데리아", "맘스터치", "교촌", "BBQ", "본죽")
SAMPLE_EVERY = 5


def write_sample(path: Path, every: int = SAMPLE_EVERY) -> int:
    """Every ``every``-th demo record plus all records of a few brands used by tests."""
    n = 0
    with gzip.open(DEMO_DATA, "rt", encoding="utf-8") as src, path.open("w", encoding="utf-8") as dst:
        for i, line in enumerate(src):
            rec = json.loads(line)
            if i % every == 0 or any(b in rec.get("title", "") for b in SAMPLE_BRANDS):
                dst.write(line)
                n += 1
    return n


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
