"""The grounding check: names, bold headings, prices and numbers must come from the context."""

from __future__ import annotations

import pytest

from matjip.agent.stages.grounding import (
    Grounder,
    NameIndex,
    StreamGuard,
    check_grounding,
    find_prices,
)
from matjip.errors import Ungrounded

# seed 000 §9.3: the context and (an excerpt of) the answer the seed shows as good
CONTEXT = """문서1:
식당 이름: 스시젠 강남점
주소: 서울특별시 강남구 역삼동 123-45 (강남대로 456)
메뉴: 오마카세(80000원), 연어사시미(25000원), 참치사시미(30000원), 우니초밥(15000원), 장어덮밥(18000원)
편의: 주차, 예약, 포장, 발렛파킹
분위기: 고급스러운, 조용한, 모던한

문서2:
식당 이름: 도쿄스시 강남본점
주소: 서울특별시 강남구 논현동 789-12 (테헤란로 321)
메뉴: 특선초밥세트(45000원), 회덮밥(22000원), 새우튀김(18000원), 미소시루(8000원), 사케(12000원)
편의: 주차, 포장, 배달
거리: 강남역에서 350m
오늘 영업시간: 11:30~21:00
리뷰 수: 128건"""

SEED_ANSWER = """안녕하세요! 강남역 근처에서 주차 가능한 일식집을 찾으시는군요.

**1. 스시젠 강남점**

- **주차:** 주차 가능하며 발렛파킹 서비스도 제공합니다.
- **메뉴:** 오마카세(80,000원), 연어사시미(25,000원), 참치사시미(30,000원), 우니초밥(15,000원), 장어덮밥(18,000원) 등 신선한 재료로 만든 다양한 일식 메뉴를 즐기실 수 있습니다.
- **위치:** 서울특별시 강남구 역삼동 123-45 (강남대로 456)에 위치해 있습니다.

**2. 도쿄스시 강남본점**

- **메뉴:** 특선초밥세트(45,000원), 회덮밥(22,000원) 등이 있어요. 강남역에서 약 350m 거리이고 오늘은 오후 9시까지 영업해요.
"""

KNOWN = [
    "스시젠 강남점",
    "스시젠 역삼점",
    "도쿄스시 강남본점",
    "진대감 마포점",
    "교촌치킨 강남점",
    "본죽",
    "가성비",
]


def names() -> NameIndex:
    return NameIndex(NameIndex.derived(KNOWN))


def test_seed_answer_is_grounded() -> None:
    report = check_grounding(SEED_ANSWER, [CONTEXT], names=names())
    assert report.ok, report.reason()


def test_hallucinated_known_restaurant_is_caught() -> None:
    answer = "강남역 근처라면 **진대감 마포점**도 추천드려요. 한우가 맛있어요."
    report = check_grounding(answer, [CONTEXT], names=names())
    assert not report.ok
    assert [i.kind for i in report.issues] == ["name"]  # bold inside a sentence is not a heading
    assert "진대감마포점" in report.reason()
    heading = check_grounding("**3. 진대감 마포점**\n", [CONTEXT], names=names())
    assert sorted(i.kind for i in heading.issues) == ["bold", "name"]


def test_known_brand_of_another_branch_is_caught() -> None:
    # "스시젠 역삼점" is a real restaurant of the index but not the one found
    report = check_grounding("스시젠 역삼점도 가까워요.", [CONTEXT], names=names())
    assert [i.kind for i in report.issues] == ["name"]


def test_brand_mentioned_in_context_is_fine_and_stopwords_are_ignored() -> None:
    report = check_grounding("스시젠은 가성비도 좋아요.", [CONTEXT], names=names())
    assert report.ok, report.reason()  # "스시젠" (brand of the context's branch); "가성비" is a stopword


def test_two_character_names_need_a_word_boundary() -> None:
    idx = names()
    assert idx.find("본죽에서 죽을 먹어요") == ["본죽"]
    assert idx.find("기본죽 메뉴") == []  # inside a word
    assert idx.find("본죽집") == []  # not followed by a particle or a boundary


def test_unknown_bold_heading_is_caught_but_labels_are_not() -> None:
    g = Grounder([CONTEXT])
    assert [i.kind for i in g.check("**3. 이자카야 하나**\n")] == ["bold"]
    assert g.check("- **주차:** 가능해요\n") == []
    assert g.check("**분위기**: 조용해요\n") == []
    assert g.check("**스시젠 강남점 (일식)**\n") == []


@pytest.mark.parametrize(
    ("text", "won"),
    [
        ("12,000원", 12000),
        ("12000원", 12000),
        ("1만2천원", 12000),
        ("1만 2천 원", 12000),
        ("1.2만원", 12000),
        ("3천원", 3000),
        ("2만원", 20000),
        ("만 원", 10000),
        ("1만5백원", 10500),
    ],
)
def test_price_parsing(text: str, won: int) -> None:
    assert [p.won for p in find_prices(text)] == [won]


def test_prices_must_be_in_the_context() -> None:
    g = Grounder([CONTEXT])
    assert g.check("오마카세는 8만원이에요.") == []
    assert g.check("미소시루는 8천원이에요.") == []
    assert [i.kind for i in g.check("오마카세는 9만원이에요.")] == ["price"]
    assert g.check("메뉴는 주로 1만원대예요.") == []  # 12,000원, 15,000원, 18,000원 are in the band
    assert [i.kind for i in g.check("6만원대 코스도 있어요.")] == ["price"]


def test_numbers_with_units() -> None:
    g = Grounder([CONTEXT, "강남역 500m 이내 일식집"])
    assert g.check("강남역에서 350m예요.") == []
    assert g.check("0.35km 거리예요.") == []
    assert g.check("500m 이내로 찾았어요.") == []  # from the user's message
    assert [i.kind for i in g.check("1.5km 거리예요.")] == ["number"]
    assert g.check("리뷰가 128건이에요.") == []
    assert [i.kind for i in g.check("리뷰가 300건이에요.")] == ["number"]
    assert g.check("오후 9시까지, 11시 30분부터 영업해요.") == []
    assert [i.kind for i in g.check("새벽 3시까지 영업해요.")] == ["number"]
    assert [i.kind for i in g.check("도보 7분 거리예요.")] == ["number"]
    assert g.check("2시간 정도 머물기 좋아요.") == []  # 시간 is not an hour


def test_stream_guard_releases_checked_pieces_only() -> None:
    guard = StreamGuard(Grounder([CONTEXT], names=names()))
    out: list[str] = []
    for delta in ["**1. 스시젠 ", "강남점**\n- 오마카세", "(80,000원)가 대표 메뉴예요. 주차", "도 됩니다.\n"]:
        out += guard.feed(delta)
    assert out == ["**1. 스시젠 강남점**\n", "- 오마카세(80,000원)가 대표 메뉴예요.", " 주차도 됩니다.\n"]
    with pytest.raises(Ungrounded, match="진대감"):
        guard.feed("진대감 마포점도 좋아요.\n")
    assert guard.text == "".join(out)  # nothing of the bad piece was released


def test_stream_guard_finish_checks_the_tail() -> None:
    guard = StreamGuard(Grounder([CONTEXT]))
    assert guard.feed("장어덮밥은 18,000원") == []
    assert guard.finish() == ["장어덮밥은 18,000원"]
    guard = StreamGuard(Grounder([CONTEXT]))
    guard.feed("장어덮밥은 19,000원")
    with pytest.raises(Ungrounded):
        guard.finish()


def test_stream_guard_does_not_split_inside_bold_or_numbers() -> None:
    guard = StreamGuard(Grounder([CONTEXT, "1.2km"]))
    assert guard.feed("**1. 스시젠 강남점** 은 1.2km 떨어져 있어요. 다음") == [
        "**1. 스시젠 강남점** 은 1.2km 떨어져 있어요."
    ]
