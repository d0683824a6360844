"""One wiring, two runners: LangGraph's runtime and :class:`SequentialGraph` run the table of
``matjip.agent.graph`` through the same nodes in the same order and give the same turns, and a
session started under one continues under the other."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from matjip.agent.graph import EDGES, END, FIRST, NODES, SequentialGraph
from matjip.agent.models import TurnResult
from matjip.agent.service import Agent
from matjip.settings import Settings

NOW = datetime(2026, 11, 20, 19, 30, tzinfo=ZoneInfo("Asia/Seoul"))  # a Friday evening
JAMSIL = {"lat": 37.5133, "lon": 127.1001}

# several paths through the graph: search, relax, follow-ups on the context, a duplicate, a
# comparison, a clarification and its answer, small talk, outside the data, English
DIALOGUES: list[list[tuple[str, dict[str, float] | None]]] = [
    [("잠실역 치킨집 추천해줘", None), ("두 번째 집 몇 시까지 해?", None), ("그 중에 포장되는거", None)],
    [("강남역 주차되는 일식집", None), ("더 싼 데는?", None), ("강남역 주차되는 일식집", None)],
    [("버거킹과 맥도날드 중 어디가 더 맛있어?", None)],
    [("양평 맛집", None), ("1", None)],
    [("내 근처 국밥집", JAMSIL), ("걸어갈 수 있는 데로", JAMSIL)],
    [("잠실역 새벽 3시에 하는 24시간 주차되는 룸 있는 한우 오마카세", None)],
    [("부산 서면 돼지국밥", None), ("고마워요", None)],
    [("gangnam station korean bbq", None)],
    [("마포 진대감 주차되나요?", None)],
]


def _untimed(value: Any) -> Any:
    """``value`` without timings (``ms``, ``took_ms`` …), which differ by run."""
    if isinstance(value, dict):
        return {k: _untimed(v) for k, v in value.items() if k != "ms" and not k.endswith("_ms")}
    if isinstance(value, list):
        return [_untimed(v) for v in value]
    return value


def _comparable(result: TurnResult) -> dict[str, Any]:
    """The whole turn result except what differs by run: the session id and timings."""
    data = result.model_dump(mode="json")
    data.pop("session_id")
    return dict(_untimed(data))


def _run(agent: Agent, dialogue: list[tuple[str, dict[str, float] | None]]) -> list[TurnResult]:
    sid: str | None = None
    out: list[TurnResult] = []
    for message, location in dialogue:
        result = agent.ask(message, sid, location, now=NOW)
        sid = result.session_id
        out.append(result)
    return out


@pytest.fixture(scope="module")
def agents(sample_settings: Settings) -> Iterator[tuple[Agent, Agent]]:
    langgraph = Agent(sample_settings, persist=False)
    sequential = Agent(sample_settings, langgraph.resources, persist=False, sequential=True)
    assert isinstance(sequential.graph, SequentialGraph)
    assert not isinstance(langgraph.graph, SequentialGraph)
    yield langgraph, sequential
    langgraph.close()
    sequential.close()


@pytest.mark.parametrize("dialogue", DIALOGUES, ids=[d[0][0] for d in DIALOGUES])
def test_both_runners_run_the_same_nodes_and_answer_alike(
    agents: tuple[Agent, Agent], dialogue: list[tuple[str, dict[str, float] | None]]
) -> None:
    langgraph, sequential = agents
    by_langgraph = _run(langgraph, dialogue)
    by_sequence = _run(sequential, dialogue)
    for a, b in zip(by_langgraph, by_sequence, strict=True):
        assert [t.node for t in a.trace] == [t.node for t in b.trace]
        assert _comparable(a) == _comparable(b)
    # the saved sessions hold the same conversation
    last_a = langgraph.graph.get_state({"configurable": {"thread_id": by_langgraph[-1].session_id}}).values
    last_b = sequential.graph.get_state({"configurable": {"thread_id": by_sequence[-1].session_id}}).values
    for key in ("messages", "turn", "searches", "context", "focus", "pending", "location_history"):
        assert last_a.get(key) == last_b.get(key), key


def test_the_paths_cover_relaxation_duplicates_and_clarifications(agents: tuple[Agent, Agent]) -> None:
    """The dialogues above walk most of the table, so the comparison means something."""
    _, sequential = agents
    seen: set[str] = set()
    for dialogue in DIALOGUES:
        for result in _run(sequential, dialogue):
            seen |= {t.node for t in result.trace}
    assert {"relax", "check_duplicate", "search_compare", "search_information", "update_session"} <= seen
    assert len(seen) >= len(NODES) - 1, set(NODES) - seen


def test_stream_events_are_the_same(agents: tuple[Agent, Agent]) -> None:
    langgraph, sequential = agents

    def events(agent: Agent) -> list[tuple[str, Any]]:
        out = []
        for ev in agent.stream("잠실역 치킨집 추천해줘", now=NOW):
            if ev.event in ("session", "trace", "end"):
                out.append((ev.event, None))  # session ids and timings differ
            else:
                out.append((ev.event, ev.data))
        return out

    assert events(langgraph) == events(sequential)


@pytest.mark.parametrize("first_sequential", [True, False])
def test_a_session_continues_under_the_other_runner(
    sample_settings: Settings, tmp_path: Any, first_sequential: bool
) -> None:
    """Turns alternate between the runners over one SQLite session file; the answers are those
    of LangGraph alone."""
    settings = Settings(data_dir=sample_settings.data_dir, session_max_turns=2)
    reference = Agent(settings, persist=False)
    dialogue = [
        ("잠실역 치킨집 추천해줘", None),
        ("두 번째 집 몇 시까지 해?", None),
        ("강남역 일식집", None),
        ("거기 주차돼?", None),
    ]
    expected = _run(reference, dialogue)
    object.__setattr__(settings, "data_dir", tmp_path)  # a private sessions.sqlite
    sid: str | None = None
    got: list[TurnResult] = []
    for i, (message, location) in enumerate(dialogue):
        sequential = (i % 2 == 0) == first_sequential
        agent = Agent(settings, reference.resources, persist=True, sequential=sequential)
        result = agent.ask(message, sid, location, now=NOW)
        sid = result.session_id
        got.append(result)
        agent.close()
    for a, b in zip(expected, got, strict=True):
        assert _comparable(a) == _comparable(b)
    # bounded history: the last checkpoint holds session_max_turns turns (a Replace applied)
    agent = Agent(settings, reference.resources, persist=True)
    assert sid is not None
    messages = agent.graph.get_state({"configurable": {"thread_id": sid}}).values["messages"]
    agent.close()
    assert [m["content"] for m in messages if m["role"] == "user"] == ["강남역 일식집", "거기 주차돼?"]
    reference.close()


def test_the_table_is_closed() -> None:
    """Every node has exactly one way out and every target is a node (or the end)."""
    sources = [e.source for e in EDGES]
    assert sorted(sources) == sorted(NODES)
    assert FIRST in NODES
    for edge in EDGES:
        targets = (edge.target,) if edge.target is not None else edge.targets
        assert (edge.target is None) != (edge.route is None)
        assert all(t in NODES or t == END for t in targets)


def test_a_route_outside_its_targets_is_refused(agents: tuple[Agent, Agent]) -> None:
    _, sequential = agents
    graph = sequential.graph
    assert isinstance(graph, SequentialGraph)
    assert graph._next("need_search", {"decision": "search"}) == "check_session"
    # a broken route: the plan router pointed at a node it may not reach
    broken = SequentialGraph(sequential.resources, None)
    edge = broken.edges["plan"]
    broken.edges["plan"] = type(edge)(edge.source, route=lambda st, res: "generate", targets=edge.targets)
    with pytest.raises(ValueError, match="not one of"):
        broken._next("plan", {})


# --- sessions without LangGraph (matjip.agent.checkpoints) ------------------------------------


def test_checkpoints_are_written_and_read_as_langgraph_does(agents: tuple[Agent, Agent]) -> None:
    """Byte for byte: the codec's msgpack is JsonPlusSerializer's for real session states, and
    reading gives the same values; a value it does not handle goes to LangGraph's serializer."""
    from datetime import timedelta

    from matjip.agent import checkpoints
    from matjip.agent.serde import checkpoint_serializer

    langgraph, _ = agents
    serde = checkpoint_serializer()
    states = []
    for dialogue in DIALOGUES[:5]:
        sid = _run(langgraph, dialogue)[-1].session_id
        states.append(langgraph.graph.get_state({"configurable": {"thread_id": sid}}).values)
    for state in states:
        checkpoint = {"v": 4, "id": checkpoints.uuid6(), "channel_values": state, "versions_seen": {}}
        ours = checkpoints.dumps_typed(checkpoint)
        assert ours == serde.dumps_typed(checkpoint)
        assert checkpoints.loads_typed(ours) == serde.loads_typed(ours) == checkpoint
    odd = {"when": NOW, "gap": timedelta(minutes=5), "tags": {"a"}, "state": states[0]}
    assert checkpoints.dumps_typed(odd) == serde.dumps_typed(odd)
    assert checkpoints.loads_typed(serde.dumps_typed(odd)) == serde.loads_typed(serde.dumps_typed(odd))
    assert checkpoints.dumps_typed(None) == serde.dumps_typed(None)


def test_checkpoint_ids_versions_and_tables_are_langgraphs(tmp_path: Any) -> None:
    import sqlite3

    from langgraph.checkpoint.base.id import uuid6 as lg_uuid6
    from langgraph.checkpoint.sqlite import SqliteSaver
    from langgraph.pregel._checkpoint import LATEST_VERSION

    from matjip.agent import checkpoints

    assert checkpoints.FORMAT == LATEST_VERSION
    ids = []
    for i in range(50):
        ids.append(checkpoints.uuid6(clock_seq=i) if i % 2 else str(lg_uuid6(clock_seq=i)))
    assert ids == sorted(ids) and len(set(ids)) == len(ids)  # time-ordered across both makers
    import uuid

    assert all(uuid.UUID(i).version == 6 for i in ids)
    saver = SqliteSaver(sqlite3.connect(":memory:"))
    v = None
    for _ in range(3):
        ours, theirs = checkpoints.next_version(v), saver.get_next_version(v, None)
        assert ours.split(".")[0] == theirs.split(".")[0]  # the counter; the rest is random
        v = ours

    def schema(conn: sqlite3.Connection) -> list[tuple[str, str]]:
        rows = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name")
        return [(name, " ".join(sql.split())) for name, sql in rows]

    ours_db = sqlite3.connect(tmp_path / "ours.sqlite", check_same_thread=False)
    checkpoints.SqliteCheckpoints(ours_db)
    theirs_db = sqlite3.connect(tmp_path / "theirs.sqlite", check_same_thread=False)
    SqliteSaver(theirs_db).setup()
    assert schema(ours_db) == schema(theirs_db)


def test_a_cold_ask_imports_no_langgraph(sample_settings: Settings, tmp_path: Any) -> None:
    """What the start-up time is made of: ``matjip ask --local`` answers (and saves its session)
    without LangGraph, langchain_core or an HTTP client."""
    import os
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from matjip.cli import main\n"
        "sys.argv = ['matjip', 'ask', '잠실역 치킨집', '--local']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "heavy = sorted({m.split('.')[0] for m in sys.modules} & {'langgraph', 'langchain_core', 'langsmith',"
        " 'httpx', 'requests', 'fastapi'})\n"
        "print('HEAVY', heavy)\n"
    )
    providers = ("MATJIP_", "LANGSMITH_", "LANGCHAIN_", "OPENAI_", "GEMINI_", "GOOGLE_", "TAVILY_")
    env = {k: v for k, v in os.environ.items() if not k.startswith(providers)}  # offline, no tracing
    env.update({"MATJIP_DATA_DIR": str(sample_settings.data_dir), "MATJIP_LLM_PROVIDER": "none"})
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert "HEAVY []" in done.stdout, done.stdout[-500:]
    assert "치킨" in done.stdout
