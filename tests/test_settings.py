"""One settings object holds every option: each is read from ``.env`` as well as the environment,
provider variables keep their usual names, and nothing else in the package reads the environment."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from pydantic import AliasChoices, SecretStr

from matjip.providers.config import STAGES, LLMOptions
from matjip.providers.tavily import TavilyClient
from matjip.settings import Settings
from support.settings import clear_options

SRC = Path(__file__).resolve().parents[1] / "src" / "matjip"

# field -> (text in .env, expected value); every field of Settings must be listed (not its default)
SAMPLES: dict[str, tuple[str, Any]] = {
    "data_dir": ("/tmp/matjip-dotenv-data", Path("/tmp/matjip-dotenv-data")),
    "timezone": ("Europe/Paris", "Europe/Paris"),
    "embedder": ("hash", "hash"),
    "fusion": ("convex", "convex"),
    "rrf_k": ("30", 30),
    "weight_bm25": ("0.7", 0.7),
    "weight_vector": ("0.3", 0.3),
    "backend": ("postgres", "postgres"),
    "database_url": ("postgresql://u:p@127.0.0.1:5/db", "postgresql://u:p@127.0.0.1:5/db"),
    "database_pool_size": ("8", 8),
    "database_hnsw": ("true", True),
    "database_read_urls": ("postgresql://u:p@10.0.0.2:5/db", "postgresql://u:p@10.0.0.2:5/db"),
    "database_connect_timeout_s": ("7", 7),
    "database_timeout_s": ("2.5", 2.5),
    "database_probe_s": ("0.5", 0.5),
    "default_k": ("5", 5),
    "sufficiency_top1": ("0.5", 0.5),
    "sufficiency_mean": ("0.4", 0.4),
    "sufficiency_high": ("0.9", 0.9),
    "llm_provider": ("fake", "fake"),
    "llm_model": ("model-x", "model-x"),
    "llm_base_url": ("http://localhost:1/v1", "http://localhost:1/v1"),
    "llm_timeout_s": ("7.5", 7.5),
    "llm_max_retries": ("5", 5),
    "llm_turn_budget_calls": ("6", 6),
    "llm_plan": ("true", True),
    "llm_stages": ("all", "all"),
    "llm_json_mode": ("json_object", "json_object"),
    "llm_temperature": ("0.2", 0.2),
    "llm_backoff_base_s": ("0.1", 0.1),
    "llm_backoff_max_s": ("3", 3.0),
    "llm_enrich_batch": ("8", 8),
    "llm_enrich_concurrency": ("2", 2),
    "llm_enrich_rps": ("0.5", 0.5),
    "openai_api_key": ("sk-dotenv", "sk-dotenv"),
    "openai_base_url": ("http://localhost:2/v1", "http://localhost:2/v1"),
    "gemini_api_key": ("g-dotenv", "g-dotenv"),
    "tavily_api_key": ("tvly-dotenv", "tvly-dotenv"),
    "kakao_rest_api_key": ("kakao-dotenv", "kakao-dotenv"),
    "google_maps_api_key": ("AIza-dotenv", "AIza-dotenv"),
    "routing_provider": ("osrm", "osrm"),
    "osrm_url": ("http://osrm.example:5000", "http://osrm.example:5000"),
    "live_timeout_s": ("2.5", 2.5),
    "langsmith_tracing": ("true", True),
    "langsmith_api_key": ("lsv2-dotenv", "lsv2-dotenv"),
    "langsmith_project": ("matjip-dotenv", "matjip-dotenv"),
    "langsmith_endpoint": ("http://langsmith.example", "http://langsmith.example"),
    "host": ("0.0.0.0", "0.0.0.0"),
    "port": ("8123", 8123),
    "enrich": ("llm", "llm"),
    "enrich_min_reviews": ("3", 3),
    "enrich_min_share": ("0.1", 0.1),
    "enrich_support_from": ("20", 20),
    "enrich_fact_min_reviews": ("2", 2),
    "native": ("false", False),
    "lat": ("37.51", 37.51),
    "lon": ("127.1", 127.1),
    "ask_reuse_server": ("false", False),
    "max_message_chars": ("100", 100),
    "max_body_bytes": ("1000", 1000),
    "rate_limit_per_minute": ("7", 7),
    "turn_timeout_s": ("3", 3.0),
    "cors_origins": ('["https://a.example"]', ["https://a.example"]),
    "trusted_proxies": ('["10.0.0.1"]', ["10.0.0.1"]),
    "ingest_max_field_chars": ("5000", 5000),
    "session_max_turns": ("7", 7),
    "llm_max_concurrency": ("3", 3),
    "llm_circuit_failures": ("2", 2),
    "llm_circuit_cooldown_s": ("5", 5.0),
    "turn_workers": ("5", 5),
    "session_max_age_days": ("1.5", 1.5),
    "ingest_max_record_chars": ("50000", 50000),
    "kakao_local_url": ("http://127.0.0.1:9", "http://127.0.0.1:9"),
    "naver_search_url": ("http://127.0.0.1:8", "http://127.0.0.1:8"),
    "naver_client_id": ("naver-id-dotenv", "naver-id-dotenv"),
    "naver_client_secret": ("naver-secret-dotenv", "naver-secret-dotenv"),
    "collect_quota_kakao": ("500", 500),
    "collect_quota_naver": ("600", 600),
    "collect_quota_details": ("700", 700),
    "collect_rate_per_s": ("2.5", 2.5),
    "collect_detail_url": ("http://127.0.0.1:7/main/v", "http://127.0.0.1:7/main/v"),
    "collect_detail_rate_per_s": ("0.5", 0.5),
    "collect_max_retries": ("1", 1),
    "collect_backoff_s": ("0.1", 0.1),
    "collect_backoff_max_s": ("2", 2.0),
    "collect_timeout_s": ("3", 3.0),
    "collect_today": ("2026-01-02", "2026-01-02"),
}


def _value(settings: Settings, name: str) -> Any:
    value = getattr(settings, name)
    return value.get_secret_value() if isinstance(value, SecretStr) else value


def _aliases() -> list[tuple[str, str]]:
    """(field, variable) for every non-``MATJIP_`` name a field is read under."""
    out = []
    for name, info in Settings.model_fields.items():
        if isinstance(info.validation_alias, AliasChoices):
            out += [
                (name, c)
                for c in info.validation_alias.choices
                if isinstance(c, str) and not c.startswith("MATJIP_")
            ]
    return out


@pytest.fixture
def dotenv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working directory whose ``.env`` the test writes; no option variable in the environment."""
    clear_options(monkeypatch)
    monkeypatch.chdir(tmp_path)
    return tmp_path / ".env"


def test_every_option_is_read_from_dotenv(dotenv: Path) -> None:
    assert set(SAMPLES) == set(Settings.model_fields), "add a sample for every new option"
    dotenv.write_text("".join(f"MATJIP_{name.upper()}={text}\n" for name, (text, _) in SAMPLES.items()))
    settings = Settings()
    for name, (_, expected) in SAMPLES.items():
        default = Settings.model_fields[name].get_default(call_default_factory=True)
        assert expected != (default.get_secret_value() if isinstance(default, SecretStr) else default), name
        assert _value(settings, name) == expected, name


@pytest.mark.parametrize(("name", "variable"), _aliases())
def test_provider_variables_from_dotenv(dotenv: Path, name: str, variable: str) -> None:
    text, expected = SAMPLES[name]
    dotenv.write_text(f"{variable}={text}\n")
    assert _value(Settings(), name) == expected


def test_llm_stages_all_from_dotenv(dotenv: Path) -> None:
    dotenv.write_text("MATJIP_LLM_PROVIDER=fake\nMATJIP_LLM_STAGES=all\n")
    assert LLMOptions.from_settings(Settings()).stages == set(STAGES)


def test_tavily_api_key_alias(dotenv: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings().tavily_api_key is None and TavilyClient.from_settings(Settings()) is None
    monkeypatch.setenv("TAVILY_API_KEY", "tvly-from-env")
    settings = Settings()
    assert _value(settings, "tavily_api_key") == "tvly-from-env"
    assert "tvly-from-env" not in repr(settings)
    assert isinstance(TavilyClient.from_settings(settings), TavilyClient)
    monkeypatch.setenv("MATJIP_TAVILY_API_KEY", "tvly-matjip")  # the MATJIP_ name wins
    assert _value(Settings(), "tavily_api_key") == "tvly-matjip"


def test_keyword_construction_by_field_name_and_empty_values(
    dotenv: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = Settings(tavily_api_key="tvly-kw", openai_api_key="sk-kw", langsmith_tracing=True, llm_stages="all")
    assert (_value(s, "tavily_api_key"), _value(s, "openai_api_key")) == ("tvly-kw", "sk-kw")
    assert s.langsmith_tracing is True and s.llm_stages == "all"
    assert s.model_copy(update={"tavily_api_key": None}).tavily_api_key is None
    monkeypatch.setenv("MATJIP_LLM_TEMPERATURE", "")  # an empty variable means the default
    monkeypatch.setenv("LANGSMITH_TRACING", "maybe")  # like LangSmith: not 1/true/yes/on is off
    assert Settings().llm_temperature is None and Settings().langsmith_tracing is False


def test_no_environment_reads_outside_settings() -> None:
    pattern = re.compile(r"os\.environ|getenv")
    offenders = [
        str(path.relative_to(SRC))
        for path in sorted(SRC.rglob("*.py"))
        if path != SRC / "settings.py" and pattern.search(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []
