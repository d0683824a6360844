"""The agent as a service: load resources once, run turns, stream events, persist sessions."""

from __future__ import annotations

import gc
import logging
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import nullcontext
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from matjip.agent.configuration import AbroadSearch, AgentConfig, PlaceSearch, Resources, Routing
from matjip.agent.graph import SequentialGraph, build_graph
from matjip.agent.models import MoreResult, Sort, TurnEvent, TurnResult
from matjip.agent.retention import Retention
from matjip.agent.serde import checkpoint_serializer
from matjip.agent.state import AgentState, state_values
from matjip.errors import StoreError
from matjip.providers.guard import TurnCommit, bound_commit, bound_events, commit_scope
from matjip.settings import Settings
from matjip.wording import text

log = logging.getLogger("matjip.agent")

if TYPE_CHECKING:
    from matjip.index.backend import SearchBackend


def load_resources(settings: Settings, index: SearchBackend | None = None) -> Resources:
    """Open the index, the gazetteer and the NLU vocabulary (compiled once, cached:
    :mod:`matjip.agent.cache`)."""
    from matjip.agent.cache import load_understanding
    from matjip.index import open_index
    from matjip.vocab import vocab

    if index is None:
        index = open_index(settings)
    gazetteer, nlu = load_understanding(settings, index)
    llm = None
    web = None
    if settings.llm_provider != "none" or settings.tavily_api_key:
        from matjip.agent.stages import build_stages, build_web

        llm = build_stages(settings) if settings.llm_provider != "none" else None
        web = build_web(settings)
    places, abroad, routing = build_live(settings)
    resources = Resources(
        index=index,
        gazetteer=gazetteer,
        nlu=nlu,
        config=AgentConfig.from_settings(settings),
        timezone=settings.timezone,
        conveniences=frozenset(vocab().conveniences),
        cuisines=frozenset(vocab().cuisines),
        llm=llm,
        web=web,
        places=places,
        abroad=abroad,
        routing=routing,
    )
    if llm is not None:
        llm.bind(resources)
    return resources


def build_live(settings: Settings) -> tuple[PlaceSearch | None, AbroadSearch | None, Routing | None]:
    """The live providers configured (issue 14); a provider module is imported only when its key
    (or routing provider) is set."""
    places: PlaceSearch | None = None
    abroad: AbroadSearch | None = None
    routing: Routing | None = None
    if settings.kakao_rest_api_key or settings.google_maps_api_key:
        from matjip.providers.places import GooglePlaces, KakaoLocal

        places = KakaoLocal.from_settings(settings)
        abroad = GooglePlaces.from_settings(settings)
    if settings.routing_provider != "none":
        from matjip.providers.routing import routing_from_settings

        routing = routing_from_settings(settings)
    return places, abroad, routing


def open_sessions(path: Path) -> sqlite3.Connection:
    """The session database; a damaged one is moved aside (``<name>.damaged-<time>``, with its WAL)
    and a fresh one started: sessions are conversation state, losing them loses no data."""
    for attempt in (1, 2):
        conn = sqlite3.connect(path, check_same_thread=False, timeout=30)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            # WAL without a sync at each commit: a commit survives the process (kill -9), only a
            # machine crash may lose the last turns; sessions are conversation state
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA quick_check").fetchall()
            return conn
        except sqlite3.DatabaseError as exc:
            conn.close()
            if attempt == 2:
                raise StoreError(f"{path}: the session database cannot be created ({exc})") from exc
            stamp = time.strftime("%Y%m%d-%H%M%S")
            for suffix in ("", "-wal", "-shm"):
                part = path.with_name(path.name + suffix)
                if part.exists():
                    part.replace(path.with_name(f"{path.name}{suffix}.damaged-{stamp}"))
            log.warning("%s was damaged (%s): moved aside, starting with no saved sessions", path, exc)
    raise AssertionError("unreachable")


class Agent:
    """Runs conversation turns. Thread-safe; sessions are isolated by ``session_id``."""

    def __init__(
        self,
        settings: Settings,
        resources: Resources | None = None,
        *,
        persist: bool = True,
        sequential: bool = False,
    ) -> None:
        """``sequential``: run the graph's table with :class:`SequentialGraph` instead of
        LangGraph's runtime (same nodes, routes and sessions; no LangGraph graph import, for a
        process that answers one question: ``matjip ask``)."""
        self.settings = settings
        self.resources = resources or load_resources(settings)
        self._checkpointer: Any = None
        self._pool: Any = None
        if persist and settings.database_url is not None:
            self._checkpointer = self._postgres_checkpointer(settings)
        elif persist and sequential:  # LangGraph's tables and format, without importing LangGraph
            from matjip.agent.checkpoints import SqliteCheckpoints
            from matjip.agent.session_writer import writer_client

            settings.data_dir.mkdir(parents=True, exist_ok=True)
            self._checkpointer = SqliteCheckpoints(open_sessions(settings.sessions_path))
            self._checkpointer.remote = writer_client()  # a worker of `serve --workers N`: its writer
        elif persist:
            from matjip.agent.savers import sqlite_saver

            settings.data_dir.mkdir(parents=True, exist_ok=True)
            self._checkpointer = sqlite_saver(open_sessions(settings.sessions_path), checkpoint_serializer())
        else:
            from langgraph.checkpoint.memory import InMemorySaver

            self._checkpointer = InMemorySaver(serde=checkpoint_serializer())
        self.graph: Any = (
            SequentialGraph(self.resources, self._checkpointer)
            if sequential
            else build_graph(self.resources, self._checkpointer)
        )
        self.retention = Retention(self._checkpointer, settings.session_max_age_days)
        self.retention.prune()
        # what was loaded (index columns, gazetteer, vocabularies: ~200k objects) lives as long as
        # the agent: out of the cycle collector's reach, a full collection takes ~1 ms, not ~120 ms
        # in the middle of some turn
        gc.freeze()
        self._locks: dict[str, threading.Lock] = {}
        self._locks_guard = threading.Lock()

    def _postgres_checkpointer(self, settings: Settings) -> Any:
        """Sessions in PostgreSQL (``MATJIP_DATABASE_URL``): every worker on that database can
        continue every session."""
        try:
            from langgraph.checkpoint.postgres import PostgresSaver
            from psycopg.rows import dict_row
        except ImportError as e:  # pragma: no cover - depends on the environment
            from matjip.errors import ConfigurationError

            raise ConfigurationError(
                "sessions in PostgreSQL need: pip install 'matjip[postgres]' (langgraph-checkpoint-postgres)"
            ) from e
        import psycopg

        from matjip.index.postgres import connection_pool, setup_lock
        from matjip.settings import secret

        url = secret(settings.database_url) or ""
        connect = psycopg.connect(
            url,
            autocommit=True,
            prepare_threshold=0,
            row_factory=dict_row,
            connect_timeout=settings.database_connect_timeout_s,
        )
        with connect as conn, setup_lock(conn):  # LangGraph's migrations race when workers start together
            PostgresSaver(conn, serde=checkpoint_serializer()).setup()
        self._pool = connection_pool(
            url,
            settings,
            name="matjip-sessions",
            max_size=settings.database_pool_size,
            kwargs={"prepare_threshold": 0, "row_factory": dict_row},
        )
        from matjip.agent.savers import postgres_saver

        return postgres_saver(self._pool, checkpoint_serializer())

    def warm(self) -> None:
        """Load Kiwi and prime caches so the first real turn is as fast as the rest."""
        self.resources.index.warm()
        self.resources.nlu.parse("강남역 근처 조용한 일식집")
        gc.freeze()  # what warming loaded stays too

    def _lock(self, session_id: str) -> threading.Lock:
        with self._locks_guard:
            lock = self._locks.get(session_id)
            if lock is None:
                lock = self._locks[session_id] = threading.Lock()
            return lock

    def stream(
        self,
        message: str,
        session_id: str | None = None,
        location: dict[str, float] | None = None,
        now: datetime | None = None,
    ) -> Iterator[TurnEvent]:
        """Run one turn and yield its events: session, plan, results, clarification, answer…, trace, end."""
        sid = session_id or uuid.uuid4().hex
        yield TurnEvent(event="session", data={"session_id": sid})
        config = {"configurable": {"thread_id": sid}}
        state_in: dict[str, Any] = {
            "query": message,
            "session_id": sid,
            "gps": location,
            "now": now.isoformat() if now else None,
        }
        bound = bound_commit()  # the API's (commit or abandon, once), else this turn's own
        commit = bound or TurnCommit()
        scope = commit_scope(commit) if bound is None else nullcontext()
        with self._lock(sid), self.resources.index.pinned(), scope:  # one index version per turn
            for chunk in self._graph_stream(state_in, config):
                yield TurnEvent.model_validate(chunk)
            # the state this turn saved, as saved: no second read that a database restart could fail
            # after the save (a saved turn is always delivered)
            final = (
                state_values(commit.saved)
                if commit.saved is not None
                else cast(AgentState, dict(self.graph.get_state(config).values or {}))
            )
            try:
                self.retention.after_turn(sid)
            except Exception:  # housekeeping: never fail a saved turn
                log.warning("session retention failed after a turn", exc_info=True)
        result = self._result(sid, final)
        yield TurnEvent(event="trace", data=[t.model_dump(mode="json") for t in result.trace])
        yield TurnEvent(event="end", data=result.model_dump(mode="json"))

    def _graph_stream(self, state_in: dict[str, Any], config: dict[str, Any]) -> Iterator[Any]:
        """The graph's events; under an :func:`~matjip.providers.guard.event_scope` (the API) a
        sequential graph hands each to the scope's sink as it is emitted instead."""
        sink = bound_events()
        if sink is None or not isinstance(self.graph, SequentialGraph):
            return iter(self.graph.stream(state_in, config, stream_mode="custom", durability="exit"))

        def live(chunk: Any) -> None:
            sink(TurnEvent.model_validate(chunk))

        return iter(self.graph.stream(state_in, config, stream_mode="custom", durability="exit", live=live))

    def ask(
        self,
        message: str,
        session_id: str | None = None,
        location: dict[str, float] | None = None,
        now: datetime | None = None,
    ) -> TurnResult:
        last: TurnEvent | None = None
        for event in self.stream(message, session_id, location, now):
            last = event
        assert last is not None and last.event == "end"
        return TurnResult.model_validate(last.data)

    def more(
        self,
        session_id: str,
        sort: Sort | None = None,
        exclude_ids: list[str] | None = None,
        now: datetime | None = None,
    ) -> MoreResult:
        """The session's last search again: in ``sort`` order (part of the plan) and without the
        places in ``exclude_ids`` (the ones already shown: "더 보기"). The session's context
        follows the cards shown, so "네 번째 집" after "더 보기" is the fourth card on screen."""
        from matjip.agent.nodes.common import card_for, shown_for
        from matjip.agent.nodes.search import search_general
        from matjip.agent.plan import validate_plan

        res = self.resources
        config = {"configurable": {"thread_id": session_id}}
        with self._lock(session_id):
            values = cast(AgentState, dict(self.graph.get_state(config).values or {}))
            searches = list(values.get("searches") or [])
            last = searches[-1] if searches else None
            plan = last.get("plan") if last else None
            if last is None or plan is None or plan.intent != "search":
                return MoreResult(
                    session_id=session_id, exhausted=True, notes=[text("answer.more.exhausted")]
                )
            excluded = list(exclude_ids or [])
            raw = plan.model_dump()
            raw.update({"sort": sort or plan.sort, "exclude_ids": excluded})
            new_plan, _repairs = validate_plan(
                raw,
                cuisines=res.cuisines,
                conveniences=res.conveniences,
                timezone=res.timezone,
            )
            notes: list[str] = []
            if new_plan.sort == "distance" and (new_plan.location is None or new_plan.location.lat is None):
                notes.append(text("answer.more.no_origin"))
            when = now or res.now()
            update = search_general({"plan": new_plan, "now": when.isoformat()}, res)
            hits = list(update.get("hits") or [])
            shown = shown_for(hits, res)
            cards = [card_for(s, when, new_plan) for s in shown]
            context = list(values.get("context") or [])
            kept = [h for h in context if h.get("id") in set(excluded)] if excluded else []
            new_context = [*kept, *hits] or context
            stored = [*searches[:-1], {**last, "plan": new_plan.model_copy(update={"exclude_ids": []})}]
            self.graph.update_state(config, {"context": new_context, "searches": stored}, as_node="generate")
        return MoreResult(
            session_id=session_id,
            plan=new_plan,
            cards=cards,
            exhausted=len(cards) < new_plan.k,
            notes=notes,
        )

    def _result(self, sid: str, st: AgentState) -> TurnResult:
        plan = st.get("plan")
        nlu = st.get("nlu")
        return TurnResult(
            session_id=sid,
            answer=st.get("answer", ""),
            intent=nlu.intent if nlu is not None else None,
            plan=plan,
            frame=st.get("frame"),
            cards=list(st.get("cards") or []) if st.get("decision") == "search" else [],
            clarification=st.get("clarification"),
            grade=st.get("grade"),
            searched=st.get("decision") == "search" and st.get("duplicate_of") is None,
            reused=st.get("duplicate_of") is not None,
            web_sources=list(st.get("web_sources") or []),
            trace=list(st.get("trace") or []),
            nlu=nlu.model_dump(mode="json") if nlu is not None else {},
            notes=[*(st.get("plan_notes") or []), *(st.get("relax_notes") or [])],
            location=st.get("location"),
            location_carried=bool(st.get("location_carried"))
            or (bool(st.get("refine")) and plan is not None and plan.location is not None),
            resumed=bool(st.get("resumed")),
            decision=str(st.get("decision") or ""),
        )

    def history(self, session_id: str) -> list[dict[str, str]]:
        snap = self.graph.get_state({"configurable": {"thread_id": session_id}})
        return list((snap.values or {}).get("messages") or [])

    def close(self) -> None:
        close = getattr(self._checkpointer, "close", None)
        if callable(close) and hasattr(self._checkpointer, "on_put"):  # SqliteCheckpoints: its reader
            close()
        conn = getattr(self._checkpointer, "conn", None)
        if conn is not None:
            conn.close()
