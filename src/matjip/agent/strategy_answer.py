"""Answers of seed 003's strategies (issue 14): say how the search was done — the route and its
samples, the travel estimate, the course's stops and times — and mark every estimate with "약".
Offline templates (``data/wording/strategy.toml``); every fact comes from the documents or the plan."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Final

from matjip.agent.acts import phrases
from matjip.agent.answer import _conditions, heading_wishes, hours_today, menu_text, restaurant_block
from matjip.agent.models import Card, LocationContext, SearchPlan, Shown, StrategyInfo
from matjip.agent.state import HitRecord
from matjip.documents import Restaurant
from matjip.geo.distance import haversine_m
from matjip.nlu.models import TravelMode
from matjip.nlu.strategy import activity_before, estimate_travel, rules
from matjip.text.josa import josa, particle
from matjip.wording import say, table, text

MODE_WORDS: Final = table("strategy.mode")  # "걸어서", "차로", "대중교통으로"
LINE_SOURCES: Final = table("strategy.line_source")  # "OSRM 도로 경로" …


def _wa(name: str) -> str:
    """ "잠실역과", "강남와"→"강남과"? no: the particle by the last syllable's final consonant."""
    last = name[-1] if name else ""
    if "가" <= last <= "힣":
        return name + ("과" if (ord(last) - 0xAC00) % 28 else "와")
    return name + "와"


def _topic(name: str) -> str:
    """ "만옥은", "딤딤섬 롯데월드몰점은", "BHC는": the topic particle by the last syllable."""
    last = name[-1] if name else ""
    if "가" <= last <= "힣":
        return name + ("은" if (ord(last) - 0xAC00) % 28 else "는")
    return name + "은(는)"


def travel_to_answer(doc: Restaurant, origin: LocationContext | None, mode: TravelMode) -> str:
    """ "두 번째 거기 잠실역에서 걸어가면 몇 분?": the offline estimate for that restaurant (straight
    line × detour ÷ speed, said with "약"), or what is missing to make one."""
    p = phrases()
    if doc.lat is None or doc.lon is None:
        return p.travel_no_coordinates.format(title=doc.title) + "\n"
    if origin is None or origin.lat is None or origin.lon is None:
        return p.travel_from_unknown.format(title=doc.title) + "\n"
    straight = haversine_m(origin.lat, origin.lon, doc.lat, doc.lon)
    path, minutes = estimate_travel(straight, mode)
    where = origin.name or origin.display_name or text("strategy.travel_to.default_origin")
    return (
        p.travel_answer.format(
            title=_topic(doc.title),
            origin=where,
            mode=MODE_WORDS[mode],
            minutes=minutes,
            straight=km(straight),
            path=km(path),
        )
        + "\n"
    )


def km(m: float) -> str:
    return f"{m / 1000:.1f}km" if m >= 1000 else f"{round(m / 10) * 10:.0f}m"


def caution_line(plan: SearchPlan, query: str | None = None) -> str | None:
    """Seed 003's disclaimer for pets and activities: the data only suggests it — or, for an activity
    said only as what one does before eating (``activity_before``), that it is no condition."""
    if plan.caution == "pet":
        return say("strategy.common.caution", text=rules().pet_text) + "\n"
    if plan.caution == "activity":
        before = activity_before(query) if query else None
        # "등산하고 막걸리": what one does first is no condition of the place, and nothing was estimated
        said = (
            rules().activity_text
            if before is None
            else rules().activity_before_text.format(word=josa(before, "은/는"))
        )
        return say("strategy.common.caution", text=said) + "\n"
    return None


def overseas_answer(name: str) -> list[str]:
    return [say("strategy.common.overseas", name=name, answer=rules().overseas_answer) + "\n"]


def abroad_answer(
    plan: SearchPlan, live: Sequence[Card], info: StrategyInfo | None, notes: Sequence[str]
) -> list[str]:
    if not live:
        return [
            *(n + "\n" for n in notes),
            *overseas_answer(plan.overseas or text("strategy.common.somewhere")),
        ]
    chunks = [
        *(n + "\n" for n in notes),
        say("strategy.abroad.heading", place=plan.overseas, n=len(live)) + "\n\n",
    ]
    for i, c in enumerate(live, start=1):
        cuisine = c.cuisine or text("strategy.common.place")
        chunks.append(say("strategy.abroad.card", number=i, name=c.name, cuisine=cuisine) + "\n")
        if c.address:
            chunks.append(say("answer.card.address", address=c.address) + "\n")
        chunks.append("\n")
    return chunks


def live_answer(plan: SearchPlan, live: Sequence[Card], notes: Sequence[str]) -> list[str]:
    """Places from Kakao Local around a place the index does not cover."""
    where = plan.location.name if plan.location else text("strategy.common.somewhere")
    chunks = [
        *(n + "\n" for n in notes),
        say("strategy.live.heading", where=where, n=len(live)) + "\n\n",
    ]
    for i, c in enumerate(live, start=1):
        dist = (
            say("strategy.live.distance", where=where, distance=km(c.distance_m))
            if c.distance_m is not None
            else ""
        )
        cuisine = c.cuisine or text("strategy.common.place")
        chunks.append(say("strategy.live.card", number=i, name=c.name, cuisine=cuisine, distance=dist) + "\n")
        if c.address:
            chunks.append(say("answer.card.address", address=c.address) + "\n")
        chunks.append("\n")
    return chunks


def _block(i: int, s: Shown, plan: SearchPlan, now: datetime, head_extra: str) -> list[str]:
    lines = restaurant_block(i, s, plan, now, None)
    first = lines[0].rstrip("\n")
    if first.endswith(")"):
        first = first[:-1] + f" · {head_extra})"
    return [first + "\n", *lines[1:]]


def route_answer(
    shown: Sequence[Shown],
    hits: Sequence[HitRecord],
    plan: SearchPlan,
    now: datetime,
    info: StrategyInfo | None,
    notes: Sequence[str],
) -> list[str]:
    r = plan.route
    assert r is not None
    info = info or StrategyInfo()
    a, b = r.origin.name, r.destination.name
    how = (
        say("strategy.route.how_line", source=LINE_SOURCES.get(info.line_source, info.line_source))
        if info.line_source != "straight"
        else text("strategy.route.how_straight")
    )
    where = (
        say("strategy.route.between", a=_wa(a), b=b) if r.between else say("strategy.route.path", a=a, b=b)
    )
    chunks = [n + "\n" for n in notes]
    heading = say(
        "strategy.route.heading",
        where=where,
        total=km(info.total_m),
        how=how,
        interval=km(info.interval_m),
        samples=info.samples,
        radius=km(info.radius_m),
        middle=text("strategy.route.middle_first") if r.between else "",
    )
    chunks.append(heading + "\n")
    if not shown:
        chunks.append(say("strategy.route.none", conditions=josa(_conditions(plan), "을/를")) + "\n")
        return chunks
    backed, caveats = heading_wishes(shown, plan)  # the heading names only what the cards show
    said = say("answer.search.caveats", caveats="; ".join(caveats)) if caveats else ""
    found = say("strategy.route.found", conditions=_conditions(backed), n=len(shown), a=a, caveats=said)
    chunks.append(found + "\n\n")
    rec = {h["id"]: h for h in hits}
    for i, s in enumerate(shown, start=1):
        h = rec.get(s.doc.place_id, {})
        extra = say(
            "strategy.route.card",
            a=a,
            b=b,
            segment=h.get("segment", ""),
            along=km(float(h.get("along_m") or 0)),
            detour=km(float(h.get("detour_m") or 0)),
        )
        chunks += _block(i, s, plan, now, extra)
        chunks.append("\n")
    chunks.append(text("strategy.route.detour_note") + "\n")
    return chunks


def travel_answer(
    shown: Sequence[Shown],
    hits: Sequence[HitRecord],
    plan: SearchPlan,
    now: datetime,
    info: StrategyInfo | None,
    notes: Sequence[str],
) -> list[str]:
    t = plan.travel
    loc = plan.location
    assert t is not None and loc is not None
    info = info or StrategyInfo()
    mode_word = MODE_WORDS[t.estimate_mode]
    limit = (
        say("strategy.travel.limit_minutes", mode=MODE_WORDS.get(t.mode or "", ""), minutes=t.minutes).strip()
        if t.minutes is not None
        else f"{km(t.threshold_m)}"
    )
    chunks = [n + "\n" for n in notes]
    rule = rules().travel.modes[t.estimate_mode]
    if info.travel_source == "estimate":
        how = say(
            "strategy.travel.how_estimate", detour=rule.detour, speed=rule.speed_m_per_min, mode=mode_word
        )
    else:
        how = say(
            "strategy.travel.how_source", source=LINE_SOURCES.get(info.travel_source, info.travel_source)
        )
    heading = say(
        "strategy.travel.heading", origin=loc.name, limit=limit, radius=km(loc.radius_m or 0), how=how
    )
    chunks.append(heading + "\n")
    if not shown:
        chunks.append(say("strategy.travel.none", limit=limit, conditions=_conditions(plan)) + "\n")
        return chunks
    backed, caveats = heading_wishes(shown, plan)  # the heading names only what the cards show
    said = "; ".join([text("strategy.travel.nearest_first"), *caveats])
    chunks.append(
        say("strategy.travel.found", conditions=_conditions(backed), n=len(shown), notes=said) + "\n\n"
    )
    rec = {h["id"]: h for h in hits}
    for i, s in enumerate(shown, start=1):
        h = rec.get(s.doc.place_id, {})
        approx = text("strategy.travel.approx") if h.get("travel_estimate", True) else ""
        extra = say(
            "strategy.travel.card",
            mode=mode_word,
            approx=approx,
            minutes=h.get("travel_min"),
            distance=km(float(h.get("travel_m") or 0)),
        )
        chunks += _block(i, s, plan, now, extra)
        chunks.append("\n")
    return chunks


def course_answer(
    shown: Sequence[Shown],
    hits: Sequence[HitRecord],
    live: Sequence[Card],
    plan: SearchPlan,
    now: datetime,
    info: StrategyInfo | None,
    notes: Sequence[str],
) -> list[str]:
    c = plan.course
    loc = plan.location
    assert c is not None and loc is not None
    info = info or StrategyInfo()
    chunks = [n + "\n" for n in notes]
    mode_word = MODE_WORDS[c.mode]
    heading = say(
        "strategy.course.heading",
        place=loc.name,
        days=say("strategy.course.days", days=c.days) if c.days > 1 else "",
        roles=" → ".join(r for r in c.roles if r not in info.uncovered_roles) or " → ".join(c.roles),
        mode=mode_word,
        leg=km(c.leg_m),
    )
    chunks.append(heading + "\n\n")
    stops: list[tuple[int, int, HitRecord | None, Card | None]] = []
    for rec in hits:
        stops.append((int(rec.get("day") or 1), int(rec.get("stop") or 0), rec, None))
    for live_card in live:
        stops.append((live_card.day_group or 1, live_card.stop or 0, None, live_card))
    stops.sort(key=lambda x: (x[0], x[1]))
    chunks += _course_stops(stops, {s.doc.place_id: s for s in shown}, c.days, mode_word, now)
    if not stops:
        chunks.append(text("strategy.course.none") + "\n")
    far = [
        n
        for n, (_, _, h, _) in enumerate(stops, start=1)
        if h is not None and (h.get("leg_m") or 0) > c.leg_m
    ]
    if far:
        numbers = ", ".join(say("strategy.course.stop_number", n=n) for n in far)
        chunks.append(say("strategy.course.far", stops=numbers, leg=km(2 * c.leg_m)) + "\n")
    missing = [r for r in c.roles if r not in {h.get("role") for h in hits} and r not in info.uncovered_roles]
    missing = [r for r in dict.fromkeys(missing) if r not in {lc.trip_role for lc in live}]
    if missing:
        chunks.append(say("strategy.course.missing", roles=", ".join(missing)) + "\n")
    if info.uncovered_roles:
        roles = ", ".join(info.uncovered_roles)
        chunks.append(say("strategy.course.uncovered", roles=roles, topic=particle(roles, "은/는")) + "\n")
    chunks.append(text("strategy.course.estimate_note") + "\n")
    return chunks


def _course_stops(
    stops: Sequence[tuple[int, int, HitRecord | None, Card | None]],
    by_id: dict[str, Shown],
    days: int,
    mode_word: str,
    now: datetime,
) -> list[str]:
    """The course's stops in order, a day heading before each day of a trip of several."""
    chunks: list[str] = []
    day_now = 0
    for n, (day, _, h, card) in enumerate(stops, start=1):
        if days > 1 and day != day_now:
            chunks.append(say("strategy.course.day", day=day) + "\n")
            day_now = day
        if card is not None:
            chunks += _live_stop(n, card, mode_word)
            continue
        assert h is not None
        s = by_id.get(h["id"])
        if s is not None:
            chunks += _document_stop(n, h, s, mode_word, now)
    return chunks


def _live_stop(n: int, card: Card, mode_word: str) -> list[str]:
    """A stop found live on Kakao (not in the index)."""
    leg = (
        say("strategy.course.live_leg", mode=mode_word, minutes=card.leg_minutes) if card.leg_minutes else ""
    )
    line = say(
        "strategy.course.live_stop",
        number=n,
        slot=card.slot,
        role=card.trip_role,
        name=card.name,
        cuisine=card.cuisine,
        leg=leg,
    )
    chunks = [line + "\n"]
    if card.address:
        chunks.append(say("strategy.course.address", address=card.address) + "\n")
    return chunks


def _document_stop(n: int, h: HitRecord, s: Shown, mode_word: str, now: datetime) -> list[str]:
    """A stop of the index: its slot and role, the leg from the stop before, its menu and hours."""
    leg = (
        say(
            "strategy.course.leg",
            mode=mode_word,
            minutes=h.get("leg_min"),
            distance=km(float(h.get("leg_m") or 0)),
        )
        if h.get("leg_min")
        else ""
    )
    line = say(
        "strategy.course.stop",
        number=n,
        slot=h.get("slot"),
        role=h.get("role"),
        title=s.doc.title,
        cuisine=s.doc.cuisine,
        leg=leg,
    )
    chunks = [line + "\n"]
    menus = menu_text(s.doc)
    if menus:
        chunks.append(say("strategy.course.menus", menus=menus) + "\n")
    today = hours_today(s.doc, now)
    chunks.append(
        say("strategy.course.hours_today", hours=today) + "\n"
        if today
        else text("strategy.course.hours_unknown") + "\n"
    )
    return chunks
