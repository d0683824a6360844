"""Build an embedder from its configured name (``Settings.embedder``).

Names::

    kiwi-cong                  offline Korean embeddings from Kiwi's CoNg model (default)
    lsa                        TF-IDF + truncated SVD learnt from the corpus at index time
    hash                       hashed character n-grams (tests, last-resort fallback)
    combo                      kiwi-cong 0.8 + hash 0.2 (cosine weights; for vector-only search)
    openai[:model[@dims]]      OpenAI-compatible /embeddings (OPENAI_API_KEY)
    gemini[:model[@dims]]      Gemini batchEmbedContents (GEMINI_API_KEY or GOOGLE_API_KEY)
    st:<dir>                   a local sentence-transformers model directory

Provider modules are imported only when their name is asked for. Provider embedders take their
key, base URL, timeout and retries from the settings passed to :func:`create`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from matjip.errors import ConfigurationError
from matjip.index.embed.base import Embedder

if TYPE_CHECKING:
    from matjip.settings import Settings

KNOWN_NAMES = (
    "kiwi-cong",
    "lsa",
    "hash",
    "combo",
    "openai[:model[@dims]]",
    "gemini[:model[@dims]]",
    "st:<dir>",
)

COMBO_WEIGHTS = (0.8, 0.2)  # kiwi-cong, hash — see bench/embeddings.py


def _provider_kw(settings: Settings | None, provider: str) -> dict[str, Any]:
    """Key, base URL, timeout and retries of a provider embedder (none without settings)."""
    if settings is None:
        return {}
    from matjip.settings import secret

    kw: dict[str, Any] = {"timeout_s": settings.llm_timeout_s, "max_retries": settings.llm_max_retries}
    if provider == "openai":
        kw["api_key"] = secret(settings.openai_api_key)
        kw["base_url"] = settings.openai_base_url or (
            settings.llm_base_url if settings.llm_provider == "openai" else None
        )
    else:
        kw["api_key"] = secret(settings.gemini_api_key)
    return kw


def create(name: str, settings: Settings | None = None) -> Embedder:
    """A new embedder for ``name``; :class:`ConfigurationError` for an unknown or bad name.

    ``settings`` configure the provider embedders (``openai``, ``gemini``: keys, base URL,
    timeout, retries); without them those have no key and raise :class:`ConfigurationError`."""
    spec = name.strip()
    head, sep, rest = spec.partition(":")
    kind = head.lower()
    if kind == "kiwi-cong" and not sep:
        from matjip.index.embed.kiwi_cong import KiwiCongEmbedder

        return KiwiCongEmbedder()
    if kind == "lsa" and not sep:
        from matjip.index.embed.lsa import LsaEmbedder

        return LsaEmbedder()
    if kind == "hash" and not sep:
        from matjip.index.embed.hashing import HashingEmbedder

        return HashingEmbedder()
    if kind == "combo" and not sep:
        from matjip.index.embed.combo import ComboEmbedder
        from matjip.index.embed.hashing import HashingEmbedder
        from matjip.index.embed.kiwi_cong import KiwiCongEmbedder

        return ComboEmbedder([KiwiCongEmbedder(), HashingEmbedder()], COMBO_WEIGHTS, name="combo")
    if kind == "openai":
        from matjip.index.embed.remote import OpenAIEmbedder, _split_model

        model, dims = _split_model(rest, OpenAIEmbedder.DEFAULT_MODEL)
        return OpenAIEmbedder(model, dimensions=dims, **_provider_kw(settings, "openai"))
    if kind == "gemini":
        from matjip.index.embed.remote import GeminiEmbedder, _split_model

        model, dims = _split_model(rest, GeminiEmbedder.DEFAULT_MODEL)
        return GeminiEmbedder(model, dimensions=dims, **_provider_kw(settings, "gemini"))
    if kind == "st":
        if not rest.strip():
            raise ConfigurationError("st:<dir> needs the path of a sentence-transformers model directory")
        from matjip.index.embed.remote import SentenceTransformerEmbedder

        return SentenceTransformerEmbedder(rest.strip())
    raise ConfigurationError(f"unknown embedder {name!r}; known: {', '.join(KNOWN_NAMES)}")


def get_embedder(name: str, settings: Settings | None = None) -> Embedder:
    """Build the embedder configured by ``name`` (see Settings.embedder); provider embedders
    take their keys and endpoints from ``settings``."""
    return create(name, settings)
