"""One settings object for the whole product (environment prefix ``MATJIP_``)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

import platformdirs
from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

PACKAGE_DATA = Path(__file__).parent / "data"
DEMO_DATA = PACKAGE_DATA / "kakao_capital.jsonl.gz"


def _default_data_dir() -> Path:
    return Path(platformdirs.user_data_dir("matjip", appauthor=False))


class Settings(BaseSettings):
    """Configuration. Every field can be set as ``MATJIP_<NAME>`` in the environment or a ``.env`` file."""

    model_config = SettingsConfigDict(env_prefix="MATJIP_", env_file=".env", extra="ignore")

    data_dir: Path = Field(
        default_factory=_default_data_dir, description="Where documents, index and sessions live."
    )
    timezone: str = "Asia/Seoul"

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
    tavily_api_key: str | None = None

    # service
    max_message_chars: int = 2000
    max_body_bytes: int = 64_000
    rate_limit_per_minute: int = 120
    turn_timeout_s: float = 30.0
    cors_origins: list[str] = Field(default_factory=list)

    @property
    def store_path(self) -> Path:
        return self.data_dir / "documents.sqlite"

    @property
    def index_dir(self) -> Path:
        return self.data_dir / "index"

    @property
    def sessions_path(self) -> Path:
        return self.data_dir / "sessions.sqlite"

    @property
    def rejects_path(self) -> Path:
        return self.data_dir / "rejects.jsonl"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
