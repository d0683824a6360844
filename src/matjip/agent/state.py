"""The agent state: typed values (Pydantic models, typed dicts) the SQLite checkpointer persists.

The state is three parts (:class:`AgentState` is their union, as LangGraph reads it):

* :class:`ConversationState` — what a conversation keeps from turn to turn: the history, the
  places and searches so far, the list it is about (``context``, ``focus``), a pending question;
* :class:`TurnInput` — what the caller gives each turn: the message, the position, the time;
* :class:`TurnState` — what a turn works out (the understanding, the decision, the plan, the
  hits, the answer …). The first node of every turn resets all of it to :data:`PER_TURN_RESET`,
  so nothing of one turn's work leaks into the next; what must outlive the turn is written into
  the conversation's fields (``searches``, ``context``, ``focus``, ``pending``) by the nodes that
  decide it.

A node returns a :class:`NodeUpdate`: only the keys it changes.

Every Pydantic model the state holds is listed in :data:`CHECKPOINT_MODELS`: the checkpointer's
serializer may rebuild exactly those (see :func:`matjip.agent.serde.checkpoint_serializer`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, TypedDict, cast, get_args, get_origin, get_type_hints

from pydantic import BaseModel

# imported at runtime (not under TYPE_CHECKING): LangGraph reads these annotations
from matjip.agent.models import (
    REPLY_MODELS,
    Card,
    Clarification,
    Grade,
    LocationContext,
    Reply,
    SearchPlan,
    StrategyInfo,
    TraceEntry,
    WebSource,
)
from matjip.agent.understanding import Understanding
from matjip.nlu.models import NLUResult


@dataclass(frozen=True)
class Replace:
    """A ``messages`` update that replaces the history instead of extending it (bounded history,
    :mod:`matjip.agent.retention`)."""

    items: list[dict[str, str]]


def extend_messages(old: list[dict[str, str]], new: list[dict[str, str]] | Replace) -> list[dict[str, str]]:
    """The reducer of ``messages``: a node's messages are appended, a :class:`Replace` replaces."""
    if isinstance(new, Replace):
        return list(new.items)
    return [*old, *new]


class HitRecord(TypedDict, total=False):
    id: str
    score: float
    distance_m: float | None
    matched: list[str]
    open_now: bool | None
    bm25: float | None
    vector: float | None
    origin: str | None  # name of the place distances are measured from
    # seed 003's strategies (issue 14)
    stop: int
    role: str
    day: int
    slot: str
    leg_m: int
    leg_min: int
    along_m: int
    detour_m: int
    segment: str
    travel_m: int
    travel_min: int
    travel_estimate: bool


class SearchRecord(TypedDict, total=False):
    turn: int
    query: str
    intent: str
    signature: str
    plan: SearchPlan  # as searched (after relaxation)
    frame: SearchPlan  # as asked (before relaxation): what follow-ups keep and refine
    hits: list[HitRecord]
    cheaper: bool  # its price bound came from "더 싼 데" (the whole menu's median, not the dish's)


class CompareGroup(TypedDict):
    title: str
    ids: list[str]  # place ids found for the title, in shown order


class ConversationState(TypedDict, total=False):
    """What a conversation keeps from one turn to the next (saved with the session)."""

    session_id: str
    turn: int
    messages: Annotated[list[dict[str, str]], extend_messages]
    location_history: list[LocationContext]
    searches: list[SearchRecord]
    context: list[HitRecord]  # the documents the conversation is currently about, in shown order
    focus: str | None  # place_id a pronoun ("거기") refers to
    # the place in focus before a refinement showed a list without it ("아까 거기" still means it)
    focus_before: str | None
    pending: Clarification | None  # a clarification waiting for the user's answer
    outside: str | None  # the place the last answer said is outside the data ("부산 서면")
    outside_topic: str | None  # what that question asked there, without the place ("회")


class TurnInput(TypedDict, total=False):
    """What the caller gives a turn: the message, the device's position, the time."""

    query: str
    gps: dict[str, float] | None
    now: str  # ISO time of the turn (in settings.timezone)


class TurnState(TypedDict, total=False):
    """What one turn works out; the first node of every turn resets all of it (:data:`PER_TURN_RESET`)."""

    reply: (
        Reply | None
    )  # a canned reply instead of a search (empty, not Korean, small talk, a place outside …)
    nlu: NLUResult | None  # None until the understand node ran (and on turns it skips)
    understanding: Understanding | None  # the message read once (its nlu is ``nlu``); None as ``nlu``
    location: LocationContext | None
    location_carried: bool
    resumed: bool  # this turn answered a clarification and resumed the question that asked it
    refine: bool  # this turn narrows the previous search ("그중에 새벽까지 하는 곳은?")
    anchor: str | None  # "place": centred on a shown restaurant; "closer": the previous place, nearer
    page: bool  # "다른 데는?": the previous search's next results
    compare_titles: list[str]  # a comparison that needs a restaurant not shown yet, by name
    compare_ids: list[str]  # a comparison of shown restaurants (place ids), answered from context
    travel: str | None  # "거기 잠실역에서 걸어가면 몇 분?": the travel mode asked about a shown restaurant
    travel_ids: list[str]  # "1번에서 2번까지 몇 분?": the shown restaurants the way starts and ends at
    clarification: Clarification | None
    decision: str  # search | context | clarify | reply
    is_followup: bool
    duplicate_of: int | None
    plan: SearchPlan | None
    frame: SearchPlan | None  # the plan as asked, before any relaxation
    cheaper: bool  # "더 싼 데": cheaper than the list shown (its typical price)
    plan_notes: list[str]
    place_note: str | None  # the answer's first line: which of same-name places it is about
    hits: list[HitRecord]
    compare_groups: list[CompareGroup]
    cards: list[Card]  # restaurant cards of this turn's search results
    grade: Grade | None
    relax_step: int
    relax_notes: list[str]
    web_wanted: bool  # results are relevant but weak (tier "insufficient"): add the web fallback
    unknown_hours: int | None  # restaurants left out of an open-at search because their hours are unknown
    no_coordinates: int | None  # restaurants left out of a nearness search because they have no coordinates
    web_sources: list[WebSource]
    live_cards: list[Card]  # places from a live provider (Kakao, Google): shown, never stored
    strategy_info: StrategyInfo | None
    answer: str
    answer_source: str  # template | llm
    trace: list[TraceEntry]
    llm_calls: int


class AgentState(ConversationState, TurnInput, TurnState, total=False):
    """The whole state of a session: the conversation, this turn's input and this turn's work."""


class NodeUpdate(AgentState, total=False):
    """What a node returns: the state keys it changes, and for the trace its decision in words
    and any detail (popped by :func:`matjip.agent.graph.traced` before the update is applied)."""

    _decision: str
    _detail: dict[str, Any]


CHECKPOINT_MODELS: tuple[type[BaseModel], ...] = (
    NLUResult,
    Understanding,
    LocationContext,
    Clarification,
    SearchPlan,
    Grade,
    Card,
    WebSource,
    TraceEntry,
    StrategyInfo,
    *REPLY_MODELS,
)
"""The Pydantic models stored in :class:`AgentState` (directly or in a list or record); models
nested inside them are serialized as their fields."""

_RESET_SPECIAL: dict[str, object] = {"decision": "search", "answer_source": "template"}


def _reset_value(key: str, hint: Any) -> object:
    """A per-turn field's value at the start of a turn: None when it may be None, else empty."""
    if key in _RESET_SPECIAL:
        return _RESET_SPECIAL[key]
    if type(None) in get_args(hint):
        return None
    origin = get_origin(hint) or hint
    return {list: [], bool: False, int: 0, str: ""}[origin]


PER_TURN_RESET: AgentState = cast(
    AgentState, {k: _reset_value(k, h) for k, h in get_type_hints(TurnState).items()}
)
"""Every :class:`TurnState` field as a turn starts: ``None``, empty, ``False`` or ``0`` (a search
decision and a template answer until decided otherwise)."""


def upgrade_conversation(state: Mapping[str, object]) -> AgentState:
    """The conversation-long values of a session saved when the state held plain JSON dicts
    (pending clarification, location history, plans of earlier searches), as models. Returns
    only what needs replacing; ``{}`` for a session saved by this version."""
    out: AgentState = {}
    pending = state.get("pending")
    if isinstance(pending, dict):
        out["pending"] = Clarification.model_validate(pending)
    history = state.get("location_history")
    if isinstance(history, list) and any(isinstance(h, dict) for h in history):
        out["location_history"] = [LocationContext.model_validate(h) for h in history]
    searches = state.get("searches")
    if isinstance(searches, list) and any(isinstance(s.get("plan"), dict) for s in searches):
        upgraded: list[SearchRecord] = []
        for rec in searches:
            new: SearchRecord = {**rec}
            if isinstance(rec.get("plan"), dict):
                new["plan"] = SearchPlan.model_validate(rec["plan"])
            upgraded.append(new)
        out["searches"] = upgraded
    return out


def state_values(channel_values: Mapping[str, Any]) -> AgentState:
    """A saved checkpoint's channel values as the state (LangGraph's internal channels dropped)."""
    keys = AgentState.__required_keys__ | AgentState.__optional_keys__
    return cast(AgentState, {k: v for k, v in channel_values.items() if k in keys})
