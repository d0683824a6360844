"""Re-run the 20 turns of audit r10 (docs/audit_issue24_r10.md) with its fixed clock.

Usage (from a worktree root, with its own data dir):
    MATJIP_DATA_DIR=$PWD/.matjip-data PYTHONPATH=$PWD/src \
        /work/main/.venv/bin/python docs/probes/audit_r10.py > docs/audit_issue24_r10_answers_after.md
"""

from __future__ import annotations

import json
import sys
from datetime import datetime
from zoneinfo import ZoneInfo

NOW = "2026-11-27T21:40:00+09:00"  # Friday 21:40 KST (one fixed clock for every turn)

SINGLES: list[tuple[str, str, str]] = [
    ("Q1", "성수동 떡볶이 맛집", NOW),
    ("Q2", "신림역 혼밥 되는 순대국 주차 가능한데", NOW),
    ("Q3", "을지로 지금 가도 안 닫은 노가리 술집", NOW),
    ("Q4", "신사동 곱창 맛집", NOW),
    ("Q5", "good korean bbq near itaewon station", NOW),
    ("Q6", "cheap dumplings in sinchon", NOW),
    ("Q7", "종로3가 어제 과음해서 속 풀 데", NOW),
    ("Q8", "목동 프랜차이즈 말고 동네 빵집", NOW),
    ("Q9", "서현역 쌀국슈 맛집", NOW),
    ("Q10", "왕십리 순두브찌개", NOW),
    ("Q11", "사당역에서 낙성대역 가는 길에 카페", NOW),
    ("Q12", "판교역 6명 회식 고기집 예약되는 곳", NOW),
    ("Q13", "강남역 다이어트 중인데 저녁 뭐 먹지", NOW),
    ("Q14", "마포역 근처 안 매운 짬뽕 있는 중국집", NOW),
    ("Q15", "망원동 비건 식당", NOW),
    ("Q16", "영등포구청역 내일 토요일에도 하는 감자탕", NOW),
]
DIALOGUES: list[tuple[str, list[str], str]] = [
    ("C1", ["문래동 파스타 맛집", "1번이랑 2번 중에 어디가 더 나아?"], NOW),
    ("C2", ["혜화역 근처 돈까스", "두번째 거기 오늘 몇시까지 해?"], NOW),
]


def _location(res: object) -> str:
    plan = getattr(res, "plan", None)
    loc = getattr(plan, "location", None) if plan is not None else None
    return json.dumps(loc.model_dump(mode="json") if loc is not None else None, ensure_ascii=False)


def main() -> None:
    from matjip.agent.service import Agent, load_resources
    from matjip.commands.ingest import ensure_index
    from matjip.settings import Settings

    settings = Settings()
    resources = load_resources(settings, ensure_index(settings))
    agent = Agent(settings, resources, persist=False)
    out = sys.stdout
    out.write("# Audit r10 — raw answers (docs/probes/audit_r10.py)\n\n")
    for qid, question, when in SINGLES:
        now = datetime.fromisoformat(when).astimezone(ZoneInfo("Asia/Seoul"))
        resources.clock = lambda now=now: now
        res = agent.ask(question, now=now)
        out.write(f"## {qid} — {question}  (clock {when})\nLocation: {_location(res)}\n\n{res.answer}\n\n")
    for cid, turns, when in DIALOGUES:
        now = datetime.fromisoformat(when).astimezone(ZoneInfo("Asia/Seoul"))
        resources.clock = lambda now=now: now
        for t, message in enumerate(turns, 1):
            res = agent.ask(message, session_id=f"audit10-{cid}", now=now)
            out.write(
                f"## {cid}.{t} — {message}  (clock {when})\nLocation: {_location(res)}\n\n{res.answer}\n\n"
            )


if __name__ == "__main__":
    main()
