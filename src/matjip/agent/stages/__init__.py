"""The LLM stages of the agent, each optional and each with an offline twin to fall back to.

=============  ==============================================  ===============================
flag           method (called by the agent node)               falls back to
=============  ==============================================  ===============================
understands    :meth:`LLMStages.understand` (understand node)  the offline NLU result
decides        :meth:`LLMStages.decide` (need_search node)     the offline decision
plans          :meth:`LLMStages.write_plan` (plan node)        the offline plan
grades         :meth:`LLMStages.grade` (evaluate, middle band)  the offline grader
generates      :meth:`LLMStages.generate` /                    the template answer
               :meth:`LLMStages.generate_stream` (generate)
=============  ==============================================  ===============================

Every reply is validated twice: its shape by Pydantic (:mod:`matjip.agent.stages.schemas`), its meaning
here (entities must exist in the gazetteer or the index, graded ids must be the shown ids, plans
go through :func:`matjip.agent.plan.validate_plan`, answers through the grounding check). ANY
failure — timeout, HTTP error, bad JSON, schema violation, out-of-range values, an ungrounded
answer, a spent budget — makes the stage return its "no answer" value, and the reason is kept
as a note. Notes and :class:`~matjip.providers.base.CallRecord` s are collected per turn and handed to
the trace by :meth:`LLMStages.drain`.
"""

from __future__ import annotations

from matjip.agent.stages.core import GenerationStream, StageCore
from matjip.agent.stages.decide import DecideStage
from matjip.agent.stages.fakes import default_reply
from matjip.agent.stages.generate import GenerateStage, format_web_context
from matjip.agent.stages.grade import GradeStage
from matjip.agent.stages.plan import PlanStage
from matjip.agent.stages.understand import UnderstandStage
from matjip.providers.base import LLMClient
from matjip.providers.client import make_client
from matjip.providers.config import LLMOptions
from matjip.providers.guard import CircuitBreaker, GuardedClient
from matjip.providers.tavily import TavilyClient
from matjip.settings import Settings

__all__ = ["GenerationStream", "LLMStages", "StageCore", "build_stages", "build_web", "format_web_context"]


class LLMStages(UnderstandStage, DecideStage, PlanStage, GradeStage, GenerateStage):
    """LLM versions of the agent's stages; flags say which are switched on."""


def build_stages(settings: Settings, *, client: LLMClient | None = None) -> LLMStages:
    """The configured stages (``settings.llm_provider`` must not be ``none``).

    Call :meth:`LLMStages.bind` with the agent's resources once they exist.
    """

    options = LLMOptions.from_settings(settings)
    if client is None:
        client = GuardedClient(
            make_client(options, fake_replies=default_reply),
            max_concurrency=settings.llm_max_concurrency,
            breaker=CircuitBreaker(settings.llm_circuit_failures, settings.llm_circuit_cooldown_s),
        )
    return LLMStages(client, options)


def build_web(settings: Settings) -> TavilyClient | None:
    """The Tavily client when ``settings.tavily_api_key`` (``TAVILY_API_KEY``) is set, else ``None``."""

    return TavilyClient.from_settings(settings)
