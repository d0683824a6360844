"""The 24 turns of audit r12 (docs/audit_issue24_r12.md): 16 singles + 4 two-turn dialogues, asked as a Seoul local.

Clocks (fixed, KST): Wednesday 2026-11-25 19:40 for every turn except Q6 ("11시 넘어서도"), asked Wednesday 23:10.
All first questions are about covered areas (송파·강동·강남·마포·하남 위례) except Q15 (부천, outside); Q14 is ambiguous
(오금동: 송파구 and 고양시 덕양구).

Usage (from a worktree root, with its own data dir):
    MATJIP_DATA_DIR=$PWD/.matjip-data PYTHONPATH=$PWD/src \
        /work/main/.venv/bin/python docs/probes/audit_r12.py > docs/audit_issue24_r12_base_answers.md
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from audit_probe import Dialogue, Single, run

EVE = "2026-11-25T19:40:00+09:00"  # Wednesday 19:40 KST
LATE = "2026-11-25T23:10:00+09:00"  # Wednesday 23:10 KST (Q6 only)

SINGLES: list[Single] = [
    ("Q1", "마천역 순대국 맛집", EVE),
    ("Q2", "거여역 지금 문 연 중국집", EVE),
    ("Q3", "송파역 근처 소고기 회식 10명 자리 있는 곳", EVE),
    ("Q4", "몽촌토성역 분위기 좋은 이탈리안 데이트", EVE),
    ("Q5", "둔촌동역 애기랑 갈만한 밥집", EVE),
    ("Q6", "강동구청역 11시 넘어서도 하는 포차", LATE),
    ("Q7", "장지역 가든파이브 쌀국수", EVE),
    ("Q8", "선릉역 혼밥하기 좋은 라멘집", EVE),
    ("Q9", "상수역 체인 말고 동네 카레집", EVE),
    ("Q10", "석촌고분역 김치찌게 맛집", EVE),
    ("Q11", "삼전역 가볍게 샐러드나 포케", EVE),
    ("Q12", "잠실나루역 맵찔이도 먹을만한 찜닭", EVE),
    ("Q13", "개롱역에서 오금역까지 가는 길에 분식집", EVE),
    ("Q14", "오금동 백반집", EVE),
    ("Q15", "부천역 막창 맛집", EVE),
    ("Q16", "학암동 조용한 카페", EVE),
]
DIALOGUES: list[Dialogue] = [
    ("C1", ["가락시장역 곱창 맛집", "1번이랑 3번 비교해줘"], EVE),
    ("C2", ["올림픽공원 산책하고 저녁 먹을 코스 짜줘", "첫 번째 거기 몇 시까지 해?"], EVE),
    ("C3", ["암사역 짬뽕 맛있는 중국집", "거기 토요일에도 해?"], EVE),
    ("C4", ["강동역 지금 가도 되는 국밥집", "2번 거기 주차돼?"], EVE),
]


def main() -> None:
    run("r12", SINGLES, DIALOGUES)


if __name__ == "__main__":
    main()
