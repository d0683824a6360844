"""Re-run the 20 turns of audit r9 (docs/audit_issue24_r9.md) with the same fixed clocks.

Usage (from a worktree root, with its own data dir):
    MATJIP_DATA_DIR=$PWD/.matjip-data PYTHONPATH=$PWD/src \
        /work/main/.venv/bin/python docs/probes/audit_r9.py > docs/audit_issue24_r9_answers_after.md
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from audit_probe import Dialogue, Single, run

EVENING = "2026-11-28T19:30:00+09:00"  # Saturday evening KST
NIGHT = "2026-11-29T00:40:00+09:00"  # Saturday night (Sunday 00:40 KST)
LATE = "2026-11-29T01:30:00+09:00"  # Sunday 01:30 KST

SINGLES: list[Single] = [
    ("Q1", "신흥동 칼국수 맛집", EVENING),
    ("Q2", "best naengmyeon around mangwon market?", EVENING),
    ("Q3", "건대입구 술 마시고 해장할 데 추천", LATE),
    ("Q4", "방이동 먹자골목 프랜차이즈 말고 동네 치킨집", EVENING),
    ("Q5", "천호역 근처 쭈꾸미볶음 잘하는데", EVENING),
    ("Q6", "연남동 마라샹궈 되는 마라탕집", EVENING),
    ("Q7", "미사역 주차 편하고 조용한 한정식", EVENING),
    ("Q8", "석촌역 지금 술 한잔 할 데", NIGHT),
    ("Q9", "서래마을 내일 일요일 점심 브런치 되는 곳", EVENING),
    ("Q10", "당산역 4명 룸 있는 중국집", EVENING),
    ("Q11", "단대오거리역 매운거 못먹는 애랑 갈 국수집", EVENING),
    ("Q12", "역삼역 제육볶음 맛집", EVENING),
    ("Q13", "잠실새내역에서 종합운동장역 가는 길에 카페", EVENING),
    ("Q14", "길동 1인 3만원 이하 소고기", EVENING),
]
DIALOGUES: list[Dialogue] = [
    ("C1", ["고덕역 근처 돈까스 맛집", "두번째 데 지금 가도 열려 있어?"], NIGHT),
    ("C2", ["논현역 삼겹살집", "1번이랑 3번 중에 어디가 더 나아?"], EVENING),
    ("C3", ["합정역 근처 파스타", "세번째 거기 망원역에서 걸어가면 몇 분이야?"], EVENING),
]


def main() -> None:
    run("r9", SINGLES, DIALOGUES)


if __name__ == "__main__":
    main()
