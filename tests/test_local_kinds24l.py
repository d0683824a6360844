"""Issue 24, classes 3 and 5 and the English kind words, as policies (session of 2026-11-28, seventh,
helper kinds24l).

Word-level tests read the message only; card tests ingest hand-written crawl records (the raw crawl's
shape) into a fresh data directory, with the expected cards worked out by hand from the records.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from matjip.nlu.kinds import close_kind_word, detect_kinds
from matjip.nlu.romanized import koreanize_places
from support.chat import FRIDAY_EVENING
from support.records import ask_over
from support.records import card_ids as ids
from support.records import north_of_jamsil as record

# --- class 5: a sound-alike consonant slip in the first syllable of a two-syllable dish word ------------


@pytest.mark.parametrize(("typed", "word"), [("짱뽕", "짬뽕"), ("자장", "짜장")])
def test_a_consonant_slip_in_the_first_syllable_is_read(typed: str, word: str) -> None:
    # 짬 said before 뽕 sounds 짱 (the nasal 받침 alike); 자/짜 plain and tense
    assert close_kind_word(typed) == word


@pytest.mark.parametrize("typed", ["우리", "비자", "대기", "오래"])
def test_an_ordinary_word_is_no_slip_of_a_kind(typed: str) -> None:
    # a vowel (우리/오리) or a key away (대기/대게) never counts in the first syllable; 비자 is a word
    assert close_kind_word(typed) is None


def test_a_first_syllable_typo_finds_the_kind_and_says_it() -> None:
    frame = detect_kinds("잠실 짱뽕")
    assert frame.kinds == ["중국집"] and frame.dishes == ["짬뽕"]
    assert frame.corrections == [("짱뽕", "짬뽕")]  # said: "'짱뽕'은 '짬뽕'으로 알아듣고"


# --- class 3: described foods — the family's own bowls first ---------------------------------------------


def test_hangover_food_puts_the_soup_bowls_before_a_gamjatang_pot(tmp_path: Path) -> None:
    # "잠실역 해장할 데": a 감자탕 house with 300 reviews, a 해장국 house with 40 and a 순대국 house with
    # 30 — a local's 해장 is the bowl of soup; the 감자탕 pot (shared over drinks) comes after
    records = [
        record("pot", "송가네감자탕", "한식>감자탕", 100, ["감자탕", "뼈다귀전골"], reviewCount=300),
        record("bowl", "은희네해장국", "한식>해장국", 200, ["해장국", "내장탕"], reviewCount=40),
        record("sundae", "토종순대국", "한식>순대", 300, ["순대국", "순대국밥"], reviewCount=30),
    ]
    r = ask_over(tmp_path, records, "잠실역 해장할 데", FRIDAY_EVENING)
    assert ids(r)[:2] == ["bowl", "sundae"] and ids(r)[2:] == ["pot"]


def test_boyang_food_puts_the_everyday_seolleongtang_after(tmp_path: Path) -> None:
    # "잠실역 몸보신": a 곰탕 house with 300 reviews, a 삼계탕 house with 40, an 장어 house with 30
    records = [
        record("gomtang", "나주곰탕", "한식>곰탕", 100, ["곰탕", "수육"], reviewCount=300),
        record(
            "samgye", "토속삼계탕", "한식>육류,고기>닭요리", 200, ["삼계탕", "누룽지백숙"], reviewCount=40
        ),
        record("eel", "풍천장어", "한식>해물,생선>장어", 300, ["장어구이", "장어탕"], reviewCount=30),
    ]
    r = ask_over(tmp_path, records, "잠실역 몸보신", FRIDAY_EVENING)
    assert set(ids(r)[:2]) == {"samgye", "eel"} and ids(r)[2:] == ["gomtang"]


# --- English: a kind said only in English is the kind, before place names turn the message Korean ------


def test_bbq_in_an_english_message_is_korean_barbecue() -> None:
    # koreanised first to "bbq 석촌역 근처", the message read "BBQ" as the chicken chain's name
    assert koreanize_places("bbq near seokchon station").startswith("고깃집")
    assert detect_kinds(koreanize_places("best bbq near jamsil station")).kinds == ["고깃집"]
    # "bbq chicken" names the chicken (the chain's or barbecued): left as said
    assert "bbq" in koreanize_places("bbq chicken near jamsil station").lower()
