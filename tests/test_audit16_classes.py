"""Classes of the sixteenth issue-24 audit (docs/audit_issue24_r16.md, on cabd56f), one test each, failing
on that code; built from hand-made records (support.records) near 잠실역 or the gazetteer, never the
audit's places or questions.

A. Everyday landmarks that are no station or dong resolve through the gazetteer data: a hospital said without its
   station's 역, an apartment town, and an English "<name>-gu office".
B. Mild-taste wording beyond 맵다 ("얼큰하지 않은", "안 칼칼한", "자극적인 거 말고") is the mild wish: never an
   unknowable word, never the spicy family, and the red-by-default houses stay out.
C. Words that say what one goes to see before or after eating ("농구 보기 전에", "뮤지컬 보고") are no condition:
   never "데이터로 확인할 수 없어서 빼고 찾았어요", never an activity "추정".
D. A budget per person on a kind eaten from shared plates ("5명 1인 2만원 족발"): the plate's price is split by the
   people it feeds, said, so the real houses stay; a place that is the kind only by its name, selling other
   food, never passes the budget on another dish's price.
E. Clock edges: after midnight a place inside yesterday's overnight session is open (never "오늘은 영업일이
   아니에요"); a time asked a few minutes ahead ("7시반" at 07:20) is the time compared; early in the morning
   a card not open yet says so ("영업 전").
G. A new town is searched where its restaurants are (the median of the documents with its address), not at the
   administrative centroid of its dong 1.5 km away.
H. A style of a kind said by its own word ("전기구이통닭", "옛날통닭") is matched on the menus: the places listing it
   first, the line named on the card — never any place named ○○통닭 in its stead.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from matjip.geo.distance import haversine_m
from support.chat import SEOUL
from support.records import ingest_records, jamsil_record, near_jamsil, talk_over

WEDNESDAY_DINNER = datetime(2026, 11, 25, 18, 40, tzinfo=SEOUL)
SATURDAY_SMALL_HOURS = datetime(2026, 11, 28, 1, 25, tzinfo=SEOUL)
TUESDAY_EARLY = datetime(2026, 11, 24, 7, 15, tzinfo=SEOUL)


def _card_heads(answer: str) -> list[str]:
    return [b.split("\n")[0] for b in answer.split("\n**")[1:]]


def test_mild_taste_words_beyond_spicy_are_the_mild_wish(tmp_path: Path) -> None:
    records = [
        near_jamsil("b1", "다온부대찌개", 120, "한식>찌개,전골", ["부대찌개", "부대전골"], reviewCount=90),
        near_jamsil("b2", "라온설렁탕", 220, "한식>설렁탕", ["설렁탕", "도가니탕"], reviewCount=40),
        near_jamsil("b3", "미담곰탕", 320, "한식>곰탕", ["곰탕", "수육"], reviewCount=30),
        near_jamsil("b4", "하늘김치찌개", 420, "한식>찌개,전골", ["김치찌개", "된장찌개"], reviewCount=70),
        near_jamsil("b5", "소담된장", 520, "한식>찌개,전골", ["된장찌개", "청국장"], reviewCount=10),
    ]
    data = ingest_records(tmp_path, records)
    soup, stew = talk_over(data, ["잠실역 얼큰하지 않은 국물 먹을 데"], WEDNESDAY_DINNER) + talk_over(
        data, ["잠실역 칼칼하지 않은 찌개 먹고 싶어"], WEDNESDAY_DINNER
    )
    for res in (soup, stew):
        assert "데이터로 확인할 수 없어서" not in res.answer, res.answer  # a taste, read from the menus
        assert "흔히 얼큰하다고" not in res.answer, res.answer  # never the spicy family
        heads = _card_heads(res.answer)
        assert heads, res.answer
        assert all("다온부대찌개" not in h for h in heads), res.answer  # a red-by-default house stays out
    assert "소담된장" in _card_heads(stew.answer)[0], stew.answer  # the mild stew listed first


def test_clock_edges_yesterdays_session_an_asked_time_and_the_early_morning(tmp_path: Path) -> None:
    records = [
        near_jamsil(
            "e1", "달빛포차", 150, "술집>포장마차", ["오뎅탕", "닭똥집"], businessHours="월~금 18:00 ~ 03:30"
        ),
        near_jamsil(
            "e2", "새벽토스트", 250, "분식>토스트", ["햄치즈토스트"], businessHours="매일 07:25 ~ 15:00"
        ),
        near_jamsil(
            "e3", "아침토스트", 900, "분식>토스트", ["베이컨토스트"], businessHours="매일 06:30 ~ 14:00"
        ),
        near_jamsil(
            "e4", "한낮샌드", 200, "패스트푸드>샌드위치", ["클럽샌드위치"], businessHours="매일 09:30 ~ 21:00"
        ),
    ]
    data = ingest_records(tmp_path, records)
    [bar] = talk_over(data, ["잠실역 포차 지금 열린 데"], SATURDAY_SMALL_HOURS)
    assert "영업일이 아니에요" not in bar.answer, bar.answer  # Friday's 18:00~03:30 is still on
    assert "어제(금)" in bar.answer, bar.answer
    [toast] = talk_over(data, ["잠실역 아침 7시반에 토스트"], TUESDAY_EARLY)
    assert "영업 전 · 07:25" not in toast.answer, toast.answer  # open at the time asked
    assert "새벽토스트" in _card_heads(toast.answer)[0], toast.answer  # the nearer one, open at 07:30
    [sandwich] = talk_over(data, ["잠실역 샌드위치"], TUESDAY_EARLY)
    assert "지금: 영업 전 · 09:30 오픈" in sandwich.answer, sandwich.answer


def test_a_budget_per_person_on_shared_plates_keeps_the_houses_of_the_kind(tmp_path: Path) -> None:
    records = [
        near_jamsil(
            "d1",
            "가온족발",
            150,
            "한식>족발,보쌈",
            {"족발 (중)": "36,000", "족발 (대)": "42,000"},
            reviewCount=60,
        ),
        near_jamsil("d2", "나래족발", 300, "한식>족발,보쌈", {"족발(소)": "30,000", "쟁반국수": "8,000"}),
        near_jamsil(
            "d3",
            "다솜족발",
            200,
            "아시아음식>동남아음식",
            {"양지쌀국수": "9,000", "분짜": "11,000", "팟타이": "10,000"},
        ),
    ]
    data = ingest_records(tmp_path, records)
    [res] = talk_over(data, ["잠실역 족발 5명 1인 2만원 이하로"], WEDNESDAY_DINNER)
    heads = _card_heads(res.answer)
    assert any("가온족발" in h for h in heads), res.answer  # 36,000원 a plate for about three
    assert any("나래족발" in h for h in heads), res.answer
    assert all("다솜족발" not in h for h in heads), res.answer  # its prices are no 족발's
    assert "나눠 먹는" in res.answer and "나누면 1인 약" in res.answer, res.answer  # the split is said


def test_hospitals_apartment_towns_and_english_district_offices_are_places(tmp_path: Path) -> None:
    records = [
        jamsil_record("a1", "소나무죽집", "한식>죽", ["전복죽", "소고기죽"], lat=37.5290, lon=127.1470),
        jamsil_record("a2", "리센츠떡볶이", "분식>떡볶이", ["떡볶이", "순대"], lat=37.5125, lon=127.0865),
        jamsil_record("a3", "구청앞국수", "한식>국수", ["잔치국수", "비빔국수"], lat=37.5140, lon=127.1085),
    ]
    data = ingest_records(tmp_path, records)
    hospital, flats, office = (
        talk_over(data, [q], WEDNESDAY_DINNER)[0]
        for q in ("보훈병원 근처 죽 먹을 데", "리센츠 아파트 앞 떡볶이", "noodles near songpa-gu office")
    )
    for res, title in ((hospital, "소나무죽집"), (flats, "리센츠떡볶이"), (office, "구청앞국수")):
        assert "위치를 찾지 못했어요" not in res.answer, res.answer
        assert "데이터로 확인할 수 없어서" not in res.answer, res.answer  # no "'gu', 'office'"
        assert title in _card_heads(res.answer)[0], res.answer
    assert office.plan.location is not None and office.plan.location.name == "송파구청", office.plan


def test_an_outing_before_or_after_the_meal_is_no_condition(tmp_path: Path) -> None:
    records = [
        near_jamsil("c1", "가람치킨", 150, "치킨", ["후라이드치킨", "양념치킨"]),
        near_jamsil("c2", "누리파스타", 250, "양식>이탈리안", ["봉골레 파스타", "크림 파스타"]),
    ]
    data = ingest_records(tmp_path, records)
    chicken, pasta = (
        talk_over(data, [q], WEDNESDAY_DINNER)[0]
        for q in ("잠실역 농구 보기 전에 치킨", "잠실역 뮤지컬 보고 파스타")
    )
    for res, title in ((chicken, "가람치킨"), (pasta, "누리파스타")):
        assert "데이터로 확인할 수 없어서" not in res.answer, res.answer
        assert "확인할 수 없었어요" not in res.answer, res.answer
        assert "키워드로 추정" not in res.answer, res.answer
        assert title in _card_heads(res.answer)[0], res.answer


def test_a_style_of_a_kind_is_matched_on_the_menus(tmp_path: Path) -> None:
    records = [
        near_jamsil("h1", "다래통닭", 120, "치킨", ["후라이드치킨", "양념치킨", "순살치킨"], reviewCount=80),
        near_jamsil("h2", "보람통닭", 200, "치킨", ["크리스피치킨", "간장치킨"], reviewCount=60),
        near_jamsil(
            "h3", "마루호프", 450, "술집>호프,요리주점", ["전기구이통닭 한마리", "골뱅이무침", "노가리"]
        ),
    ]
    data = ingest_records(tmp_path, records)
    [res] = talk_over(data, ["잠실역 전기구이통닭 먹고 싶다"], WEDNESDAY_DINNER)
    heads = _card_heads(res.answer)
    assert heads and "마루호프" in heads[0], res.answer
    assert "전기구이통닭 한마리" in res.answer, res.answer


def test_a_new_town_is_searched_where_its_restaurants_are(tmp_path: Path) -> None:
    records = [
        jamsil_record(
            "g1", "감일손칼국수", "한식>국수>칼국수", ["손칼국수", "만두"], lat=37.5092, lon=127.1560
        ),
        jamsil_record(
            "g2",
            "벌말칼국수",
            "한식>국수>칼국수",
            ["바지락칼국수"],
            lat=37.4995,
            lon=127.1700,
            reviewCount=90,
        ),
    ]
    data = ingest_records(tmp_path, records)
    [res] = talk_over(data, ["감일신도시 칼국수 잘하는 집"], WEDNESDAY_DINNER)
    loc = res.plan.location
    assert loc is not None and haversine_m(loc.lat, loc.lon, 37.5092, 127.1560) < 500, loc
    assert "감일손칼국수" in _card_heads(res.answer)[0], res.answer
