"""kill -9 during full rebuilds and incremental ingests, then open the index: it must be the old
version or the new one, never broken (issue 13, defect 5).

    .venv/bin/python scripts/index_crash_trials.py [--trials 20] [--every 10] [--embedder hash]

Prepares a private data dir (every ``--every``-th demo record, ingested and indexed), then per
trial starts a child process — a full rebuild from the store, or ``matjip ingest`` of a file that
changes the titles of 50 restaurants (an incremental update) — kills it with SIGKILL at a random
moment of its expected run time, and checks, before any repair, that ``open_index`` succeeds and
that the changed restaurants carry either all old titles or all new ones. Prints one line per
trial and the totals.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from matjip.settings import DEMO_DATA, Settings

CHILD_REBUILD = (
    "from matjip.settings import Settings; from matjip.index import sync; "
    "from matjip.ingest.store import DocumentStore; s = Settings(); "
    "store = DocumentStore(s.store_path); sync.rebuild(s, store)"
)


def env_for(data_dir: Path, embedder: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MATJIP_")}
    env.update({"MATJIP_DATA_DIR": str(data_dir), "MATJIP_EMBEDDER": embedder, "MATJIP_LLM_PROVIDER": "none"})
    return env


def run(args: list[str], env: dict[str, str], kill_after: float | None) -> tuple[float, bool]:
    started = time.monotonic()
    proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if kill_after is None:
        proc.wait()
        return time.monotonic() - started, False
    try:
        proc.wait(kill_after)
        return time.monotonic() - started, False
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        return time.monotonic() - started, True


def titles(settings: Settings, ids: list[str]) -> tuple[str, dict[str, str]]:
    """("ok", {id: title, "": version folder}) or ("broken: why", {})."""
    from matjip.index import layout, open_index

    try:
        index = open_index(settings)
        out: dict[str, str] = {}
        for pid in ids:
            doc = index.get(pid)
            out[pid] = doc.title if doc is not None else ""
        out[""] = str(layout.current(settings.index_dir))
        index.search(
            __import__("matjip.index.request", fromlist=["SearchRequest"]).SearchRequest(text="맛집", k=5)
        )
        return "ok", out
    except Exception as exc:
        return f"broken: {type(exc).__name__}: {exc}", {}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--trials", type=int, default=20, help="trials per kind (full, incremental)")
    ap.add_argument("--every", type=int, default=10, help="use every n-th demo record")
    ap.add_argument("--embedder", default="hash")
    ap.add_argument("--seed", type=int, default=13)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    py = sys.executable
    cli = [py, "-c", "from matjip.cli import main; main()"]

    with tempfile.TemporaryDirectory(prefix="matjip-crash-") as tmp:
        data = Path(tmp) / "data"
        env = env_for(data, args.embedder)
        os.environ.update(env)
        settings = Settings(data_dir=data, embedder=args.embedder)
        sample = Path(tmp) / "sample.jsonl"
        records = []
        with gzip.open(DEMO_DATA, "rt", encoding="utf-8") as fh:
            for i, line in enumerate(fh):
                if i % args.every == 0:
                    records.append(json.loads(line))
        sample.write_text(
            "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8"
        )
        print(f"preparing {len(records)} records in {data} …", flush=True)
        run([*cli, "ingest", str(sample)], env, None)
        changed_ids = [str(r["place_id"]) for r in records[:50]]
        status, _ = titles(settings, changed_ids)
        assert status == "ok", status

        full_s, _ = run([py, "-c", CHILD_REBUILD], env, None)
        inc_file = Path(tmp) / "changed.jsonl"

        def write_changes(tag: str) -> dict[str, str]:
            lines = []
            for r in records[:50]:
                lines.append(json.dumps({**r, "title": f"{r['title']} {tag}"}, ensure_ascii=False))
            inc_file.write_text("\n".join(lines) + "\n", encoding="utf-8")
            return {}

        write_changes("warmup")
        inc_s, _ = run([*cli, "ingest", str(inc_file)], env, None)
        print(f"uninterrupted: full rebuild {full_s:.1f} s, incremental ingest {inc_s:.1f} s", flush=True)

        totals = {"full": [0, 0, 0, 0], "incremental": [0, 0, 0, 0]}  # killed, old, new, broken
        for trial in range(args.trials * 2):
            kind = "full" if trial % 2 == 0 else "incremental"
            status, before = titles(settings, changed_ids)
            if status != "ok":
                print(f"  index broken before trial {trial}: {status}")
                totals[kind][3] += 1
                from matjip.index import sync

                sync.ensure_index(settings)
                continue
            late = (
                trial % 4 >= 2
            )  # half the kills fall late in the run (where the index is written) or after it
            if kind == "full":
                expected_new = dict(before)  # a rebuild changes no title; the version folder tells
                at = rng.uniform(0.7 * full_s, 1.4 * full_s) if late else rng.uniform(0, full_s * 1.1)
                _, killed = run([py, "-c", CHILD_REBUILD], env, at)
            else:
                tag = f"t{trial}"
                write_changes(tag)
                expected_new = {
                    pid: f"{next(r['title'] for r in records if str(r['place_id']) == pid)} {tag}"
                    for pid in changed_ids
                }
                at = rng.uniform(0.7 * inc_s, 1.4 * inc_s) if late else rng.uniform(0, inc_s * 1.1)
                _, killed = run([*cli, "ingest", str(inc_file)], env, at)
            status, after = titles(settings, changed_ids)
            if status != "ok":
                verdict = status
                totals[kind][3] += 1
            elif after == before:
                verdict = "old"
                totals[kind][1] += 1
            elif {k: v for k, v in after.items() if k} == {k: v for k, v in expected_new.items() if k}:
                verdict = "new"
                totals[kind][2] += 1
            else:
                verdict = "MIXED"
                totals[kind][3] += 1
            totals[kind][0] += int(killed)
            print(
                f"  trial {trial:2d} {kind:11s} kill at {at:5.2f} s ({'killed' if killed else 'finished first'}): {verdict}",
                flush=True,
            )
            if status != "ok" or verdict == "MIXED":
                from matjip.index import sync

                sync.ensure_index(settings)
            if kind == "incremental":  # let later trials start from a settled store and index
                run([*cli, "ingest", str(inc_file)], env, None)
        for kind, (killed, old, new, broken) in totals.items():
            print(
                f"{kind}: {args.trials} trials, {killed} killed mid-run, {old} old, {new} new, {broken} broken"
            )
        from matjip.index import layout

        leftovers = sorted(p.name for p in data.iterdir() if p.name.startswith(".index."))
        print(
            f"index folders in the data dir after the trials: {len(leftovers)} (kept within the grace period)"
        )
        time.sleep(layout.GRACE_S + 1)
        import gc

        gc.collect()  # indexes this script opened and dropped unpin their versions
        layout.cleanup(settings.index_dir)
        leftovers = sorted(p.name for p in data.iterdir() if p.name.startswith(".index."))
        print(f"index folders after the next cleanup: {len(leftovers)}: {leftovers}")


if __name__ == "__main__":
    main()
