"""Build the configured :class:`~matjip.llm.base.LLMClient` from :class:`~matjip.llm.config.LLMOptions`."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from matjip.errors import ConfigurationError
from matjip.llm.base import LLMClient, RetryPolicy
from matjip.llm.config import OPENAI_DEFAULT_BASE_URL, LLMOptions


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
) -> LLMClient:
    """The client for ``options.provider``: ``openai`` (any OpenAI-compatible server),
    ``gemini`` or ``fake``. ``transport`` (an ``httpx`` transport, or for Gemini an
    ``httpx.Client``) is for tests."""
    provider = options.provider
    if provider == "openai":
        from matjip.llm.openai_compat import OpenAICompatClient

        base_url = options.base_url or OPENAI_DEFAULT_BASE_URL
        if not options.api_key and base_url.rstrip("/") == OPENAI_DEFAULT_BASE_URL:
            raise ConfigurationError(
                "llm_provider=openai needs OPENAI_API_KEY in the environment "
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
        )
    if provider == "gemini":
        from matjip.llm.gemini import GeminiClient

        return GeminiClient(
            model=options.model,
            api_key=options.api_key,
            base_url=options.base_url,
            timeout_s=options.timeout_s,
            retry=retry_policy(options, sleep),
            temperature=options.temperature,
            httpx_client=transport,
        )
    if provider == "fake":
        from matjip.llm.fake import FakeLLM

        return FakeLLM(model=options.model or "fake")
    raise ConfigurationError(f"no LLM client for provider {provider!r} (use openai, gemini or fake)")
