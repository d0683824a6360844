"""The §5.3 summary and the §9.1 context block."""

from __future__ import annotations

from typing import Any

from matjip.documents import MenuItem, Restaurant
from matjip.ingest.summary import build_context, build_context_block, build_summary

# The seed's final document example (seed 000 §5.5), built by hand.
MAMISON_MENUS = [
    ("오리로스구이(한마리)", 57000),
    ("양념게장정식+된장찌개(1인분)", 10000),
    ("모듬전+김치찌개", 38000),
    ("모듬전", 35000),
    ("생선모듬구이(중)", 35000),
    ("갈치조림(대)", 40000),
]
MAMISON: dict[str, Any] = {
    "place_id": "38010856",
    "title": "마미손빈대떡,생선구이,오리구이",
    "category": "한식",
    "cuisine": "한식",
    "address": "서울특별시 송파구 가락동 87 유일빌딩 1층 마미손빈대떡",
    "roadAddress": "서울특별시 송파구 중대로9길 50 유일빌딩 1층 마미손빈대떡",
    "lat": 37.4971191,
    "lon": 127.1194978,
    "menus": [MenuItem(name=n, price=p) for n, p in MAMISON_MENUS],
    "review_food": [
        "모듬전",
        "부침개",
        "빈대떡",
        "오리로스구이",
        "오리탕",
        "양념게장",
        "고등어구이",
        "제육볶음",
        "파전",
        "김치전",
    ],
    "convenience": ["주차", "포장"],
    "atmosphere": ["넓은 공간", "쾌적한", "시끌벅적한"],
    "occasion": ["점심식사", "회식", "술자리", "모임", "가족"],
    "features": ["가성비", "친절한", "방송출연", "신메뉴", "리뉴얼", "요일별 특별반찬"],
}

# The seed's summary lines other than 메뉴 (copied from §5.5), which must come out identical.
SEED_LINES = [
    "식당 이름: 마미손빈대떡,생선구이,오리구이",
    "카테고리: 한식",
    "주소: 서울특별시 송파구 가락동 87 유일빌딩 1층 마미손빈대떡(서울특별시 송파구 중대로9길 50 유일빌딩 1층 마미손빈대떡)",
    "편의: 주차,포장",
    "분위기: 넓은 공간,쾌적한,시끌벅적한",
    "상황: 점심식사,회식,술자리,모임,가족",
    "기타 특징: 가성비,친절한,방송출연,신메뉴,리뉴얼,요일별 특별반찬",
]


def restaurant(**kw: Any) -> Restaurant:
    data: dict[str, Any] = {"place_id": "1", "title": "식당"}
    data.update(kw)
    return Restaurant.model_validate(data)


def test_seed_example_summary() -> None:
    s = build_summary(restaurant(**MAMISON))
    lines = s.split("\n")
    assert [line for line in lines if not line.startswith("메뉴: ")] == SEED_LINES
    assert lines[3] == (
        "메뉴: 오리로스구이(한마리)(57000원),양념게장정식+된장찌개(1인분)(10000원),모듬전+김치찌개(38000원),"
        "모듬전(35000원),생선모듬구이(중)(35000원),갈치조림(대)(40000원),"
        # review foods: 모듬전 and 오리로스구이 are already on the menu
        "부침개,빈대떡,오리탕,양념게장,고등어구이,제육볶음,파전,김치전"
    )
    assert [line.split(":")[0] for line in lines] == [
        "식당 이름",
        "카테고리",
        "주소",
        "메뉴",
        "편의",
        "분위기",
        "상황",
        "기타 특징",
    ]


def test_empty_values_are_omitted() -> None:
    s = build_summary(
        restaurant(title="김밥천국", category="분식", cuisine="분식", roadAddress="서울 강동구 천호대로 1")
    )
    assert s == "식당 이름: 김밥천국\n카테고리: 분식\n주소: 서울 강동구 천호대로 1"
    assert "None" not in s


def test_address_variants() -> None:
    def addr(**kw: Any) -> str | None:
        for line in build_summary(restaurant(**kw)).split("\n"):
            if line.startswith("주소: "):
                return line[len("주소: ") :]
        return None

    assert addr(address="서울 송파구 가락동 87", roadAddress="서울 송파구 중대로9길 50") == (
        "서울 송파구 가락동 87(서울 송파구 중대로9길 50)"
    )
    assert addr(address="서울 송파구 가락동 87") == "서울 송파구 가락동 87"
    assert addr(roadAddress="서울 송파구 중대로9길 50") == "서울 송파구 중대로9길 50"
    assert addr(address="서울 A로 1", roadAddress="서울 A로 1") == "서울 A로 1"
    assert addr() is None


def test_menu_prices_and_review_food() -> None:
    r = restaurant(
        menus=[
            MenuItem(name="김치찌개", price=9000),
            MenuItem(name="공기밥"),
            MenuItem(name="모둠 사시미", price=30000, price_is_range=True),
        ],
        review_food=["김치찌개", "계란말이", "모둠사시미"],
    )
    assert build_summary(r).split("\n")[1] == "메뉴: 김치찌개(9000원),공기밥,모둠 사시미(30000원~),계란말이"


def test_category_falls_back_to_the_original_string() -> None:
    assert "카테고리: 한식" in build_summary(restaurant(category="한식>육류,고기>삼겹살", cuisine="한식"))
    assert "카테고리: 테마카페" in build_summary(restaurant(category="테마카페", cuisine="기타"))
    assert "카테고리" not in build_summary(restaurant(category="", cuisine="기타"))


def test_context_block() -> None:
    r = restaurant(**MAMISON, description="매일 신선하고 맛있는 음식으로\n최선을 다해 준비하고 있습니다.")
    block = build_context_block(r, 3)
    assert block.startswith("문서3:\n식당 이름: 마미손빈대떡,생선구이,오리구이\n카테고리: 한식\n")
    assert block == "문서3:\n" + build_summary(r)
    # a stored summary is used as is
    stored = r.model_copy(update={"summary": "식당 이름: 저장된 요약"})
    assert build_context_block(stored, 1) == "문서1:\n식당 이름: 저장된 요약"
    with_desc = build_context_block(r, 1, description_chars=10)
    assert with_desc.endswith("\n식당 소개: 매일 신선하고 (...줄임)")
    both = build_context([r, restaurant(title="둘째")])
    assert both.startswith("문서1:\n") and "\n\n\n문서2:\n식당 이름: 둘째" in both
