"""The relevance judge (``matjip.eval.relevance_judge``) on small hand-written raw documents.

Every document below is written in the raw crawl's shape (``kakao_capital.jsonl.gz``); expected
grades are worked out by hand from the rules in the judge's docstring.
"""

from __future__ import annotations

from typing import Any

import pytest

from matjip.eval import relevance_judge as J

# ---------------------------------------------------------------- fixtures (raw-shaped documents)

JAMSIL = (37.513977, 127.102198)  # 잠실역


def doc(**kw: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "place_id": "1",
        "title": "무명",
        "category": "한식",
        "address": "",
        "roadAddress": "서울 송파구 올림픽로 1",
        "menus": [],
        "mapx": "1271021980",  # 잠실역
        "mapy": "375139770",
        "rating": 4.0,
        "reviewCount": 3,
    }
    base.update(kw)
    return base


def menus(*names: str, price: str = "") -> list[dict[str, str]]:
    return [{"name": n, "price": price} for n in names]


GOGI = J.KindSpec(
    label="고깃집",
    category_any=["육류,고기", "갈비", "삼겹살"],
    title_any=["고깃집", "삼겹"],
    menu_any=["삼겹", "목살", "항정", "갈비살", "차돌박이"],
    menu_share_min=0.4,
)
GOGI_NOT = J.NotKindSpec(category_any=["닭요리", "족발,보쌈"], title_any=["오징어", "닭갈비"])
CHICKEN = J.KindSpec(
    label="치킨집", category_any=["치킨"], title_any=["치킨", "통닭"], menu_any=["후라이드", "양념치킨"]
)
CHICKEN_NOT = J.NotKindSpec(category_any=["피자"], title_any=["피자"])
NEAR_JAMSIL = J.AreaSpec(center=J.LatLon(lat=JAMSIL[0], lon=JAMSIL[1]), radius_m=1000)


def rubric(**kw: Any) -> J.Rubric:
    return J.Rubric.model_validate({"kind": GOGI, "not_kind": GOGI_NOT, "area": NEAR_JAMSIL, **kw})


# ---------------------------------------------------------------- kind


def test_right_kind_by_category() -> None:
    assert J.grade(doc(category="한식>육류,고기>삼겹살"), rubric()) == 2


def test_right_kind_by_title() -> None:
    assert J.grade(doc(title="잠실 고깃집", category="한식"), rubric()) == 2


def test_neighbour_kind_is_excluded_even_when_category_matches() -> None:
    # 닭갈비 sits under 한식>육류,고기>닭요리 in the crawl: a category hit, but not a 고깃집
    assert J.grade(doc(title="춘천닭갈비", category="한식>육류,고기>닭요리"), rubric()) == 0
    # the user complaint: a squid bar with 오징어불고기 is not a 고깃집
    squid = doc(title="오징어바다", category="술집", menus=menus("오징어불고기", "삼겹살", "목살"))
    assert J.grade(squid, rubric()) == 0


def test_pizza_is_not_a_chicken_place() -> None:
    r = J.Rubric(kind=CHICKEN, not_kind=CHICKEN_NOT)
    assert J.grade(doc(title="교촌치킨 잠실점", category="치킨>교촌치킨"), r) == 2
    pizza = doc(
        title="피자나라치킨공주 가락점",
        category="양식>피자>피자나라치킨공주",
        menus=menus("후라이드", "고구마피자"),
    )
    assert J.grade(pizza, r) == 0


def test_menu_share_threshold() -> None:
    bar = doc(title="동네술집", category="술집", menus=menus("삼겹살", "먹태", "골뱅이", "계란말이", "소주"))
    assert J.menu_share(bar, GOGI.menu_any) == pytest.approx(0.2)
    assert J.grade(bar, rubric()) == 0  # one meat line in five is a bar, not a 고깃집
    grill = doc(
        title="동네식당", category="한식", menus=menus("생삼겹살", "목살", "항정살", "된장찌개", "냉면")
    )
    assert J.menu_share(grill, GOGI.menu_any) == pytest.approx(0.6)
    assert J.grade(grill, rubric()) == 2


def test_menu_share_ignores_empty_names_and_no_menu_is_no_evidence() -> None:
    d = doc(title="동네식당", category="한식", menus=[*menus("삼겹살", "목살"), {"name": " ", "price": ""}])
    assert J.menu_share(d, GOGI.menu_any) == 1.0
    assert J.grade(doc(title="동네식당", category="한식", menus=[]), rubric()) == 0


def test_matching_is_case_and_space_insensitive() -> None:
    r = J.Rubric(kind=J.KindSpec(label="버거", title_any=["burger"]))
    assert J.grade(doc(title="Connie BURGER & pasta"), r) == 2
    assert J.contains_any("생 삼겹살 (200g)", ["삼겹살(200"])


def test_kind_null_means_any_kind_but_not_kind_still_applies() -> None:
    r = J.Rubric(not_kind=J.NotKindSpec(category_any=["카페"]))
    assert J.grade(doc(category="한식"), r) == 2
    assert J.grade(doc(category="베이커리,카페"), r) == 0


# ---------------------------------------------------------------- area


def test_out_of_area() -> None:
    far = doc(
        category="한식>육류,고기", mapx="1270279140", mapy="374977180", roadAddress="서울 강남구 강남대로 1"
    )
    assert J.grade(far, rubric()) == 0  # 강남역 is ~7 km from 잠실역


def test_area_by_radius_boundary() -> None:
    c = J.coords(doc())
    assert c is not None
    # ~890 m north of 잠실역 is inside 1 km, ~1.1 km is not
    inside = doc(category="한식>육류,고기", mapy="375219770")
    outside = doc(category="한식>육류,고기", mapy="375239770")
    assert J.grade(inside, rubric()) == 2
    assert J.grade(outside, rubric()) == 0


def test_area_by_address_and_missing_coordinates() -> None:
    gu = J.AreaSpec(address_any=["송파구"])
    no_coords = doc(category="한식>육류,고기", mapx="", mapy="")
    assert J.grade(no_coords, rubric(area=gu)) == 2  # address is enough
    assert J.grade(no_coords, rubric()) == 0  # radius only and no coordinates: unknown -> outside
    zero = doc(category="한식>육류,고기", mapx="0", mapy="0", roadAddress="")
    assert J.coords(zero) is None
    assert J.grade(zero, rubric()) == 0


def test_area_spec_needs_center_with_radius() -> None:
    with pytest.raises(ValueError):
        J.AreaSpec(center=J.LatLon(lat=37.5, lon=127.1))
    with pytest.raises(ValueError):
        J.AreaSpec()


# ---------------------------------------------------------------- hard conditions


def test_tags_hard_condition() -> None:
    r = rubric(hard={"tags_any": ["주차"]})
    base = {"category": "한식>육류,고기"}
    assert J.grade(doc(**base, reviewKeywords={"맛": 5, "주차": 2}), r) == 2
    assert J.grade(doc(**base, reviewKeywords={"맛": 5}), r) == 0
    assert J.grade(doc(**base, reviewKeywords={"주차": 0}), r) == 0
    assert J.grade(doc(**base), r) == 0  # no reviewKeywords at all: unknown


def test_exclusions() -> None:
    japanese = J.KindSpec(label="일식", category_any=["일식"])
    r = J.Rubric(
        kind=japanese,
        hard=J.HardSpec(
            exclude_menu_any=["사시미", "모듬회"], exclude_category_any=["초밥"], exclude_title_any=["스시"]
        ),
    )
    assert J.grade(doc(category="일식>돈까스,우동", menus=menus("등심카츠", "우동")), r) == 2
    assert J.grade(doc(category="일식", menus=menus("등심카츠", "모듬회 (소)")), r) == 0
    assert J.grade(doc(category="일식>초밥,롤", menus=menus("모듬초밥")), r) == 0
    assert J.grade(doc(title="스시우미", category="일식"), r) == 0


def test_price_uses_the_kind_menu_lines() -> None:
    r = rubric(hard={"price_max": 15000})
    cheap = doc(
        category="한식>육류,고기",
        menus=[
            {"name": "삼겹살(150g)", "price": "14,000원"},
            {"name": "목살(150g)", "price": "15,000원"},
            {"name": "한우 모듬 세트", "price": "89,000원"},  # not a menu_any line: ignored
        ],
    )
    assert J.reference_price(cheap, GOGI) == 14500
    assert J.grade(cheap, r) == 2
    dear = doc(category="한식>육류,고기", menus=[{"name": "삼겹살", "price": "18,000원"}])
    assert J.grade(dear, r) == 0
    unpriced = doc(category="한식>육류,고기", menus=menus("삼겹살", "목살"))
    assert J.grade(unpriced, r) == 0  # no prices: unknown


def test_parse_price() -> None:
    assert J.parse_price("8,500원") == 8500
    assert J.parse_price("") is None
    assert J.parse_price("변동") is None
    assert J.parse_price("10,000~20,000원") is None


# ---------------------------------------------------------------- opening hours


def open_rubric(weekday: int, time: str) -> J.Rubric:
    return rubric(hard={"open_at": {"weekday": weekday, "time": time}})


MEAT = {"category": "한식>육류,고기"}


def test_unknown_hours_never_satisfy_open_at() -> None:
    r = open_rubric(2, "19:30")
    assert J.grade(doc(**MEAT), r) == 0  # missing
    assert J.grade(doc(**MEAT, businessHours="일요일"), r) == 0  # only the closing day was crawled
    assert J.grade(doc(**MEAT, businessHours="기타  (11:30~재료소진시까지)"), r) == 0
    assert J.grade(doc(**MEAT, businessHours="매일 10:00 ~ 10:00"), r) == 0
    assert J.grade(doc(**MEAT, businessHours="월~토 11:00 ~ 22:00 (일요일 격주영업)"), r) == 0
    assert J.grade(doc(**MEAT, businessHours="매일 17:00 ~ 13:00"), r) == 0  # typo, not 20 hours
    assert J.grade(doc(**MEAT, businessHours="매일 11:30 ~ 22:00"), r) == 2


@pytest.mark.parametrize(
    ("hours", "weekday", "time", "expected"),
    [
        ("매일 11:30 ~ 21:30", 6, "21:00", True),
        ("매일 11:30 ~ 21:30", 6, "21:30", False),  # closing time is exclusive
        ("월~토 11:00 ~ 22:00", 6, "12:00", False),  # Sunday not listed
        ("월,화,수,목,일 11:30 ~ 23:00", 4, "12:00", False),  # Friday not listed
        ("월,화,수,목,일 11:30 ~ 23:00", 6, "12:00", True),
        ("화~일 17:00 ~ 02:00", 2, "01:30", True),  # Tuesday night spills into Wednesday
        ("화~일 17:00 ~ 02:00", 1, "01:30", False),  # Monday night: Monday is not listed
        ("화~일 17:00 ~ 02:00", 0, "01:30", True),  # Sunday night spills into Monday
        ("매일 00:00 ~ 24:00", 3, "04:00", True),
        ("매일 00:00 ~ 23:59", 3, "23:59", True),
        ("매일 12:00 ~ 24:00", 3, "23:30", True),
        ("매일 12:00 ~ 24:00", 4, "00:30", False),
        ("매일 07:00 ~ 06:00", 5, "05:30", True),  # 23-hour day, read literally
        ("매일 07:00 ~ 06:00", 5, "06:30", False),
        ("월~금 09:00 ~ 18:00 (재료소진시 조기마감)", 0, "10:00", True),  # harmless note
    ],
)
def test_open_at(hours: str, weekday: int, time: str, expected: bool) -> None:
    assert J.open_at(doc(businessHours=hours), J.OpenAt(weekday=weekday, time=time)) is expected


def test_parse_hours_shapes() -> None:
    assert J.parse_hours("매일 11:30 ~ 21:30") == [(frozenset(range(7)), 690, 1290)]
    assert J.parse_hours("월,수,금 9:00 ~ 18:00") == [(frozenset({0, 2, 4}), 540, 1080)]
    assert J.parse_hours("토,일요일") is None
    assert J.parse_hours("설당일") is None
    assert J.parse_hours(None) is None


# ---------------------------------------------------------------- soft conditions and counting


def test_soft_condition_grades_one_when_unsupported() -> None:
    r = rubric(soft={"tags_any": ["분위기"]})
    assert J.grade(doc(**MEAT, reviewKeywords={"분위기": 3}), r) == 2
    assert J.grade(doc(**MEAT, reviewKeywords={"맛": 3}), r) == 1
    assert J.grade(doc(**MEAT), r) == 1  # unknown soft condition
    assert J.grade(doc(category="카페"), r) == 0  # wrong kind stays 0


def test_count_grades() -> None:
    docs = [
        doc(**MEAT, reviewKeywords={"분위기": 1}),
        doc(**MEAT),
        doc(title="춘천닭갈비", category="한식>육류,고기>닭요리"),
        doc(category="카페"),
    ]
    assert J.count_grades(rubric(soft={"tags_any": ["분위기"]}), docs) == (1, 1)
    assert J.count_grades(rubric(), docs) == (2, 0)


def test_rubric_rejects_unknown_fields() -> None:
    with pytest.raises(ValueError):
        J.Rubric.model_validate({"kind": None, "hard": {"open_now": True}})


# ---------------------------------------------------------------- the shipped set


def test_shipped_set_is_consistent_with_the_raw_crawl() -> None:
    items = J.load_set()
    assert len(items) >= 170
    assert len({it.id for it in items}) == len(items)
    assert sum(it.rubric.expect_none for it in items) >= 15
    assert sum(it.gps is not None for it in items) >= 10
    assert J.check_set(items, J.load_raw()) == []


def test_shipped_test_split_is_frozen() -> None:
    frozen = J.SET_PATH.with_name("relevance_FROZEN.txt").read_text(encoding="utf-8")
    assert J.frozen_sha256() in frozen


@pytest.mark.parametrize("name", ["relevance_test2", "relevance_test3"])
def test_later_test_sets_are_frozen_and_valid(name: str) -> None:
    path = J.SET_PATH.with_name(f"{name}.jsonl")
    frozen = path.with_name(f"{name}_FROZEN.txt").read_text(encoding="utf-8")
    assert J.frozen_sha256(path) in frozen
    items = J.load_set(path)
    assert len(items) == 120 and all(it.split == "test" for it in items)
    assert J.check_set(items, J.load_raw()) == []


@pytest.mark.parametrize(
    ("name", "size"),
    [
        ("relevance_test5", 121),
        ("relevance_test6", 141),
        ("relevance_test7", 163),
        ("relevance_test8", 125),
        ("relevance_test9", 124),
        ("relevance_test10", 130),
        ("relevance_test11", 132),
        ("relevance_test12", 143),
        ("relevance_test13", 138),
        ("relevance_test14", 114),
        ("relevance_test15", 129),
        ("relevance_test16", 118),
        ("relevance_test17", 125),
        ("relevance_test18", 143),
        ("relevance_test19", 113),
        ("relevance_test20", 117),
        ("relevance_test21", 129),
        ("relevance_test22", 146),
        ("relevance_test23", 133),
    ],
)
def test_blind_test_sets_of_issue_24_are_frozen_and_valid(name: str, size: int) -> None:
    path = J.SET_PATH.with_name(f"{name}.jsonl")
    frozen = path.with_name(f"{name}_FROZEN.txt").read_text(encoding="utf-8")
    assert J.frozen_sha256(path) in frozen
    items = J.load_set(path)
    assert len(items) == size and all(it.split == "test" for it in items)
    assert all(it.pool is not None for it in items)
    assert J.check_set(items, J.load_raw()) == []


def test_pop_at_3_and_low_at_3_read_raw_review_counts() -> None:
    from matjip.eval.relevance_eval import ItemResult, Report

    def item(shown: list[int], pool: list[int]) -> ItemResult:
        return ItemResult(
            id="r001",
            question="q",
            expect_none=False,
            shown=["a"] * len(shown),
            grades=[2] * len(shown),
            kind_ok=[True] * len(shown),
            pool2=len(pool),
            pool1=0,
            answer="",
            ms=1.0,
            shown_reviews=shown,
            pool_reviews=pool,
        )

    # pool 0, 10, 100, 300: a card with 300 reviews is above 3 of 4 and equal to 1 -> 3.5/4
    top = item([300], [0, 10, 100, 300])
    assert top.popularity == [0.875]
    # a card with 2 reviews in a pool holding a place with >= 50 reviews is obscure
    low = item([2, 300], [2, 300])
    assert low.popularity == [0.25, 0.75]
    assert low.obscure == [True, False]
    # no popular place in the pool: the obscure share does not apply
    assert item([1], [1, 3]).obscure is None
    rows = dict(Report(split="test", items=[top, low]).rows())
    pop = next(v for k, v in rows.items() if k.startswith("pop@3"))
    low3 = next(v for k, v in rows.items() if k.startswith("low@3"))
    assert pop == f"{(0.875 + 0.25 + 0.75) / 3:.3f}"
    assert low3.startswith("0.333 (1/3")
