"""``matjip eval agent``: print the development-set table."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from matjip.settings import Settings


def run_eval_agent(settings: Settings, limit: int | None, llm: bool, show_failures: int) -> None:
    from matjip.agent.service import Agent, load_resources
    from matjip.commands.ingest import ensure_index
    from matjip.eval.agent_eval import run

    console = Console()
    if not llm and settings.llm_provider != "none":
        settings = settings.model_copy(update={"llm_provider": "none", "tavily_api_key": None})
    if llm and settings.llm_provider == "none":
        console.print("[yellow]--llm: MATJIP_LLM_PROVIDER가 설정되지 않아 오프라인으로 평가합니다.[/]")
    index = ensure_index(settings)
    agent = Agent(settings, load_resources(settings, index), persist=False)
    report = run(agent, limit=limit)
    table = Table(title=f"matjip eval agent ({'llm: ' + settings.llm_provider if llm else 'offline'})")
    table.add_column("metric")
    table.add_column("value", justify="right")
    for name, value in report.rows():
        table.add_row(name, value)
    console.print(table)
    if show_failures and report.failures:
        console.print(f"[bold]failures[/] (first {show_failures} of {len(report.failures)}):")
        for f in report.failures[:show_failures]:
            console.print(f"  {f}", markup=False)
    for e in report.errors[:10]:
        console.print(f"[red]error[/] {e}", markup=False)
