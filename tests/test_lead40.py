"""Classes the lead found by asking fresh questions of its own on 4a159a6 (session s40,
/work/notes/s40/probe_lead_base.md), one test each, failing on that code. Expected facts come from
hand-made records or the gazetteer's own files.

- D3 (class 9): "강남 쪽에서 잠실 가는 길에 커피 한잔" took '쪽' for the route's start and searched around
  강남 alone ("'쪽'의 위치를 알 수 없어서 경로 대신 한 곳 근처에서 찾았어요").
- L9 (class 6): "korean bbq" near 롯데월드 put a 스키야키 house (category 육류,고기) first as a 고깃집.
- L1 (class 2): "위례 중앙광장 근처" searched all of 위례 (2.5 km) instead of the shops of 위례광장로.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from matjip.nlu.strategy import detect_strategy
from support.records import ingest_records, talk_over
from support.records import near_jamsil as near

KST = ZoneInfo("Asia/Seoul")
FRI_NIGHT = datetime(2026, 12, 4, 21, 40, tzinfo=KST)


@pytest.mark.parametrize(
    ("text", "ends"),
    [
        ("강남 쪽에서 잠실 가는 길에 커피 한잔", ("강남", "잠실")),
        ("강남역 쪽에서 잠실 쪽으로 가는 길에 커피", ("강남역", "잠실")),
        ("천호역 근처에서 잠실 가는 길에 국밥", ("천호역", "잠실")),
        ("강남에서 잠실 가는 길에 커피 한잔", ("강남", "잠실")),
    ],
)
def test_a_start_said_with_its_side_is_the_routes_start(text: str, ends: tuple[str, str]) -> None:
    spec = detect_strategy(text)
    assert spec.strategy == "route", spec
    assert (spec.origin, spec.destination) == ends, spec


def test_a_sukiyaki_house_is_no_korean_barbecue(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from matjip.kinds import kinds

    assert "고깃집" not in {e.kind for e in kinds().classify("한식>육류,고기", "담소스키야키", [])}
    records = [
        near(
            "s1",
            "담소스키야키",
            150,
            "한식>육류,고기",
            {"스키야키 (1인)": "16,900원", "샤브샤브 (1인)": "16,900원"},
        ),
        near("g1", "숯불고기집", 900, "한식>육류,고기", {"생삼겹살": "15,000원", "목살": "15,000원"}),
    ]
    data = ingest_records(tmp_path, records)
    (r,) = talk_over(data, ["잠실역 고깃집"], FRI_NIGHT)
    assert [c.name for c in r.cards][:1] == ["숯불고기집"], r.answer
    assert "담소스키야키" not in [c.name for c in r.cards], r.answer


def test_a_plaza_named_by_the_shops_branches_is_a_place() -> None:
    from matjip.geo import get_gazetteer
    from matjip.geo.distance import haversine_m

    hits = get_gazetteer().lookup("위례 중앙광장")
    assert hits, "위례 중앙광장 is unknown"
    p = hits[0]
    # the median point of the shops titled '…위례중앙광장점' (위례광장로 104–322): 37.4727, 127.1422
    assert haversine_m(p.lat, p.lon, 37.4727, 127.1422) < 300, p
