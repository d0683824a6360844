"""Issue 24 class 7, session 10 (rev32): occasion precision. Fresh real-review sets read occasions the text does not
give the writer — a next visit only wished, someone else's company, other guests seen, advice to readers, being alone
told as a complaint, likenesses and tastes named after a company, a child's liking only foreseen, a takeaway eaten by the
family, another one's birthday. Each class is data (``review_rules.toml``, the block "Session 10 (rev32)"); the
sentences below are in new words (none is in a labelled set or in the crawl read for the classes), each negative case
fails on main ``c20474b`` and each control passes on both."""

from __future__ import annotations

import pytest

from support.reviews import read


def _occasions(text: str) -> set[str]:
    return set(read(text).occasion)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("다음 달엔 시부모님 모시고 오고 싶은 마음이에요", "가족"),
        ("여기는 꼭 와이프 데리고 오겠습니다", "가족"),
        ("담번엔 가족들이랑 같이 와서 먹어볼게요", "가족"),
        ("나중에 동료들이랑 회식하러 오고 싶네요", "회식"),
        ("처음 와봤는데 다음 주말에는 식구들이랑 같이 갈까 해요", "가족"),
    ],
)
def test_a_company_only_wished_for_a_next_visit_is_no_occasion(text: str, value: str) -> None:
    assert value not in _occasions(text), (text, _occasions(text))


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("아내랑 와서 잘 먹었는데 또 오고 싶어요", "가족"),
        ("남편이 와보고 싶어 해서 같이 왔어요", "가족"),
        ("엄마랑 또 오고 싶어요", "가족"),
    ],
)
def test_a_visit_told_before_the_wish_keeps_its_company(text: str, value: str) -> None:
    assert value in _occasions(text), (text, _occasions(text))


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # a friend's family or couple
        ("친구가 부모님이랑 자주 간다고 해서 따라왔어요", "가족"),
        ("지인네 커플이랑 넷이 다녀왔어요", "데이트"),
        # the owners' family
        ("노부부가 운영하시는 작은 국밥집이에요", "가족"),
        ("가족이 운영하는 느낌이 나는 식당이에요", "가족"),
        # a family member's work dinner
        ("남편이 회사 회식으로 와보고 맛있다고 해서 왔어요", "회식"),
    ],
)
def test_someone_elses_company_is_not_the_writers(text: str, value: str) -> None:
    assert value not in _occasions(text), (text, _occasions(text))


@pytest.mark.parametrize(
    "text",
    [
        "아빠랑 단둘이 오붓한 데이트 했어요",
        "조카랑 데이트하러 왔는데 좋아하더라구요",
        "모녀 데이트로 딱이에요",
    ],
)
def test_a_date_with_ones_family_or_a_child_is_no_couples_date(text: str) -> None:
    assert "데이트" not in _occasions(text), (text, _occasions(text))


def test_a_couples_date_stays() -> None:
    assert "데이트" in _occasions("여자친구랑 데이트하기 좋아요")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("연인들이 많이 찾으시는 곳인지 커플석이 많아요", "데이트"),
        ("옆자리 가족은 생일파티 중이더라고요", "가족"),
        ("옆자리 가족은 생일파티 중이더라고요", "기념일"),
    ],
)
def test_other_guests_seen_are_not_the_writers_company(text: str, value: str) -> None:
    assert value not in _occasions(text), (text, _occasions(text))


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("회식으로 가실 분들은 룸 예약 미리 하셔야 해요", "회식"),
        ("아이랑 가실 분들은 참고하세요 계단이 가팔라요", "아이와"),
        ("단체로 방문하실 분들은 미리 전화로 확인하세요", "단체"),
    ],
)
def test_advice_to_readers_tells_no_company(text: str, value: str) -> None:
    assert value not in _occasions(text), (text, _occasions(text))


def test_the_place_recommended_to_readers_for_a_company_stays() -> None:
    assert "데이트" in _occasions("데이트하시는 분들께 강추해요")


@pytest.mark.parametrize(
    "text",
    [
        "혼자 가면 사장님이 은근 눈치 주세요",
        "혼자 들어가니 직원분이 싫어하는 티를 내셨어요",
        "혼자 가면 눈치가 좀 보여요 두명 이상 가세요",
        "혼자 가니 사장님 표정이 별로였어요",
    ],
)
def test_alone_and_treated_badly_is_no_meal_alone_the_place_suits(text: str) -> None:
    assert "혼밥" not in _occasions(text), (text, _occasions(text))


@pytest.mark.parametrize("text", ["혼자 가도 눈치 안 보이고 편해요", "혼밥하기 좋아요"])
def test_alone_and_at_ease_stays(text: str) -> None:
    assert "혼밥" in _occasions(text), (text, _occasions(text))


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("가족같이 챙겨주시는 사장님", "가족"),
        ("가족적인 분위기의 작은 식당", "가족"),
        ("엄마가 싸주던 김밥 맛이에요", "가족"),
        ("처가 근처라 지나가다 들렀어요", "가족"),
        ("저는 어린이 입맛이라 돈까스가 딱이었어요", "아이와"),
        ("혼자서 두 그릇은 먹을 수 있는 맛이에요", "혼밥"),
    ],
)
def test_a_likeness_a_taste_or_a_measure_named_after_a_company_is_none(text: str, value: str) -> None:
    assert value not in _occasions(text), (text, _occasions(text))


def test_a_family_at_the_table_stays() -> None:
    assert "가족" in _occasions("가족이랑 같이 와서 잘 먹었어요")


@pytest.mark.parametrize("text", ["아이들이 잘 먹을 것 같아요"])
def test_a_childs_liking_only_foreseen_is_no_child_at_the_table(text: str) -> None:
    assert "아이와" not in _occasions(text), (text, _occasions(text))


@pytest.mark.parametrize("text", ["아이들이 정말 잘 먹어요", "아이가 좋아할 만한 메뉴가 많아요"])
def test_a_child_who_ate_or_the_place_offering_children_stays(text: str) -> None:
    assert "아이와" in _occasions(text), (text, _occasions(text))


@pytest.mark.parametrize(
    "text", ["포장해 와서 남편이랑 맛있게 먹었어요", "배달시켜서 가족들이 다 같이 먹었는데 맛있었어요"]
)
def test_a_takeaway_eaten_by_the_family_is_no_family_visit(text: str) -> None:
    assert "가족" not in _occasions(text), (text, _occasions(text))


def test_a_family_visit_beside_the_takeaway_stays() -> None:
    assert "가족" in _occasions("포장도 되고 가족끼리 와서 먹기도 좋아요")


@pytest.mark.parametrize("text", ["생일카페 이벤트 때문에 들렀어요", "개업 5주년 기념일이라 할인해주셨어요"])
def test_a_fan_event_or_the_places_anniversary_is_not_the_writers(text: str) -> None:
    assert "기념일" not in _occasions(text), (text, _occasions(text))


def test_the_writers_birthday_stays() -> None:
    assert "기념일" in _occasions("생일이라 친구들이랑 왔어요")


def test_an_occasion_held_at_another_place_is_not_this_ones() -> None:
    assert "회식" not in _occasions("다른 지점에서 회식했을 때 맛있어서 여기도 와봤어요")


def test_a_comparison_with_another_place_keeps_the_occasion() -> None:
    assert "가족" in _occasions("다른 곳보다 가족끼리 오기 좋아요")
