"""Issue 24, dialogue classes of helper dlg24l (seventh session), each failing on main 07b86e6:

- 2 (English names, dialogue_test13 eh090): "bbq near seokchon station" asks for Korean barbecue.
  Once the romanised place becomes Korean ("bbq 석촌역 근처") the message no longer looks English and
  "bbq" was read as the BBQ chicken chain (an information question about its branch). The word that
  names a kind only in English is now said as its kind before the place names are made Korean; in a
  Korean message ("석촌역 bbq") it stays the chain.
"""

from __future__ import annotations

from matjip.agent.nodes.understand import _classify_input
from matjip.nlu.kinds import detect_kinds


def test_english_bbq_near_a_romanised_station_is_korean_barbecue() -> None:
    text, canned = _classify_input({}, "bbq near seokchon station")
    assert canned is None
    assert "석촌역" in text
    assert detect_kinds(text).kinds == ["고깃집"]


def test_english_bbq_with_a_kind_beside_it_keeps_that_kind() -> None:
    text, _ = _classify_input({}, "bbq chicken near seokchon station")
    assert "고깃집" not in text


def test_korean_message_bbq_stays_the_chain_word() -> None:
    text, _ = _classify_input({}, "석촌역 bbq")
    assert "고깃집" not in text
