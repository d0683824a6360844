"""Issue 24, classes 5, 6, 10 and 12 as policies (session of 2026-11-28, sixth, helper kinds24i).

Word-level tests read the message only; card tests ingest hand-written crawl records (the raw crawl's
shape) into a fresh data directory, with the expected cards worked out by hand from the records.
"""

from __future__ import annotations

import pytest

from matjip.nlu.kinds import close_kind_word, detect_kinds

# --- class 5: a word form of the sentence is never "corrected" into a kind -------------------------------


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        # a verb's stem with its ending: 타기 (to ride) is no 타이, 오기 no 오리, 사게 no 사케
        ("잠실역에서 버스 타기 좋은 맛집", []),
        ("애들 데리고 오기 편한 국밥집", ["국밥·순대국"]),
        ("포장해서 사게 치킨집 알려줘", ["치킨집"]),
        ("좀 짜도 괜찮으니까 라멘", ["라멘"]),
    ],
)
def test_a_word_form_is_not_taken_as_a_kind_typo(text: str, kinds: list[str]) -> None:
    frame = detect_kinds(text)
    assert frame.kinds == kinds
    assert frame.corrections == []


@pytest.mark.parametrize(
    ("typed", "word"),
    [("찌게", "찌개"), ("라맨", "라멘"), ("곱참", "곱창"), ("족팔", "족발"), ("국빱", "국밥")],
)
def test_two_syllable_typos_of_kind_words_are_still_read(typed: str, word: str) -> None:
    # a vowel said alike in the last syllable, or a slip in a syllable that is no ending
    assert close_kind_word(typed) == word
