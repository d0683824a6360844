"""The turn's Understanding (read once, over a scan), the typed replies and the state's split."""

from __future__ import annotations

from typing import get_type_hints

import pytest
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

from matjip.agent.checkpoints import dumps_typed, loads_typed
from matjip.agent.models import (
    CannedReply,
    OutsideReply,
    OverseasReply,
    Reply,
    SmalltalkReply,
    UnknownFoodReply,
    UnknownPlaceReply,
)
from matjip.agent.serde import checkpoint_serializer
from matjip.agent.state import PER_TURN_RESET, ConversationState, TurnInput, TurnState
from matjip.agent.understanding import Understanding, kinds_said, read_message, understanding_of
from matjip.nlu.kinds import detect_kinds
from matjip.nlu.models import NLUResult


def test_a_message_is_read_into_kinds_acts_and_cues() -> None:
    u = read_message("아까 첫번째랑 지금 두번째 비교해줘")
    assert u.acts.compare and u.cues.earlier and u.cues.compare_parts == [(1, True), (2, False)]
    food = read_message("그 족발집 근처 조지아음식 파는 데 있어?")
    assert food.kinds.kinds == detect_kinds("그 족발집 근처 조지아음식 파는 데 있어?").kinds
    assert food.cues.that_kind == "족발집" and food.cues.sells and food.cues.question
    assert food.cues.food_places == [("조지아", "조지아음식")]
    assert read_message("오 맛있겠다 ㅋㅋ").acts.reaction
    assert read_message("방이본점이랑 석촌점 중에").acts.branches == ["방이본점", "석촌점"]
    assert read_message("매운거 말고 더 싼 데").acts.tastes_ruled_out == ["매운"]


def test_nodes_read_the_turns_understanding_not_the_message() -> None:
    u = read_message("강남역 초밥", NLUResult(intent="search"))
    state = {"query": "전혀 다른 말", "understanding": u}
    assert understanding_of(state) is u and kinds_said(state) is u.kinds
    alone = {"query": "강남역 초밥"}  # a node run on its own: the message read then
    assert kinds_said(alone).kinds == u.kinds.kinds
    compare = u.with_nlu(u.nlu.model_copy(update={"intent": "compare"}))
    assert compare.nlu.intent == "compare" and compare.kinds is u.kinds


@pytest.mark.parametrize(
    ("reply", "key"),
    [
        (CannedReply(kind="empty"), "empty"),
        (SmalltalkReply(topic="thanks"), "smalltalk:thanks"),
        (OutsideReply(place="대구"), "outside:대구"),
        (OverseasReply(place="오사카"), "overseas:오사카"),
        (UnknownFoodReply(food="조지아음식"), "unknown_food:조지아음식"),
        (UnknownPlaceReply(place="어딘가"), "unknown_place:어딘가"),
    ],
)
def test_replies_keep_their_names_and_survive_a_checkpoint(reply: Reply, key: str) -> None:
    assert reply.key == key
    values = {"reply": reply, "understanding": read_message("강남역 초밥 ㅋㅋ")}
    serde: JsonPlusSerializer = checkpoint_serializer()
    assert serde.loads_typed(serde.dumps_typed(values)) == values
    assert loads_typed(dumps_typed(values)) == values


def test_the_turn_resets_exactly_its_own_fields() -> None:
    turn, kept, given = (set(get_type_hints(t)) for t in (TurnState, ConversationState, TurnInput))
    assert set(PER_TURN_RESET) == turn and not turn & (kept | given)
    assert PER_TURN_RESET["decision"] == "search" and PER_TURN_RESET["understanding"] is None
    assert isinstance(Understanding(text="x").nlu, NLUResult)
