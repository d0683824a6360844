"""The ``matjip`` command line: a thin layer over the packages.

Options fall back to ``MATJIP_*`` environment variables (see :mod:`matjip.settings`).
Heavy imports happen inside commands so ``matjip --help`` stays instant.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from matjip import __version__
from matjip.errors import MatjipError


class _Group(click.Group):
    """Turns expected errors into one readable line instead of a traceback."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except MatjipError as exc:
            click.secho(f"오류: {exc}", fg="red", err=True)
            sys.exit(2)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="matjip")
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    envvar="MATJIP_DATA_DIR",
    help="Data directory for documents, index and sessions [env: MATJIP_DATA_DIR].",
)
@click.pass_context
def cli(ctx: click.Context, data_dir: Path | None) -> None:
    """matjip: 한국 맛집 검색·질의응답 에이전트 (Korean restaurant search and Q&A)."""
    from matjip.settings import Settings

    overrides = {"data_dir": data_dir} if data_dir else {}
    ctx.obj = Settings(**overrides)  # type: ignore[arg-type]


def main() -> None:
    cli(prog_name="matjip")


# --- commands are registered below, one block per concern ---------------------------------


# --- ingest ------------------------------------------------------------------------------
@cli.command()
@click.argument("paths", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--resume", is_flag=True, help="Continue an interrupted run from its last checkpoint.")
@click.option(
    "--enrich",
    "enricher_name",
    default="offline",
    show_default=True,
    envvar="MATJIP_ENRICH",
    help="Enricher: offline (rules + lexicons + Kiwi) or llm (needs a provider) [env: MATJIP_ENRICH].",
)
@click.option("--index/--no-index", "do_index", default=True, show_default=True, help="Update the search index.")
@click.pass_obj
def ingest(settings: object, paths: tuple[Path, ...], resume: bool, enricher_name: str, do_index: bool) -> None:
    """Ingest crawl documents (JSON array or JSONL, plain or .gz) into the local store.

    With no PATH, ingests the embedded demo data (11,854 restaurants of Seoul/Gyeonggi).
    Unchanged records are skipped; malformed records are reported with file, line and reason.
    """
    from matjip.commands.ingest import run_ingest
    from matjip.settings import Settings

    assert isinstance(settings, Settings)
    run_ingest(settings, list(paths), resume=resume, enricher_name=enricher_name, do_index=do_index)


# --- agent -------------------------------------------------------------------------------
@cli.command()
@click.argument("question")
@click.option("--lat", type=float, envvar="MATJIP_LAT", help="Your latitude (for '내 근처').")
@click.option("--lon", type=float, envvar="MATJIP_LON", help="Your longitude (for '내 근처').")
@click.option("--session", "session", help="Continue this session id (printed after each answer).")
@click.option("--trace", is_flag=True, help="Show every node with its decision and time.")
@click.option("--json", "as_json", is_flag=True, help="Print the whole turn result as JSON.")
@click.pass_obj
def ask(
    settings: object, question: str, lat: float | None, lon: float | None, session: str | None, trace: bool, as_json: bool
) -> None:
    """Ask one question, e.g. matjip ask "강남역 주차되는 일식집"."""
    from matjip.commands.agent import run_ask
    from matjip.settings import Settings

    assert isinstance(settings, Settings)
    run_ask(settings, question, lat, lon, trace, as_json, session)


@cli.command()
@click.option("--lat", type=float, envvar="MATJIP_LAT", help="Your latitude (for '내 근처').")
@click.option("--lon", type=float, envvar="MATJIP_LON", help="Your longitude (for '내 근처').")
@click.option("--session", "session", help="Continue this session id.")
@click.pass_obj
def chat(settings: object, lat: float | None, lon: float | None, session: str | None) -> None:
    """Chat in the terminal, keeping one session (/new, /trace, /quit)."""
    from matjip.commands.agent import run_chat
    from matjip.settings import Settings

    assert isinstance(settings, Settings)
    run_chat(settings, lat, lon, session)


# --- evaluation --------------------------------------------------------------------------
@cli.group(name="eval")
def eval_group() -> None:
    """Run the development evaluation sets."""


@eval_group.command(name="agent")
@click.option("--limit", type=int, help="Only the first N single-turn queries.")
@click.option("--llm", is_flag=True, help="Use the configured LLM provider (MATJIP_LLM_PROVIDER).")
@click.option("--failures", "show_failures", type=int, default=15, show_default=True, help="Failures to list.")
@click.pass_obj
def eval_agent(settings: object, limit: int | None, llm: bool, show_failures: int) -> None:
    """Intent accuracy, entity F1, hard-constraint precision, clarification accuracy, latency."""
    from matjip.commands.evaluate import run_eval_agent
    from matjip.settings import Settings

    assert isinstance(settings, Settings)
    run_eval_agent(settings, limit, llm, show_failures)
