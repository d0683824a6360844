"""Issue 24, class 7: on a real crawl a convenience holds from one first-hand review with no
contradiction, while moods and occasions still need the share the settings set."""

from __future__ import annotations

from typing import Any

from matjip.ingest.crawl import CrawlDocument
from matjip.ingest.enrich import OfflineEnricher
from matjip.ingest.enrich.offline import Support
from matjip.settings import Settings

ENRICHER = OfflineEnricher()
FILLER = [f"음식이 맛있어요 {i}번째 방문" for i in range(40)]


def doc(*reviews: str, **kw: Any) -> CrawlDocument:
    base: dict[str, Any] = {"place_id": "p1", "title": "테스트식당", "category": "", "reviews": list(reviews)}
    base.update(kw)
    return CrawlDocument.model_validate(base)


def test_one_first_hand_mention_keeps_a_convenience_among_many_reviews() -> None:
    [e] = ENRICHER.enrich_many([doc("포장해서 집에서 먹었는데 맛있어요", *FILLER)])
    assert "포장" in e.convenience
    [ev, *_] = e.evidence_for("convenience", "포장")
    assert (ev.support, ev.reviews) == (1, 41)  # the answer can still say "리뷰 41건 중 1건"
    [e] = ENRICHER.enrich_many([doc("배민으로 시켰는데 배달 빨라요", *FILLER)])
    assert "배달" in e.convenience


def test_a_contradicted_convenience_is_not_kept() -> None:
    [e] = ENRICHER.enrich_many([doc("포장해서 먹었어요", "포장은 안 된대요 매장식사만", *FILLER)])
    assert "포장" not in e.convenience


def test_moods_and_occasions_still_need_the_share() -> None:
    [e] = ENRICHER.enrich_many([doc("분위기가 조용해서 좋았어요", "회식하기 좋아요", *FILLER)])
    assert "조용한" not in e.atmosphere and "회식" not in e.occasion


def test_the_fact_support_comes_from_settings() -> None:
    strict = OfflineEnricher(Settings(enrich_fact_min_reviews=2))
    [e] = strict.enrich_many([doc("포장해서 집에서 먹었는데 맛있어요", *FILLER)])
    assert "포장" not in e.convenience
    assert Support().needed(41, "convenience") == 1 and Support().needed(41, "atmosphere") == 2


def one(text: str) -> tuple[list[str], list[str], list[str], list[str]]:
    [e] = ENRICHER.enrich_many([doc(text)])
    return e.convenience, e.atmosphere, e.occasion, [a.value for a in e.against]


def test_first_hand_wordings_of_real_reviews() -> None:
    assert "주차" in one("주차는 맞은편 건물에 하시면 주차권 제공해주심")[0]  # advice, then a ticket
    assert "발렛" in one("빵은 갠츈 발렛은 엉망 완전 깡패같아서 발렛하실거면 다른 매장가세요 ㅎ")[0]
    assert "배달" in one("우버이츠로 주문. 햄버거맛있음.")[0]
    assert "포장" in one("가야는이유 : 고소한 라떼, 아이스테이크아웃은 페트캔 포장")[0]


def test_parking_in_another_building_and_hypotheticals_are_no_facts() -> None:
    conv, _, _, against = one("보통, 주차는 옆 빌딩에")
    assert "주차" not in conv and "주차" in against
    conv, _, _, against = one("집앞이었다면 떡꼬치를 자주 포장해서 먹었을 것 같다.")
    assert "포장" not in conv and "포장" not in against


def test_a_bare_mood_word_needs_a_judgement_of_its_own() -> None:
    assert "분위기 좋은" in one("분위기 맛 최고에요!ㅎㅎ")[1]
    assert "분위기 좋은" not in one("그날의 분위기 지배인님? 매너와 미소가 아직도 ㅎㅎ")[1]
    assert "분위기 좋은" not in one("고급진 분위기에 서비스도 좋아요")[1]


def test_taste_and_manner_are_no_moods() -> None:
    assert "깔끔한" not in one("음식이 모두 싱싱하고 깔끔함.")[1]
    assert "깔끔한" not in one("좋아요 처음부터 끝까지 깔끔하게 떨어집니다.")[1]
    assert "감성적인" not in one("한점 한점 설명 너무 이쁘게 해주셔서 기분 좋은 식사였습니다!")[1]
    assert "조용한" not in one("다시 한번 방문해서 차분하게 맛봐야할듯.")[1]


def test_what_another_subject_suffers_is_not_said_of_the_occasion() -> None:
    # (a meal time is no occasion since session 6, convention 5)
    assert "점심" not in one("며칠전 점심시간에 화장실에서 직원분이 손 제대로 안씻고 나가셨어요.")[2]
    _, _, occasion, against = one("단체가 들어갈 자리가 없어요")
    assert "단체" not in occasion and "단체" in against


def test_a_plain_conditional_says_how_the_place_works() -> None:
    assert "예약" in one("예약하면 테라스에서 먹을 수 있는데 비 오는 날에도 좋았어요")[0]
    assert "혼밥석" in one("다찌에서 식사하면 셰프님 덕에 재미도 있어요.")[0]
    _, _, _, against = one("배달하면 좋을텐데")
    assert "배달" in against  # a wish is still a wish
    assert "주차" in one("주차하려면 근처 공영주차장 이용해야 해요")[3]  # and "-려면" a purpose


def test_real_review_wordings_of_moods_and_occasions() -> None:
    assert "회식" in one("회식하기에 적당한 장소")[2]
    assert "모임" in one("가족들과 방문하곤 합니다 올해 망년회 잘했습니다")[2]
    assert "넓은" in one("서울시내에 이렇게 큰 카페가 있다니 신기하네요")[1]
    assert "색다른" not in one("색다른 느낌의 스시를 먹을 수 있는 곳")[1]
    assert "점심" not in one("직장이 선릉쪽이면 점심에 정말 많이 갔을 것 같다")[2]
