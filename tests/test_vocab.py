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
