"""Query input, NLU + location understanding, and the need-search decision (docs/design.md).

Offline, NLU runs before the need-search decision because the decision reads its signals
(ordinals, pronouns, new places or menus); it costs about a millisecond. The understand step reads
the message once into an :class:`~matjip.agent.understanding.Understanding` (NLU result, kinds,
dialogue acts, cues) kept in the turn's state; the need-search rules read that, never the message.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any, Final

from matjip import wording
from matjip.agent.acts import is_reaction, travel_pair, where_question
from matjip.agent.configuration import Resources
from matjip.agent.coverage import address_region, outside_place
from matjip.agent.location import (
    GPS_DEFAULT_RADIUS_M,
    LocationOutcome,
    choice_context,
    city_dong,
    city_dong_context,
    document_dong,
    document_place,
    pick_choice,
    placed_by_documents,
    resolve,
    unknown_dong,
)
from matjip.agent.models import (
    CannedReply,
    Clarification,
    LocationContext,
    OutsideReply,
    OverseasReply,
    SmalltalkReply,
    UnknownFoodReply,
    UnknownPlaceReply,
)
from matjip.agent.nodes.strategies import route_context
from matjip.agent.state import (
    PER_TURN_RESET,
    AgentState,
    HitRecord,
    NodeUpdate,
    Replace,
    SearchRecord,
    upgrade_conversation,
)
from matjip.agent.understanding import (
    Understanding,
    cue_patterns,
    either,
    read_message,
    understanding_of,
    without_names,
)
from matjip.documents import Restaurant
from matjip.index.request import GeoFilter, RegionFilter, SearchRequest
from matjip.kinds import kinds, norm
from matjip.nlu.kinds import detect_kinds
from matjip.nlu.models import LocationMode, NLUResult
from matjip.nlu.normalize import normalize_query
from matjip.nlu.romanized import koreanize_places
from matjip.words import word_set, words

Update = NodeUpdate

# --- query input ----------------------------------------------------------------------------


def query_input(state: AgentState, res: Resources) -> Update:
    """Normalise the raw message and classify unusable input; reset per-turn fields."""
    text = normalize_query(state.get("query") or "")
    update: Update = {**PER_TURN_RESET, **upgrade_conversation(state)}
    update["turn"] = int(state.get("turn") or 0) + 1
    update["now"] = state.get("now") or res.now().isoformat()
    update["messages"] = _history(state, res, text)  # type: ignore[typeddict-item]  # a Replace replaces
    notes: list[str] = []
    if len(text) > res.config.max_query_chars:
        notes.append("too_long")
        text = text[: res.config.max_query_chars]
    text, reply = _classify_input(state, text)
    update["reply"] = reply
    update["query"] = text
    update["_decision"] = reply.key if reply is not None else ("truncated" if notes else "ok")
    update["plan_notes"] = notes
    return update


def _history(state: AgentState, res: Resources, text: str) -> list[dict[str, str]] | Replace:
    """This turn's message added to the bounded history (agent/retention.py): past the limit, the
    list is replaced, not appended to."""
    said = {"role": "user", "content": text[:2000]}
    kept = max(0, 2 * res.config.max_history_turns - 2)  # room for this turn's question and answer
    prior = list(state.get("messages") or [])
    return Replace([*prior[len(prior) - kept :], said]) if len(prior) > kept else [said]


def _classify_input(state: AgentState, text: str) -> tuple[str, CannedReply | SmalltalkReply | None]:
    """The text to understand and the canned reply for input that cannot be (``None`` when it can)."""
    hangul = cue_patterns().hangul
    if not text:
        return text, CannedReply(kind="empty")
    if state.get("pending") and text.strip(" .").isdigit():
        return text, None  # "2" answers a pending clarification
    if cue_patterns().latin.search(text):
        # English or mixed: romanised place names become Korean ones; dish words are read by the
        # kinds vocabulary, which lists English words too
        text = koreanize_places(text)  # a kind said only in English first (romanized._latin_kinds)
        if not hangul.search(text) and not detect_kinds(text).kinds:
            # "ok thx" is small talk in any script; other English with no dish is not understood
            return text, SmalltalkReply(topic="reaction") if is_reaction(text) else CannedReply(
                kind="not_korean"
            )
        return text, None
    if not hangul.search(text):
        # "👍👍", "😋": a reaction in emoji alone is small talk (the list kept), other symbols say nothing
        return text, SmalltalkReply(topic="reaction") if is_reaction(text) else CannedReply(kind="no_content")
    return text, None


# --- understand -----------------------------------------------------------------------------


def understand(state: AgentState, res: Resources) -> Update:
    """Intent and entities (NLU), then location: GPS, named place, carry-over or clarification."""
    if state.get("reply"):
        return {"_decision": "skipped"}
    gps_raw = state.get("gps")
    gps = (float(gps_raw["lat"]), float(gps_raw["lon"])) if gps_raw else None
    history = list(state.get("location_history") or [])
    pending = state.get("pending")
    if pending is not None:
        resumed = _resume(state, res, pending, gps, history)
        if resumed is not None:
            return resumed
    u = _read(state, res, state["query"])
    update: Update = {"nlu": u.nlu, "understanding": u}
    if pending is not None and not _has_new_content(u.nlu) and not u.nlu.smalltalk:
        # the answer did not pick a candidate: ask again
        update["clarification"] = pending
        update["_decision"] = "clarification unresolved; asking again"
        return update
    if pending is not None:
        update["pending"] = None
    again = _still_outside(state, res, u, gps)
    if again is not None:
        return {**update, "reply": again, "_decision": f"follow-up about {again.place}, outside the data"}
    topic = _outside_topic(state, u)
    if topic is not None:  # "그럼 잠실에서는?" after "부산 광안리 회": 회 in 잠실
        u = _read(state, res, topic)
        update = {**update, "nlu": u.nlu, "understanding": u, "query": topic}
    located: Update = {**update, **_locate(state, res, u, gps, history)}
    reply = located.get("reply")
    outside = reply.place if isinstance(reply, OutsideReply) else None
    located["outside"] = outside
    located["outside_topic"] = _without_words(u.text, outside) if outside else None
    return located


def _without_words(text: str, place: str) -> str:
    """The question without the words of the place it named ("부산 광안리 회" -> "회")."""
    said = place.split()
    return " ".join(w for w in text.split() if not any(w.startswith(p) for p in said)).strip()


def _outside_topic(state: AgentState, u: Understanding) -> str | None:
    """ "그럼 잠실에서는?" right after "부산 광안리 회" was answered outside the data: the new place with
    the food asked there ("그럼 잠실에서는? 회"), when the message names a place and no food."""
    topic = state.get("outside_topic")
    ents = u.nlu.entities
    if not topic or not state.get("outside") or not ents.location:
        return None
    if ents.menu or ents.category or ents.title or u.kinds.kinds or u.kinds.any_kind:
        return None
    return f"{u.text} {topic}"


def _still_outside(
    state: AgentState, res: Resources, u: Understanding, gps: tuple[float, float] | None
) -> OutsideReply | None:
    """ "좀 덜 비싼 데는?", "거기 주차되는 곳", "그럼 국밥은?" right after the answer that the place asked
    (부산 서면) is outside the data: the follow-up is about that place still — said so again, never
    searched elsewhere nor answered as a message with no content."""
    outside = state.get("outside")
    nlu = u.nlu
    if not outside or gps is not None or nlu.smalltalk or nlu.user_location:
        return None
    ents = nlu.entities
    if ents.location or ents.title or u.strategy.overseas or unknown_dong(u.text, res.gazetteer, ()):
        return None
    pointed = nlu.ordinal is not None or nlu.pronoun_ref or u.cues.pronoun or u.cues.earlier
    if pointed and state.get("context"):
        return None  # "아까 첫번째 집 예약 돼?", "거기 주차는 돼?": a restaurant shown before
    return OutsideReply(place=outside, again=True)


def _read(state: AgentState, res: Resources, text: str) -> Understanding:
    """The message read once: the offline NLU (or an LLM's reading of it), kinds, acts and cues."""
    u = read_message(text, res.nlu.parse(text))
    ents, frame = u.nlu.entities, u.kinds
    if not (ents.title or frame.brands or frame.exclude_brands):  # "스타벅스나 이디야 같은 체인점은 제외"
        completed = _shown_name_completed(state, res, text)
        if completed != text:
            u = read_message(completed, res.nlu.parse(completed))
    if res.llm is not None and res.llm.understands and not u.nlu.smalltalk and not _clear_follow_up(state, u):
        u = u.with_nlu(res.llm.understand(state, text, u.nlu))
    return u


_NAME_PART_MIN: Final = 3  # syllables of a shown restaurant's name that say which one it is


def _shown_name_completed(state: AgentState, res: Resources, text: str) -> str:
    """ "큰집보쌈 거기 천호역에서 몇 분": a word that begins the name of one shown restaurant (three
    syllables at least, and no kind or dish word by itself) stands for that restaurant's full name."""
    titles = _context_titles(state, res) if state.get("context") else {}
    if not titles:
        return text
    words = text.split()
    for i, word in enumerate(words):
        key = norm(word)
        if len(key) < _NAME_PART_MIN or kinds().lookup(word) is not None:
            continue
        hits = [(pid, t) for pid, t in titles.items() if t.startswith(key) and t != key]
        full = res.index.get(hits[0][0]) if len({t for _, t in hits}) == 1 else None
        if full is not None:
            words[i] = full.title
            return " ".join(words)
    return text


def _has_new_content(nlu: NLUResult) -> bool:
    e = nlu.entities
    return bool(e.location or e.title or e.menu or e.category)


def _resumed(query: str, nlu: NLUResult, location: LocationContext, decision: str) -> Update:
    """A clarification answered: the question that asked it resumes with the place."""
    u = read_message(query, nlu)
    return {
        "nlu": u.nlu,
        "understanding": u,
        "query": query,
        "location": location,
        "pending": None,
        "resumed": True,
        "_decision": decision,
    }


def _resume(
    state: AgentState,
    res: Resources,
    pending: Clarification,
    gps: tuple[float, float] | None,
    history: list[LocationContext],
) -> Update | None:
    """The answer to a pending clarification (a choice, a place, a position), or ``None``."""
    text = state["query"]
    if pending.kind == "place":
        choice = pick_choice(text, pending)
        if choice is not None:
            nlu = res.nlu.parse(pending.pending_query)
            # "송파 위례동이요": a reply naming the dong as the area means that area — its namesakes
            # next door are the places the user just said they did not mean
            said_in = nlu.location_mode == "in" or res.nlu.parse(text).location_mode == "in"
            mode: LocationMode = "in" if said_in else "near"
            ctx = choice_context(choice, pending, res.gazetteer, pending.pending_query, mode)
            return _resumed(pending.pending_query, nlu, ctx, f"clarification resolved: {choice.label}")
    elif pending.kind == "where":
        answer_nlu = res.nlu.parse(text)
        if answer_nlu.entities.location or gps is not None:
            # "잠실역" answers "어느 동네에서 찾을까요?": the question resumes with the place
            combined = f"{text} {pending.pending_query}"
            nlu = res.nlu.parse(combined)
            outcome = resolve(nlu, combined, gps, history, res.gazetteer)
            if outcome.context is not None:
                return _resumed(combined, nlu, outcome.context, "place received")
    elif pending.kind == "gps" and gps is not None:
        nlu = res.nlu.parse(pending.pending_query)
        outcome = resolve(nlu, pending.pending_query, gps, history, res.gazetteer)
        if outcome.context is not None:
            return _resumed(pending.pending_query, nlu, outcome.context, "gps received")
    return None


def _locate(
    state: AgentState,
    res: Resources,
    u: Understanding,
    gps: tuple[float, float] | None,
    history: list[LocationContext],
) -> Update:
    """Where the turn searches: abroad, a route, a brand's two branches, a shown restaurant, or a
    place resolved from the message (or said to be outside the data)."""
    nlu, spec = u.nlu, u.strategy
    if spec.overseas and _abroad_beyond_titles(u.text, nlu.entities.title):
        # "오사카 도톤보리 타코야끼": 오사카 is the place, not a Seoul restaurant named 도톤보리
        # seed 003's provider split: abroad is Google's, or said plainly not supported
        if res.abroad is None:
            return {
                "reply": OverseasReply(place=spec.overseas),
                "_decision": f"{spec.overseas} is abroad; no provider for places abroad",
            }
        return {
            "location": None,
            "_decision": f"{spec.overseas} is abroad: live search ({res.abroad.source})",
        }
    start = route_context(nlu, res, gps)
    if start is not None:
        # "A에서 B 가는 길에": both ends are places; the route's search says what it finds
        return {"location": start, "_decision": f"route {spec.origin}→{spec.destination}"}
    pair = _brand_pair(u, res)
    if pair:
        # "청와옥 석촌호수직영점이랑 방이본점 중에": two branches of one brand, the brand said once
        compare = nlu.model_copy(update={"intent": "compare"})
        return {
            "nlu": compare,
            "understanding": u.with_nlu(compare),
            "compare_titles": pair,
            "_decision": f"compare {' vs '.join(pair)}",
        }
    anchor = _anchor(state, res, u, history)
    if anchor is not None:
        return {
            "location": anchor[0],
            "anchor": anchor[1],
            "_decision": f"{nlu.intent} (conf {nlu.confidence:.2f}), around {anchor[0].name}",
        }
    return _resolve_place(state, res, u, gps, history)


def _resolve_place(
    state: AgentState,
    res: Resources,
    u: Understanding,
    gps: tuple[float, float] | None,
    history: list[LocationContext],
) -> Update:
    """The place the message names (the gazetteer, the addresses), the device's position, the
    conversation's place, or a question where."""
    nlu, text = u.nlu, u.text
    by_documents = document_dong(nlu, text, res.gazetteer) or document_place(nlu, text, res.gazetteer)
    if (
        by_documents is not None
    ):  # "학암동 카페", "학암 카페", "위례 중앙광장": the restaurants of the data place it
        said = (by_documents.context.name or "") if by_documents.context else ""
        read = nlu.model_copy(  # the dong is a place now, no word left unread ("창곡")
            update={"unknown_terms": [t for t in nlu.unknown_terms if not (t and t in said)]}
        )
        update = _place_update(state, res, read, by_documents, None)
        return {**update, "nlu": read, "understanding": u.with_nlu(read)}
    said_city = city_dong(text, res.gazetteer)
    if said_city is not None:  # "고양 오금동": that city's dong, never the namesake of another city
        city, said_dong, placed = said_city
        name = f"{city.name} {said_dong}"
        if placed and placed[0].key.startswith("document_dong:"):
            by_documents = placed_by_documents(said_dong, placed, text, res.gazetteer)
            return _place_update(state, res, nlu, by_documents, None)
        if placed and _covered(placed[0], res):
            ctx = city_dong_context(placed[0], said_dong, text, res.gazetteer)
            return _place_update(state, res, nlu, LocationOutcome(ctx), None)
        if not _covered(city, res) or placed:
            return _place_update(state, res, nlu, LocationOutcome(), name)
        return {"reply": UnknownPlaceReply(place=name), "_decision": f"unknown place {name}"}
    outcome = resolve(nlu, text, gps, history, res.gazetteer, covered=lambda p: _covered(p, res))
    if (
        outcome.context is None
        and outcome.clarification is None
        and gps is not None
        and u.strategy.strategy in ("point_travel", "course")
        and not nlu.entities.location
    ):
        # "지금 위치에서 차로 20분": a travel time or a course with no place is from the device
        here = LocationContext(
            type="GPS", name=wording.text("understand.place.my_position"), lat=gps[0], lon=gps[1]
        )
        outcome = replace(outcome, context=here)
    if (
        outcome.context is None
        and outcome.clarification is None
        and not outcome.unknown_place
        and gps is None
        and not state.get("searches")
        and _needs_place(u, res)
        and outside_place(text, lambda name: _name_covered(name, res))
        is None  # "시부야 라멘": a place outside the data is said so below
    ):
        # "치킨 맛집 어디야" with no place and no position: a list from anywhere would be arbitrary;
        # "학암동 카페": a dong the gazetteer does not know is said so, not asked for again
        dong = unknown_dong(text, res.gazetteer, nlu.entities.title)
        if dong is not None:
            return {"reply": UnknownPlaceReply(place=dong), "_decision": f"unknown place {dong}"}
        return {
            "clarification": Clarification(kind="where", question=where_question(), pending_query=text),
            "_decision": "clarify where: no place, no position",
        }
    outside = _outside(u, res)
    outcome, outside = _by_address(u, res, outcome, outside, gps)
    return _place_update(state, res, nlu, outcome, outside, origin_only=_travel_origin_only(state, u))


def _travel_origin_only(state: AgentState, u: Understanding) -> bool:
    """ "첫 번째 거기 ○○역에서 걸어가면 몇 분?": the place named is where the way to a shown
    restaurant starts, so it needs no restaurants of its own."""
    ents = u.nlu.entities
    pointed = u.nlu.ordinal is not None or u.nlu.pronoun_ref or u.cues.pronoun or bool(state.get("focus"))
    return (
        bool(state.get("context"))
        and u.acts.travel
        and pointed
        and not (u.kinds.kinds or ents.menu or ents.category)
    )


def _outside(u: Understanding, res: Resources) -> str | None:
    """A place far outside the data the message names: said so, never searched as a menu word or
    elsewhere."""
    nlu = u.nlu
    outside = outside_place(u.text, lambda name: _name_covered(name, res))
    said = {outside.replace(" ", ""), *outside.split()} if outside else set()  # "부산 서면": either word
    if nlu.entities.title and (
        nlu.intent != "search" or any(t.replace(" ", "") not in said for t in nlu.entities.title)
    ):
        # a restaurant asked about by name ("도톤보리 잠실 영업시간", "전주식당"); "전주 비빔밥
        # 맛집" is a search in 전주
        return None
    return outside


def _by_address(
    u: Understanding,
    res: Resources,
    outcome: LocationOutcome,
    outside: str | None,
    gps: tuple[float, float] | None,
) -> tuple[LocationOutcome, str | None]:
    """A place the crawl covers by its addresses only: an in-region search on the addresses."""
    if outside is not None and outcome.context is None and outcome.clarification is None:
        by_address = address_region(outside, u.text, res)
        if by_address is not None:  # the crawl covers it after all: search the addresses
            outside = None
            outcome = replace(outcome, context=by_address)
    if outside is None and outcome.context is None and outcome.clarification is None and not gps:
        # a dong, eup or si no gazetteer entry knows ("노형동 흑돼지") that the addresses name
        address_word = cue_patterns().address_word
        for term in u.nlu.unknown_terms:
            if address_word.fullmatch(term):
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
    return outcome, outside


def _place_update(
    state: AgentState,
    res: Resources,
    nlu: NLUResult,
    outcome: LocationOutcome,
    outside: str | None,
    origin_only: bool = False,
) -> Update:
    """The turn's location, a clarification, or the reply that the place is not in the data (never
    for ``origin_only``: a place that only starts the way to a shown restaurant)."""
    if outcome.clarification is not None:
        return {
            "clarification": outcome.clarification,
            "_decision": f"clarify {outcome.clarification.kind}: {outcome.clarification.name or ''}".strip(),
        }
    if outside is not None:
        return {"reply": OutsideReply(place=outside), "_decision": f"{outside} is outside the data"}
    if outcome.unknown_place:
        return {
            "reply": UnknownPlaceReply(place=outcome.unknown_place),
            "_decision": f"unknown place {outcome.unknown_place}",
        }
    ctx = outcome.context
    uncovered = ctx is not None and not origin_only and not _context_covered(ctx, res)
    if ctx is not None and uncovered and res.web is None and res.places is None:
        # with a web provider the search runs and finds nothing, and the web fallback answers; with
        # Kakao Local the places around it come live
        name = ctx.name or ctx.display_name or wording.text("understand.place.there")
        return {"reply": OutsideReply(place=name), "_decision": f"no restaurant in the data around {name}"}
    return {
        "location": ctx,
        "location_carried": outcome.carried,
        "plan_notes": [*(state.get("plan_notes") or []), *outcome.notes],
        "place_note": outcome.first_line,
        "_decision": f"{nlu.intent} (conf {nlu.confidence:.2f})"
        + (f", location {ctx.display_name or ctx.name}" if ctx else ""),
    }


def _clear_follow_up(state: AgentState, u: Understanding) -> bool:
    """A follow-up the offline reading settles ("첫번째 집 몇시까지 해?", "거기랑 2번 비교",
    "오 맛있겠다 ㅋㅋ"): no LLM call is spent understanding or routing it."""
    nlu = u.nlu
    if not state.get("context") or nlu.entities.location:
        return False
    return nlu.ordinal is not None or nlu.pronoun_ref or u.acts.reaction


def _anchor(
    state: AgentState, res: Resources, u: Understanding, history: list[LocationContext]
) -> tuple[LocationContext, str] | None:
    """The centre a follow-up keeps or takes from the conversation, without asking for a position:

    * "2번 근처에 호프집", "거기서 걸어갈 수 있는 카페" → around the shown restaurant (``"place"``);
    * "좀 더 가까운 데" → the previous search's place (``"closer"``).
    """
    context = state.get("context") or []
    if not context or _places(u, res):
        return None
    if u.acts.relative and (_names_food(u) or u.cues.generic_food):
        # "2번 근처에 호프집", "거기 근처 다른 맛집도": around the shown restaurant
        ref = _shown_ref(state, res, u)
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
    if state.get("searches") and u.acts.closer and history and len(u.nlu.ordinals) < 2:
        # ("첫번째랑 마지막 중에 더 가까운 데" compares two shown places)
        last = history[-1]
        if last.lat is not None and last.lon is not None:
            return last.model_copy(update={"mode": "near", "region_terms": []}), "closer"
    return None


def _names_food(u: Understanding) -> bool:
    return bool(u.kinds.kinds or u.nlu.entities.menu or u.nlu.entities.category)


def _shown_ref(state: AgentState, res: Resources, u: Understanding) -> Restaurant | None:
    """The shown restaurant an ordinal, a pronoun or a name in the message points at."""
    context = state.get("context") or []
    nlu = u.nlu
    pick: str | None = None
    if nlu.ordinal is not None:
        n = int(nlu.ordinal)
        idx = len(context) - 1 if n == -1 else n - 1
        pick = context[idx]["id"] if 0 <= idx < len(context) else None
    elif nlu.entities.title:
        titles = _context_titles(state, res)
        wanted = [t.replace(" ", "") for t in nlu.entities.title]
        pick = next((pid for pid, t in titles.items() if any(w in t for w in wanted)), None)
    elif nlu.pronoun_ref or u.cues.pronoun:
        # "거기" is a restaurant only when one is in focus (the last answer was about it, or one
        # was shown); after a list it is the place searched ("거기 근처 양꼬치집도")
        pick = state.get("focus") or (context[0]["id"] if len(context) == 1 else None)
    elif state.get("focus") and u.cues.near_that and not _last_turn_searched(state):
        # "그 근처 카페도" right after an answer about one restaurant: near that restaurant (right
        # after a search it is the place searched)
        pick = state.get("focus")
    else:
        return _shown_of_kind(state, res, u.cues.that_kind)
    return res.index.get(pick) if pick else None


def _shown_of_kind(state: AgentState, res: Resources, word: str | None) -> Restaurant | None:
    """ "그 족발집 근처": the shown restaurant of the kind named after "그" (``word``)."""
    got = kinds().lookup(word) if word is not None else None
    if got is None:
        return None
    context = state.get("context") or []
    of_kind = {got[0], *kinds().descendants(got[0])}
    focus = state.get("focus")
    ids = [focus, *(h["id"] for h in context)] if focus else [h["id"] for h in context]
    for pid in ids:  # the one the last answer was about first
        doc = res.index.get(pid)
        if doc is not None and of_kind & set(doc.kinds):
            return doc
    return None


def _places(u: Understanding, res: Resources) -> list[str]:
    """The message's place names that are places: not a branch name ("석촌점") and not an
    ordinal the NLU took for a place ("두번째꺼")."""
    branches = u.acts.branches
    return [
        loc
        for loc in u.nlu.entities.location
        if res.gazetteer.best(loc) is not None and not any(loc in b for b in branches)
    ]


def _brand_pair(u: Understanding, res: Resources) -> list[str]:
    """One restaurant named with its branch and a second branch of the same brand said bare."""
    nlu = u.nlu
    if len(nlu.entities.title) != 1 or not (nlu.intent == "compare" or u.acts.compare):
        return []
    first = nlu.entities.title[0]
    brand = _brand_of(first, res)
    if not brand:
        return []
    others = [b for b in u.acts.branches if b not in first]
    return [first, f"{brand} {others[0]}"] if others else []


def _needs_place(u: Understanding, res: Resources) -> bool:
    """A kind found all over the data, asked with no place: ask where. A rare one ("비건 빵집")
    is searched everywhere."""
    nlu = u.nlu
    if nlu.entities.title or nlu.intent != "search" or u.cues.sells:
        # "꼬막비빔밥 어디서 팔아": where it is sold at all is the question
        return False
    frame = u.kinds
    if not frame.kinds or frame.theme is not None:
        # "점심 먹을 데 추천", "맛집 추천": any restaurant anywhere would be arbitrary; a described
        # food ("다른 해장 음식") is a family of kinds, searched like a word, not asked where
        return u.cues.generic_food and not nlu.entities.menu and not nlu.entities.category
    key = "kinds-everywhere:" + ",".join(sorted(frame.kinds))
    many = res.coverage.get(key)
    if many is None:
        total = res.index.search(SearchRequest(kind=frame.kinds, k=1)).total_candidates
        many = res.coverage[key] = total > res.config.where_min_results
    return many


def _abroad_beyond_titles(text: str, titles: list[str]) -> bool:
    """Whether a place abroad is named outside every restaurant name of the question ("도톤보리
    잠실점" is a restaurant; "오사카 도톤보리" is Osaka)."""
    from matjip.nlu.strategy import rules as strategy_rules

    return any(n in text and not any(n in t for t in titles) for n in strategy_rules().overseas)


# --- what the index covers -------------------------------------------------------------------


def _context_covered(ctx: LocationContext, res: Resources) -> bool:
    """Does the index hold a restaurant in the resolved place (radius or region)?"""
    if ctx.type == "GPS" or ctx.lat is None or ctx.lon is None:
        return True
    key = f"ctx:{ctx.mode}:{ctx.lat:.5f},{ctx.lon:.5f}:{ctx.radius_m}:{','.join(ctx.region_terms)}"
    hit = res.coverage.get(key)
    if hit is None:
        if ctx.mode == "in" and ctx.region_terms:
            region = RegionFilter(
                name=ctx.name or wording.text("understand.place.region"), terms=ctx.region_terms
            )
            req = SearchRequest(region=region, k=1)
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


# --- what the conversation shows -------------------------------------------------------------


def _titles_of(hits: list[HitRecord], res: Resources) -> dict[str, str]:
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


def _last_turn_searched(state: AgentState) -> bool:
    """The last turn searched a place (a question about a named restaurant, "분더버거 토요일 영업해?", is
    no search of a place: "그 근처" after it is near that restaurant)."""
    searches = state.get("searches") or []
    return (
        bool(searches)
        and searches[-1].get("turn") == int(state.get("turn") or 0) - 1
        and searches[-1].get("intent") != "information"
    )


def _brand_of(title: str, res: Resources) -> str | None:
    info = res.nlu.vocabulary.title_info(title)
    if info is not None and info.brand:
        return info.brand
    said = title.split()
    return " ".join(said[:-1]) if len(said) > 1 else None


# --- need search -----------------------------------------------------------------------------


def need_search(state: AgentState, res: Resources) -> Update:
    """Search, or answer from the conversation's context (docs/design.md); an LLM may overrule
    the offline decision between the two when configured."""
    out = _need_search_offline(state, res)
    if (
        res.llm is not None
        and res.llm.decides
        and state.get("context")
        and out.get("decision") in ("search", "context")
        and not state.get("anchor")
        and not out.get("compare_ids")
        and not _clear_follow_up(state, understanding_of(state))
    ):
        llm = res.llm.decide(state, out["decision"] == "search")
        if llm is not None:
            out = {
                "decision": "search" if llm["need_search"] else "context",
                "_decision": f"llm: {llm['reason']}",
            }
    return out


@dataclass(frozen=True)
class _Turn:
    """What the need-search rules read: the state, the resources and the turn's understanding."""

    state: AgentState
    res: Resources
    u: Understanding

    @property
    def nlu(self) -> NLUResult:
        return self.u.nlu

    @property
    def context(self) -> list[HitRecord]:
        return self.state.get("context") or []

    @property
    def searches(self) -> list[SearchRecord]:
        return self.state.get("searches") or []

    @property
    def new_topic(self) -> bool:
        ents = self.nlu.entities
        return bool(ents.location or ents.menu or ents.category)

    @property
    def kinds_named(self) -> list[str]:
        return self.u.kinds.kinds

    @property
    def refers(self) -> bool:
        return self.nlu.ordinal is not None or self.nlu.pronoun_ref


def _need_search_offline(state: AgentState, res: Resources) -> Update:
    if state.get("reply"):
        small = isinstance(state.get("reply"), SmalltalkReply)
        return {"decision": "reply", "_decision": "smalltalk" if small else "reply"}
    if state.get("clarification") is not None:
        return {"decision": "clarify", "_decision": "clarify"}
    t = _Turn(state, res, understanding_of(state))
    for rule in _RULES:
        out = rule(t)
        if out is not None:
            return out
    return _search_or_not(t)


def _smalltalk(t: _Turn) -> Update | None:
    nlu, ents = t.nlu, t.nlu.entities
    said: NodeUpdate = {
        "decision": "reply",
        "reply": SmalltalkReply(topic=str(nlu.smalltalk)),
        "_decision": "smalltalk",
    }
    if _thanks_over_searched_food(t):
        # "오늘 치맥 ㄱㄱ 땡큐": thanks over the food already searched is a goodbye, not a search
        return said
    if nlu.smalltalk and not (t.new_topic or ents.title or (nlu.smalltalk == "offtopic" and t.kinds_named)):
        return said
    if not ents.location and t.u.acts.reaction and (t.context or ents.is_empty()):
        # "오 늦게까지 하네 ㅋㅋ": a reaction keeps the list and the focus
        return {"decision": "reply", "reply": SmalltalkReply(topic="reaction"), "_decision": "smalltalk"}
    return None


def _thanks_over_searched_food(t: _Turn) -> bool:
    nlu, ents = t.nlu, t.nlu.entities
    if nlu.smalltalk not in ("thanks", "bye") or not t.searches or ents.location or ents.title:
        return False
    if nlu.ordinal is not None:
        return False
    return bool(t.kinds_named) and set(t.kinds_named) <= kinds().related(_kinds_searched(t))


def _kinds_searched(t: _Turn) -> list[str]:
    return [
        k for rec in t.searches if (f := rec.get("frame") or rec.get("plan")) is not None for k in f.kinds
    ]


def _kind_of_brands_out(t: _Turn) -> bool:
    """ "스타벅스나 이디야 같은 체인점은 제외" after a 카페 search: the kind read from the brands ruled out
    is the kind already searched, no new food."""
    frame = t.u.kinds
    return bool(frame.exclude_brands and t.kinds_named) and set(t.kinds_named) <= kinds().related(
        _kinds_searched(t)
    )


def _anchored(t: _Turn) -> Update | None:
    anchor = t.state.get("anchor")
    if anchor == "place":
        return {"decision": "search", "_decision": "search around a shown restaurant"}
    if anchor == "closer" and t.searches:
        return {
            "decision": "search",
            "refine": True,
            "_decision": "search (narrow the previous search: closer)",
        }
    return None


def _travel_between_shown(t: _Turn) -> Update | None:
    """ "두번째로 간 카페 첫번째 곱창집에서 걸어서 몇분?": the way from one shown restaurant to another —
    answered from their coordinates; never a search around either of them."""
    if not t.context or not t.u.acts.travel:
        return None
    pair = travel_pair(t.u.text, len(t.context))
    if pair is None:
        return None
    start, end = pair
    mode = t.u.acts.travel_mode
    return {
        "decision": "context",
        "travel": mode,
        "travel_ids": [t.context[start]["id"], t.context[end]["id"]],
        "_decision": f"answer from context (travel between shown, {mode})",
    }


def _travel_question(t: _Turn) -> Update | None:
    """ "두 번째 거기 잠실역에서 걸어가면 몇 분?": how long to a shown restaurant — answered for that
    restaurant from the context; the place named is where the way starts, never a new search."""
    nlu, acts = t.nlu, t.u.acts
    if not t.context or not acts.travel or _food_beside_names(t) or nlu.entities.category:
        return None
    if len(nlu.ordinals) > 1 or nlu.intent == "compare" or acts.compare:
        return None  # "1번이랑 2번 중에 어디가 가까워?" is a comparison
    named = bool(nlu.entities.title) and _shown_ref(t.state, t.res, t.u) is not None
    pointed = t.refers or t.u.cues.pronoun or named
    if not pointed and not (t.state.get("focus") or len(t.context) == 1):
        return None
    mode = acts.travel_mode
    return {"decision": "context", "travel": mode, "_decision": f"answer from context (travel, {mode})"}


def _food_beside_names(t: _Turn) -> bool:
    """Whether the message names a kind or a dish outside the restaurant names it says
    ("큰집보쌈왕코다리 천호본점" names no 보쌈 to search)."""
    titles = t.nlu.entities.title
    if not titles:
        return bool(t.kinds_named or t.nlu.entities.menu)
    rest = without_names(t.u.text, titles)
    inside = norm("".join(titles))
    menus = [m for m in t.nlu.entities.menu if norm(m) not in inside]
    return bool(detect_kinds(rest).kinds or menus)


def _shown_elsewhere(t: _Turn) -> Update | None:
    """A message that points at one shown restaurant (an ordinal, or "거기" with one in focus) and
    names a place, but no food, no other restaurant, no comparison, no nearness and no change to
    the list: a question about that restaurant ("두 번째 거기 강남역에서 몇 정거장이야?" — a search
    there would re-point "거기" to another restaurant)."""
    nlu, ents, acts, context = t.nlu, t.nlu.entities, t.u.acts, t.context
    if not context or not ents.location or t.kinds_named or ents.menu or ents.category or ents.title:
        return None
    if len(nlu.ordinals) > 1 or nlu.intent == "compare" or acts.compare or acts.relative:
        return None
    if t.u.cues.rules_out or acts.requires or acts.other or acts.closer or acts.cheaper or acts.drops:
        return None
    if nlu.ordinal is not None:
        n = int(nlu.ordinal)
        shown = 0 <= (len(context) - 1 if n == -1 else n - 1) < len(context)
    else:
        shown = (nlu.pronoun_ref or t.u.cues.pronoun) and bool(t.state.get("focus") or len(context) == 1)
    if not shown:
        return None
    return {"decision": "context", "_decision": "answer from context (reference naming a place)"}


def _earlier_list_ref(t: _Turn) -> Update | None:
    """ "첫번째 이자카야 새벽까지 하나", "아까 카페 두번째는 몇시까지야?": an ordinal with a kind points
    into the latest list of that kind, which becomes the list the conversation is about."""
    nlu, named, searches = t.nlu, t.u.kinds, t.searches
    if nlu.ordinal is None or len(nlu.ordinals) > 1 or not searches or t.u.acts.relative:
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
        if rec is searches[-1] and hits == (t.state.get("context") or []):
            return {"decision": "context", "_decision": "answer from context (reference)"}
        return {
            "decision": "context",
            "context": list(hits),
            "focus": hits[idx]["id"],
            "_decision": f"answer from context (the earlier list of {', '.join(frame.kinds)})",
        }
    return None


_ELLIPTIC_ASKS: Final = (
    "price",
    "menu",
)  # what "거기 라떼는?" asks again of the dish after a question of them


def _elliptic_ask(t: _Turn) -> Update | None:
    """ "거기 라떼는?" right after "블랑제리코팡 아메리카노 얼마야": the question before asked again of the dish
    now named (its price on that place's menu, or that the menu has none), never a card shown again."""
    nlu, ents = t.nlu, t.nlu.entities
    if not t.context or nlu.asked or nlu.ask or not ents.menu:
        return None
    if ents.location or ents.title or nlu.ordinals or nlu.price or nlu.time or t.u.acts.requires:
        return None
    if not (t.state.get("focus") or len(t.context) == 1 or t.refers):
        return None
    if not _elliptic().search(t.u.text):
        return None
    before = _asking_message(t.state)
    asked = [a for a in t.res.nlu.parse(before).asked if a in _ELLIPTIC_ASKS] if before else []
    if not asked:
        return None
    again = nlu.model_copy(update={"intent": "information", "asked": asked, "ask": asked})
    return {
        "decision": "context",
        "nlu": again,
        "understanding": t.u.with_nlu(again),
        "_decision": "answer from context (the question before, of the dish now named)",
    }


@cache
def _elliptic() -> re.Pattern[str]:
    return either(words("turn_cues", "elliptic"))


def _asking_message(state: AgentState) -> str:
    """The user's message that asked the question an elliptic one repeats: the one before this turn's,
    past other elliptic ones ("거기 라떼는?" then "짜장면은?"); "" when none."""
    said = [m.get("content", "") for m in state.get("messages") or [] if m.get("role") == "user"][:-1]
    while said and _elliptic().search(said[-1]):
        said.pop()
    return said[-1] if said else ""


def _day_of_focus(t: _Turn) -> Update | None:
    """ "일요일도 해?", "토요일 몇 시까지?" with one restaurant in focus (just named or asked about):
    a question about that restaurant on that day, answered from the context, never a search for
    places open that day (which would re-point "거기")."""
    nlu, ents, acts = t.nlu, t.nlu.entities, t.u.acts
    when = nlu.time
    if not t.context or when is None or (when.weekday is None and not when.day_offset):
        return None
    if not (t.state.get("focus") or len(t.context) == 1) or t.refers:
        return None  # ordinals and "거기" are read by the reference rules
    if t.new_topic or t.kinds_named or ents.title or ents.convenience or nlu.ordinals or nlu.price:
        return None
    if t.u.cues.among or t.u.cues.wants_places or not (t.u.cues.question or "hours" in nlu.asked):
        return None
    if acts.requires or acts.other or acts.closer or acts.cheaper or acts.compare:
        return None
    asked = nlu.model_copy(update={"intent": "information", "asked": [*nlu.asked, "hours"]})
    return {
        "decision": "context",
        "nlu": asked,
        "understanding": t.u.with_nlu(asked),
        "_decision": "answer from context (the focus on another day)",
    }


def _question_about_results(t: _Turn) -> Update | None:
    """ "몇시까지 하는데": a question about the one in focus ("-는데" ends the sentence, no "데" is
    sought)."""
    nlu, ents, acts = t.nlu, t.nlu.entities, t.u.acts
    explicit = [a for a in nlu.asked if a in ("hours", "price", "menu", "address", "phone")]
    if (
        t.context
        and explicit
        and not t.new_topic
        and not t.kinds_named
        and not (acts.requires or acts.other or acts.closer or acts.cheaper)
        and not nlu.followup_place
        and not (ents.title or nlu.ordinals or nlu.price or nlu.time or nlu.count)
        and not (nlu.intent == "compare" or acts.compare)
    ):
        return {"decision": "context", "_decision": "answer from context (question about results)"}
    return None


def _comparison(t: _Turn) -> Update | None:
    nlu, ents, acts = t.nlu, t.nlu.entities, t.u.acts
    count_only = (
        nlu.count is not None
        and not nlu.ordinals
        and not ents.title
        and not t.u.cues.two
        and _first_shown_compared(t) is None
    )
    # "그 중에 포장되는거": a condition on the list is a refinement, not a comparison
    narrowing_only = (
        bool(ents.convenience or nlu.time or nlu.price or acts.requires)
        and not nlu.ordinals
        and not ents.title
    )
    # "둘 중에 어디가 더 늦게까지 해?", "which one closes later?": the hours are what is compared, not a
    # condition on the list ("그 중에 늦게까지 하는 데" still narrows it)
    by_hours = (
        acts.compare
        and acts.criterion == "hours"
        and not (ents.convenience or nlu.price or acts.requires or t.u.cues.wants_places)
    )
    count_only = count_only or (narrowing_only and not by_hours)
    if t.context and len(t.context) >= 2 and t.u.cues.over_shown and not (ents.title or nlu.ordinals):
        return _compare_refs(t)  # "그중에 제일 싼 데 어디야", "세 곳 다 일요일 영업해?"
    if t.context and not count_only and not _places_asked(t) and (nlu.intent == "compare" or acts.compare):
        return _compare_refs(t)
    return None


def _places_asked(t: _Turn) -> list[str]:
    """The places the message asks about — none when the only place said is where a distance between
    shown places is measured from ("첫번째랑 두번째 중에 오금역에서 더 가까운 데": two of the list
    compared by their distance from 오금역, not a search at 오금역)."""
    places = _places(t.u, t.res)
    among_shown = len(t.nlu.ordinals) >= 2 or t.u.cues.two or t.u.cues.among
    if places and t.u.acts.criterion == "distance" and among_shown:
        return []
    return places


def _branch_named(t: _Turn) -> Update | None:
    """ "석촌점 삼겹살 얼마야" after 연탄부락 석촌점 was shown: that one."""
    branches = t.u.acts.branches
    if t.context and branches and not _places(t.u, t.res) and not t.nlu.entities.title:
        shown = {**_context_titles(t.state, t.res), **_last_search_titles(t.state, t.res)}
        hit = next(
            (p for p, title in shown.items() if any(title.endswith(b.replace(" ", "")) for b in branches)),
            None,
        )
        if hit is not None:
            return {"decision": "context", "focus": hit, "_decision": "answer from context (branch name)"}
    return None


def _next_page(t: _Turn) -> Update | None:
    if t.searches and t.u.acts.other and not t.new_topic and not t.kinds_named:
        return {
            "decision": "search",
            "refine": True,
            "page": True,
            "_decision": "search (narrow the previous search: next results)",
        }
    return None


def _one_slot_changed(t: _Turn) -> Update | None:
    """ "5개 보여줘", "룸도 있어야됨", "합정역 쪽으로는?": the same search with one slot changed."""
    nlu, ents, acts, cues = t.nlu, t.nlu.entities, t.u.acts, t.u.cues
    named = t.kinds_named and not _kind_of_brands_out(t)
    no_food = not (named or ents.menu or ents.category or ents.title or cues.generic_food)
    if (
        t.searches
        and no_food
        and nlu.ordinal is None
        and (not nlu.pronoun_ref or nlu.count is not None or cues.among)  # "그중에 2개만"
        and (
            nlu.count is not None
            or acts.requires
            or acts.drops
            or bool(nlu.exclude.menu)  # "땅콩 들어가는 건 빼주세요": the same search without that
            or acts.cheaper
            or _places(t.u, t.res)
            or t.u.kinds.exclude_chains
        )  # "프랜차이즈는 빼고": the same search without chains
    ):
        return {
            "decision": "search",
            "refine": True,
            "_decision": "search (narrow the previous search: one slot)",
        }
    return None


def _reference(t: _Turn) -> Update | None:
    ents, cues = t.nlu.entities, t.u.cues
    named_one = t.refers or cues.pronoun  # "여기 혼밥가능?"
    if not (t.context and named_one and not ents.location):
        return None
    if not t.kinds_named and (ents.atmosphere or ents.occasion):
        # "거기 혼술하기 좋음?": a question about the one referred to, not a narrower search
        return {"decision": "context", "_decision": "answer from context (reference)"}
    if cues.question and not t.u.acts.relative:
        # "여기 소금빵도 팔아요?": a question about the one referred to, even when it names a dish
        return {"decision": "context", "_decision": "answer from context (reference)"}
    return None


def _focus_menu(t: _Turn) -> Update | None:
    """ "평양냉면 얼마임" right after a question about one restaurant: its menu answers it — not when the
    message names another restaurant ("블랑제리코팡 아메리카노 얼마야" after "2번 주소좀": that one is asked)."""
    nlu = t.nlu
    focus_id = t.state.get("focus")
    focus_doc = t.res.index.get(focus_id) if focus_id else None
    if (
        focus_doc is not None
        and nlu.asked
        and not nlu.entities.location
        and not t.refers
        and not _names_another(nlu.entities.title, focus_doc.title)
        and _on_menu(focus_doc, t.u)
    ):
        return {"decision": "context", "_decision": "answer from context (the focus's menu)"}
    return None


def _names_another(titles: Sequence[str], focus_title: str) -> bool:
    """A restaurant named in the message that is not the focus (names compared without spaces)."""
    focus = "".join(focus_title.split()).lower()
    named = ["".join(t.split()).lower() for t in titles]
    return any(n and n not in focus and focus not in n for n in named)


def _narrow_previous(t: _Turn) -> Update | None:
    nlu, ents = t.nlu, t.nlu.entities
    narrowing = bool(
        nlu.time is not None or nlu.price is not None or ents.atmosphere or ents.occasion
    ) or bool(ents.convenience and not nlu.ask)
    narrow_previous = t.context and narrowing and not t.new_topic and not ents.title
    if narrow_previous and nlu.ordinal is None and not nlu.ask and t.state.get("searches"):
        return {"decision": "search", "refine": True, "_decision": "search (narrow the previous search)"}
    return None


def _from_context(t: _Turn) -> Update | None:
    if not t.context:
        return None
    nlu, ents = t.nlu, t.nlu.entities
    # "거기 삼겹살 얼마야?", "첫번째 카페 몇시까지해", "첫번째 곳 라면사리 무한이에요?"
    asks_about = (bool(nlu.ask) or t.u.cues.question) and not ents.location
    if t.refers and (not t.new_topic or asks_about) and not nlu.followup_place:
        return {"decision": "context", "_decision": "answer from context (reference)"}
    titles = ents.title
    if titles and not t.new_topic:
        known = _context_titles(t.state, t.res)
        wanted = [title.replace(" ", "") for title in titles]
        if all(any(w in k for k in known.values()) for w in wanted):
            return {"decision": "context", "_decision": "answer from context (known restaurant)"}
    about_results = (nlu.ask or ents.convenience) and not (t.new_topic or titles)
    if about_results and not nlu.followup_place and (nlu.intent != "search" or nlu.ask):
        return {"decision": "context", "_decision": "answer from context (question about results)"}
    return None


_RULES = (
    _smalltalk,
    _travel_between_shown,
    _anchored,
    _travel_question,
    _shown_elsewhere,
    _earlier_list_ref,
    _elliptic_ask,
    _day_of_focus,
    _question_about_results,
    _comparison,
    _branch_named,
    _next_page,
    _one_slot_changed,
    _reference,
    _focus_menu,
    _narrow_previous,
    _from_context,
)
"""The need-search rules in order: the first that decides wins; :func:`_search_or_not` last."""


def _search_or_not(t: _Turn) -> Update:
    """A search, unless nothing is asked or the food asked is one the data cannot hold."""
    nlu, ents = t.nlu, t.nlu.entities
    has_anything = (
        not ents.is_empty()
        or bool(t.kinds_named)  # "비건 식당": a kind the vocabulary has no entity word for
        or t.state.get("location") is not None
        or nlu.price is not None
        or nlu.time is not None
    )
    if not has_anything and not t.context:
        return {
            "decision": "reply",
            "reply": CannedReply(kind="no_content"),
            "_decision": "nothing to search for",
        }
    if not has_anything and t.context:
        return {"decision": "context", "_decision": "answer from context (no new entities)"}
    food = None if t.kinds_named or ents.menu or ents.title else _not_a_kind(t.u)
    if food is None and not (t.kinds_named or ents.menu or ents.category or ents.title):
        food = _unknown_food(t.u)
    if food is not None:
        # "잠실 조지아음식": the food is the request; any restaurant instead would be arbitrary
        return {
            "decision": "reply",
            "reply": UnknownFoodReply(food=food),
            "_decision": f"unknown food '{food}'",
        }
    return {"decision": "search", "_decision": "search"}


def _not_a_kind(u: Understanding) -> str | None:
    """A word that looks like a kind but names what the data does not hold ("키즈카페", "북카페")."""
    said = norm(u.text)
    return next((w for w in kinds().not_words if w in said), None)


def _unknown_food(u: Understanding) -> str | None:
    """A word nobody understood said as a kind of food ("조지아음식", "우즈벡 식당", "할랄 식당")."""
    unknown = u.nlu.unknown_terms
    for word, whole in u.cues.food_places:
        if any(word == w or word.startswith(w) or w.startswith(word) for w in unknown):
            return whole
    return None


_NOT_MENU: Final = word_set("turn_cues", "not_menu_words")  # "얼마", "가격": asking, not a dish


def _on_menu(doc: Restaurant, u: Understanding) -> bool:
    """A word of the message (two syllables or more) names a line of the restaurant's menu."""
    lines = [m.name.replace(" ", "") for m in doc.menus]
    return any(w in line for w in u.cues.menu_words for line in lines if len(w) >= 2 and w not in _NOT_MENU)


def _compare_refs(t: _Turn) -> Update | None:
    """A comparison of shown restaurants (ordinals, "거기", names) answered from the context, or —
    when one of them was only named ("거기랑 별미곱창이랑") — searched by name."""
    compare = t.nlu.model_copy(update={"intent": "compare", "ordinals": []})
    changed: NodeUpdate = {"nlu": compare, "understanding": t.u.with_nlu(compare)}
    across = _across_lists(t)
    if across is not None:
        return {
            "decision": "context",
            **changed,
            "compare_ids": across,
            "_decision": "compare from context (an earlier list and this one)",
        }
    picked, unknown = _compared(t)
    # two references said ("거기랑 1번"), not "그 중에 두번째" (one place among the list)
    said = len(t.nlu.ordinals) + len(t.nlu.entities.title) + int(t.u.cues.pronoun)
    if len(picked) == 1 and not unknown and said >= 2 and not t.u.cues.among:
        # "거기랑 1번 비교해줘" when "거기" is 1번: one restaurant, said to be the same
        return {
            "decision": "context",
            **changed,
            "compare_ids": picked,
            "_decision": "compare from context (the same restaurant twice)",
        }
    if len(picked) >= 2 and not unknown:
        return {"decision": "context", **changed, "compare_ids": picked, "_decision": "compare from context"}
    if unknown and len(picked) + len(unknown) >= 2:
        shown = [t.res.index.get(p) for p in picked]
        names = [d.title for d in shown if d is not None] + unknown
        return {"decision": "search", **changed, "compare_titles": names, "_decision": "compare by name"}
    return None


def _compared(t: _Turn) -> tuple[list[str], list[str]]:
    """The shown restaurants compared (place ids) and the names of those not shown."""
    context, nlu = t.context, t.nlu
    titles = _context_titles(t.state, t.res)
    picked: list[str] = []
    beyond: list[str] = []  # "1번이랑 2번" after one place shown: there is no 2번 (audit r10 F6)
    for n in nlu.ordinals:
        idx = len(context) - 1 if n == -1 else n - 1
        if 0 <= idx < len(context):
            picked.append(context[idx]["id"])
        elif context:
            beyond.append(wording.say("answer.compare.no_number", number=n, shown=len(context)))
    named = list(nlu.entities.title)
    brand = _brand_of(named[0], t.res) if named else None
    for branch in t.u.acts.branches:
        # "청와옥 석촌호수직영점이랑 방이본점": the brand is said once
        if brand and not any(branch in title for title in named):
            named.append(f"{brand} {branch}")
    unknown: list[str] = []
    for name in named:
        key = name.replace(" ", "")
        pid = next((p for p, title in titles.items() if key in title or title in key), None)
        if pid is not None:
            picked.append(pid)
        else:
            unknown.append(name)
    # "거기랑 비교하면", "솔솥이랑 비교하면 어디가 더 늦게까지 해": one side said, the other the one in focus
    one_side = len(picked) + len(unknown) == 1 and cue_patterns().compared_with.search(t.u.text) is not None
    # "그 중에 첫번째 거기", "거기 중에 두번째 집": "거기" is the list, the ordinal the one place in it
    beside = bool(picked) and t.u.cues.among and cue_patterns().joins.search(t.u.text) is None
    if (nlu.pronoun_ref or one_side) and len(picked) + len(unknown) < 2 and not beside:
        focus = t.state.get("focus") or (context[0]["id"] if len(context) == 1 else None)
        if focus:
            picked.insert(0, focus)
    if not picked and not unknown and len(context) >= 2:
        # "둘 중에 어디가 나아?", "두 곳 비교해줘", "어디가 제일 싸?": the list shown (the first two for "둘")
        first = _first_shown_compared(t)
        picked = [h["id"] for h in context[: first or (2 if t.u.cues.two else 5)]]
    return list(dict.fromkeys(picked)), [*beyond, *unknown]


def _first_shown_compared(t: _Turn) -> int | None:
    """ "두 곳 비교해줘", "세 군데 중에 어디가 제일 싸?": the first so many of the list shown are compared."""
    n = t.nlu.count
    if n is None or not 2 <= n <= len(t.context) or t.nlu.ordinals or t.nlu.entities.title:
        return None
    return n if cue_patterns().compares_count.search(t.u.text) else None


def _across_lists(t: _Turn) -> list[str] | None:
    """ "아까 첫번째랑 지금 첫번째 비교해줘": an ordinal said after "아까" counts in the list shown
    before the current one, the others in the current list."""
    searches = t.searches
    if len(searches) < 2 or not t.u.cues.earlier:
        return None
    earlier = searches[-2].get("hits") or []
    current = t.state.get("context") or searches[-1].get("hits") or []
    picked: list[str] = []
    for n, said_earlier in t.u.cues.compare_parts:
        shown = earlier if said_earlier else current
        idx = len(shown) - 1 if n == -1 else n - 1
        if 0 <= idx < len(shown):
            picked.append(shown[idx]["id"])
    picked = list(dict.fromkeys(picked))
    return picked if len(picked) >= 2 else None


# --- check session ---------------------------------------------------------------------------


def check_session(state: AgentState, res: Resources) -> Update:
    """First turn of the conversation, or a follow-up (docs/design.md)."""
    followup = bool(state.get("searches"))
    return {"is_followup": followup, "_decision": "follow-up" if followup else "first search"}
