"""Issue 24, understanding classes of helper dlg29 (session s40), each failing on main 4a9e5af:

- menu forms: a dish asked is matched on the menus in the forms a menu writes it in — "짜장면" finds
  유니짜장, 간짜장, 쟁반짜장 (never 짜장밥, another dish), "순대국" a 순댓국, "김치찌개" a 김치찌게 — as data
  (data/words/menu.toml ``menu_forms`` / ``menu_form_others``), read once by ``index.reference.menu_entries``
  so both index backends, the grader, the counts and the cards' lines agree.

The dialogues run the real offline agent over a few hand-written crawl records ingested into a
fresh data directory; expected values are worked out by hand from the records.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from fakes.embedder import FakeEmbedder
from matjip.documents import Restaurant
from matjip.index.embedded import EmbeddedIndex
from matjip.index.reference import menu_matches
from matjip.index.request import SearchRequest
from matjip.settings import Settings
from support.records import ingest_records, talk_over
from support.records import near_jamsil as near

SEOUL = ZoneInfo("Asia/Seoul")
WEDNESDAY_NOON = datetime(2026, 11, 25, 12, 0, tzinfo=SEOUL)
DAILY = "매일 10:00 ~ 23:00"

# --- menu forms --------------------------------------------------------------------------------

MENUS = {
    "uni": ["이베리코유니짜장", "짬뽕"],
    "gan": ["삼선간짜장", "탕수육"],
    "myeon": ["짜장면", "짬뽕"],
    "bap": ["짜장밥", "짬뽕밥"],  # 짜장밥 is another dish
    "tteok": ["짜장떡볶이", "김밥"],
    "gwanja": ["키조개관자장 비빔밥"],  # 관자장 holds 자장 but names no 짜장
    "sundae": ["시래기순댓국", "모둠순대"],
    "kimchi": ["김치찌게", "제육볶음"],
}


def _doc(pid: str, menus: list[str]) -> Restaurant:
    return Restaurant.model_validate(
        {
            "place_id": pid,
            "title": pid,
            "category": "중식>중국요리",
            "menus": [{"name": m, "price": 9000} for m in menus],
            "mapx": "1271002000",
            "mapy": "375133000",
        }
    )


DOCS = [_doc(pid, menus) for pid, menus in MENUS.items()]
WANT = {
    "짜장면": {"uni", "gan", "myeon"},
    "순대국": {"sundae"},
    "김치찌개": {"kimchi"},
    "짜장밥": {"bap"},
    "관자": {"gwanja"},
}


@pytest.mark.parametrize(("term", "ids"), sorted(WANT.items()))
def test_a_dish_matches_the_forms_a_menu_writes_never_another_dish(term: str, ids: set[str]) -> None:
    assert {d.place_id for d in DOCS if menu_matches(d, [term])} == ids


def test_a_card_line_of_a_dish_is_one_of_its_forms() -> None:
    from matjip.index.reference import line_matches

    assert line_matches("이베리코유니짜장", "짜장면") and line_matches("쟁반 짜장 (2인)", "짜장면")
    assert not line_matches("짜장밥", "짜장면") and not line_matches("홍짜장덮밥", "짜장면")
    assert line_matches("전통순댓국", "순대국") and line_matches("된장찌게", "된장찌개")


@pytest.fixture(scope="module")
def embedded(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIndex:
    st = Settings(_env_file=None)  # type: ignore[call-arg]
    return EmbeddedIndex(tmp_path_factory.mktemp("forms") / "index", FakeEmbedder(), st).build(DOCS)


def _ids(index: object, req: SearchRequest) -> set[str]:
    return {h.document.place_id for h in index.search(req).hits}  # type: ignore[attr-defined]


@pytest.mark.parametrize(("term", "ids"), sorted(WANT.items()))
def test_the_embedded_index_filters_and_excludes_by_the_forms(
    embedded: EmbeddedIndex, term: str, ids: set[str]
) -> None:
    assert _ids(embedded, SearchRequest(menu=[term], k=20)) == ids
    assert _ids(embedded, SearchRequest(exclude_menu=[term], k=20)) == set(MENUS) - ids


@pytest.fixture(scope="module")
def postgres(pg_server: object, tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    from matjip.index.postgres import PostgresIndex

    st = Settings(_env_file=None)  # type: ignore[call-arg]
    pg = PostgresIndex(pg_server.database("forms29"), FakeEmbedder(), st).build(DOCS)  # type: ignore[attr-defined]
    try:
        yield pg
    finally:
        pg.close()


@pytest.mark.postgres
@pytest.mark.parametrize(("term", "ids"), sorted(WANT.items()))
def test_both_backends_agree_on_the_forms(
    postgres: object, embedded: EmbeddedIndex, term: str, ids: set[str]
) -> None:
    for req in (SearchRequest(menu=[term], k=20), SearchRequest(exclude_menu=[term], k=20)):
        assert _ids(postgres, req) == _ids(embedded, req)
    assert _ids(postgres, SearchRequest(menu=[term], k=20)) == ids


CHINESE = [
    near(
        "uni",
        "차이린",
        100,
        "중식>중국요리",
        {"이베리코유니짜장": "12,000원", "짬뽕": "10,000원"},
        reviewCount=300,
    ),
    near(
        "bap", "짜장밥천국", 120, "중식>중국요리", {"짜장밥": "8,000원", "짬뽕밥": "9,000원"}, reviewCount=500
    ),
    near(
        "myeon", "북경반점", 140, "중식>중국요리", {"짜장면": "7,000원", "탕수육": "18,000원"}, reviewCount=50
    ),
]
CHINESE = [{**r, "businessHours": DAILY} for r in CHINESE]


@pytest.fixture(scope="module")
def chinese(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ingest_records(tmp_path_factory.mktemp("dlg29menu"), CHINESE)


def test_a_dish_asked_finds_its_menu_forms_and_the_card_names_the_line(chinese: Path) -> None:
    (r,) = talk_over(chinese, ["잠실역 짜장면 맛있는 중국집"], WEDNESDAY_NOON)
    ids = [c.id for c in r.cards]
    assert set(ids[:2]) == {
        "uni",
        "myeon",
    }  # the 유니짜장 house serves the dish; the 짜장밥 house (more reviews) does not
    assert "메뉴 '이베리코유니짜장'" in r.answer  # the line that is the dish, on its card
