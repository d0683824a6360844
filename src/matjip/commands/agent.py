"""``matjip ask`` and ``matjip chat``: the agent in the terminal."""

from __future__ import annotations

import json
import sys

from rich.console import Console
from rich.table import Table

from matjip.agent.models import TurnEvent, TurnResult
from matjip.settings import Settings, redact, redact_data, register_settings_secrets


def _agent(settings: Settings) -> object:
    from matjip.agent.service import Agent, load_resources
    from matjip.commands.ingest import ensure_index

    register_settings_secrets(settings)
    index = ensure_index(settings)
    return Agent(settings, load_resources(settings, index))


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


def _run_turn(
    agent: object, console: Console, message: str, session_id: str | None, location: dict[str, float] | None
) -> TurnResult:
    from matjip.agent.service import Agent

    assert isinstance(agent, Agent)
    result: TurnResult | None = None
    for ev in agent.stream(message, session_id, location):
        result = _render(ev, console) or result
    assert result is not None
    return result


def _render(ev: TurnEvent, console: Console) -> TurnResult | None:
    if ev.event == "answer":
        console.print(str(ev.data), end="", markup=False, highlight=False, soft_wrap=True)
    elif ev.event == "end":
        return TurnResult.model_validate(ev.data)
    return None


def run_ask(
    settings: Settings,
    question: str,
    lat: float | None,
    lon: float | None,
    trace: bool,
    as_json: bool,
    session: str | None,
) -> None:
    agent = _agent(settings)
    location = {"lat": lat, "lon": lon} if lat is not None and lon is not None else None
    from matjip.agent.service import Agent

    assert isinstance(agent, Agent)
    if as_json:
        result = agent.ask(question, session, location)
        sys.stdout.write(
            json.dumps(redact_data(result.model_dump(mode="json")), ensure_ascii=False, indent=2) + "\n"
        )
        return
    console = Console()
    result = _run_turn(agent, console, question, session, location)
    if trace:
        console.print(trace_table(result))
    Console(stderr=True).print(f"[dim]session: {result.session_id}[/]")


def run_chat(settings: Settings, lat: float | None, lon: float | None, session: str | None) -> None:
    import uuid

    console = Console()
    agent = _agent(settings)
    from matjip.agent.service import Agent

    assert isinstance(agent, Agent)
    with console.status("준비 중…"):
        agent.warm()
    sid = session or uuid.uuid4().hex
    location = {"lat": lat, "lon": lon} if lat is not None and lon is not None else None
    console.print(
        "[bold]matjip[/] 맛집을 물어보세요. 예: '강남역 주차되는 일식집', '그 중 두 번째 집 몇 시까지 해?'\n"
        "[dim]/new 새 대화 · /trace 직전 턴의 trace · /quit 종료[/]"
    )
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
            console.print("[dim]새 대화를 시작합니다.[/]")
            continue
        if cmd == "/trace":
            if last is not None:
                console.print(trace_table(last))
            else:
                console.print("[dim]아직 실행한 턴이 없어요.[/]")
            continue
        if not cmd:
            continue
        last = _run_turn(agent, console, message, sid, location)
        console.print()
