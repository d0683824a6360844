"""How a local words a wish (issue 24, classes 3, 4, 5, 6, 11, 16): described foods, chains, typos,
sub-kinds and colloquial kinds, every condition applied or named, tastes ruled out.

Cards are judged on the RAW crawl records (category path, title, menus), never on the product's own
enrichment. The agent runs on the shared sample (every 5th demo record) or, where a case needs
particular places, on a few crawl records ingested by the product's own pipeline.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from matjip.agent.service import Agent
from matjip.nlu.kinds import detect_kinds
from support.chat import ask
from support.demo import menu_names, raw
from support.records import ask_once, jamsil_record


def _text(place_id: str) -> str:
    rec = raw(place_id)
    return (rec.get("category") or "") + " " + rec.get("title", "") + " " + " ".join(menu_names(rec))


# --- 3. described foods -------------------------------------------------------------------------


def test_hangover_food_is_soup_places_not_porridge_and_said(sample_agent: Agent) -> None:
    """ "해장할 곳" took the 속이 편한 family: 죽 and 칼국수 shops first."""
    frame = detect_kinds("잠실 해장할 곳")
    assert frame.theme is not None and "해장" in frame.theme
    assert not {"죽", "칼국수", "우동"} & set(frame.kinds)
    r = ask(sample_agent, "잠실 해장하러 갈 곳")
    assert r.cards and "해장" in r.answer.splitlines()[0] and r.plan is not None and not r.plan.unused_terms
    soups = ("해장", "국밥", "순대", "감자탕", "뼈", "복", "콩나물", "곰탕", "설렁탕", "육개장")
    for c in r.cards:
        rec = raw(c.id)
        assert "죽" not in rec.get("category", "").split(">"), c.name
        assert any(w in _text(c.id) for w in soups), c.name


def test_diet_food_is_salad_poke_shabu_not_pizza(sample_agent: Agent) -> None:
    r = ask(sample_agent, "잠실 다이어트 식단으로 먹을만한 곳")
    assert "다이어트" in r.answer and r.plan is not None and not r.plan.unused_terms
    assert r.cards
    light = ("샐러드", "포케", "샤브", "베트남", "쌀국수", "월남쌈", "비건", "채식", "메밀", "소바")
    for c in r.cards:
        assert "피자" not in raw(c.id).get("category", ""), c.name
        assert any(w in _text(c.id) for w in light), c.name


@pytest.mark.parametrize(
    ("text", "said"),
    [("잠실 기력 보충할 만한 데", "보양식"), ("잠실 기름진 거 땡겨", "기름지다고"), ("천호 밥집", "밥집")],
)
def test_more_described_foods_are_families_said_in_the_answer(
    sample_agent: Agent, text: str, said: str
) -> None:
    frame = detect_kinds(text)
    assert (frame.kinds or frame.any_kind) and frame.theme is not None and said in frame.theme
    r = ask(sample_agent, text)
    assert said in r.answer and r.plan is not None and not r.plan.unused_terms


# --- 4. chains -----------------------------------------------------------------------------------


def _branch_word(title: str) -> bool:
    words = title.split()
    last = words[-1] if len(words) > 1 else ""
    return last.endswith("점") and not last.endswith(("주점", "전문점", "본점"))


def test_no_chain_rules_out_branch_names_and_known_franchises(sample_agent: Agent) -> None:
    """ "체인 말고 치킨" listed "○○치킨 석촌점" and "○○통닭 서울방이점": brands with a branch word
    but fewer than three branches in the data."""
    for text in ("잠실 체인 말고 치킨", "천호 프랜차이즈 말고 카페", "잠실 동네 국밥집"):
        r = ask(sample_agent, text)
        assert r.plan is not None and r.plan.exclude_chains, text
        for c in r.cards:
            title = raw(c.id)["title"]
            assert not _branch_word(title), (text, title)
            assert not title.startswith(("교촌", "BBQ", "BHC", "스타벅스", "이디야", "투썸")), (text, title)


def test_a_single_shops_main_branch_is_not_a_chain(tmp_path: Path) -> None:
    """The 본점 of a shop with no other branch is the shop itself; "○○ 석촌점" is a branch."""
    records = [
        jamsil_record("1", "할매순대국 방이본점", "한식>순대", ["순대국", "머리고기"]),
        jamsil_record("2", "토종순대국 석촌점", "한식>순대", ["순대국", "순대"], step=1),
        jamsil_record("3", "옛날순대국", "한식>순대", ["순대국", "수육"], step=2),
    ]
    r = ask_once(tmp_path, records, "잠실 체인 말고 순대국")
    names = [c.name for c in r.cards]
    assert "할매순대국 방이본점" in names and "옛날순대국" in names
    assert "토종순대국 석촌점" not in names


# --- 5. typos ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind", "word"),
    [
        ("잠실 순두브", "순두부", "순두부"),
        ("잠실 김치찌게", "김치찌개", "김치찌개"),
        ("잠실 떢볶이", "떡볶이", "떡볶이"),
    ],
)
def test_a_typo_in_a_kind_word_is_taken_and_said(
    sample_agent: Agent, text: str, kind: str, word: str
) -> None:
    r = ask(sample_agent, text)
    assert r.plan is not None and r.plan.kinds == [kind] and not r.plan.unused_terms
    assert f"'{word}'" in r.answer and "알아듣고" in r.answer
    assert r.cards
    for c in r.cards:
        assert word[:2] in _text(c.id) or "두부" in _text(c.id), c.name


def test_real_words_are_not_corrected() -> None:
    """ "라면" is not a typo of "라멘"; place names and other words are left alone."""
    for text in ("잠실 라면", "송리단길 맛집", "방이동 먹자골목", "석촌호수 근처"):
        frame = detect_kinds(text)
        assert frame.corrections == [], text
    assert "라멘" not in detect_kinds("잠실 라면").kinds


# --- 6. sub-kinds and colloquial kinds -------------------------------------------------------------


def test_a_dish_only_some_shops_serve_must_be_on_the_menu(tmp_path: Path) -> None:
    records = [
        jamsil_record("1", "라라마라탕", "중식>중국요리", ["마라탕", "꿔바로우"]),
        jamsil_record("2", "탕탕마라", "중식>중국요리", ["마라탕", "마라샹궈"], step=1),
        jamsil_record("3", "소소마라탕", "중식>중국요리", ["마라탕", "마라샹궈", "꿔바로우"], step=2),
    ]
    r = ask_once(tmp_path, records, "잠실 마라샹궈")
    names = [c.name for c in r.cards]
    assert names[:2] and set(names[:2]) == {"탕탕마라", "소소마라탕"}
    assert "라라마라탕" not in names[:2]


def test_a_shabu_place_named_for_its_noodles_is_no_noodle_shop() -> None:
    from matjip.kinds import kinds

    def of(category: str, title: str) -> set[str]:
        return {k.kind for k in kinds().classify(category, title, ["샤브칼국수", "볶음밥"])}

    assert "국수·면" not in of("샤브샤브>등촌샤브칼국수", "등촌샤브칼국수 잠실점")
    assert "칼국수" not in of("샤브샤브", "방이샤브샤브칼국수")
    assert "샤브샤브" in of("샤브샤브", "방이샤브샤브칼국수")
    assert "칼국수" in of("한식>국수>칼국수", "바지락칼국수")


# --- 11. every condition applied or named ------------------------------------------------------------


def test_verbs_and_directions_are_not_reported_as_unknown_conditions(sample_agent: Agent) -> None:
    r = ask(sample_agent, "잠실역 들렀다가 안쪽 골목 국밥집 걸어가도 돼")
    assert r.plan is not None and r.plan.kinds and not r.plan.unused_terms
    assert "확인할 수 없어서" not in r.answer
    r = ask(sample_agent, "잠실 고깃집 주차가 중요해")
    assert r.plan is not None and "중요" not in " ".join(r.plan.unused_terms)


def test_a_dish_named_beside_its_kind_is_listed(sample_agent: Agent) -> None:
    """ "짬뽕 맛있는 중국집" listed 중국집 without 짬뽕 on the card."""
    r = ask(sample_agent, "잠실 짬뽕 맛있는 중국집")
    assert r.plan is not None and "짬뽕" in r.plan.menu + r.plan.semantic.split()
    listing = [c for c in r.cards if any("짬뽕" in m for m in menu_names(raw(c.id)))]
    assert listing and r.cards[0] in listing
    assert "짬뽕" in r.answer


@pytest.mark.parametrize(
    ("text", "check"),
    [
        ("잠실 배달 말고 가서 먹을 고깃집", lambda r: "가서 드실" in r.answer),
        ("잠실 아이랑 갈만한 식당", lambda r: r.plan is not None and "아이와" in r.plan.occasion),
        ("잠실 애들이랑 갈 돈까스", lambda r: r.plan is not None and "아이와" in r.plan.occasion),
    ],
)
def test_eat_in_and_children_are_applied_or_named(sample_agent: Agent, text: str, check: Any) -> None:
    r = ask(sample_agent, text)
    assert check(r), r.answer


# --- 16. tastes ruled out -------------------------------------------------------------------------


SPICY_KINDS = ("마라", "닭발", "쭈꾸미", "주꾸미", "낙지", "아구", "떡볶이")


@pytest.mark.parametrize(
    "text", ["잠실 매운 거 못 먹어 뭐 먹지", "잠실 맵지 않은 음식", "잠실 매운 걸 잘 못먹어서 식당"]
)
def test_cannot_eat_spicy_rules_spicy_places_out(sample_agent: Agent, text: str) -> None:
    r = ask(sample_agent, text)
    assert r.cards and "매운" in r.answer
    for c in r.cards:
        rec = raw(c.id)
        assert not any(w in rec.get("category", "") + rec["title"] for w in SPICY_KINDS), c.name
        assert not any(w in m for m in menu_names(rec) for w in ("매운", "마라", "불닭")), c.name


def test_mild_tteokbokki_lists_mild_versions_first(tmp_path: Path) -> None:
    records = [
        jamsil_record("1", "불맛떡볶이", "분식>떡볶이", ["매운떡볶이", "순대"]),
        jamsil_record("2", "궁중떡볶이집", "분식>떡볶이", ["궁중떡볶이", "간장떡볶이"], step=3),
        jamsil_record("3", "엽엽떡볶이", "분식>떡볶이", ["엽기떡볶이", "튀김"], step=1),
    ]
    r = ask_once(tmp_path, records, "잠실 안 매운 떡볶이")
    assert r.cards and r.cards[0].name == "궁중떡볶이집"
    assert "안 매운" in r.answer
