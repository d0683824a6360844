"""Issue 24 relevance classes (helper rank29, session s42), one test each, failing on cabd56f. Expected
facts come from hand-made crawl records near 잠실역 (``support.records``), never the sets' places.

- A drink said as what brought a hangover on ("어제 소주 너무 마셔서 속 쓰림.. 해장할곳") is the story: no
  menu '소주' (three bars listing 소주 were shown) and no kind ("맥주 많이 마셔서" asked for a 호프)
  — relevance_test22 t2794 (data/kinds.toml theme ``causes``).
- A word ending in 점 that names the kind of shop ("○○ 과자점") is no branch: "달달한 과자점" made a chain
  "달달한", and "송파역 디저트 달달한거" became a question about that shop, anywhere (relevance_test22 t2803;
  data/words/titles.toml ``shop_nouns``).
- A sweet wish said beside one kind of its family ("디저트 달달한거") asks for the family, as the wish alone
  does: a bakery near is one, and the words are understood — never "'달달하'는 데이터로 확인할 수 없어서
  빼고 찾았어요" (relevance_test21 t2693; data/kinds.toml theme ``beside``).
- A kind's dish said in English ("jjamppong near …") is kept as the dish beside its kind, as "○○역 짬뽕"
  is: the places listing it first (relevance_test22 t2817; data/english.toml).
- class 10, an occasion's evidence never pulls a little-known place ahead: a 3-review 한우 house filed 육류
  (read as 회식) went before a 28-review one filed bare 한식, 200 m nearer (audit r15 Q20.1;
  ``rank.backed_before_unbacked``).
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from support.records import ingest_records, talk_over
from support.records import near_jamsil as near

KST = ZoneInfo("Asia/Seoul")
SAT_EVENING = datetime(2026, 11, 28, 19, 30, tzinfo=KST)
HOURS = {"businessHours": "매일 07:00 ~ 23:00"}


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    records: list[dict[str, Any]] = [
        # hangover bowls and bars that list drinks
        near("h1", "가온뼈해장국", 200, "한식>해장국", {"뼈해장국": "9,000원"}, reviewCount=30, **HOURS),
        near("h2", "다솜순대국", 300, "한식>순대", {"순대국": "9,000원"}, reviewCount=20, **HOURS),
        near("h3", "마루포차", 100, "술집>실내포장마차", {"소주": "5,000원", "맥주": "5,000원"}, **HOURS),
        near("h4", "바람호프", 150, "술집>호프,요리주점", {"생맥주": "4,000원", "소주": "5,000원"}, **HOURS),
        # desserts near, and a bakery whose name starts with a word of the wish, far away
        near("d1", "가람케이크", 250, "카페>디저트카페", {"딸기케이크": "7,000원"}, reviewCount=25, **HOURS),
        near("d2", "나래마카롱", 350, "카페>디저트카페", {"마카롱": "2,500원"}, reviewCount=12, **HOURS),
        near("d4", "다솜빵집", 300, "간식>제과,베이커리", {"소금빵": "3,500원"}, reviewCount=60, **HOURS),
        near("d3", "달콤한 과자점", 9000, "간식>제과,베이커리", {"쿠키": "3,000원"}, reviewCount=2, **HOURS),
        # Chinese houses: the best known does not list 짬뽕
        near(
            "c1",
            "가득반점",
            150,
            "중식>중국요리",
            {"짜장면": "7,000원", "탕수육": "18,000원"},
            reviewCount=80,
        ),
        near(
            "c2", "다온짬뽕", 400, "중식>중국요리", {"짬뽕": "9,000원", "짜장면": "7,000원"}, reviewCount=10
        ),
        # beef: the well-known house's path is bare 한식, the little-known one's says 육류
        near(
            "b1",
            "가온한우",
            700,
            "한식>육류,고기",
            {"한우등심": "45,000원", "한우불고기": "15,000원"},
            reviewCount=3,
        ),
        near(
            "b2",
            "다온하누",
            500,
            "한식",
            {"한우 차돌박이": "27,000원", "한우 등심": "49,000원", "한우 육회": "25,000원"},
            reviewCount=28,
            rating=4.7,
            **HOURS,
        ),
    ]
    return ingest_records(tmp_path_factory.mktemp("rank29"), records)


def test_a_drink_said_as_the_cause_of_a_hangover_is_no_menu_or_kind(data: Path) -> None:
    for text in ["어제 소주 너무 마셔서 속 쓰림.. 잠실역 해장할곳", "어제 맥주 많이 마셔서 잠실역 해장할 데"]:
        (r,) = talk_over(data, [text], SAT_EVENING)
        ids = [c.id for c in r.cards]
        assert ids and set(ids) <= {"h1", "h2"}, (text, r.answer)
        assert "'소주'" not in r.answer and "호프" not in r.answer.split("\n\n")[0], r.answer


def test_a_shop_noun_ending_in_jeom_is_no_branch_of_a_chain(data: Path) -> None:
    (r,) = talk_over(data, ["잠실역 디저트 달콤한거"], SAT_EVENING)
    assert r.plan.titles == [] and r.plan.location is not None, r.answer
    ids = [c.id for c in r.cards]
    assert "d3" not in ids and "d1" in ids, r.answer


def test_a_sweet_wish_said_beside_a_kind_of_its_family_asks_for_the_family(data: Path) -> None:
    (r,) = talk_over(data, ["잠실역 디저트 달달한거"], SAT_EVENING)
    assert "확인할 수 없어서" not in r.answer, r.answer
    ids = [c.id for c in r.cards]
    assert "d1" in ids and "d4" in ids, r.answer


def test_a_kinds_dish_said_in_english_is_kept_beside_the_kind(data: Path) -> None:
    (r,) = talk_over(data, ["jjamppong near jamsil station"], SAT_EVENING)
    assert r.plan.kind_dishes == ["짬뽕"], r.plan
    assert [c.id for c in r.cards][:1] == ["c2"], r.answer


def test_an_occasions_evidence_never_pulls_a_little_known_place_ahead(data: Path) -> None:
    (r,) = talk_over(data, ["잠실역 회식 소고기"], SAT_EVENING)
    ids = [c.id for c in r.cards]
    assert "b1" in ids and "b2" in ids, r.answer
    assert ids.index("b2") < ids.index("b1"), r.answer
