"""Domain-free provider clients: they know nothing of restaurants.

* :mod:`.base` — the :class:`LLMClient` protocol, :class:`CallRecord`, retries, JSON parsing
* :mod:`.openai_compat` — OpenAI / vLLM / Ollama / llama.cpp over httpx
* :mod:`.http` — one httpx request under the retry policy (OpenAI-compatible, Tavily)
* :mod:`.gemini` — Gemini via ``google-genai``
* :mod:`.fake` — scripted :class:`FakeLLM` (provider ``fake``): replies from a script or a function
* :mod:`.client` / :mod:`.config` — the configured client and its options
* :mod:`.tavily` — Tavily web search, returning :class:`~matjip.providers.tavily.WebResult`
* :mod:`.prompts` — a Jinja2 prompt renderer over a template directory
* :mod:`.tracing` — optional LangSmith runs
* :mod:`.pricing` — list prices per model

This package imports only :mod:`matjip.errors`, :mod:`matjip.settings` and third-party libraries.
"""

from matjip.providers.base import CallRecord, LLMClient, Message, TextStream

__all__ = ["CallRecord", "LLMClient", "Message", "TextStream"]
