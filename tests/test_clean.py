"""HTML and whitespace clean-up of crawled text."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matjip.ingest.clean import clean_title, normalize_space, strip_html


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("<b>농민</b>백암순대 본점", "농민백암순대 본점"),
        ("농민<b>백암순대</b>", "농민백암순대"),
        ("A &amp; B", "A & B"),
        ("&lt;맛집&gt;", "<맛집>"),  # not a tag: a Korean name in angle brackets
        ("<맛집> 이름", "<맛집> 이름"),
        ("Tom&#39;s Kitchen", "Tom's Kitchen"),
        ("&quot;정통&quot; 평양냉면", '"정통" 평양냉면'),
        ("카페&amp;amp;베이커리", "카페&베이커리"),  # double-escaped
        ("&lt;b&gt;강남&lt;/b&gt;역", "강남역"),  # escaped markup is markup too
        ('<a href="x">링크</a>', "링크"),
        ("첫 줄<br>둘째 줄", "첫 줄 둘째 줄"),
        ("<!-- 주석 -->본문", "본문"),
        ("3 < 5 > 2", "3 < 5 > 2"),
        ("", ""),
    ],
)
def test_strip_html(text: str, expected: str) -> None:
    assert strip_html(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("  우드   멜로우  ", "우드 멜로우"),
        ("우드\u00a0멜로우", "우드 멜로우"),  # NBSP
        ("우드\u3000멜로우", "우드 멜로우"),  # ideographic space
        ("우드\t\n\r멜로우", "우드 멜로우"),
        ("우드\u200b멜로우", "우드멜로우"),  # zero-width space joins
        ("\ufeff우드멜로우", "우드멜로우"),  # BOM
        ("👨\u200d👩\u200d👧", "👨\u200d👩\u200d👧"),  # ZWJ emoji sequence kept
        ("", ""),
        (" \u00a0 ", ""),
    ],
)
def test_normalize_space(text: str, expected: str) -> None:
    assert normalize_space(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("  <b>농민</b>백암순대&nbsp;본점 ", "농민백암순대 본점"),
        ("<b\u200b>강남</b>", "강남"),
        ("&lt;b&#8203;&gt;강남", "강남"),
        ("우드멜로우", "우드멜로우"),
    ],
)
def test_clean_title(text: str, expected: str) -> None:
    assert clean_title(text) == expected


_HTMLISH = st.text(
    alphabet=st.sampled_from(list("<>/b &;#39ampltgquo한글 \u00a0\u200b\t\n!-")) | st.characters(),
    max_size=60,
)
_TAG_LIKE = re.compile(r"</?[A-Za-z][A-Za-z0-9:-]*(?:\s[^<>]*)?/?>")


@settings(max_examples=200)
@given(_HTMLISH)
def test_strip_html_idempotent_and_tag_free(text: str) -> None:
    once = strip_html(text)
    assert strip_html(once) == once
    assert _TAG_LIKE.search(once) is None
    assert "<b>" not in once and "</b>" not in once


@settings(max_examples=200)
@given(_HTMLISH)
def test_normalize_space_idempotent(text: str) -> None:
    once = normalize_space(text)
    assert normalize_space(once) == once
    assert once == once.strip()
    assert "  " not in once and "\u00a0" not in once and "\u200b" not in once


@settings(max_examples=200)
@given(_HTMLISH)
def test_clean_title_idempotent(text: str) -> None:
    once = clean_title(text)
    assert clean_title(once) == once
    assert _TAG_LIKE.search(once) is None
    assert normalize_space(once) == once
