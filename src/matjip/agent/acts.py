"""What a follow-up turn does with the conversation (issue 11), from the phrases of
``data/dialogue.toml``: a reaction (small talk), "다른 데" (next page), "더 가까운 데" (closer),
a search centred on a shown restaurant, a comparison of shown or named restaurants.

The data file documents its format. These are signals over the raw message; the need-search node
combines them with the NLU result and the conversation state into one decision.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from pydantic import BaseModel

from matjip.nlu.models import TravelMode
from matjip.nlu.slots import ordinal_marks
from matjip.nlu.strategy import mode_said
from matjip.wording import say, text
from matjip.words import words

DIALOGUE_FILE = Path(__file__).resolve().parent.parent / "data" / "dialogue.toml"


class Phrases(BaseModel):
    reaction: list[str]
    request: list[str]
    other: list[str]
    other_whole: list[str]
    closer: list[str]
    closer_patterns: list[str]
    relative_near: list[str]
    compare: list[str]
    tastes: list[list[str]]
    require: list[str]
    circumstance: list[str]
    cheaper: list[str]
    drop: list[str]
    criteria: dict[str, list[str]]
    either_words: str
    broader: dict[str, str]
    travel_asks: list[str]
    travel_answer: str
    travel_from_unknown: str
    travel_no_coordinates: str
    travel_from_marks: list[str]
    travel_to_marks: list[str]


@cache
def phrases() -> Phrases:
    raw = tomllib.loads(DIALOGUE_FILE.read_text(encoding="utf-8"))
    return Phrases(
        reaction=raw["reaction"]["markers"],
        request=raw["request"]["markers"],
        other=raw["other"]["phrases"],
        other_whole=raw["other"]["whole"],
        closer=raw["closer"]["phrases"],
        closer_patterns=raw["closer"]["patterns"],
        relative_near=raw["place_relative"]["near"],
        compare=raw["compare"]["markers"],
        drop=raw["drop"]["patterns"],
        tastes=raw["taste"]["words"],
        require=raw["require"]["phrases"],
        circumstance=raw["require"]["circumstance"],
        cheaper=raw["cheaper"]["patterns"],
        criteria=raw["criteria"],
        either_words=raw["either"]["words"],
        broader=raw["either"]["broader"],
        travel_asks=raw["travel"]["asks"],
        travel_answer=raw["travel"]["answer"],
        travel_from_unknown=raw["travel"]["from_unknown"],
        travel_no_coordinates=raw["travel"]["no_coordinates"],
        travel_from_marks=raw["travel"]["from_marks"],
        travel_to_marks=raw["travel"]["to_marks"],
    )


@cache
def _cues() -> dict[str, re.Pattern[str]]:
    """The regexes of ``data/words/turn_cues.toml`` read here (a table's strings joined with ``|``)."""
    return {
        "branch": re.compile("|".join(words("turn_cues", "branch"))),
        "ruled_out_after": re.compile("|".join(words("turn_cues", "ruled_out_after"))),
        "not_asked": re.compile("|".join(words("turn_cues", "not_asked"))),
    }


def _has(text: str, markers: list[str]) -> bool:
    low = text.lower()
    return any(w.lower() in low for w in markers)


def is_reaction(text: str) -> bool:
    """ "오 맛있겠다 ㅋㅋ", "ㅇㅋ 여기 가야지 빠이", "오 괜찮은데?": a reaction with nothing asked."""
    p = phrases()
    asked = _cues()["not_asked"].sub("", text)  # "맛있어 보여" is no "있어?"
    if asks_cheaper(text) or asks_other(text):
        return False  # "너무 비싸다 다른 데", "너무 비싸요 ㅠㅠ": a reaction that asks for other places
    return _has(text, p.reaction) and not _has(asked, p.request) and not _has(text, p.require)


def asks_other(text: str) -> bool:
    """ "다른 데는 없어?", "다음 페이지", "다음": the next results of the same search."""
    whole = re.sub(r"[\s?!.~ㅎㅋ]+", "", text).lower()
    return _has(text, phrases().other) or whole in phrases().other_whole


def asks_closer(text: str) -> bool:
    """ "좀 더 가까운 데", "역이랑 더 가까운 데", "역세권으로": the same search, nearer."""
    return _has(text, phrases().closer) or bool(_closer().search(text))


@cache
def _closer() -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in phrases().closer_patterns))


@cache
def _cheaper() -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in phrases().cheaper))


def asks_cheaper(text: str) -> bool:
    """ "더 싼 데", "가격 좀 낮은데": cheaper than what was shown."""
    return bool(_cheaper().search(text))


def cheaper_words(text: str) -> list[str]:
    """The words of ``text`` that asked for cheaper places ("가격대 낮춰서" → ["가격대 낮"])."""
    return [m.group(0) for m in _cheaper().finditer(text)]


def party_note(size: int) -> str:
    """ "우리 여섯이": the data has no seats, so a party's size is said to be unchecked."""
    return say("understand.notes.party", size=size)


def per_person_note(label: str) -> str:
    """ "1인 2만원": how a budget per person is checked."""
    return say("understand.notes.per_person", label=label)


@cache
def _drop() -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in phrases().drop))


def drops_condition(text: str) -> bool:
    """ "주차 안 돼도 괜찮아", "룸은 없어도 돼": the conditions named in the message are no longer wanted."""
    return bool(_drop().search(text))


@cache
def _circumstance() -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in phrases().circumstance))


def requires(text: str) -> bool:
    """ "룸도 있어야됨", "주차되는 데로", "차도 가져가": a condition the list must meet."""
    return _has(text, phrases().require) or bool(_circumstance().search(text))


def either_of(text: str, conveniences: Sequence[str]) -> list[str]:
    """ "발렛이나 주차 되는 곳": of alternatives where one implies the other, the broader one (parking);
    conveniences not said as alternatives stay as they are."""
    p = phrases()
    if len(conveniences) < 2 or not re.search(p.either_words, text):
        return list(conveniences)
    said = set(conveniences)
    return [c for c in conveniences if p.broader.get(c) not in said]


def asks_compare(text: str) -> bool:
    return _has(text, phrases().compare)


def relative_marker(text: str) -> bool:
    """A nearness word ("근처", "에서 걸어갈") that can follow a shown restaurant."""
    return _has(text, phrases().relative_near)


def branch_words(text: str) -> list[str]:
    """Branch names said without their brand ("방이본점", "석촌호수직영점")."""
    return [m.group(1) for m in _cues()["branch"].finditer(text)]


def tastes_ruled_out(text: str) -> list[str]:
    """ "매운거 말고" → ["매운"]: each taste ruled out, as its first form."""
    out: list[str] = []
    for forms in phrases().tastes:
        for form in sorted(forms, key=len, reverse=True):
            i = text.find(form)
            if i >= 0 and _cues()["ruled_out_after"].match(text[i + len(form) :]):
                out.append(forms[0])
                break
    return out


def asks_travel(text: str) -> bool:
    """ "걸어가면 몇 분?", "차로 얼마나 걸려?": how long it takes to get somewhere."""
    return _has(text, phrases().travel_asks)


def travel_pair(text: str, shown: int) -> tuple[int, int] | None:
    """ "두번째로 간 카페 첫번째 곱창집에서 걸어서 몇분?": the (from, to) indexes of two of the ``shown``
    restaurants a travel question names by ordinal — the one whose words end in "에서"/"부터" is where
    the way starts, else the one ending in "까지" is where it ends; None unless exactly so."""
    marks = ordinal_marks(text)
    if len(marks) != 2:
        return None
    at = [shown - 1 if value == -1 else value - 1 for value, _ in marks]
    if at[0] == at[1] or not all(0 <= i < shown for i in at):
        return None
    ends = [marks[1][1][0], len(text)]
    heads = [_ordinal_head(text[span[1] : end]) for (_, span), end in zip(marks, ends, strict=True)]
    p = phrases()
    starts = [k for k in (0, 1) if any(w.endswith(tuple(p.travel_from_marks)) for w in heads[k])]
    if len(starts) != 1:
        starts = [1 - k for k in (0, 1) if any(w.endswith(tuple(p.travel_to_marks)) for w in heads[k])]
    if len(starts) != 1:
        return None
    return at[starts[0]], at[1 - starts[0]]


def _ordinal_head(after: str) -> list[str]:
    """The words an ordinal's phrase ends on: the rest of its word and, when that is short, the next
    ("째 곱창 집에서" → the kind word and its particle)."""
    words = [w.strip("?!.,~") for w in after.split()]
    if not words:
        return []
    return words[:2] if len(words[0]) <= 3 and len(words) > 1 else words[:1]


def travel_mode(text: str) -> TravelMode:
    """The travel mode a message names first (strategies.toml's mode words); on foot when none."""
    return mode_said(text) or "walk"


def compare_criteria() -> dict[str, list[str]]:
    """Criterion name → the words that ask for it, in the data file's order."""
    return phrases().criteria


def compare_criterion(text: str, names: Sequence[str] = ()) -> str:
    """By what a comparison is asked ("어디가 더 늦게까지 해?" → hours): the first criterion whose
    words ``text`` says outside the restaurant ``names`` it compares ("비싼곱창이랑 … 영업시간" is by
    hours); taste when none."""
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ").replace(name.replace(" ", ""), " ")
    return next((c for c, said in compare_criteria().items() if any(w in text for w in said)), "taste")


def where_question() -> str:
    """Asked when a search names no place and no position was sent."""
    return text("understand.ask.where")
