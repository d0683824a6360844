"""Build the configured :class:`~matjip.providers.base.LLMClient` from :class:`~matjip.providers.config.LLMOptions`."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from matjip.errors import ConfigurationError
from matjip.providers.base import LLMClient, RetryPolicy
from matjip.providers.config import OPENAI_DEFAULT_BASE_URL, LLMOptions
from matjip.providers.fake import FakeCall, FakeLLM, Reply


def retry_policy(options: LLMOptions, sleep: Callable[[float], None] = time.sleep) -> RetryPolicy:
    return RetryPolicy(
        max_retries=max(0, options.max_retries),
        base_s=max(0.0, options.backoff_base_s),
        max_delay_s=max(0.0, options.backoff_max_s),
        sleep=sleep,
    )


def make_client(
    options: LLMOptions,
    *,
    sleep: Callable[[float], None] = time.sleep,
    transport: Any = None,
    fake_replies: Callable[[FakeCall], Reply] | None = None,
) -> LLMClient:
    """The client for ``options.provider``: ``openai`` (any OpenAI-compatible server),
    ``gemini`` or ``fake``. ``transport`` (an ``httpx`` transport, or for Gemini an
    ``httpx.Client``) is for tests; ``fake_replies`` answers the ``fake`` provider's calls."""
    provider = options.provider
    if provider == "openai":
        from matjip.providers.openai_compat import OpenAICompatClient

        base_url = options.base_url or OPENAI_DEFAULT_BASE_URL
        if not options.api_key and base_url.rstrip("/") == OPENAI_DEFAULT_BASE_URL:
            raise ConfigurationError(
                "llm_provider=openai needs OPENAI_API_KEY (environment or .env) "
                "(or MATJIP_LLM_BASE_URL pointing at a local OpenAI-compatible server)"
            )
        return OpenAICompatClient(
            model=options.model,
            base_url=base_url,
            api_key=options.api_key,
            timeout_s=options.timeout_s,
            retry=retry_policy(options, sleep),
            json_mode=options.json_mode,
            stream_usage=options.stream_usage,
            temperature=options.temperature,
            transport=transport,
            tracing_config=options.tracing,
        )
    if provider == "gemini":
        from matjip.providers.gemini import GeminiClient

        return GeminiClient(
            model=options.model,
            api_key=options.api_key,
            base_url=options.base_url,
            timeout_s=options.timeout_s,
            retry=retry_policy(options, sleep),
            temperature=options.temperature,
            httpx_client=transport,
            tracing_config=options.tracing,
        )
    if provider == "fake":
        return FakeLLM(model=options.model or "fake", function=fake_replies)
    raise ConfigurationError(f"no LLM client for provider {provider!r} (use openai, gemini or fake)")
