"""inline_schema keeps properties that happen to be called "title"."""

from __future__ import annotations

from pydantic import BaseModel

from matjip.providers.base import inline_schema


class _Inner(BaseModel):
    title: list[str]
    menu: list[str]


class _Outer(BaseModel):
    entities: _Inner
    intent: str


def test_property_named_title_survives_and_refs_are_inlined() -> None:
    schema = inline_schema(_Outer)
    inner = schema["properties"]["entities"]
    assert "$ref" not in str(schema)
    assert set(inner["properties"]) == {"title", "menu"}
    assert "title" not in inner  # the schema's own title annotation is still dropped
    assert inner["properties"]["title"]["type"] == "array"
