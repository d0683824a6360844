"""Offline enrichment (seed 000 §5.2): negation, synonyms, evidence, tags, rules, demo records."""

from __future__ import annotations

import gzip
import json
import random
import re
from collections.abc import Sequence
from importlib import resources
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matjip.documents import ENRICH_FIELDS, EnrichField, Evidence
from matjip.errors import ConfigurationError
from matjip.ingest.crawl import CrawlDocument
from matjip.ingest.enrich import Enricher, Enrichment, OfflineEnricher, get_enricher
from matjip.ingest.enrich import offline as offline_mod
from matjip.ingest.enrich.offline import check_lexicon_consistency, menu_dish_names
from matjip.ingest.enrich.tables import (
    CATEGORY_RULES,
    IMPLIES,
    MENU_RULES,
    NEGATIVE_VARIANTS,
    PATTERN_SURFACES,
    lexicon_sizes,
    lexicons,
)
from matjip.settings import Settings

ENRICHER = OfflineEnricher()


def doc(**kw: Any) -> CrawlDocument:
    base: dict[str, Any] = {"place_id": "1", "title": "테스트식당"}
    base.update(kw)
    return CrawlDocument.model_validate(base)


def has(e: Enrichment, field: EnrichField, value: str) -> bool:
    return value in e.values(field)


# --- contract -----------------------------------------------------------------------------------
def test_get_enricher() -> None:
    e = get_enricher(" Offline ")
    # the compiled copy of the class when it is built (matjip.ingest.enrich.native), else this one
    assert type(e).__name__ == OfflineEnricher.__name__
    assert isinstance(get_enricher("offline", Settings(native=False)), OfflineEnricher)
    assert isinstance(e, Enricher)
    assert e.name == "offline"
    with pytest.raises(ConfigurationError, match="providers"):
        get_enricher("llm")
    with pytest.raises(ConfigurationError, match="unknown enricher 'gpt'"):
        get_enricher("gpt")


def test_enrichment_dedupes_in_order() -> None:
    e = Enrichment(convenience=["주차", " 포장", "주차", "", "포장"])
    assert e.convenience == ["주차", "포장"]
    assert e.is_empty() is False
    assert Enrichment().is_empty()


def test_lexicon_is_consistent_and_has_required_vocabulary() -> None:
    assert check_lexicon_consistency() == []
    required = {
        "주차",
        "발렛",
        "배달",
        "포장",
        "예약",
        "룸",
        "콜키지",
        "반려동물",
        "와이파이",
        "24시",
        "구워줌",
        "단체석",
        "놀이방",
    }
    assert required <= set(lexicons()["convenience"])
    for field, table in lexicons().items():
        for value, surfaces in table.items():
            assert surfaces, (field, value)
            assert len(set(surfaces)) == len(surfaces), f"duplicate surface in {field}/{value}"
    sizes = lexicon_sizes()
    assert sizes["convenience.variants"] > 100
    assert sizes["food_dishes"] > 300


# --- free text (Kiwi) ----------------------------------------------------------------------------
NEGATION_CASES: list[tuple[str, EnrichField, str, bool]] = [
    # (review sentence, field, value, expected)
    ("주차 가능해요", "convenience", "주차", True),
    ("주차 안 돼요", "convenience", "주차", False),
    ("주차 불가", "convenience", "주차", False),
    ("주차불가능합니다", "convenience", "주차", False),
    ("주차 안됨", "convenience", "주차", False),
    ("주차장 없어요", "convenience", "주차", False),
    ("주차는 어려워요", "convenience", "주차", False),
    ("주차가 안 돼서 불편했어요", "convenience", "주차", False),
    ("주차 걱정 없어요", "convenience", "주차", True),
    ("주차 걱정 별로 없어요", "convenience", "주차", True),
    ("주차하기 어렵지 않아요", "convenience", "주차", True),
    ("주차가 불편하지 않아요", "convenience", "주차", True),
    # issue 12: narrowness after a contrast judges the parking ("주차는 되는데" is not "주차 편해요")
    ("주차는 되는데 좁아요", "convenience", "주차", False),
    ("주차는 되는데 유료예요", "convenience", "주차", True),
    ("주차장이 넓어서 편해요", "convenience", "주차", True),
    ("주차난이 심해요", "convenience", "주차", False),
    ("포장 안 됩니다", "convenience", "포장", False),
    ("포장해서 집에서 먹었어요", "convenience", "포장", True),
    ("주차는 되는데 포장은 안 돼요", "convenience", "포장", False),
    ("주차는 되는데 포장은 안 돼요", "convenience", "주차", True),
    ("예약 불가", "convenience", "예약", False),
    ("예약하고 가세요", "convenience", "예약", True),
    ("노키즈존이에요", "occasion", "아이와", False),
    ("노키즈존이에요", "convenience", "놀이방", False),
    ("노키즈존 아님", "convenience", "놀이방", False),
    ("반려동물 출입 금지", "convenience", "반려동물", False),
    ("애견동반 가능해요", "convenience", "반려동물", True),
    ("웨이팅 별로 없어요", "features", "웨이팅", False),
    ("웨이팅이 길어요", "features", "웨이팅", True),
    ("가성비는 별로예요", "features", "가성비", False),
    ("가성비 최고예요", "features", "가성비", True),
    ("분위기는 좋은데 맛은 별로", "atmosphere", "분위기 좋은", True),
    ("분위기는 좋은데 맛은 별로", "features", "맛있는", False),
    ("맛있지는 않아요", "features", "맛있는", False),
    ("조용한 분위기는 아니에요", "atmosphere", "조용한", False),
    ("안 시끄러워요", "atmosphere", "시끌벅적한", False),
    ("친절하지 않아요", "features", "친절한", False),
    ("단체는 어려워요", "occasion", "단체", False),
]


def _batch(sentences: Sequence[str]) -> list[Enrichment]:
    return ENRICHER.enrich_many([doc(place_id=str(i), reviews=[s]) for i, s in enumerate(sentences)])


def test_negation_both_ways() -> None:
    results = _batch([c[0] for c in NEGATION_CASES])
    wrong = [
        (sentence, field, value, expected)
        for (sentence, field, value, expected), e in zip(NEGATION_CASES, results, strict=True)
        if has(e, field, value) != expected
    ]
    assert wrong == []


SYNONYM_CASES: list[tuple[str, EnrichField, str]] = [
    ("주차장 넓어요", "convenience", "주차"),
    ("차 가져가도 편해요", "convenience", "주차"),
    ("파킹도 해줘요", "convenience", "주차"),
    ("발렛파킹 돼요", "convenience", "발렛"),
    ("발렛파킹 돼요", "convenience", "주차"),
    ("테이크아웃 했어요", "convenience", "포장"),
    ("강아지 동반 가능한 곳", "convenience", "반려동물"),
    ("개별룸이 있어서 좋았어요", "convenience", "룸"),
    ("방이 따로 있어요", "convenience", "룸"),
    ("직원분이 고기 구워주셔서 편해요", "convenience", "구워줌"),
    ("24시간 영업이라 좋아요", "convenience", "24시"),
    ("단체석 완비", "convenience", "단체석"),
    ("단체석 완비", "occasion", "단체"),
    ("키즈룸이 있어요", "convenience", "놀이방"),
    ("wifi 잘 터져요", "convenience", "와이파이"),
    ("콜키지 프리라 와인 들고 갔어요", "convenience", "콜키지"),
    ("배민으로 시켰어요", "convenience", "배달"),
    ("뷰가 정말 좋아요", "atmosphere", "뷰 좋은"),
    ("고급스러운 인테리어", "atmosphere", "고급스러운"),
    ("손님이 많아서 시끌시끌 했어요", "atmosphere", "시끌벅적한"),
    ("여자친구랑 기념일에 갔어요", "occasion", "데이트"),
    ("여자친구랑 기념일에 갔어요", "occasion", "기념일"),
    ("팀 회식으로 왔어요", "occasion", "회식"),
    ("혼자 가도 편한 곳", "occasion", "혼밥"),
    ("부모님 모시고 왔어요", "occasion", "가족"),
    ("술 한잔 하기 좋아요", "occasion", "술자리"),
    ("양이 정말 많아요", "features", "양 많은"),
    ("수요미식회에 나온 집", "features", "수요미식회"),
    ("수요미식회에 나온 집", "features", "방송출연"),
    ("새벽까지 영업해요", "features", "심야영업"),
    ("사장님이 친철해요", "features", "친절한"),
]


def test_synonyms_map_to_canonical_values() -> None:
    results = _batch([c[0] for c in SYNONYM_CASES])
    missing = [c for c, e in zip(SYNONYM_CASES, results, strict=True) if not has(e, c[1], c[2])]
    assert missing == []


HOMOGRAPHS: list[tuple[str, EnrichField, str]] = [
    ("리뷰 보고 왔어요", "atmosphere", "뷰 좋은"),
    ("머쉬룸 파스타 추천", "convenience", "룸"),
    ("실내포장마차 분위기", "convenience", "포장"),
    ("방문했어요", "convenience", "룸"),
    ("혼자 먹기엔 양이 많아요", "occasion", "혼밥"),
    # a surface must end on a morpheme boundary
    ("룸메이트랑 갔어요", "convenience", "룸"),
    ("배달원분이 친절해요", "convenience", "배달"),
    ("조용필 노래가 나와요", "atmosphere", "조용한"),
    ("넓적다리 구이", "atmosphere", "넓은"),
    ("단체톡방에 공유했어요", "occasion", "단체"),
]


def test_homographs_do_not_fire() -> None:
    results = _batch([c[0] for c in HOMOGRAPHS])
    fired = [c for c, e in zip(HOMOGRAPHS, results, strict=True) if has(e, c[1], c[2])]
    assert fired == []


def test_review_food_uses_menu_names_and_food_lexicon() -> None:
    d = doc(
        menus=[
            {"name": "오리로스구이(한마리)", "price": "57,000원"},
            {"name": "양념게장정식+된장찌개(1인분)"},
        ],
        reviews=[
            "오리로스구이랑 탕이 세트로 나오는데 깔끔하니 맛있었어요",
            "고등어구이 맛집이에요! 다음엔 양념게장 정식 먹어야겠어요",
            "회사 근처라 메뉴가 다양해요",
        ],
    )
    e = ENRICHER.enrich(d)
    assert {"오리로스구이", "고등어구이", "양념게장정식"} <= set(e.review_food)
    assert not {"회사", "근처", "메뉴", "맛집"} & set(e.review_food)
    # most mentioned first; evidence spans cover the dish text
    for ev in e.evidence:
        if ev.field == "review_food":
            assert "".join(ev.span.split()) == ev.value


def test_votes_decide_conflicts() -> None:
    both = ENRICHER.enrich(doc(reviews=["주차 가능해요", "주차 안 돼요"]))
    assert not has(both, "convenience", "주차")
    more = ENRICHER.enrich(doc(reviews=["주차 가능해요", "주차 안 돼요", "주차장 넓어요"]))
    assert has(more, "convenience", "주차")


def test_enrich_many_batches_kiwi_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = offline_mod.tokenize_pairs_iter

    def spy(texts: Sequence[str]) -> Any:
        calls.append(len(texts))
        return real(texts)

    monkeypatch.setattr(offline_mod, "tokenize_pairs_iter", spy)
    docs = [
        doc(place_id="a", reviews=["주차 가능해요", "분위기 좋아요"]),
        doc(place_id="b"),
        doc(place_id="c", reviews=["포장 안 돼요"], description="예약 가능합니다"),
    ]
    many = ENRICHER.enrich_many(docs)
    assert calls == [4]
    monkeypatch.setattr(offline_mod, "tokenize_pairs_iter", real)
    assert many == [ENRICHER.enrich(d) for d in docs]
    assert has(many[0], "convenience", "주차") and has(many[2], "convenience", "예약")
    assert many[1].is_empty()


# --- evidence property ---------------------------------------------------------------------------
def _source_text(d: CrawlDocument, source: str) -> str:
    if source == "description":
        return d.description
    if source == "category":
        return d.category
    if source == "businessHours":
        return d.businessHours or ""
    if source == "title":
        return d.title
    m = re.fullmatch(r"reviews\[(\d+)\]", source)
    if m:
        return d.reviews[int(m.group(1))]
    m = re.fullmatch(r"menus\[(\d+)\]\.name", source)
    if m:
        return d.menus[int(m.group(1))].name
    raise AssertionError(f"unknown evidence source {source!r}")


def _triggered_by_lexicon(ev: Evidence) -> bool:
    """The span contains a surface of the value, or of a value that implies it (발렛 → 주차), or a match of
    one of its patterns (a clock time, a party counted). Since issue 12 a free-text span quotes the whole
    clause of the mention, so it need not start with it."""
    targets = [(ev.field, ev.value)] + [
        src for src, implied in IMPLIES.items() if (ev.field, ev.value) in implied
    ]
    surfaces = [s for f, v in targets if f in lexicons() for s in lexicons()[f][v]]
    if ev.source == "description" or ev.source.startswith("reviews["):
        patterns = [rx for t in targets for rx in PATTERN_SURFACES.get(t, ())]
        return any(offline_mod._surface_regex(s).search(ev.span) is not None for s in surfaces) or any(
            re.search(rx, ev.span, re.IGNORECASE) for rx in patterns
        )
    return any(offline_mod._surface_regex(s).match(ev.span) is not None for s in surfaces)


def _triggered_by_rule(ev: Evidence) -> bool:
    if ev.source == "category":
        return any(ev.span in names and (ev.field, ev.value) in targets for names, targets in CATEGORY_RULES)
    if ev.source.startswith("menus["):
        return any(
            re.search(rx, ev.span) and t == (ev.field, ev.value) for rx, t in MENU_RULES
        ) or _triggered_by_lexicon(ev)
    if ev.source in ("businessHours", "title"):
        return bool(re.search(r"\d{1,2}:\d{2}|24시", ev.span))
    return False


def check_evidence(d: CrawlDocument, e: Enrichment) -> None:
    for field in ENRICH_FIELDS:
        for value in e.values(field):
            assert e.evidence_for(field, value), f"{field}={value} has no evidence"
    for ev in e.evidence:
        assert ev.value in e.values(ev.field), f"evidence for a dropped value: {ev}"
        if ev.source == "reviewKeywords":
            assert ev.count == d.reviewKeywords[ev.span]
            continue
        text = _source_text(d, ev.source)
        assert ev.start is not None and ev.end is not None
        assert text[ev.start : ev.end] == ev.span, ev
        if ev.field == "review_food":
            assert "".join(ev.span.split()) == ev.value
        elif ev.source in ("description",) or ev.source.startswith("reviews["):
            assert _triggered_by_lexicon(ev), f"span does not start with a surface of {ev.value}: {ev}"
        else:
            assert _triggered_by_rule(ev), ev


FULL_DOC = doc(
    title="24시 고깃집",
    category="한식>육류,고기>삼겹살",
    businessHours="매일 17:00 ~ 03:00",
    menus=[{"name": "런치세트"}, {"name": "삼겹살(200g)", "price": "15,000원"}, {"name": "콜키지프리"}],
    reviews=[
        "주차 가능하고 직원분이 고기를 구워주셔서 편했어요. 삼겹살 맛있어요!",
        "회식 장소로 딱이에요\n단체석도 있고 분위기 좋아요",
        "포장은 안 된대요. 그래도 가성비 최고",
    ],
    description="넓고 쾌적한 매장, 단체 예약 가능합니다.",
    reviewKeywords={"맛": 9, "주차": 3, "분위기": 4, "가성비": 5, "친절": 7},
)


def test_evidence_property_on_a_full_document() -> None:
    e = ENRICHER.enrich(FULL_DOC)
    check_evidence(FULL_DOC, e)
    assert (
        has(e, "convenience", "주차") and has(e, "convenience", "구워줌") and has(e, "convenience", "콜키지")
    )
    assert not has(e, "convenience", "포장")
    assert not has(e, "convenience", "24시")  # the title says 24시, the hours do not
    assert has(e, "features", "심야영업") and has(e, "occasion", "점심") and has(e, "occasion", "회식")
    assert "삼겹살" in e.review_food
    sources = {ev.source for ev in e.evidence}
    assert {"reviewKeywords", "category", "businessHours", "menus[0].name", "description"} <= sources


FRAGMENTS = [
    "주차 가능해요",
    "주차 안 돼요",
    "분위기 좋고",
    "가성비는 별로",
    "노키즈존이라",
    "데이트하기 좋아요",
    "김치찌개 맛있어요",
    "회식 장소로 딱",
    "포장 안 됩니다",
    "웨이팅 있어요",
    "예약 필수!",
    "리뷰 보고 방문",
    "24시간 영업",
    "😊",
    "\n",
    "ㅋㅋ",
]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=6), min_size=1, max_size=4))
def test_evidence_property_holds_for_random_reviews(parts: list[list[str]]) -> None:
    d = doc(reviews=[" ".join(p) for p in parts], menus=[{"name": "김치찌개"}])
    check_evidence(d, ENRICHER.enrich(d))


# --- short fields (no Kiwi) -----------------------------------------------------------------------
@pytest.fixture
def no_kiwi(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(texts: Sequence[str]) -> Any:
        raise AssertionError(f"Kiwi called for {texts!r}")

    monkeypatch.setattr(offline_mod, "tokenize_pairs_iter", boom)


@pytest.mark.usefixtures("no_kiwi")
@pytest.mark.parametrize(
    ("tags", "review_count", "expected"),
    [
        ({"주차": 1}, 3, {("convenience", "주차")}),
        ({"맛": 1, "친절": 1, "가성비": 1, "분위기": 1}, 2, set()),
        (
            {"맛": 9, "주차": 3, "분위기": 4, "가성비": 5, "친절": 7},
            23,
            {
                ("convenience", "주차"),
                ("atmosphere", "분위기 좋은"),
                ("features", "맛있는"),
                ("features", "가성비"),
                ("features", "친절한"),
            },
        ),
        # 2 of 302 votes is not a strength; the factual 주차 tag still counts
        (
            {"맛": 280, "분위기": 2, "주차": 1, "가성비": 19},
            400,
            {("features", "맛있는"), ("convenience", "주차"), ("features", "가성비")},
        ),
        ({"없는태그": 5}, 3, set()),
    ],
)
def test_review_keywords_mapping(
    tags: dict[str, int], review_count: int, expected: set[tuple[str, str]]
) -> None:
    e = ENRICHER.enrich(doc(reviewKeywords=tags, reviewCount=review_count))
    got = {(f, v) for f in ENRICH_FIELDS for v in e.values(f)}
    assert got == expected
    for ev in e.evidence:
        assert ev.source == "reviewKeywords" and ev.count == tags[ev.span]


def test_phrase_tags_are_read_as_text() -> None:
    e = ENRICHER.enrich(doc(reviewKeywords={"주차하기 편해요": 12, "매장이 넓어요": 1, "포장이 안 돼요": 4}))
    assert has(e, "convenience", "주차")
    assert not has(e, "atmosphere", "넓은")  # one vote only
    assert not has(e, "convenience", "포장")
    [ev] = e.evidence_for("convenience", "주차")
    assert (ev.source, ev.span, ev.count) == ("reviewKeywords", "주차하기 편해요", 12)


@pytest.mark.usefixtures("no_kiwi")
@pytest.mark.parametrize(
    ("category", "expected", "absent"),
    [
        ("술집>호프,요리주점", {("occasion", "술자리")}, set()),
        ("한식>육류,고기>삼겹살", {("occasion", "회식"), ("occasion", "단체")}, set()),
        ("한식>육류,고기", {("occasion", "회식")}, set()),
        ("한식>육류,고기>족발,보쌈", set(), {("occasion", "회식")}),
        ("분식>떡볶이", {("occasion", "혼밥")}, set()),
        ("한식>국밥", {("occasion", "혼밥")}, set()),
        ("한식>해장국", {("occasion", "해장")}, {("occasion", "혼밥")}),
        ("양식>이탈리안", set(), {("occasion", "혼밥"), ("occasion", "술자리"), ("occasion", "회식")}),
    ],
)
def test_category_rules(category: str, expected: set[tuple[str, str]], absent: set[tuple[str, str]]) -> None:
    d = doc(category=category)
    e = ENRICHER.enrich(d)
    got = {(f, v) for f in ENRICH_FIELDS for v in e.values(f)}
    assert expected <= got
    assert not absent & got
    check_evidence(d, e)


@pytest.mark.usefixtures("no_kiwi")
@pytest.mark.parametrize(
    ("hours", "title", "conv24", "late"),
    [
        ("매일 00:00 ~ 24:00", "해장국집", True, True),
        ("매일 17:00 ~ 02:00", "포차", False, True),
        ("월~목 16:00 ~ 08:00", "바", False, True),
        ("매일 11:00 ~ 24:00", "식당", False, False),
        ("매일 18:00 ~ 01:00", "식당", False, False),
        ("월~토 16:00 ~ 12:00", "식당", False, False),
        ("월~금 11:00 ~ 21:00 (토 02:00~08:00 청소)", "식당", False, False),
        (None, "24시해장국", True, True),
        ("매일 11:00 ~ 23:30", "불타는여고24시떡볶이", False, False),
        (None, "비아246", False, False),
    ],
)
def test_hours_and_title_rules(hours: str | None, title: str, conv24: bool, late: bool) -> None:
    d = doc(businessHours=hours, title=title)
    e = ENRICHER.enrich(d)
    assert has(e, "convenience", "24시") is conv24
    assert has(e, "features", "심야영업") is late
    check_evidence(d, e)


@pytest.mark.usefixtures("no_kiwi")
def test_menu_rules() -> None:
    names = [
        "콜키지프리",
        "핫크런치 치킨",
        "후라이드(포장)",
        "평일 런치",
        "어린이돈까스",
        "뼈해장국",
        "실내포장마차 안주",
    ]
    d = doc(menus=[{"name": n} for n in names])
    e = ENRICHER.enrich(d)
    assert e.convenience == ["포장", "콜키지"]
    assert set(e.occasion) == {"점심", "아이와", "해장"}
    [lunch] = e.evidence_for("occasion", "점심")
    assert lunch.source == "menus[3].name" and lunch.span == "런치"
    check_evidence(d, e)


def test_menu_dish_names() -> None:
    names = [
        "양념게장정식+된장찌개(1인분)",
        "점심)즉석한우불고기",
        "클래식 까르보나라",
        "세트A",
        "2인",
        "세트",
    ]
    expected = {"양념게장정식", "된장찌개", "즉석한우불고기", "클래식까르보나라", "까르보나라", "세트A"}
    assert menu_dish_names(names) == expected


def test_negative_variants_are_not_positive_surfaces() -> None:
    for (field, value), surfaces in NEGATIVE_VARIANTS.items():
        assert not set(surfaces) & set(lexicons()[field][value]), (field, value)


# --- demo data -------------------------------------------------------------------------------------
def _demo_docs(n: int, seed: int = 3) -> list[CrawlDocument]:
    path = resources.files("matjip") / "data" / "kakao_capital.jsonl.gz"
    with path.open("rb") as fh, gzip.open(fh, "rt", encoding="utf-8") as lines:
        rows = [json.loads(line) for line in lines]
    rng = random.Random(seed)
    return [CrawlDocument.model_validate(r) for r in rng.sample(rows, n)]


@pytest.mark.usefixtures("no_kiwi")
def test_demo_sample_needs_no_kiwi_and_keeps_evidence() -> None:
    docs = _demo_docs(600)
    results = ENRICHER.enrich_many(docs)
    assert len(results) == len(docs)
    for d, e in zip(docs, results, strict=True):
        check_evidence(d, e)
        assert e.review_food == []  # no reviews in the demo data
    counts = {f: sum(1 for e in results if e.values(f)) for f in ENRICH_FIELDS}
    assert counts["convenience"] > 50 and counts["occasion"] > 100 and counts["features"] > 200


# --- synthetic 50-sentence documents (also used for throughput measurements) -----------------------
DISHES = [
    "김치찌개",
    "삼겹살",
    "고등어구이",
    "양념게장",
    "모듬전",
    "파스타",
    "떡볶이",
    "냉면",
    "칼국수",
    "돈까스",
]
OPENERS = ["지난 {n}일에", "친구랑 {n}명이서", "주말 {n}시쯤", "퇴근하고 {n}번째로", "비 오는 날 {n}시에"]
BODIES = [
    "{d} 먹었는데 정말 맛있었어요",
    "주차 가능해서 편했고 {d}도 괜찮았어요",
    "주차는 안 돼서 조금 불편했지만 {d}는 최고",
    "분위기 좋고 조용해서 데이트하기 좋아요",
    "직원분들이 친절하고 {d} 양이 많아요",
    "웨이팅이 길었지만 {d} 먹을 만해요",
    "회식 장소로 딱이고 단체석도 있어요",
    "포장 안 된다고 해서 아쉬웠어요",
    "가성비 좋고 {d} 신선해요",
    "아이랑 가기 좋고 놀이방도 있어요",
]


def synthetic_doc(rng: random.Random, i: int, sentences: int = 50) -> CrawlDocument:
    """A crawl document with ``sentences`` unique review sentences (unique, so Kiwi's cache
    does not flatter throughput numbers)."""

    def sentence() -> str:
        opener = rng.choice(OPENERS).format(n=rng.randint(1, 999))
        body = rng.choice(BODIES).format(d=rng.choice(DISHES))
        return f"{opener} {body}{rng.choice(['.', '!', '~', ' ㅎㅎ', ' 또 올게요.'])}"

    return doc(
        place_id=str(i),
        title=f"식당{i}",
        category="한식",
        menus=[{"name": d, "price": "9,000원"} for d in rng.sample(DISHES, 4)],
        reviews=[sentence() for _ in range(sentences)],
        reviewKeywords={"맛": 3, "주차": 1},
    )


def test_synthetic_fifty_sentence_documents() -> None:
    rng = random.Random(11)
    docs = [synthetic_doc(rng, i) for i in range(3)]
    for d, e in zip(docs, ENRICHER.enrich_many(docs), strict=True):
        check_evidence(d, e)
        assert has(e, "atmosphere", "분위기 좋은") and has(e, "occasion", "데이트")
        assert not has(e, "convenience", "포장")
        assert set(e.review_food) <= set(DISHES) and e.review_food
        assert len(e.evidence_for("features", "맛있는")) <= offline_mod.MAX_EVIDENCE_PER_VALUE
