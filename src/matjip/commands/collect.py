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

EXIT_QUOTA = 3


def resolve_rect(area: str | None, rect: str | None) -> Rect:
    if bool(area) == bool(rect):
        raise ConfigurationError("--area NAME 또는 --rect LON1,LAT1,LON2,LAT2 중 하나를 주세요")
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
        TextColumn("장소 {task.fields[places]:,} · 호출 {task.fields[calls]:,}"),
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
            console.print(
                f"[yellow]중단됨.[/] {written:,}곳을 {coll.out}에 저장했어요. `--resume` 으로 이어서 하세요."
            )
            sys.exit(130)
        tick()
    report = coll.report(source, client)
    report.written = export(coll.state, coll.out)
    return report, stopped


def _summary(report: RunReport, out: Path, console: Console) -> None:
    console.print(
        f"[bold]{report.source}[/]: 장소 {report.places:,}곳 · 이번 실행 호출 {report.calls_run:,}회 "
        f"(오늘 {report.calls_today:,}회) · 작업 {report.tasks_done:,}/{report.tasks_all:,}"
    )
    console.print(f"{report.written:,}곳 → {out}  (matjip ingest {out})")


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
        raise ConfigurationError(f"--category는 {', '.join(kakao.CATEGORIES)} 중에서: {', '.join(bad)}")
    box = resolve_rect(area, rect)
    coll = Collection(settings, out)
    try:
        client = coll.kakao_client()
        resumed = coll.prepare(
            kakao.SOURCE, kakao_spec(box, categories), lambda: kakao.start_tasks(box, categories), resume
        )
        label = f"Kakao Local {area or box.param()} {','.join(categories)}{' (이어서)' if resumed else ''}"
        collector = kakao.KakaoCollector(client, coll.state, naver.menu_words())
        report, stopped = _run(
            coll, kakao.SOURCE, client, label, lambda tick: _kakao_work(collector, tick), console
        )
        _summary(report, out, console)
        if report.unreached:
            console.print(
                f"[yellow]닿지 못한 곳 {report.unreached:,}곳[/]: 한 지점에 45곳이 넘게 모여 있어 API가 보여 주지 않아요 "
                "(키워드·정렬을 바꿔 물어도 남은 수). 그 지점은 state의 unreached 표에 있어요."
            )
        if with_details and not stopped:
            dclient = coll.detail_client()
            reader = details.DetailReader(dclient, coll.state)
            dreport, stopped = _run(
                coll,
                details.SOURCE,
                dclient,
                "장소 상세 (비공식 Kakao Map 페이지, 초당 1회 이하)",
                lambda tick: _detail_work(reader, tick),
                console,
            )
            console.print(f"상세 읽기 {dclient.calls_this_run:,}회 · {dreport.written:,}곳 → {out}")
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
        raise ConfigurationError(f"--sort는 {', '.join(naver.SORTS)} 중에서: {', '.join(bad)}")
    box = resolve_rect(area, rect) if (area or rect) else None
    if places_file is not None:
        place_names = _read_words(places_file)
    elif box is not None:
        place_names = area_place_names(box)
    else:
        raise ConfigurationError("--area/--rect 또는 --places FILE 을 주세요")
    if not place_names:
        raise ConfigurationError("이 지역 안에 지명 사전의 역·동·명소가 없어요: --places FILE 로 주세요")
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
        label = (
            f"Naver 지역 검색: 장소명 {len(place_names):,} × 메뉴 {len(menus):,} × 정렬 {len(sorts)}"
            f"{' (이어서)' if resumed else ''}"
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
    console.print(f"{read:,}건을 읽어 {written:,}곳으로 합쳤어요 → {out}")
