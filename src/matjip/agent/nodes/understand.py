"""Query input, NLU + location understanding, and the need-search decision (docs/design.md).

Offline, NLU runs before the need-search decision because the decision reads its signals
(ordinals, pronouns, new places or menus); it costs about a millisecond.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from matjip.agent.acts import (
    asks_cheaper,
    asks_closer,
    asks_compare,
    asks_other,
    asks_travel,
    branch_words,
    drops_condition,
    is_reaction,
    relative_marker,
    requires,
    travel_mode,
    where_question,
)
from matjip.agent.configuration import Resources
from matjip.agent.coverage import address_region, outside_place
from matjip.agent.location import GPS_DEFAULT_RADIUS_M, choice_context, pick_choice, resolve
from matjip.agent.models import Clarification, LocationContext
from matjip.agent.nodes.strategies import route_context
from matjip.agent.state import PER_TURN_RESET, AgentState, HitRecord, Replace, upgrade_conversation
from matjip.documents import Restaurant
from matjip.index.request import GeoFilter, RegionFilter, SearchRequest
from matjip.kinds import kinds, norm
from matjip.nlu.kinds import KindFrame, detect_kinds
from matjip.nlu.models import NLUResult
from matjip.nlu.normalize import normalize_query
from matjip.nlu.romanized import koreanize_places
from matjip.nlu.slots import parse_ordinals

_HANGUL = re.compile(r"[가-힣ㄱ-ㅎㅏ-ㅣ]")  # "ㄳㄳ", "ㅇㅋ" are Korean too
_LATIN = re.compile(r"[A-Za-z]")


def query_input(state: AgentState, res: Resources) -> dict[str, Any]:
    """Normalise the raw message and classify unusable input; reset per-turn fields."""
    text = normalize_query(state.get("query") or "")
    update: dict[str, Any] = {**PER_TURN_RESET, **upgrade_conversation(state)}
    update["turn"] = int(state.get("turn") or 0) + 1
    update["now"] = state.get("now") or res.now().isoformat()
    said = {"role": "user", "content": text[:2000]}
    kept = max(0, 2 * res.config.max_history_turns - 2)  # room for this turn's question and answer
    prior = list(state.get("messages") or [])
    # bounded history (agent/retention.py): past the limit, the list is replaced, not appended to
    update["messages"] = Replace([*prior[len(prior) - kept :], said]) if len(prior) > kept else [said]
    notes: list[str] = []
    if len(text) > res.config.max_query_chars:
        notes.append("too_long")
        text = text[: res.config.max_query_chars]
    if not text:
        update["reply"] = "empty"
    elif state.get("pending") and text.strip(" .").isdigit():
        pass  # "2" answers a pending clarification
    elif _LATIN.search(text):
        # English or mixed: romanised place names become Korean ones; dish words are read by the
        # kinds vocabulary, which lists English words too
        text = koreanize_places(text)
        if not _HANGUL.search(text) and not detect_kinds(text).kinds:
            # "ok thx" is small talk in any script; other English with no dish is not understood
            update["reply"] = "smalltalk:reaction" if is_reaction(text) else "not_korean"
    elif not _HANGUL.search(text):
        update["reply"] = "no_content"
    update["query"] = text
    update["_decision"] = update["reply"] or ("truncated" if notes else "ok")
    update["plan_notes"] = notes
    return update


def understand(state: AgentState, res: Resources) -> dict[str, Any]:
    """Intent and entities (NLU), then location: GPS, named place, carry-over or clarification."""
    if state.get("reply"):
        return {"_decision": "skipped"}
    text = state["query"]
    gps_raw = state.get("gps")
    gps = (float(gps_raw["lat"]), float(gps_raw["lon"])) if gps_raw else None
    history = list(state.get("location_history") or [])
    pending = state.get("pending")
    if pending is not None:
        if pending.kind == "place":
            choice = pick_choice(text, pending)
            if choice is not None:
                nlu = res.nlu.parse(pending.pending_query)
                ctx = choice_context(choice, pending, res.gazetteer, pending.pending_query)
                return {
                    "nlu": nlu,
                    "query": pending.pending_query,
                    "location": ctx,
                    "pending": None,
                    "resumed": True,
                    "_decision": f"clarification resolved: {choice.label}",
                }
        elif pending.kind == "where":
            answer_nlu = res.nlu.parse(text)
            if answer_nlu.entities.location or gps is not None:
                # "잠실역" answers "어느 동네에서 찾을까요?": the question resumes with the place
                combined = f"{text} {pending.pending_query}"
                nlu = res.nlu.parse(combined)
                outcome = resolve(nlu, combined, gps, history, res.gazetteer)
                if outcome.context is not None:
                    return {
                        "nlu": nlu,
                        "query": combined,
                        "location": outcome.context,
                        "pending": None,
                        "resumed": True,
                        "_decision": "place received",
                    }
        elif pending.kind == "gps" and gps is not None:
            nlu = res.nlu.parse(pending.pending_query)
            outcome = resolve(nlu, pending.pending_query, gps, history, res.gazetteer)
            if outcome.context is not None:
                return {
                    "nlu": nlu,
                    "query": pending.pending_query,
                    "location": outcome.context,
                    "pending": None,
                    "resumed": True,
                    "_decision": "gps received",
                }
    nlu = res.nlu.parse(text)
    if (
        res.llm is not None
        and res.llm.understands
        and not nlu.smalltalk
        and not _clear_follow_up(state, nlu, text)
    ):
        nlu = res.llm.understand(state, text, nlu)
    update: dict[str, Any] = {"nlu": nlu}
    has_new_content = bool(
        nlu.entities.location or nlu.entities.title or nlu.entities.menu or nlu.entities.category
    )
    if pending is not None and not has_new_content and not nlu.smalltalk:
        # the answer did not pick a candidate: ask again
        update["clarification"] = pending
        update["_decision"] = "clarification unresolved; asking again"
        return update
    if pending is not None:
        update["pending"] = None
    spec = nlu.strategy
    if spec.overseas and _abroad_beyond_titles(text, nlu.entities.title):
        # "오사카 도톤보리 타코야끼": 오사카 is the place, not a Seoul restaurant named 도톤보리
        # seed 003's provider split: abroad is Google's, or said plainly not supported
        if res.abroad is None:
            update["reply"] = f"overseas:{spec.overseas}"
            update["_decision"] = f"{spec.overseas} is abroad; no provider for places abroad"
        else:
            update["location"] = None
            update["_decision"] = f"{spec.overseas} is abroad: live search ({res.abroad.source})"
        return update
    start = route_context(nlu, res, gps)
    if start is not None:
        # "A에서 B 가는 길에": both ends are places; the route's search says what it finds
        update["location"] = start
        update["_decision"] = f"route {spec.origin}→{spec.destination}"
        return update
    pair = _brand_pair(nlu, text, res)
    if pair:
        # "청와옥 석촌호수직영점이랑 방이본점 중에": two branches of one brand, the brand said once
        update["nlu"] = nlu.model_copy(update={"intent": "compare"})
        update["compare_titles"] = pair
        update["_decision"] = f"compare {' vs '.join(pair)}"
        return update
    anchor = _anchor(state, res, nlu, text, history)
    if anchor is not None:
        update["location"], update["anchor"] = anchor
        update["_decision"] = f"{nlu.intent} (conf {nlu.confidence:.2f}), around {anchor[0].name}"
        return update
    outcome = resolve(nlu, text, gps, history, res.gazetteer, covered=lambda p: _covered(p, res))
    if (
        outcome.context is None
        and outcome.clarification is None
        and gps is not None
        and spec.strategy in ("point_travel", "course")
        and not nlu.entities.location
    ):
        # "지금 위치에서 차로 20분": a travel time or a course with no place is from the device
        outcome = replace(
            outcome, context=LocationContext(type="GPS", name="내 위치", lat=gps[0], lon=gps[1])
        )
    if (
        outcome.context is None
        and outcome.clarification is None
        and not outcome.unknown_place
        and gps is None
        and not state.get("searches")
        and _needs_place(nlu, text, res)
        and outside_place(text, lambda name: _name_covered(name, res))
        is None  # "시부야 라멘": a place outside the data is said so below
    ):
        # "치킨 맛집 어디야" with no place and no position: a list from anywhere would be arbitrary
        update["clarification"] = Clarification(kind="where", question=where_question(), pending_query=text)
        update["_decision"] = "clarify where: no place, no position"
        return update
    # a place far outside the data is said so, never searched as a menu word or elsewhere
    outside = outside_place(text, lambda name: _name_covered(name, res))
    if nlu.entities.title and (
        nlu.intent != "search" or any(t.replace(" ", "") != outside for t in nlu.entities.title)
    ):
        # a restaurant asked about by name ("도톤보리 잠실 영업시간", "전주식당"); "전주 비빔밥
        # 맛집" is a search in 전주
        outside = None
    if outside is not None and outcome.context is None and outcome.clarification is None:
        by_address = address_region(outside, text, res)
        if by_address is not None:  # the crawl covers it after all: search the addresses
            outside = None
            outcome = replace(outcome, context=by_address)
    if outside is None and outcome.context is None and outcome.clarification is None and not gps:
        # a dong, eup or si no gazetteer entry knows ("노형동 흑돼지") that the addresses name
        for term in nlu.unknown_terms:
            if _ADDRESS_WORD.fullmatch(term):
                by_address = address_region(term, term, res)
                if by_address is not None:
                    outcome = replace(outcome, context=by_address, unknown_place=None)
                    break
    if (
        outside is None
        and outcome.context is not None
        and outcome.context.place_type in ("admin_dong", "legal_dong")
        and outcome.context.name
        and res.web is None
        and res.places is None
        and not _context_covered(outcome.context, res)
    ):
        # a dong of the national gazetteer whose restaurants have addresses but no coordinates
        by_address = address_region(outcome.context.name, outcome.context.name, res)
        if by_address is not None:
            outcome = replace(outcome, context=by_address)
    if outcome.clarification is not None:
        update["clarification"] = outcome.clarification
        update["_decision"] = (
            f"clarify {outcome.clarification.kind}: {outcome.clarification.name or ''}".strip()
        )
    elif outside is not None:
        update["reply"] = f"outside:{outside}"
        update["_decision"] = f"{outside} is outside the data"
    elif outcome.unknown_place:
        update["reply"] = f"unknown_place:{outcome.unknown_place}"
        update["_decision"] = f"unknown place {outcome.unknown_place}"
    elif (
        outcome.context is not None
        and res.web is None
        and res.places is None
        and not _context_covered(outcome.context, res)
    ):
        # with a web provider the search runs and finds nothing, and the web fallback answers; with
        # Kakao Local the places around it come live
        name = outcome.context.name or outcome.context.display_name or "그곳"
        update["reply"] = f"outside:{name}"
        update["_decision"] = f"no restaurant in the data around {name}"
    else:
        update["location"] = outcome.context
        update["location_carried"] = outcome.carried
        update["plan_notes"] = [*(state.get("plan_notes") or []), *outcome.notes]
        update["place_note"] = outcome.first_line
        update["_decision"] = f"{nlu.intent} (conf {nlu.confidence:.2f})" + (
            f", location {outcome.context.display_name or outcome.context.name}" if outcome.context else ""
        )
    return update


def _clear_follow_up(state: AgentState, nlu: NLUResult, text: str) -> bool:
    """A follow-up the offline reading settles ("첫번째 집 몇시까지 해?", "거기랑 2번 비교",
    "오 맛있겠다 ㅋㅋ"): no LLM call is spent understanding or routing it."""
    if not state.get("context") or nlu.entities.location:
        return False
    return nlu.ordinal is not None or nlu.pronoun_ref or is_reaction(text)


def _anchor(
    state: AgentState, res: Resources, nlu: NLUResult, text: str, history: list[LocationContext]
) -> tuple[LocationContext, str] | None:
    """The centre a follow-up keeps or takes from the conversation, without asking for a position:

    * "2번 근처에 호프집", "거기서 걸어갈 수 있는 카페" → around the shown restaurant (``"place"``);
    * "좀 더 가까운 데" → the previous search's place (``"closer"``).
    """
    context = state.get("context") or []
    if not context or _places(nlu, text, res):
        return None
    if relative_marker(text) and _names_food(nlu, text):
        ref = _shown_ref(state, res, nlu, text)
        if ref is not None and ref.lat is not None and ref.lon is not None:
            radius = GPS_DEFAULT_RADIUS_M  # about ten minutes on foot
            ctx = LocationContext(
                type="CONTEXTUAL",
                name=ref.title,
                display_name=ref.title,
                place_type="restaurant",
                lat=ref.lat,
                lon=ref.lon,
                mode="near",
                radius_m=radius,
            )
            return ctx, "place"
    if state.get("searches") and asks_closer(text) and history:
        last = history[-1]
        if last.lat is not None and last.lon is not None:
            return last.model_copy(update={"mode": "near", "region_terms": []}), "closer"
    return None


def _earlier_list_ref(
    state: AgentState, nlu: NLUResult, text: str, named: KindFrame
) -> dict[str, Any] | None:
    """ "첫번째 이자카야 새벽까지 하나", "아까 카페 두번째는 몇시까지야?": an ordinal with a kind points
    into the latest list of that kind, which becomes the list the conversation is about."""
    searches = state.get("searches") or []
    if nlu.ordinal is None or len(nlu.ordinals) > 1 or not searches or relative_marker(text):
        return None
    if not named.kinds or named.exclude_kinds or nlu.entities.location:
        return None
    wanted = kinds().related(named.kinds)
    for rec in reversed(searches):
        frame = rec.get("frame") or rec.get("plan")
        hits = rec.get("hits") or []
        if frame is None or not hits or not wanted & set(frame.kinds):
            continue
        n = int(nlu.ordinal)
        idx = len(hits) - 1 if n == -1 else n - 1
        if not 0 <= idx < len(hits):
            return None
        if rec is searches[-1] and hits == (state.get("context") or []):
            return {"decision": "context", "_decision": "answer from context (reference)"}
        return {
            "decision": "context",
            "context": list(hits),
            "focus": hits[idx]["id"],
            "_decision": f"answer from context (the earlier list of {', '.join(frame.kinds)})",
        }
    return None


def _names_food(nlu: NLUResult, text: str) -> bool:
    return bool(detect_kinds(text).kinds or nlu.entities.menu or nlu.entities.category)


def _shown_ref(state: AgentState, res: Resources, nlu: NLUResult, text: str) -> Restaurant | None:
    """The shown restaurant an ordinal, a pronoun or a name in the message points at."""
    context = state.get("context") or []
    pick: str | None = None
    if nlu.ordinal is not None:
        n = int(nlu.ordinal)
        idx = len(context) - 1 if n == -1 else n - 1
        pick = context[idx]["id"] if 0 <= idx < len(context) else None
    elif nlu.entities.title:
        titles = _context_titles(state, res)
        wanted = [t.replace(" ", "") for t in nlu.entities.title]
        pick = next((pid for pid, t in titles.items() if any(w in t for w in wanted)), None)
    elif nlu.pronoun_ref or _PRONOUN.search(text):
        # "거기" is a restaurant only when one is in focus (the last answer was about it, or one
        # was shown); after a list it is the place searched ("거기 근처 양꼬치집도")
        pick = state.get("focus") or (context[0]["id"] if len(context) == 1 else None)
    elif state.get("focus") and _NEAR_THAT.search(text) and not _last_turn_searched(state):
        # "그 근처 카페도" right after an answer about one restaurant: near that restaurant (right
        # after a search it is the place searched)
        pick = state.get("focus")
    else:
        # "그 족발집 근처": the shown restaurant of the kind named after "그"
        m = re.search(r"(?<![가-힣])그\s*([가-힣]{1,8})", text)
        got = kinds().lookup(m.group(1)) if m else None
        if got is not None:
            of_kind = {got[0], *kinds().descendants(got[0])}
            focus = state.get("focus")
            ids = [focus, *(h["id"] for h in context)] if focus else [h["id"] for h in context]
            for pid in ids:  # the one the last answer was about first
                doc = res.index.get(pid)
                if doc is not None and of_kind & set(doc.kinds):
                    return doc
    return res.index.get(pick) if pick else None


def _places(nlu: NLUResult, text: str, res: Resources) -> list[str]:
    """The message's place names that are places: not a branch name ("석촌점") and not an
    ordinal the NLU took for a place ("두번째꺼")."""
    branches = branch_words(text)
    return [
        loc
        for loc in nlu.entities.location
        if res.gazetteer.best(loc) is not None and not any(loc in b for b in branches)
    ]


def _brand_pair(nlu: NLUResult, text: str, res: Resources) -> list[str]:
    """One restaurant named with its branch and a second branch of the same brand said bare."""
    if len(nlu.entities.title) != 1 or not (nlu.intent == "compare" or asks_compare(text)):
        return []
    first = nlu.entities.title[0]
    brand = _brand_of(first, res)
    if not brand:
        return []
    others = [b for b in branch_words(text) if b not in first]
    return [first, f"{brand} {others[0]}"] if others else []


def _needs_place(nlu: NLUResult, text: str, res: Resources) -> bool:
    """A kind found all over the data, asked with no place: ask where. A rare one ("비건 빵집")
    is searched everywhere."""
    if nlu.entities.title or nlu.intent != "search" or _SELLS.search(text):
        # "꼬막비빔밥 어디서 팔아": where it is sold at all is the question
        return False
    frame = detect_kinds(text)
    if not frame.kinds or frame.theme is not None:
        # "점심 먹을 데 추천", "맛집 추천": any restaurant anywhere would be arbitrary; a described
        # food ("다른 해장 음식") is a family of kinds, searched like a word, not asked where
        return bool(_GENERIC_FOOD.search(text)) and not nlu.entities.menu and not nlu.entities.category
    key = "kinds-everywhere:" + ",".join(sorted(frame.kinds))
    many = res.coverage.get(key)
    if many is None:
        total = res.index.search(SearchRequest(kind=frame.kinds, k=1)).total_candidates
        many = res.coverage[key] = total > res.config.where_min_results
    return many


_SELLS = re.compile(r"파는\s*(?:곳|데|집)|파는데|팔아|파나요|파나\?|파는지|팔지|판매하는|어디서\s*팔")
_ADDRESS_WORD = re.compile(r"[가-힣]{1,6}(?:동|읍|면|리|시|군|구)")


def _context_covered(ctx: LocationContext, res: Resources) -> bool:
    """Does the index hold a restaurant in the resolved place (radius or region)?"""
    if ctx.type == "GPS" or ctx.lat is None or ctx.lon is None:
        return True
    key = f"ctx:{ctx.mode}:{ctx.lat:.5f},{ctx.lon:.5f}:{ctx.radius_m}:{','.join(ctx.region_terms)}"
    hit = res.coverage.get(key)
    if hit is None:
        if ctx.mode == "in" and ctx.region_terms:
            req = SearchRequest(region=RegionFilter(name=ctx.name or "지역", terms=ctx.region_terms), k=1)
        else:
            radius = float(min(max(ctx.radius_m or 1000, 100), 3000))
            req = SearchRequest(geo=GeoFilter(lat=ctx.lat, lon=ctx.lon, radius_m=radius), k=1)
        hit = res.coverage[key] = res.index.search(req).total_candidates > 0
    return hit


def _name_covered(name: str, res: Resources) -> bool:
    """Does the index hold restaurants around the place a bare name means ("부산" after a Busan
    crawl)? The best few gazetteer places of the name are tried."""
    if any(_covered(p, res) for p in res.gazetteer.lookup(name)[:3]):
        return True
    return address_region(name, name, res) is not None  # a crawl without coordinates (issue 12)


def _covered(place: Any, res: Resources) -> bool:
    """Does the index hold any restaurant around ``place``? (cached per index, in the resources)"""
    key = getattr(place, "key", None) or f"{place.lat},{place.lon}"
    hit = res.coverage.get(key)
    if hit is None:
        radius = float(min(max(getattr(place, "default_radius_m", 1000) or 1000, 100), 20_000))
        resp = res.index.search(
            SearchRequest(geo=GeoFilter(lat=place.lat, lon=place.lon, radius_m=radius), k=1)
        )
        hit = res.coverage[key] = resp.total_candidates > 0
    return hit


def _titles_of(hits: Sequence[HitRecord], res: Resources) -> dict[str, str]:
    """Place id → title without spaces, for the records ``hits``."""
    out: dict[str, str] = {}
    for h in hits:
        doc = res.index.get(h["id"])
        if doc is not None:
            out[doc.place_id] = doc.title.replace(" ", "")
    return out


def _last_search_titles(state: AgentState, res: Resources) -> dict[str, str]:
    """Titles of the last search's results — a comparison's, when it kept the list."""
    searches = state.get("searches") or []
    return _titles_of(searches[-1].get("hits") or [], res) if searches else {}


def _context_titles(state: AgentState, res: Resources) -> dict[str, str]:
    return _titles_of(state.get("context") or [], res)


def need_search(state: AgentState, res: Resources) -> dict[str, Any]:
    """Search, or answer from the conversation's context (docs/design.md); an LLM may overrule
    the offline decision between the two when configured."""
    out = _need_search_offline(state, res)
    nlu = state.get("nlu") or NLUResult()
    if (
        res.llm is not None
        and res.llm.decides
        and state.get("context")
        and out.get("decision") in ("search", "context")
        and not state.get("anchor")
        and not out.get("compare_ids")
        and not _clear_follow_up(state, nlu, state.get("query", ""))
    ):
        llm = res.llm.decide(state, out["decision"] == "search")
        if llm is not None:
            out = {
                "decision": "search" if llm["need_search"] else "context",
                "_decision": f"llm: {llm['reason']}",
            }
    return out


def _need_search_offline(state: AgentState, res: Resources) -> dict[str, Any]:
    if state.get("reply"):
        small = str(state.get("reply")).startswith("smalltalk:")
        return {"decision": "reply", "_decision": "smalltalk" if small else "reply"}
    if state.get("clarification") is not None:
        return {"decision": "clarify", "_decision": "clarify"}
    nlu = state.get("nlu") or NLUResult()
    ents = nlu.entities
    context = state.get("context") or []
    text = state.get("query", "")
    searches = state.get("searches") or []
    new_topic = bool(ents.location or ents.menu or ents.category)
    named_frame = detect_kinds(text)  # once per turn: every rule below reads it
    kinds_named = named_frame.kinds
    if (
        nlu.smalltalk in ("thanks", "bye")
        and searches
        and not ents.location
        and not ents.title
        and nlu.ordinal is None
    ):
        # "오늘 치맥 ㄱㄱ 땡큐": thanks over the food already searched is a goodbye, not a search
        asked = [
            k for rec in searches if (f := rec.get("frame") or rec.get("plan")) is not None for k in f.kinds
        ]
        if kinds_named and set(kinds_named) <= kinds().related(asked):
            return {"decision": "reply", "reply": f"smalltalk:{nlu.smalltalk}", "_decision": "smalltalk"}
    if nlu.smalltalk and not (new_topic or ents.title or (nlu.smalltalk == "offtopic" and kinds_named)):
        return {"decision": "reply", "reply": f"smalltalk:{nlu.smalltalk}", "_decision": "smalltalk"}
    if not ents.location and is_reaction(text) and (context or ents.is_empty()):
        # "오 늦게까지 하네 ㅋㅋ": a reaction keeps the list and the focus
        return {"decision": "reply", "reply": "smalltalk:reaction", "_decision": "smalltalk"}
    anchor = state.get("anchor")
    if anchor == "place":
        return {"decision": "search", "_decision": "search around a shown restaurant"}
    if anchor == "closer" and searches:
        return {
            "decision": "search",
            "refine": True,
            "_decision": "search (narrow the previous search: closer)",
        }
    travel = _travel_question(state, res, nlu, text, kinds_named)
    if travel is not None:
        return travel
    if _asks_about_shown_elsewhere(state, nlu, text, kinds_named):
        # "두 번째 거기 강남역에서 몇 정거장이야?": a question about the shown one that names a place
        # is still about it; a search there would re-point "거기" to another restaurant
        return {"decision": "context", "_decision": "answer from context (reference naming a place)"}
    earlier = _earlier_list_ref(state, nlu, text, named_frame)
    if earlier is not None:
        return earlier
    explicit = [a for a in nlu.asked if a in ("hours", "price", "menu", "address", "phone")]
    if (
        context
        and explicit
        and not new_topic
        and not kinds_named
        and not (requires(text) or asks_other(text) or asks_closer(text) or asks_cheaper(text))
        and not nlu.followup_place
        and not (ents.title or nlu.ordinals or nlu.price or nlu.time or nlu.count)
        and not (nlu.intent == "compare" or asks_compare(text))
    ):
        # "몇시까지 하는데": a question about the one in focus ("-는데" ends the sentence, no "데" is sought)
        return {"decision": "context", "_decision": "answer from context (question about results)"}
    count_only = nlu.count is not None and not nlu.ordinals and not ents.title and "둘" not in text
    # "그 중에 포장되는거": a condition on the list is a refinement, not a comparison
    narrowing_only = (
        bool(ents.convenience or nlu.time or nlu.price or requires(text))
        and not nlu.ordinals
        and not ents.title
    )
    count_only = count_only or narrowing_only
    if (
        context
        and not count_only
        and not _places(nlu, text, res)
        and (nlu.intent == "compare" or asks_compare(text))
    ):
        compared = _compare_refs(state, res, nlu, text)
        if compared is not None:
            return compared
    branches = branch_words(text)
    if context and branches and not _places(nlu, text, res) and not ents.title:
        # "석촌점 삼겹살 얼마야" after 연탄부락 석촌점 was shown: that one
        shown = {**_context_titles(state, res), **_last_search_titles(state, res)}
        hit = next(
            (p for p, t in shown.items() if any(t.endswith(b.replace(" ", "")) for b in branches)), None
        )
        if hit is not None:
            return {"decision": "context", "focus": hit, "_decision": "answer from context (branch name)"}
    if searches and asks_other(text) and not new_topic and not kinds_named:
        return {
            "decision": "search",
            "refine": True,
            "page": True,
            "_decision": "search (narrow the previous search: next results)",
        }
    no_food = not (kinds_named or ents.menu or ents.category or ents.title or _GENERIC_FOOD.search(text))
    if (
        searches
        and no_food
        and nlu.ordinal is None
        and (not nlu.pronoun_ref or nlu.count is not None or _AMONG.search(text))  # "그중에 2개만"
        and (
            nlu.count is not None
            or requires(text)
            or drops_condition(text)
            or asks_cheaper(text)
            or _places(nlu, text, res)
        )
    ):
        # "5개 보여줘", "룸도 있어야됨", "합정역 쪽으로는?": the same search with one slot changed
        return {
            "decision": "search",
            "refine": True,
            "_decision": "search (narrow the previous search: one slot)",
        }
    refers = nlu.ordinal is not None or nlu.pronoun_ref
    named_one = refers or bool(_PRONOUN.search(text))  # "여기 혼밥가능?"
    if context and named_one and not ents.location and not kinds_named and (ents.atmosphere or ents.occasion):
        # "거기 혼술하기 좋음?": a question about the one referred to, not a narrower search
        return {"decision": "context", "_decision": "answer from context (reference)"}
    if context and named_one and not ents.location and _QUESTION.search(text) and not relative_marker(text):
        # "여기 소금빵도 팔아요?": a question about the one referred to, even when it names a dish
        return {"decision": "context", "_decision": "answer from context (reference)"}
    focus_id = state.get("focus")
    focus_doc = res.index.get(focus_id) if focus_id else None
    if focus_doc is not None and nlu.asked and not ents.location and not refers and _on_menu(focus_doc, text):
        # "평양냉면 얼마임" right after a question about one restaurant: its menu answers it
        return {"decision": "context", "_decision": "answer from context (the focus's menu)"}
    narrowing = bool(
        nlu.time is not None or nlu.price is not None or ents.atmosphere or ents.occasion
    ) or bool(ents.convenience and not nlu.ask)
    narrow_previous = context and narrowing and not new_topic and not ents.title
    if narrow_previous and nlu.ordinal is None and not nlu.ask and state.get("searches"):
        return {"decision": "search", "refine": True, "_decision": "search (narrow the previous search)"}
    if context:
        refers = nlu.ordinal is not None or nlu.pronoun_ref
        # "거기 삼겹살 얼마야?", "첫번째 카페 몇시까지해", "첫번째 곳 라면사리 무한이에요?"
        asks_about = (bool(nlu.ask) or _QUESTION.search(text) is not None) and not ents.location
        if refers and (not new_topic or asks_about) and not nlu.followup_place:
            return {"decision": "context", "_decision": "answer from context (reference)"}
        titles = ents.title
        if titles and not new_topic:
            known = _context_titles(state, res)
            wanted = [t.replace(" ", "") for t in titles]
            if all(any(w in k for k in known.values()) for w in wanted):
                return {"decision": "context", "_decision": "answer from context (known restaurant)"}
        about_results = (nlu.ask or ents.convenience) and not (new_topic or titles)
        if about_results and not nlu.followup_place and (nlu.intent != "search" or nlu.ask):
            return {"decision": "context", "_decision": "answer from context (question about results)"}
    has_anything = (
        not ents.is_empty()
        or bool(kinds_named)  # "비건 식당": a kind the vocabulary has no entity word for
        or state.get("location") is not None
        or nlu.price is not None
        or nlu.time is not None
    )
    if not has_anything and not context:
        return {"decision": "reply", "reply": "no_content", "_decision": "nothing to search for"}
    if not has_anything and context:
        return {"decision": "context", "_decision": "answer from context (no new entities)"}
    food = None if kinds_named or ents.menu or ents.title else _not_a_kind(text)
    if food is None and not (kinds_named or ents.menu or ents.category or ents.title):
        food = _unknown_food(text, nlu)
    if food is not None:
        # "잠실 조지아음식": the food is the request; any restaurant instead would be arbitrary
        return {"decision": "reply", "reply": f"unknown_food:{food}", "_decision": f"unknown food '{food}'"}
    return {"decision": "search", "_decision": "search"}


def _travel_question(
    state: AgentState, res: Resources, nlu: NLUResult, text: str, kinds_named: Sequence[str]
) -> dict[str, Any] | None:
    """ "두 번째 거기 잠실역에서 걸어가면 몇 분?": how long to a shown restaurant — answered for that
    restaurant from the context; the place named is where the way starts, never a new search."""
    context = state.get("context") or []
    if not context or not asks_travel(text) or kinds_named or nlu.entities.menu or nlu.entities.category:
        return None
    if len(nlu.ordinals) > 1 or nlu.intent == "compare" or asks_compare(text):
        return None  # "1번이랑 2번 중에 어디가 가까워?" is a comparison
    named = bool(nlu.entities.title) and _shown_ref(state, res, nlu, text) is not None
    pointed = nlu.ordinal is not None or nlu.pronoun_ref or _PRONOUN.search(text) is not None or named
    if not pointed and not (state.get("focus") or len(context) == 1):
        return None
    mode = travel_mode(text)
    return {"decision": "context", "travel": mode, "_decision": f"answer from context (travel, {mode})"}


_RULES_OUT = re.compile(r"말고|말구|빼고|대신|아니고|제외|ㄴㄴ")


def _asks_about_shown_elsewhere(
    state: AgentState, nlu: NLUResult, text: str, kinds_named: Sequence[str]
) -> bool:
    """A message that points at one shown restaurant (an ordinal, or "거기" with one in focus) and
    names a place, but no food, no other restaurant, no comparison, no nearness and no change to
    the list: a question about that restaurant."""
    context = state.get("context") or []
    ents = nlu.entities
    if not context or not ents.location or kinds_named or ents.menu or ents.category or ents.title:
        return False
    if len(nlu.ordinals) > 1 or nlu.intent == "compare" or asks_compare(text) or relative_marker(text):
        return False
    if _RULES_OUT.search(text) or requires(text) or asks_other(text) or asks_closer(text):
        return False
    if asks_cheaper(text) or drops_condition(text):
        return False
    if nlu.ordinal is not None:
        n = int(nlu.ordinal)
        return 0 <= (len(context) - 1 if n == -1 else n - 1) < len(context)
    pointed = nlu.pronoun_ref or _PRONOUN.search(text) is not None
    return pointed and bool(state.get("focus") or len(context) == 1)


_FOOD_PLACE = re.compile(r"([가-힣A-Za-z]{2,})\s*(?:음식점|음식|요리|식당|레스토랑|전문점)")


def _not_a_kind(text: str) -> str | None:
    """A word that looks like a kind but names what the data does not hold ("키즈카페", "북카페")."""
    said = norm(text)
    return next((w for w in kinds().not_words if w in said), None)


def _unknown_food(text: str, nlu: NLUResult) -> str | None:
    """A word nobody understood said as a kind of food ("조지아음식", "우즈벡 식당", "할랄 식당")."""
    unknown = nlu.unknown_terms
    for m in _FOOD_PLACE.finditer(text):
        word = m.group(1)
        if any(word == u or word.startswith(u) or u.startswith(word) for u in unknown):
            return m.group(0).strip()
    return None


def _abroad_beyond_titles(text: str, titles: list[str]) -> bool:
    """Whether a place abroad is named outside every restaurant name of the question ("도톤보리
    잠실점" is a restaurant; "오사카 도톤보리" is Osaka)."""
    from matjip.nlu.strategy import rules as strategy_rules

    return any(n in text and not any(n in t for t in titles) for n in strategy_rules().overseas)


_AMONG = re.compile(r"그\s*중")  # "그 중에 포장되는거": among the list, a condition
_QUESTION = re.compile(r"\?|[요까]\s*$|나요|인가|팔아|파나|있어|있나|없어|돼\??\s*$|되나|가능")


def _last_turn_searched(state: AgentState) -> bool:
    searches = state.get("searches") or []
    return bool(searches) and searches[-1].get("turn") == int(state.get("turn") or 0) - 1


_NEAR_THAT = re.compile(r"(?<![가-힣])그\s*(?:근처|주변|옆|앞|부근|근방)")
_PRONOUN = re.compile(
    r"(?<![가-힣])(?:거기|그\s*집|그\s*가게|저기|그곳|여기(?!\s*(?:근처|주변|서|에서|쯤|로)))"
)
_GENERIC_FOOD = re.compile(r"맛집|식당|밥집|먹을\s*(?:데|곳|만한)|음식점")


def _on_menu(doc: Restaurant, text: str) -> bool:
    """A word of ``text`` (two syllables or more) names a line of the restaurant's menu."""
    words = [w for w in re.findall(r"[가-힣A-Za-z]{2,}", text)]
    # "로스가츠는": the word without its particle too
    words += [w[:-1] for w in words if len(w) > 2 and w[-1] in "은는이가을를도만요"]
    lines = [m.name.replace(" ", "") for m in doc.menus]
    return any(
        w in line for w in words for line in lines if len(w) >= 2 and w not in ("얼마", "가격", "메뉴")
    )


def _compare_refs(state: AgentState, res: Resources, nlu: NLUResult, text: str) -> dict[str, Any] | None:
    """A comparison of shown restaurants (ordinals, "거기", names) answered from the context, or —
    when one of them was only named ("거기랑 별미곱창이랑") — searched by name."""
    across = _across_lists(state, text)
    if across is not None:
        compare = nlu.model_copy(update={"intent": "compare", "ordinals": []})
        return {
            "decision": "context",
            "nlu": compare,
            "compare_ids": across,
            "_decision": "compare from context (an earlier list and this one)",
        }
    context = state.get("context") or []
    titles = _context_titles(state, res)
    picked: list[str] = []
    for n in nlu.ordinals:
        idx = len(context) - 1 if n == -1 else n - 1
        if 0 <= idx < len(context):
            picked.append(context[idx]["id"])
    named = list(nlu.entities.title)
    brand = _brand_of(named[0], res) if named else None
    for branch in branch_words(text):
        # "청와옥 석촌호수직영점이랑 방이본점": the brand is said once
        if brand and not any(branch in t for t in named):
            named.append(f"{brand} {branch}")
    unknown: list[str] = []
    for name in named:
        key = name.replace(" ", "")
        pid = next((p for p, t in titles.items() if key in t or t in key), None)
        if pid is not None:
            picked.append(pid)
        else:
            unknown.append(name)
    if nlu.pronoun_ref and len(picked) + len(unknown) < 2:
        focus = state.get("focus") or (context[0]["id"] if len(context) == 1 else None)
        if focus:
            picked.insert(0, focus)
    if not picked and not unknown and len(context) >= 2:
        # "둘 중에 어디가 나아?", "어디가 제일 싸?": the list shown (the first two for "둘")
        picked = [h["id"] for h in context[: 2 if "둘" in text else 5]]
    picked = list(dict.fromkeys(picked))
    compare = nlu.model_copy(update={"intent": "compare", "ordinals": []})
    if len(picked) >= 2 and not unknown:
        return {
            "decision": "context",
            "nlu": compare,
            "compare_ids": picked,
            "_decision": "compare from context",
        }
    if unknown and len(picked) + len(unknown) >= 2:
        shown = [res.index.get(p) for p in picked]
        names = [d.title for d in shown if d is not None] + unknown
        return {"decision": "search", "nlu": compare, "compare_titles": names, "_decision": "compare by name"}
    return None


_EARLIER = re.compile(r"아까|전에|처음에|앞에서|이전")
_AND = re.compile(r"(?:이랑|랑|하고|\s+vs\.?\s+|\s와\s|\s과\s)")


def _across_lists(state: AgentState, text: str) -> list[str] | None:
    """ "아까 첫번째랑 지금 첫번째 비교해줘": an ordinal said after "아까" counts in the list shown
    before the current one, the others in the current list."""
    searches = state.get("searches") or []
    if len(searches) < 2 or not _EARLIER.search(text):
        return None
    earlier = searches[-2].get("hits") or []
    current = state.get("context") or searches[-1].get("hits") or []
    picked: list[str] = []
    for part in _AND.split(text):
        values, _ = parse_ordinals(part)
        if not values:
            continue
        shown = earlier if _EARLIER.search(part) else current
        n = values[0]
        idx = len(shown) - 1 if n == -1 else n - 1
        if 0 <= idx < len(shown):
            picked.append(shown[idx]["id"])
    picked = list(dict.fromkeys(picked))
    return picked if len(picked) >= 2 else None


def _brand_of(title: str, res: Resources) -> str | None:
    info = res.nlu.vocabulary.title_info(title)
    if info is not None and info.brand:
        return info.brand
    words = title.split()
    return " ".join(words[:-1]) if len(words) > 1 else None


def check_session(state: AgentState, res: Resources) -> dict[str, Any]:
    """First turn of the conversation, or a follow-up (docs/design.md)."""
    followup = bool(state.get("searches"))
    return {"is_followup": followup, "_decision": "follow-up" if followup else "first search"}
