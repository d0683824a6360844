"""Issue 12: places without coordinates (an address-only crawl) are named honestly when a nearness
question cannot find them."""

from __future__ import annotations

from pathlib import Path

from matjip.agent.service import Agent
from matjip.settings import Settings
from support.index import build_index_dir, resources_over, sushi_near_gangnam


def test_a_nearness_search_says_which_places_it_cannot_place(tmp_path: Path) -> None:
    docs = sushi_near_gangnam()
    for i in (1, 2):
        docs[i] = docs[i].model_copy(update={"lat": None, "lon": None, "flags": ["no_coordinates"]})
    index_dir = build_index_dir(tmp_path / "index", docs)
    agent = Agent(Settings(data_dir=tmp_path), resources_over(index_dir, docs), persist=False)
    try:
        near = agent.ask("근처 초밥집", location={"lat": 37.4979, "lon": 127.0276})
        everywhere = agent.ask("초밥집 추천")
    finally:
        agent.close()
    assert [c.id for c in near.cards] == [docs[0].place_id]
    assert "좌표가 없는 곳은 거리를 알 수 없어서" in near.answer  # no count: the pool is not every such place
    assert "좌표가 없는" not in everywhere.answer  # no distance asked, nothing to excuse


def test_a_place_outside_the_gazetteer_that_the_crawl_covers_is_searched_by_address(tmp_path: Path) -> None:
    """A user's own Jeju crawl: "제주시에 있는 횟집" searches the addresses instead of saying "not in the data"."""
    from matjip.documents import Restaurant
    from matjip.ingest.preprocess import with_kinds

    jeju = [
        with_kinds(
            Restaurant(
                place_id=f"jj{i}",
                title=name,
                category="한식>해물,생선>회",
                cuisine="한식",
                address=f"제주특별자치도 제주시 {dong} {i}",
            )
        )
        for i, (name, dong) in enumerate([("연동횟집", "연동"), ("탐라회센터", "노형동")], start=1)
    ]
    docs = [*sushi_near_gangnam(), *jeju]
    index_dir = build_index_dir(tmp_path / "index", docs)
    agent = Agent(Settings(data_dir=tmp_path), resources_over(index_dir, docs), persist=False)
    try:
        jeju_city = agent.ask("제주시에 있는 횟집")
        nohyeong = agent.ask("노형동 횟집")
        busan = agent.ask("부산 횟집")
    finally:
        agent.close()
    assert {c.id for c in jeju_city.cards} == {"jj1", "jj2"}, jeju_city.answer
    assert [c.id for c in nohyeong.cards] == ["jj2"], nohyeong.answer  # a dong no gazetteer entry knows
    assert "'노형동'" not in nohyeong.answer  # a place, not an unusable word
    assert "식당 데이터에 없어요" in busan.answer  # still honest where the crawl has nothing
