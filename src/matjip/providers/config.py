"""LLM options, derived from :class:`~matjip.settings.Settings` (and nothing else).

Settings fields used (``MATJIP_`` prefix): ``llm_provider``, ``llm_model``, ``llm_base_url``,
``llm_timeout_s``, ``llm_max_retries``, ``llm_turn_budget_calls``, ``llm_plan``, ``llm_stages``
(comma list of ``understand,decide,plan,grade,generate``, or ``all``), ``llm_backoff_base_s``,
``llm_backoff_max_s``, ``llm_json_mode`` (``json_schema``, ``json_object``, ``none``),
``llm_temperature``, ``llm_enrich_batch``, ``llm_enrich_concurrency``, ``llm_enrich_rps``; the
keys ``openai_api_key`` (``OPENAI_API_KEY``), ``openai_base_url`` (``OPENAI_BASE_URL``),
``gemini_api_key`` (``GEMINI_API_KEY`` / ``GOOGLE_API_KEY``) and the LangSmith fields.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Literal

from matjip.errors import ConfigurationError
from matjip.providers.tracing import OFF, TracingConfig
from matjip.settings import Settings, secret

STAGES: tuple[str, ...] = ("understand", "decide", "plan", "grade", "generate")
DEFAULT_STAGES: frozenset[str] = frozenset({"grade", "generate"})
MODELS_FILE = Path(__file__).resolve().parents[1] / "data" / "models.toml"


def _default_models() -> dict[str, str]:
    with MODELS_FILE.open("rb") as f:
        return {str(k): str(v) for k, v in tomllib.load(f)["default_model"].items()}


DEFAULT_MODELS: Final = _default_models()  # provider → its model when MATJIP_LLM_MODEL is unset
OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1"

JsonMode = Literal["json_schema", "json_object", "none"]
JSON_MODES: tuple[JsonMode, ...] = ("json_schema", "json_object", "none")


def parse_stages(value: str | None, *, plan: bool = False) -> frozenset[str]:
    """``"grade,generate"`` → the stage set; ``"all"`` → every stage; unknown names are an error."""
    if value is None or not value.strip():
        stages = set(DEFAULT_STAGES)
    elif value.strip().lower() == "all":
        stages = set(STAGES)
    elif value.strip().lower() == "none":
        stages = set()
    else:
        stages = {s.strip().lower() for s in value.split(",") if s.strip()}
        unknown = stages - set(STAGES)
        if unknown:
            raise ConfigurationError(
                f"unknown LLM stage(s) {', '.join(sorted(unknown))}; known: {', '.join(STAGES)}"
            )
    if plan:
        stages.add("plan")
    return frozenset(stages)


@dataclass(frozen=True)
class LLMOptions:
    provider: str = "none"
    model: str = ""
    base_url: str | None = None
    api_key: str | None = field(default=None, repr=False)
    timeout_s: float = 20.0
    max_retries: int = 2
    backoff_base_s: float = 0.5
    backoff_max_s: float = 8.0
    turn_budget_calls: int = 4
    stages: frozenset[str] = DEFAULT_STAGES
    json_mode: JsonMode = "json_schema"
    stream_usage: bool = True
    temperature: float | None = None
    enrich_batch: int = 4
    enrich_concurrency: int = 4
    enrich_rps: float = 2.0

    tracing: TracingConfig = OFF

    @classmethod
    def from_settings(cls, settings: Settings) -> LLMOptions:
        provider = settings.llm_provider
        api_key: str | None = None
        base_url = settings.llm_base_url or None
        if provider == "openai":
            api_key = secret(settings.openai_api_key)
            base_url = base_url or settings.openai_base_url or OPENAI_DEFAULT_BASE_URL
        elif provider == "gemini":
            api_key = secret(settings.gemini_api_key)
        json_mode = next((m for m in JSON_MODES if m == settings.llm_json_mode), None)
        if json_mode is None:
            raise ConfigurationError(
                f"llm_json_mode must be json_schema, json_object or none, not {settings.llm_json_mode!r}"
            )
        return cls(
            provider=provider,
            model=settings.llm_model or DEFAULT_MODELS.get(provider, ""),
            base_url=base_url,
            api_key=api_key,
            timeout_s=settings.llm_timeout_s,
            max_retries=settings.llm_max_retries,
            backoff_base_s=settings.llm_backoff_base_s,
            backoff_max_s=settings.llm_backoff_max_s,
            turn_budget_calls=settings.llm_turn_budget_calls,
            stages=parse_stages(settings.llm_stages, plan=settings.llm_plan),
            json_mode=json_mode,
            temperature=settings.llm_temperature,
            enrich_batch=settings.llm_enrich_batch,
            enrich_concurrency=settings.llm_enrich_concurrency,
            enrich_rps=settings.llm_enrich_rps,
            tracing=TracingConfig.from_settings(settings),
        )
