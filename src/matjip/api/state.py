"""Per-app state: settings, the agent (created lazily), the turn runner, session mapping."""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import Annotated, Any

import anyio
from fastapi import Depends
from starlette.requests import Request

from matjip.api.database import DatabaseMonitor
from matjip.api.runner import AgentLike, TurnRunner
from matjip.api.sessions import ConversationSessions
from matjip.errors import MatjipError, ProblemError
from matjip.settings import Settings
from matjip.wording import text

log = logging.getLogger("matjip.api")

AGENT_RETRY_S = 5.0
UNAVAILABLE = text("api.error.index_run_ingest")


def _load_agent(settings: Settings) -> AgentLike:
    from matjip.agent.service import Agent

    agent = Agent(settings, sequential=True)  # the nodes in the turn's thread: no executor per turn
    agent.warm()
    return agent


@dataclass
class ApiState:
    settings: Settings
    agent: AgentLike | None
    runner: TurnRunner
    conversations: ConversationSessions
    database: DatabaseMonitor = field(default_factory=lambda: DatabaseMonitor(None))
    owns_agent: bool = False
    agent_error: str | None = None
    _last_attempt: float = 0.0
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    _gazetteer: Any = None
    last_documents: int | None = None  # the index's size when last read (shown while the database is away)
    _loading: asyncio.Task[None] | None = None

    async def load_agent(self) -> None:
        """Create the agent from settings in a worker thread; remember why when it fails."""
        async with self._lock:
            if self.agent is not None:
                return
            self._last_attempt = time.monotonic()
            try:
                self.agent = await anyio.to_thread.run_sync(_load_agent, self.settings)
                self.owns_agent = True
                self.agent_error = None
                log.info("agent ready (data dir %s)", self.settings.data_dir)
            except MatjipError as exc:
                self.agent_error = str(exc)
                log.warning("agent not available: %s", exc)
            except Exception as exc:
                self.agent_error = type(exc).__name__
                log.exception("agent could not be created")

    async def require_agent(self) -> AgentLike:
        """The agent, or a 503 problem at once: no index yet, or the database is unreachable."""
        self.database.require()
        if self.agent is None and time.monotonic() - self._last_attempt >= AGENT_RETRY_S:
            await self.load_agent()
        if self.agent is None:
            raise ProblemError(503, UNAVAILABLE, kind="index-unavailable", headers={"Retry-After": "5"})
        return self.agent

    def load_agent_in_background(self) -> None:
        """Start creating the agent (rate-limited like :meth:`require_agent`) without waiting."""
        if self.agent is not None or (self._loading is not None and not self._loading.done()):
            return
        if time.monotonic() - self._last_attempt >= AGENT_RETRY_S:
            self._loading = asyncio.create_task(self.load_agent())

    def resources(self) -> Any:
        return getattr(self.agent, "resources", None)

    async def gazetteer(self) -> Any:
        res = self.resources()
        if res is not None and getattr(res, "gazetteer", None) is not None:
            return res.gazetteer
        if self._gazetteer is None:

            def load() -> Any:
                from matjip.geo.gazetteer import Gazetteer

                return Gazetteer.load()

            try:
                self._gazetteer = await anyio.to_thread.run_sync(load)
            except Exception as exc:
                log.exception("gazetteer could not be loaded")
                raise ProblemError(
                    503, text("api.error.gazetteer_unavailable"), kind="gazetteer-unavailable"
                ) from exc
        return self._gazetteer

    def close(self) -> None:
        self.database.stop()
        self.runner.close()
        self.conversations.close()
        if self.owns_agent and self.agent is not None:
            close = getattr(self.agent, "close", None)
            if callable(close):
                close()


def api_state(request: Request) -> ApiState:
    state = request.app.state.api
    assert isinstance(state, ApiState)
    return state


Api = Annotated[ApiState, Depends(api_state)]
