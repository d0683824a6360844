"""Wrong-kind cards on fresh questions (issue 24, relevance_test16 as a development set)."""

from __future__ import annotations

from matjip.nlu.kinds import detect_kinds


def test_kind_qualifying_a_ruled_out_word_is_no_second_wish() -> None:
    """ "라멘집 (분식집 라면말고)": 분식 says which 라면 is ruled out; asking 분식 beside 라멘 filled
    the cards with a 떡볶이 buffet. Alone, "중국집 짬뽕 말고" still asks for a 중국집."""
    for text in (
        "잠실 일본식 라멘집 (분식집 라면말고)",
        "잠실 라멘집 분식 라면 말고",
        "분식 라면 말고 라멘 잘하는 데",
    ):
        assert detect_kinds(text).kinds == ["라멘"], text
    assert detect_kinds("강남 중국집 짬뽕 말고").kinds == ["중국집"]
    assert detect_kinds("잠실 고깃집 삼겹살 말고").kinds == ["고깃집"]
