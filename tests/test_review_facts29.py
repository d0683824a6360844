"""Issue 24 class 7, session 9 (rev29): misses of review_test15 and review_test16 (development sets since their first
runs), written out as classes of phrasing. None of these sentences is in a labelled set; the expected values are read
off the sentences by the conventions of review_set.md and the newest READMEs (a drink had at the table is 술자리, other
guests' drinking is not; a hedged booking is no booking; staff grilling meat is 구워줌, the kitchen's cooking is not);
each class has controls the reader must keep."""

from __future__ import annotations

import pytest

from support.reviews import read


@pytest.mark.parametrize(
    "text",
    [
        "칵테일도 너무 맛있고 파스타도 좋아요",
        "수제 맥주가 튀김이랑 잘 어울려요",
        "막걸리 두 병 시켜서 전이랑 먹었어요",
        "하우스 와인 종류가 꽤 다양해요",
        "사케 한 잔 곁들여서 먹으니 최고",
        "기본 안주로 과자가 나와요",
    ],
)
def test_a_drink_had_at_the_table_is_a_drinking_session(text: str) -> None:
    assert "술자리" in read(text).occasion, (text, read(text).occasion)


@pytest.mark.parametrize(
    "text",
    [
        "친구는 술도 안마셨는데 금방 취한 기분",
        "전날 술을 많이 마셔서 해장하러 왔어요",
        "저녁엔 맥주랑 치킨 드시는 분들이 많아요",
        "맥주만 시키려면 다른 데 가라네요",
        "소주 5,000원 맥주 6,000원",
        "와인 들고 가면 콜키지 무료예요",
    ],
)
def test_no_drink_of_the_guests_own_is_no_drinking_session(text: str) -> None:
    assert "술자리" not in read(text).occasion, (text, read(text).occasion)
