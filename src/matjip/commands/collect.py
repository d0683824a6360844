"""``matjip collect kakao|naver|merge``: grow the data with an operator's API keys (issue 22).

A progress bar shows places found and calls spent; the quota stop and Ctrl-C keep everything
collected (state and JSONL) and say how to continue; a missing or refused key is one line (the CLI
prints :class:`~matjip.errors.CollectKeyError` without a traceback).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
)

from matjip.collect import details, kakao, naver
from matjip.collect.area import Rect, area_place, area_place_names, area_rect
from matjip.collect.client import ApiClient
from matjip.collect.runner import Collection, RunReport, export, kakao_spec, merge_files, naver_spec
from matjip.errors import ConfigurationError, MatjipError, QuotaReached
from matjip.settings import Settings
from matjip.wording import say, text

EXIT_QUOTA = 3


def resolve_rect(area: str | None, rect: str | None) -> Rect:
    if bool(area) == bool(rect):
        raise ConfigurationError(text("cli.collect.area_or_rect"))
    if rect:
        return Rect.parse(rect)
    assert area is not None
    return area_rect(area_place(area))


def _read_words(path: Path) -> list[str]:
    words = [w.strip() for w in path.read_text(encoding="utf-8").splitlines()]
    return list(dict.fromkeys(w for w in words if w and not w.startswith("#")))


def _progress(console: Console) -> Progress:
    return Progress(
        SpinnerColumn(),
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(say("cli.collect.progress")),
        TimeElapsedColumn(),
        console=console,
        transient=True,  # an error (a refused key) stays one line; the summary is printed after
    )


def _run(
    coll: Collection,
    source: str,
    client: ApiClient,
    label: str,
    work: Callable[[Callable[[], None]], None],
    console: Console,
) -> tuple[RunReport, str | None]:
    stopped: str | None = None
    with _progress(console) as bar:
        task = bar.add_task(label, total=None, places=0, calls=0)

        def tick() -> None:
            if source == details.SOURCE:
                done, total = coll.state.detail_counts(kakao.SOURCE)
            else:
                done, total = coll.state.task_counts(source)
            bar.update(
                task,
                completed=done,
                total=total,
                places=coll.state.place_count(source),
                calls=client.calls_this_run,
            )

        tick()
        try:
            work(tick)
        except QuotaReached as exc:
            stopped = str(exc)
        except MatjipError:  # a refused key, an unreachable API: keep what was collected, then say it
            export(coll.state, coll.out)
            raise
        except KeyboardInterrupt:
            bar.stop()
            written = export(coll.state, coll.out)
            console.print(say("cli.collect.interrupted", written=f"{written:,}", out=coll.out))
            sys.exit(130)
        tick()
    report = coll.report(source, client)
    report.written = export(coll.state, coll.out)
    return report, stopped


def _summary(report: RunReport, out: Path, console: Console) -> None:
    console.print(
        say(
            "cli.collect.summary",
            source=report.source,
            places=f"{report.places:,}",
            calls_run=f"{report.calls_run:,}",
            calls_today=f"{report.calls_today:,}",
            tasks_done=f"{report.tasks_done:,}",
            tasks_all=f"{report.tasks_all:,}",
        )
    )
    console.print(say("cli.collect.written", written=f"{report.written:,}", out=out))


def _finish(stopped: str | None, console: Console) -> None:
    if stopped:
        console.print(f"[yellow]{stopped}[/]")
        sys.exit(EXIT_QUOTA)


def run_collect_kakao(
    settings: Settings,
    *,
    area: str | None,
    rect: str | None,
    categories: list[str],
    out: Path,
    resume: bool,
    with_details: bool,
) -> None:
    console = Console(stderr=True)
    bad = [c for c in categories if c not in kakao.CATEGORIES]
    if bad:
        raise ConfigurationError(
            say("cli.collect.bad_category", known=", ".join(kakao.CATEGORIES), bad=", ".join(bad))
        )
    box = resolve_rect(area, rect)
    coll = Collection(settings, out)
    try:
        client = coll.kakao_client()
        resumed = coll.prepare(
            kakao.SOURCE, kakao_spec(box, categories), lambda: kakao.start_tasks(box, categories), resume
        )
        label = say(
            "cli.collect.kakao_label",
            area=area or box.param(),
            categories=",".join(categories),
            resumed=text("cli.collect.resumed") if resumed else "",
        )
        collector = kakao.KakaoCollector(client, coll.state, naver.menu_words())
        report, stopped = _run(
            coll, kakao.SOURCE, client, label, lambda tick: _kakao_work(collector, tick), console
        )
        _summary(report, out, console)
        if report.unreached:
            console.print(say("cli.collect.unreached", n=f"{report.unreached:,}"))
        if with_details and not stopped:
            dclient = coll.detail_client()
            reader = details.DetailReader(dclient, coll.state)
            dreport, stopped = _run(
                coll,
                details.SOURCE,
                dclient,
                text("cli.collect.details_label"),
                lambda tick: _detail_work(reader, tick),
                console,
            )
            console.print(
                say(
                    "cli.collect.details_done",
                    calls=f"{dclient.calls_this_run:,}",
                    written=f"{dreport.written:,}",
                    out=out,
                )
            )
        _finish(stopped, console)
    finally:
        coll.close()


def _kakao_work(collector: kakao.KakaoCollector, tick: Callable[[], None]) -> None:
    collector.progress = tick
    collector.run()


def _detail_work(reader: details.DetailReader, tick: Callable[[], None]) -> None:
    reader.progress = tick
    reader.run()


def run_collect_naver(
    settings: Settings,
    *,
    area: str | None,
    rect: str | None,
    places_file: Path | None,
    menus_file: Path | None,
    sorts: list[str],
    out: Path,
    resume: bool,
) -> None:
    console = Console(stderr=True)
    bad = [s for s in sorts if s not in naver.SORTS]
    if bad:
        raise ConfigurationError(
            say("cli.collect.bad_sort", known=", ".join(naver.SORTS), bad=", ".join(bad))
        )
    box = resolve_rect(area, rect) if (area or rect) else None
    if places_file is not None:
        place_names = _read_words(places_file)
    elif box is not None:
        place_names = area_place_names(box)
    else:
        raise ConfigurationError(text("cli.collect.area_or_places"))
    if not place_names:
        raise ConfigurationError(text("cli.collect.no_places_in_area"))
    menus = _read_words(menus_file) if menus_file is not None else naver.menu_words()
    coll = Collection(settings, out)
    try:
        client = coll.naver_client()
        resumed = coll.prepare(
            naver.SOURCE,
            naver_spec(box, place_names, menus, sorts),
            lambda: naver.query_tasks(place_names, menus, tuple(sorts)),
            resume,
        )
        label = say(
            "cli.collect.naver_label",
            places=f"{len(place_names):,}",
            menus=f"{len(menus):,}",
            sorts=len(sorts),
            resumed=text("cli.collect.resumed") if resumed else "",
        )
        collector = naver.NaverCollector(client, coll.state, box)
        report, stopped = _run(
            coll, naver.SOURCE, client, label, lambda tick: _naver_work(collector, tick), console
        )
        _summary(report, out, console)
        _finish(stopped, console)
    finally:
        coll.close()


def _naver_work(collector: naver.NaverCollector, tick: Callable[[], None]) -> None:
    collector.progress = tick
    collector.run()


def run_collect_merge(paths: list[Path], out: Path) -> None:
    console = Console(stderr=True)
    read, written = merge_files(paths, out)
    console.print(say("cli.collect.merged", read=f"{read:,}", written=f"{written:,}", out=out))
