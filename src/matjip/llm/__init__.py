"""LLM providers and stages (imported only when a provider or a web-search key is configured).

* :mod:`.base` — the :class:`LLMClient` protocol, :class:`CallRecord`, retries, JSON parsing
* :mod:`.openai_compat` — OpenAI / vLLM / Ollama / llama.cpp over httpx
* :mod:`.http` — one httpx request under the retry policy (OpenAI-compatible, Tavily)
* :mod:`.gemini` — Gemini via ``google-genai``
* :mod:`.fake` — scripted :class:`FakeLLM` (provider ``fake``)
* :mod:`.stages` — :class:`LLMStages` (NLU, need-search, plan, grade, generate) with fallbacks
* :mod:`.grounding` — the answer grounding check
* :mod:`.web` — Tavily web search
* :mod:`.tracing` — optional LangSmith runs and per-node trace details
* :mod:`.accounting` — LLM calls and tokens per turn, from a trace
"""

from matjip.llm.base import CallRecord, LLMClient, Message, TextStream

__all__ = ["CallRecord", "LLMClient", "Message", "TextStream"]
