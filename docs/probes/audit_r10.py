"""Re-run the 20 turns of audit r10 (docs/audit_issue24_r10.md) with its fixed clock.

Usage (from a worktree root, with its own data dir):
    MATJIP_DATA_DIR=$PWD/.matjip-data PYTHONPATH=$PWD/src \
        /work/main/.venv/bin/python docs/probes/audit_r10.py > docs/audit_issue24_r10_answers_after.md
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from audit_probe import Dialogue, Single, run

NOW = "2026-11-27T21:40:00+09:00"  # Friday 21:40 KST (one fixed clock for every turn)

SINGLES: list[Single] = [
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
DIALOGUES: list[Dialogue] = [
    ("C1", ["문래동 파스타 맛집", "1번이랑 2번 중에 어디가 더 나아?"], NOW),
    ("C2", ["혜화역 근처 돈까스", "두번째 거기 오늘 몇시까지 해?"], NOW),
]


def main() -> None:
    run("r10", SINGLES, DIALOGUES)


if __name__ == "__main__":
    main()
