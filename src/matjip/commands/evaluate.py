"""``matjip eval agent``, ``matjip eval relevance`` and ``matjip eval dialogues``: print the evaluation tables."""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path

from rich.console import Console
from rich.table import Table

from matjip.settings import Settings
from matjip.wording import text


def _table(title: str, rows: Iterable[tuple[str, str]]) -> Table:
    table = Table(title=title)
    table.add_column("metric")
    table.add_column("value", justify="right")
    for name, value in rows:
        table.add_row(name, value)
    return table


def _offline(settings: Settings) -> Settings:
    if settings.llm_provider != "none" or settings.tavily_api_key is not None:
        return settings.model_copy(update={"llm_provider": "none", "tavily_api_key": None})
    return settings


def run_eval_relevance(
    settings: Settings, split: str, limit: int | None, llm: bool, show_failures: int, path: Path | None = None
) -> None:
    """The judged relevance set (``eval/relevance_set.jsonl``), graded on raw documents."""
    from matjip.agent.service import Agent, load_resources
    from matjip.commands.ingest import ensure_index
    from matjip.eval.relevance_eval import run

    console = Console()
    if not llm:
        settings = _offline(settings)
    agent = Agent(settings, load_resources(settings, ensure_index(settings)), persist=False)

    def ask(question: str, gps: dict[str, float] | None, now: datetime) -> tuple[list[str], str]:
        r = agent.ask(question, location=gps, now=now)
        return [c.id for c in r.cards], r.answer

    report = run(ask, split=split, limit=limit, path=path)
    mode = "llm: " + settings.llm_provider if llm else "offline"
    console.print(_table(f"matjip eval relevance (split {split}, {mode})", report.rows()))
    failures = report.failures()
    if show_failures and failures:
        console.print(f"[bold]not perfect[/] (first {show_failures} of {len(failures)}):")
        for f in failures[:show_failures]:
            console.print(f"  {f}", markup=False)
    for e in report.errors[:10]:
        console.print(f"[red]error[/] {e}", markup=False)


def run_eval_agent(settings: Settings, limit: int | None, llm: bool, show_failures: int) -> None:
    from matjip.agent.service import Agent, load_resources
    from matjip.commands.ingest import ensure_index
    from matjip.eval.agent_eval import run

    console = Console()
    if not llm:
        settings = _offline(settings)
    if llm and settings.llm_provider == "none":
        console.print(text("cli.evaluate.llm_not_set"))
    index = ensure_index(settings)
    agent = Agent(settings, load_resources(settings, index), persist=False)
    report = run(agent, limit=limit)
    console.print(
        _table(f"matjip eval agent ({'llm: ' + settings.llm_provider if llm else 'offline'})", report.rows())
    )
    if show_failures and report.failures:
        console.print(f"[bold]failures[/] (first {show_failures} of {len(report.failures)}):")
        for f in report.failures[:show_failures]:
            console.print(f"  {f}", markup=False)
    for e in report.errors[:10]:
        console.print(f"[red]error[/] {e}", markup=False)


def run_eval_dialogues(
    settings: Settings, split: str, limit: int | None, show_failures: int, set_path: Path | None = None
) -> None:
    """The multi-turn gold set (``eval/dialogue_set.jsonl``, or ``set_path`` in the same format):
    one new session per dialogue, offline."""
    from matjip.agent.models import TurnResult
    from matjip.agent.service import Agent, load_resources
    from matjip.commands.ingest import ensure_index
    from matjip.eval.dialogue_eval import run

    console = Console()
    settings = _offline(settings)
    resources = load_resources(settings, ensure_index(settings))
    agent = Agent(settings, resources, persist=False)

    def ask(message: str, session_id: str, gps: dict[str, float] | None) -> TurnResult:
        return agent.ask(message, session_id=session_id, location=gps or None)

    def price_of(place_id: str) -> int | None:
        """The median of a restaurant's priced menu lines (its price level; of an even count, the
        mean of the middle two, as the relevance judge and the answers compute it)."""
        doc = resources.index.get(place_id)
        prices = [m.price for m in doc.priced_menus() if m.price is not None] if doc else []
        return round(statistics.median(prices)) if prices else None

    report = run(ask, split=split, limit=limit, price_of=price_of, path=set_path)
    console.print(_table(f"matjip eval dialogues (split {split}, offline)", report.rows()))
    failures = report.failures()
    if show_failures and failures:
        console.print(f"[bold]first wrong turn per dialogue[/] (first {show_failures} of {len(failures)}):")
        for f in failures[:show_failures]:
            console.print(f"  {f}", markup=False, soft_wrap=True)
    for e in report.errors[:10]:
        console.print(f"[red]error[/] {e}", markup=False)


def run_eval_reviews(
    settings: Settings,
    split: str,
    limit: int | None,
    llm: bool,
    show_failures: int,
    set_path: Path | None = None,
    by_place: bool = False,
    meal_times: bool = False,
) -> None:
    """The review-text gold set (``eval/review_set.jsonl``, or ``set_path`` in the same format)
    through the configured enricher; ``by_place``: each place with all its reviews against the
    place-level gold beside the set (``*_places.jsonl``); ``meal_times``: 점심/저녁 scored too."""
    from matjip.eval.review_eval import MEAL_TIMES, SET_PATH, run, run_by_place
    from matjip.ingest.enrich import get_enricher

    console = Console()
    enricher = get_enricher("llm" if llm else "offline", settings)
    unscored = frozenset() if meal_times else MEAL_TIMES
    note = ", 점심/저녁 scored" if meal_times else ""
    if by_place:
        report = run_by_place(enricher, split=split, path=set_path or SET_PATH, unscored=unscored)
        title = f"matjip eval reviews --by-place (split {split}, {enricher.name}{note})"
    else:
        report = run(enricher, split=split, limit=limit, path=set_path or SET_PATH, unscored=unscored)
        title = f"matjip eval reviews (split {split}, {enricher.name}{note})"
    console.print(_table(title, report.rows()))
    if show_failures and report.failures:
        console.print(f"[bold]imperfect items[/] (first {show_failures} of {len(report.failures)}):")
        for f in report.failures[:show_failures]:
            console.print(f"  {f}", markup=False, soft_wrap=True)


def run_eval_strategies(
    settings: Settings, split: str, limit: int | None, show_failures: int, set_path: Path | None = None
) -> None:
    """Seed 003's strategy questions (issue 14): strategy, endpoints, minutes/mode/km, roles/days,
    overseas, caution and the constraints of the returned stops, offline (no live provider)."""
    import time

    from matjip.agent.models import TurnResult
    from matjip.agent.service import Agent, load_resources
    from matjip.commands.ingest import ensure_index
    from matjip.eval.strategy_eval import load_items, run, set_paths

    console = Console()
    settings = _offline(settings).model_copy(
        update={"kakao_rest_api_key": None, "google_maps_api_key": None, "routing_provider": "none"}
    )
    paths = set_paths(split, set_path)
    if not paths:
        console.print(f"[red]no strategy set for split {split}[/] (use --set PATH or --split dev)")
        return
    items = load_items(paths, split, limit)
    agent = Agent(settings, load_resources(settings, ensure_index(settings)), persist=False)

    def ask(question: str, gps: dict[str, float] | None) -> tuple[TurnResult, float]:
        started = time.perf_counter()
        result = agent.ask(question, location=gps)
        return result, (time.perf_counter() - started) * 1000

    report = run(ask, items)
    names = ", ".join(p.name for p in paths)
    console.print(_table(f"matjip eval strategies (split {split}, {names}, offline)", report.rows()))
    if show_failures and report.failures:
        console.print(f"[bold]not right[/] (first {show_failures} of {len(report.failures)}):")
        for f in report.failures[:show_failures]:
            console.print(f"  {f}", markup=False, soft_wrap=True)
    for e in report.errors[:10]:
        console.print(f"[red]error[/] {e}", markup=False)
