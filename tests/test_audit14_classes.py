"""Classes of the fourteenth issue-24 audit (/work/notes/s40/audit14.md, on 4a159a6), one test each, failing
on that code; built from hand-made records (support.records) or the vocabulary, not the audit's places.

1. Time said in words is the time asked (F3, Q9, Q2, Q16, Q15.2): a part of the day already under way
   ("금욜 밤에" at Friday 22:40) is what is left of it, so a place closed since 22:00 is no "금욜 밤 영업";
   a meal under way ("아침 먹을 데" at 09:30) means going now, and a card not open then is flagged; a meal
   on another day asked of a shown place ("거기 내일 점심에도 열어?") answers with that day's hours.
2. Untrue reasons for dropping a condition (F2): the top-up's "메뉴에 '맥주'가 있는 곳이 없어서" counted only
   the kind's places; the sentence names that set.
3. A menu word of a neighbouring sense is no evidence of the kind (F1: 리코타 → 브런치); "바" is a bar one
   sits at (와인바, 칵테일바), not any 술집.
4. Context words are no dropped conditions ('직장인', '야구' watched before), and a landmark said by its
   everyday name ("문정동 법원") is a place.
   A street said beside the station it lies by ("잠실역 송리단길") is the place asked (Q8).
5. A refinement keeps the request (Q1.2): "더 싼 데" after a lunch question is still a lunch.
6. A mood is claimed (heading, card) only from tags that are a share of the reviews (Q8: 2 of 16).
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from matjip.agent.models import PlanLocation, SearchPlan
from matjip.agent.retrieval.topup import _menu_note
from matjip.geo.gazetteer import find_in_text
from matjip.kinds import kinds
from matjip.nlu.kinds import detect_kinds
from matjip.nlu.parser import OfflineNLU
from matjip.nlu.strategy import activity_before
from matjip.nlu.vocabulary import Vocabulary
from support.chat import SEOUL
from support.records import ingest_records, jamsil_record, near_jamsil, talk_over

FRIDAY_NIGHT = datetime(2026, 11, 27, 22, 40, tzinfo=SEOUL)
SUNDAY_MORNING = datetime(2026, 11, 29, 9, 30, tzinfo=SEOUL)
WEDNESDAY_NOON = datetime(2026, 11, 25, 12, 20, tzinfo=SEOUL)


def _card_blocks(answer: str) -> list[str]:
    return [b for b in answer.split("\n**")[1:]]


def test_a_part_of_the_day_under_way_is_what_is_left_of_it(tmp_path: Path) -> None:
    records = [
        near_jamsil(
            "r1",
            "가나삼겹살",
            100,
            "한식>육류,고기>삼겹살",
            ["생삼겹살", "목살"],
            businessHours="매일 11:30 ~ 22:00",
            reviewCount=90,
        ),
        near_jamsil(
            "r2",
            "다라삼겹살",
            300,
            "한식>육류,고기>삼겹살",
            ["생삼겹살", "항정살"],
            businessHours="매일 16:00 ~ 02:00",
            reviewCount=5,
        ),
    ]
    data = ingest_records(tmp_path, records)
    [res] = talk_over(data, ["잠실역 금욜 밤에 삼겹살"], FRIDAY_NIGHT)
    for block in _card_blocks(res.answer):
        if block.startswith("1. 가나삼겹살") or "가나삼겹살**" in block.split("\n")[0]:
            assert "금욜 밤 영업" not in block, res.answer  # closed 40 minutes ago
    first = _card_blocks(res.answer)[0]
    assert "다라삼겹살" in first.split("\n")[0], res.answer


def test_a_meal_under_way_is_going_now_and_a_card_not_open_is_flagged(tmp_path: Path) -> None:
    records = [
        near_jamsil(
            "m1",
            "가나식당",
            100,
            "한식",
            ["김치찌개", "된장찌개"],
            businessHours="매일 11:00 ~ 21:00",
            reviewCount=300,
        ),
        near_jamsil(
            "m2",
            "다라해장국",
            250,
            "한식>해장국",
            ["해장국", "선지해장국"],
            businessHours="매일 06:00 ~ 15:00",
            reviewCount=20,
        ),
    ]
    data = ingest_records(tmp_path, records)
    [res] = talk_over(data, ["잠실역 아침 먹을 데"], SUNDAY_MORNING)
    assert res.plan is not None and res.plan.open_wished is not None
    assert res.plan.open_wished.astimezone(SEOUL) == SUNDAY_MORNING, res.plan.open_wished
    for block in _card_blocks(res.answer):
        if "가나식당" in block.split("\n")[0]:
            assert "- 지금:" in block, res.answer  # opens at 11:00: said on the card


def test_a_meal_on_another_day_asked_of_a_shown_place_gives_that_days_hours(tmp_path: Path) -> None:
    records = [
        near_jamsil(
            "h1",
            "가나국밥",
            100,
            "한식>국밥",
            ["순대국밥", "수육"],
            businessHours="월~금 10:00 ~ 21:00",
            reviewCount=40,
        ),
    ]
    data = ingest_records(tmp_path, records)
    first, second = talk_over(data, ["잠실역 국밥", "거기 내일 점심에도 열어?"], FRIDAY_NIGHT)
    assert "가나국밥" in first.answer
    assert "토요일" in second.answer, second.answer  # tomorrow is Saturday, not "(오늘: …)"
    assert "(오늘:" not in second.answer, second.answer


def test_a_top_up_note_names_the_set_it_counted() -> None:
    where = PlanLocation(name="잠실역", lat=37.513977, lon=127.102198, radius_m=1000)
    note = _menu_note(SearchPlan(kinds=["치킨집"], menu=["맥주"], location=where), "'맥주'가", 0)
    assert "치킨집 중에는 메뉴에 '맥주'가 있는 곳이 없어서" in note, note


def test_an_ingredient_word_is_no_evidence_of_brunch() -> None:
    found = {
        e.kind
        for e in kinds().classify(
            "양식>피자", "가나피자", ["루꼴라 리코타", "리코타 치즈 샐러드", "마르게리타"]
        )
    }
    assert "브런치" not in found, found
    assert "브런치" in {
        e.kind for e in kinds().classify("양식", "가나", ["에그베네딕트", "팬케이크", "커피"])
    }


def test_a_bar_is_a_wine_or_cocktail_bar_not_any_pub() -> None:
    assert detect_kinds("성내동 혼술하기 좋은 바").kinds == ["바"]
    assert "바" in {e.kind for e in kinds().classify("술집>와인바", "가나", ["글라스와인"])}
    assert "바" not in {
        e.kind for e in kinds().classify("술집>호프,요리주점", "가나호프", ["생맥주", "치킨"])
    }
    assert "바" not in {e.kind for e in kinds().classify("술집>일본식주점", "가나", ["사케", "꼬치"])}
    assert detect_kinds("바로 앞 국밥집").kinds != ["바"]
    assert detect_kinds("지금 바로 갈 수 있는 석촌역 칼국수").kinds == ["칼국수"]  # "바로" is no 바 + 로


def test_who_eats_and_what_was_done_before_are_no_conditions() -> None:
    nlu = OfflineNLU(Vocabulary.from_restaurants([]), None)
    assert "직장인" not in nlu.parse("역삼역 근처 직장인 점심 만원 이하").unknown_terms
    assert activity_before("종합운동장역 야구 보고 치맥할 데") == "야구"
    assert activity_before("축구 본 다음에 국밥") == "축구"


def test_a_landmark_said_by_its_everyday_name_is_a_place() -> None:
    said = [s for s, _, _ in find_in_text("문정동 법원 근처 추어탕")]
    assert said and "법원" in said[0], said


def test_a_cheaper_refinement_keeps_the_meal_asked(tmp_path: Path) -> None:
    """5. "점심 만원 이하" → "더 싼 데는 없어?": still a lunch — no bakery as a cheaper lunch (Q1.2)."""
    meals = [
        near_jamsil(
            f"a{i}",
            f"가나식당{i}",
            100 + 50 * i,
            "한식",
            {"김치찌개": "9,000", "제육볶음": "9,000"},
            businessHours="매일 10:00 ~ 21:00",
            reviewCount=200,
        )
        for i in range(3)
    ]
    cheap = [
        near_jamsil(
            f"b{i}",
            f"다라분식{i}",
            200 + 50 * i,
            "분식",
            {"라면": "5,000", "김밥": "4,000"},
            businessHours="매일 10:00 ~ 21:00",
            reviewCount=3,
        )
        for i in range(3)
    ]
    bakery = near_jamsil(
        "c1",
        "마바베이커리",
        150,
        "간식>제과,베이커리",
        {"소금빵": "3,000", "아메리카노": "4,000"},
        businessHours="매일 08:00 ~ 22:00",
        reviewCount=500,
    )
    data = ingest_records(tmp_path, [*meals, *cheap, bakery])
    first, second = talk_over(data, ["잠실역 점심 만원 이하로 먹을 데", "더 싼 데는 없어?"], WEDNESDAY_NOON)
    assert "가나식당" in first.answer
    assert "마바베이커리" not in second.answer, second.answer
    assert "다라분식" in second.answer, second.answer


def test_a_mood_is_claimed_only_from_tags_that_are_a_share_of_the_reviews(tmp_path: Path) -> None:
    """6. A mood in the heading or on a card from thin tags: '분위기' 2 of 16 reviews is no "분위기 좋은" (Q8)."""
    records = [
        near_jamsil(
            "z1",
            "가나주점",
            100,
            "술집>일본식주점",
            ["사케", "꼬치", "하이볼"],
            businessHours="매일 17:00 ~ 02:00",
            reviewCount=16,
            reviewKeywords={"맛": 5, "분위기": 2},
        ),
        near_jamsil(
            "z2",
            "다라주점",
            200,
            "술집>일본식주점",
            ["사케", "꼬치", "하이볼"],
            businessHours="매일 17:00 ~ 02:00",
            reviewCount=12,
            reviewKeywords={"맛": 5, "분위기": 7},
        ),
    ]
    data = ingest_records(tmp_path, records)
    [res] = talk_over(data, ["잠실역 이자카야 분위기 좋은 곳"], FRIDAY_NIGHT)
    heading = next(line for line in res.answer.splitlines() if "곳을 찾았어요" in line)
    assert "분위기 좋은 이자카야" not in heading, res.answer
    for block in _card_blocks(res.answer):
        if "가나주점" in block.split("\n")[0]:
            assert "'분위기' 2건" not in block, res.answer
        if "다라주점" in block.split("\n")[0]:
            assert "'분위기' 7건" in block, res.answer


def test_a_landmark_beside_the_station_it_lies_by_is_the_place_asked(tmp_path: Path) -> None:
    """A street said beside its station ("잠실역 송리단길") is where the answer is about, not dropped silently."""
    records = [
        jamsil_record(
            "s1",
            "가나이자카야",
            "술집>일본식주점",
            ["사케", "꼬치"],
            lat=37.5099,
            lon=127.1087,
            businessHours="매일 17:00 ~ 02:00",
        ),
        near_jamsil(
            "s2", "다라이자카야", 100, "술집>일본식주점", ["사케", "꼬치"], businessHours="매일 17:00 ~ 02:00"
        ),
    ]
    data = ingest_records(tmp_path, records)
    [res] = talk_over(data, ["잠실역 송리단길 이자카야"], FRIDAY_NIGHT)
    assert res.plan is not None and res.plan.location is not None
    assert res.plan.location.name == "송리단길", res.plan.location


def test_a_widening_line_names_only_places_listing_the_dish_asked(tmp_path: Path) -> None:
    """3. A kind asked by its dish ("삼겹살"): the places "메뉴에만 있는" are those listing that dish ('꽃삼겹'),
    never a neighbour of it ('통목살' — F1's shape: 리코타 for 브런치; Q15's widening line)."""
    records = [
        near_jamsil(
            "p1",
            "가나삼겹살",
            100,
            "한식>육류,고기>삼겹살",
            ["생삼겹살", "목살"],
            businessHours="매일 11:00 ~ 23:00",
        ),
        near_jamsil(
            "p2",
            "다라갈비",
            300,
            "한식>육류,고기>갈비",
            ["돼지갈비", "통목살", "냉면"],
            businessHours="매일 11:00 ~ 23:00",
        ),
    ]
    records += [
        near_jamsil(
            f"q{i}", f"사아삼겹살{i}", 1800 + 100 * i, "한식>육류,고기>삼겹살", ["생삼겹살", "항정살"]
        )
        for i in range(3)
    ]
    data = ingest_records(tmp_path, records)
    [res] = talk_over(data, ["잠실역 삼겹살"], WEDNESDAY_NOON)
    assert "1곳뿐이라" in res.answer, res.answer  # '통목살' is no 삼겹살 listed
    assert "메뉴에만 있는" not in res.answer, res.answer
