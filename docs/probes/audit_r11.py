"""The 26 turns of audit r11 (docs/audit_issue24_r11.md): 14 singles + 6 two-turn dialogues, asked as a Seoul local.

Clocks (fixed, KST): Saturday 2026-11-28 12:10 for every turn except Q6 ("새벽까지"), asked Saturday 23:40.
All first questions are about covered areas (송파·강동·강남·마포·영등포·서대문·위례) except Q14 (노원, outside).

Usage (from a worktree root, with its own data dir):
    MATJIP_DATA_DIR=$PWD/.matjip-data PYTHONPATH=$PWD/src \
        /work/main/.venv/bin/python docs/probes/audit_r11.py > docs/audit_issue24_r11_base_answers.md
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from audit_probe import Dialogue, Single, run

NOON = "2026-11-28T12:10:00+09:00"  # Saturday 12:10 KST
NIGHT = "2026-11-28T23:40:00+09:00"  # Saturday 23:40 KST (Q6 only)

SINGLES: list[Single] = [
    ("Q1", "잠실역 칼국수 맛집", NOON),
    ("Q2", "석촌호수 근처 애들이랑 갈만한 돈까스집 주차 되는 곳", NOON),
    ("Q3", "방이동 삼겹살 8명 단체로 예약 가능한 곳", NOON),
    ("Q4", "천호역 어제 과음했는데 해장할만한 곳", NOON),
    ("Q5", "삼성역 혼밥 가성비 점심", NOON),
    ("Q6", "홍대입구역 새벽까지 하는 술집", NIGHT),
    ("Q7", "문정역 비 오는 날 땡기는 거", NOON),
    ("Q8", "가락시장 회 맛집", NOON),
    ("Q9", "망원동 안 매운 떡볶이", NOON),
    ("Q10", "신천역 고깃집 맛집", NOON),
    ("Q11", "당산역 늦게까지 하는 곱창집", NOON),
    ("Q12", "위례 애들 데리고 갈 만한 식당", NOON),
    ("Q13", "잠실새내역에서 잠실역까지 걸어가는 길에 빵집", NOON),
    ("Q14", "노원역 평양냉면 맛집", NOON),
]
DIALOGUES: list[Dialogue] = [
    ("C1", ["송리단길 파스타 맛집", "1번이랑 2번 중에 어디가 더 나아?"], NOON),
    ("C2", ["천호역 감자탕", "두 번째 거기 몇 시까지 해?"], NOON),
    ("C3", ["오금역 치킨집", "좀 덜 비싼 데는?"], NOON),
    ("C4", ["석촌호수 점심 먹고 카페 가는 코스 짜줘", "두 번째 거기 석촌역에서 걸어가면 몇 분?"], NOON),
    ("C5", ["신촌역 근처 닭갈비", "거기 주차돼?"], NOON),
    ("C6", ["길동역 족발 보쌈 맛집", "1번 거기 포장돼?"], NOON),
]


def main() -> None:
    run("r11", SINGLES, DIALOGUES)


if __name__ == "__main__":
    main()
