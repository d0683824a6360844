"""The small hand-written corpus (``tests/data/small_corpus.jsonl``: 34 restaurants in the demo
data's crawl format around 잠실역, 강남역 and 망원동) and what node-level tests need over it.

``small_documents`` runs the records through the product's own preprocessing and offline
enrichment; ``small_resources`` is the agent's real ``Resources`` over an index of them (built by
the ``small_resources`` fixture once per session, in a temporary directory). ``state_before``
runs a turn through the graph's own node table up to (not including) a node, so a test can call
that node directly on the typed state it would get, and check the update it returns."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator, Mapping
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, get_type_hints

from support.chat import WEDNESDAY_EVENING
from support.index import build_index_dir, resources_over

if TYPE_CHECKING:
    from matjip.agent.configuration import Resources
    from matjip.agent.state import AgentState
    from matjip.documents import Restaurant

CORPUS = Path(__file__).resolve().parents[1] / "data" / "small_corpus.jsonl"


@cache
def small_records() -> dict[str, dict[str, Any]]:
    """The raw crawl records by place id (tests check answers against these, not the enrichment)."""
    with CORPUS.open(encoding="utf-8") as f:
        return {str(r["place_id"]): r for r in map(json.loads, f)}


def small_raw(place_id: str) -> dict[str, Any]:
    return small_records()[place_id]


def small_documents() -> list[Restaurant]:
    """The corpus through the product's preprocessing and offline enrichment (as ``matjip ingest``)."""
    from matjip.ingest.crawl import read_records
    from matjip.ingest.enrich import get_enricher
    from matjip.ingest.preprocess import to_restaurants

    crawl = [item[1] for item in read_records(CORPUS) if isinstance(item, tuple)]
    assert len(crawl) == len(small_records()), "a hand-written record was rejected"
    return to_restaurants(crawl, get_enricher("offline"))


def small_resources(directory: Path, now: datetime = WEDNESDAY_EVENING) -> Resources:
    """The agent's real resources over an index of the corpus built in ``directory``; the clock
    stands at ``now``."""
    index_dir = build_index_dir(directory / "index", small_documents())
    return resources_over(index_dir, clock=lambda: now)


def _reducers() -> dict[str, Any]:
    from matjip.agent.state import AgentState

    return {
        key: meta
        for key, hint in get_type_hints(AgentState, include_extras=True).items()
        for meta in getattr(hint, "__metadata__", ())
        if callable(meta)
    }


def merge(state: dict[str, Any], update: Mapping[str, Any]) -> None:
    """Apply a node's update to ``state`` as the graph does (reducer keys accumulate)."""
    reducers = _reducers()
    for key, value in update.items():
        reducer = reducers.get(key)
        state[key] = reducer(state.get(key, []), value) if reducer is not None else value


def _steps(
    res: Resources,
    text: str,
    gps: Mapping[str, float] | None,
    now: datetime,
    state: Mapping[str, Any] | None,
) -> Iterator[tuple[str, dict[str, Any]]]:
    """``(node about to run, state)`` for each node of a turn asking ``text``, then ``(END, state)``:
    the graph's own node table and routes, run in sequence (no checkpointer)."""
    from matjip.agent.graph import EDGES, END, FIRST, NODES

    edges = {e.source: e for e in EDGES}
    values: dict[str, Any] = copy.deepcopy(dict(state or {}))  # an earlier turn may be asked on again
    values.update({"query": text, "gps": dict(gps) if gps else None, "now": now.isoformat()})
    current = FIRST
    while current != END:
        yield current, values
        merge(values, NODES[current](values, res))  # type: ignore[arg-type]
        edge = edges[current]
        current = edge.target if edge.target is not None else edge.route(values, res)  # type: ignore[arg-type,misc]
    yield END, values


def state_before(
    res: Resources,
    text: str,
    node: str,
    *,
    gps: Mapping[str, float] | None = None,
    now: datetime = WEDNESDAY_EVENING,
    state: Mapping[str, Any] | None = None,
) -> AgentState:
    """The state a turn asking ``text`` has when ``node`` is about to run (``END``: the final
    state); ``state`` is the conversation so far. Fails if the turn never reaches ``node``."""
    ran = []
    for current, values in _steps(res, text, gps, now, state):
        if current == node:
            return values  # type: ignore[return-value]
        ran.append(current)
    raise AssertionError(f"the turn never reached {node!r}: it ran {ran}")


def path_of(res: Resources, text: str, **kw: Any) -> list[str]:
    """The nodes a turn asking ``text`` runs, in order (keywords as :func:`state_before`)."""
    from matjip.agent.graph import END

    kw.setdefault("gps", None)
    kw.setdefault("now", WEDNESDAY_EVENING)
    kw.setdefault("state", None)
    return [node for node, _ in _steps(res, text, kw["gps"], kw["now"], kw["state"]) if node != END]


def run_turn(res: Resources, text: str, **kw: Any) -> AgentState:
    """The whole turn's final state (every node to the end)."""
    from matjip.agent.graph import END

    return state_before(res, text, END, **kw)


def run_node(res: Resources, name: str, state: Mapping[str, Any]) -> dict[str, Any]:
    """The update node ``name`` of the graph's table returns for ``state`` (as a plain dict)."""
    from matjip.agent.graph import NODES

    return dict(NODES[name](state, res))  # type: ignore[arg-type]


def answer_of(update: Mapping[str, Any]) -> str:
    """The answer text a ``generate`` update says (its last assistant message)."""
    said = [m["content"] for m in update.get("messages") or [] if m.get("role") == "assistant"]
    assert said, "generate said nothing"
    return str(said[-1])
