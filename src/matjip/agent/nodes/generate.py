"""Generation (docs/design.md): template answers offline, streamed as chunks."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any, Final, get_args

from matjip.agent import answer as tpl
from matjip.agent import strategy_answer
from matjip.agent.acts import compare_criterion, party_note
from matjip.agent.configuration import Resources
from matjip.agent.coverage import not_covered_answer
from matjip.agent.markdown import inert
from matjip.agent.models import LocationContext, Shown
from matjip.agent.nodes.common import card_for, emit, shown_for, state_plan, turn_now
from matjip.agent.state import AgentState, HitRecord
from matjip.agent.understanding import kinds_said, understanding_of
from matjip.geo.distance import haversine_m
from matjip.nlu.models import NLUResult, TravelMode
from matjip.wording import say, text


def _reply_chunks(kind: str, res: Resources) -> list[str]:
    if kind.startswith("smalltalk:"):
        return [tpl.SMALLTALK.get(kind.split(":", 1)[1], tpl.SMALLTALK["greeting"]) + "\n"]
    if kind.startswith("outside:"):
        return not_covered_answer(kind.split(":", 1)[1], res)
    if kind.startswith("outside_again:"):  # "좀 덜 비싼 데는?" after "'부산 서면' 쪽은 … 없어요"
        name = kind.split(":", 1)[1]
        return [say("answer.coverage.still_outside", name=name) + "\n", *not_covered_answer(name, res)[1:]]
    if kind.startswith("overseas:"):
        # seed 003: said plainly, then what the data covers
        name = kind.split(":", 1)[1]
        return [*strategy_answer.overseas_answer(name), *not_covered_answer(name, res)]
    if kind.startswith("unknown_food:"):
        return tpl.unknown_food_answer(kind.split(":", 1)[1])
    if kind.startswith("unknown_place:"):
        return tpl.unknown_place_answer(kind.split(":", 1)[1])
    return [tpl.REPLIES.get(kind, tpl.REPLIES["no_content"]) + "\n"]


def _earlier_list(state: AgentState, context: list[HitRecord]) -> list[HitRecord] | None:
    """The list shown before the one in context when the context is the latest list ("다른 데는?"
    showed another), or None (a list already picked by its kind, "아까 카페 두번째", stays)."""
    shown = [h["id"] for h in context]
    searches = state.get("searches") or []
    if not searches or [h["id"] for h in searches[-1].get("hits") or []] != shown:
        return None
    for rec in reversed(searches):
        hits = rec.get("hits") or []
        if hits and [h["id"] for h in hits] != shown:
            return list(hits)
    return None


def _referenced(state: AgentState, res: Resources) -> tuple[list[HitRecord], str | None]:
    """Which context documents a follow-up refers to (ordinal, pronoun, or name)."""
    context = state.get("context") or []
    nlu = state.get("nlu") or NLUResult()
    if not context:
        return [], "no_context"
    ordinal = nlu.ordinal
    if ordinal is not None:
        n = int(ordinal)
        # "아까 첫번째 집" after a second list: the number as the earlier list showed it
        listed = (_earlier_list(state, context) if understanding_of(state).cues.earlier else None) or context
        idx = len(listed) - 1 if n == -1 else n - 1
        if 0 <= idx < len(listed):
            return [listed[idx]], None
        return [], "bad_ordinal"
    titles = [t.replace(" ", "") for t in nlu.entities.title]
    if titles:
        picked = []
        for h in context:
            doc = res.index.get(h["id"])
            if doc is not None and any(t in doc.title.replace(" ", "") for t in titles):
                picked.append(h)
        if picked:
            return picked, None
    focus = state.get("focus")
    before = state.get("focus_before")
    if before and nlu.pronoun_ref and understanding_of(state).cues.earlier:
        focus = before  # "아까 거기": the one in focus before the refinement's list, not its first
    if focus:
        for h in context:
            if h["id"] == focus:
                return [h], None
        if res.index.get(focus) is not None:  # a restaurant asked about by name, not in the list
            return [HitRecord(id=focus, score=0.0, distance_m=None, matched=[])], None
    if nlu.pronoun_ref or len(context) == 1:
        return [context[0]], None
    return context, None


def _compare_chunks(state: AgentState, res: Resources) -> tuple[list[str], list[HitRecord]]:
    """A comparison of shown restaurants, numbered as they were shown."""
    context = state.get("context") or []
    position: dict[str, int] = {}
    by_id: dict[str, HitRecord] = {}
    # a restaurant of an earlier list ("아까 첫번째랑 지금 첫번째") keeps the number it was shown with
    for hits in [*(rec.get("hits") or [] for rec in state.get("searches") or []), context]:
        for i, h in enumerate(hits, start=1):
            position[h["id"]], by_id[h["id"]] = i, h
    refs = [by_id[i] for i in state.get("compare_ids") or [] if i in by_id]
    shown = shown_for(refs, res)
    criterion = _criterion(state, [s.doc.title for s in shown])
    origin = _distance_origin(state) if criterion == "distance" else None
    if origin is not None:
        shown = [_measured_from(s, origin) for s in shown]
    groups = [(s.doc.title, [s]) for s in shown]
    numbers = [position[s.doc.place_id] for s in shown]
    chunks = tpl.compare_answer(
        groups,
        turn_now(state, res),
        criterion,
        numbers,
        _dishes(state),
        origin=origin.name if origin else None,
    )
    party = (state.get("nlu") or NLUResult()).party.size
    if party is not None and party >= res.config.party_note_min:
        # "여섯명 갈건데 어디가 나아": the party is said to be unchecked here too (seats are not in the data)
        chunks = [party_note(party) + "\n", *chunks]
    return chunks, refs


def _distance_origin(state: AgentState) -> LocationContext | None:
    """The place this message names a distance between shown places from ("1번이랑 3번 중 오금역에서
    더 가까운 데"), not one carried from an earlier turn; None when none is named."""
    loc = state.get("location")
    if loc is None or state.get("location_carried") or loc.lat is None or loc.lon is None:
        return None
    name = (loc.name or "").replace(" ", "")
    return loc if name and name in (state.get("query") or "").replace(" ", "") else None


def _measured_from(s: Shown, origin: LocationContext) -> Shown:
    """A shown place with its distance from ``origin`` (unknown without coordinates)."""
    d = s.doc
    if d.lat is None or d.lon is None or origin.lat is None or origin.lon is None:
        return replace(s, distance_m=None)
    return replace(s, distance_m=haversine_m(origin.lat, origin.lon, d.lat, d.lon))


def _criterion(state: AgentState, titles: list[str]) -> str:
    """By what the comparison is asked, read outside the names of the restaurants compared."""
    return compare_criterion(state.get("query") or "", titles)


def _dishes(state: AgentState) -> list[str]:
    """The dishes a comparison is about ("삼겹살 어디가 더 싸?")."""
    nlu = state.get("nlu") or NLUResult()
    return list(dict.fromkeys([*nlu.entities.menu, *kinds_said(state).words]))


def _context_chunks(state: AgentState, res: Resources) -> tuple[list[str], list[HitRecord]]:
    if state.get("compare_ids"):
        return _compare_chunks(state, res)
    refs, problem = _referenced(state, res)
    if problem:
        return [tpl.REPLIES[problem] + "\n"], []
    nlu = state.get("nlu") or NLUResult()
    now = turn_now(state, res)
    mode = TRAVEL_MODES.get(state.get("travel") or "")
    if mode is not None and state.get("travel_ids"):
        return _travel_between(state["travel_ids"], mode, res)
    if mode is not None:
        origin = _travel_origin(state)
        docs = [d for h in refs[:3] if (d := res.index.get(h["id"])) is not None]
        return [strategy_answer.travel_to_answer(d, origin, mode) for d in docs], refs
    asks: list[str] = list(nlu.ask or nlu.asked)
    party = nlu.party.size
    if understanding_of(state).cues.seats or (party is not None and party >= res.config.party_note_min):
        # "3번째꺼 자리 몇 개야?", "거기 여덟 명 앉을 자리 있어?", "두 번째 우리 여섯이 가도 돼?": seats
        # are not in the data, so whether the party fits is said to be unknowable
        asks.append("seats")
    if not asks and _day_asked(nlu, now, state) is not None:
        asks = ["hours"]  # "거기 일요일도 해?": that day's hours
    open_now = (nlu.time is not None and nlu.time.kind == "now") or understanding_of(state).cues.now
    if not asks and open_now:
        asks = ["hours"]  # "1번 지금 해?": open now, then the hours
    conveniences = list(nlu.entities.convenience)
    shown = shown_for(refs, res)
    chunks: list[str] = []
    if asks or conveniences or nlu.entities.atmosphere or nlu.entities.occasion:
        # "거기 토요일에도 열어?": that day's hours follow the week's
        day = _day_asked(nlu, now, state)
        for s in shown[:3]:
            chunks += tpl.information_lines(
                s.doc,
                asks,
                conveniences,
                now,
                nlu.entities.menu,
                [*nlu.entities.atmosphere, *nlu.entities.occasion],
                day,
                open_now=open_now,
                window=_window_asked(nlu, now, state),
            )
    else:
        # a restaurant keeps the number it was shown with ("두 번째는?" prints "2. …")
        position = {h["id"]: i for i, h in enumerate(state.get("context") or [], start=1)}
        for i, s in enumerate(shown, start=1):
            number = position.get(s.doc.place_id, i)
            chunks += tpl.restaurant_block(number, s, None, now, refs[0].get("origin") if refs else None)
    return chunks, refs


def _day_asked(nlu: NLUResult, now: datetime, state: AgentState | None = None) -> datetime | None:
    """The day a question names ("토요일에도", "내일"): the next such day (today when it is today). A meal
    on a day ("거기 내일 점심에도 열어?") is read as a meal, not a time (``meal_read``): its day counts
    the same (audit r14 Q15.2: answered with today's hours)."""
    t = nlu.time
    if t is None and state is not None:
        t = understanding_of(state).meal_time
    if t is None or (t.weekday is None and not t.day_offset):
        return None
    day = now + timedelta(days=int(t.day_offset or 0))
    if t.weekday is not None:
        day += timedelta(days=(int(t.weekday) - day.weekday()) % 7)
    return day


def _window_asked(nlu: NLUResult, now: datetime, state: AgentState) -> tuple[datetime, datetime, str] | None:
    """The part of the day a follow-up names ("내일 아침에도 해?", "거기 점심에도 열어?"): its span on the
    day named (today when none), with its words; None for a day alone or a clock time."""
    t = nlu.time if nlu.time is not None else understanding_of(state).meal_time
    if t is None or t.kind != "range" or t.start_minute is None or t.end_minute is None:
        return None
    if (t.start_minute, t.end_minute) == (0, MINUTES_PER_DAY):
        return None  # a day with no part of it ("일요일에도 해?")
    day = _day_asked(nlu, now, state) or now
    midnight = day.replace(hour=0, minute=0, second=0, microsecond=0)
    start = midnight + timedelta(minutes=int(t.start_minute))
    end = midnight + timedelta(minutes=int(t.end_minute))
    if end <= start:
        end += timedelta(days=1)
    return start, end, t.label.strip()


MINUTES_PER_DAY = 1440

TRAVEL_MODES: dict[str, TravelMode] = {m: m for m in get_args(TravelMode)}  # "walk" → "walk" …


def _travel_between(ids: list[str], mode: TravelMode, res: Resources) -> tuple[list[str], list[HitRecord]]:
    """The way from one shown restaurant to another, from their coordinates."""
    start, end = (res.index.get(i) for i in ids)
    if start is None or end is None:
        return [tpl.REPLIES["bad_ordinal"] + "\n"], []
    origin = LocationContext(type="CONTEXTUAL", name=start.title, lat=start.lat, lon=start.lon)
    refs = [HitRecord(id=ids[1], score=0.0, distance_m=None, matched=[])]
    return [strategy_answer.travel_to_answer(end, origin, mode)], refs


def _travel_origin(state: AgentState) -> LocationContext | None:
    """Where a travel question starts: the place it names, else the device, else the place searched."""
    loc = state.get("location")
    if loc is not None and loc.lat is not None:
        return loc
    gps = state.get("gps")
    if gps:
        name = text("answer.turn.device_origin")
        return LocationContext(type="GPS", name=name, lat=float(gps["lat"]), lon=float(gps["lon"]))
    history = state.get("location_history") or []
    return history[-1] if history else None


def _search_chunks(state: AgentState, res: Resources) -> list[str]:
    """The search answer, and seed 003's caution when the data only suggests what was asked."""
    chunks = _search_answer(state, res)
    caution = strategy_answer.caution_line(state_plan(state), state.get("query", ""))
    return [*chunks, caution] if caution else chunks


def _search_answer(state: AgentState, res: Resources) -> list[str]:
    p = state_plan(state)
    now = turn_now(state, res)
    hits = state.get("hits") or []
    notes = [
        *(state.get("relax_notes") or []),
        *tpl.plan_notes(p, state.get("unknown_hours"), state.get("no_coordinates")),
    ]
    if any(n == "too_long" for n in state.get("plan_notes") or []):
        notes.insert(0, tpl.REPLIES["too_long"])
    if state.get("duplicate_of") is not None:
        notes.insert(0, text("answer.turn.duplicate"))
    if state.get("place_note"):
        notes.insert(0, str(state.get("place_note")))
    origin = p.location.name if p.location else None
    web = state.get("web_sources") or []
    if not hits and web and not state.get("live_cards"):
        chunks = [
            *(n + "\n" for n in notes),
            text("answer.web.intro") + "\n",
        ]
        for i, w in enumerate(web[:3], start=1):
            chunks.append(say("answer.web.item", number=i, title=w.title, content=w.content[:160]) + "\n")
        return chunks
    seed = p.strategy in ("route", "point_travel", "course")  # their answers say how they searched
    if not hits and not state.get("live_cards") and not p.overseas and not seed:
        msg = text("answer.turn.nothing_no_web" if state.get("grade") is not None else "answer.turn.nothing")
        return [*(n + "\n" for n in notes), msg + "\n"]
    grade = state.get("grade")
    if grade is not None and grade.tier == "insufficient":
        notes.append(text("answer.turn.low_scores"))
    if web:
        sources = "; ".join(
            say("answer.web.source_url", title=w.title, url=w.url)
            if w.url
            else say("answer.web.source", title=w.title)
            for w in web[:3]
        )
        notes.append(say("answer.web.also", sources=sources))
    live = state.get("live_cards") or []
    info = state.get("strategy_info")
    if p.overseas and not live:  # the provider failed: as without one
        return [*(n + "\n" for n in notes), *_reply_chunks(f"overseas:{p.overseas}", res)]
    if p.overseas:
        return strategy_answer.abroad_answer(p, live, info, notes)
    if live and not hits and p.strategy in ("radius", "region"):
        return strategy_answer.live_answer(p, live, notes)
    shown = shown_for(hits, res)
    nlu = state.get("nlu") or NLUResult()
    if p.strategy == "route":
        return strategy_answer.route_answer(shown, hits, p, now, info, notes)
    if p.strategy == "point_travel":
        return strategy_answer.travel_answer(shown, hits, p, now, info, notes)
    if p.strategy == "course":
        return strategy_answer.course_answer(shown, hits, live, p, now, info, notes)
    if p.intent == "compare":
        by_id = {s.doc.place_id: s for s in shown}
        groups = [
            (g["title"], [by_id[i] for i in g["ids"] if i in by_id])
            for g in state.get("compare_groups") or []
        ]
        criterion = _criterion(state, [s.doc.title for s in shown])
        dishes = _dishes(state)
        return [*(n + "\n" for n in notes), *tpl.compare_answer(groups, now, criterion, dishes=dishes)]
    if p.intent == "information":
        return [
            *(n + "\n" for n in notes),
            *tpl.information_answer(
                shown, nlu.ask, nlu.entities.convenience, now, origin, tpl.asked_day(p, now)
            ),
        ]
    return tpl.search_answer(shown, p, now, origin, notes)


_LATIN_WORD: Final = re.compile(r"[A-Za-z]{2,}")
_HANGUL: Final = re.compile(r"[가-힣ㄱ-ㅎㅏ-ㅣ]")


def _said_in_english(message: str) -> bool:
    return not _HANGUL.search(message) and len(_LATIN_WORD.findall(message)) >= 2


def english_turn(state: AgentState) -> bool:
    """Is this turn's message said in English (no Korean at all, two English words or more) while the
    message before it was not? An English question answered in Korean says so once, in English."""
    said = [m.get("content") or "" for m in state.get("messages") or [] if m.get("role") == "user"]
    if not said or not _said_in_english(said[-1]):
        return False
    return len(said) < 2 or not _said_in_english(said[-2])


def _no_content_reply(state: AgentState) -> bool:
    """A reply that is itself about the language or says nothing ("not_korean", small talk)."""
    reply = state.get("reply")
    return state.get("decision") == "reply" and (
        reply is None or not reply.key.startswith(("outside:", "overseas:"))
    )


def generate(state: AgentState, res: Resources) -> dict[str, Any]:
    decision = state.get("decision", "search")
    update: dict[str, Any] = {}
    now = turn_now(state, res)
    if decision == "reply":
        chunks = _reply_chunks(reply.key if (reply := state.get("reply")) else "no_content", res)
    elif decision == "clarify":
        clar = state.get("clarification")
        assert clar is not None, "the clarify decision needs a clarification"
        emit("clarification", clar.model_dump(mode="json"))
        chunks = tpl.clarification_answer(clar.question, [c.label for c in clar.choices])
        update["pending"] = clar
    elif decision == "context":
        chunks, refs = _context_chunks(state, res)
        if refs:
            emit("results", [card_for(s, now).model_dump(mode="json") for s in shown_for(refs, res)])
            if len(refs) == 1:
                update["focus"] = refs[0]["id"]
    else:
        chunks = _search_chunks(state, res)
    source = "template"
    if res.llm is not None and res.llm.generates and decision in ("search", "context"):
        gen = res.llm.generate_stream(state, "".join(chunks))
        for kind, piece in gen:
            if kind == "delta":
                emit("answer", inert(piece))
            else:
                emit("answer_reset", piece)
        if gen.text is not None:
            chunks, source = [gen.text], "llm"
    if source == "template" and english_turn(state) and not _no_content_reply(state):
        chunks = [text("answer.turn.english_note") + "\n", *chunks]
    # crawled names, menus and quotes (and what a model makes of them) stay text: no link, image
    # or HTML tag in an answer comes alive in any Markdown reader (agent/markdown.py)
    chunks = [inert(c) for c in chunks]
    said = "".join(chunks)
    if source == "template":
        for line in chunks:
            for piece in tpl.split_chunks(line, res.config.chunk_chars):
                emit("answer", piece)
    update.update(
        {
            "answer": said,
            "answer_source": source,
            "messages": [{"role": "assistant", "content": said}],
            "_decision": f"{decision} answer, {len(said)} chars ({source})",
        }
    )
    return update
