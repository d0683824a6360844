"""Benchmark ``matjip serve``: turns/s and time to first answer chunk under concurrent sessions.

Starts ``matjip serve`` on a free loopback port (a subprocess, rate limit off), warms it up,
then for each concurrency level runs that many sessions at once, each streaming ``POST /v1/chat``
turns, and prints a table: turns/s, p50/p95 time to the first ``answer`` event and p50/p95 time to
``end``, and the CPU time per turn of the client and of the server's processes.

The load generator runs on the same cores as the server, so it is kept lean: one keep-alive
connection per session over asyncio streams (~0.8 ms of CPU per turn; ``--client httpx``, the
earlier generator, takes ~2.7 ms, which alone caps a 1 → 2 worker ratio on two cores near 1.7×).
``--seconds S`` measures each session count over a fixed window (turns ended inside it / S), so a
worker that got fewer keep-alive connections does not sit idle at the end of the level while the
other finishes its sessions' last turns (``SO_REUSEPORT`` spreads connections by a hash, not by load).

    .venv/bin/python bench/serve.py                       # the default data dir (run `matjip ingest` first)
    .venv/bin/python bench/serve.py --data-dir /tmp/data --turns 20 --levels 1,8,32
    .venv/bin/python bench/serve.py --url http://127.0.0.1:8000   # an already running server
    .venv/bin/python bench/serve.py --workers 1,2         # `serve --workers 1`, then 2: side by side
    .venv/bin/python bench/serve.py --workers 1,2 --seconds 15 --rounds 3   # the issue-23 figures

Under the table, per session count and per worker process (the ``X-Matjip-Worker`` header): its
keep-alive connections, the turns it served, the cores it used and its CPU ms per turn — how evenly
``SO_REUSEPORT`` spread the sessions, in figures that do not depend on the machine's load.

With ``--workers 1,2`` the same levels run against ``matjip serve --workers 1`` and then
``--workers 2`` (each started, warmed up, measured and stopped in turn, in this one run), and a last
table puts turns/s and the first-chunk p50/p95 side by side with the ratio to the first count.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import httpx

QUESTIONS = [
    "강남역 일식 맛집",
    "홍대 근처 주차되는 고기집",
    "을지로 노포 술집 추천해줘",
    "성수동 브런치 카페",
    "잠실역 근처 2만원 이하 파스타",
    "종로 국밥집",
    "여의도 회식 장소",
    "신촌 혼밥하기 좋은 곳",
    "이태원 분위기 좋은 양식당",
    "건대입구 마라탕",
    "판교 점심 맛집",
    "수원역 냉면",
]

TurnCall = Callable[[str, "str | None"], Awaitable[tuple[float | None, float, "str | None"]]]


@dataclass
class Level:
    concurrency: int
    turns: int = 0
    errors: int = 0
    seconds: float = 0.0
    first_chunk_ms: list[float] = field(default_factory=list)
    total_ms: list[float] = field(default_factory=list)
    cpu_client: float = 0.0  # CPU seconds this benchmark's client spent during the level
    cpu_server: float = 0.0  # … and the server's processes (0 for --url)
    # per worker pid (the X-Matjip-Worker header): sessions whose connection landed on it, counted
    # turns it served, and its process's CPU seconds during the level
    sessions_by_worker: dict[str, int] = field(default_factory=dict)
    turns_by_worker: dict[str, int] = field(default_factory=dict)
    cpu_by_worker: dict[str, float] = field(default_factory=dict)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serve(data_dir: Path | None, workers: int = 1) -> Iterator[tuple[str, int]]:
    """A started ``matjip serve``: (its base URL, the supervisor's or single process's pid)."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("MATJIP_HOST", "MATJIP_PORT")}
    env["MATJIP_RATE_LIMIT_PER_MINUTE"] = "0"
    if data_dir is not None:
        env["MATJIP_DATA_DIR"] = str(data_dir)
    log = tempfile.NamedTemporaryFile(prefix="matjip-serve-", suffix=".log", delete=False)  # noqa: SIM115
    cmd = [
        sys.executable,
        "-c",
        "from matjip.cli import main; main()",
        "serve",
        "--port",
        str(port),
        "--no-access-log",
        "--workers",
        str(workers),
    ]
    proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    ready: set[object] = set()
    try:
        deadline = time.monotonic() + 180
        while True:
            if proc.poll() is not None:
                raise SystemExit(f"matjip serve exited ({proc.returncode}); log: {log.name}")
            try:
                health = httpx.get(base + "/health", timeout=2).json()
                if health.get("index_loaded"):
                    ready.add(health.get("worker_pid"))
                if len(ready) >= workers:  # every worker answered (each loads its own agent)
                    print(
                        f"server ready: {base}, {workers} worker(s) ({health.get('documents'):,} documents, "
                        f"embedder {health.get('embedder')})"
                    )
                    break
                if health.get("detail") and time.monotonic() > deadline - 170:
                    raise SystemExit(f"server has no index: {health['detail']}")
            except (httpx.HTTPError, ValueError):
                pass
            if time.monotonic() > deadline:
                raise SystemExit(f"matjip serve did not become ready; log: {log.name}")
            time.sleep(0.2)
        yield base, proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


async def turn(
    client: httpx.AsyncClient, question: str, session_id: str | None
) -> tuple[float | None, float, str | None]:
    """One streamed turn: (ms to first answer chunk, ms to end, session id)."""
    body: dict[str, object] = {"message": question}
    if session_id:
        body["session_id"] = session_id
    started = time.perf_counter()
    first: float | None = None
    event = ""
    async with client.stream("POST", "/v1/chat", json=body, headers={"Accept": "text/event-stream"}) as resp:
        if resp.status_code != 200:
            await resp.aread()
            raise RuntimeError(f"HTTP {resp.status_code}: {resp.text[:200]}")
        async for line in resp.aiter_lines():
            if line.startswith("event: "):
                event = line[7:]
                if event == "answer" and first is None:
                    first = (time.perf_counter() - started) * 1000
                elif event == "error":
                    raise RuntimeError("error event")
            elif line.startswith("data: ") and event == "session" and session_id is None:
                session_id = json.loads(line[6:])["session_id"]
    return first, (time.perf_counter() - started) * 1000, session_id


class RawClient:
    """A lean HTTP/1.1 keep-alive client for ``POST /v1/chat`` over asyncio streams, one connection
    per session (the load generator should not compete with the server for the same two cores:
    httpx costs ~2.7 ms of CPU per streamed turn here, this ~0.5 ms). Reads the chunked SSE body as
    it arrives; knows only what this benchmark needs."""

    def __init__(self, base: str) -> None:
        url = httpx.URL(base)
        self.host, self.port = url.host, url.port or 80
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self.worker = ""  # the X-Matjip-Worker of the last response (the pid that served it)

    async def _connect(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        if self._reader is None or self._writer is None or self._writer.is_closing():
            self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
        return self._reader, self._writer

    async def aclose(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._reader = self._writer = None

    async def turn(self, question: str, session_id: str | None) -> tuple[float | None, float, str | None]:
        body: dict[str, object] = {"message": question}
        if session_id:
            body["session_id"] = session_id
        payload = json.dumps(body, ensure_ascii=False).encode()
        head = (
            f"POST /v1/chat HTTP/1.1\r\nHost: {self.host}:{self.port}\r\nAccept: text/event-stream\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n\r\n"
        ).encode()
        started = time.perf_counter()
        reader, writer = await self._connect()
        writer.write(head + payload)
        status = (await reader.readuntil(b"\r\n")).split(b" ", 2)
        headers = (await reader.readuntil(b"\r\n\r\n")).lower()
        self.worker = _header(headers, b"x-matjip-worker")
        if status[1] != b"200" or b"transfer-encoding: chunked" not in headers:
            await self.aclose()
            raise RuntimeError(f"HTTP {status[1].decode()}")
        first: float | None = None
        event = b""
        pending = b""
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            chunk = await reader.readexactly(size + 2)
            if size == 0:
                break
            pending += chunk[:-2]
            *lines, pending = pending.split(b"\n")
            for line in lines:
                if line.startswith(b"event: "):
                    event = line[7:].strip()
                    if event == b"answer" and first is None:
                        first = (time.perf_counter() - started) * 1000
                    elif event == b"error":
                        raise RuntimeError("error event")
                elif line.startswith(b"data: ") and event == b"session" and session_id is None:
                    session_id = json.loads(line[6:])["session_id"]
        return first, (time.perf_counter() - started) * 1000, session_id


def _header(head: bytes, name: bytes) -> str:
    """A (lower-cased) response header's value, "" without it."""
    for line in head.split(b"\r\n"):
        key, _, value = line.partition(b":")
        if key.strip() == name:
            return value.strip().decode()
    return ""


async def session(
    ask: TurnCall,
    n: int,
    turns: int,
    level: Level,
    until: float | None = None,
    raw: RawClient | None = None,
) -> None:
    """``turns`` turns one after the other, or (``until``, a ``perf_counter`` deadline) as many as
    end before the deadline: a turn still running then is finished but not counted."""
    sid: str | None = None
    t = 0
    while (t < turns) if until is None else (time.perf_counter() < until):
        question = QUESTIONS[(n * 7 + t) % len(QUESTIONS)]
        t += 1
        try:
            first, total, sid = await ask(question, sid)
        except Exception as exc:  # count and continue: the table reports errors
            level.errors += 1
            if level.errors <= 3:
                print(f"  error: {exc}", file=sys.stderr)
            continue
        if until is not None and time.perf_counter() > until:
            break
        level.turns += 1
        level.total_ms.append(total)
        if first is not None:
            level.first_chunk_ms.append(first)
        if raw is not None:
            level.turns_by_worker[raw.worker] = level.turns_by_worker.get(raw.worker, 0) + 1
    if raw is not None:  # one keep-alive connection per session: it stayed on one worker
        level.sessions_by_worker[raw.worker] = level.sessions_by_worker.get(raw.worker, 0) + 1


async def run_level(
    base: str,
    concurrency: int,
    turns: int,
    seconds: float | None = None,
    server: int | None = None,
    client: str = "raw",
) -> Level:
    """One session count: every session at once; with ``seconds``, a fixed window (turns/s = turns
    that ended inside it / its length), else ``turns`` each (turns/s = all turns / time to the last).
    The CPU time of this client and of the server's processes (``server``: its pid) is recorded."""
    level = Level(concurrency)
    limits = httpx.Limits(max_connections=concurrency + 4, max_keepalive_connections=concurrency + 4)
    raws = [RawClient(base) for _ in range(concurrency)] if client == "raw" else []
    async with httpx.AsyncClient(base_url=base, timeout=120, limits=limits) as shared:
        asks: list[TurnCall] = [r.turn for r in raws] or [partial(turn, shared)] * concurrency
        cpu_client, cpu_server, cpu_workers = _cpu_self(), _cpu_tree(server), _cpu_by_pid(server)
        started = time.perf_counter()
        until = started + seconds if seconds else None
        await asyncio.gather(
            *(session(asks[n], n, turns, level, until, raws[n] if raws else None) for n in range(concurrency))
        )
        level.seconds = (seconds or 0.0) or (time.perf_counter() - started)
        level.cpu_client = _cpu_self() - cpu_client
        level.cpu_server = _cpu_tree(server) - cpu_server
        level.cpu_by_worker = {
            pid: cpu - cpu_workers.get(pid, 0.0) for pid, cpu in _cpu_by_pid(server).items()
        }
    for r in raws:
        await r.aclose()
    return level


def _cpu_self() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _cpu_tree(pid: int | None) -> float:
    """User + system CPU seconds of a process and its children (0 without psutil or a pid)."""
    if pid is None:
        return 0.0
    try:
        import psutil
    except ImportError:
        return 0.0
    total = 0.0
    try:
        root = psutil.Process(pid)
        for proc in [root, *root.children(recursive=True)]:
            try:
                times = proc.cpu_times()
                total += times.user + times.system
            except psutil.Error:
                continue
    except psutil.Error:
        return 0.0
    return total


def _cpu_by_pid(pid: int | None) -> dict[str, float]:
    """User + system CPU seconds of each process of the server (the supervisor and its workers),
    by pid as the X-Matjip-Worker header names them ({} without psutil or a pid)."""
    if pid is None:
        return {}
    try:
        import psutil
    except ImportError:
        return {}
    out: dict[str, float] = {}
    try:
        root = psutil.Process(pid)
        for proc in [root, *root.children(recursive=True)]:
            try:
                times = proc.cpu_times()
                out[str(proc.pid)] = times.user + times.system
            except psutil.Error:
                continue
    except psutil.Error:
        return {}
    return out


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(p) - 1]


def rate(lv: Level) -> float:
    return lv.turns / lv.seconds if lv.seconds else 0.0


def median_levels(rounds: list[list[Level]]) -> list[Level]:
    """Per session count, the round whose turns/s is the median (the lower one of an even count)."""
    out = []
    for i in range(len(rounds[0])):
        ranked = sorted((r[i] for r in rounds), key=rate)
        out.append(ranked[(len(ranked) - 1) // 2])
    return out


def compare(runs: dict[int, list[Level]]) -> None:
    """Turns/s and first-chunk p50/p95 per session count, side by side for each worker count,
    with the ratio of turns/s to the first worker count."""
    counts = list(runs)
    base = counts[0]
    head = f"{'sessions':>8} " + " ".join(
        f"{f'turns/s w{w}':>12} {f'first p50/p95 w{w}':>20}" for w in counts
    )
    head += "".join(f" {f'ratio w{w}/w{base}':>13}" for w in counts[1:])
    print()
    print(head)
    print("-" * len(head))
    for i, lv0 in enumerate(runs[base]):
        line = f"{lv0.concurrency:>8} "
        line += " ".join(
            f"{rate(runs[w][i]):>12.1f} "
            f"{f'{pct(runs[w][i].first_chunk_ms, 50):.0f} / {pct(runs[w][i].first_chunk_ms, 95):.0f} ms':>20}"
            for w in counts
        )
        for w in counts[1:]:
            r0 = rate(lv0)
            line += f" {(rate(runs[w][i]) / r0 if r0 else float('nan')):>12.2f}×"
        print(line)


def report(levels: list[Level]) -> None:
    head = (
        f"{'sessions':>8} {'turns':>6} {'errors':>6} {'turns/s':>8} {'first p50':>10} {'first p95':>10} "
        f"{'end p50':>9} {'end p95':>9} {'CPU ms/turn client':>18} {'server':>7}"
    )
    print()
    print(head)
    print("-" * len(head))
    for lv in levels:
        rate = lv.turns / lv.seconds if lv.seconds else 0.0
        print(
            f"{lv.concurrency:>8} {lv.turns:>6} {lv.errors:>6} {rate:>8.1f} "
            f"{pct(lv.first_chunk_ms, 50):>8.1f}ms {pct(lv.first_chunk_ms, 95):>8.1f}ms "
            f"{pct(lv.total_ms, 50):>7.1f}ms {pct(lv.total_ms, 95):>7.1f}ms "
            f"{_per_turn(lv.cpu_client, lv):>18.1f} {_per_turn(lv.cpu_server, lv):>7.1f}"
        )
    for lv in levels:
        if lv.sessions_by_worker:
            print(f"{lv.concurrency:>8} sessions: {per_worker(lv)}")
    print(
        "\nfirst = time to the first `answer` event; end = time to the `end` event (client side, loopback);"
        "\nCPU ms/turn = user + system CPU time of this client / of the server's processes per counted turn."
    )


def per_worker(lv: Level) -> str:
    """Per worker process: its sessions (keep-alive connections), the turns it served, its cores
    used (CPU seconds / the level's seconds) and its CPU ms per turn it served."""
    parts = []
    for pid in sorted(lv.sessions_by_worker):
        turns = lv.turns_by_worker.get(pid, 0)
        cpu = lv.cpu_by_worker.get(pid)
        cores = f"{cpu / lv.seconds:.2f} cores" if cpu is not None and lv.seconds else "? cores"
        per = f"{cpu * 1000 / turns:.1f} ms/turn" if cpu is not None and turns else "? ms/turn"
        parts.append(f"[{pid}] {lv.sessions_by_worker[pid]} conn, {turns} turns, {cores}, {per}")
    # the server's other processes: the supervisor and its session writer (`--workers N`, N > 1)
    others = sum(cpu for pid, cpu in lv.cpu_by_worker.items() if pid not in lv.sessions_by_worker)
    if lv.cpu_by_worker.keys() - lv.sessions_by_worker.keys() and lv.seconds and lv.turns:
        parts.append(
            f"others (supervisor, session writer) {others / lv.seconds:.2f} cores, "
            f"{others * 1000 / lv.turns:.2f} ms/turn"
        )
    return "; ".join(parts)


def _per_turn(cpu_seconds: float, lv: Level) -> float:
    return cpu_seconds * 1000 / lv.turns if lv.turns else float("nan")


async def bench(
    base: str,
    levels: list[int],
    turns: int,
    warmup: int,
    seconds: float | None = None,
    server: int | None = None,
    client: str = "raw",
) -> list[Level]:
    print(f"warm-up: {warmup} turns")
    await run_level(base, 2, max(1, warmup // 2), client=client)
    out = []
    for c in levels:
        lv = await run_level(base, c, turns, seconds, server, client)
        what = f"{seconds:g} s" if seconds else f"{turns} turns"
        print(f"  {c} sessions × {what}: {lv.turns / lv.seconds:.1f} turns/s")
        out.append(lv)
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--data-dir", type=Path, help="MATJIP_DATA_DIR for the server (default: the environment's)"
    )
    ap.add_argument("--url", help="Benchmark this running server instead of starting one")
    ap.add_argument("--levels", default="1,8,32", help="Comma-separated session counts (default 1,8,32)")
    ap.add_argument("--turns", type=int, default=12, help="Turns per session (default 12)")
    ap.add_argument("--warmup", type=int, default=8, help="Warm-up turns (default 8)")
    ap.add_argument(
        "--seconds",
        type=float,
        default=None,
        help="Measure each session count over a fixed window of this many seconds (turns/s = turns ended "
        "inside it) instead of --turns per session",
    )
    ap.add_argument(
        "--client",
        choices=("raw", "httpx"),
        default="raw",
        help="The load generator: a lean asyncio HTTP/1.1 client (default) or httpx (~5x its CPU per turn)",
    )
    ap.add_argument(
        "--rounds", type=int, default=1, help="Measure each worker count this many times (default 1)"
    )
    ap.add_argument(
        "--workers",
        default="1",
        help="Comma-separated `matjip serve --workers` counts, each measured in turn (default 1)",
    )
    args = ap.parse_args(argv)
    levels = [int(x) for x in args.levels.split(",") if x.strip()]
    if args.url:
        report(
            asyncio.run(
                bench(args.url.rstrip("/"), levels, args.turns, args.warmup, args.seconds, None, args.client)
            )
        )
        return
    counts = [int(x) for x in args.workers.split(",") if x.strip()]
    rounds: dict[int, list[list[Level]]] = {w: [] for w in counts}
    for r in range(args.rounds):  # the worker counts alternate, so a busy moment hits each alike
        for workers in counts:
            print(f"\n== matjip serve --workers {workers} (round {r + 1} of {args.rounds})")
            with serve(args.data_dir, workers) as (base, pid):
                levels_run = bench(base, levels, args.turns, args.warmup, args.seconds, pid, args.client)
                rounds[workers].append(asyncio.run(levels_run))
            report(rounds[workers][-1])
    runs = {w: median_levels(rounds[w]) for w in counts}
    if len(runs) > 1 or args.rounds > 1:
        print(f"\nper session count, the round with the median turns/s of {args.rounds}:")
        compare(runs)


if __name__ == "__main__":
    main()
