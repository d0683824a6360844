"""Every question of every evaluation set, answered, as one JSON line each: a behaviour snapshot.

Issue 25 changes the code's shape, not its behaviour. Aggregate figures can hide a changed answer;
this script records what each question gets — the answer text, the cards (ids), the notes, the plan
as searched and asked, the decision and the clarification — with the clock fixed, so that two runs
(before and after a change) can be compared line by line:

    MATJIP_DATA_DIR=/path/to/data python scripts/snapshot_answers.py --out before.jsonl
    ... change the code ...
    MATJIP_DATA_DIR=/path/to/data python scripts/snapshot_answers.py --out after.jsonl
    python scripts/snapshot_answers.py --compare before.jsonl after.jsonl

``--reviews`` adds every review set's enrichment (the offline reader's labels per review);
``--documents`` adds a digest of every stored (enriched) document of the index's document store, to
compare two ingests. Traces (timings) are left out.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sqlite3
import sys
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

EVAL_DIR = Path(__file__).resolve().parents[1] / "src" / "matjip" / "eval"
FIXED_NOW = "2026-11-25T19:30:00+09:00"


def _lines(path: Path) -> Iterator[dict[str, Any]]:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            yield json.loads(line)


def _result_row(res: Any) -> dict[str, Any]:
    return {
        "answer": res.answer,
        "cards": [c.id for c in res.cards],
        "notes": res.notes,
        "decision": res.decision,
        "intent": res.intent,
        "plan": res.plan.model_dump(mode="json") if res.plan is not None else None,
        "frame": res.frame.model_dump(mode="json") if res.frame is not None else None,
        "clarification": res.clarification.model_dump(mode="json") if res.clarification else None,
        "searched": res.searched,
        "reused": res.reused,
        "location_carried": res.location_carried,
    }


def _single_turn(agent: Any, out: Any) -> int:
    n = 0
    sets = sorted(EVAL_DIR.glob("relevance_*.jsonl")) + sorted(EVAL_DIR.glob("strategy_*.jsonl"))
    for path in [*sets, EVAL_DIR / "agent_set.jsonl"]:
        for item in _lines(path):
            question = item.get("question") or item.get("query") or ""
            now = datetime.fromisoformat(item.get("now") or FIXED_NOW)
            res = agent.ask(question, location=item.get("gps") or None, now=now)
            row = {"set": path.name, "id": item.get("id"), "q": question, **_result_row(res)}
            out.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")
            n += 1
    return n


def _dialogues(agent: Any, out: Any) -> int:
    n = 0
    paths = [*sorted(EVAL_DIR.glob("dialogue_*.jsonl")), EVAL_DIR / "agent_dialogues.jsonl"]
    for path in paths:
        for item in _lines(path):
            sid = f"{path.stem}-{item.get('id')}"
            now = datetime.fromisoformat(item.get("now") or FIXED_NOW)
            for t, turn in enumerate(item.get("turns") or []):
                message = turn.get("user") or turn.get("query") or ""
                res = agent.ask(message, session_id=sid, location=turn.get("gps") or None, now=now)
                row = {"set": path.name, "id": f"{item.get('id')}#{t}", "q": message, **_result_row(res)}
                out.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")
                n += 1
    return n


def _reviews(settings: Any, out: Any) -> int:
    from matjip.eval.review_eval import load
    from matjip.ingest.enrich import get_enricher

    enricher = get_enricher("offline", settings)
    n = 0
    for path in sorted(EVAL_DIR.glob("review_*.jsonl")):
        if path.stem.endswith("_places"):
            continue
        items = load("all", path)
        for item, result in zip(items, enricher.enrich_many([i.document() for i in items]), strict=True):
            row = {"set": path.name, "id": item.id, "enrichment": result.model_dump(mode="json")}
            out.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")
            n += 1
    return n


def _documents(settings: Any, out: Any) -> int:
    db = sqlite3.connect(settings.store_path)
    total = hashlib.sha256()
    n = 0
    for place_id, doc in db.execute("SELECT place_id, doc FROM documents ORDER BY place_id"):
        digest = hashlib.sha256(doc.encode()).hexdigest()
        total.update(f"{place_id}:{digest}\n".encode())
        out.write(json.dumps({"set": "documents", "id": place_id, "sha": digest}) + "\n")
        n += 1
    out.write(json.dumps({"set": "documents", "id": "ALL", "sha": total.hexdigest()}) + "\n")
    return n


def snapshot(args: argparse.Namespace) -> None:
    from zoneinfo import ZoneInfo

    from matjip.agent.service import Agent, load_resources
    from matjip.commands.ingest import ensure_index
    from matjip.settings import Settings

    settings = Settings()
    if args.llm_off:
        settings = settings.model_copy(update={"llm_provider": "none"})
    fixed = datetime.fromisoformat(FIXED_NOW).astimezone(ZoneInfo("Asia/Seoul"))
    with open(args.out, "w", encoding="utf-8") as out:
        if args.documents:
            print("documents", _documents(settings, out), file=sys.stderr)
        if args.reviews:
            print("reviews", _reviews(settings, out), file=sys.stderr)
        if not args.no_agent:
            resources = load_resources(settings, ensure_index(settings))
            resources.clock = lambda: fixed
            agent = Agent(settings, resources, persist=False)
            print("single", _single_turn(agent, out), file=sys.stderr)
            print("dialogue turns", _dialogues(agent, out), file=sys.stderr)


def compare(before: Path, after: Path, show: int) -> int:
    def rows(p: Path) -> dict[tuple[str, str], dict[str, Any]]:
        return {(r["set"], str(r["id"])): r for r in _lines(p)}

    a, b = rows(before), rows(after)
    changed = [k for k in a if k in b and a[k] != b[k]]
    missing = [k for k in a if k not in b]
    added = [k for k in b if k not in a]
    print(f"{len(a)} before, {len(b)} after: {len(changed)} changed, {len(missing)} missing, {len(added)} new")
    for k in changed[:show]:
        diff = {f: (a[k].get(f), b[k].get(f)) for f in set(a[k]) | set(b[k]) if a[k].get(f) != b[k].get(f)}
        print(k, json.dumps(diff, ensure_ascii=False)[:1500])
    return 1 if changed or missing or added else 0


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", type=Path, default=Path("snapshot.jsonl"))
    p.add_argument("--reviews", action="store_true", help="add every review set's enrichment")
    p.add_argument("--documents", action="store_true", help="add a digest of every stored document")
    p.add_argument("--no-agent", action="store_true", help="skip the agent's answers")
    p.add_argument("--llm-off", action="store_true", help="force the offline path (MATJIP_LLM_PROVIDER=none)")
    p.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    p.add_argument("--show", type=int, default=10, help="changed rows to print with --compare")
    args = p.parse_args()
    if args.compare:
        raise SystemExit(compare(*args.compare, args.show))
    snapshot(args)


if __name__ == "__main__":
    main()
