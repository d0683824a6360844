"""Classes of the sixteenth issue-24 audit (docs/audit_issue24_r16.md, on cabd56f), one test each, failing
on that code; built from hand-made records (support.records) near 잠실역 or the gazetteer, never the
audit's places or questions.

B. Mild-taste wording beyond 맵다 ("얼큰하지 않은", "안 칼칼한", "자극적인 거 말고") is the mild wish: never an
   unknowable word, never the spicy family, and the red-by-default houses stay out.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from support.chat import SEOUL
from support.records import ingest_records, near_jamsil, talk_over

WEDNESDAY_DINNER = datetime(2026, 11, 25, 18, 40, tzinfo=SEOUL)


def _card_heads(answer: str) -> list[str]:
    return [b.split("\n")[0] for b in answer.split("\n**")[1:]]


def test_mild_taste_words_beyond_spicy_are_the_mild_wish(tmp_path: Path) -> None:
    records = [
        near_jamsil("b1", "다온부대찌개", 120, "한식>찌개,전골", ["부대찌개", "부대전골"], reviewCount=90),
        near_jamsil("b2", "라온설렁탕", 220, "한식>설렁탕", ["설렁탕", "도가니탕"], reviewCount=40),
        near_jamsil("b3", "미담곰탕", 320, "한식>곰탕", ["곰탕", "수육"], reviewCount=30),
        near_jamsil("b4", "하늘김치찌개", 420, "한식>찌개,전골", ["김치찌개", "된장찌개"], reviewCount=70),
        near_jamsil("b5", "소담된장", 520, "한식>찌개,전골", ["된장찌개", "청국장"], reviewCount=10),
    ]
    data = ingest_records(tmp_path, records)
    soup, stew = talk_over(data, ["잠실역 얼큰하지 않은 국물 먹을 데"], WEDNESDAY_DINNER) + talk_over(
        data, ["잠실역 칼칼하지 않은 찌개 먹고 싶어"], WEDNESDAY_DINNER
    )
    for res in (soup, stew):
        assert "데이터로 확인할 수 없어서" not in res.answer, res.answer  # a taste, read from the menus
        assert "흔히 얼큰하다고" not in res.answer, res.answer  # never the spicy family
        heads = _card_heads(res.answer)
        assert heads, res.answer
        assert all("다온부대찌개" not in h for h in heads), res.answer  # a red-by-default house stays out
    assert "소담된장" in _card_heads(stew.answer)[0], stew.answer  # the mild stew listed first
