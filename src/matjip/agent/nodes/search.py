"""The plan and search nodes (docs/design.md): the offline planner reads a message into a raw
plan (validated by :mod:`matjip.agent.plan`), the duplicate check reuses a verbatim repeat, the
search nodes run the retrieval package (:mod:`matjip.agent.retrieval`) over the validated plan,
and relaxation takes one step at a time."""

from __future__ import annotations

import re
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Final

from matjip.agent.acts import party_note, per_person_note
from matjip.agent.cardinfo import sharers
from matjip.agent.configuration import Resources
from matjip.agent.models import LocationContext, SearchPlan
from matjip.agent.nodes.common import emit, hit_record, state_plan, turn_now
from matjip.agent.nodes.strategies import (
    live_nearby,
    search_abroad,
    search_course,
    search_route,
    search_travel,
    seed_plan_fields,
)
from matjip.agent.plan import children_out, to_requests, validate_plan, wish_words
from matjip.agent.retrieval import gaps, rank, topup, widen
from matjip.agent.retrieval.fetch import Found, fetch
from matjip.agent.retrieval.filters import cheaper_fill, cheaper_fill_note, typical_price
from matjip.agent.state import AgentState, CompareGroup, HitRecord, SearchRecord
from matjip.agent.understanding import Understanding, kinds_said, understanding_of
from matjip.index.request import SearchHit
from matjip.kinds import kinds, norm, said_as
from matjip.nlu.kinds import KindFrame, detect_kinds
from matjip.nlu.models import NLUResult, TimeSpec
from matjip.nlu.strategy import activity_before, is_strategy_word
from matjip.text.josa import josa
from matjip.wording import say, text
from matjip.words import pattern_map, words

EARLY_MORNING_END_H = 6  # a small-hours time asked with no day, once past, is the coming night
LATE_HOURS = timedelta(hours=6)  # a late-night wish's hour ("심야" 23:30) and this long after it: now
_REPLACED_AFTER: Final = "(?:" + "|".join(words("search", "replaced_after")) + ")"  # "주차말고", "주차 대신"
# what an LLM plan has no field for is the offline reading of the same message
_OFFLINE_ONLY: Final = words("plan", "offline_only")
_TODAY: Final = re.compile("|".join(words("search", "today")))  # "오늘 갈", "이따": the visit is today
_MEAL: Final = re.compile("|".join(words("search", "meal_said")))  # "맛집", "점심": a meal asked
_WITH_CHILDREN: Final = words("search", "with_children")[0]  # the occasion a party with children asks
GROUP_SEATS: Final = words("search", "group_seats")[0]  # the convenience a party that must be seated asks
_UNKNOWABLE: Final = pattern_map("search", "unknowable")  # conditions the data cannot check ("유모차")
_NO_BREAK_WORDS: Final = words("search", "no_break_words")  # read by the no-break cue


def _open_at(
    time_spec: TimeSpec | None, now: datetime
) -> tuple[datetime | None, datetime | None, str | None]:
    """(from, until, label) of the time the person wants a place open, in the turn's time zone.

    A clock time is one instant; a part of the day ("점심", "저녁", "새벽") is a window; a day with
    no time ("토요일에 여는", "내일") is the whole day. ``day_offset`` (내일, 모레) and a weekday move
    the day; a weekday is the next such day (today when it is today).
    """
    if time_spec is None:
        return None, None, None
    label = time_spec.label
    if time_spec.kind == "now":
        return now, None, label or text("search.time.now")
    day = now
    if time_spec.day_offset:
        day = now + timedelta(days=int(time_spec.day_offset))
    if time_spec.weekday is not None:
        day = day + timedelta(days=(int(time_spec.weekday) - day.weekday()) % 7)
    midnight = day.replace(hour=0, minute=0, second=0, microsecond=0)
    no_day = time_spec.day_offset is None and time_spec.weekday is None
    if time_spec.start_minute is not None and time_spec.end_minute is not None:
        start = midnight + timedelta(minutes=int(time_spec.start_minute))
        end = midnight + timedelta(minutes=int(time_spec.end_minute))
        if end < start:
            end += timedelta(days=1)
        if no_day and end <= now and start.hour < EARLY_MORNING_END_H:
            start, end = start + timedelta(days=1), end + timedelta(days=1)  # "새벽" asked at night
        return _from_now(start, end, now), end, label
    if time_spec.minute is not None:
        at = midnight + timedelta(minutes=int(time_spec.minute))
        if time_spec.late and no_day:
            # "늦게까지" asked when the late hours have come (23:50, 01:00): from now — a place closing at
            # midnight is flagged and ranked after the open ones, as going now; asked before them, the
            # coming night's (the small hours of today: "새벽까지" at 00:30 is 01:00 today)
            for night in (at - timedelta(days=1), at):
                if night <= now < night + LATE_HOURS:
                    return now, None, label
                if now < night:
                    return night, None, label
        if no_day and at < now and at.hour < EARLY_MORNING_END_H:
            at += timedelta(days=1)  # "새벽 1시" asked in the evening: tonight, not this morning
        return at, None, label
    if day.date() == now.date():  # "오늘" with no time: from now to the end of the day
        return now, midnight + timedelta(hours=23, minutes=59), label
    return midnight + timedelta(hours=6), midnight + timedelta(hours=23, minutes=59), label


def _from_now(start: datetime, end: datetime, now: datetime) -> datetime:
    """A part of the day already under way when asked ("금욜 밤에" on Friday at 22:40, "아침" at 09:30):
    what is left of it, from now — a place that closed at 22:00 is no "금욜 밤 영업" at 22:40 (audit r14
    F3). The one rule for every window said in words (the search's and a meal's)."""
    return now if start <= now < end else start


def _frame_of(rec: SearchRecord) -> SearchPlan:
    """What an earlier search asked for (before relaxation), for a follow-up to keep."""
    return rec.get("frame") or rec.get("plan") or SearchPlan()


def _kind_frame(text: str, nlu: NLUResult, said: KindFrame | None = None) -> dict[str, Any]:
    """Kinds asked for and ruled out, and the NLU menu/category terms they stand for."""
    frame = said if said is not None else detect_kinds(text)
    table = kinds()
    covered = {norm(w) for w in frame.words}
    related = table.related(frame.kinds)  # "양갈비" also stands for its broader 양고기

    def is_covered(term: str) -> bool:
        t = norm(term)
        got = table.lookup(t)
        return (
            t in covered
            or any(t and t in w for w in covered)
            or (got is not None and (got[0] in related or got[0] in frame.exclude_kinds))
        )

    ex = nlu.exclude
    return {
        "kinds": frame.kinds,
        "kind_dishes": frame.dishes,
        "qualifier": frame.qualifier,
        "served": frame.served,
        "exclude_kinds": frame.exclude_kinds,
        # "쌀국수말고 분짜": a word of the kind asked for is a contrast, not a menu to rule out
        # "매운족발은 빼주세요": the version ruled out, never the dish inside its word (족발)
        "exclude_menu": [
            m
            for m in dict.fromkeys([*ex.menu, *frame.exclude_words])
            if (table.lookup(norm(m)) or ("", False))[0] not in frame.kinds
            and not any(m != w and m in w for w in frame.exclude_words)
        ],
        # "이자카야는 빼줘": the kind is ruled out, not every bar (its broad category)
        "exclude_cuisine": [
            c
            for c in ex.category
            if not any(k in table.by_name and table.by_name[k].cuisine == c for k in frame.exclude_kinds)
        ],
        "exclude_titles": list(dict.fromkeys([*ex.title, *frame.exclude_brands])),
        "exclude_brands": frame.exclude_brands,
        "brands": frame.brands,
        "exclude_chains": frame.exclude_chains,
        "is_covered": is_covered,
        "words": frame.words,
        "theme": frame.theme,
        "corrections": frame.corrections,
        "tastes_avoided": frame.tastes_avoided,
        "eat_in": frame.eat_in,
        "any_kind": frame.any_kind,
    }


def _apply_tastes(
    frame: dict[str, Any],
    kind_list: list[str],
    exclude_menu: list[str],
    notes: list[str],
    dishes: Sequence[str] = (),
    said: str = "",
) -> list[str]:
    """Tastes ruled out ("안 매운 떡볶이": the kind asked, its mild versions first — returned as the
    menus to prefer; "매운 거 못 먹어": the taste's kinds and the menus naming it ruled out, in
    ``frame`` and ``exclude_menu``), each said in ``notes``. A described food's family ("안 매운
    국물", "매운 거 못 먹는데 한식") is no kind asked: its spicy members are ruled out as well.
    A dish the message ``said`` (``dishes``, then the kinds) with mild versions of its own ("안 매운 짬뽕": 백짬뽕,
    하얀짬뽕 …; data/kinds.toml ``mild_of``) stays the kind, and those versions are the ones preferred."""
    prefer_menu: list[str] = []
    for taste in (t for t in kinds().tastes if t.name in frame["tastes_avoided"]):
        if kind_list and not frame["theme"] and not _holds_taste_kinds(kind_list, taste.kinds):
            own = taste.mild_for([*dishes, *kind_list], said)
            if own is not None and taste.note_mild_dish:
                dish, mild = own
                prefer_menu += mild
                notes.append(
                    taste.note_mild_dish.format(
                        dish=dish,
                        dish_obj=josa(dish, "을/를"),
                        dish_subj=josa(dish, "이/가"),
                        mild="·".join(mild[:3]),
                    )
                )
                continue
            prefer_menu += taste.mild
            notes.append(taste.note_mild)
        else:
            # "맵찔이 밥집": the family put first ("밥집": 찌개 → 부대찌개, 김치찌개) is searched as asked kinds are
            out = _taste_kinds_within(
                kind_list or kinds().first_kinds([], frame.get("any_kind")), taste.kinds
            )
            frame["exclude_kinds"] = list(dict.fromkeys([*frame["exclude_kinds"], *out]))
            exclude_menu += [m for m in taste.menu if m not in exclude_menu]
            own = taste.mild_for(kind_list, said) if kind_list and out and not frame["theme"] else None
            if own is not None and taste.note_out_mild:
                # "안 매운 찌개": the kind's red members out, named, and its mild versions first
                dish, mild = own
                prefer_menu += mild
                under = [k for k in out if any(k in kinds().descendants(a) for a in kind_list)]
                notes.append(
                    taste.note_out_mild.format(
                        out="·".join(under or out),
                        dish=dish,
                        dish_subj=josa(dish, "이/가"),
                        mild="·".join(mild[:3]),
                    )
                )
                continue
            notes.append(taste.note_out)
    return prefer_menu


def _taste_kinds_within(kind_list: list[str], taste_kinds: list[str]) -> list[str]:
    """The taste's kinds to rule out, those under the kinds asked first ("매운 양념 안한 닭요리":
    닭갈비; a 국물 family: 부대찌개, 김치찌개, 매운탕): the plan keeps only a few exclusions, so the
    ones that could be shown come first."""
    table = kinds()
    under = {d for k in kind_list for d in {k, *table.descendants(k)}}
    within = [t for t in taste_kinds if t in under]
    return [*within, *(t for t in taste_kinds if t not in within)]


def _holds_taste_kinds(kind_list: list[str], taste_kinds: list[str]) -> bool:
    """An umbrella kind asked with a taste ruled out ("분식 매운 건 빼고") whose sub-kinds include the
    taste's own (떡볶이): like a family, its spicy members are ruled out rather than ranked after."""
    table = kinds()
    if any(k in taste_kinds for k in kind_list):
        return False
    return any(t in table.descendants(k) for k in kind_list for t in taste_kinds)


def _typical_prices(res: Resources, hits: list[HitRecord]) -> list[int]:
    """The typical price of each restaurant shown (its whole menu's: what the list shown cost is the
    bar; the places found below it are read on the food asked, filters.kind_price)."""
    out: list[int] = []
    for h in hits:
        doc = res.index.get(h["id"])
        price = typical_price(doc, []) if doc is not None else None
        if price is not None:
            out.append(price)
    return out


def _last_bound(rec: SearchRecord) -> int | None:
    """The price bound the search of ``rec`` was asked with."""
    frame = rec.get("frame") or rec.get("plan")
    return frame.price_max if frame is not None else None


def _same_topic(frame: dict[str, Any], menu: list[str], rec: SearchRecord) -> bool:
    """ "더 싼 데", "더 싼 고깃집은?": the food of the previous search, or none named; "홍대 저렴한
    파스타" after a search for 고깃집 is a new search, not cheaper than the 고깃집 shown."""
    prev = _frame_of(rec)
    own = set(frame["kinds"])
    if own and not own <= kinds().related(prev.kinds):
        return False
    # "곱창 치고 비싸네 더 싼 곳" after a 곱창 search: the dish the kind was asked by is the same food
    return all(m in prev.menu or m in prev.kind_dishes for m in menu)


# --- the offline planner ---------------------------------------------------------------------------


@dataclass
class _Draft:
    """The offline planner's reading of one message, filled step by step (:func:`offline_plan`)."""

    intent: str
    location: dict[str, Any] | None
    price_min: int | None
    price_max: int | None
    open_at: datetime | None
    open_until: datetime | None
    open_label: str | None
    cuisine: list[str]
    menu: list[str]
    convenience: list[str]
    atmosphere: list[str]
    occasion: list[str]
    sort: str
    reading: Understanding  # the turn's one reading of the message (kinds, dialogue acts)
    frame: dict[str, Any] = field(default_factory=dict)  # :func:`_kind_frame`, its exclusions kept
    kinds: list[str] = field(default_factory=list)
    kind_dishes: list[str] = field(default_factory=list)
    qualifier: str | None = None  # "해산물 포차": the food the one kind asked serves
    exclude_menu: list[str] = field(default_factory=list)
    prefer_menu: list[str] = field(default_factory=list)
    titles: list[str] = field(default_factory=list)
    unused: list[str] = field(default_factory=list)
    exclude_ids: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # said in the answer (carry_notes)
    carried_k: int | None = None
    cheaper: bool = False
    price_wider: int | None = None  # "더 싼 데": below the dearest shown, tried when none is below the list
    per_person: bool = False  # "1인 5만원": a course or set within the bound counts
    party: int | None = None  # "6명": shared plates' price per head (kinds.toml shared)
    open_wished: datetime | None = None  # a meal said alone: places open then first, none ruled out
    wish_words: dict[str, str] = field(default_factory=dict)  # a refined topic's wishes said by their word


def offline_plan(state: AgentState, res: Resources) -> dict[str, Any]:
    """The raw plan the offline planner writes from NLU + location (validated afterwards)."""
    nlu = state.get("nlu") or NLUResult()
    query = state.get("query", "")
    d = _draft(state, res, nlu)
    _read_kinds(d, nlu, query, res)
    _read_titles(d, nlu, state.get("location"))
    searches = state.get("searches") or []
    if state.get("anchor") == "place":
        _around_place(d, state, res)
    if state.get("compare_titles"):
        d.titles, d.intent = list(state.get("compare_titles") or []), "compare"
    if state.get("refine") and searches:
        _refine(d, state, nlu, query, searches[-1])
    elif searches and d.intent == "search" and not d.titles:
        _keep_topic(d, searches[-1])
    # tastes are read once, on the topic this turn searches (carried or its own): "덜 매운 데로" after a
    # 쭈꾸미 list keeps the 쭈꾸미 places, their mild versions first; with no kind the spicy ones are out
    d.prefer_menu = _apply_tastes(d.frame, d.kinds, d.exclude_menu, d.notes, [*d.kind_dishes, *d.menu], query)
    if searches:
        _replaced_topic(d, searches[-1])
        _cheaper(d, res, nlu, searches[-1])
        _others_than_shown(d, state, searches[-1])
    _cheap_wish(d)
    _say_party(d, nlu, res)
    _say_unknowable(d, query)
    if activity_before(query) is not None:
        # "야구 보고 치맥", "등산하고 막걸리": what one does before eating, said as such (strategy_answer),
        # never also reported as a condition left out (audit r14 Q3)
        d.unused = [t for t in d.unused if activity_before(t + " 하고") is None]
    return _raw_plan(d, state, res, nlu)


def _location(ctx: LocationContext | None) -> dict[str, Any] | None:
    if ctx is None:
        return None
    return {
        "name": ctx.name or ctx.display_name or text("search.place.unnamed"),
        "lat": ctx.lat,
        "lon": ctx.lon,
        "radius_m": ctx.radius_m,
        "mode": ctx.mode,
        "region_terms": ctx.region_terms,
    }


def _draft(state: AgentState, res: Resources, nlu: NLUResult) -> _Draft:
    """The message's own slots: place, price, time, the entities."""
    ents = nlu.entities
    time_spec = nlu.time
    reading = understanding_of(state)
    if time_spec is None and reading.cues.now:
        # "지금 근처에 해장국": wanted now, so open now
        time_spec = TimeSpec(kind="now", label=text("search.time.now"))
    open_at, open_until, open_label = _open_at(time_spec, turn_now(state, res))
    meal = reading.meal_time
    wished = None
    if meal is not None and meal.minute is not None:
        # "점심 먹을 데", "토요일 점심에 갈": a meal, not an opening condition; places open at it (on the
        # day named, else today) are put first
        now = turn_now(state, res)
        start, end, _ = _open_at(meal, now)
        assert start is not None
        midnight = start.replace(hour=0, minute=0, second=0, microsecond=0)
        wished = midnight + timedelta(minutes=int(meal.minute))
        if end is not None and start <= now < end:
            wished = now  # "아침 먹을 데" at 09:30 on that morning: going now, not at 08:30
    occasion = list(ents.occasion)
    if nlu.party.with_children and _WITH_CHILDREN not in occasion:
        occasion.append(
            _WITH_CHILDREN
        )  # "아이랑", "애들 데리고": places reviews call good with children first
    return _Draft(
        intent=nlu.intent,
        location=_location(state.get("location")),
        price_min=nlu.price.min_won if nlu.price is not None else None,
        price_max=nlu.price.max_won if nlu.price is not None else None,
        per_person=nlu.price is not None and nlu.price.per_person,
        party=nlu.party.size,
        open_at=open_at,
        open_until=open_until,
        open_label=open_label,
        cuisine=list(ents.category),
        menu=list(ents.menu),
        convenience=list(ents.convenience),
        atmosphere=list(ents.atmosphere),
        occasion=occasion,
        sort=nlu.order or "relevance",
        reading=reading,
        open_wished=wished,
    )


def _no_bar_for_children(d: _Draft) -> None:
    """ "애들 데리고 갈 데": the bars :func:`~matjip.agent.plan.children_out` leaves out, said."""
    if children_out(d.occasion, [*d.kinds, *d.menu, *d.cuisine]):
        d.notes.append(text("search.children.out"))


def _read_kinds(d: _Draft, nlu: NLUResult, query: str, res: Resources) -> None:
    """The kinds asked for and ruled out, the menus they stand for (tastes avoided are applied once
    the topic is known: :func:`offline_plan`)."""
    frame = d.frame = _kind_frame(query, nlu, d.reading.kinds)
    d.kinds, d.kind_dishes = list(frame["kinds"]), list(frame["kind_dishes"])
    d.qualifier = frame["qualifier"]
    if frame["theme"] and any(not frame["is_covered"](t) for t in nlu.entities.title):
        # "중앙해장 몇 시에 열어?": the word is in a restaurant's name ("달달한 거" is no name "달달한 과자점")
        d.kinds, d.kind_dishes = [], []
    elif frame["theme"] and [m for m in d.menu if not frame["is_covered"](m)]:
        d.kinds, d.kind_dishes = [], []  # a dish named ("국물 요리, 라멘") is the request, not the family
    elif frame["theme"]:
        d.notes.append(frame["theme"])
    _no_bar_for_children(d)
    d.notes += [said_as(typo, word) for typo, word in frame["corrections"] if kinds().lookup(word)]
    if d.kinds or frame["exclude_kinds"]:
        _kind_menus(d)
    # "곱창전꼴": a dish typed with a typo, spelt right a menu word no kind names, is the dish asked
    d.menu += [
        fix
        for _, fix in frame["corrections"]
        if not kinds().lookup(fix) and res.nlu.vocabulary.is_menu(fix) and fix not in d.menu
    ]
    for name in [] if frame["theme"] else d.kinds:  # a narrow kind's own word lets its broader
        kind = kinds().by_name.get(name)  # kind's menus stand in (a theme's family: its kinds only)
        if kind is not None and kind.parent and kind.words and not d.kind_dishes:
            d.kind_dishes.append(kind.words[0])
    d.exclude_menu = [m for m in frame["exclude_menu"] if m]
    d.exclude_menu += [t for t in d.reading.acts.tastes_ruled_out if t not in d.exclude_menu]
    if frame["eat_in"]:  # "배달 말고": delivery-only places out, said
        d.notes.append(kinds().eat_in.note)  # the filter itself is the plan's eat_in (plan.to_requests)


def _kind_menus(d: _Draft) -> None:
    """The kind stands for the words it was named by: "치킨집" is not a menu filter "치킨"."""
    covered = d.frame["is_covered"]
    d.menu = [m for m in d.menu if not covered(m)]
    if d.kinds:
        d.cuisine = []
    # "짬뽕 맛있는 중국집": a dish of the kind said beside the kind's own word narrows it to
    # the places listing the dish (the rest follow when too few do, said so)
    # "마라샹궈": a dish only some places of its kind serve must be on the menu too
    by_word = {got[0] for w in d.frame["words"] if (got := kinds().lookup(w)) is not None and not got[1]}
    # "된장찌개 나오는 고깃집": the dish said as served at the kind, on its places' menus
    d.menu += [dish for dish in d.frame["served"] if dish not in d.menu]
    d.menu += [
        dish
        for dish in d.kind_dishes
        if ((kinds().lookup(dish) or ("", False))[0] in by_word or kinds().is_sub_dish(dish))
        and dish not in d.menu
    ]


def _read_titles(d: _Draft, nlu: NLUResult, ctx: LocationContext | None) -> None:
    """The restaurants asked about by name, and the words nothing else read."""
    frame = d.frame
    ents = nlu.entities
    # "korean bbq" is not the brand BBQ; a brand ruled out ("맥날 버거킹 이런거 말고") is not asked about
    ruled_out = {norm(b) for b in frame["exclude_brands"]}
    d.titles = [t for t in ents.title if not frame["is_covered"](t) and norm(t) not in ruled_out]
    if not d.titles and frame["brands"] and not d.kinds:
        # a chain asked for by its nickname ("맘터 천호"): its branches, like a name
        d.titles = list(frame["brands"])
        d.intent = "information"
    if ents.title and not d.titles and d.intent in ("information", "compare"):
        d.intent = "search"
    place_words = {ctx.name} if ctx is not None and ctx.name else set()  # an address region ("노형동")
    d.unused = [t for t in nlu.unknown_terms if not frame["is_covered"](t) and t not in place_words]


def _around_place(d: _Draft, state: AgentState, res: Resources) -> None:
    """ "세번째 집 근처에 카페 있어?" is a search around it, not a question."""
    d.intent = "search"
    ctx = state.get("location")
    around = next(
        (
            doc
            for h in state.get("context") or []
            if (doc := res.index.get(h["id"])) and ctx and doc.title == ctx.name
        ),
        None,
    )
    if around is not None:
        # "거기 근처 다른 맛집도": the restaurant the search is around is no answer of it
        d.exclude_ids = list(dict.fromkeys([*d.exclude_ids, around.place_id]))
    if around is not None and len(d.kinds) > 1:
        # "그 족발집 근처 호프집": the kind that named the restaurant is not searched for
        d.kinds = [k for k in d.kinds if k not in around.kinds] or d.kinds


def _refine(d: _Draft, state: AgentState, nlu: NLUResult, query: str, last: SearchRecord) -> None:
    """Narrowing: keep the previous search's topic and place, add this turn's constraints; a
    refinement keeps every slot it does not change (what was ruled out, the count, the time)."""
    prev = _frame_of(last)
    d.cuisine = list(dict.fromkeys([*prev.cuisine, *d.cuisine]))
    d.menu = list(dict.fromkeys([*prev.menu, *d.menu]))
    prev = _replace_conditions(d, prev, query)
    _merge_conditions(d, prev)
    if not d.kinds:
        d.kinds, d.kind_dishes, d.qualifier = list(prev.kinds), list(prev.kind_dishes), prev.qualifier
    d.intent = "search"
    if d.location is None and prev.location is not None:
        d.location = prev.location.model_dump(mode="json")
    if nlu.price is None and (prev.price_min is not None or prev.price_max is not None):
        d.price_min, d.price_max = prev.price_min, prev.price_max
        d.per_person = prev.per_person
    _keep_exclusions(d, prev)
    if nlu.count is None:
        d.carried_k = prev.k
    if d.open_at is None and prev.open_at is not None:
        d.open_at, d.open_until, d.open_label = prev.open_at, prev.open_until, prev.open_label
    if d.open_at is None and d.open_wished is None and prev.open_wished is not None:
        # "점심 먹을 데" → "더 싼 데는 없어?": still the meal asked (its time, and a meal: no bakery
        # or 떡 shop as a cheaper lunch, audit r14 Q1.2)
        d.open_wished = prev.open_wished
    if state.get("page"):
        # "다른 데는?": the same search without what was already shown for it
        d.exclude_ids = [*prev.exclude_ids, *(h["id"] for h in last.get("hits") or [])]
        d.notes.append(text("search.refine.page"))
    if state.get("anchor") == "closer":
        _closer(d, state.get("context") or last.get("hits") or [])


def _others_than_shown(d: _Draft, state: AgentState, last: SearchRecord) -> None:
    """ "국물 있는 걸로 다른 데는?": "다른 데" leaves out the places already shown, also when the turn
    asks a new topic (the next page of the same search does it in :func:`_refine`)."""
    if not d.reading.acts.other or state.get("page") or d.intent != "search" or d.titles:
        return
    shown = [h["id"] for h in last.get("hits") or [] if h["id"] not in d.exclude_ids]
    if shown:
        d.exclude_ids = [*d.exclude_ids, *shown]
        if text("search.refine.page") not in d.notes:
            d.notes.append(text("search.refine.page"))


def _replace_conditions(d: _Draft, prev: SearchPlan, query: str) -> SearchPlan:
    """ "주차말고 포장되는 데로 바꿔줘": a condition said before 말고/대신 is replaced."""
    replaced = [c for c in prev.convenience if re.search(re.escape(c) + _REPLACED_AFTER, query)]
    if not replaced:
        return prev
    d.convenience = [c for c in d.convenience if c not in replaced]
    d.notes.append(say("search.refine.dropped", conditions=", ".join(replaced)))
    return prev.model_copy(update={"convenience": [c for c in prev.convenience if c not in replaced]})


def _merge_conditions(d: _Draft, prev: SearchPlan) -> None:
    """The previous search's conditions and this turn's; "주차 안 돼도 괜찮아": the conditions this
    message names leave the frame."""
    d.wish_words = dict(prev.wish_words)  # kept for the wishes that stay (plan._wish_words)
    if d.reading.acts.drops:
        dropped = [*d.convenience, *d.atmosphere, *d.occasion]
        d.convenience, d.atmosphere, d.occasion = (
            [c for c in prev.convenience if c not in dropped],
            [a for a in prev.atmosphere if a not in dropped],
            [o for o in prev.occasion if o not in dropped],
        )
        if dropped:
            d.notes.append(say("search.refine.dropped", conditions=", ".join(dropped)))
    else:
        d.convenience = list(dict.fromkeys([*prev.convenience, *d.convenience]))
        d.atmosphere = list(dict.fromkeys([*prev.atmosphere, *d.atmosphere]))
        d.occasion = list(dict.fromkeys([*prev.occasion, *d.occasion]))


def _keep_exclusions(d: _Draft, prev: SearchPlan) -> None:
    """What the previous search ruled out stays ruled out."""
    for key in ("exclude_kinds", "exclude_cuisine", "exclude_titles"):
        d.frame[key] = list(dict.fromkeys([*getattr(prev, key), *d.frame[key]]))
    d.exclude_menu = list(dict.fromkeys([*prev.exclude_menu, *d.exclude_menu]))
    d.frame["exclude_chains"] = d.frame["exclude_chains"] or prev.exclude_chains


def _closer(d: _Draft, on_screen: list[HitRecord]) -> None:
    """ "더 가까운 데": nearer than the farthest place on screen, nearest first."""
    known = [dist for h in on_screen if (dist := h.get("distance_m")) is not None]
    if d.location is None or not known:
        return
    farthest = int(max(known))
    d.location["radius_m"] = max(100, farthest - 1)
    d.location["mode"] = "near"
    d.location["region_terms"] = []
    d.sort = "distance"
    d.notes.append(say("search.refine.closer", within=widen.km(farthest)))


def _keep_topic(d: _Draft, last: SearchRecord) -> None:
    """A follow-up that names no food ("5개 보여줘", "이번엔 송파역 쪽으로", "더 싼 데는?") keeps the
    previous search's topic and what it ruled out."""
    prev = _frame_of(last)
    no_topic = not (d.kinds or d.menu or d.cuisine or d.convenience or d.atmosphere or d.occasion)
    if not (no_topic and not d.reading.cues.names_no_food and (prev.kinds or prev.menu or prev.cuisine)):
        return
    d.kinds, d.kind_dishes, d.qualifier = list(prev.kinds), list(prev.kind_dishes), prev.qualifier
    d.menu, d.cuisine = list(prev.menu), list(prev.cuisine)
    _keep_exclusions(d, prev)
    if d.location is None and prev.location is not None:
        d.location = prev.location.model_dump(mode="json")


def _replaced_topic(d: _Draft, last: SearchRecord) -> None:
    """ "피자 말고 치킨은 어때" after a 피자 search: the food shown is replaced by the one named, not
    ruled out of the new search (a 치킨 place that also bakes pizza stays)."""
    prev = _frame_of(last)
    shown = set(prev.kinds)
    out = set(d.frame["exclude_kinds"])
    if not (d.kinds and shown and out and out <= shown and not shown & set(d.kinds)):
        return
    if out & kinds().related(d.kinds):
        return  # "순대국 빼고 국밥" after 순대국 places: a sub-kind ruled out of the broader kind asked
    words = {w for k in out if (kind := kinds().by_name.get(k)) is not None for w in (k, *kind.words)}
    d.frame["exclude_kinds"] = []
    d.exclude_menu = [m for m in d.exclude_menu if m not in words and m not in prev.kind_dishes]


def _cheaper(d: _Draft, res: Resources, nlu: NLUResult, last: SearchRecord) -> None:
    """ "더 싼 데": below the typical price of the list shown (the median of its places' median menu
    prices — cheaper than what was shown, not only than its dearest place; a refinement, never a
    duplicate); the places shown are left out."""
    if not d.reading.acts.cheaper:
        # "더 보여줘" after "더 싼 데": the next page keeps the bound read the same way (filters.within_budget)
        d.cheaper = bool(last.get("cheaper")) and d.price_max is not None and d.price_max == _last_bound(last)
        return
    if not _same_topic(d.frame, nlu.entities.menu, last):
        return
    shown = _typical_prices(res, last.get("hits") or [])
    typical = round(statistics.median(shown)) if shown else None
    bound = max(1000, typical - 1) if typical is not None else None
    if bound is not None and (d.price_max is None or d.price_max > bound):
        d.price_max = bound
        d.price_wider = max(shown) - 1 if max(shown) - 1 > bound else None
        d.cheaper = True
        d.exclude_ids = [*d.exclude_ids, *(h["id"] for h in last.get("hits") or [])]
        d.notes.append(say("search.refine.cheaper", bound=bound, typical=typical))
    # "가격대 낮춰서": the words that asked for it are no condition the data lacks
    said = d.reading.acts.cheaper_words
    d.unused = [t for t in d.unused if not any(t[:1] in w for w in said)]


def _cheap_wish(d: _Draft) -> None:
    """ "싼 데", "가성비 좋은" in a fresh search: the matching places by their menus' typical price
    (agent/retrieval/rank.py, index.ranking.price_bands), said; "더 싼 데" after a list refines that
    list instead (:func:`_cheaper`: below what was shown, by the ordinary ranking)."""
    if d.sort != "price":
        return
    if d.cheaper or d.intent != "search" or d.titles:
        # "육장정 가성비 어때?", "A랑 B 중에 어디가 더 싸?": about named places, no list to order
        d.sort = "relevance"
        return
    d.notes.append(text("search.cheap.first"))


def _say_unknowable(d: _Draft, query: str) -> None:
    """ "유모차 끌고": a condition on the place the data cannot check, said (``search.toml [unknowable]``),
    and then not reported again as a word left out."""
    for key, pattern in _UNKNOWABLE.items():
        found = [m.group(0) for p in pattern for m in p.finditer(query)]
        if found:
            d.notes.append(text(f"understand.unknowable.{key}"))
            d.unused = [t for t in d.unused if not any(t in f or f in t for f in found)]


def _say_party(d: _Draft, nlu: NLUResult, res: Resources) -> None:
    """What the data cannot check about the party, said, never silently ignored."""
    if nlu.price is not None and nlu.price.per_person and nlu.price.max_won is not None:
        # "1인 2만원": a budget per person, checked against each place's typical dish price
        d.notes.append(per_person_note(nlu.price.label))
        people = sharers(d.kinds, nlu.party.size)
        if people > 1:  # "6명 1인 2만원 족발": a plate is shared, its price split (kinds.toml shared)
            d.notes.append(
                say(
                    "understand.notes.per_person_shared",
                    kinds=josa("·".join(d.kinds), "은/는"),
                    people=people,
                )
            )
    if nlu.party.size is not None and nlu.party.size >= res.config.party_note_min:
        # "20명 회식", "우리 여섯이": seats are not in the data
        d.notes.append(party_note(nlu.party.size))
        if d.reading.cues.group_seats and GROUP_SEATS not in d.convenience:
            d.convenience.append(GROUP_SEATS)  # "12명 회식 가능한": group seating, the seat value known


def _raw_plan(d: _Draft, state: AgentState, res: Resources, nlu: NLUResult) -> dict[str, Any]:
    """The draft as the raw plan, with seed 003's strategy fields and the count."""
    frame = d.frame
    no_break = d.reading.cues.no_break
    seed, seed_notes = seed_plan_fields(state, res, d.location)
    d.notes += seed_notes
    unused = d.unused
    if seed.get("strategy"):
        # "코스", "걸어서", "가는 길" are how to search, not words the data should hold
        unused = [t for t in unused if not is_strategy_word(t)]
    return {
        "cheaper": d.cheaper,
        "intent": d.intent,
        "location": d.location,
        "titles": d.titles,
        "kinds": d.kinds,
        "kind_dishes": d.kind_dishes,
        "qualifier": d.qualifier if d.kinds else None,
        "exclude_kinds": frame["exclude_kinds"],
        "exclude_cuisine": frame["exclude_cuisine"],
        "exclude_menu": d.exclude_menu,
        "exclude_titles": frame["exclude_titles"],
        "avoid_tastes": frame["tastes_avoided"],  # places named for the taste out ("매운갈비찜")
        "eat_in": frame["eat_in"],
        "any_kind": frame["any_kind"],
        "exclude_chains": frame["exclude_chains"],
        "unused_terms": [t for t in unused if not (no_break and t.startswith(_NO_BREAK_WORDS))],
        "no_break": no_break,
        "prefer_menu": d.prefer_menu,
        "carry_notes": d.notes,
        "cuisine": d.cuisine,
        "menu": d.menu,
        "convenience": d.convenience,
        "atmosphere": d.atmosphere,
        "occasion": d.occasion,
        # "혼술": the wish read (혼밥) is named by the word said, this turn's or the topic's it refines
        # (unless this turn names the wish itself: "혼밥으로")
        "wish_words": {
            **{w: v for w, v in d.wish_words.items() if norm(w) not in norm(state.get("query", ""))},
            **wish_words(state.get("query", ""), [*d.atmosphere, *d.occasion]),
        },
        "semantic": "",
        "price_min": d.price_min,
        "price_max": d.price_max,
        "price_max_wider": d.price_wider,
        "per_person": d.per_person and not d.cheaper,
        "party": d.party,
        "open_at": d.open_at,
        "open_until": d.open_until,
        "open_label": d.open_label,
        "open_wished": d.open_wished,
        "k": _count(d, nlu, res),
        "per_title_k": res.config.compare_k,
        "sort": d.sort,
        "exclude_ids": d.exclude_ids,
        **seed,
    }


def _count(d: _Draft, nlu: NLUResult, res: Resources) -> int:
    """The count asked, else the one a refinement carries, else the intent's default."""
    if nlu.count:
        return nlu.count
    if d.carried_k is not None:
        return d.carried_k
    if d.intent == "information" and not nlu.entities.title:
        return res.config.information_k
    return res.config.default_k


# --- the nodes -------------------------------------------------------------------------------------


def plan(state: AgentState, res: Resources) -> dict[str, Any]:
    """Write the plan (offline planner, or the LLM planner when configured) and validate it."""
    raw: Any = None
    notes: list[str] = []
    offline = offline_plan(state, res)
    carried = list(offline.pop("carry_notes", []))  # said in the answer, not a plan field
    cheaper = bool(offline.pop("cheaper", False))
    if res.llm is not None and res.llm.plans:
        raw, notes = res.llm.write_plan(state, offline)
        if isinstance(raw, dict):
            # what the LLM plan has no field for is the offline reading of the same message
            raw = {**{k: offline[k] for k in _OFFLINE_ONLY if k in offline}, **raw}
            if not raw.get("strategy"):
                raw["strategy"] = offline.get("strategy")  # "": the offline reading's strategy
    if raw is None:
        raw = offline
    validated, repairs = validate_plan(
        raw,
        cuisines=res.cuisines or None,
        conveniences=res.conveniences or None,
        fallback_text=state.get("query", ""),
        timezone=res.timezone,
    )
    all_notes = [*notes, *repairs]
    emit("plan", validated.model_dump(mode="json"))
    return {
        "plan": validated,
        "frame": validated,
        "cheaper": cheaper,
        "relax_notes": carried,
        "plan_notes": [*(state.get("plan_notes") or []), *all_notes],
        "_decision": f"{validated.intent}/{validated.strategy} k={validated.k}"
        + (f" ({len(all_notes)} repairs)" if all_notes else ""),
        "_detail": {"repairs": all_notes} if all_notes else {},
    }


def check_duplicate(state: AgentState, res: Resources) -> dict[str, Any]:
    """Reuse an earlier search whose validated plan is equivalent (docs/design.md)."""
    current = state_plan(state)
    sig = current.signature()
    said = "".join(state.get("query", "").split())
    for i, rec in enumerate(reversed(state.get("searches") or [])):
        # only a verbatim repeat reuses the results; a reworded one searches again. The plan as asked
        # counts too: a search that was widened stored its widened plan's signature
        asked = rec.get("frame")
        same = rec.get("signature") == sig or (asked is not None and asked.signature() == sig)
        if same and "".join(str(rec.get("query", "")).split()) == said:
            idx = len(state.get("searches") or []) - 1 - i
            return {
                "duplicate_of": idx,
                "hits": rec.get("hits") or [],
                "_decision": f"same as search #{idx + 1}; reusing its results",
            }
    return {"duplicate_of": None, "_decision": "new search"}


def _origin(plan: SearchPlan) -> str | None:
    return plan.location.name if plan.location else None


def _records(hits: list[SearchHit], plan: SearchPlan) -> list[HitRecord]:
    return [hit_record(h, _origin(plan)) for h in hits]


# seed 003's strategies: their own nodes (agent/nodes/strategies.py)
_STRATEGY_NODES: Final[dict[str, Callable[[AgentState, Resources], dict[str, Any]]]] = {
    "route": search_route,
    "point_travel": search_travel,
    "course": search_course,
}


def search_general(state: AgentState, res: Resources) -> dict[str, Any]:
    """All entities as filters, atmosphere/occasion as semantic text, k results (docs/design.md).

    A kind is a hard filter; when too few restaurants of the kind are found, what stands in for
    it follows, said so (:mod:`matjip.agent.retrieval.topup`), and a short list around a place is
    filled from a little farther (:mod:`~matjip.agent.retrieval.widen`). Branches of one chain are
    not repeated unless nothing else is left (:mod:`~matjip.agent.retrieval.rank`).
    """
    p = state_plan(state)
    if p.overseas:
        return search_abroad(state, res)
    if p.strategy in _STRATEGY_NODES:
        return _STRATEGY_NODES[p.strategy](state, res)
    now = turn_now(state, res)
    # a meal wished now ("아침 먹을 데" at 09:30): the places open then are fetched too
    f = fetch(
        p, res, p.open_wished if p.open_wished is not None and widen.is_now(p.open_wished, now) else None
    )
    topup.dish_fallback(f, res)
    topup.menu_topup(f, res)
    topup.neighbours(f, res)
    topup.dish_anywhere(f, res, _said(state))
    # a dish asked ("당산 곱창전골"): the places listing it are what was asked, whatever they are filed as
    sure = None if f.plan.kind_dishes or f.req.menu else rank.surely_of_kind(f.plan.kinds, f.dish_known)
    widen.fill_wider(f, state.get("anchor"), state.get("relax_notes") or [], res, sure)
    gaps.no_break(f, now)
    within, fill = cheaper_fill(f.hits, f.plan, cheaper=bool(state.get("cheaper")))
    f.hits = [*within, *fill]
    if fill:  # "더 싼 데", too few below the list's typical price: those below its dearest follow, said
        f.farther |= {h.document.place_id for h in fill}
        f.notes.append(cheaper_fill_note(f.plan, within))
        f.plan_update.update(price_max=f.plan.price_max_wider, price_max_wider=None)  # the bound now shown
    query = str(state.get("query") or "")
    # a meal said now, or kept from the list a follow-up refines (its wished time: ``_refine``)
    today = _TODAY.search(query) is not None
    meal = _MEAL.search(query) is not None or f.plan.open_wished is not None
    rank.rerank(f, res, _said(state), now, today=today, meal=meal)
    return _general_update(state, res, f)


def _said(state: AgentState) -> str:
    """The message as the ranker reads it (normalised), with the words its typos were taken for
    ("육계장" → 육개장): a dish asked with a typo is still the dish asked."""
    fixes = "".join(fix for _, fix in kinds_said(state).corrections)
    return norm(str(state.get("query") or "")) + norm(fixes)


def _general_update(state: AgentState, res: Resources, f: Found) -> dict[str, Any]:
    """The state update of a general search: the hits, the notes, and what it could not see."""
    p = f.plan
    update: dict[str, Any] = {
        "hits": _records(f.hits, p),
        "_decision": f"{len(f.hits)} hits of {f.resp.total_candidates} candidates",
        "_detail": f.detail,
    }
    if not f.hits and res.places is not None and not p.titles and not gaps.covers(p, res):
        # a domestic place the index does not cover at all: Kakao Local around it (never stored)
        live, info = live_nearby(p, res)
        update["live_cards"], update["strategy_info"] = live, info
        f.detail.update(info.model_dump(exclude_none=True, exclude_defaults=True))
        if live:
            update["_decision"] += f"; {len(live)} live places from kakao"
    notes = widen.needed_notes(state.get("relax_notes") or [], state.get("frame"), f.hits)
    if f.notes or notes != (state.get("relax_notes") or []):
        update["relax_notes"] = [*notes, *f.notes]
    if f.plan_update:
        # a dish now a preference, a radius filled wider: the grader reads the plan
        update["plan"] = p.model_copy(update=f.plan_update)
    if f.req.open_at is not None:
        # how many would have passed had their hours been known: said in the answer
        update["unknown_hours"] = gaps.unknown_hours(f, res)
    if f.req.geo is not None and len(f.hits) < p.k:
        # places matching everything but the distance without coordinates: said in the answer
        update["no_coordinates"] = gaps.no_coordinates(f, res)
    return update


def search_compare(state: AgentState, res: Resources) -> dict[str, Any]:
    """One query per title, ``per_title_k`` each, deduplicated (docs/design.md)."""
    p = state_plan(state)
    seen: set[str] = set()
    records: list[HitRecord] = []
    groups: list[CompareGroup] = []
    for title, req in zip(p.titles, to_requests(p), strict=True):
        resp = res.index.search(req)
        ids = []
        for h in resp.hits:
            if h.document.place_id in seen:
                continue
            seen.add(h.document.place_id)
            records.append(hit_record(h, _origin(p)))
            ids.append(h.document.place_id)
        groups.append({"title": title, "ids": ids})
    return {
        "hits": records,
        "compare_groups": groups,
        "_decision": ", ".join(f"{g['title']}: {len(g['ids'])}" for g in groups),
    }


def search_information(state: AgentState, res: Resources) -> dict[str, Any]:
    """The named restaurant first (exact name, then branch); location-only → 5 results."""
    p = state_plan(state)
    if not p.titles:
        return search_general(state, res)
    records: list[HitRecord] = []
    for title, req in zip(p.titles, to_requests(p), strict=True):
        resp = res.index.search(req)
        hits = list(resp.hits)
        norm = title.replace(" ", "")
        hits.sort(key=lambda h: (h.document.title.replace(" ", "") != norm, -h.score))
        records += _records(hits, p)
    return {"hits": records, "_decision": f"{len(records)} hits for {', '.join(p.titles)}"}


def relax(state: AgentState, res: Resources) -> dict[str, Any]:
    """Nothing relevant: relax one step and say exactly what changed
    (:func:`matjip.agent.retrieval.widen.relax_step`). Every step announced is searched; when
    nothing is left to relax, ``relax_step`` goes past the maximum."""
    step = int(state.get("relax_step") or 0) + 1
    notes = list(state.get("relax_notes") or [])
    update: dict[str, Any] = {"relax_step": step}
    p, note = widen.relax_step(
        state_plan(state),
        state.get("anchor"),
        notes,
        res.config,
        turn_now(state, res),
        widen.listing_near(res),
        cheaper=bool(state.get("cheaper")),
    )
    if note is None:
        update["relax_step"] = res.config.max_relax_steps + 1
        update["_decision"] = "nothing left to relax"
        return update
    notes.append(note)
    p = p.model_copy(update={"relaxed": notes[-5:]})
    update["plan"] = p
    update["relax_notes"] = notes
    update["_decision"] = notes[-1]
    emit("plan", p.model_dump(mode="json"))
    return update
