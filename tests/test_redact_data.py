"""``redact_data``: every string of a JSON-like payload redacted, the known secrets read once."""

from __future__ import annotations

import pytest

import matjip.settings as settings_module
from matjip.settings import REDACTED, redact_data


def test_nested_strings_are_redacted_and_secrets_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MATJIP_TEST_API_KEY", "s3cr3t-value-123")
    calls = 0
    real = settings_module.secret_values

    def counting() -> list[str]:
        nonlocal calls
        calls += 1
        return real()

    monkeypatch.setattr(settings_module, "secret_values", counting)
    payload = {"a": "x s3cr3t-value-123 y", "b": [{"c": "s3cr3t-value-123"}, "ok", 3], "d": ("z",)}
    out = redact_data(payload)
    assert out == {"a": f"x {REDACTED} y", "b": [{"c": REDACTED}, "ok", 3], "d": ["z"]}
    assert calls == 1
