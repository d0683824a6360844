"""Plan, duplicate check, per-intent search strategies and relaxation (docs/design.md)."""

from __future__ import annotations

import math
import re
import statistics
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from matjip.agent.acts import party_note, per_person_note
from matjip.agent.cardinfo import going_now_tier, is_night
from matjip.agent.configuration import Resources
from matjip.agent.models import SearchPlan
from matjip.agent.nodes.common import emit, hit_record, state_plan, turn_now
from matjip.agent.nodes.strategies import (
    live_nearby,
    search_abroad,
    search_course,
    search_route,
    search_travel,
    seed_plan_fields,
)
from matjip.agent.plan import to_requests, validate_plan
from matjip.agent.state import AgentState, CompareGroup, HitRecord, SearchRecord
from matjip.agent.understanding import understanding_of
from matjip.documents import Restaurant
from matjip.geo.gazetteer import PlaceType
from matjip.index.ranking import local_key
from matjip.index.reference import BRANCH_SUFFIXES, menu_matches
from matjip.index.request import MAX_K, GeoFilter, SearchHit, SearchRequest
from matjip.kinds import kinds, norm, said_as
from matjip.nlu.kinds import KindFrame, chain_rules, detect_kinds
from matjip.nlu.models import NLUResult, TimeSpec
from matjip.nlu.strategy import is_strategy_word
from matjip.nlu.vocabulary import category_leaf, compact
from matjip.vocab import vocab

EARLY_MORNING_END_H = 6  # a small-hours time asked with no day, once past, is the coming night


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
        return now, None, label or "지금"
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
        return start, end, label
    if time_spec.minute is not None:
        at = midnight + timedelta(minutes=int(time_spec.minute))
        if no_day and at < now and at.hour < EARLY_MORNING_END_H:
            at += timedelta(days=1)  # "새벽 1시" asked in the evening: tonight, not this morning
        return at, None, label
    if day.date() == now.date():  # "오늘" with no time: from now to the end of the day
        return now, midnight + timedelta(hours=23, minutes=59), label
    return midnight + timedelta(hours=6), midnight + timedelta(hours=23, minutes=59), label


RERANK_DEPTH = 24  # places fetched for a search_general re-rank (at least)

_GENERIC = re.compile(r"맛집|식당|밥집|먹을\s*(?:데|곳|만한)|음식점|아무\s*거나")


def _typical_prices(res: Resources, hits: list[HitRecord], wanted: list[str]) -> list[int]:
    """The typical price of each restaurant shown (as the price filter reads it)."""
    out: list[int] = []
    for h in hits:
        doc = res.index.get(h["id"])
        price = _typical_price(doc, wanted) if doc is not None else None
        if price is not None:
            out.append(price)
    return out


# "지금 여기 근처", "지금 내 위치": where the person is now, not a time
_NOW_WORD = re.compile(
    r"(?<![가-힣])(?:지금|당장)(?!\s*(?:까지|부터|처럼|보다|여기|내\s*위치|이\s*근처|있는\s*(?:곳|데|위치)))"
)


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
        "exclude_kinds": frame.exclude_kinds,
        # "쌀국수말고 분짜": a word of the kind asked for is a contrast, not a menu to rule out
        "exclude_menu": [
            m
            for m in dict.fromkeys([*ex.menu, *frame.exclude_words])
            if (table.lookup(norm(m)) or ("", False))[0] not in frame.kinds
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
    }


def _apply_tastes(
    frame: dict[str, Any], kind_list: list[str], exclude_menu: list[str], notes: list[str]
) -> list[str]:
    """Tastes ruled out ("안 매운 떡볶이": the kind asked, its mild versions first — returned as the
    menus to prefer; "매운 거 못 먹어": the taste's kinds and the menus naming it ruled out, in
    ``frame`` and ``exclude_menu``), each said in ``notes``."""
    prefer_menu: list[str] = []
    for taste in (t for t in kinds().tastes if t.name in frame["tastes_avoided"]):
        if kind_list:
            prefer_menu += taste.mild
            notes.append(taste.note_mild)
        else:
            frame["exclude_kinds"] = list(dict.fromkeys([*frame["exclude_kinds"], *taste.kinds]))
            exclude_menu += [m for m in taste.menu if m not in exclude_menu]
            notes.append(taste.note_out)
    return prefer_menu


def offline_plan(state: AgentState, res: Resources) -> dict[str, Any]:
    """The raw plan the offline planner writes from NLU + location (validated afterwards)."""
    nlu = state.get("nlu") or NLUResult()
    ents = nlu.entities
    ctx = state.get("location")
    location: dict[str, Any] | None = None
    if ctx is not None:
        location = {
            "name": ctx.name or ctx.display_name or "지정 위치",
            "lat": ctx.lat,
            "lon": ctx.lon,
            "radius_m": ctx.radius_m,
            "mode": ctx.mode,
            "region_terms": ctx.region_terms,
        }
    price_min = nlu.price.min_won if nlu.price is not None else None
    price_max = nlu.price.max_won if nlu.price is not None else None
    time_spec = nlu.time
    if time_spec is None and _NOW_WORD.search(state.get("query", "")):
        # "지금 근처에 해장국": wanted now, so open now
        time_spec = TimeSpec(kind="now", label="지금")
    open_at, open_until, open_label = _open_at(time_spec, turn_now(state, res))
    intent = nlu.intent
    cuisine, menu, convenience = list(ents.category), list(ents.menu), list(ents.convenience)
    atmosphere, occasion = list(ents.atmosphere), list(ents.occasion)
    if nlu.party.with_children and "아이와" not in occasion:
        occasion.append("아이와")  # "아이랑", "애들 데리고": places reviews call good with children first
    query = state.get("query", "")
    notes: list[str] = []
    reading = understanding_of(state)
    frame = _kind_frame(query, nlu, reading.kinds)
    kind_list: list[str] = list(frame["kinds"])
    kind_dishes: list[str] = list(frame["kind_dishes"])
    if frame["theme"] and ents.title:
        kind_list, kind_dishes = [], []  # "중앙해장 몇 시에 열어?": the word is in a restaurant's name
    elif frame["theme"] and [m for m in menu if not frame["is_covered"](m)]:
        kind_list, kind_dishes = [], []  # a dish named ("국물 요리, 라멘") is the request, not the family
    elif frame["theme"]:
        notes.append(frame["theme"])
    notes += [said_as(typo, word) for typo, word in frame["corrections"] if kinds().lookup(word)]
    if kind_list or frame["exclude_kinds"]:
        # the kind stands for the words it was named by: "치킨집" is not a menu filter "치킨"
        menu = [m for m in menu if not frame["is_covered"](m)]
        if kind_list:
            cuisine = []
        # "짬뽕 맛있는 중국집": a dish of the kind said beside the kind's own word narrows it to
        # the places listing the dish (the rest follow when too few do, said so)
        # "마라샹궈": a dish only some places of its kind serve must be on the menu too
        by_word = {got[0] for w in frame["words"] if (got := kinds().lookup(w)) is not None and not got[1]}
        menu += [
            d
            for d in kind_dishes
            if ((kinds().lookup(d) or ("", False))[0] in by_word or kinds().is_sub_dish(d)) and d not in menu
        ]
    for name in [] if frame["theme"] else kind_list:  # a narrow kind's own word lets its broader
        kind = kinds().by_name.get(name)  # kind's menus stand in (a theme's family: its kinds only)
        if kind is not None and kind.parent and kind.words and not kind_dishes:
            kind_dishes.append(kind.words[0])
    exclude_menu = [m for m in frame["exclude_menu"] if m]
    exclude_menu += [t for t in reading.acts.tastes_ruled_out if t not in exclude_menu]
    if frame["eat_in"]:  # "배달 말고": delivery-only places out, said
        notes.append(kinds().eat_in.note)  # the filter itself is the plan's eat_in (plan.to_requests)
    prefer_menu = _apply_tastes(frame, kind_list, exclude_menu, notes)
    # "korean bbq" is not the brand BBQ; a brand ruled out ("맥날 버거킹 이런거 말고") is not asked about
    ruled_out = {norm(b) for b in frame["exclude_brands"]}
    titles = [t for t in ents.title if not frame["is_covered"](t) and norm(t) not in ruled_out]
    if not titles and frame["brands"] and not kind_list:
        # a chain asked for by its nickname ("맘터 천호"): its branches, like a name
        titles = list(frame["brands"])
        intent = "information"
    if ents.title and not titles and intent in ("information", "compare"):
        intent = "search"
    place_words = {ctx.name} if ctx is not None and ctx.name else set()  # an address region ("노형동")
    unused = [t for t in nlu.unknown_terms if not frame["is_covered"](t) and t not in place_words]
    searches = state.get("searches") or []
    carried_k: int | None = None
    exclude_ids: list[str] = []
    sort = nlu.order or "relevance"
    if state.get("anchor") == "place":
        intent = "search"  # "세번째 집 근처에 카페 있어?" is a search around it, not a question
        around = next(
            (
                d
                for h in state.get("context") or []
                if (d := res.index.get(h["id"])) and ctx and d.title == ctx.name
            ),
            None,
        )
        if around is not None and len(kind_list) > 1:
            # "그 족발집 근처 호프집": the kind that named the restaurant is not searched for
            kind_list = [k for k in kind_list if k not in around.kinds] or kind_list
    if state.get("compare_titles"):
        titles, intent = list(state.get("compare_titles") or []), "compare"
    if state.get("refine") and searches:
        # narrowing: keep the previous search's topic and place, add this turn's constraints
        prev = _frame_of(searches[-1])
        cuisine = list(dict.fromkeys([*prev.cuisine, *cuisine]))
        menu = list(dict.fromkeys([*prev.menu, *menu]))
        dropped: list[str] = []
        # "주차말고 포장되는 데로 바꿔줘": a condition said before 말고/대신 is replaced
        replaced = [
            c
            for c in prev.convenience
            if re.search(rf"{re.escape(c)}\S*\s*(?:은|는)?\s*(?:말고|빼고|대신|아니고)", query)
        ]
        if replaced:
            convenience = [c for c in convenience if c not in replaced]
            prev = prev.model_copy(update={"convenience": [c for c in prev.convenience if c not in replaced]})
            notes.append(f"'{', '.join(replaced)}' 조건은 빼고 찾았어요.")
        if reading.acts.drops:
            # "주차 안 돼도 괜찮아": the conditions this message names leave the frame
            dropped = [*convenience, *atmosphere, *occasion]
            convenience, atmosphere, occasion = (
                [c for c in prev.convenience if c not in dropped],
                [a for a in prev.atmosphere if a not in dropped],
                [o for o in prev.occasion if o not in dropped],
            )
            if dropped:
                notes.append(f"'{', '.join(dropped)}' 조건은 빼고 찾았어요.")
        else:
            convenience = list(dict.fromkeys([*prev.convenience, *convenience]))
            atmosphere = list(dict.fromkeys([*prev.atmosphere, *atmosphere]))
            occasion = list(dict.fromkeys([*prev.occasion, *occasion]))
        if not kind_list:
            kind_list, kind_dishes = list(prev.kinds), list(prev.kind_dishes)
        intent = "search"
        if location is None and prev.location is not None:
            location = prev.location.model_dump(mode="json")
        if nlu.price is None and (prev.price_min is not None or prev.price_max is not None):
            price_min, price_max = prev.price_min, prev.price_max
        # a refinement keeps every slot it does not change: what was ruled out, the count, the time
        for key in ("exclude_kinds", "exclude_cuisine", "exclude_titles"):
            frame[key] = list(dict.fromkeys([*getattr(prev, key), *frame[key]]))
        exclude_menu = list(dict.fromkeys([*prev.exclude_menu, *exclude_menu]))
        frame["exclude_chains"] = frame["exclude_chains"] or prev.exclude_chains
        if nlu.count is None:
            carried_k = prev.k
        if open_at is None and prev.open_at is not None:
            open_at, open_until, open_label = prev.open_at, prev.open_until, prev.open_label
        if state.get("page"):
            # "다른 데는?": the same search without what was already shown for it
            exclude_ids = [
                *prev.exclude_ids,
                *(h["id"] for h in searches[-1].get("hits") or []),
            ]
            notes.append("앞에서 보여 드린 곳은 빼고 찾았어요.")
        if state.get("anchor") == "closer":
            on_screen = state.get("context") or searches[-1].get("hits") or []
            far = [h.get("distance_m") for h in on_screen]
            known = [d for d in far if d is not None]
            if location is not None and known:
                location["radius_m"] = max(100, int(max(known)) - 1)
                location["mode"] = "near"
                location["region_terms"] = []
                sort = "distance"
                notes.append(f"앞에서 보여 드린 곳보다 가까운 곳({_km(int(max(known)))} 이내)으로 찾았어요.")
    elif searches and intent == "search" and not titles:
        prev = _frame_of(searches[-1])
        no_topic = not (kind_list or menu or cuisine or convenience or atmosphere or occasion)
        if no_topic and not _GENERIC.search(query) and (prev.kinds or prev.menu or prev.cuisine):
            # a follow-up that names no food ("5개 보여줘", "이번엔 송파역 쪽으로", "더 싼 데는?")
            # keeps the previous search's topic and what it ruled out
            kind_list, kind_dishes = list(prev.kinds), list(prev.kind_dishes)
            menu, cuisine = list(prev.menu), list(prev.cuisine)
            for key in ("exclude_kinds", "exclude_cuisine", "exclude_titles"):
                frame[key] = list(dict.fromkeys([*getattr(prev, key), *frame[key]]))
            exclude_menu = list(dict.fromkeys([*prev.exclude_menu, *exclude_menu]))
            frame["exclude_chains"] = frame["exclude_chains"] or prev.exclude_chains
            if location is None and prev.location is not None:
                location = prev.location.model_dump(mode="json")
    cheaper = False
    if searches and reading.acts.cheaper and _same_topic(frame, ents.menu, searches[-1]):
        # "더 싼 데": below the dearest place shown, by each place's median menu price (a
        # refinement, never a duplicate); the places shown are left out
        shown = _typical_prices(res, searches[-1].get("hits") or [], [])
        bound = max(1000, max(shown) - 1) if shown else None
        if bound is not None and (price_max is None or price_max > bound):
            price_max = bound
            cheaper = True
            exclude_ids = [*exclude_ids, *(h["id"] for h in searches[-1].get("hits") or [])]
            notes.append(f"앞에서 보여 드린 곳보다 싼 곳(메뉴 가격 중간값 {bound:,}원 이하)으로 찾았어요.")
        # "가격대 낮춰서": the words that asked for it are no condition the data lacks
        said = reading.acts.cheaper_words
        unused = [t for t in unused if not any(t[:1] in w for w in said)]
    if nlu.price is not None and nlu.price.per_person and nlu.price.max_won is not None:
        # "1인 2만원": a budget per person, checked against each place's typical dish price
        notes.append(per_person_note(nlu.price.label))
    if nlu.party.size is not None and nlu.party.size >= res.config.party_note_min:
        # "20명 회식", "우리 여섯이": seats are not in the data; said, never silently ignored
        notes.append(party_note(nlu.party.size))
    no_break = _NO_BREAK.search(query) is not None
    seed, seed_notes = seed_plan_fields(state, res, location)
    notes += seed_notes
    if seed.get("strategy"):
        # "코스", "걸어서", "가는 길" are how to search, not words the data should hold
        unused = [t for t in unused if not is_strategy_word(t)]
    k = (
        nlu.count
        if nlu.count
        else carried_k
        if carried_k is not None
        else (
            res.config.information_k if intent == "information" and not ents.title else res.config.default_k
        )
    )
    return {
        "cheaper": cheaper,
        "intent": intent,
        "location": location,
        "titles": titles,
        "kinds": kind_list,
        "kind_dishes": kind_dishes,
        "exclude_kinds": frame["exclude_kinds"],
        "exclude_cuisine": frame["exclude_cuisine"],
        "exclude_menu": exclude_menu,
        "exclude_titles": frame["exclude_titles"],
        "avoid_tastes": frame["tastes_avoided"],  # places named for the taste out ("매운갈비찜")
        "eat_in": frame["eat_in"],
        "exclude_chains": frame["exclude_chains"],
        "unused_terms": [t for t in unused if not (no_break and t.startswith("브레이크"))],
        "no_break": no_break,
        "prefer_menu": prefer_menu,
        "carry_notes": notes,
        "cuisine": cuisine,
        "menu": menu,
        "convenience": convenience,
        "atmosphere": atmosphere,
        "occasion": occasion,
        "semantic": "",
        "price_min": price_min,
        "price_max": price_max,
        "open_at": open_at,
        "open_until": open_until,
        "open_label": open_label,
        "k": k,
        "per_title_k": res.config.compare_k,
        "sort": sort,
        "exclude_ids": exclude_ids,
        **seed,
    }


_OFFLINE_ONLY = (
    "kinds",
    "exclude_ids",
    "kind_dishes",
    "exclude_kinds",
    "exclude_cuisine",
    "exclude_menu",
    "exclude_titles",
    "exclude_chains",
    "avoid_tastes",
    "eat_in",
    "unused_terms",
    "open_until",
    # seed 003's strategies: an LLM plan may choose the strategy, its fields are the offline reading's
    "strategy",
    "route",
    "travel",
    "course",
    "overseas",
    "caution",
)


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
        # only a verbatim repeat reuses the results; a reworded one searches again
        if rec.get("signature") == sig and "".join(str(rec.get("query", "")).split()) == said:
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


def _rating_key(h: SearchHit) -> float:
    d = h.document
    return (d.rating or 0.0) + 0.001 * (d.review_count or 0)


def _brand(title: str, res: Resources) -> str:
    """The chain a restaurant belongs to, as the NLU vocabulary knows it ("교촌치킨 잠실점" → 교촌치킨);
    otherwise its name without the branch word."""
    info = res.nlu.vocabulary.title_info(title)
    if info is not None and info.brand:
        return info.brand
    words = title.split()
    if len(words) > 1 and words[-1].endswith(BRANCH_SUFFIXES):
        words = words[:-1]
    return "".join(words).lower()


def _one_per_brand(hits: list[SearchHit], k: int, res: Resources) -> list[SearchHit]:
    """At most one branch of a chain among the first ``k`` (more only when nothing else is left)."""
    seen: set[str] = set()
    first: list[SearchHit] = []
    rest: list[SearchHit] = []
    for h in hits:
        b = _brand(h.document.title, res)
        (rest if b in seen else first).append(h)
        seen.add(b)
    return (first + rest)[:k]


def _kind_strength(h: SearchHit, wanted: list[str]) -> int:
    """0: the category path says the kind; 1: the name does; 2: the menu or a sub-kind, or a
    category the kind counts only weakly (``weak_category``); 3: none.

    A name or menu match is weaker (2, 3) when the category path says something else — another,
    unrelated kind ("양식>햄버거" for "…버거펍" asked as a 호프) or another cuisine ("일식" for
    "타코몽" asked as tacos).
    """
    table = kinds()
    doc = h.document
    source = {ev.value: ev for ev in doc.evidence if ev.field == "kind"}
    related = table.related(wanted)
    other = any(
        ev.source == "category" and k not in related and not (k in table.by_name and table.by_name[k].broad)
        for k, ev in source.items()
    )
    best = 3
    for kind in wanted:
        ev = source.get(kind)
        for _ in range(3):  # a parent kind is as strong as the child it comes from
            if ev is None or not ev.source.startswith("kind:"):
                break
            ev = source.get(ev.span)
        if ev is None:
            continue
        rank = {"category": 0, "title": 1}.get(ev.source, 2)
        if rank > 0 and (other or table.contradicts(doc.category, kind)):
            rank += 1
        if table.weakly(doc.category, kind, doc.title):
            rank = max(rank, 2)
        best = min(best, rank)
    return best


def _broader(names: list[str]) -> list[str]:
    """The parents of ``names`` when every one has a parent, else ``[]``."""
    table = kinds()
    parents = [table.by_name[k].parent if k in table.by_name else None for k in names]
    return [x for x in dict.fromkeys(parents) if x] if all(parents) else []


def _typical_price(doc: Restaurant, wanted: list[str]) -> int | None:
    """The median of the priced menu lines — of the wanted kinds' dishes when there are any."""
    menus = doc.priced_menus()
    dishes = [w for k in wanted for w in kinds().dish_words(k)]
    own = [m.price for m in menus if m.price is not None and any(w in m.name for w in dishes)]
    prices = own or [m.price for m in menus if m.price is not None]
    return round(statistics.median(prices)) if prices else None  # even count: the middle two's mean


def _same_topic(frame: dict[str, Any], menu: list[str], rec: SearchRecord) -> bool:
    """ "더 싼 데", "더 싼 고깃집은?": the food of the previous search, or none named; "홍대 저렴한
    파스타" after a search for 고깃집 is a new search, not cheaper than the 고깃집 shown."""
    prev = _frame_of(rec)
    own = set(frame["kinds"])
    if own and not own <= kinds().related(prev.kinds):
        return False
    return all(m in prev.menu for m in menu)


def _typical_price_ok(h: SearchHit, p: SearchPlan, overall: bool = False) -> bool:
    """The typical price (:func:`_typical_price`; of the whole menu when ``overall``) is within the
    plan's price range."""
    mid = _typical_price(h.document, [] if overall else p.kinds)
    if mid is None:
        return False
    return (p.price_max is None or mid <= p.price_max) and (p.price_min is None or mid >= p.price_min)


def chain_names(res: Resources) -> list[str]:
    """Brand names with three or more branches in the data, and the franchise brands of
    ``data/chains.toml`` (excluded by "체인점 말고")."""
    in_data = [b for b, titles in res.nlu.vocabulary.brands().items() if len(titles) >= 3 and len(b) >= 2]
    listed = [b for b in chain_rules().brands if len(b) >= 3]
    return list(dict.fromkeys([*in_data, *listed]))


def _branches(res: Resources, head: str) -> int:
    """How many places of the data carry the brand of ``head`` (a name without its branch word)."""
    vocabulary = res.nlu.vocabulary
    info = vocabulary.title_info(head)
    brand = info.brand if info is not None and info.brand else head
    return len(vocabulary.brands().get(brand, []))


_NO_BREAK = re.compile(r"브레이크\s*(?:타임)?\s*(?:이|가|는)?\s*(?:없|안\s*하|안하|노)|휴게\s*시간\s*없")


def _break_on(doc: Restaurant, weekday: int) -> bool:
    """The parsed hours state a break that day."""
    hours = doc.hours
    day = hours.days.get(weekday) if hours is not None and hours.parsed else None
    return day is not None and bool(day.breaks)


def _may_fill_wider(p: SearchPlan, state: AgentState, res: Resources) -> bool:
    """A short list around a place may be filled from a wider circle: a plain radius search, not
    "더 가까운 데" and not one already widened (relaxation's cap holds)."""
    loc = p.location
    return (
        p.strategy == "radius"
        and loc is not None
        and loc.by_radius
        and loc.lat is not None
        and loc.lon is not None
        and loc.radius_m is not None
        and loc.radius_m < res.config.widen_cap_m
        and not p.titles
        and state.get("anchor") != "closer"
        and not any("넓혔어요" in n or "넓혀" in n for n in state.get("relax_notes") or [])
    )


def _all_kinds_if_qualified(h: SearchHit, p: SearchPlan) -> bool:
    """A kind that qualifies another ("비건 디저트"): the place must be both; otherwise any kind does."""
    table = kinds()
    if len(p.kinds) < 2 or not any(table.by_name[k].conjunctive for k in p.kinds if k in table.by_name):
        return True
    return all(k in h.document.kinds for k in p.kinds)


def _outside_dong(hits: list[SearchHit], p: SearchPlan, res: Resources) -> set[str]:
    """Place ids of ``hits`` across the border of the dong asked ("방이동 치킨": a place in 오금동
    within the radius), when the dong has an outline (Seoul's legal dongs); else none."""
    loc = p.location
    if loc is None or loc.lat is None or loc.lon is None:
        return set()
    dong = next(
        (
            c
            for c in res.gazetteer.lookup(loc.name)
            if c.type == PlaceType.LEGAL_DONG and abs(c.lat - loc.lat) < 1e-6 and abs(c.lon - loc.lon) < 1e-6
        ),
        None,
    )
    located = [(h, h.document.lat, h.document.lon) for h in hits]
    points = [(h, lat, lon) for h, lat, lon in located if lat is not None and lon is not None]
    if dong is None or not points:
        return set()
    inside = res.gazetteer.contains_points(dong, [lat for _, lat, _ in points], [lon for _, _, lon in points])
    if inside is None:
        return set()
    return {h.document.place_id for (h, _, _), ok in zip(points, inside, strict=True) if not ok}


def _each_kind_in_turn(
    hits: list[SearchHit], wanted: list[str], rank: Callable[[SearchHit], tuple[float, ...]]
) -> list[SearchHit]:
    """Two kinds asked ("브런치 카페", "텐동 규동"): among equally good places, a kind not shown yet
    comes next, so one kind's many places cannot hide the other's."""
    tier = {id(h): rank(h)[:5] for h in hits}  # each hit ranked once (rank reads its menu)
    out: list[SearchHit] = []
    shown: set[str] = set()
    rest = list(hits)
    while rest:
        top = tier[id(rest[0])]
        pick = next(
            (
                h
                for h in rest
                if tier[id(h)] == top and any(k in h.document.kinds and k not in shown for k in wanted)
            ),
            rest[0],
        )
        out.append(pick)
        shown.update(k for k in wanted if k in pick.document.kinds)
        rest.remove(pick)
    return out


def _neighbours(
    hits: list[SearchHit], p: SearchPlan, req: SearchRequest, res: Resources, notes: list[str]
) -> list[SearchHit]:
    """Too few of the kind ("잠실 카페": four cafés in the crawl): restaurants of its neighbouring
    kinds whose menu names one of the kind's menu words (a bakery selling coffee), said so."""
    table = kinds()
    wanted = [table.by_name[k] for k in p.kinds if k in table.by_name]
    near = list(dict.fromkeys(n for k in wanted for n in k.neighbours))
    if not near:
        return []
    more = res.index.search(
        req.model_copy(
            update={
                "kind": near,
                "k": MAX_K,
                "exclude_ids": [*req.exclude_ids, *(h.document.place_id for h in hits)],
            }
        )
    )
    said: dict[str, str] = {}
    for h in more.hits:
        word = table.stands_in(p.kinds, h.document.kinds, [m.name for m in h.document.menus])
        if word is not None:
            said[h.document.place_id] = word
    extra = _not_ruled_out_by_category([h for h in more.hits if h.document.place_id in said], p, res)
    if extra:
        kind_label = ", ".join(k.name for k in wanted)
        first = said[extra[0].document.place_id]
        notes.append(
            f"{kind_label}(으)로 분류된 곳이 {len(hits)}곳뿐이라, 메뉴에 '{first}' 같은 메뉴가 있는 "
            f"{', '.join(near)}도 함께 찾았어요."
        )
    return extra


def _not_ruled_out_by_category(hits: list[SearchHit], p: SearchPlan, res: Resources) -> list[SearchHit]:
    """Hits whose category path does not say a brand ruled out: "체인 말고" rules out a franchise
    Kakao files under its brand ("치킨>본스치킨", one branch in the data), "뚜레쥬르 말고" a place filed
    under 뚜레쥬르 whatever its name."""
    franchises = res.nlu.vocabulary.franchise_leaves if p.exclude_chains else frozenset()
    brands = [compact(t) for t in p.exclude_titles if len(compact(t)) >= 2]
    if not franchises and not brands and not p.exclude_chains:
        return hits
    rules = chain_rules()

    def ruled_out(h: SearchHit) -> bool:
        category = h.document.category
        leaf = category_leaf(category)
        if p.exclude_chains and rules.is_chain(h.document.title, lambda head: _branches(res, head)):
            return True  # "○○ 잠실점", a listed franchise brand
        return (leaf is not None and leaf in franchises) or any(b in compact(category) for b in brands)

    return [h for h in hits if not ruled_out(h)]


def _review_mentions(hits: list[SearchHit], terms: list[str]) -> set[str]:
    """Place ids among ``hits`` whose review sentences mention one of ``terms`` (BM25 over sentences)."""
    if not terms or not any(h.document.reviews for h in hits):
        return set()
    from matjip.index.review_search import ReviewIndex

    index = ReviewIndex([h.document for h in hits if h.document.reviews])
    return {hit.place_id for t in terms for hit in index.search(t, k=len(hits))}


def search_general(state: AgentState, res: Resources) -> dict[str, Any]:
    """All entities as filters, atmosphere/occasion as semantic text, k results (docs/design.md).

    A kind is a hard filter; when too few restaurants of the kind are found and the kind was named
    by a dish that others serve too ("짜장면"), places whose menu names the dish follow. Branches of
    one chain are not repeated unless nothing else is left.
    """
    p = state_plan(state)
    if p.overseas:
        return search_abroad(state, res)
    if p.strategy == "route":
        return search_route(state, res)
    if p.strategy == "point_travel":
        return search_travel(state, res)
    if p.strategy == "course":
        return search_course(state, res)
    chains = chain_names(res) if p.exclude_chains else []
    req = to_requests(p, chains)[0]
    page_all = p.price_max is not None or bool(p.prefer_menu)
    # room to re-rank (by index.ranking) and filter
    more_k = MAX_K if page_all else min(MAX_K, max(RERANK_DEPTH, req.k * 3))
    wide = req.model_copy(update={"k": more_k}) if not p.titles else req
    resp = res.index.search(wide)
    fetched = list(resp.hits)
    if len(req.kind) > 1 and not p.titles:
        # "브런치 카페": each kind fetched on its own, so the likelier one cannot crowd the other
        # out of the page that is re-ranked below
        seen = {h.document.place_id for h in fetched}
        for kind in req.kind:
            for h in res.index.search(wide.model_copy(update={"kind": [kind]})).hits:
                if h.document.place_id not in seen:
                    seen.add(h.document.place_id)
                    fetched.append(h)
    hits = [h for h in _not_ruled_out_by_category(fetched, p, res) if _all_kinds_if_qualified(h, p)]
    detail: dict[str, Any] = {"took_ms": resp.took_ms, "candidates": resp.total_candidates}
    if p.kinds and p.kind_dishes and len(hits) < p.k:
        more = res.index.search(
            req.model_copy(
                update={
                    # a narrow kind's broader kind whose menu names the dish ("한우" on a 고깃집's
                    # menu), or — for a dish others serve too — any menu naming it
                    "kind": _broader(p.kinds),
                    "menu": [*req.menu, p.kind_dishes[0]],
                    "exclude_ids": [*req.exclude_ids, *(h.document.place_id for h in hits)],
                }
            )
        )
        hits += _not_ruled_out_by_category(list(more.hits), p, res)
        detail["dish_fallback"] = len(more.hits)
    notes: list[str] = []
    plan_update: dict[str, Any] = {}
    farther: set[str] = set()  # filled from a wider circle: after the near ones
    listed: set[str] = set()
    if p.kinds and req.menu and len(hits) < p.k and not p.titles:
        # "이자카야 하이볼": a dish beside the kind narrows it; when too few list the dish, the
        # kind's other restaurants follow, and the answer says so
        rest = res.index.search(
            req.model_copy(
                update={"menu": [], "exclude_ids": [*req.exclude_ids, *(h.document.place_id for h in hits)]}
            )
        )
        rest_hits = _not_ruled_out_by_category(list(rest.hits), p, res)
        if rest_hits:
            listed = {h.document.place_id for h in hits}  # these list the dish: first
            hits += rest_hits
            detail["menu_topup"] = len(rest_hits)
            plan_update.update({"menu": [], "semantic": " ".join([p.semantic, *req.menu]).strip()})
            said = ", ".join(f"'{m}'" for m in req.menu)
            found = len(hits) - len(rest_hits)
            notes.append(
                f"메뉴에 {said}이(가) 있는 곳은 {found}곳뿐이라, 나머지는 그 조건 없이 찾았어요."
                if found
                else f"메뉴에 {said}이(가) 있는 곳은 찾지 못해서, 그 조건 없이 찾았어요."
            )
    if p.kinds and len(hits) < p.k and not p.titles and not req.menu:
        hits += _neighbours(hits, p, req, res, notes)
    if 0 < len(hits) < p.k and _may_fill_wider(p, state, res):
        # "강남역 오마카세": one within 1 km; the next ones a little further, said so, nearest first
        loc = p.location
        assert loc is not None and loc.radius_m is not None and loc.lat is not None and loc.lon is not None
        wider = int(min(loc.radius_m * res.config.widen_factor, res.config.widen_cap_m))
        geo = GeoFilter(lat=loc.lat, lon=loc.lon, radius_m=float(wider))
        shown_ids = [*req.exclude_ids, *(h.document.place_id for h in hits)]
        more = res.index.search(
            wide.model_copy(update={"geo": geo, "exclude_ids": shown_ids, "sort": "distance"})
        )
        extra = [
            h for h in _not_ruled_out_by_category(list(more.hits), p, res) if _all_kinds_if_qualified(h, p)
        ]
        if extra:
            notes.append(
                f"{loc.name} {_km(loc.radius_m)} 안에는 {len(hits)}곳뿐이라, {_km(wider)}까지 넓혀 더 찾았어요."
            )
            hits += extra
            farther = {h.document.place_id for h in extra}
            plan_update["location"] = loc.model_copy(update={"radius_m": wider})
            p = p.model_copy(update={"location": plan_update["location"]})
    if p.no_break:
        # "브레이크타임 없는": the crawl rarely writes a break down, so only a break it states rules a
        # place out, one it states there is none for comes first, and the answer says so
        day = (p.open_at or turn_now(state, res)).weekday()
        before = len(hits)
        hits = [h for h in hits if not _break_on(h.document, day)]
        hits.sort(
            key=lambda h: 0 if _NO_BREAK.search(h.document.hours.raw if h.document.hours else "") else 1
        )
        notes.append(
            "브레이크타임은 영업시간에 적어 둔 곳이 거의 없어서 확인할 수 없어요"
            + (f" (쉬는 시간이 적혀 있는 {before - len(hits)}곳은 뺐어요)" if before > len(hits) else "")
            + ". 가기 전에 확인해 주세요."
        )
    if p.price_max is not None:
        # "만원 이하": the place's typical price, not one cheap side dish, must be within budget
        hits = [h for h in hits if _typical_price_ok(h, p, overall=bool(state.get("cheaper")))]
    if p.sort == "rating":
        hits.sort(key=_rating_key, reverse=True)
    elif p.sort == "price":
        # cheapest typical price first; places with no priced menu last
        hits.sort(key=lambda h: _typical_price(h.document, p.kinds) or math.inf)
    elif p.sort != "distance":
        # specialists first (a kind shown by the category or the name before one read off a
        # menu), then the places a local trusts (index.ranking: reviews, rating, the 맛 tag,
        # complete information), a little nearer a little better within the radius asked
        near = p.location is not None and p.location.by_radius
        radius = p.location.radius_m if near and p.location is not None else None
        outside = _outside_dong(hits, p, res) if near else set()
        tags = [t for w in [*p.atmosphere, *p.occasion] for t in vocab().tags_for(w)]
        mentioned = _review_mentions(hits, p.unused_terms)
        # a dish the user named beside its kind ("홍대 마제소바" → 라멘): the kind's places listing it first
        said = norm(state.get("query", ""))
        dish = next(
            (d for d in p.kind_dishes if norm(d) in said and (kinds().lookup(d) or ("", False))[1]), None
        )

        def dish_rank(h: SearchHit) -> int:
            if dish is None:
                return 0
            member = bool(set(p.kinds) & set(h.document.kinds))
            return 0 if member and menu_matches(h.document, [dish]) else 1 if member else 2

        # going now ("지금", or no time asked at night): closed or closing places after open ones
        turn = turn_now(state, res)
        asked = p.open_at
        now_ish = asked is not None and abs((asked - turn).total_seconds()) <= 15 * 60
        going_now = now_ish or (asked is None and is_night(turn))

        def rank(h: SearchHit) -> tuple[float, ...]:
            return (
                1 if h.document.place_id in farther else 0,
                -len(set(p.kinds) & set(h.document.kinds)) if len(p.kinds) == 2 else 0,  # both kinds first
                dish_rank(h),
                # the category or the name says the kind (one tier: "○○포차" is a 포차 to a local)
                max(1, _kind_strength(h, p.kinds)) if p.kinds else 0,
                0 if not p.kinds or set(p.kinds) & set(h.document.kinds) else 1,  # neighbours last
                0 if not listed or h.document.place_id in listed else 1,
                # a word no field records but reviews mention (seed 003): those places first
                0 if h.document.place_id in mentioned else 1,
                # visitors' tags back the wish ("데이트" → 분위기): those first, never a filter
                0 if not tags or any(h.document.review_keywords.get(t, 0) > 0 for t in tags) else 1,
                going_now_tier(h.document.hours, turn) if going_now else 0,
                local_key(h.document, h.distance_m, radius, h.document.place_id in outside),
            )

        hits.sort(key=rank)
        if len(p.kinds) > 1:
            hits = _each_kind_in_turn(hits, p.kinds, rank)
    if p.prefer_menu:  # "안 매운 떡볶이": places listing a mild version first (said in the answer)
        hits.sort(key=lambda h: 0 if any(menu_matches(h.document, [w]) for w in p.prefer_menu) else 1)
    hits = _one_per_brand(hits, p.k, res) if p.sort != "distance" else hits[: p.k]
    update: dict[str, Any] = {
        "hits": _records(hits, p),
        "_decision": f"{len(hits)} hits of {resp.total_candidates} candidates",
        "_detail": detail,
    }
    if not hits and res.places is not None and not p.titles and not _covers(p, res):
        # a domestic place the index does not cover at all: Kakao Local around it (never stored)
        live, info = live_nearby(p, res)
        update["live_cards"], update["strategy_info"] = live, info
        detail.update(info.model_dump(exclude_none=True, exclude_defaults=True))
        if live:
            update["_decision"] += f"; {len(live)} live places from kakao"
    if notes:
        update["relax_notes"] = [*(state.get("relax_notes") or []), *notes]
    if plan_update:
        # a dish now a preference, a radius filled wider: the grader reads the plan
        update["plan"] = p.model_copy(update=plan_update)
    if req.open_at is not None:
        # how many would have passed had their hours been known: said in the answer
        unknown = (
            res.index.search(
                req.model_copy(
                    update={"open_at": req.open_at.model_copy(update={"include_unknown": True}), "k": 1}
                )
            ).total_candidates
            - resp.total_candidates
        )
        update["unknown_hours"] = max(0, unknown)
    if req.geo is not None and len(hits) < p.k:
        # places matching everything but the distance that have no coordinates (an address-only
        # crawl): a nearness search cannot find them, and the answer says so
        rest = res.index.search(req.model_copy(update={"geo": None, "k": MAX_K, "sort": "relevance"}))
        update["no_coordinates"] = sum(
            1 for h in rest.hits if h.document.lat is None and _all_kinds_if_qualified(h, p)
        )
    return update


def _covers(p: SearchPlan, res: Resources) -> bool:
    """Does the index hold any restaurant at the plan's place (whatever the other filters)?"""
    base = to_requests(p.model_copy(update={"location": p.location}))[0]
    bare = SearchRequest(geo=base.geo, region=base.region, k=1)
    return (bare.geo is None and bare.region is None) or res.index.search(bare).total_candidates > 0


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


_SOFTNESS = ("open_at", "price", "menu", "cuisine")


def _km(m: int) -> str:
    return f"{m / 1000:g}km" if m >= 1000 else f"{m}m"


def _drop_filter(p: SearchPlan) -> tuple[SearchPlan, str | None]:
    """Drop the softest hard filter left and say so (the kind is never dropped, only widened to
    its broader kind: a 고깃집 never becomes a café)."""
    for name in _SOFTNESS:
        if name == "open_at" and p.open_at is not None:
            # the label goes with the filter: a heading never claims "지금 영업하는" once dropped
            return p.model_copy(update={"open_at": None, "open_until": None, "open_label": None}), (
                f"영업시간({p.open_label or '요청 시간'})"
            )
        if name == "price" and (p.price_min is not None or p.price_max is not None):
            return p.model_copy(update={"price_min": None, "price_max": None}), "가격"
        if name == "menu" and p.menu and (p.kinds or p.cuisine or len(p.menu) > 1):
            # the last word of what to eat is never dropped: "석촌 케밥집" never becomes any restaurant
            return (
                p.model_copy(
                    update={"menu": p.menu[:-1], "semantic": (p.semantic + " " + p.menu[-1]).strip()}
                ),
                f"메뉴 '{p.menu[-1]}'",
            )
        if name == "cuisine" and p.cuisine and (p.kinds or p.menu):
            return (
                p.model_copy(
                    update={"cuisine": [], "semantic": (p.semantic + " " + " ".join(p.cuisine)).strip()}
                ),
                f"음식 종류 '{', '.join(p.cuisine)}'",
            )
    table = kinds()
    parents = [table.by_name[k].parent for k in p.kinds if k in table.by_name]
    if p.kinds and all(parents):
        # a narrow kind found nothing: its broader kind ("오마카세" → "초밥·오마카세"), said so
        wider = list(dict.fromkeys(x for x in parents if x))
        return p.model_copy(
            update={"kinds": wider}
        ), f"'{', '.join(p.kinds)}'인 곳이 없어서 더 넓은 종류 '{', '.join(wider)}'(으)로 찾았어요."
    return p, None


def relax(state: AgentState, res: Resources) -> dict[str, Any]:
    """Nothing relevant: relax one step and say exactly what changed. The order: a convenience
    (the data rarely records one, so its absence says little), then a "near" radius (widened at
    most to ``widen_cap_m``), then the other filters from the softest. Every step announced is
    searched; when nothing is left to relax, ``relax_step`` goes past the maximum."""
    p = state_plan(state)
    step = int(state.get("relax_step") or 0) + 1
    notes = list(state.get("relax_notes") or [])
    update: dict[str, Any] = {"relax_step": step}
    loc = p.location
    cfg = res.config
    if p.strategy == "title" and loc is not None:
        p = p.model_copy(update={"location": None, "strategy": "title"})
        notes.append(f"{loc.name} 근처에서는 찾지 못해서 전체 지역에서 찾았어요.")
    elif p.convenience:
        dropped = p.convenience[-1]
        p = p.model_copy(update={"convenience": p.convenience[:-1]})
        notes.append(
            f"'{dropped}' 정보가 있는 곳이 없어서 그 조건은 빼고 찾았어요 (정보가 없을 뿐 안 될 수도, 될 수도 있어요)."
        )
    elif (
        loc is not None
        and loc.by_radius
        and p.strategy != "point_travel"  # the travel threshold, not the radius, is the limit
        and state.get("anchor") != "closer"  # "더 가까운 데" never widens past what was shown
        and loc.radius_m is not None
        and loc.radius_m < cfg.widen_cap_m
        and not any("넓혔어요" in n for n in notes)
    ):
        wider = int(min(loc.radius_m * cfg.widen_factor, cfg.widen_cap_m))
        p = p.model_copy(update={"location": loc.model_copy(update={"radius_m": wider})})
        notes.append(f"{loc.name} {_km(loc.radius_m)} 안에는 없어서 {_km(wider)}까지 넓혔어요.")
    else:
        p, dropped_name = _drop_filter(p)
        if dropped_name is None:
            update["relax_step"] = cfg.max_relax_steps + 1
            update["_decision"] = "nothing left to relax"
            return update
        notes.append(
            dropped_name
            if dropped_name.endswith("찾았어요.")
            else f"모든 조건에 맞는 곳이 없어서 {dropped_name} 조건을 빼고 찾았어요."
        )
    p = p.model_copy(update={"relaxed": notes[-5:]})
    update["plan"] = p
    update["relax_notes"] = notes
    update["_decision"] = notes[-1]
    emit("plan", p.model_dump(mode="json"))
    return update
