"""The agent graph, wired in one place (docs/design.md's flow chart).

query_input → understand → need_search ─┬─ search ──→ check_session → plan ─┬─(follow-up)→ check_duplicate ─┬─ duplicate → update_session
                                        │                                  │                               └─ new ──┐
                                        │                                  └─(first)──────────────────────────────────┤
                                        │                                                   route by intent: search_general | search_compare | search_information
                                        │                                                                          ↓
                                        │                                  evaluate_relevance ─┬─ relevant ──────────→ update_session → generate → END
                                        │                                                      ├─ relax → (search again)
                                        │                                                      └─ irrelevant → web_search → update_session
                                        └─ context | clarify | reply ──────────────────────────────────────────────→ generate → END
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, get_type_hints

from matjip.agent.configuration import Resources
from matjip.agent.models import TraceEntry
from matjip.agent.nodes.common import stream_writer
from matjip.agent.nodes.evaluate import evaluate_relevance, route_after_grade, update_session, web_search
from matjip.agent.nodes.generate import generate
from matjip.agent.nodes.search import (
    check_duplicate,
    plan,
    relax,
    search_compare,
    search_general,
    search_information,
)
from matjip.agent.nodes.understand import check_session, need_search, query_input, understand
from matjip.agent.state import AgentState

if TYPE_CHECKING:
    pass

NodeFn = Callable[[AgentState, Resources], Mapping[str, Any]]  # a NodeUpdate
Route = Callable[[AgentState, Resources], str]

END = "__end__"  # LangGraph's END
FIRST = "query_input"
RECURSION_LIMIT = 25  # LangGraph's default: more node runs than this in one turn is a bug

# --- the wiring: one table, run by LangGraph (build_graph) or in sequence (SequentialGraph) ----

NODES: dict[str, NodeFn] = {
    fn.__name__: fn
    for fn in (
        query_input,
        understand,
        need_search,
        check_session,
        plan,
        check_duplicate,
        search_general,
        search_compare,
        search_information,
        evaluate_relevance,
        relax,
        web_search,
        update_session,
        generate,
    )
}
"""Every node by its name (the function's name)."""

SEARCHES = ("search_general", "search_compare", "search_information")


def _route_need(state: AgentState, res: Resources) -> str:
    return "check_session" if state.get("decision") == "search" else "generate"


def _route_intent(state: AgentState) -> str:
    plan = state.get("plan")
    intent = plan.intent if plan is not None else "search"
    return {"compare": "search_compare", "information": "search_information"}.get(intent, "search_general")


def _route_plan(state: AgentState, res: Resources) -> str:
    return "check_duplicate" if state.get("is_followup") else _route_intent(state)


def _route_duplicate(state: AgentState, res: Resources) -> str:
    return "update_session" if state.get("duplicate_of") is not None else _route_intent(state)


def _route_grade(state: AgentState, res: Resources) -> str:
    verdict = route_after_grade(state, res.config.max_relax_steps)
    return {"relevant": "update_session", "relax": "relax", "irrelevant": "web_search"}[verdict]


def _route_relax(state: AgentState, res: Resources) -> str:
    # a relaxed plan is always searched; past the maximum nothing was left to relax
    if int(state.get("relax_step") or 0) > res.config.max_relax_steps:
        return "web_search"
    return _route_intent(state)


@dataclass(frozen=True)
class Edge:
    """What runs after ``source``: ``target``, or the node ``route`` names (one of ``targets``)."""

    source: str
    target: str | None = None
    route: Route | None = None
    targets: tuple[str, ...] = ()


def _name(node: NodeFn | str) -> str:
    return node if isinstance(node, str) else node.__name__


def _edge(
    source: NodeFn,
    target: NodeFn | str | None = None,
    *,
    then: Route | None = None,
    to: tuple[NodeFn | str, ...] = (),
) -> Edge:
    """An edge between nodes given as their functions (or names): to ``target``, or where the route
    ``then`` says (one of ``to``)."""
    return Edge(source.__name__, _name(target) if target is not None else None, then, tuple(map(_name, to)))


EDGES: tuple[Edge, ...] = (
    _edge(query_input, understand),
    _edge(understand, need_search),
    _edge(need_search, then=_route_need, to=(check_session, generate)),
    _edge(check_session, plan),
    _edge(plan, then=_route_plan, to=(check_duplicate, *SEARCHES)),
    _edge(check_duplicate, then=_route_duplicate, to=(update_session, *SEARCHES)),
    *(Edge(s, evaluate_relevance.__name__) for s in SEARCHES),
    _edge(evaluate_relevance, then=_route_grade, to=(update_session, relax, web_search)),
    _edge(relax, then=_route_relax, to=(*SEARCHES, web_search)),
    _edge(web_search, update_session),
    _edge(update_session, generate),
    _edge(generate, END),
)


def collect_node_calls(res: Resources, state: AgentState) -> dict[str, Any]:
    """Trace detail of the LLM and web calls one node made: ``{"llm": {...}, "web": [...]}``;
    ``{}`` when the node made no call."""
    out: dict[str, Any] = {}
    if res.llm is not None:
        got = res.llm.drain(state)
        if got.get("calls") or got.get("notes"):
            out["llm"] = got
    if res.web is not None:
        calls = res.web.drain()
        if calls:
            out["web"] = list(calls)
    return out


def traced(name: str, fn: NodeFn, res: Resources) -> Callable[[AgentState], dict[str, Any]]:
    """Run a node, time it and append its decision to the per-turn trace."""

    def run(state: AgentState) -> dict[str, Any]:
        started = time.perf_counter()
        update = dict(fn(state, res))
        ms = (time.perf_counter() - started) * 1000
        decision = str(update.pop("_decision", ""))
        detail = update.pop("_detail", {}) or {}
        if res.llm is not None or res.web is not None:
            calls = collect_node_calls(res, state)
            if calls:
                detail = {**detail, **calls}
                update["llm_calls"] = int(state.get("llm_calls") or 0) + len(
                    calls.get("llm", {}).get("calls", [])
                )
        base = update.get("trace") if name == "query_input" else state.get("trace")
        entry = TraceEntry(node=name, ms=round(ms, 3), decision=decision, detail=detail)
        update["trace"] = [*(base or []), entry]
        return update

    run.__name__ = name
    return run


def build_graph(res: Resources, checkpointer: Any = None) -> Any:
    """The table as a compiled LangGraph graph (streaming, checkpoints, ``update_state``)."""
    from langgraph.graph import END as LG_END
    from langgraph.graph import START, StateGraph

    assert LG_END == END
    g: StateGraph[AgentState] = StateGraph(AgentState)
    for name, fn in NODES.items():
        g.add_node(name, traced(name, fn, res))  # type: ignore[call-overload]
    g.add_edge(START, FIRST)
    for edge in EDGES:
        if edge.target is not None:
            g.add_edge(edge.source, edge.target)
        else:
            assert edge.route is not None
            g.add_conditional_edges(edge.source, _bound(edge.route, res), list(edge.targets))
    return g.compile(checkpointer=checkpointer)


def _bound(route: Route, res: Resources) -> Callable[[AgentState], str]:
    def path(state: AgentState) -> str:
        return route(state, res)

    path.__name__ = route.__name__.lstrip("_")
    return path


# --- the same table, run in sequence --------------------------------------------------------


def _reducers() -> dict[str, Callable[[Any, Any], Any]]:
    """The state keys that accumulate (``Annotated[T, reducer]``), as LangGraph reads them."""
    out: dict[str, Callable[[Any, Any], Any]] = {}
    for key, hint in get_type_hints(AgentState, include_extras=True).items():
        for meta in getattr(hint, "__metadata__", ()):
            if callable(meta):
                out[key] = meta
    return out


@dataclass(frozen=True)
class StateView:
    """What :meth:`SequentialGraph.get_state` returns (the part of LangGraph's snapshot used)."""

    values: dict[str, Any]


class SequentialGraph:
    """The table of :data:`NODES` and :data:`EDGES` run one node after another in the calling
    thread, with the interface of the compiled graph that :class:`matjip.agent.service.Agent`
    uses (``stream`` with ``stream_mode="custom"``, ``get_state``, ``update_state``).

    It exists for start-up time: a one-question process (``matjip ask``) need not import
    LangGraph's graph runtime (most of a second). Sessions are LangGraph's checkpoints, in any
    saver with LangGraph's ``get_tuple``/``put``/``get_next_version`` (its savers, or
    :class:`matjip.agent.checkpoints.SqliteCheckpoints`, the same rows without importing
    LangGraph): the state values, with a new version for every channel a turn wrote, so a session
    started here continues under LangGraph and the other way round. Node updates are applied as
    LangGraph applies them: a key with a reducer (``messages``) accumulates, every other key is
    replaced; a route must name one of its edge's targets."""

    def __init__(self, res: Resources, checkpointer: Any) -> None:
        self.res = res
        self.checkpointer = checkpointer
        self.nodes = {name: traced(name, fn, res) for name, fn in NODES.items()}
        self.edges = {edge.source: edge for edge in EDGES}
        self.reducers = _reducers()

    # -- checkpoints --------------------------------------------------------------------------

    @staticmethod
    def _config(config: Mapping[str, Any]) -> dict[str, Any]:
        thread_id = str(config["configurable"]["thread_id"])
        return {"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}}

    def _latest(self, config: Mapping[str, Any]) -> Any:
        return self.checkpointer.get_tuple(self._config(config))

    def get_state(self, config: Mapping[str, Any]) -> StateView:
        latest = self._latest(config)
        values = dict(latest.checkpoint["channel_values"]) if latest is not None else {}
        return StateView({k: v for k, v in values.items() if not _internal(k)})

    def _apply(self, values: dict[str, Any], update: Mapping[str, Any], written: set[str]) -> None:
        for key, value in update.items():
            reducer = self.reducers.get(key)
            values[key] = reducer(values.get(key, []), value) if reducer is not None else value
            written.add(key)

    def _save(
        self, config: Mapping[str, Any], latest: Any, values: dict[str, Any], written: set[str]
    ) -> None:
        from matjip.agent.checkpoints import FORMAT, empty_checkpoint, uuid6

        if latest is not None:
            base = latest.checkpoint
            step = int((latest.metadata or {}).get("step", 0)) + len(written) + 1
            parent = {**self._config(config)["configurable"], "checkpoint_id": base["id"]}
        else:
            base = empty_checkpoint()
            step = len(written)
            parent = self._config(config)["configurable"]
        versions = dict(base["channel_versions"])
        current = max(versions.values()) if versions else None
        version = self.checkpointer.get_next_version(current, None)
        new_versions = {key: version for key in sorted(written)}
        versions.update(new_versions)
        channel_values = {k: v for k, v in base["channel_values"].items() if _internal(k)}
        channel_values.update(values)
        checkpoint = {
            "v": FORMAT,
            "id": uuid6(clock_seq=step),
            "ts": datetime.now(UTC).isoformat(),
            "channel_values": channel_values,
            "channel_versions": versions,
            "versions_seen": {k: dict(v) for k, v in base.get("versions_seen", {}).items()},
            "updated_channels": sorted(written),
        }
        metadata = {"source": "loop", "step": step, "parents": {}}
        self.checkpointer.put({"configurable": parent}, checkpoint, metadata, new_versions)

    # -- running ------------------------------------------------------------------------------

    def stream(
        self,
        input: Mapping[str, Any],
        config: Mapping[str, Any],
        stream_mode: str = "custom",
        durability: str = "exit",
        live: Callable[[Any], None] | None = None,
    ) -> Iterator[Any]:
        """Run one turn; yields what the nodes emit (LangGraph's ``stream_mode="custom"``) and
        saves the state once at the end (``durability="exit"``). A node's events are yielded when
        it returns; with ``live`` they go to ``live`` the moment the node emits them instead (a
        streamed answer, chunk by chunk), in the calling thread, and are not yielded."""
        if stream_mode != "custom" or durability != "exit":
            raise ValueError("SequentialGraph runs stream_mode='custom', durability='exit' only")
        latest = self._latest(config)
        values = (
            {k: v for k, v in latest.checkpoint["channel_values"].items() if not _internal(k)}
            if latest is not None
            else {}
        )
        written: set[str] = set()
        self._apply(values, input, written)
        events: list[Any] = []
        node, runs = FIRST, 0
        while node != END:
            runs += 1
            if runs > RECURSION_LIMIT:
                raise RuntimeError(f"more than {RECURSION_LIMIT} node runs in one turn")  # a bug
            token = stream_writer.set(live or events.append)  # around the node only, never across a yield
            try:
                update = self.nodes[node](dict(values))  # type: ignore[arg-type]
            finally:
                stream_writer.reset(token)
            self._apply(values, update, written)
            yield from events
            events.clear()
            node = self._next(node, values)
        self._save(config, latest, values, written)

    def _next(self, node: str, values: Mapping[str, Any]) -> str:
        edge = self.edges[node]
        if edge.target is not None:
            return edge.target
        assert edge.route is not None
        target = edge.route(values, self.res)  # type: ignore[arg-type]
        if target not in edge.targets:
            raise ValueError(f"{node} routed to {target!r}, not one of {edge.targets}")
        return target

    def update_state(
        self, config: Mapping[str, Any], values: Mapping[str, Any], as_node: str | None = None
    ) -> None:
        """Write ``values`` into the session as if node ``as_node`` had returned them."""
        latest = self._latest(config)
        state = (
            {k: v for k, v in latest.checkpoint["channel_values"].items() if not _internal(k)}
            if latest is not None
            else {}
        )
        written: set[str] = set()
        self._apply(state, values, written)
        self._save(config, latest, state, written)


def _internal(channel: str) -> bool:
    """LangGraph's own channels (``__start__``, ``branch:to:…``), not state keys."""
    return channel.startswith("__") or ":" in channel
