"""Agent benchmark: per-turn latency of the offline agent, after warm-up.

    .venv/bin/python bench/agent.py [--n 100000] [--turns 300]

Runs the development set's single-turn queries through the whole graph (NLU, plan, search,
grading, answer) on the demo data and on ``--n`` documents (the demo replicated with new ids and
jittered coordinates), and reports p50/p95 per turn. The baseline, run in the same process on the
same questions, is the bare index search for each turn's validated plan, so the ratio shows what
the agent adds on top of retrieval. Sessions are kept in memory. Target: p95 <= 50 ms at 100k.

Seed 003's strategies (issue 14): route, course and point-travel turns are timed next to radius
turns in the same run, interleaved (``--strategy-rounds`` rounds of each question), and their p95
reported as a ratio to the radius turns' p95. Target: route and course within 3× of radius.
``--strategies-only`` skips the development-set turns.

The agent runs as ``matjip serve`` runs it: the nodes in the turn's thread (``sequential``) and
``warm()`` called once before the warm-up turns (the substring-search texts, opening hours by
day, price buckets, the embedder's vocabulary table). ``--cold`` measures as the earlier rounds
did: LangGraph's runtime and no ``warm()``, so the first turns that need one of those structures
build it inside the timed turn.

After each measurement it prints the process's peak resident set (``VmHWM``) and the current one
split into anonymous memory and mapped file pages (issue 23: RSS ≤ 2 GB at 1M).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from matjip.agent.plan import to_requests
from matjip.agent.service import Agent
from matjip.eval.agent_eval import DEFAULT_GPS, load_jsonl, query_text
from matjip.settings import Settings

WORK = Path(os.environ.get("MATJIP_BENCH_DIR", "/tmp/matjip-bench"))


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))] if s else 0.0


def prepare(data_dir: Path, n: int | None) -> Settings:
    """A data dir with a store and an index of the demo data (n=None) or of n documents."""
    from matjip.index import build_index
    from matjip.index.sync import write_state
    from matjip.ingest.store import DocumentStore
    from search import demo_documents, replicate  # bench/search.py

    settings = Settings(data_dir=data_dir)
    if (settings.index_dir / "meta.json").exists() and settings.store_path.exists():
        return settings
    docs = demo_documents(WORK)
    if n is not None:
        docs = replicate(docs, n)
    store = DocumentStore(settings.store_path)
    for i in range(0, len(docs), 5000):
        store.write_batch([(d, "bench", "bench", 0) for d in docs[i : i + 5000]])
    print(f"  building the index of {len(docs):,} documents in {data_dir} …", file=sys.stderr, flush=True)
    build_index(settings, docs)
    write_state(settings, store)
    store.close()
    return settings


def memory() -> str:
    """The process's peak and current resident set, and the current one's anonymous and file-backed
    parts (``/proc/self/status``; empty elsewhere): the index's mapped files count in ``RssFile``.
    GB as ``/usr/bin/time``'s maximum resident set size / 10^6, as the README's figures."""
    try:
        lines = Path("/proc/self/status").read_text().splitlines()
    except OSError:
        return ""
    kb = {k: int(v.split()[0]) for k, _, v in (x.partition(":") for x in lines) if v.strip().endswith("kB")}
    return " · ".join(
        f"{name} {kb[name] / 1e6:.2f} GB" for name in ("VmHWM", "VmRSS", "RssAnon", "RssFile") if name in kb
    )


def open_agent(settings: Settings, cold: bool) -> Agent:
    """The agent as ``matjip serve`` opens it, or (``cold``) as the earlier rounds measured it."""
    agent = Agent(settings, persist=False, sequential=not cold)
    if not cold:
        agent.warm()
    return agent


def measure(label: str, settings: Settings, turns: int, cold: bool) -> None:
    agent = open_agent(settings, cold)
    items = [i for i in load_jsonl("agent_set.jsonl") if i.get("query")][:turns]
    for item in items[:20]:  # warm-up: Kiwi, caches, numpy
        agent.ask(query_text(item))
    agent_ms: list[float] = []
    cpu_ms: list[float] = []  # the process's CPU per turn: what a loaded machine inflates least
    search_ms: list[float] = []
    for i, item in enumerate(items):
        gps = item.get("location") or (DEFAULT_GPS if item.get("user_location") else None)
        c, t = time.process_time(), time.perf_counter()
        result = agent.ask(query_text(item), f"bench-{i}", gps)
        agent_ms.append((time.perf_counter() - t) * 1000)
        cpu_ms.append((time.process_time() - c) * 1000)
        if result.plan is not None and result.searched:
            t = time.perf_counter()
            for req in to_requests(result.plan):
                agent.resources.index.search(req)
            search_ms.append((time.perf_counter() - t) * 1000)
    a50, a95 = statistics.median(agent_ms), pct(agent_ms, 0.95)
    s50, s95 = (statistics.median(search_ms), pct(search_ms, 0.95)) if search_ms else (0.0, 0.0)
    print(
        f"{label:<10} {agent.resources.index.count():>8,} docs | turn p50 {a50:6.1f} ms  p95 {a95:6.1f} ms"
        f" | search-only p50 {s50:5.1f} ms  p95 {s95:5.1f} ms | turn/search p50 ×{a50 / max(s50, 1e-9):.1f}"
        f" | turn CPU p50 {statistics.median(cpu_ms):5.1f} ms  p95 {pct(cpu_ms, 0.95):6.1f} ms"
        f" | {len(agent_ms)} turns"
    )
    print(f"{label:<10} memory after the turns: {memory()}")
    agent.close()


STRATEGY_TURNS: dict[str, list[str]] = {
    "radius": ["잠실역 근처 카페", "강남역 국밥집", "홍대입구역 근처 술집", "잠실역 고깃집", "천호역 중국집"],
    "route": [
        "잠실역에서 강남역 가는 길에 카페",
        "강남역에서 판교역 가는 길에 해장국",
        "천호역에서 잠실역 가는 길에 국밥",
        "홍대입구역이랑 합정역 사이에 술집",
        "건대입구역에서 잠실역 가는 길에 고깃집",
    ],
    "course": [
        "잠실에서 점심-카페-저녁 코스 짜줘",
        "홍대 반나절 데이트 코스",
        "강남역 점심-디저트 코스",
        "천호역 저녁먹고 2차 술집까지 코스",
        "건대 1박2일 먹방 코스",
    ],
    "travel": [
        "잠실역에서 걸어서 10분 이내 카페",
        "강남역에서 차로 15분 고깃집",
        "홍대입구역에서 2km 이내 라멘",
        "천호역 도보 7분 국밥",
        "건대입구역에서 대중교통으로 20분 이내 이자카야",
    ],
}


def measure_strategies(label: str, settings: Settings, rounds: int, cold: bool) -> None:
    """Route, course and point-travel turns next to radius turns, interleaved, in one process."""
    agent = open_agent(settings, cold)
    for turns in STRATEGY_TURNS.values():  # warm-up
        for q in turns:
            agent.ask(q)
    times: dict[str, list[float]] = {k: [] for k in STRATEGY_TURNS}
    for r in range(rounds):
        for i in range(max(len(v) for v in STRATEGY_TURNS.values())):
            for kind, turns in STRATEGY_TURNS.items():
                if i < len(turns):
                    t = time.perf_counter()
                    agent.ask(turns[i], f"strategy-{kind}-{r}-{i}")
                    times[kind].append((time.perf_counter() - t) * 1000)
    base95 = pct(times["radius"], 0.95)
    for kind, xs in times.items():
        p95 = pct(xs, 0.95)
        print(
            f"{label:<10} {agent.resources.index.count():>8,} docs | {kind:<7} turn p50 {statistics.median(xs):6.1f} ms"
            f"  p95 {p95:6.1f} ms | p95 / radius p95 ×{p95 / max(base95, 1e-9):.2f} | {len(xs)} turns"
        )
    agent.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--turns", type=int, default=300)
    ap.add_argument("--strategy-rounds", type=int, default=6)
    ap.add_argument("--strategies-only", action="store_true")
    ap.add_argument("--cold", action="store_true", help="LangGraph's runtime, no warm() (earlier rounds)")
    args = ap.parse_args()
    print(f"agent: {'LangGraph runtime, no warm()' if args.cold else 'as matjip serve: sequential, warm()'}")
    demo = prepare(WORK / "agent-demo", None)
    big = prepare(WORK / f"agent-{args.n}", args.n)
    if not args.strategies_only:
        measure("demo", demo, args.turns, args.cold)
        measure(f"{args.n // 1000}k", big, args.turns, args.cold)
    if args.strategy_rounds > 0:  # 0: the development-set turns only
        measure_strategies("demo", demo, args.strategy_rounds, args.cold)
        measure_strategies(f"{args.n // 1000}k", big, args.strategy_rounds, args.cold)


if __name__ == "__main__":
    main()
