"""Classes of false statements of the eleventh issue-24 audit (docs/audit_issue24_r11.md, on 5a28826), one
test each, failing on that code. Expected facts are read from the raw demo crawl, never from the product.

F1 (class 11/13): "'해장'은 데이터에 없어서 …" above a card filed `한식>해장국` — a described family's note
may say the data cannot tell whether a place suits the wish, never that a word the documents carry is absent.
"""

from __future__ import annotations

import re

from matjip.kinds import kinds
from support.demo import raw_records

_ABSENT = re.compile(r"'([^']+)'(?:은|는) 데이터에 없어서")


def _said_anywhere(word: str) -> bool:
    for rec in raw_records().values():
        menus = " ".join(str(m.get("name", "")) for m in rec.get("menus") or [])
        if word in f"{rec.get('title', '')} {rec.get('category', '')} {menus}":
            return True
    return False


def test_a_family_note_never_calls_a_word_of_the_documents_absent() -> None:
    claimed = [(t.name, m.group(1)) for t in kinds().themes if (m := _ABSENT.search(t.note))]
    assert claimed  # the pattern is still in use ("'단 거'는 데이터에 없어서")
    for name, quoted in claimed:
        stem = quoted.removesuffix(" 맛").removesuffix("한")
        assert not _said_anywhere(stem), f"{name}: '{quoted}' — the documents carry '{stem}'"


def test_a_hot_pot_named_for_huoguo_is_chinese_and_a_kids_price_is_a_welcome() -> None:
    """F2: "(아이와 가기 좋은 곳인지는 정보가 없어요)" above 호오탕훠꿔, whose menu prices 초등학생 and 소인;
    F3: the same place labelled 한식 (category `샤브샤브`, title 훠궈)."""
    from matjip.ingest.category import classify_category
    from matjip.ingest.crawl import CrawlDocument
    from matjip.ingest.enrich import get_enricher

    assert classify_category("샤브샤브", "호오탕훠꿔 성남위례점").cuisine == "중식"
    assert classify_category("샤브샤브", "채선당 위례점").cuisine == "한식"
    rec = next(r for r in raw_records().values() if r["title"] == "호오탕훠꿔 성남위례점")
    assert any("초등학생" in m["name"] for m in rec["menus"])
    got = get_enricher("offline").enrich_many([CrawlDocument.model_validate(rec)])[0]
    assert "아이와" in got.occasion
    plain = (
        next(r for r in raw_records().values() if r["title"] == "채선당 위례점")
        if any(r["title"] == "채선당 위례점" for r in raw_records().values())
        else None
    )
    if plain is not None and not any("어린이" in m["name"] or "키즈" in m["name"] for m in plain["menus"]):
        assert (
            "아이와"
            not in get_enricher("offline").enrich_many([CrawlDocument.model_validate(plain)])[0].occasion
        )


def _doc(title: str):  # type: ignore[no-untyped-def]
    from matjip.ingest.crawl import CrawlDocument
    from matjip.ingest.preprocess import preprocess

    rec = next(r for r in raw_records().values() if r["title"] == title)
    return preprocess(CrawlDocument.model_validate(rec))


def test_cheaper_is_read_on_the_food_asked_not_on_a_side_dish() -> None:
    """C3.2: "좀 덜 비싼 데" after 오금역 치킨집 listed 마이원통닭 — "cheaper" by its dried squid (10,000원),
    its menu having no chicken at all."""
    from matjip.agent.models import SearchPlan
    from matjip.agent.retrieval.filters import kind_price, within_budget
    from matjip.index.request import SearchHit

    squid = _doc("마이원통닭")
    assert {m.name for m in squid.menus} == {"반건조오징어(1마리)", "쥐포", "감자&김말이"}
    assert kind_price(squid, ["치킨집"]) is None  # how cheap its chicken is: unknown
    plan = SearchPlan(kinds=["치킨집"], price_max=19_000)
    hit = SearchHit(id=squid.place_id, score=0.5, document=squid)
    assert within_budget([hit], plan, cheaper=True) == []
    boom = _doc("붐치킨 본점")  # 후라이드 10,900원, 양념 12,500원 …: its chicken is priced
    got = kind_price(boom, ["치킨집"])
    assert got is not None and got <= 13_000
    assert within_budget([SearchHit(id=boom.place_id, score=0.5, document=boom)], plan, cheaper=True)


def test_a_day_asked_of_a_named_place_is_an_information_question(sample_agent) -> None:  # type: ignore[no-untyped-def]
    """dialogue_test17 el084: "중앙해장 일요일에도 해요?" searched 해장 places ("'중앙해장'은 데이터로 확인할 수
    없어서 빼고") — a day asked of a place is a question about its hours, so the composite name counts."""
    from support.chat import Chat

    rec = next(r for r in raw_records().values() if r["title"] == "중앙해장")
    assert "월~토" in rec["businessHours"]
    r = Chat(sample_agent)("중앙해장 토요일에도 해요?")
    first = r.answer.strip().splitlines()[0]
    assert first.startswith("중앙해장"), r.answer
    assert "토요일" in first and "07:00" in first, r.answer


def test_an_outside_place_is_said_as_the_user_narrowed_it() -> None:
    """dialogue_test17 el010/el011/el105: "부산 서면 돼지국밥" was answered "'부산' 쪽은 … 데이터에 없어요"."""
    from matjip.agent.coverage import outside_place

    assert outside_place("부산 서면 돼지국밥 맛집 어디임") == "부산 서면"
    assert outside_place("대구 동성로에 갈만한 술집 있나요") == "대구 동성로"
    assert outside_place("해운대 가는데 횟집 추천해줘") == "해운대"
    assert outside_place("부산 서면", covered=lambda name: name == "부산") == "서면"
    assert outside_place("잠실 맛집") is None


def test_a_wish_the_cards_have_only_by_their_category_is_not_claimed_by_the_heading(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Q3: "방이동 삼겹살 8명 단체로 예약 가능한 곳" — "방이동 근처 단체 삼겹살 3곳" right after "좌석 정보가 없어서
    알 수 없어요": the only evidence for 단체 was that a grill house is one."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from support.records import ingest_records, talk_over
    from support.records import near_jamsil as near

    meat = "한식>육류,고기>삼겹살"
    records = [
        near(f"s{i}", f"삼겹집{i}", 100 + 80 * i, meat, {"삼겹살": "15,000원"}, reviewCount=30 - i)
        for i in range(4)
    ]
    data = ingest_records(tmp_path, records)
    (r,) = talk_over(
        data,
        ["잠실역 삼겹살 8명 단체로 갈 곳"],
        datetime(2026, 11, 28, 12, 10, tzinfo=ZoneInfo("Asia/Seoul")),
    )
    assert r.cards, r.answer
    heading = next(line for line in r.answer.splitlines() if "찾았어요" in line)
    assert "단체" not in heading, r.answer


def test_a_restaurant_named_is_no_typo_of_a_kind() -> None:
    """dialogue_test17 el088: "로뎅바랑 당산옛날곱창 중에 어디가 더 늦게까지 해?" — "'로뎅바'는 '오뎅바'로 알아듣고"
    and one place answered instead of the two compared."""
    from matjip.agent.understanding import kinds_beside_titles
    from matjip.nlu.models import NLUResult

    assert any(r["title"] == "로뎅바" for r in raw_records().values())
    text = "로뎅바랑 당산옛날곱창 중에 어디가 더 늦게까지 해?"
    nlu = NLUResult.model_validate({"intent": "compare", "entities": {"title": ["로뎅바", "당산옛날곱창"]}})
    frame = kinds_beside_titles(text, nlu)
    assert not frame.corrections and "오뎅바" not in frame.kinds
    typo = kinds_beside_titles("로뎅바 추천", NLUResult())  # no name said: still read as the typo it is
    assert typo.corrections
    search = NLUResult.model_validate({"intent": "information", "entities": {"title": ["파스따"]}})
    assert "파스타·이탈리안" in kinds_beside_titles("합정 파스따", search).kinds  # a search keeps the kind


def test_along_a_walk_a_place_on_the_line_beats_a_better_known_one_far_off_it(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Q13: "잠실새내역에서 잠실역까지 걸어가는 길에 빵집" showed bakeries 300–360 m of detour while others lay
    80–107 m off the line."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from support.records import JAMSIL, M_PER_DEG_LAT, ingest_records, jamsil_record, talk_over

    bakery = "간식>제과,베이커리"
    west = 400 / (M_PER_DEG_LAT * 0.7933)  # 400 m west of 잠실역, on the line to 잠실새내역
    far = [
        jamsil_record(
            f"far{i}",
            title,
            bakery,
            ["식빵"],
            lat=JAMSIL[0] + 380 / M_PER_DEG_LAT,
            lon=JAMSIL[1] - west * (1 + i / 4),
            reviewCount=60 + i,
        )
        for i, title in enumerate(["가나빵집", "다라제과", "마바베이커리"])
    ]
    on = jamsil_record("on", "길빵집", bakery, ["식빵"], lat=JAMSIL[0], lon=JAMSIL[1] - west, reviewCount=25)
    records = [*far, on]
    data = ingest_records(tmp_path, records)
    (r,) = talk_over(
        data,
        ["잠실역에서 잠실새내역까지 걸어가는 길에 빵집"],
        datetime(2026, 11, 28, 12, 10, tzinfo=ZoneInfo("Asia/Seoul")),
    )
    ids = [c.id for c in r.cards]
    assert len(ids) == 3 and "on" in ids, r.answer


def test_one_stop_after_another_with_both_named_is_a_course() -> None:
    """dialogue_test17 el077: "신논현역 근처에서 고기 먹고 걸어서 갈수 있는 카페도" listed 고깃집 and cafés mixed in
    one radius search."""
    from matjip.nlu.strategy import detect_strategy

    for message in (
        "신논현역 근처에서 고기 먹고 걸어서 갈수 있는 카페도",
        "석촌역에서 저녁 먹고 2차로 술집까지",
    ):
        assert detect_strategy(message).strategy == "course", message
    for message in (
        "잠실 거쳐서 천호 가는데 칼국수 먹고 갈 데",
        "점심 먹고 갈 카페 잠실",
        "회 먹고 싶어 가락시장 근처",
    ):
        assert detect_strategy(message).strategy != "course", message


def test_an_ordinal_said_with_earlier_counts_in_the_earlier_list(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """dialogue_test17 el116: "남위례역 족발집" → "다른 데는?" → "아까 첫번째 집 몇시까지 해?" answered the first
    place of the second list."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from support.records import ingest_records, talk_over
    from support.records import near_jamsil as near

    records = [
        near(
            f"g{i}",
            f"국밥집{'가나다라마바'[i]}",
            100 + 60 * i,
            "한식>국밥",
            {"순대국밥": "10,000원"},
            reviewCount=60 - 5 * i,
            businessHours=f"매일 {9 + i:02d}:00 ~ 21:00",
        )
        for i in range(6)
    ]
    data = ingest_records(tmp_path, records)
    first, other, asked = talk_over(
        data,
        ["잠실역 국밥집", "다른 데는?", "아까 첫번째 집 몇시까지 해?"],
        datetime(2026, 11, 28, 12, 10, tzinfo=ZoneInfo("Asia/Seoul")),
    )
    assert first.cards and other.cards and first.cards[0].id not in {c.id for c in other.cards}
    assert asked.answer.strip().startswith(first.cards[0].name), asked.answer
