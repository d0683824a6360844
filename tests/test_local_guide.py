"""Issue 24, classes 10, 12, 13 and 15: a local guide's answer — good places first (and why), the
clock, facts worded as what they are, and a heading that claims only what the cards show.

Each test ingests a few hand-written crawl records (the raw crawl's shape) into a fresh data
directory and asks one question; expected values are worked out by hand from the records.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from matjip.agent.service import Agent

SEOUL = ZoneInfo("Asia/Seoul")
WEDNESDAY_EVENING = datetime(2026, 11, 25, 19, 30, tzinfo=SEOUL)
JAMSIL = (37.513977, 127.102198)  # 잠실역
M_PER_DEG_LAT = 111_195


def record(place_id: str, title: str, category: str, north_m: float, **extra: Any) -> dict[str, Any]:
    """A crawl record ``north_m`` metres north of 잠실역 with a priced menu."""
    lat = JAMSIL[0] + north_m / M_PER_DEG_LAT
    menus = extra.pop("menus", [{"name": "생삼겹살", "price": "15,000원"}])
    return {
        "place_id": place_id,
        "title": title,
        "category": category,
        "mapx": str(round(JAMSIL[1] * 1e7)),
        "mapy": str(round(lat * 1e7)),
        "roadAddress": "서울 송파구 올림픽로 300",
        "menus": menus,
        **extra,
    }


def ask_over(
    tmp_path: Path, records: list[dict[str, Any]], text: str, now: datetime = WEDNESDAY_EVENING
) -> Any:
    from click.testing import CliRunner

    from matjip.cli import cli
    from matjip.settings import Settings

    src = tmp_path / "crawl.jsonl"
    src.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in records), encoding="utf-8")
    data = tmp_path / "data"
    env = {"MATJIP_DATA_DIR": str(data), "MATJIP_EMBEDDER": "hash"}
    res = CliRunner().invoke(cli, ["ingest", str(src)], env=env)
    assert res.exit_code == 0, res.output
    agent = Agent(Settings(data_dir=data, embedder="hash"), persist=False)
    try:
        return agent.ask(text, now=now)
    finally:
        agent.close()


# --- class 10: 맛집 means good places first ----------------------------------------------------


def test_a_well_reviewed_place_comes_before_a_barely_known_nearer_one_and_says_why(tmp_path: Path) -> None:
    records = [
        record("1", "골목삼겹", "한식>육류,고기>삼겹살", 80, rating=5.0, reviewCount=2),
        record("2", "동네고기", "한식>육류,고기>삼겹살", 150, reviewCount=0),
        record(
            "3",
            "잠실삼겹명가",
            "한식>육류,고기>삼겹살",
            520,
            rating=4.4,
            reviewCount=218,
            reviewKeywords={"맛": 41, "친절": 12},
            businessHours="매일 11:00 ~ 23:00",
        ),
    ]
    r = ask_over(tmp_path, records, "잠실역 삼겹살 맛집")
    assert [c.id for c in r.cards][:1] == ["3"]
    assert r.cards[0].standing is not None and "리뷰 218건" in r.cards[0].standing
    assert "리뷰 218건" in r.answer
