"""What each LLM stage must answer: Pydantic models the reply is validated against.

The models are deliberately close to the design (docs/design.md: NLU, need-search,
relevance; 004 plan) and flat enough that every provider's structured-output mode accepts their
JSON schema. Validation here is only the shape; each stage then checks meaning (ids, entities
grounded in the gazetteer and the index, plan ranges) before it trusts a reply.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from matjip.nlu.models import Entities


class NLUEntitiesOut(Entities):
    # Entities' fields, unchanged. A subclass without a docstring, so that the schema the LLM
    # is sent carries no description (Entities' docstring is written for developers).
    pass


class NLUOut(BaseModel):
    """docs/design.md: intent and entities."""

    model_config = ConfigDict(extra="ignore")

    intent: Literal["search", "compare", "information"]
    entities: NLUEntitiesOut = Field(default_factory=NLUEntitiesOut)


class NeedSearchOut(BaseModel):
    """docs/design.md: does this message need a new search?"""

    need_search: bool
    reason: str = ""


# DocumentScoreOut and GradeOut mirror matjip.agent.models.DocumentScore and Grade but stay
# separate: a model may send ids as numbers and leave reasons out, and the agent's Grade adds
# fields (tier, top_score) the LLM must not be asked for.
class DocumentScoreOut(BaseModel):
    model_config = ConfigDict(coerce_numbers_to_str=True)

    document_id: str
    relevance: Literal["relevant", "irrelevant"]
    reason: str = ""


class GradeOut(BaseModel):
    """docs/design.md: overall relevance plus one verdict per document."""

    overall_relevance: Literal["relevant", "irrelevant"]
    reason: str = ""
    document_scores: list[DocumentScoreOut] = Field(default_factory=list)


# Not matjip.agent.models.SearchPlan: only the fields the LLM writes, as plain strings (the
# plan validator checks them), and docstrings here are part of the schema the LLM is sent.
class PlanOut(BaseModel):
    """The part of a search plan (docs/design.md) the LLM may write. The server supplies the location
    (resolved by the gazetteer), the time and the per-title k, then validates the whole plan with
    :func:`matjip.agent.plan.validate_plan`. Unknown keys are a schema violation."""

    model_config = ConfigDict(extra="forbid")

    intent: str = "search"
    titles: list[str] = Field(default_factory=list)
    cuisine: list[str] = Field(default_factory=list)
    menu: list[str] = Field(default_factory=list)
    convenience: list[str] = Field(default_factory=list)
    atmosphere: list[str] = Field(default_factory=list)
    occasion: list[str] = Field(default_factory=list)
    semantic: str = ""
    price_min: int | None = None
    price_max: int | None = None
    k: int = 3
    sort: str = "relevance"
    strategy: str = Field(
        "",
        description='"route", "point_travel", "course", or "" to keep the server\'s reading of the question; the '
        "server supplies each strategy's places, times and stops and drops a strategy it cannot run",
    )
