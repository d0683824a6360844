"""``bench/serve.py``'s bookkeeping: every counted turn has its first-chunk time, and the sessions
and turns of each worker (the ``X-Matjip-Worker`` header) are counted."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[1] / "bench" / "serve.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_serve", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_serve"] = module
    spec.loader.exec_module(module)
    return module


def test_every_counted_turn_has_its_first_chunk_and_its_worker() -> None:
    bench = _bench()
    level = bench.Level(2)
    clients = [bench.RawClient("http://127.0.0.1:1"), bench.RawClient("http://127.0.0.1:1")]
    clients[0].worker, clients[1].worker = "101", "202"
    firsts = iter([5.0, 6.0, 7.0, 8.0, 9.0, 10.0])

    def asker(n: int) -> Callable[[str, str | None], Awaitable[tuple[float | None, float, str | None]]]:
        async def ask(question: str, sid: str | None) -> tuple[float | None, float, str | None]:
            first = next(firsts)
            return first, first + 1.0, "s"

        return ask

    async def main() -> None:
        await asyncio.gather(*(bench.session(asker(n), n, 3, level, None, clients[n]) for n in range(2)))

    asyncio.run(main())
    assert level.turns == 6
    assert sorted(level.first_chunk_ms) == [5.0, 6.0, 7.0, 8.0, 9.0, 10.0]
    assert sorted(level.total_ms) == [6.0, 7.0, 8.0, 9.0, 10.0, 11.0]
    assert level.sessions_by_worker == {"101": 1, "202": 1}
    assert level.turns_by_worker == {"101": 3, "202": 3}
