"""Benchmark the cold start of ``matjip ask`` against a bare Kiwi load, in the same run.

Each round runs, one after the other (interleaved, so machine load hits them alike), fresh
processes of:

- ``kiwi``: Python importing kiwipiepy, loading Kiwi and analysing one word (the baseline: what
  any Korean analysis costs; ``num_workers=-1`` as matjip loads it; Kiwi loads its model on the
  first analysis, so a Kiwi that has analysed nothing is not loaded yet);
- ``kiwi (construct)``: the same without the analysis, for reference;
- ``ask (local)``: ``matjip ask QUESTION --local``, the whole answer in a cold process;
- ``ask (serve up)``: ``matjip ask QUESTION`` while a ``matjip serve`` over the same data is up
  (started once by this script on a free port, warmed, outside the timings).

It prints medians, min/max and each ``ask`` median as a ratio of the Kiwi median. The issue-16
target is ``ask ≤ 1.6 × kiwi``.

    .venv/bin/python bench/ask.py                          # the default data dir (`matjip ingest` first)
    .venv/bin/python bench/ask.py --data-dir /tmp/data --rounds 7 --question "잠실역 치킨집"
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx

KIWI_SNIPPET = "from kiwipiepy import Kiwi; Kiwi(num_workers=-1).tokenize('맛집')"
KIWI_CONSTRUCT_SNIPPET = "from kiwipiepy import Kiwi; Kiwi(num_workers=-1)"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def timed(cmd: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    done = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{done.stderr.decode(errors='replace')}")
    return elapsed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data-dir", type=Path, help="MATJIP_DATA_DIR (default: the settings' data dir)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--question", default="강남역 일식 맛집")
    ap.add_argument("--no-serve", action="store_true", help="skip the 'serve up' measurement")
    args = ap.parse_args()

    env = {k: v for k, v in os.environ.items() if not k.startswith("MATJIP_")}
    if args.data_dir:
        env["MATJIP_DATA_DIR"] = str(args.data_dir)
    elif os.environ.get("MATJIP_DATA_DIR"):
        env["MATJIP_DATA_DIR"] = os.environ["MATJIP_DATA_DIR"]
    env["MATJIP_LLM_PROVIDER"] = "none"
    port = free_port()
    env["MATJIP_PORT"] = str(port)  # `ask --local` ignores it; `ask` finds the server there
    py = sys.executable
    matjip = [py, "-c", "from matjip.cli import main; main()"]
    kiwi_cmd = [py, "-c", KIWI_SNIPPET]
    construct_cmd = [py, "-c", KIWI_CONSTRUCT_SNIPPET]
    local_cmd = [*matjip, "ask", args.question, "--local"]
    remote_cmd = [*matjip, "ask", args.question]

    # one untimed run of each: the OS file cache holds the model and the index afterwards
    timed(kiwi_cmd, env)
    timed(local_cmd, env)

    server = None
    if not args.no_serve:
        server = subprocess.Popen(
            [*matjip, "serve", "--no-access-log"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 180
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/health", timeout=2).json().get("index_loaded"):
                    break
            except (httpx.HTTPError, ValueError):
                pass
            if time.monotonic() > deadline or server.poll() is not None:
                raise SystemExit("matjip serve did not come up")
            time.sleep(0.5)
        timed(remote_cmd, env)  # warm-up turn
    results: dict[str, list[float]] = {
        "kiwi": [],
        "kiwi (construct)": [],
        "ask (local)": [],
        "ask (serve up)": [],
    }
    try:
        for _ in range(args.rounds):
            results["kiwi"].append(timed(kiwi_cmd, env))
            results["kiwi (construct)"].append(timed(construct_cmd, env))
            results["ask (local)"].append(timed(local_cmd, env))
            if server is not None:
                results["ask (serve up)"].append(timed(remote_cmd, env))
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=30)

    base = statistics.median(results["kiwi"])
    print(f"question: {args.question!r}, rounds: {args.rounds}, cores: {os.cpu_count()}")
    print(f"{'what':<18} {'median s':>9} {'min s':>7} {'max s':>7} {'× kiwi':>7}")
    for name, xs in results.items():
        if not xs:
            continue
        med = statistics.median(xs)
        print(f"{name:<18} {med:>9.2f} {min(xs):>7.2f} {max(xs):>7.2f} {med / base:>7.2f}")
    print("target: ask ≤ 1.60 × kiwi")


if __name__ == "__main__":
    main()
