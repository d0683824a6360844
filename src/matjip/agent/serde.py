"""The checkpoint serializer: LangGraph's, allowed to rebuild the state's own models.

Its own module so that the graph (which hands it to LangGraph's savers) and the checkpoint store
(which falls back on it for what its fast path cannot pack) both import it, one way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from matjip.agent.state import CHECKPOINT_MODELS

if TYPE_CHECKING:
    from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer


def checkpoint_serializer() -> JsonPlusSerializer:
    """LangGraph's serializer, allowed to rebuild the state's models (:data:`CHECKPOINT_MODELS`)
    from a checkpoint besides its own safe types; any other class stays its serialized fields."""
    from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

    return JsonPlusSerializer(allowed_msgpack_modules=CHECKPOINT_MODELS)
