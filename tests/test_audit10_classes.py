"""Classes of false statements of the tenth issue-24 audit (docs/audit_issue24_r10.md, on 854fc61), one
test each, failing on that code:

F1/F2 (class 1): "성남시 분당구의 다른 동네는 데이터에 있어요" for 서현역 and 판교역 — every 성남 document lies
in 수정구; a city counted by its gu is covered gu by gu.
F3/F4 (class 13): "메뉴에 '짬뽕'이 있는 곳은 찾지 못해서" above cards listing 짬뽕, and "메뉴에 '짬뽕'이 있는
중국집이 1곳뿐" counting a place without 짬뽕 — the top-up's note says the circle it looked in, and a count
of a topped-up list is of the kind, not of the dish.
F5 (class 10/6): "문래동 근처 파스타·이탈리안 1곳" while 양식 houses listing a pasta lay as near.
F6 (class 14): "말씀하신 두 곳은 모두 오쥐예요" for "1번이랑 2번" after one place was shown.
"""

from __future__ import annotations

from matjip.agent.models import PlanLocation, SearchPlan
from matjip.agent.retrieval.topup import _menu_note
from matjip.agent.retrieval.widen import _scope
from matjip.agent.service import Agent
from matjip.geo.coverage import CoveredArea
from matjip.kinds import kinds
from support.chat import Chat
from support.demo import raw


def test_a_gu_of_a_city_counted_by_its_gu_is_covered_only_by_its_own_restaurants() -> None:
    area = CoveredArea(
        {
            ("경기", "성남시"): 385,
            ("경기", "성남시 수정구"): 385,
            ("경기", "성남시 분당구"): 0,
            ("경기", "하남시"): 900,
        }
    )
    assert area.covers_region("경기", "성남시 분당구") is False
    assert area.covers_region("경기", "성남시 수정구") is True
    assert area.covers_region("경기", "성남시") is True
    assert area.covers_region("경기", "하남시") is True


def _plan() -> SearchPlan:
    where = PlanLocation(name="마포역", lat=37.5395, lon=126.9459, radius_m=1000)
    return SearchPlan(kinds=["중국집"], menu=["짬뽕"], location=where)


def test_a_topped_up_list_says_the_circle_it_looked_in_and_counts_the_kind() -> None:
    note = _menu_note(_plan(), "'짬뽕'이", 0)
    # the circle, and the set counted in it (the kind's places: audit r14 F2)
    assert note.startswith("마포역 1km 안의 중국집 중에는 메뉴에 '짬뽕'이 있는 곳이 없어서"), note
    assert "짬뽕" not in _scope(_plan(), topped=True)
    assert "짬뽕" in _scope(_plan(), topped=False)


def test_a_western_house_whose_one_listed_dish_is_a_pasta_is_a_pasta_place() -> None:
    found = {e.kind for e in kinds().classify("양식", "르포르테", ["머쉬룸크림파스타"])}
    assert "파스타·이탈리안" in found


def test_a_number_beyond_the_list_shown_is_said_never_the_same_place_twice(sample_agent: Agent) -> None:
    first = Chat(sample_agent)("잠실역 중국집")
    assert first.cards
    title = raw(first.cards[0].id)["title"]
    chat = Chat(sample_agent)  # a new conversation that starts with one restaurant named
    about = chat(f"{title} 몇시까지 해?")
    assert len(about.cards) == 1, about.answer
    r = chat("1번이랑 2번 중에 어디가 더 나아?")
    assert "두 곳은 모두" not in r.answer, r.answer
    assert "2번(앞에서 보여 드린 곳은 1곳이에요)" in r.answer, r.answer


def test_the_parts_of_one_dong_are_never_each_others_namesakes(sample_agent: Agent) -> None:
    """Q1 "성수동 떡볶이 맛집" began "성동구 성수동 기준이에요 — 성동구 성수동은 아직 데이터에 없어요": the
    answer was about one part of the dong (성수2가), the line named the dong itself as a namesake."""
    r = Chat(sample_agent)("성수동 떡볶이 맛집")
    first = r.answer.split("\n")[0]
    assert "기준이에요" not in first or first.count("성동구 성수동") < 2, first


def test_the_route_answer_with_nothing_found_fits_its_particle() -> None:
    from matjip.wording import text

    assert "을(를)" not in text("strategy.route.none")


def test_a_name_none_of_whose_namesakes_has_data_is_said_not_asked(sample_agent: Agent) -> None:
    """ "중앙동 맛집" (dialogue_test15 ej006) asked which 중앙동 while saying none is in the data: any
    choice would be answered "not in the data", so that is the answer."""
    r = Chat(sample_agent)("중앙동 맛집")
    assert "어느 곳을 말씀하시는" not in r.answer, r.answer
    assert "데이터에 없어요" in r.answer and not r.cards


def test_a_chinese_house_named_for_its_dumplings_is_a_dumpling_place() -> None:
    """FB: "1km 안에는 만두로 분류된 곳이 1곳" while 진만두 (filed 중식) lay at 945 m."""
    found = {e.kind for e in kinds().classify("중식", "진만두", ["고기만두", "김치만두", "새우만두"])}
    assert "만두" in found
    assert "만두" not in {e.kind for e in kinds().classify("중식>중국요리", "홍콩반점", ["짜장면", "군만두"])}


def test_the_note_on_places_without_coordinates_promises_nothing_it_cannot_keep() -> None:
    """FC: "좌표가 없는 1곳(주소만 있는 곳) … 동네 이름으로 물어봐 주시면 주소로 찾아 드릴게요" — the records
    without coordinates have no address either, and the count was of a pool, not of every such place."""
    from matjip.wording import text

    note = text("answer.notes.no_coordinates")
    assert "주소로 찾아" not in note and "{n}" not in note
