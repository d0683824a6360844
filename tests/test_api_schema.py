"""Property-based fuzzing of the HTTP API from its own OpenAPI schema (schemathesis): no input,
however odd, may produce a server error. A bounded, derandomized number of examples per operation.

The schema is loaded at import time (schemathesis parametrizes at collection), from an app whose
agent is a proxy bound to the real offline agent over the sample data before each test.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from matjip.api import create_app
from matjip.settings import Settings


class AgentProxy:
    """Forwards to the agent bound by the ``_bind_agent`` fixture."""

    target: Any = None

    def stream(
        self, message: str, session_id: str | None = None, location: dict[str, float] | None = None
    ) -> Iterator[Any]:
        assert self.target is not None, "no agent bound"
        return self.target.stream(message, session_id, location)  # type: ignore[no-any-return]

    def more(self, session_id: str, sort: str | None = None, exclude_ids: list[str] | None = None) -> Any:
        assert self.target is not None, "no agent bound"
        return self.target.more(session_id, sort, exclude_ids)

    @property
    def resources(self) -> Any:
        return getattr(self.target, "resources", None)


PROXY = AgentProxy()
_UNUSED_DIR = Path(tempfile.gettempdir()) / "matjip-fuzz-no-data"  # never created: sessions stay in memory
APP = create_app(
    Settings(data_dir=_UNUSED_DIR, rate_limit_per_minute=0, turn_timeout_s=30, _env_file=None),  # type: ignore[call-arg]
    agent=PROXY,
)
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


@pytest.fixture(autouse=True)
def _bind_agent(sample_agent: Any) -> Iterator[None]:
    PROXY.target = sample_agent
    yield
    PROXY.target = None


@schema.parametrize()
@settings(max_examples=25, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_server_errors(case: Any) -> None:
    case.call_and_validate(checks=[not_a_server_error])


def test_schemathesis_all_checks_all_phases_against_the_server(
    api_live_server: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 13: ``schemathesis run`` — every check (server errors, status codes, content types,
    response schemas incl. each SSE event, headers, positive and negative data) over every operation,
    in the examples, coverage and fuzzing phases — against ``matjip serve`` over the sample data."""
    import json
    import subprocess
    import sys

    cli = Path(sys.executable).parent / "schemathesis"
    report = tmp_path / "schemathesis.json"
    run = subprocess.run(
        [
            str(cli),
            "run",
            f"{api_live_server}/openapi.json",
            "--checks",
            "all",
            "--phases",
            "examples,coverage,fuzzing",
            "--max-examples",
            "30",
            "--seed",
            "13",
            "--continue-on-failure",
            "--no-color",
            "--report-json-path",
            str(report),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,  # its cache (.schemathesis/) stays out of the work tree
    )
    body = json.loads(report.read_text())
    summary = run.stdout[-3000:]
    assert body["operations"]["tested"] == body["operations"]["total"] == 11, summary  # every operation
    assert all(body["phases"][p]["status"] == "success" for p in ("examples", "coverage", "fuzzing")), summary
    assert body["failures"] == [] and body["errors"] == [], summary
    assert body["test_cases"]["with_failures"] == 0 and run.returncode == 0, summary
    with capsys.disabled():
        print(f"\nschemathesis: {body['test_cases']['generated']} test cases over 9 operations, 0 failures")
