"""Issue 24, classes 6/11/13/15 as policies (session of 2026-11-28, seventh, helper count24k): a count or
widening line says exactly what it counted — the kind with the conditions asked beside it, and the
places near that list the kind's dish on their menu — so no place near contradicts it.

Card tests ingest hand-written crawl records (the raw crawl's shape) into a fresh data directory."""

from __future__ import annotations

from pathlib import Path

from matjip.kinds import kinds
from support.records import ask_once
from support.records import north_of_jamsil as record


def _notes(result: object) -> str:
    return "\n".join(str(n) for n in getattr(result, "notes", [])) + "\n" + str(getattr(result, "text", ""))


# --- class 11/13: the count line's scope is the kind AND the conditions asked ---------------------------


def test_a_count_line_names_the_conditions_it_counted(tmp_path: Path) -> None:
    # three 고깃집 within 1 km of 잠실역, only one with a 주차 tag; two more with 주차 farther out
    records = [
        record(
            "p1",
            "한돈마을",
            "한식>육류,고기>삼겹살",
            300,
            ["삼겹살", "목살"],
            reviewKeywords={"주차": 2, "맛": 5},
        ),
        record(
            "n1", "소담갈비", "한식>육류,고기>갈비", 500, ["돼지갈비", "소갈비"], reviewKeywords={"맛": 9}
        ),
        record("n2", "정육식당", "한식>육류,고기", 700, ["한우 등심", "차돌박이"], reviewKeywords={"맛": 4}),
        record(
            "f1", "숯불집", "한식>육류,고기>삼겹살", 1800, ["삼겹살", "항정살"], reviewKeywords={"주차": 3}
        ),
        record(
            "f2", "갈비명가", "한식>육류,고기>갈비", 2300, ["생갈비", "양념갈비"], reviewKeywords={"주차": 1}
        ),
    ]
    said = _notes(ask_once(tmp_path, records, "잠실역 주차 되는 고깃집"))
    assert "주차 언급이 있는 고깃집이 1곳뿐" in said, said


# --- class 6/15: a widening line never denies a place near that lists the kind's dish -----------------


def test_a_widening_line_names_the_places_near_listing_the_dish(tmp_path: Path) -> None:
    # no place filed as sushi within 1 km; a 해산물 house at 900 m sells 모듬초밥; sushi houses at 2 km
    records = [
        record("sea", "바다숙성회", "해산물", 900, ["모듬초밥(12pcs)", "숙성회 정식", "모듬회초밥(10pcs)"]),
        record("s1", "스시하루", "일식>초밥,롤", 2000, ["모듬초밥", "연어초밥"]),
        record("s2", "초밥명가", "일식>초밥,롤", 2200, ["특초밥", "광어초밥"]),
    ]
    said = _notes(ask_once(tmp_path, records, "잠실역 근처 초밥집"))
    assert "분류된 곳이 없어서" not in said, said
    assert "메뉴에만 있는 다른 종류의 곳(바다숙성회 '모듬초밥(12pcs)')" in said, said


# --- class 6: a name saying the dish with its words turned round is the kind ----------------------------


def test_a_name_saying_kimchi_pork_stew_is_a_kimchi_jjigae_place() -> None:
    found = {e.kind for e in kinds().classify("한식>찌개,전골", "옛날김치돼지찌개", [])}
    assert "김치찌개" in found


def test_a_short_list_filled_wider_counts_the_places_near_listing_the_dish(tmp_path: Path) -> None:
    # one 김치찌개 house within 1 km, a 해산물 house at 600 m listing 돼지김치찌개 among six lines
    # (not a 김치찌개 place by its menu's share), two 김치찌개 houses farther out
    records = [
        record("own", "옛날김치돼지찌개", "한식>찌개,전골", 400, []),
        record(
            "sea",
            "원조식당",
            "한식>해물,생선",
            600,
            ["낙지덮밥", "아구탕", "제육볶음", "돼지김치찌개", "해물순두부", "동태탕"],
        ),
        record("f1", "장독대 김치찌개", "한식>찌개,전골", 1800, ["김치찌개정식", "부대찌개정식"]),
        record("f2", "간판없는김치찌개", "한식>찌개,전골", 2200, ["김치찌개", "계란말이"]),
    ]
    said = _notes(ask_once(tmp_path, records, "잠실역 김치찌개 잘하는 데"))
    assert "김치찌개로 분류된 곳이 1곳, 메뉴에만 있는 다른 종류의 곳이 1곳뿐" in said, said
