"""Menu price text to won (seed 000 §5.1, step 2)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matjip.ingest.price import ParsedPrice, format_won, parse_price


@pytest.mark.parametrize(
    ("text", "value", "is_range"),
    [
        ("20,000원", 20000, False),
        ("8,500원", 8500, False),
        ("17,500원", 17500, False),
        ("1,000,000원", 1000000, False),
        ("0원", 0, False),
        ("15000", 15000, False),
        ("15000원", 15000, False),
        ("20,000 원", 20000, False),
        ("₩12,000", 12000, False),
        ("１２,０００원", 12000, False),  # full-width digits
        ("1만5천원", 15000, False),
        ("1만 5천원", 15000, False),
        ("1.5만원", 15000, False),
        ("3만원", 30000, False),
        ("5천원", 5000, False),
        ("1만 2,000원", 12000, False),
        ("2인 30,000원", 30000, False),
        ("300g 15,000원", 15000, False),
        ("15,000원 (2인)", 15000, False),
        ("", None, False),
        ("   ", None, False),
        ("변동", None, False),
        ("가격변동", None, False),
        ("시가", None, False),
        ("싯가", None, False),
        ("문의", None, False),
        ("전화문의 02-123-4567", None, False),
        ("무료", 0, False),
        ("10,000~15,000원", 10000, True),
        ("10,000원 ~ 15,000원", 10000, True),
        ("10,000-15,000", 10000, True),
        ("8000~12000원", 8000, True),
        ("1~2만원", 10000, True),
        ("1만~1만5천원", 10000, True),
        ("10,000원~", 10000, True),
        ("10,000원부터", 10000, True),
        ("소 15,000 / 대 20,000", 15000, True),
        ("~15,000원", None, True),
    ],
)
def test_parse_price(text: str, value: int | None, is_range: bool) -> None:
    assert parse_price(text) == ParsedPrice(value, is_range)


@pytest.mark.parametrize(
    ("value", "text"), [(0, "0원"), (500, "500원"), (20000, "20,000원"), (1234567, "1,234,567원")]
)
def test_format_won(value: int, text: str) -> None:
    assert format_won(value) == text


@settings(max_examples=200)
@given(st.integers(min_value=0, max_value=10**15) | st.integers(min_value=0))
def test_round_trip(n: int) -> None:
    assert parse_price(format_won(n)) == ParsedPrice(n, False)


@settings(max_examples=200)
@given(st.text(max_size=40))
def test_never_raises_never_negative(text: str) -> None:
    parsed = parse_price(text)
    assert parsed.value is None or parsed.value >= 0


@pytest.mark.parametrize(
    "text", ["9" * 5000, "9" * 5000 + "원", "1" * 5000 + "만원", "1." + "5" * 5000 + "만원"]
)
def test_absurdly_long_numbers_do_not_raise(text: str) -> None:
    assert parse_price(text).value is None


@settings(max_examples=200)
@given(st.text(alphabet="0123456789,.~-/ 만천백원시가₩()인g", max_size=30))
def test_never_raises_on_price_like_text(text: str) -> None:
    parsed = parse_price(text)
    assert parsed.value is None or parsed.value >= 0


@settings(max_examples=100)
@given(st.integers(min_value=0, max_value=10**9), st.integers(min_value=0, max_value=10**9))
def test_range_keeps_the_lower_bound(a: int, b: int) -> None:
    parsed = parse_price(f"{format_won(a)} ~ {format_won(b)}")
    assert parsed == ParsedPrice(min(a, b), True)
