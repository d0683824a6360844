"""One reading of the turn's message: the :class:`Understanding` the understand step builds once.

The message is read in passes over a small :class:`Scan` of it:

* the NLU result (:mod:`matjip.nlu`: intent, entities, slots, strategy) — by the understand node;
* the kinds it names (:func:`matjip.nlu.kinds.detect_kinds`);
* its dialogue acts (:class:`Acts`: a reaction, "다른 데", "더 가까운 데", a comparison … —
  :mod:`matjip.agent.acts`, phrases of ``data/dialogue.toml``);
* its cues (:class:`Cues`: "거기", a question, "그 중", a food word … — regular expressions of
  ``data/words/turn_cues.toml``).

The result is kept in the turn's state (``state["understanding"]``); the nodes after the
understand step read it and never the raw message for kinds or acts again. ``state["nlu"]`` holds
the same NLU result (``Understanding.nlu``) for readers that need nothing else.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache

from pydantic import BaseModel, ConfigDict, Field

from matjip.agent import acts
from matjip.kinds import kinds, norm
from matjip.nlu.kinds import KindFrame, detect_kinds
from matjip.nlu.models import NLUResult, StrategySpec, TimeSpec, TravelMode
from matjip.nlu.slots import parse_ordinals
from matjip.nlu.terms import CONVENIENCE
from matjip.words import words


def either(alternatives: tuple[str, ...]) -> re.Pattern[str]:
    """One regex of a word file's table: its strings joined with ``|`` in file order."""
    return re.compile("|".join(alternatives))


@dataclass(frozen=True)
class CuePatterns:
    """The compiled tables of ``data/words/turn_cues.toml``."""

    hangul: re.Pattern[str]
    latin: re.Pattern[str]
    address_word: re.Pattern[str]
    pronoun: re.Pattern[str]
    near_that: re.Pattern[str]
    that_kind: re.Pattern[str]
    question: re.Pattern[str]
    among: re.Pattern[str]
    generic_food: re.Pattern[str]
    sells: re.Pattern[str]
    rules_out: re.Pattern[str]
    food_place: re.Pattern[str]
    earlier: re.Pattern[str]
    joins: re.Pattern[str]
    menu_word: re.Pattern[str]
    now: re.Pattern[str]  # data/words/search.toml: the planner's cues
    names_no_food: re.Pattern[str]
    no_break: re.Pattern[str]
    wants_places: re.Pattern[str]
    group_seats: re.Pattern[str]
    meal: re.Pattern[str]
    meal_day: re.Pattern[str]
    meal_open: re.Pattern[str]
    chain_kind_out: re.Pattern[str]
    compared_with: re.Pattern[str]
    compares_count: re.Pattern[str]
    seats: re.Pattern[str]
    had_already: re.Pattern[str]
    convenience_ease: re.Pattern[str]
    open_said: re.Pattern[str]
    superlative_among: re.Pattern[str]
    all_shown: re.Pattern[str]
    condition_out: re.Pattern[str]
    situation_after: re.Pattern[str]
    landmark_after: re.Pattern[str]
    latin_situation: re.Pattern[str]


@cache
def cue_patterns() -> CuePatterns:
    return CuePatterns(
        hangul=either(words("turn_cues", "hangul")),
        latin=either(words("turn_cues", "latin")),
        address_word=either(words("turn_cues", "address_word")),
        pronoun=either(words("turn_cues", "pronoun")),
        near_that=either(words("turn_cues", "near_that")),
        that_kind=either(words("turn_cues", "that_kind")),
        question=either(words("turn_cues", "question")),
        among=either(words("turn_cues", "among")),
        generic_food=either(words("turn_cues", "generic_food")),
        sells=either(words("turn_cues", "sells")),
        rules_out=either(words("turn_cues", "rules_out")),
        food_place=either(words("turn_cues", "food_place")),
        earlier=either(words("turn_cues", "earlier")),
        joins=either(words("turn_cues", "and")),
        menu_word=either(words("turn_cues", "menu_word")),
        now=either(words("search", "now")),
        names_no_food=either(words("search", "generic")),
        no_break=either(words("search", "no_break")),
        wants_places=either(words("turn_cues", "wants_places")),
        group_seats=either(words("turn_cues", "group_seats")),
        meal=either(words("turn_cues", "meal")),
        meal_day=either(words("turn_cues", "meal_day")),
        meal_open=either(words("turn_cues", "meal_open")),
        chain_kind_out=either(words("turn_cues", "chain_kind_out")),
        compared_with=either(words("turn_cues", "compared_with")),
        compares_count=either(words("turn_cues", "compares_count")),
        seats=either(words("turn_cues", "seats")),
        had_already=either(words("turn_cues", "had_already")),
        convenience_ease=either(words("turn_cues", "convenience_ease")),
        open_said=either(words("turn_cues", "open_said")),
        superlative_among=either(words("turn_cues", "superlative_among")),
        all_shown=either(words("turn_cues", "all_shown")),
        condition_out=either(words("turn_cues", "condition_out")),
        situation_after=either(words("turn_cues", "situation_after")),
        landmark_after=either(words("turn_cues", "landmark_after")),
        latin_situation=either(words("turn_cues", "latin_situation")),
    )


@dataclass(frozen=True)
class Scan:
    """The message as the passes read it."""

    text: str


class Acts(BaseModel):
    """What the message does in the conversation (:mod:`matjip.agent.acts`)."""

    model_config = ConfigDict(frozen=True)

    reaction: bool = False  # "오 맛있겠다 ㅋㅋ": nothing asked
    other: bool = False  # "다른 데는 없어?": the next results
    closer: bool = False  # "좀 더 가까운 데"
    cheaper: bool = False  # "더 싼 데"
    cheaper_words: list[str] = []  # the words that asked for cheaper places
    requires: bool = False  # "룸도 있어야됨": a condition the list must meet
    drops: bool = False  # "주차 안 돼도 괜찮아": conditions no longer wanted
    compare: bool = False  # "1번이랑 3번 비교", "어디가 나아"
    relative: bool = False  # "2번 근처에": a nearness word after a shown restaurant
    travel: bool = False  # "걸어가면 몇 분?"
    travel_mode: TravelMode = "walk"  # the travel mode named first
    branches: list[str] = []  # "방이본점": branch names said without their brand
    tastes_ruled_out: list[str] = []  # "매운거 말고" → ["매운"]
    criterion: str = "taste"  # by what a comparison is asked ("어디가 더 싸?" → price)


def read_acts(scan: Scan) -> Acts:
    t = scan.text
    return Acts(
        reaction=acts.is_reaction(t),
        other=acts.asks_other(t),
        closer=acts.asks_closer(t),
        cheaper=acts.asks_cheaper(t),
        cheaper_words=acts.cheaper_words(t),
        requires=acts.requires(t),
        drops=acts.drops_condition(t),
        compare=acts.asks_compare(t),
        relative=acts.relative_marker(t),
        travel=acts.asks_travel(t),
        travel_mode=acts.travel_mode(t),
        branches=acts.branch_words(t),
        tastes_ruled_out=acts.tastes_ruled_out(t),
        criterion=acts.compare_criterion(t),
    )


class Cues(BaseModel):
    """Signals of single words and patterns (``data/words/turn_cues.toml``)."""

    model_config = ConfigDict(frozen=True)

    pronoun: bool = False  # "거기", "그 집", "여기" (not "여기 근처")
    near_that: bool = False  # "그 근처"
    that_kind: str | None = None  # "그 족발집": the word after "그"
    question: bool = False  # "팔아요?", "가능"
    among: bool = False  # "그 중에"
    generic_food: bool = False  # "맛집", "먹을 데"
    sells: bool = False  # "어디서 팔아"
    rules_out: bool = False  # "말고", "빼고"
    two: bool = False  # "둘": the first two of a list
    food_places: list[tuple[str, str]] = []  # "조지아음식" → ("조지아", "조지아음식")
    menu_words: list[str] = []  # words that may name a line of a menu
    earlier: bool = False  # "아까": an earlier list
    compare_parts: list[tuple[int, bool]] = []  # per part with an ordinal: (first ordinal, said "아까")
    now: bool = (
        False  # "지금 근처에 해장국", "지금 여기 근처 문 연 데": wanted now (not "지금 여기 근처": a place)
    )
    names_no_food: bool = False  # "맛집", "아무거나": a follow-up saying it starts a new topic
    no_break: bool = False  # "브레이크타임 없는"
    wants_places: bool = False  # "일요일에 하는 데": places asked for, not one asked about
    group_seats: bool = False  # "12명 회식 가능한": a place that can seat a group
    seats: bool = False  # "자리 몇 개야?": seats asked about (the data holds none)
    over_shown: bool = False  # "그중에 제일 싼 데 어디야", "세 곳 다 일요일 영업해?": the list shown compared


def _compare_parts(text: str, p: CuePatterns) -> list[tuple[int, bool]]:
    """ "아까 첫번째랑 지금 첫번째": each part's first ordinal and whether it said "아까"."""
    out: list[tuple[int, bool]] = []
    for part in p.joins.split(text):
        values, _ = parse_ordinals(part)
        if values:
            out.append((values[0], p.earlier.search(part) is not None))
    return out


def _menu_words(text: str, p: CuePatterns) -> list[str]:
    said = p.menu_word.findall(text)
    # "로스가츠는": the word without its particle too
    said += [w[:-1] for w in said if len(w) > 2 and w[-1] in "은는이가을를도만요"]
    return said


def _over_shown(text: str, p: CuePatterns) -> bool:
    if p.superlative_among.search(text):
        return True
    return p.all_shown.search(text) is not None and p.question.search(text) is not None


def read_cues(scan: Scan) -> Cues:
    t, p = scan.text, cue_patterns()
    that = p.that_kind.search(t)
    earlier = p.earlier.search(t) is not None
    return Cues(
        pronoun=p.pronoun.search(t) is not None,
        near_that=p.near_that.search(t) is not None,
        that_kind=that.group(1) if that else None,
        question=p.question.search(t) is not None,
        among=p.among.search(t) is not None,
        generic_food=p.generic_food.search(t) is not None,
        sells=p.sells.search(t) is not None,
        rules_out=p.rules_out.search(t) is not None,
        two="둘" in t,
        food_places=[(m.group(1), m.group(0).strip()) for m in p.food_place.finditer(t)],
        menu_words=_menu_words(t, p),
        earlier=earlier,
        compare_parts=_compare_parts(t, p) if earlier else [],
        now=p.now.search(t) is not None or p.open_said.search(t) is not None,
        names_no_food=p.names_no_food.search(t) is not None,
        no_break=p.no_break.search(t) is not None,
        wants_places=p.wants_places.search(t) is not None,
        group_seats=p.group_seats.search(t) is not None,
        seats=p.seats.search(t) is not None,
        over_shown=_over_shown(t, p),
    )


class Understanding(BaseModel):
    """The turn's message understood once: its NLU result, kinds, dialogue acts and cues."""

    model_config = ConfigDict(frozen=True)

    text: str  # the message as understood (a resumed question's, when a clarification was answered)
    nlu: NLUResult = Field(default_factory=NLUResult)
    kinds: KindFrame = Field(default_factory=KindFrame)
    acts: Acts = Field(default_factory=Acts)
    cues: Cues = Field(default_factory=Cues)
    meal: str | None = None  # "점심 먹을 데": the meal said alone (not a time the place must be open)
    meal_time: TimeSpec | None = None  # its part of the day: places open then are preferred, none ruled out

    @property
    def strategy(self) -> StrategySpec:
        return self.nlu.strategy

    def with_nlu(self, nlu: NLUResult) -> Understanding:
        """The same reading with another NLU result (an LLM's, or a comparison's)."""
        nlu, meal, meal_time = meal_read(self.text, nlu)
        if meal is None:
            return self.model_copy(update={"nlu": nlu})
        return self.model_copy(update={"nlu": nlu, "meal": meal, "meal_time": meal_time})


def meal_read(text: str, nlu: NLUResult) -> tuple[NLUResult, str | None, TimeSpec | None]:
    """A meal said alone ("점심 먹을 데", "역삼역 점심 국밥", "오늘 저녁 치킨 땡긴다") is what is eaten, not
    a time the place must be open: the NLU's time is dropped and the meal kept. So is a meal on a day
    named ("토요일 점심에 갈 칼국수", "내일 점심에"): the part of the day returned keeps its day (that
    day's hours are shown, places open at the meal that day come first), said as hours or not ("일요일
    점심에 여는": a meal is a span, no 11:30 slot — the blind sets since test17 read it so). A meal with
    "지금", a clock time, or said as the hours wanted with no day ("점심에 여는", "저녁 영업") stays a
    time. Returns the NLU result, the meal and the part of the day it dropped."""
    t, p = nlu.time, cue_patterns()
    if t is None or t.kind != "range":
        return nlu, None, None
    dated = t.weekday is not None or bool(t.day_offset)
    m = (p.meal_day if dated else p.meal).search(t.label.strip())
    if m is None or (not dated and p.meal_open.search(text)):
        return nlu, None, None
    return nlu.model_copy(update={"time": None}), m.group(1), t


def chains_of_a_kind(text: str, nlu: NLUResult, frame: KindFrame) -> tuple[NLUResult, KindFrame]:
    """ "프차 카페는 빼줘", "체인 치킨집은 말고": the chains of that kind are ruled out, not the kind itself
    (the list keeps its cafés, without the chains)."""
    m = cue_patterns().chain_kind_out.search(text)
    if m is None or not m.group(1):
        return nlu, frame
    word = m.group(1)
    table = kinds()
    got = table.lookup(norm(word))
    kind = got[0] if got else None
    cuisine = table.by_name[kind].cuisine if kind in table.by_name else None
    ex = nlu.exclude
    exclude = ex.model_copy(
        update={
            "menu": [w for w in ex.menu if w not in word],
            "category": [c for c in ex.category if c != cuisine and c not in word],
        }
    )
    frame = replace(
        frame,
        exclude_kinds=[k for k in frame.exclude_kinds if k != kind and k not in word],
        exclude_words=[w for w in frame.exclude_words if w not in word],
        exclude_chains=True,
    )
    unknown = [t for t in nlu.unknown_terms if t not in m.group(0)]  # "프차" is said, not unknown
    return nlu.model_copy(update={"exclude": exclude, "unknown_terms": unknown}), frame


def brands_as_examples(text: str, nlu: NLUResult, frame: KindFrame) -> NLUResult:
    """ "교촌 bhc 이런 데 말고 동네 치킨집", "스타벅스나 투썸 같은 체인 빼고": brands named as examples of
    what is ruled out are no comparison of them — a search without chains (or without those brands)."""
    titles = nlu.entities.title
    if nlu.ordinals or not titles or not (frame.exclude_chains or frame.exclude_brands):
        return nlu
    out = [norm(b) for b in frame.exclude_brands]
    only_out = all(any(b in norm(t) for b in out) for t in titles)  # "스타벅스나 이디야 같은 체인점은 제외"
    if not (
        (nlu.intent == "compare" and len(titles) >= 2)
        or (nlu.intent in ("information", "search") and only_out)
    ):
        return nlu
    if acts.asks_compare(text):
        return nlu
    entities = nlu.entities.model_copy(update={"title": []})
    return nlu.model_copy(update={"intent": "search", "entities": entities, "asks": []})


def convenience_ease(text: str, nlu: NLUResult) -> NLUResult:
    """ "주차 편한 고깃집", "예약 편리한 횟집": the ease word after a convenience is no condition of its
    own (never "'편하'는 데이터로 확인할 수 없어서 빼고 찾았어요")."""
    said = [m.group(1) for m in cue_patterns().convenience_ease.finditer(text)]
    if not said or not nlu.unknown_terms:
        return nlu
    unknown = [t for t in nlu.unknown_terms if not any(t and w[0] == t[0] for w in said)]
    return nlu.model_copy(update={"unknown_terms": unknown})


def conveniences_ruled_out(text: str, nlu: NLUResult) -> NLUResult:
    """ "치킨 시켜먹지 말고 가서 먹을 데", "배달은 말고", "룸은 빼고": a convenience said only right before a
    rule-out word is not asked (never "'배달' 정보가 있는 곳이 없어서 …")."""
    said = nlu.entities.convenience
    out = cue_patterns().condition_out
    lowered = text.lower()

    def ruled_out(name: str) -> bool:
        found = [m for rx in CONVENIENCE.get(name, ()) for m in re.finditer(rx, lowered)]
        return bool(found) and all(out.match(lowered[m.end() :]) for m in found)

    kept = [c for c in said if not ruled_out(c)]
    if kept == said:
        return nlu
    return nlu.model_copy(update={"entities": nlu.entities.model_copy(update={"convenience": kept})})


def _situation(text: str, term: str, p: CuePatterns) -> bool:
    """Does ``term`` stand in ``text`` only as the asker's situation: the clause goes on about the
    asker right after it ("야근 이제 끝남", "동창들 9명이서", "SRT 타기 전에"), or an English word of
    when or how sure ("still")? A word also said otherwise, or a form the message does not hold as
    written (an adjective's stem: "편하" of "편한"), is not."""
    if term.isascii() and p.latin_situation.match(term.lower()):
        return True
    whole = p.landmark_after.match(term)
    if whole is not None and whole.end() == len(term):  # "먹자골목", "마을" of "벽화마을": a place noun
        return True
    at = [m.end() for m in re.finditer(re.escape(term), text)]
    # "문래동 철공소 골목 술집": a word naming a place or landmark (a place noun right after it)
    return bool(at) and all(p.situation_after.match(text[e:]) or p.landmark_after.match(text[e:]) for e in at)


def situation_words(text: str, nlu: NLUResult) -> NLUResult:
    """ "야근 이제 끝남ㅠ", "동창들 9명이서", "SRT 타기 전에", "is it still open": words nobody understood
    that say the asker's situation, not what the place should have, are no condition — never
    reported as dropped (issue 24 class 11). Any other word ("테라스 있는", "보르쉬") stays a condition
    the data cannot check, and is said."""
    if not nlu.unknown_terms:
        return nlu
    p = cue_patterns()
    # a dong the addresses may name ("노형동 흑돼지"), a food said as a kind ("조지아음식"): read later
    foods = [m.group(1) for m in p.food_place.finditer(text)]
    kept = [
        t
        for t in nlu.unknown_terms
        if p.address_word.fullmatch(t)
        or any(f.startswith(t) or t.startswith(f) for f in foods)
        or not _situation(text, t, p)
    ]
    if kept == nlu.unknown_terms:
        return nlu
    return nlu.model_copy(update={"unknown_terms": kept})


def had_already(text: str, nlu: NLUResult, frame: KindFrame) -> tuple[NLUResult, KindFrame]:
    """ "회는 어제 먹어서.. 매운탕 하는 데는?", "피자는 질려서 파스타로": the food eaten already is not asked
    for (a place that also serves it is not ruled out)."""
    m = cue_patterns().had_already.search(text)
    if m is None:
        return nlu, frame
    word = m.group(1)
    got = kinds().lookup(norm(word))
    kind = got[0] if got else None
    if kind is None or kind not in frame.kinds:
        return nlu, frame
    frame = replace(
        frame, kinds=[k for k in frame.kinds if k != kind], words=[w for w in frame.words if w != word]
    )
    ents = nlu.entities
    update = {"menu": [w for w in ents.menu if w != word], "category": list(ents.category)}
    said = m.group(0)
    unknown = [t for t in nlu.unknown_terms if t not in said]  # "어제" is the reason, not a condition
    nlu = nlu.model_copy(update={"entities": ents.model_copy(update=update), "unknown_terms": unknown})
    return nlu, frame


def landmark_food(text: str, nlu: NLUResult, frame: KindFrame) -> KindFrame:
    """ "천호 쭈꾸미골목 근처 아구찜": a food word inside the name of the place said (a food alley, a
    market) is no kind asked when another kind is asked outside it."""
    rest = text
    for name in nlu.entities.location:
        rest = rest.replace(name, " ")
    if rest == text or len(frame.kinds) < 2:
        return frame
    outside = detect_kinds(rest)
    kept = [k for k in frame.kinds if k in outside.kinds]
    if not kept or len(kept) == len(frame.kinds):
        return frame
    return replace(frame, kinds=kept, dishes=[d for d in frame.dishes if d in outside.dishes])


def kinds_beside_titles(text: str, nlu: NLUResult) -> KindFrame:
    """The kinds of ``text``; a restaurant's name asked about is no typo of a kind's word ("로뎅바랑
    당산옛날곱창 중에" is no 오뎅바): in a comparison or a question about places named, when a
    correction falls inside a name, the kinds are read beside the names."""
    frame = detect_kinds(text)
    titles = nlu.entities.title
    if not frame.corrections or not titles or not (nlu.intent == "compare" or nlu.ask):
        return frame  # "합정 파스따" (nothing asked of a place) is a search for 파스타, a brand 파스따 aside
    inside = " ".join(titles)
    if not any(typo in inside for typo, _ in frame.corrections):
        return frame
    return detect_kinds(without_names(text, titles))


def without_names(text: str, names: list[str]) -> str:
    """``text`` with every word of the restaurant ``names`` blanked ("큰집보쌈왕코다리 천호본점 거기" → "  거기")."""
    for name in names:
        for word in name.split():
            text = text.replace(word, " ")
    return text


def read_message(text: str, nlu: NLUResult | None = None) -> Understanding:
    """The passes over ``text`` (the NLU result is the understand node's, added with it)."""
    scan = Scan(text)
    nlu, meal, meal_time = meal_read(text, nlu or NLUResult())
    nlu, kind_frame = chains_of_a_kind(text, nlu, kinds_beside_titles(text, nlu))
    nlu, kind_frame = had_already(text, nlu, kind_frame)
    kind_frame = landmark_food(text, nlu, kind_frame)
    nlu = brands_as_examples(text, nlu, kind_frame)
    nlu = convenience_ease(text, nlu)
    nlu = conveniences_ruled_out(text, nlu)
    nlu = situation_words(text, nlu)
    either = acts.either_of(text, nlu.entities.convenience)
    if either != nlu.entities.convenience:  # "발렛이나 주차": parking
        nlu = nlu.model_copy(update={"entities": nlu.entities.model_copy(update={"convenience": either})})
    return Understanding(
        text=text,
        nlu=nlu,
        meal=meal,
        meal_time=meal_time,
        kinds=kind_frame,
        acts=read_acts(scan),
        cues=read_cues(scan),
    )


def understanding_of(state: Mapping[str, object]) -> Understanding:
    """The turn's understanding; for a state the understand step did not see (a node run on its
    own), the message read now."""
    got = state.get("understanding")
    if isinstance(got, Understanding):
        return got
    nlu = state.get("nlu")
    return read_message(str(state.get("query") or ""), nlu if isinstance(nlu, NLUResult) else None)


def kinds_said(state: Mapping[str, object]) -> KindFrame:
    """The kinds the turn's message names."""
    got = state.get("understanding")
    return got.kinds if isinstance(got, Understanding) else detect_kinds(str(state.get("query") or ""))
