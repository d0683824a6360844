"""Issue 24, classes the lead found on dialogue_test16's first run (session s36), each failing on 854fc61:

- 9 (routes): "문정역 출발해서 가락시장역 가는 길목에" — the start said with its verb and no particle — was
  no route; "문정역인데 가락시장역 가는 길에" (the start is the place the message is about) said
  "출발지를 몰라서 … 가락시장역 근처에서 찾았어요" over cards around 문정역.
- 14 (references): "큰집보쌈 거기 천호역에서 걸어가면 몇분" after a comparison that showed 큰집보쌈왕코다리
  천호본점 — the first part of a shown name is that restaurant — was a search for 보쌈 places; and
  "거기 근처 다른 맛집도" after an answer about one restaurant showed that restaurant again.
- 13 (facts): "리뷰 어디가 더 많아?" was decided by the share of '맛' tags; the review counts decide it.
- Particles: "메뉴에 '코다리'이(가) 있는 곳은" — the particle fits the quoted word.
"""

from __future__ import annotations

import re

from matjip.agent.service import Agent
from matjip.kinds import kinds, norm
from matjip.nlu.kinds import detect_kinds
from matjip.nlu.strategy import detect_strategy
from matjip.text.josa import josa
from matjip.wording import text
from support.chat import Chat
from support.demo import raw


def test_a_start_said_with_its_verb_and_no_particle_is_a_route() -> None:
    for message in (
        "문정역 출발해서 가락시장역 가는 길목에 분식",
        "잠실역 출발하는데 석촌역까지 가면서 먹을 국밥",
    ):
        spec = detect_strategy(message)
        assert spec.strategy == "route", message
        assert spec.origin in ("문정역", "잠실역") and spec.destination in ("가락시장역", "석촌역"), spec


def test_the_place_a_route_message_is_about_is_its_start(sample_agent: Agent) -> None:
    r = Chat(sample_agent)("문정역인데 가락시장역 가는 길에 분식")
    plan = r.frame or r.plan
    assert plan is not None and plan.route is not None, r.answer
    assert plan.route.origin.name == "문정역" and plan.route.destination.name == "가락시장역"
    assert "출발지를 몰라서" not in r.answer


def _name_part(title: str, others: list[str]) -> str | None:
    """The first word of ``title`` when it says which shown restaurant it is (3+ syllables, no kind by
    itself) and holds a kind word ("귀한족발" of "귀한족발 방이점")."""
    word = title.split()[0]
    key = norm(word)
    if len(key) < 3 or kinds().lookup(word) is not None or key == norm(title):
        return None
    if not detect_kinds(word).kinds:
        return None
    if sum(norm(t).startswith(key) for t in others) != 1:
        return None
    return word


def test_the_first_part_of_a_shown_name_points_at_that_restaurant(sample_agent: Agent) -> None:
    chat = Chat(sample_agent)
    first = chat("잠실역 족발")
    titles = [raw(c.id)["title"] for c in first.cards]
    pick = next(((t, p) for t in titles if (p := _name_part(t, titles)) is not None), None)
    assert pick is not None, titles
    title, part = pick
    r = chat(f"{part} 거기 잠실역에서 걸어가면 몇 분?")
    assert r.decision == "context" and not r.searched, r.answer
    assert title in r.answer and re.search(r"걸어서 약 \d+분", r.answer), r.answer


def test_which_has_more_reviews_is_decided_by_the_review_counts(sample_agent: Agent) -> None:
    chat = Chat(sample_agent)
    first = chat("잠실역 중국집")
    assert len(first.cards) >= 2
    a, b = (raw(c.id) for c in first.cards[:2])
    r = chat(f"{a['title']}이랑 {b['title']} 리뷰 어디가 더 많아?")
    counts = {d["title"]: int(d.get("reviewCount") or 0) for d in (a, b)}
    if counts[a["title"]] == counts[b["title"]]:
        assert "리뷰 수는" in r.answer and "같아요" in r.answer, r.answer
        return
    more = max(counts, key=lambda t: counts[t])
    assert f"리뷰는 {josa(more, '이/가')} {counts[more]}건으로 더 많아요" in r.answer, r.answer
    assert "'맛'의 리뷰 대비 비율로는" not in r.answer


def test_near_there_after_an_answer_about_one_restaurant_searches_around_it_without_it(
    sample_agent: Agent,
) -> None:
    chat = Chat(sample_agent)
    first = chat("잠실역 중국집")
    assert first.cards
    shown = raw(first.cards[0].id)
    about = chat(f"{shown['title']} 몇시까지 해?")
    assert about.decision == "context", about.answer
    r = chat("거기 근처 다른 맛집도 알려줘")
    assert r.searched and r.cards, r.answer
    assert shown["place_id"] not in {c.id for c in r.cards}
    assert f"{shown['title']} 근처" in r.answer


def test_the_particle_after_a_quoted_menu_word_fits_it() -> None:
    template = text("search.topup.menu_some")
    assert "이(가)" not in template
    said = template.format(menus=josa("'코다리'", "이/가"), found=1, kinds="해산물")
    # the set counted is named (audit r14 F2)
    assert said.startswith("해산물 중 메뉴에 '코다리'가 있는 곳은"), said


def test_drinking_snacks_asked_for_are_the_bars() -> None:
    """ "술안주 될만한거 먹고싶은데 천호" (relevance_test17 t2221) searched the menu word 술안주 and
    showed one 삼겹살 house: a local means a bar (포차, 호프, 요리주점)."""
    for message in ("술안주 될만한거 먹고싶은데 천호", "잠실 안주거리 맛있는 데"):
        assert detect_kinds(message).kinds == ["술집"], message


def _kinds_of(category: str, title: str, menus: list[str]) -> set[str]:
    return {e.kind for e in kinds().classify(category, title, menus)}


def test_a_griddle_sundae_house_is_no_sundae_soup_place() -> None:
    """ "석촌역 순대국 제일 잘하는 집" (relevance_test17 t2203) showed 동대문철판순대곱창 first — filed under
    한식>순대, its menu 야채곱창·순대곱창·순대볶음, no soup."""
    griddle = _kinds_of("한식>순대", "동대문철판순대곱창 석촌본점", ["야채곱창", "순대곱창", "순대볶음"])
    assert not griddle & {"순대국", "국밥·순대국"}, griddle
    soup = _kinds_of("한식>순대", "청와옥 석촌호수직영점", ["청와옥 순대국", "얼큰 순대국"])
    assert "순대국" in soup


def test_a_yakitori_course_called_omakase_is_no_sushi_place() -> None:
    """ "합정역 스시" (relevance_test17 t2168) showed 야키토리 나루토 first, its menu "나루토 오마카세 3꼬치
    쿠시코스"."""
    menus = [
        "나루토 오마카세 3꼬치 쿠시코스",
        "나루토 오마카세 5꼬치 쿠시코스",
        "나루토 오마카세 7꼬치 쿠시코스",
    ]
    assert "초밥·오마카세" not in _kinds_of("일식", "야키토리 나루토", menus)
    assert "초밥·오마카세" in _kinds_of("일식", "스시엔준", ["스시엔 준 초밥 (12P)", "모둠초밥", "연어초밥"])


def test_a_kind_word_with_its_particle_is_no_typo_of_another_kind() -> None:
    """ "잠실 샐러드나 포케" (relevance_test17 t2210) was read "'샐러드나'는 '샐러드바'로 알아듣고"."""
    from matjip.nlu.kinds import close_kind_word

    assert close_kind_word("샐러드나") is None
    assert "샐러드바" not in detect_kinds("잠실 샐러드나 포케").words
    assert close_kind_word("순두브") is not None  # a real slip is still taken


def test_jokbal_asked_is_a_jokbal_house_not_a_bossam_only_one() -> None:
    """ "강동구청역 족발" and "good jokbal places in songpa" (relevance_test17 t2155, t2260) showed
    멧돌순두부보쌈 and 원할머니국수보쌈 (보쌈 only): the category "족발,보쌈" holds both."""
    assert detect_kinds("강동구청역 족발").kinds == ["족발"]
    bossam_only = _kinds_of(
        "한식>육류,고기>족발,보쌈", "멧돌순두부보쌈", ["제육볶음 (중)", "해물순두부", "보쌈 (중)"]
    )
    assert "족발" not in bossam_only and "족발·보쌈" in bossam_only
    jokbal = _kinds_of("한식>육류,고기>족발,보쌈", "성내족발", ["반반 (2~3인분)", "불족발 (2~3인분)"])
    assert "족발" in jokbal and "족발·보쌈" in jokbal
    assert detect_kinds("천호역 족발보쌈").kinds == ["족발·보쌈"]


def test_a_light_meal_is_no_tteokbokki_buffet_and_the_note_names_what_is_searched() -> None:
    """ "가볍게 먹을만한거 장지동" (relevance_test17 t2225) showed 두끼떡볶이 first under a note naming
    "샐러드·포케·김밥·샌드위치 집": the family is what the note says."""
    light = kinds().theme_kinds("가볍게")
    assert "분식·떡볶이" not in light and {"샐러드", "김밥", "샌드위치·토스트"} <= light


def test_kind_service_asked_is_a_wish_the_cards_show_never_unchecked(sample_agent: Agent) -> None:
    """ "친절한 미용실 말고 ㅋㅋ 친절한 국밥집 방이동" (relevance_test17 t2244) said "'친절', '미용실'은 데이터로
    확인할 수 없어서 빼고" — the crawl's visitor tag '친절' and review phrases make the feature 친절한."""
    r = Chat(sample_agent)("사장님 친절한 잠실역 중국집")
    assert "확인할 수 없어서" not in r.answer, r.answer
    plan = r.frame or r.plan
    assert plan is not None and "친절한" in plan.atmosphere
    heading = r.answer.split("\n")[0]
    backed = [c for c in r.cards if "친절한" in raw_features(c.id)]
    if len(backed) < len(r.cards):  # the heading claims it only for every card, else says which
        assert "친절한 중국집" not in heading and "친절한 곳인지는" in heading, heading


def raw_features(place_id: str) -> list[str]:
    tags = raw(place_id).get("reviewKeywords") or {}
    return ["친절한"] if int(tags.get("친절", 0)) >= 2 else []
