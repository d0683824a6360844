"""Agents for the API tests that do what the real ``matjip.agent.service.Agent`` cannot be made to
do on demand: fail, hang, stream an answer without answer events, reset an answer mid-stream,
recite the session's history. Both satisfy ``matjip.api.runner.AgentLike``; the API tests use the
real agent for everything else."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator, Sequence
from typing import Any

from matjip.agent.configuration import Resources
from matjip.agent.models import (
    Card,
    Choice,
    Clarification,
    Grade,
    PlanLocation,
    SearchPlan,
    TraceEntry,
    TurnEvent,
    TurnResult,
)
from matjip.documents import Restaurant


class ScriptedAgent:
    """Streams real-shaped ``TurnEvent``s by script, over real ``Resources`` (the API's lookups,
    health and places endpoints read those).

    Messages: anything → a card for each of ``docs`` near 강남역 (scores 0.90, 0.85, …);
    "양평역 …" → a place clarification with the gazetteer's choices (answer "1"/"2" to resolve
    it: the plan's location is then the chosen label); "boom" → raises; "slow" → blocks until
    ``release`` is set; "llm" → an answer without answer events (like an LLM answer); "reset" →
    an answer that is reset mid-stream (``answer_reset``), then streamed again; "기억" → the
    answer lists this session's earlier messages (for isolation tests).
    """

    AMBIGUOUS = "양평역"

    def __init__(self, resources: Resources, docs: Sequence[Restaurant]) -> None:
        self.resources = resources
        self.docs = list(docs)
        self.release = threading.Event()
        self.history: dict[str, list[str]] = {}
        self.pending: dict[str, str] = {}
        self.calls = 0
        self.choices = [
            Choice(index=i, label=p.display_name, lat=p.lat, lon=p.lon)
            for i, p in enumerate(resources.gazetteer.lookup(self.AMBIGUOUS), start=1)
        ]

    def stream(
        self, message: str, session_id: str | None = None, location: dict[str, float] | None = None
    ) -> Iterator[TurnEvent]:
        self.calls += 1
        sid = session_id or uuid.uuid4().hex
        yield TurnEvent(event="session", data={"session_id": sid})
        earlier = list(self.history.get(sid, []))
        self.history.setdefault(sid, []).append(message)
        trace = [TraceEntry(node="query_input", ms=0.1, decision="ok"), TraceEntry(node="generate", ms=0.2)]
        if message == "boom":
            raise RuntimeError("internal failure with secret sk-test-DO-NOT-LEAK")
        if message == "slow":
            self.release.wait(30)
        if message.startswith(self.AMBIGUOUS) and sid not in self.pending:
            self.pending[sid] = message
            yield from self._clarify(sid, message, trace)
            return
        origin = "강남역"
        lat, lon = 37.4979, 127.0276
        if sid in self.pending:
            self.pending.pop(sid)
            first, second = self.choices[0], self.choices[1]
            choice = first if message.strip() in ("1", first.label) else second
            assert choice.lat is not None and choice.lon is not None
            origin, lat, lon = choice.label, choice.lat, choice.lon
        if location:
            origin, lat, lon = "내 위치", location["lat"], location["lon"]
        plan = SearchPlan(
            strategy="radius",
            location=PlanLocation(name=origin, lat=lat, lon=lon, radius_m=1000),
            cuisine=["일식"],
            k=3,
        )
        yield TurnEvent(event="plan", data=plan.model_dump(mode="json"))
        cards = [
            Card(
                id=doc.place_id,
                name=doc.title,
                cuisine="일식",
                category="초밥,롤",
                address=doc.address,
                distance_m=120.0 * (i + 1),
                lat=lat + 0.001 * (i + 1),
                lon=lon + 0.001 * (i + 1),
                matched=["일식", "반경 1km"],
                menus=[{"name": "모듬초밥", "price": 18000 + i * 1000}],
                hours_today="11:30~22:00",
                score=0.9 - i * 0.05,
                telephone=doc.telephone,
            )
            for i, doc in enumerate(self.docs)
        ]
        yield TurnEvent(event="results", data=[c.model_dump(mode="json") for c in cards])
        if message == "기억":
            answer = "이 대화에서 물어보신 것: " + " / ".join(earlier) + "\n"
        else:
            answer = f"{origin} 근처 일식집 {len(cards)}곳을 찾았어요.\n" + "".join(
                f"{i}. {c.name} ({c.distance_m:.0f}m): 모듬초밥 {c.menus[0]['price']:,}원\n"
                for i, c in enumerate(cards, start=1)
            )
        if message == "reset":  # an LLM answer abandoned mid-stream, then the template answer
            yield TurnEvent(event="answer", data="근거 없는 ")
            yield TurnEvent(event="answer", data="답변")
            yield TurnEvent(event="answer_reset", data="ProviderError: upstream said sk-test-RESET-SECRET")
        if message != "llm":
            for i in range(0, len(answer), 7):
                yield TurnEvent(event="answer", data=answer[i : i + 7])
        grade = Grade(
            overall_relevance="relevant", reason="[1단계 Top-K] top_1=0.90", tier="confident", top_score=0.9
        )
        result = TurnResult(
            session_id=sid,
            answer=answer,
            intent="search",
            plan=plan,
            cards=cards,
            grade=grade,
            searched=True,
            trace=trace,
            nlu={"intent": "search", "entities": {"location": [origin], "category": ["일식"]}},
        )
        yield TurnEvent(event="trace", data=[t.model_dump(mode="json") for t in trace])
        yield TurnEvent(event="end", data=result.model_dump(mode="json"))

    def _clarify(self, sid: str, message: str, trace: list[TraceEntry]) -> Iterator[TurnEvent]:
        clar = Clarification(
            question=f"'{self.AMBIGUOUS}'이(가) 여러 곳 있어요. 어느 곳을 말씀하시는 건가요?",
            name=self.AMBIGUOUS,
            choices=list(self.choices),
            pending_query=message,
        )
        yield TurnEvent(event="clarification", data=clar.model_dump(mode="json"))
        answer = clar.question + "\n" + "".join(f"{c.index}. {c.label}\n" for c in self.choices)
        for i in range(0, len(answer), 10):
            yield TurnEvent(event="answer", data=answer[i : i + 10])
        result = TurnResult(session_id=sid, answer=answer, clarification=clar, trace=trace)
        yield TurnEvent(event="trace", data=[t.model_dump(mode="json") for t in trace])
        yield TurnEvent(event="end", data=result.model_dump(mode="json"))


class IdleAgent:
    """An agent without resources (so the API loads the gazetteer itself); its turns are empty."""

    def stream(self, *args: Any, **kwargs: Any) -> Iterator[Any]:
        return iter(())
