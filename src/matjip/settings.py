"""One settings object for the whole product (environment prefix ``MATJIP_``, also ``.env``).

This is the only module that reads the process environment: every option, provider keys
included, is a field of :class:`Settings`, and the rest of the code gets the settings (or a
value object derived from them, e.g. :class:`~matjip.providers.config.LLMOptions`) passed in.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import platformdirs
from pydantic import AliasChoices, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

# numpy's multithreaded BLAS is pathologically slow on small machines for the small matrices
# matjip uses (measured: 256x256 eigh 1 s -> 0.017 s); this must happen before numpy is first
# imported, and every ``import matjip...`` runs ``matjip/__init__``, which imports this module first
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

PACKAGE_DATA = Path(__file__).parent / "data"
DEMO_DATA = PACKAGE_DATA / "kakao_capital.jsonl.gz"
# the default of ``Settings.timezone``; code that a settings object cannot reach (e.g. the
# validators of request models) uses it directly
DEFAULT_TIMEZONE = "Asia/Seoul"
LANGSMITH_DEFAULT_ENDPOINT = "https://api.smith.langchain.com"
_TRUE = ("1", "true", "yes", "on")


def _default_data_dir() -> Path:
    return Path(platformdirs.user_data_dir("matjip", appauthor=False))


class Settings(BaseSettings):
    """Configuration. Every field can be set as ``MATJIP_<NAME>`` in the environment or a ``.env`` file."""

    model_config = SettingsConfigDict(
        env_prefix="MATJIP_",
        env_file=".env",
        extra="ignore",
        populate_by_name=True,  # Settings(tavily_api_key=...) as well as Settings(TAVILY_API_KEY=...)
        env_ignore_empty=True,  # MATJIP_LLM_TEMPERATURE= (empty) means the default
    )

    data_dir: Path = Field(
        default_factory=_default_data_dir, description="Where documents, index and sessions live."
    )
    timezone: str = Field(DEFAULT_TIMEZONE, description="IANA time zone of 'now' and of opening hours.")

    # search
    embedder: str = Field(
        "kiwi-cong", description="Embedder name: kiwi-cong, lsa, hash, openai, gemini, st:<dir>"
    )
    # RRF k=60 ranked best on the search development set (nDCG@5 0.666 vs 0.629 for convex 0.5/0.5)
    fusion: Literal["rrf", "convex"] = "rrf"
    rrf_k: int = 60
    # weights of the BM25 and vector lists, used by both fusions (and by SearchHit.score)
    weight_bm25: float = Field(0.5, ge=0.0, le=1.0)
    weight_vector: float = Field(0.5, ge=0.0, le=1.0)
    # where the search index lives: the embedded files (default) or a PostgreSQL database
    backend: Literal["embedded", "postgres"] = "embedded"
    database_url: SecretStr | None = Field(
        None, description="PostgreSQL URL (postgresql://user:pass@host:5432/db) for backend=postgres."
    )
    database_pool_size: int = Field(4, ge=1, le=64, description="Connections in the PostgreSQL pool.")
    database_hnsw: bool = Field(
        False,
        description="PostgreSQL: the vector lists of unfiltered searches from the HNSW index (approximate; "
        "recall in the README) instead of the exact scan; filtered lists stay exact.",
    )
    database_read_urls: SecretStr | None = Field(
        None,
        description="Read-only replicas of database_url (comma-separated postgresql:// URLs): searches "
        "go there, writes (ingest, sessions) to the primary.",
    )
    database_connect_timeout_s: int = Field(
        3, ge=1, le=60, description="Seconds a new PostgreSQL connection may take before it fails."
    )
    database_timeout_s: float = Field(
        5.0, gt=0, le=120, description="Seconds a request waits for a pooled PostgreSQL connection."
    )
    database_probe_s: float = Field(
        1.0, gt=0, le=60, description="Seconds between the server's PostgreSQL reachability probes."
    )

    # agent
    default_k: int = 3
    sufficiency_top1: float = 0.65
    sufficiency_mean: float = 0.60
    sufficiency_high: float = 0.75

    # providers
    llm_provider: Literal["none", "openai", "gemini", "fake"] = "none"
    llm_model: str | None = None
    llm_base_url: str | None = None
    llm_timeout_s: float = 20.0
    llm_max_retries: int = 2
    llm_turn_budget_calls: int = 4
    llm_plan: bool = False
    # comma list of understand, decide, plan, grade, generate; "all" or "none" (default grade,generate)
    llm_stages: str | None = None
    llm_json_mode: str = "json_schema"  # json_schema, json_object or none (checked by LLMOptions)
    llm_temperature: float | None = None
    llm_backoff_base_s: float = 0.5
    llm_backoff_max_s: float = 8.0
    llm_enrich_batch: int = 4
    llm_enrich_concurrency: int = 4
    llm_enrich_rps: float = 2.0

    # provider keys and endpoints under the providers' usual names; MATJIP_<NAME> works too (a
    # validation_alias replaces the prefixed name, so it is listed; the first name found wins)
    openai_api_key: SecretStr | None = Field(
        None, validation_alias=AliasChoices("MATJIP_OPENAI_API_KEY", "OPENAI_API_KEY")
    )
    openai_base_url: str | None = Field(
        None, validation_alias=AliasChoices("MATJIP_OPENAI_BASE_URL", "OPENAI_BASE_URL")
    )
    gemini_api_key: SecretStr | None = Field(
        None, validation_alias=AliasChoices("MATJIP_GEMINI_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY")
    )
    # live providers (issue 14): places outside the index, places abroad, road routes
    kakao_rest_api_key: SecretStr | None = Field(
        None, validation_alias=AliasChoices("MATJIP_KAKAO_REST_API_KEY", "KAKAO_REST_API_KEY")
    )
    google_maps_api_key: SecretStr | None = Field(
        None, validation_alias=AliasChoices("MATJIP_GOOGLE_MAPS_API_KEY", "GOOGLE_MAPS_API_KEY")
    )
    routing_provider: Literal["none", "osrm", "kakao", "google"] = Field(
        "none",
        description="Road routes and travel times: a self-hosted OSRM server, Kakao Mobility or Google Routes.",
    )
    osrm_url: str | None = Field(None, description="The OSRM server (http://host:5000).")
    live_timeout_s: float = Field(5.0, gt=0, le=60, description="Timeout of a live provider call.")
    tavily_api_key: SecretStr | None = Field(
        None, validation_alias=AliasChoices("MATJIP_TAVILY_API_KEY", "TAVILY_API_KEY")
    )

    # collectors (`matjip collect`, issue 22): the local-search APIs an operator grows the data with
    kakao_local_url: str = Field("https://dapi.kakao.com", description="Kakao Local API base URL.")
    naver_search_url: str = Field("https://openapi.naver.com", description="Naver search API base URL.")
    naver_client_id: SecretStr | None = Field(
        None, validation_alias=AliasChoices("MATJIP_NAVER_CLIENT_ID", "NAVER_CLIENT_ID")
    )
    naver_client_secret: SecretStr | None = Field(
        None, validation_alias=AliasChoices("MATJIP_NAVER_CLIENT_SECRET", "NAVER_CLIENT_SECRET")
    )
    collect_quota_kakao: int = Field(100_000, ge=1, description="Kakao Local calls per day.")
    collect_quota_naver: int = Field(25_000, ge=1, description="Naver search calls per day.")
    collect_quota_details: int = Field(5_000, ge=1, description="Place-detail page reads per day.")
    collect_rate_per_s: float = Field(10.0, ge=0, description="Search calls per second (0: no limit).")
    collect_detail_url: str = Field(
        "https://place.map.kakao.com/main/v", description="Kakao Map place-detail JSON (not an official API)."
    )
    collect_detail_rate_per_s: float = Field(1.0, gt=0, le=1.0, description="Detail reads per second.")
    collect_max_retries: int = Field(4, ge=0, le=10)
    collect_backoff_s: float = Field(1.0, ge=0, description="First retry wait after a 429/5xx (doubles).")
    collect_backoff_max_s: float = Field(30.0, ge=0)
    collect_timeout_s: float = Field(10.0, gt=0, le=120)
    collect_today: str | None = Field(
        None, description="The quota day (YYYY-MM-DD); default today in MATJIP_TIMEZONE (tests set it)."
    )

    # LangSmith tracing (the LANGCHAIN_* names are the older spellings)
    langsmith_tracing: bool = Field(
        False,
        validation_alias=AliasChoices(
            "MATJIP_LANGSMITH_TRACING", "LANGSMITH_TRACING", "LANGCHAIN_TRACING_V2"
        ),
    )
    langsmith_api_key: SecretStr | None = Field(
        None,
        validation_alias=AliasChoices("MATJIP_LANGSMITH_API_KEY", "LANGSMITH_API_KEY", "LANGCHAIN_API_KEY"),
    )
    langsmith_project: str | None = Field(
        None, validation_alias=AliasChoices("MATJIP_LANGSMITH_PROJECT", "LANGSMITH_PROJECT")
    )
    langsmith_endpoint: str = Field(
        LANGSMITH_DEFAULT_ENDPOINT,
        validation_alias=AliasChoices("MATJIP_LANGSMITH_ENDPOINT", "LANGSMITH_ENDPOINT"),
    )

    # command line: defaults of `matjip serve`, `ingest`, `ask` and `chat`
    host: str = "127.0.0.1"
    port: int = Field(8000, ge=0, le=65535)
    enrich: Literal["offline", "llm"] = "offline"
    # support of a value read from reviews (issue 12): with at least ``enrich_support_from`` reviews a
    # value needs ``enrich_min_reviews`` supporting reviews and that share of all reviews
    enrich_min_reviews: int = Field(2, ge=1)
    enrich_min_share: float = Field(0.03, ge=0, le=1)
    enrich_support_from: int = Field(10, ge=1)
    # a fact (the fields of ``[support] fact_fields`` in review_rules.toml: conveniences) needs only
    # this many supporting reviews, and more for than against (issue 24)
    enrich_fact_min_reviews: int = Field(1, ge=1)
    # the mypyc-compiled reader (matjip.ingest.enrich.native) when it is built from these sources
    native: bool = True
    lat: float | None = Field(None, ge=-90, le=90, description="The device's latitude for '내 근처' (CLI).")
    lon: float | None = Field(
        None, ge=-180, le=180, description="The device's longitude for '내 근처' (CLI)."
    )
    ask_reuse_server: bool = Field(
        True,
        description="`matjip ask` sends the question to a `matjip serve` on host:port over the same "
        "data when one is up (answers in a fraction of a second), instead of loading the index itself.",
    )

    # ingest limits: longer text fields are cut (the document is flagged 'truncated')
    ingest_max_field_chars: int = Field(20_000, ge=100)
    ingest_max_record_chars: int = Field(200_000, ge=1_000)

    # provider calls (providers/guard.py): concurrent calls, circuit breaker
    llm_max_concurrency: int = Field(8, ge=1)
    llm_circuit_failures: int = Field(5, ge=1)
    llm_circuit_cooldown_s: float = Field(30.0, ge=0)
    # turn workers for offline work (the API adds llm_max_concurrency when a provider is configured)
    turn_workers: int = Field(default_factory=lambda: min(32, (os.cpu_count() or 1) + 4), ge=1)

    # sessions (agent/retention.py): turns of history kept, days an idle session is kept (0: forever)
    session_max_turns: int = Field(20, ge=1)
    session_max_age_days: float = Field(30.0, ge=0)

    # service
    max_message_chars: int = 2000
    max_body_bytes: int = 64_000
    rate_limit_per_minute: int = 120
    turn_timeout_s: float = 30.0
    cors_origins: list[str] = Field(default_factory=list)
    # proxies whose X-Forwarded-For is believed (addresses or CIDRs); none: the socket peer is the client
    trusted_proxies: list[str] = Field(default_factory=list)

    @field_validator("langsmith_tracing", mode="before")
    @classmethod
    def _tracing_flag(cls, value: Any) -> Any:
        # like LangSmith itself: 1/true/yes/on switch it on, anything else leaves it off
        if isinstance(value, str):
            return value.strip().lower() in _TRUE
        return value

    @property
    def store_path(self) -> Path:
        return self.data_dir / "documents.sqlite"

    @property
    def index_dir(self) -> Path:
        return self.data_dir / "index"

    @property
    def data_key(self) -> str:
        """A short fingerprint of the data directory (not the path itself): a client and a server
        with the same key answer from the same documents and sessions."""
        import hashlib

        return hashlib.sha1(str(self.data_dir.resolve()).encode()).hexdigest()[:16]

    @property
    def sessions_path(self) -> Path:
        return self.data_dir / "sessions.sqlite"

    @property
    def rejects_path(self) -> Path:
        return self.data_dir / "rejects.jsonl"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()


def secret(value: SecretStr | None) -> str | None:
    """The text of a secret field, ``None`` when unset or empty."""
    return (value.get_secret_value() or None) if value is not None else None


def environment_values(names: re.Pattern[str], min_len: int = 1) -> list[str]:
    """Values of the environment variables whose name matches ``names`` (e.g. secret-looking
    ones, for redaction), read now, at least ``min_len`` characters long."""
    return [v for k, v in os.environ.items() if names.search(k) and v and len(v) >= min_len]


# --- redaction: the one function every outgoing text passes ----------------------------------

REDACTED = "***"
_SECRET_NAME = re.compile(r"(API_KEY|TOKEN|SECRET|PASSWORD)", re.I)
# strings shaped like provider credentials, whether or not this process knows them
KEY_SHAPED = re.compile(
    r"(?:"
    r"\bsk-[A-Za-z0-9_\-]{8,}"  # OpenAI (sk-…, sk-proj-…) and compatible proxies
    r"|\bAIza[0-9A-Za-z_\-]{20,}"  # Google / Gemini
    r"|\btvly-[A-Za-z0-9_\-]{8,}"  # Tavily
    r"|\blsv2_[A-Za-z0-9_]{8,}"  # LangSmith
    r"|\b(?:gh[pousr]|github_pat)_[A-Za-z0-9_]{16,}"  # GitHub tokens
    r"|(?<=Bearer )[A-Za-z0-9_\-.=/+]{8,}"  # an Authorization header echoed back
    r"|(?<=[?&]key=)[A-Za-z0-9_\-]{8,}"  # keys in query strings (Gemini REST)
    r")"
)
_REGISTERED: set[str] = set()


def register_secret(value: str | None) -> None:
    """Remember a secret (e.g. read from a ``.env`` file) so :func:`redact` removes it everywhere."""
    if value and len(value) >= 6:
        _REGISTERED.add(value)


def register_settings_secrets(settings: Settings) -> None:
    """Register every secret-looking field of ``settings`` (API keys, tokens, passwords)."""
    for name in type(settings).model_fields:
        if _SECRET_NAME.search(name):
            value = getattr(settings, name)
            register_secret(value.get_secret_value() if isinstance(value, SecretStr) else value)


def secret_values() -> list[str]:
    """Known secrets: registered ones and secret-looking environment variables, longest first."""
    return sorted({*_REGISTERED, *environment_values(_SECRET_NAME, min_len=6)}, key=len, reverse=True)


def redact(text: str, secrets: list[str] | None = None) -> str:
    """``text`` with every known secret and every key-shaped string replaced by ``***``.

    The one redaction function: traces (JSON and SSE), answers, problem details and log records
    all pass it before they leave the process.
    """
    if not text:
        return text
    for value in secrets if secrets is not None else secret_values():
        if value and value in text:
            text = text.replace(value, REDACTED)
    return KEY_SHAPED.sub(REDACTED, text)


def redact_data(value: Any, secrets: list[str] | None = None) -> Any:
    """:func:`redact` applied to every string inside JSON-like data (dicts, lists, strings); the
    known secrets are read once per call, not once per string."""
    if secrets is None:
        secrets = secret_values()
    if isinstance(value, str):
        return redact(value, secrets)
    if isinstance(value, dict):
        return {k: redact_data(v, secrets) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [redact_data(v, secrets) for v in value]
    return value


_LOG_REDACTION_INSTALLED = False


def install_log_redaction() -> None:
    """Make every log record pass :func:`redact` (message, arguments and traceback text), whichever
    handler writes it. Idempotent; wraps the current log record factory."""
    global _LOG_REDACTION_INSTALLED
    import logging

    if _LOG_REDACTION_INSTALLED:
        return
    _LOG_REDACTION_INSTALLED = True
    previous = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        try:
            message = record.getMessage()
        except Exception:  # a bad format string: leave the record to the handler's error path
            return record
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        if record.exc_info and record.exc_info[1] is not None:
            record.exc_text = redact(logging.Formatter().formatException(record.exc_info))
        return record

    logging.setLogRecordFactory(factory)
