"""Seed 003 / issue 12: review-keyword search — BM25 over review sentences, the sentence as evidence,
and answers that carry the caution for what only reviews suggest."""

from __future__ import annotations

from pathlib import Path

from matjip.agent.answer import REVIEW_CAUTION, review_term_lines
from matjip.documents import Restaurant
from matjip.index.review_search import ReviewIndex


def r(pid: str, *reviews: str) -> Restaurant:
    return Restaurant(place_id=pid, title=f"식당{pid}", reviews=list(reviews))


DOCS = [
    r("a", "고기가 맛있어요. 테라스가 있어서 날 좋을 때 최고!", "테라스 자리 추천해요"),
    r("b", "친절해요\n뒤편 테라스에서 먹었는데 좋았어요 테라스 테라스"),
    r("c", "테이블이 넓어요. 라스트오더가 빨라요"),
]


def test_sentences_holding_the_term_are_found_with_offsets() -> None:
    hits = ReviewIndex(DOCS).search("테라스")
    assert {h.place_id for h in hits} == {"a", "b"}  # "테이블", "라스트오더" hold only part of it
    for h in hits:
        review = next(d for d in DOCS if d.place_id == h.place_id).reviews[int(h.source[8:-1])]
        assert review[h.start : h.end] == h.sentence and "테라스" in h.sentence
    assert hits[0].place_id == "b"  # more occurrences in a sentence rank first (BM25 tf)


def test_counts_and_nothing_found() -> None:
    index = ReviewIndex(DOCS)
    assert index.count("테라스", "a") == 2 and index.count("테라스", "c") == 0
    assert index.search("루프탑") == [] and ReviewIndex([]).search("테라스") == []


def test_answer_quotes_the_sentence_with_counts_and_the_caution() -> None:
    [line] = review_term_lines(DOCS, ["테라스"])
    assert "식당a (리뷰 2건 중 2건" in line and REVIEW_CAUTION in line
    [none] = review_term_lines(DOCS, ["루프탑"])
    # nothing was estimated from reviews: no "estimated" caution, only "check first" (issue 24 audit, F5)
    assert "찾지 못했어요" in none and REVIEW_CAUTION not in none and "확인해 보세요" in none


def test_the_agent_ranks_places_whose_reviews_mention_the_word_first(tmp_path: Path) -> None:
    """A word no field records ("테라스") puts the places whose reviews mention it first, quoted, with
    seed 003's caution."""
    from matjip.agent.service import Agent
    from matjip.settings import Settings
    from support.index import build_index_dir, resources_over, sushi_near_gangnam

    docs = sushi_near_gangnam()
    docs[2] = docs[2].model_copy(update={"reviews": ["초밥이 맛있어요. 테라스 자리가 있어서 좋았어요"]})
    index_dir = build_index_dir(tmp_path / "index", docs)
    agent = Agent(Settings(data_dir=tmp_path), resources_over(index_dir, docs), persist=False)
    try:
        r = agent.ask("강남역 테라스 있는 초밥집")
    finally:
        agent.close()
    assert r.cards and r.cards[0].id == docs[2].place_id, [c.name for c in r.cards]
    assert '"테라스 자리가 있어서 좋았어요"' in r.answer and REVIEW_CAUTION in r.answer
