"""The ``matjip`` command line: a thin layer over the packages.

Options fall back to ``MATJIP_*`` environment variables (see :mod:`matjip.settings`).
Heavy imports happen inside commands so ``matjip --help`` stays instant.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from matjip import __version__
from matjip.errors import MatjipError
from matjip.wording import say


class _Group(click.Group):
    """Turns expected errors into one readable line instead of a traceback."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except MatjipError as exc:
            click.secho(say("cli.errors.line", error=exc), fg="red", err=True)
            sys.exit(2)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="matjip")
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Data directory for documents, index and sessions [settings: MATJIP_DATA_DIR].",
)
@click.pass_context
def cli(ctx: click.Context, data_dir: Path | None) -> None:
    """matjip: 한국 맛집 검색·질의응답 에이전트 (Korean restaurant search and Q&A)."""
    from matjip.settings import Settings

    overrides = {"data_dir": data_dir} if data_dir else {}
    ctx.obj = Settings(**overrides)  # type: ignore[arg-type]


def main() -> None:
    from matjip.settings import install_log_redaction

    install_log_redaction()
    cli(prog_name="matjip")


# --- commands are registered below, one block per concern ---------------------------------


# --- ingest ------------------------------------------------------------------------------
@cli.command()
@click.argument("paths", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--resume", is_flag=True, help="Continue an interrupted run from its last checkpoint.")
@click.option(
    "--enrich",
    "enricher_name",
    type=click.Choice(["offline", "llm"]),
    help="Enricher: offline (rules + lexicons + Kiwi) or llm (needs a provider) [settings: MATJIP_ENRICH].",
)
@click.option(
    "--index/--no-index", "do_index", default=True, show_default=True, help="Update the search index."
)
@click.option(
    "--backend",
    type=click.Choice(["embedded", "postgres"]),
    help="Search index: embedded files or PostgreSQL (MATJIP_DATABASE_URL) [settings: MATJIP_BACKEND].",
)
@click.pass_obj
def ingest(
    settings: object,
    paths: tuple[Path, ...],
    resume: bool,
    enricher_name: str | None,
    do_index: bool,
    backend: str | None,
) -> None:
    """Ingest crawl documents (JSON array or JSONL, plain or .gz) into the local store.

    With no PATH, ingests the embedded demo data (11,854 restaurants of Seoul/Gyeonggi).
    Unchanged records are skipped; malformed records are reported with file, line and reason.
    """
    from matjip.commands.ingest import run_ingest
    from matjip.settings import Settings

    assert isinstance(settings, Settings)
    if backend:
        settings = settings.model_copy(update={"backend": backend})
        assert isinstance(settings, Settings)
    enricher = enricher_name or settings.enrich
    run_ingest(settings, list(paths), resume=resume, enricher_name=enricher, do_index=do_index)


# --- collect: grow the data through local-search APIs (issue 22) ----------------------------
@cli.group()
def collect() -> None:
    """지역의 식당을 검색 API로 모읍니다 (Kakao Local, Naver 지역 검색; 운영자의 API 키).

    Output: crawl records (JSONL) that `matjip ingest FILE` reads; the run's state lives next to
    it (FILE.state.sqlite), so `--resume` continues a stopped or killed run."""


_OUT = click.option(
    "--out", "out", required=True, type=click.Path(dir_okay=False, path_type=Path), help="Output JSONL file."
)
_RESUME = click.option("--resume", is_flag=True, help="Continue the run recorded next to --out.")
_AREA = click.option("--area", help="A si/gun/gu or dong of the gazetteer (its outline's bounding box).")
_RECT = click.option("--rect", help="LON1,LAT1,LON2,LAT2 (WGS84).")


@collect.command("kakao")
@_AREA
@_RECT
@click.option("--category", "categories", default="FD6,CE7", show_default=True, help="FD6 음식점, CE7 카페.")
@_OUT
@_RESUME
@click.option(
    "--details",
    "with_details",
    is_flag=True,
    help="Also read menus/hours/tags/reviews from the Kakao Map place page (NOT an official API; ≤1/s).",
)
@click.pass_obj
def collect_kakao(
    settings: object,
    area: str | None,
    rect: str | None,
    categories: str,
    out: Path,
    resume: bool,
    with_details: bool,
) -> None:
    """Every restaurant/café of an area via Kakao Local category search (KAKAO_REST_API_KEY)."""
    from matjip.commands.collect import run_collect_kakao
    from matjip.settings import Settings

    assert isinstance(settings, Settings)
    codes = [c.strip().upper() for c in categories.split(",") if c.strip()]
    run_collect_kakao(
        settings, area=area, rect=rect, categories=codes, out=out, resume=resume, with_details=with_details
    )


@collect.command("naver")
@_AREA
@_RECT
@click.option(
    "--places",
    "places_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Place names, one a line (default: stations, hot places and dongs of the area).",
)
@click.option(
    "--menus",
    "menus_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Menu words, one a line (default: the kinds vocabulary).",
)
@click.option("--sort", "sorts", default="random,comment", show_default=True, help="random and/or comment.")
@_OUT
@_RESUME
@click.pass_obj
def collect_naver(
    settings: object,
    area: str | None,
    rect: str | None,
    places_file: Path | None,
    menus_file: Path | None,
    sorts: str,
    out: Path,
    resume: bool,
) -> None:
    """Seed 000's recipe: Naver local search for every (place name × menu word) of an area."""
    from matjip.commands.collect import run_collect_naver
    from matjip.settings import Settings

    assert isinstance(settings, Settings)
    run_collect_naver(
        settings,
        area=area,
        rect=rect,
        places_file=places_file,
        menus_file=menus_file,
        sorts=[s.strip() for s in sorts.split(",") if s.strip()],
        out=out,
        resume=resume,
    )


@collect.command("merge")
@click.argument(
    "paths", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
@_OUT
def collect_merge(paths: tuple[Path, ...], out: Path) -> None:
    """Merge collected files: the same restaurant from Kakao and Naver becomes one record."""
    from matjip.commands.collect import run_collect_merge

    run_collect_merge(list(paths), out)


# --- agent -------------------------------------------------------------------------------
@cli.command()
@click.argument("question")
@click.option("--lat", type=float, help="Your latitude (for '내 근처') [settings: MATJIP_LAT].")
@click.option("--lon", type=float, help="Your longitude (for '내 근처') [settings: MATJIP_LON].")
@click.option("--session", "session", help="Continue this session id (printed after each answer).")
@click.option("--trace", is_flag=True, help="Show every node with its decision and time.")
@click.option("--json", "as_json", is_flag=True, help="Print the whole turn result as JSON.")
@click.option(
    "--local",
    is_flag=True,
    help="Answer in this process even when a `matjip serve` over the same data is up "
    "[settings: MATJIP_ASK_REUSE_SERVER=false].",
)
@click.pass_obj
def ask(
    settings: object,
    question: str,
    lat: float | None,
    lon: float | None,
    session: str | None,
    trace: bool,
    as_json: bool,
    local: bool,
) -> None:
    """Ask one question, e.g. matjip ask "강남역 주차되는 일식집".

    When a `matjip serve` over the same data directory is up on MATJIP_HOST:MATJIP_PORT, the
    question goes there (an answer in a fraction of a second); otherwise this process loads
    the index itself."""
    from matjip.commands.agent import run_ask
    from matjip.settings import Settings

    assert isinstance(settings, Settings)
    lat, lon = (lat, lon) if lat is not None else (settings.lat, settings.lon)
    run_ask(settings, question, lat, lon, trace, as_json, session, local)


@cli.command()
@click.option("--lat", type=float, help="Your latitude (for '내 근처') [settings: MATJIP_LAT].")
@click.option("--lon", type=float, help="Your longitude (for '내 근처') [settings: MATJIP_LON].")
@click.option("--session", "session", help="Continue this session id.")
@click.pass_obj
def chat(settings: object, lat: float | None, lon: float | None, session: str | None) -> None:
    """Chat in the terminal, keeping one session (/new, /trace, /quit)."""
    from matjip.commands.agent import run_chat
    from matjip.settings import Settings

    assert isinstance(settings, Settings)
    lat, lon = (lat, lon) if lat is not None else (settings.lat, settings.lon)
    run_chat(settings, lat, lon, session)


# --- evaluation --------------------------------------------------------------------------
@cli.group(name="eval")
def eval_group() -> None:
    """Run the development evaluation sets."""


@eval_group.command(name="agent")
@click.option("--limit", type=int, help="Only the first N single-turn queries.")
@click.option("--llm", is_flag=True, help="Use the configured LLM provider (MATJIP_LLM_PROVIDER).")
@click.option(
    "--failures", "show_failures", type=int, default=15, show_default=True, help="Failures to list."
)
@click.pass_obj
def eval_agent(settings: object, limit: int | None, llm: bool, show_failures: int) -> None:
    """Intent accuracy, entity F1, hard-constraint precision, clarification accuracy, latency."""
    from matjip.commands.evaluate import run_eval_agent
    from matjip.settings import Settings

    assert isinstance(settings, Settings)
    run_eval_agent(settings, limit, llm, show_failures)


# --- places: the gazetteer (matjip.geo) ------------------------------------------------------
@cli.command("places")
@click.argument("name", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print the candidates as JSON.")
@click.option("--text", "in_text", is_flag=True, help="Treat NAME as a sentence; list the places in it.")
def places_command(name: tuple[str, ...], as_json: bool, in_text: bool) -> None:
    """장소 이름을 찾아 후보를 모두 보여 줍니다 (예: matjip places 양평역)."""
    from matjip.commands.places import run_places

    run_places(name, as_json, in_text)


# --- serve -------------------------------------------------------------------------------
@cli.command()
@click.option(
    "--host",
    help="Bind address [settings: MATJIP_HOST, default 127.0.0.1].",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    help="Port [settings: MATJIP_PORT, default 8000].",
)
@click.option(
    "--log-level",
    default="info",
    show_default=True,
    type=click.Choice(["critical", "error", "warning", "info", "debug"]),
    help="Server log level.",
)
@click.option("--no-access-log", is_flag=True, help="Do not log every request.")
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    help="Worker processes sharing the port (one per core); a worker that dies is restarted.",
)
@click.pass_obj
def serve(
    settings: object, host: str | None, port: int | None, log_level: str, no_access_log: bool, workers: int
) -> None:
    """Serve the HTTP API (OpenAPI docs at /docs) and the web page at / .

    POST /v1/chat streams a turn as Server-Sent Events; OpenAI-compatible clients can use
    /v1/chat/completions with model "matjip-agent".
    """
    from matjip.commands.serve import run_serve
    from matjip.settings import Settings

    assert isinstance(settings, Settings)
    run_serve(
        settings,
        host or settings.host,
        settings.port if port is None else port,
        log_level=log_level,
        access_log=not no_access_log,
        workers=workers,
    )


# --- search ------------------------------------------------------------------------------
@cli.command()
@click.argument("text", default="")
@click.option("--near", help="Place name to search around (gazetteer), e.g. 잠실역, 홍대.")
@click.option("--region", help="Region matched on the address, e.g. 강남구.")
@click.option("--radius", help="Radius around --near, e.g. 1km, 800m (default: per place type).")
@click.option("--cuisine", multiple=True, help="Cuisine (any of), e.g. 일식. Repeatable.")
@click.option("--convenience", multiple=True, help="Must have all, e.g. 주차. Repeatable.")
@click.option("--menu", multiple=True, help="Menu term that must match, e.g. 라멘. Repeatable.")
@click.option("--title", help="Restaurant name (branches match: 진대감 → 진대감 마포점).")
@click.option("--min-price", type=int, help="Some menu item costs at least this (won).")
@click.option("--max-price", type=int, help="Some menu item costs at most this (won).")
@click.option("--open-at", help="Open at: '지금', '토 20:00', '20:00' or ISO time (MATJIP_TIMEZONE).")
@click.option("--k", type=click.IntRange(1, 50), default=5, show_default=True, help="Number of results.")
@click.option("--sort", type=click.Choice(["relevance", "distance"]), default="relevance", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the raw response as JSON.")
@click.pass_obj
def search(settings: object, as_json: bool, **options: Any) -> None:
    """Structured hybrid search, e.g. matjip search "조용한 분위기" --near 잠실역 --cuisine 일식."""
    from matjip.commands.search import build_request, run_search
    from matjip.settings import Settings

    assert isinstance(settings, Settings)
    req, origin = build_request(**options, timezone=settings.timezone)  # TEXT and the options above
    run_search(settings, req, origin, as_json)


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@click.pass_obj
def stats(settings: object, as_json: bool) -> None:
    """Documents, field coverage, index size and the embedder."""
    from matjip.commands.search import run_stats
    from matjip.settings import Settings

    assert isinstance(settings, Settings)
    run_stats(settings, as_json)


# the frozen-split option of the judged sets (relevance, dialogues)
_split_option = click.option(
    "--split",
    type=click.Choice(["test", "dev", "all"]),
    default="test",
    show_default=True,
    help="test is the frozen split for reported figures; tune only on dev.",
)


F = TypeVar("F", bound=Callable[..., Any])


def _set_option(bundled: str) -> Callable[[F], F]:
    """``--set PATH``: another set file in the format of the bundled one."""
    return click.option(
        "--set",
        "set_path",
        type=click.Path(exists=True, dir_okay=False, path_type=Path),
        help=f"Another set file in the same format (default: the bundled {bundled}).",
    )


@eval_group.command(name="relevance")
@_split_option
@click.option("--limit", type=int, help="Only the first N questions.")
@click.option("--llm", is_flag=True, help="Use the configured LLM provider (MATJIP_LLM_PROVIDER).")
@click.option(
    "--failures", "show_failures", type=int, default=0, show_default=True, help="Imperfect answers to list."
)
@_set_option("relevance_set.jsonl")
@click.pass_obj
def eval_relevance(
    settings: object, split: str, limit: int | None, llm: bool, show_failures: int, set_path: Path | None
) -> None:
    """Judged relevance: strict/lenient P@3, wrong-kind rate, nDCG@3, short answers, honesty."""
    from matjip.commands.evaluate import run_eval_relevance
    from matjip.settings import Settings

    assert isinstance(settings, Settings)
    run_eval_relevance(settings, split, limit, llm, show_failures, set_path)


@eval_group.command(name="dialogues")
@_split_option
@click.option("--limit", type=int, help="Only the first N dialogues.")
@click.option(
    "--failures", "show_failures", type=int, default=10, show_default=True, help="Wrong dialogues to list."
)
@_set_option("dialogue_set.jsonl")
@click.pass_obj
def eval_dialogues(
    settings: object, split: str, limit: int | None, show_failures: int, set_path: Path | None
) -> None:
    """Multi-turn follow-ups: decision accuracy per turn, dialogues fully right, per type (offline)."""
    from matjip.commands.evaluate import run_eval_dialogues
    from matjip.settings import Settings

    assert isinstance(settings, Settings)
    run_eval_dialogues(settings, split, limit, show_failures, set_path)


@eval_group.command(name="strategies")
@click.option(
    "--split",
    type=click.Choice(["test", "dev", "all"]),
    default="all",
    show_default=True,
    help="test is the frozen split for reported figures; tune only on dev.",
)
@click.option("--limit", type=int, help="Only the first N questions.")
@click.option(
    "--failures", "show_failures", type=int, default=10, show_default=True, help="Wrong questions to list."
)
@_set_option("strategy_dev.jsonl / strategy_test.jsonl")
@click.pass_obj
def eval_strategies(
    settings: object, split: str, limit: int | None, show_failures: int, set_path: Path | None
) -> None:
    """Seed 003's strategies: route, point travel, course, overseas, cautions (offline)."""
    from matjip.commands.evaluate import run_eval_strategies
    from matjip.settings import Settings

    assert isinstance(settings, Settings)
    run_eval_strategies(settings, split, limit, show_failures, set_path)


@eval_group.command(name="reviews")
@_split_option
@click.option("--limit", type=int, help="Only the first N review texts.")
@click.option(
    "--llm", is_flag=True, help="Use the LLM enricher (MATJIP_LLM_PROVIDER) instead of the offline one."
)
@click.option(
    "--failures", "show_failures", type=int, default=0, show_default=True, help="Imperfect items to list."
)
@_set_option("review_set.jsonl; review_dev2.jsonl is a second development set")
@click.option(
    "--by-place",
    is_flag=True,
    help="Enrich each place with all its reviews and score against the place-level gold "
    "(SET_places.jsonl beside the set, e.g. review_test3.jsonl).",
)
@click.option(
    "--meal-times",
    is_flag=True,
    help="Score 점심/저녁 too (left out by default: the sets label them by two conventions).",
)
@click.pass_obj
def eval_reviews(
    settings: object,
    split: str,
    limit: int | None,
    llm: bool,
    show_failures: int,
    set_path: Path | None,
    by_place: bool,
    meal_times: bool,
) -> None:
    """Review text → convenience/atmosphere/occasion: P/R per field, micro P/R, negation accuracy."""
    from matjip.commands.evaluate import run_eval_reviews
    from matjip.settings import Settings

    assert isinstance(settings, Settings)
    run_eval_reviews(settings, split, limit, llm, show_failures, set_path, by_place, meal_times)


# --- eval search: the structured-search development set ------------------------------------
@eval_group.command(name="search")
@click.option(
    "--fusion",
    type=click.Choice(["rrf", "convex"]),
    help="Override settings.fusion for this run [default: MATJIP_FUSION or rrf].",
)
@click.option(
    "--compare-fusion", is_flag=True, help="Also compare RRF and convex fusion (several weights) on nDCG@5."
)
@click.option("--per-query", is_flag=True, help="List every request with its counts and nDCG@5.")
@click.option(
    "--failures", "show_failures", type=int, default=20, show_default=True, help="Failures to list."
)
@click.pass_obj
def eval_search(
    settings: object, fusion: str | None, compare_fusion: bool, per_query: bool, show_failures: int
) -> None:
    """Hard-constraint precision, recall vs a brute-force scan, nDCG@5 of the semantic part."""
    from matjip.commands.eval_search import run_eval_search
    from matjip.settings import Settings

    assert isinstance(settings, Settings)
    run_eval_search(settings, fusion, compare_fusion, per_query, show_failures)
