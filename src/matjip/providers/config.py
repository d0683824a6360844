"""LLM options, read from :class:`~matjip.settings.Settings` and the providers' usual env variables.

Settings fields used (``MATJIP_`` prefix): ``llm_provider``, ``llm_model``, ``llm_base_url``,
``llm_timeout_s``, ``llm_max_retries``, ``llm_turn_budget_calls``, ``llm_plan``. Optional fields,
read from the settings object when it has them and from ``MATJIP_<NAME>`` in the environment
otherwise (defaults in :class:`LLMOptions`): ``llm_stages`` (comma list of
``understand,decide,plan,grade,generate``, or ``all``), ``llm_backoff_base_s``,
``llm_backoff_max_s``, ``llm_json_mode`` (``json_schema``, ``json_object``, ``none``),
``llm_temperature``, ``llm_enrich_batch``, ``llm_enrich_concurrency``, ``llm_enrich_rps``. Keys never live in settings files of ours: ``OPENAI_API_KEY``,
``GEMINI_API_KEY`` / ``GOOGLE_API_KEY`` and ``TAVILY_API_KEY`` are read from the environment
(``tavily_api_key`` in settings wins for Tavily).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from matjip.errors import ConfigurationError

STAGES: tuple[str, ...] = ("understand", "decide", "plan", "grade", "generate")
DEFAULT_STAGES: frozenset[str] = frozenset({"grade", "generate"})
DEFAULT_MODELS: dict[str, str] = {
    "openai": "gpt-4o-mini",
    "gemini": "gemini-2.5-flash-lite",
    "fake": "fake",
}
OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1"

JsonMode = Literal["json_schema", "json_object", "none"]


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

    @classmethod
    def from_settings(cls, settings: Any, env: Mapping[str, str] | None = None) -> LLMOptions:
        env = os.environ if env is None else env
        provider = str(getattr(settings, "llm_provider", "none"))

        def opt(name: str, default: Any) -> Any:
            # a settings field when the Settings class has it, else MATJIP_<NAME> from the environment
            value = getattr(settings, name, None)
            if value is None:
                value = env.get(f"MATJIP_{name.upper()}") or None
            return default if value is None else value

        api_key: str | None = None
        base_url = getattr(settings, "llm_base_url", None)
        if provider == "openai":
            api_key = env.get("OPENAI_API_KEY") or None
            base_url = base_url or env.get("OPENAI_BASE_URL") or OPENAI_DEFAULT_BASE_URL
        elif provider == "gemini":
            api_key = env.get("GEMINI_API_KEY") or env.get("GOOGLE_API_KEY") or None
        stages_value = opt("llm_stages", None)
        json_mode = str(opt("llm_json_mode", "json_schema"))
        if json_mode not in ("json_schema", "json_object", "none"):
            raise ConfigurationError(
                f"llm_json_mode must be json_schema, json_object or none, not {json_mode!r}"
            )
        return cls(
            provider=provider,
            model=getattr(settings, "llm_model", None) or DEFAULT_MODELS.get(provider, ""),
            base_url=base_url,
            api_key=api_key,
            timeout_s=float(opt("llm_timeout_s", 20.0)),
            max_retries=int(opt("llm_max_retries", 2)),
            backoff_base_s=float(opt("llm_backoff_base_s", 0.5)),
            backoff_max_s=float(opt("llm_backoff_max_s", 8.0)),
            turn_budget_calls=int(opt("llm_turn_budget_calls", 4)),
            stages=parse_stages(stages_value, plan=bool(getattr(settings, "llm_plan", False))),
            json_mode=json_mode,  # type: ignore[arg-type]
            temperature=None if opt("llm_temperature", None) is None else float(opt("llm_temperature", None)),
            enrich_batch=int(opt("llm_enrich_batch", 4)),
            enrich_concurrency=int(opt("llm_enrich_concurrency", 4)),
            enrich_rps=float(opt("llm_enrich_rps", 2.0)),
        )
