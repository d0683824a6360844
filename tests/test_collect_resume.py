"""kill -9 at random moments of a real `matjip collect kakao` process, then `--resume` (issue 22).

The Kakao fake runs as its own local server process; the collector is killed with SIGKILL when the
server has answered a random number of calls (five times), then resumed to the end. The output must
hold exactly the places of an uninterrupted run, once each, for at most 10 % more calls.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from fakes.kakao_local import KEY, KakaoLocalFake
from fakes.local_area import AREA
from matjip.collect import kakao, naver
from matjip.collect.area import Rect
from matjip.collect.runner import Collection, export
from matjip.settings import Settings
from support.settings import clear_options

TESTS = Path(__file__).parent
SRC = TESTS.parent / "src"


def _baseline(tmp_path: Path) -> tuple[set[str], int]:
    fake = KakaoLocalFake()
    settings = Settings(
        data_dir=tmp_path / "data", kakao_rest_api_key=KEY, collect_rate_per_s=0, collect_today="2026-03-01"
    )
    coll = Collection(settings, tmp_path / "baseline.jsonl", transport=fake.transport())
    coll.prepare(kakao.SOURCE, "b", lambda: kakao.start_tasks(Rect(*AREA), ["FD6", "CE7"]), resume=False)
    kakao.KakaoCollector(coll.kakao_client(), coll.state, naver.menu_words()).run()
    export(coll.state, coll.out)
    ids = {p.place_id for p in coll.state.places("kakao")}
    coll.close()
    return ids, fake.calls


@pytest.mark.slow
def test_kill9_at_random_moments_then_resume(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clear_options(monkeypatch)
    monkeypatch.chdir(tmp_path)
    expected, baseline_calls = _baseline(tmp_path)
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(SRC), str(TESTS)]),
        "MATJIP_DATA_DIR": str(tmp_path / "data"),
        "KAKAO_REST_API_KEY": KEY,
        "MATJIP_COLLECT_RATE_PER_S": "0",
        "MATJIP_COLLECT_TODAY": "2026-03-01",
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "fakes.kakao_local", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,  # connections cut by the kills are logged there
        text=True,
        env=env,
    )
    try:
        assert server.stdout is not None
        url = server.stdout.readline().strip()
        env["MATJIP_KAKAO_LOCAL_URL"] = url
        out = tmp_path / "area.jsonl"
        cmd = [sys.executable, "-c", "from matjip.cli import main; main()", "collect", "kakao"]
        cmd += ["--rect", ",".join(map(str, AREA)), "--out", str(out)]
        stats = httpx.Client(base_url=url, timeout=5)

        def calls() -> int:
            return int(stats.get("/__stats").json()["calls"])

        rng = random.Random(22)
        kills = sorted(rng.sample(range(10, baseline_calls - 10), 5))
        killed = 0
        for i, at in enumerate(kills):
            proc = subprocess.Popen(
                cmd + (["--resume"] if i else []),
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            while proc.poll() is None and calls() < at:
                time.sleep(rng.uniform(0.001, 0.01))
            if proc.poll() is None:
                os.kill(proc.pid, signal.SIGKILL)
                killed += 1
            proc.wait()
        assert killed == 5
        final = subprocess.run([*cmd, "--resume"], env=env, capture_output=True, text=True, timeout=120)
        assert final.returncode == 0, final.stderr
        ids = [json.loads(line)["place_id"] for line in out.read_text(encoding="utf-8").splitlines()]
        assert len(ids) == len(set(ids))  # no duplicates
        assert set(ids) == expected  # nothing lost
        print(f"kill -9 x{killed}: {calls()} calls vs {baseline_calls} uninterrupted")
        assert calls() <= 1.10 * baseline_calls, (calls(), baseline_calls)
        stats.close()
    finally:
        server.kill()
        server.wait()
