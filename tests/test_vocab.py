"""The shared vocabulary (``data/vocabulary.toml``) and the check the lexicons run against it."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from matjip.vocab import Vocab, check_names, vocab


def test_the_file_loads_once_with_unique_names() -> None:
    v = vocab()
    assert vocab() is v
    assert v.unknown_cuisine in v.cuisines
    assert len(set(v.cuisines)) == len(v.cuisines) and len(set(v.conveniences)) == len(v.conveniences)


def test_the_model_rejects_an_unknown_fallback_and_duplicates() -> None:
    with pytest.raises(ValidationError, match="not a cuisine"):
        Vocab.model_validate({"unknown_cuisine": "기타", "cuisine": [{"name": "한식"}], "convenience": []})
    with pytest.raises(ValidationError, match="duplicate"):
        Vocab.model_validate(
            {"unknown_cuisine": "한식", "cuisine": [{"name": "한식"}, {"name": "한식"}], "convenience": []}
        )


def test_check_names_flags_strays_and_with_complete_the_order() -> None:
    check_names(["주차"], ["주차", "예약"], "t")
    with pytest.raises(ValueError, match="발레"):
        check_names(["주차", "발레"], ["주차", "예약"], "t")
    with pytest.raises(ValueError, match="in its order"):
        check_names(["예약", "주차"], ["주차", "예약"], "t", complete=True)


def test_franchise_brands_are_read_off_the_category_leaf() -> None:
    """ "방이동 치킨 체인 말고" kept 본스치킨 and 꾸브라꼬 (one or two branches each in the data, so no
    title count calls them chains) although Kakao files them under their brand."""
    from matjip.nlu.vocabulary import Vocabulary

    records = [
        ("본스치킨 잠실신천점", ["후라이드"], "치킨>본스치킨"),
        ("꾸브라꼬 방이점", ["숯불치킨"], "치킨>꾸브라꼬숯불두마리치킨"),
        ("꾸브라꼬숯불두마리치킨 송파점", ["숯불치킨"], "치킨>꾸브라꼬숯불두마리치킨"),
        ("옛날칼국수", ["칼국수"], "한식>국수>칼국수"),
        ("명동칼국수", ["칼국수"], "한식>국수>칼국수"),
        ("어느집", ["삼겹살"], "한식>육류,고기>삼겹살"),
        ("제주은희네해장국 선릉점", ["해장국"], "한식>해장국>제주은희네해장국"),
        ("원조양평해장국", ["해장국"], "한식>해장국"),
    ]
    leaves = Vocabulary.build(records).franchise_leaves
    assert {"본스치킨", "꾸브라꼬숯불두마리치킨", "제주은희네해장국"} <= leaves
    assert not leaves & {"칼국수", "삼겹살", "해장국", "국수"}  # food words and inner levels
    again = Vocabulary.from_dict(Vocabulary.build(records).to_dict())
    assert again.franchise_leaves == leaves
