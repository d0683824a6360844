"""Cuisine classification of crawled category strings (seed 000 §5.1, step 1)."""

from __future__ import annotations

import gzip
import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matjip.ingest.category import CUISINES, CategoryInfo, classify_category

DEMO = Path(__file__).resolve().parents[1] / "src" / "matjip" / "data" / "kakao_capital.jsonl.gz"


def test_taxonomy_is_small_and_unique() -> None:
    assert len(CUISINES) == len(set(CUISINES))
    assert 8 <= len(CUISINES) <= 16
    assert "기타" in CUISINES


@pytest.mark.parametrize(
    ("category", "cuisine", "sub"),
    [
        # the examples of the brief
        ("한식>전,빈대떡", "한식", "전,빈대떡"),
        ("한식>육류,고기>족발,보쌈", "한식", "육류,고기>족발,보쌈"),
        ("육류", "한식", "육류"),
        ("베이커리,카페", "카페·디저트", "베이커리,카페"),
        ("술집>호프,요리주점", "술집", "호프,요리주점"),
        ("간식>제과,베이커리>파리바게뜨", "베이커리", "제과,베이커리>파리바게뜨"),
        ("간식>아이스크림", "카페·디저트", "아이스크림"),
        ("음식점>카페,디저트", "카페·디저트", None),
        ("중화요리", "중식", None),
        ("일식집", "일식", "일식집"),
        ("아시아음식>동남아음식>베트남음식", "아시아", "동남아음식>베트남음식"),
        ("패스트푸드>샌드위치", "패스트푸드", "샌드위치"),
        ("치킨>BBQ", "치킨", "BBQ"),
        ("명륜진사갈비", "한식", "명륜진사갈비"),
        ("도미노피자", "양식", "도미노피자"),
        ("메가MGC커피", "카페·디저트", "메가MGC커피"),
        ("한식>죽>본죽", "한식", "죽>본죽"),
        ("음식점 > 한식 > 국밥", "한식", "국밥"),
        # real strings from the demo data
        ("한식", "한식", None),
        ("분식", "분식", None),
        ("일식", "일식", None),
        ("양식", "양식", None),
        ("중식>중국요리", "중식", "중국요리"),
        ("한식>해물,생선>회", "한식", "해물,생선>회"),
        ("술집>일본식주점", "술집", "일본식주점"),
        ("일식>돈까스,우동", "일식", "돈까스,우동"),
        ("간식>떡,한과", "카페·디저트", "떡,한과"),
        ("양식>이탈리안", "양식", "이탈리안"),
        ("분식>떡볶이", "분식", "떡볶이"),
        ("양식>피자", "양식", "피자"),
        ("중식>양꼬치", "중식", "양꼬치"),
        ("해산물", "한식", "해산물"),
        ("뷔페>한식뷔페", "뷔페", "한식뷔페"),
        ("샤브샤브", "한식", "샤브샤브"),
        ("도시락", "한식", "도시락"),
        ("술집>와인바", "술집", "와인바"),
        ("간식>닭강정", "치킨", "닭강정"),
        ("간식>아이스크림>배스킨라빈스", "카페·디저트", "아이스크림>배스킨라빈스"),
        ("술집>오뎅바>투다리", "술집", "오뎅바>투다리"),
        ("간식>토스트>이삭토스트", "패스트푸드", "토스트>이삭토스트"),
        ("간식>도넛>던킨", "베이커리", "도넛>던킨"),
        ("퓨전요리>퓨전일식", "일식", "퓨전일식"),
        ("퓨전요리>퓨전한식>본죽&비빔밥cafe", "한식", "퓨전한식>본죽&비빔밥cafe"),
        ("퓨전요리>퓨전중식", "중식", "퓨전중식"),
        ("커피전문점", "카페·디저트", "커피전문점"),
        ("패밀리레스토랑>T.G.I.FRIDAYS", "양식", "T.G.I.FRIDAYS"),
        ("샐러드>포케올데이", "양식", "포케올데이"),
        ("샌드위치,샐러드", "패스트푸드", "샌드위치,샐러드"),
        ("테마카페", "카페·디저트", "테마카페"),
        ("애견카페", "카페·디저트", "애견카페"),
        ("제과,베이커리", "베이커리", "제과,베이커리"),
        ("김영모과자점", "베이커리", "김영모과자점"),
        ("간식>제과,베이커리>와플대학", "베이커리", "제과,베이커리>와플대학"),
        ("기사식당", "한식", "기사식당"),
        ("구내식당", "한식", "구내식당"),
        ("양꼬치", "중식", "양꼬치"),
        ("인도음식", "아시아", "인도음식"),
        ("아시아음식>튀르키예음식", "아시아", "튀르키예음식"),
        ("멕시칸,브라질", "양식", "멕시칸,브라질"),
        ("일본식라면", "일식", "일본식라면"),
        ("홍콩반점0410", "중식", "홍콩반점0410"),
        ("라화쿵부", "중식", "라화쿵부"),
        ("동대문엽기떡볶이", "분식", "동대문엽기떡볶이"),
        ("바르다김선생", "분식", "바르다김선생"),
        ("가마로강정", "치킨", "가마로강정"),
        ("지코바", "치킨", "지코바"),
        ("역전할머니맥주", "술집", "역전할머니맥주"),
        ("느린마을양조장", "술집", "느린마을양조장"),
        ("롯데리아", "패스트푸드", "롯데리아"),
        ("버거앤프라이즈", "패스트푸드", "버거앤프라이즈"),
        ("긴자료코", "일식", "긴자료코"),
        ("스시오", "일식", "스시오"),
        ("에머이", "아시아", "에머이"),
        ("설빙", "카페·디저트", "설빙"),
        ("배스킨라빈스", "카페·디저트", "배스킨라빈스"),
        ("고기뷔페", "뷔페", "고기뷔페"),
        ("신마포갈매기", "한식", "신마포갈매기"),
        ("다사랑치킨피자", "치킨", "다사랑치킨피자"),
        ("푸드코트", "기타", "푸드코트"),
        ("기타", "기타", None),
        ("음식점", "기타", None),
        ("", "기타", None),
    ],
)
def test_fixture_categories(category: str, cuisine: str, sub: str | None) -> None:
    info = classify_category(category)
    assert info == CategoryInfo(original=category, cuisine=cuisine, sub_category=sub)


@pytest.mark.parametrize(
    ("category", "title", "cuisine"),
    [
        # the title refines generic categories ...
        ("기타", "팔당족발&보쌈", "한식"),
        ("기타", "델리인디아", "아시아"),
        ("음식점", "비타민한식뷔페", "뷔페"),
        ("음식점", "담소선술집", "술집"),
        ("", "홍콩반점0410 강남점", "중식"),
        ("면류", "오레노라멘 합정본점", "일식"),
        ("면류", "진미평양냉면", "한식"),
        ("베이커리,카페", "리치몬드과자점 성산본점", "베이커리"),
        ("베이커리,카페", "앤트러사이트 서교점", "카페·디저트"),
        ("간식", "스마일명품찹쌀꽈배기", "베이커리"),
        ("간식", "달콤왕가탕후루 거여점", "카페·디저트"),
        # ... but never overrides a clear category
        ("한식>국밥", "라멘집", "한식"),
        ("술집>호프,요리주점", "치킨 앤 비어", "술집"),
        ("베이커리,카페", "스타벅스 와인바", "카페·디저트"),  # only bakery words refine a bakery-café
        ("기타", "웃사브", "기타"),
    ],
)
def test_title_refines_only_generic_categories(category: str, title: str, cuisine: str) -> None:
    assert classify_category(category, title).cuisine == cuisine


def test_spaces_and_leading_restaurant_level_are_ignored() -> None:
    plain = classify_category("한식>육류,고기>갈비")
    spaced = classify_category("음식점 > 한식 > 육류,고기 > 갈비")
    assert (spaced.cuisine, spaced.sub_category) == (plain.cuisine, plain.sub_category)
    assert spaced.original == "음식점 > 한식 > 육류,고기 > 갈비"


def _demo_categories() -> Counter[str]:
    counts: Counter[str] = Counter()
    with gzip.open(DEMO, "rt", encoding="utf-8") as fh:
        for line in fh:
            counts[json.loads(line).get("category") or ""] += 1
    return counts


def test_every_demo_category_maps_and_almost_none_to_unknown() -> None:
    counts = _demo_categories()
    assert len(counts) >= 500  # the demo data has 566 distinct category strings
    unknown = [c for c in counts if classify_category(c).cuisine == "기타"]
    for category in counts:
        assert classify_category(category).cuisine in CUISINES
    # only the genuinely generic ones: "기타", "음식점", "푸드코트"
    assert len(unknown) / len(counts) < 0.01, unknown
    assert sum(counts[c] for c in unknown) / sum(counts.values()) < 0.01
    # the big groups land where the taxonomy says
    top: Counter[str] = Counter()
    for category, n in counts.items():
        top[classify_category(category).cuisine] += n
    assert top["한식"] > top["술집"] > top["중식"] > 0
    assert all(top[c] > 0 for c in CUISINES)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60), st.text(max_size=30))
def test_never_raises_and_always_in_taxonomy(category: str, title: str) -> None:
    info = classify_category(category, title)
    assert info.cuisine in CUISINES
    assert info.original == category


_LEVEL = st.sampled_from(
    ["한식", "육류,고기", "갈비", "중식", "술집", "호프,요리주점", "간식", "아이스크림", "치킨"]
)


@settings(max_examples=100, deadline=None)
@given(st.lists(_LEVEL, min_size=1, max_size=4), st.sampled_from([">", " > ", ">  "]))
def test_separator_spacing_and_restaurant_prefix_do_not_matter(levels: list[str], sep: str) -> None:
    plain = classify_category(">".join(levels))
    for variant in (sep.join(levels), "음식점" + sep + sep.join(levels)):
        info = classify_category(variant)
        assert (info.cuisine, info.sub_category) == (plain.cuisine, plain.sub_category)


@pytest.mark.parametrize(
    ("category", "cuisine", "kind"),
    [
        ("오리요리", "한식", "오리"),
        ("오뎅,꼬치", "술집", "오뎅바"),
        ("불닭", "한식", "닭요리"),
        ("복어요리", "한식", "해산물"),
        ("육류,고기요리", "한식", "고깃집"),
        ("맥주,호프", "술집", "호프·맥주집"),
    ],
)
def test_naver_leaf_categories_have_a_home(category: str, cuisine: str, kind: str) -> None:
    """Issue 12: Naver leaf categories map to a cuisine and a kind instead of 기타."""
    from matjip.kinds import kinds

    assert classify_category(category).cuisine == cuisine
    assert kind in [k.kind for k in kinds().classify(category, "", [])]
