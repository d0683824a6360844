"""``matjip ask`` and ``matjip chat``: the agent in the terminal.

Answers are Markdown (bold names, lists); the terminal shows them rendered with rich, while they
stream. ``matjip ask`` starts fast: when a ``matjip serve`` over the same data is up on
``settings.host:port`` it sends the question there (the index, Kiwi and the graph are already
loaded); otherwise it loads them itself, deferring what a question does not need (see
docs/design.md, "Start-up").
"""

from __future__ import annotations

import http.client
import json
import re
import sys
from collections.abc import Iterable, Iterator
from typing import Any

from rich.console import Console
from rich.table import Table

from matjip.agent.models import TraceEntry, TurnEvent, TurnResult
from matjip.errors import ServerError
from matjip.settings import Settings, redact, redact_data, register_settings_secrets
from matjip.wording import text

HEALTH_TIMEOUT_S = 0.5


def _agent(settings: Settings, *, one_turn: bool = False) -> object:
    """The agent over the data directory. ``one_turn`` (``matjip ask``): the graph runs in
    sequence (:class:`matjip.agent.graph.SequentialGraph`), without LangGraph's runtime to import;
    sessions in PostgreSQL keep LangGraph's."""
    from matjip.agent.service import Agent, load_resources
    from matjip.commands.ingest import ensure_index

    register_settings_secrets(settings)
    index = ensure_index(settings)
    sequential = one_turn and settings.database_url is None
    return Agent(settings, load_resources(settings, index), sequential=sequential)


def trace_table(result: TurnResult) -> Table:
    table = Table(title="trace", show_lines=False)
    table.add_column("node")
    table.add_column("ms", justify="right")
    table.add_column("decision")
    for t in result.trace:
        table.add_row(t.node, f"{t.ms:.2f}", redact(t.decision))
    total = sum(t.ms for t in result.trace)
    table.add_row("[bold]total[/]", f"[bold]{total:.2f}[/]", "")
    return table


# --- rendering -----------------------------------------------------------------------------


def _markdown(text: str) -> Any:
    """The answer as rich Markdown. The agent's answers come with crawled "[", "<" and "\\"
    already escaped (agent/markdown.py); an "<" or "&" that is not escaped is escaped here too,
    so a name such as "<script>…" is shown as written instead of being dropped as an HTML tag, and
    a link that slips through shows where it goes. A single line break stays a line break (the
    page's renderer does the same)."""
    from rich.markdown import Markdown

    escaped = re.sub(r"(?<!\\)([<&])", r"\\\1", text)
    return Markdown(escaped.replace("\n", "  \n"), hyperlinks=False)  # a line break is a line break


def render_answer(console: Console, events: Iterable[TurnEvent]) -> TurnResult | None:
    """Show the streamed answer as Markdown: live in a terminal, once at the end otherwise.
    Returns the turn's result (from its ``end`` event) when the events carry one."""
    from rich.live import Live

    text = ""
    result: TurnResult | None = None
    if console.is_terminal:
        # live while it streams (cropped to the screen), then printed whole once: a live area
        # taller than the terminal cannot be redrawn cleanly
        with Live(
            _markdown(""),
            console=console,
            refresh_per_second=12,
            vertical_overflow="ellipsis",
            transient=True,
        ) as live:
            for ev in events:
                if ev.event == "answer":
                    text += str(ev.data)
                    live.update(_markdown(text))
                elif ev.event == "answer_reset":
                    text = ""
                    live.update(_markdown(text))
                elif ev.event == "end" and isinstance(ev.data, dict):
                    result = TurnResult.model_validate(ev.data)
        console.print(_markdown(text))
    else:
        for ev in events:
            if ev.event == "answer":
                text += str(ev.data)
            elif ev.event == "answer_reset":
                text = ""
            elif ev.event == "end" and isinstance(ev.data, dict):
                result = TurnResult.model_validate(ev.data)
        console.print(_markdown(text))
    if result is not None and not result.answer:
        result = result.model_copy(update={"answer": text})
    return result


def _run_turn(
    agent: object, console: Console, message: str, session_id: str | None, location: dict[str, float] | None
) -> TurnResult:
    from matjip.agent.service import Agent

    assert isinstance(agent, Agent)
    result = render_answer(console, agent.stream(message, session_id, location))
    assert result is not None
    return result


# --- a running `matjip serve` --------------------------------------------------------------


def _connect_host(host: str) -> str:
    return "127.0.0.1" if host in ("", "0.0.0.0", "::") else host


def server_for(settings: Settings) -> tuple[str, int] | None:
    """``(host, port)`` of a ``matjip serve`` that is up on ``settings.host:port`` with its index
    loaded, over the same data directory; ``None`` otherwise (nothing listening answers at once)."""
    host, port = _connect_host(settings.host), settings.port
    conn = http.client.HTTPConnection(host, port, timeout=HEALTH_TIMEOUT_S)
    try:
        conn.request("GET", "/health", headers={"Accept": "application/json"})
        resp = conn.getresponse()
        body = json.loads(resp.read() or b"{}") if resp.status == 200 else {}
    except (OSError, ValueError, http.client.HTTPException):
        return None
    finally:
        conn.close()
    if isinstance(body, dict) and body.get("index_loaded") and body.get("data_key") == settings.data_key:
        return host, port
    return None


def _sse_frames(resp: http.client.HTTPResponse) -> Iterator[tuple[str, str]]:
    event, data = "message", list[str]()
    for raw in resp:
        line = raw.decode("utf-8").rstrip("\r\n")
        if not line:
            if data:
                yield event, "\n".join(data)
            event, data = "message", []
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "event":
            event = value
        elif field == "data":
            data.append(value)
    if data:
        yield event, "\n".join(data)


class RemoteTurn:
    """One turn on a running server, as the agent's events (``end`` carries the result)."""

    def __init__(
        self, server: tuple[str, int], message: str, session_id: str | None, location: dict[str, float] | None
    ) -> None:
        self.server = server
        self.body: dict[str, Any] = {"message": message}
        if session_id:
            self.body["session_id"] = session_id
        if location:
            self.body["location"] = location

    def _post(self, accept: str) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
        conn = http.client.HTTPConnection(*self.server, timeout=120)
        conn.request(
            "POST",
            "/v1/chat",
            body=json.dumps(self.body).encode(),
            headers={"Content-Type": "application/json", "Accept": accept},
        )
        return conn, conn.getresponse()

    def result(self) -> TurnResult:
        conn, resp = self._post("application/json")
        try:
            body = json.loads(resp.read())
        finally:
            conn.close()
        if resp.status != 200:
            raise ServerError(str(body.get("detail") or body))
        return TurnResult.model_validate(body)

    def events(self) -> Iterator[TurnEvent]:
        conn, resp = self._post("text/event-stream")
        session_id, answer = "", ""
        trace: list[Any] = []
        try:
            if resp.status != 200:
                body = json.loads(resp.read() or b"{}")
                raise ServerError(str(body.get("detail") or body))
            for event, data in _sse_frames(resp):
                if event == "end":
                    break
                payload = json.loads(data)
                if event == "session":
                    session_id = str(payload.get("session_id") or "")
                elif event == "answer":
                    answer += str(payload)
                elif event == "answer_reset":
                    answer = ""
                elif event == "trace":
                    trace = payload or []
                elif event == "error":
                    raise ServerError(str(payload.get("detail") or payload))
                yield TurnEvent(event=event, data=payload)  # type: ignore[arg-type]
        finally:
            conn.close()
        result = TurnResult(
            session_id=session_id, answer=answer, trace=[TraceEntry.model_validate(t) for t in trace]
        )
        yield TurnEvent(event="end", data=result.model_dump(mode="json"))


# --- commands ------------------------------------------------------------------------------


def run_ask(
    settings: Settings,
    question: str,
    lat: float | None,
    lon: float | None,
    trace: bool,
    as_json: bool,
    session: str | None,
    local: bool = False,
) -> None:
    location = {"lat": lat, "lon": lon} if lat is not None and lon is not None else None
    server = None if local or not settings.ask_reuse_server else server_for(settings)
    if as_json:
        if server is not None:
            result = RemoteTurn(server, question, session, location).result()
        else:
            from matjip.agent.service import Agent

            agent = _agent(settings, one_turn=True)
            assert isinstance(agent, Agent)
            result = agent.ask(question, session, location)
        sys.stdout.write(
            json.dumps(redact_data(result.model_dump(mode="json")), ensure_ascii=False, indent=2) + "\n"
        )
        return
    console = Console()
    if server is not None:
        found = render_answer(console, RemoteTurn(server, question, session, location).events())
        assert found is not None
        result = found
    else:
        result = _run_turn(_agent(settings, one_turn=True), console, question, session, location)
    if trace:
        console.print(trace_table(result))
    via = f" · matjip serve {server[0]}:{server[1]}" if server else ""
    Console(stderr=True).print(f"[dim]session: {result.session_id}{via}[/]")


def run_chat(settings: Settings, lat: float | None, lon: float | None, session: str | None) -> None:
    import uuid

    console = Console()
    agent = _agent(settings)
    from matjip.agent.service import Agent

    assert isinstance(agent, Agent)
    with console.status(text("cli.chat.preparing")):
        agent.warm()
    sid = session or uuid.uuid4().hex
    location = {"lat": lat, "lon": lon} if lat is not None and lon is not None else None
    console.print(text("cli.chat.welcome"))
    last: TurnResult | None = None
    while True:
        try:
            message = console.input("[bold cyan]> [/]")
        except (EOFError, KeyboardInterrupt):
            console.print()
            break
        cmd = message.strip()
        if cmd in ("/quit", "/exit", "/q"):
            break
        if cmd == "/new":
            sid = uuid.uuid4().hex
            console.print(text("cli.chat.new_session"))
            continue
        if cmd == "/trace":
            if last is not None:
                console.print(trace_table(last))
            else:
                console.print(text("cli.chat.no_turn_yet"))
            continue
        if not cmd:
            continue
        last = _run_turn(agent, console, message, sid, location)
        console.print()
