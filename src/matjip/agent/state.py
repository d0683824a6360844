"""The agent state. Plain JSON-able values only, so the SQLite checkpointer can persist it.

Conversation-long fields: ``messages``, ``location_history``, ``searches``, ``context``, ``pending``.
Per-turn fields are reset by the first node of every turn.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, TypedDict


class HitRecord(TypedDict, total=False):
    id: str
    score: float
    distance_m: float | None
    matched: list[str]
    open_now: bool | None
    bm25: float | None
    vector: float | None
    origin: str | None  # name of the place distances are measured from


class SearchRecord(TypedDict, total=False):
    turn: int
    query: str
    intent: str
    signature: str
    plan: dict[str, Any]
    hits: list[HitRecord]


class AgentState(TypedDict, total=False):
    # conversation
    session_id: str
    turn: int
    messages: Annotated[list[dict[str, str]], operator.add]
    location_history: list[dict[str, Any]]
    searches: list[SearchRecord]
    context: list[HitRecord]  # the documents the conversation is currently about, in shown order
    focus: str | None  # place_id a pronoun ("거기") refers to
    pending: dict[str, Any] | None  # a clarification waiting for the user's answer
    # this turn
    query: str
    gps: dict[str, float] | None
    now: str  # ISO time of the turn (Asia/Seoul)
    reply: str | None  # a canned reply kind (empty, not_korean, smalltalk:thanks, unknown_place:…)
    nlu: dict[str, Any]
    location: dict[str, Any] | None
    location_carried: bool
    resumed: bool  # this turn answered a clarification and resumed the question that asked it
    refine: bool  # this turn narrows the previous search ("그중에 새벽까지 하는 곳은?")
    clarification: dict[str, Any] | None
    decision: str  # search | context | clarify | reply
    is_followup: bool
    duplicate_of: int | None
    plan: dict[str, Any] | None
    plan_notes: list[str]
    hits: list[HitRecord]
    compare_groups: list[dict[str, Any]]
    cards: list[dict[str, Any]]  # restaurant cards of this turn's search results
    grade: dict[str, Any] | None
    relax_step: int
    relax_notes: list[str]
    web_sources: list[dict[str, Any]]
    answer: str
    answer_source: str  # template | llm
    trace: list[dict[str, Any]]
    llm_calls: int


PER_TURN_RESET: dict[str, Any] = {
    "reply": None,
    "nlu": {},
    "location": None,
    "location_carried": False,
    "resumed": False,
    "refine": False,
    "clarification": None,
    "decision": "search",
    "is_followup": False,
    "duplicate_of": None,
    "plan": None,
    "plan_notes": [],
    "hits": [],
    "cards": [],
    "compare_groups": [],
    "grade": None,
    "relax_step": 0,
    "relax_notes": [],
    "web_sources": [],
    "answer": "",
    "answer_source": "template",
    "trace": [],
    "llm_calls": 0,
}
