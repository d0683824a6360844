"""Reply schemas of the LLM enricher (validated by Pydantic before anything is used)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class EnrichValueOut(BaseModel):
    value: str
    evidence: str = Field(
        description="A span copied verbatim from the record's text that supports the value."
    )


class EnrichRecordOut(BaseModel):
    model_config = ConfigDict(coerce_numbers_to_str=True, extra="ignore")

    id: str
    review_food: list[EnrichValueOut] = Field(default_factory=list)
    convenience: list[EnrichValueOut] = Field(default_factory=list)
    atmosphere: list[EnrichValueOut] = Field(default_factory=list)
    occasion: list[EnrichValueOut] = Field(default_factory=list)
    features: list[EnrichValueOut] = Field(default_factory=list)


class EnrichBatchOut(BaseModel):
    """docs/design.md facets for several records, each value with its evidence span."""

    records: list[EnrichRecordOut] = Field(default_factory=list)
