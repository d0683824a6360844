"""Classes of weak picks of the twelfth issue-24 audit (docs/audit_issue24_r12.md on branch audit12, base
61faa53), one test per class, each failing on that code. Expected facts are read from the raw demo crawl,
never from the product.
"""

from __future__ import annotations

from matjip.index.request import SearchHit
from support.demo import raw_records


def _doc(title: str):  # type: ignore[no-untyped-def]
    from matjip.ingest.crawl import CrawlDocument
    from matjip.ingest.enrich import get_enricher
    from matjip.ingest.preprocess import finish, preprocess

    rec = next(r for r in raw_records().values() if r["title"] == title)
    crawl = CrawlDocument.model_validate(rec)
    return finish(preprocess(crawl), get_enricher("offline").enrich_many([crawl])[0])


def _hit(title: str, distance_m: float | None = None) -> SearchHit:
    doc = _doc(title)
    return SearchHit(id=doc.place_id, score=0.5, document=doc, distance_m=distance_m)


def test_a_name_saying_the_kind_against_its_menu_is_a_weaker_member() -> None:
    """Class 2 (Q3, Q14): '참고깃간직영정육식당' (된장찌개 · 불고기전골 · 제육볶음 · 한우육회비빔밥 · 회냉면) made a
    소고기 회식 place by '정육' in its name and one 한우 line; '우리집밥상' (닭갈비 · 오겹살 · 돼지갈비) a 백반집 by
    the 집밥 inside its name. Both are weaker members, after the proven ones; a 한우 house whose menu backs
    its name (대원정육식당: 안창살, 토시살, 살치살 …; 선복한우촌총각들: 육회, 등심 …) stays a proven one."""
    from matjip.agent.retrieval.rank import kind_evidence

    assert kind_evidence(_hit("참고깃간직영정육식당"), ["한우·소고기"]) == (2, "weak")
    assert kind_evidence(_hit("우리집밥상"), ["백반"]) == (2, "weak")
    assert kind_evidence(_hit("대원정육식당"), ["한우·소고기"])[0] <= 1
    assert kind_evidence(_hit("선복한우촌총각들"), ["한우·소고기"])[0] <= 1


def test_a_share_of_a_handful_of_reviews_decides_no_comparison_and_two_places_are_compared_with_more() -> (
    None
):
    """Class 5 (C1.2): "'맛'의 리뷰 대비 비율로는 야곱293이 가장 높아요 (40%)" — 2 tags of 5 reviews against 9 of
    64 at 진성한우곱창, and "가장" for two places. A share of too few reviews says the numbers are too few;
    two places with enough reviews are compared with "더"."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from matjip.agent.answer import _verdict

    now = datetime(2026, 11, 25, 19, 40, tzinfo=ZoneInfo("Asia/Seoul"))
    big, small = _doc("진성한우곱창"), _doc("야곱293")
    assert (small.review_count or 0) <= 5 < 60 <= (big.review_count or 0)
    said = _verdict([big, small], "taste", now)
    assert "가장" not in said and "야곱293이" not in said, said
    assert "적어요" in said, said
    both = _verdict([big, _doc("군자대한곱창 문정역점")], "taste", now)
    assert "더 높아요" in both and "가장" not in both, both


def test_a_dish_asked_is_found_on_the_menu_of_a_neighbouring_kind_ranked_by_evidence(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Class 1 (Q7 "장지역 가든파이브 쌀국수"): 나이쏘이 (`태국음식`, '갈비쌀국수', '똠얌쌀국수', 30 reviews, 289 m)
    missed for 베트남 places of 3–6 reviews. A place whose menu is known for the dish asked is found
    whatever it is filed as, and the better evidenced place leads; a place listing it once among other
    dishes (a 고깃집's one 쌀국수 line) is no 쌀국수 place."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from support.records import ingest_records, jamsil_record, talk_over

    viet = "아시아음식>동남아음식>베트남음식"
    records = [
        jamsil_record(
            "v1", "하노이국수", viet, ["쌀국수", "분짜", "짜조"], step=3, reviewCount=3, rating=3.3
        ),
        jamsil_record(
            "v2", "포하우스", viet, ["양지쌀국수", "반미", "월남쌈"], step=4, reviewCount=4, rating=3.3
        ),
        jamsil_record(
            "thai",
            "나이타이",
            "아시아음식>동남아음식>태국음식",
            ["갈비쌀국수", "똠얌쌀국수", "팟타이", "팟카파오무쌉", "갈비국밥"],
            step=1,
            reviewCount=30,
            rating=3.4,
            reviewKeywords={"맛": 8},
        ),
        jamsil_record(
            "grill",
            "큰집고기",
            "한식>육류,고기>삼겹살",
            ["삼겹살", "목살", "항정살", "냉면", "쌀국수"],
            step=1,
            reviewCount=90,
            rating=3.6,
        ),
    ]
    data = ingest_records(tmp_path, records)
    (r,) = talk_over(data, ["잠실역 쌀국수"], datetime(2026, 11, 25, 19, 40, tzinfo=ZoneInfo("Asia/Seoul")))
    ids = [c.id for c in r.cards]
    assert "thai" in ids and ids.index("thai") < ids.index("v1"), r.answer
    assert "grill" not in ids, r.answer


def test_a_childrens_price_backs_a_wish_to_go_with_a_child_and_ranks_first(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Class 4 (Q5 "둔촌동역 애기랑 갈만한 밥집"): menus pricing children ('어린이초밥', '소인(초등학교 입학전)')
    are evidence for 아이와, unused by the order. Among the places of the kind, the one whose menu
    welcomes children leads a better-known one without such evidence, and its card says why."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from support.records import ingest_records, jamsil_record, talk_over

    sushi = "일식>초밥,롤"
    records = [
        jamsil_record(
            "big", "큰초밥", sushi, ["모듬초밥", "연어초밥", "광어초밥"], step=1, reviewCount=40, rating=3.8
        ),
        jamsil_record(
            "kids",
            "작은초밥",
            sushi,
            ["모듬초밥", "어린이초밥", "연어초밥"],
            step=2,
            reviewCount=12,
            rating=3.8,
        ),
        jamsil_record(
            "mid", "중간초밥", sushi, ["모듬초밥", "참치초밥", "장어초밥"], step=3, reviewCount=25, rating=3.8
        ),
    ]
    data = ingest_records(tmp_path, records)
    (r,) = talk_over(
        data, ["잠실역 애기랑 갈만한 초밥집"], datetime(2026, 11, 25, 19, 40, tzinfo=ZoneInfo("Asia/Seoul"))
    )
    ids = [c.id for c in r.cards]
    assert ids and ids[0] == "kids", r.answer
    assert "어린이초밥" in r.answer.split("**2.")[0], r.answer


def test_along_a_route_the_places_on_the_way_come_before_one_past_the_destination(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Class 6 (Q13 "개롱역에서 오금역까지 가는 길에 분식집"): 명화손만두, 190 m past 오금역 (370 m of detour), shown
    while 김밥천국 and 장분식 lay 130–196 m off the line. Spreading the picks over the way never takes a
    place off it while places along it are left."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from support.records import JAMSIL, ingest_records, jamsil_record, talk_over

    end = (37.511653, 127.086224)  # 잠실새내역 (data/gazetteer/landmarks.tsv)

    def at(share: float, north_m: float = 0.0) -> dict[str, float]:
        lat = JAMSIL[0] + (end[0] - JAMSIL[0]) * share + north_m / 111_195
        return {"lat": lat, "lon": JAMSIL[1] + (end[1] - JAMSIL[1]) * share}

    snack = "분식"
    records = [
        jamsil_record("a", "가분식", snack, ["떡볶이", "김밥", "순대"], **at(0.1, 40), reviewCount=6),
        jamsil_record("b", "나분식", snack, ["떡볶이", "김밥", "라면"], **at(0.2, -60), reviewCount=5),
        jamsil_record("c", "다분식", snack, ["떡볶이", "튀김", "어묵"], **at(0.5, 80), reviewCount=4),
        jamsil_record("past", "먼만두분식", snack, ["만두", "떡볶이", "김밥"], **at(1.14), reviewCount=60),
    ]
    data = ingest_records(tmp_path, records)
    (r,) = talk_over(
        data,
        ["잠실역에서 잠실새내역까지 가는 길에 분식집"],
        datetime(2026, 11, 25, 13, 0, tzinfo=ZoneInfo("Asia/Seoul")),
    )
    ids = [c.id for c in r.cards]
    assert len(ids) == 3 and "past" not in ids, r.answer
