"""Seed 003's search strategies (issue 14): along a route, within a travel time or distance, a
course of stops, and places abroad. The plan fields come from :func:`seed_plan_fields` (offline
planner) and are validated by :func:`matjip.agent.plan.validate_plan`; every request is built from
the validated plan. A live provider (routing, Kakao Local, Google Places) is used when configured;
any failure falls back to the offline strategy with the reason in the trace and the answer says
what is an estimate.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Final, NamedTuple

from pydantic import BaseModel

from matjip.agent.cardinfo import shut_today
from matjip.agent.configuration import LivePlaceLike, Resources
from matjip.agent.models import Card, CoursePlan, LocationContext, PlanLocation, SearchPlan, StrategyInfo
from matjip.agent.nodes.common import hit_record, state_plan, turn_now
from matjip.agent.plan import to_requests
from matjip.agent.retrieval.filters import cheaper_fill, cheaper_fill_note, within_budget
from matjip.agent.retrieval.rank import kind_strength, one_per_brand
from matjip.agent.state import AgentState, HitRecord
from matjip.geo.distance import haversine_m
from matjip.geo.route import Point, detour_m, length_m, locate, sample, straight
from matjip.index.ranking import local_key
from matjip.index.request import MAX_K, GeoFilter, OpenAt, SearchHit, SearchRequest
from matjip.kinds import kinds
from matjip.nlu.models import NLUResult, StrategySpec, TravelMode, TripRole
from matjip.nlu.strategy import RoleRule, estimate_travel, rules, travel_threshold_m
from matjip.text.josa import josa
from matjip.wording import say, text, variants

# a stop whose usual slot is not after the stop before it follows that one by this much
_STOP_GAP = timedelta(minutes=90)
_LATE_SLOT = timedelta(hours=3)  # a stop's usual time this long before now moves to now
# a route whose two ends lie closer than this is one place: searched around it, said so
_SAME_PLACE_M = 300

SEGMENTS: Final = variants("strategies.route.segments")  # a route's thirds, in order
GPS_NAME: Final = text("strategies.route.gps_name")  # a route's start at the device's position


# --- planning ------------------------------------------------------------------------------------


def route_radius(total_m: float) -> int:
    """Seed 003's search radius (도심 3 km, 외곽 4 km, 장거리 5 km) adapted to the covered area: the
    data is dense city data, so at most ``radius_share`` of the route and at least ``min_radius_m``."""
    r = rules().route
    km = total_m / 1000
    seed = (
        r.radius_city_m
        if km <= r.city_max_km
        else r.radius_outer_m
        if km <= r.outer_max_km
        else r.radius_long_m
    )
    return int(max(r.min_radius_m, min(seed, total_m * r.radius_share)))


def route_interval(total_m: float, radius_m: int) -> int:
    """Seed 003: ``interval = min(2 × searchRadius, ceil(totalDistance / 20))``."""
    return int(min(2 * radius_m, math.ceil(total_m / 20))) or 1


def seed_plan_fields(
    state: AgentState, res: Resources, location: dict[str, Any] | None
) -> tuple[dict[str, Any], list[str]]:
    """The raw plan fields of seed 003's strategy said in this turn's message (validated later),
    and notes for the answer."""
    nlu = state.get("nlu") or NLUResult()
    spec = nlu.strategy
    out: dict[str, Any] = {"caution": spec.caution}
    notes: list[str] = []
    if spec.overseas and not any(spec.overseas in t for t in nlu.entities.title):  # not "도톤보리 잠실점"
        out["overseas"] = spec.overseas
        return out, notes
    if state.get("refine") and state.get("searches") and not spec.strategy:
        # "더 싼 데는?", "5개 보여줘" after a route or a course: the same strategy, one slot changed
        prev = state["searches"][-1]
        frame = prev.get("frame") or prev.get("plan")
        if frame is not None and frame.strategy in ("route", "point_travel", "course"):
            out["strategy"] = frame.strategy
            for key in ("route", "travel", "course"):
                value = getattr(frame, key)
                if value is not None:
                    out[key] = value.model_dump(mode="json")
        return out, notes
    # "아니 그냥 장지역에서 복정역 가는 길에 있는 걸로": a route said in a refinement is the new way to search
    refined = state.get("refine") and spec.strategy != "route"
    if refined or state.get("anchor") or state.get("compare_titles"):
        return out, notes
    if spec.strategy == "route":
        _route_fields(spec, state, res, out, notes, location)
    elif spec.strategy == "point_travel" and location is not None:
        threshold, mode = travel_threshold_m(spec)
        out["strategy"] = "point_travel"
        out["travel"] = {
            "minutes": spec.minutes,
            "mode": spec.mode,
            "estimate_mode": mode,
            "km": spec.km,
            "threshold_m": round(threshold),
        }
    elif spec.strategy == "course" and location is not None:
        c = rules().course
        mode = spec.mode or "walk"
        out["strategy"] = "course"
        out["course"] = {
            "roles": spec.roles,
            "slot_words": spec.slot_words,
            "days": spec.days or 1,
            "mode": mode,
            "leg_m": c.walk_leg_m if mode == "walk" else c.car_leg_m,
        }
    return out, notes


def _route_fields(
    spec: StrategySpec,
    state: AgentState,
    res: Resources,
    out: dict[str, Any],
    notes: list[str],
    location: dict[str, Any] | None = None,
) -> None:
    """A route's plan fields when both ends are known places (no start said: the device's
    position, else another place the message names), else a note saying why the search is around
    one place instead."""
    ends = [_end(n, res) for n in (spec.origin, spec.destination)]
    gps = state.get("gps")
    if spec.origin is None and gps:
        # "잠실 가는 길목에": from where the person is
        ends[0] = _GpsEnd(lat=float(gps["lat"]), lon=float(gps["lon"]))
    elif spec.origin is None and (start := _other_place(location, ends[1])) is not None:
        # "문정역인데 가락시장역 가는 길에": the place the message is about is the start
        spec = spec.model_copy(update={"origin": start[0]})
        ends[0] = start[1]
    a, b = ends
    if a is not None and b is not None and haversine_m(a.lat, a.lon, b.lat, b.lon) < _SAME_PLACE_M:
        # "성내역에서 잠실나루 가는 길" (one station by its old and new name): no way between them
        origin, destination = josa(f"'{spec.origin}'", "과/와"), josa(f"'{spec.destination}'", "은/는")
        notes.append(say("strategies.route.same_place", origin=origin, destination=destination))
        return
    if a is not None and b is not None:
        total = haversine_m(a.lat, a.lon, b.lat, b.lon)
        radius = route_radius(total)
        out["strategy"] = "route"
        out["route"] = {
            "origin": {"name": spec.origin or GPS_NAME, "lat": a.lat, "lon": a.lon},
            "destination": {"name": spec.destination, "lat": b.lat, "lon": b.lon},
            "between": spec.between,
            "search_radius_m": radius,
            "interval_m": route_interval(total, radius),
        }
        return
    missing = next(n for n, p in zip((spec.origin, spec.destination), ends, strict=True) if p is None)
    if missing is None:  # "잠실 가는 길목에" with no position sent
        notes.append(say("strategies.route.no_origin", destination=spec.destination))
    else:
        notes.append(say("strategies.route.unknown_end", place=missing))


def _other_place(location: dict[str, Any] | None, destination: Any) -> tuple[str, _GpsEnd] | None:
    """The turn's named place when it lies away from the route's destination, as a start."""
    if not location or destination is None or location.get("type") == "GPS":
        return None
    lat, lon, name = location.get("lat"), location.get("lon"), location.get("name")
    if lat is None or lon is None or not name:
        return None
    if haversine_m(float(lat), float(lon), destination.lat, destination.lon) < _SAME_PLACE_M:
        return None
    return str(name), _GpsEnd(lat=float(lat), lon=float(lon))


class _GpsEnd(BaseModel):
    lat: float
    lon: float


def _end(name: str | None, res: Resources) -> Any:
    return res.gazetteer.best(name) if name else None


def route_context(
    nlu: NLUResult, res: Resources, gps: tuple[float, float] | None = None
) -> LocationContext | None:
    """The start of a route said in the message, as the turn's location (both ends must be places
    the gazetteer knows; the route's own coverage is judged by its search, not by the start). With
    no start said ("잠실 가는 길목에"), the device's position is the start when it was sent."""
    spec = nlu.strategy
    if spec.strategy != "route" or not spec.destination:
        return None
    if not spec.origin:
        if gps is None or res.gazetteer.best(spec.destination) is None:
            return None
        return LocationContext(type="GPS", name=GPS_NAME, lat=gps[0], lon=gps[1])
    a, b = res.gazetteer.best(spec.origin), res.gazetteer.best(spec.destination)
    if a is None or b is None:
        return None
    return LocationContext(
        type="CONTEXTUAL",
        name=spec.origin,
        display_name=a.display_name,
        place_type=str(a.type),
        lat=a.lat,
        lon=a.lon,
        mode="near",
        radius_m=a.default_radius_m,
    )


# --- searching -----------------------------------------------------------------------------------


def _base_request(p: SearchPlan) -> SearchRequest:
    """The plan's filters without its place (a route or a course measures places itself)."""
    req = to_requests(p.model_copy(update={"location": None, "sort": "relevance"}))[0]
    return req.model_copy(update={"k": MAX_K})


def _point(h: SearchHit) -> Point | None:
    d = h.document
    return (d.lat, d.lon) if d.lat is not None and d.lon is not None else None


def search_route(state: AgentState, res: Resources) -> dict[str, Any]:
    """Seed 003's route strategy: a polyline (routing provider, else the straight line marked as an
    estimate), samples every ``min(2 × radius, ceil(total / 20))`` m, one request for places near any
    sample, then deduplicated, ranked by detour and distance from the start, spread over segments."""
    p = state_plan(state)
    r = p.route
    assert r is not None and r.origin.lat is not None and r.origin.lon is not None
    assert r.destination.lat is not None and r.destination.lon is not None
    a: Point = (r.origin.lat, r.origin.lon)
    b: Point = (r.destination.lat, r.destination.lon)
    info = StrategyInfo()
    line = _route_line(a, b, res, info)
    total = length_m(line)
    radius = r.search_radius_m
    interval = route_interval(total, radius)
    samples = sample(line, interval, rules().route.max_samples)
    info.total_m, info.samples, info.radius_m = round(total), len(samples), radius
    info.interval_m = round(max(interval, total / max(1, rules().route.max_samples - 1)))
    req = _base_request(p).model_copy(
        update={
            "near_any": [GeoFilter(lat=s[0], lon=s[1], radius_m=radius) for s in samples],
            "k": min(MAX_K, max(24, 8 * p.k)),  # room to spread over the segments
        }
    )
    resp = res.index.search(req)
    scored: list[tuple[SearchHit, float, float]] = []
    # a budget is the place's typical price, as in every search ("더 싼 데": of the whole menu; too few
    # below the list's typical price, those below its dearest follow: filters.cheaper_fill)
    within, fill = cheaper_fill(resp.hits, p, cheaper=bool(state.get("cheaper")))
    filled = {h.document.place_id for h in fill}
    for h in [*within, *fill]:
        pt = _point(h)
        if pt is None:
            continue
        along, _ = locate(line, pt)
        scored.append((h, along, detour_m(line, pt)))
    middle = total / 2
    step = rules().route.detour_step_m
    # one walks the way now (or at the time asked): a place shut by then for the day goes after the
    # open ones, whatever its detour (audit r11 Q13: a bakery shut all Saturday first on a noon walk)
    at = p.open_at or p.open_wished or turn_now(state, res)

    def rank(x: tuple[SearchHit, float, float]) -> tuple[float, ...]:
        h, along, detour = x
        strength = kind_strength(h, p.kinds) if p.kinds else 0
        centre = abs(along - middle) // 1000 if r.between else 0
        shut = 1 if shut_today(h.document.hours, at) else 0
        # within a detour step, the place a local trusts (index.ranking)
        filler = h.document.place_id in filled
        return (filler, strength, centre, shut, detour // step, local_key(h.document), along)

    scored.sort(key=rank)
    by_id = {h.document.place_id: (along, detour) for h, along, detour in scored}
    ordered = one_per_brand([h for h, _, _ in scored], len(scored), res)
    along_of = {i: x[0] for i, x in by_id.items()}
    # the places along the way (within a detour step) are spread over the segments first; a place off
    # it (past the destination, 370 m of detour) only fills what they leave (audit r12 Q13)
    on_way = [h for h in ordered if by_id[h.document.place_id][1] < step]
    off_way = [h for h in ordered if by_id[h.document.place_id][1] >= step]
    picked = _spread(on_way, along_of, total, r.between, p.k)
    if len(picked) < p.k:
        picked += _spread(off_way, along_of, total, r.between, p.k - len(picked))
        picked.sort(key=lambda h: along_of[h.document.place_id])
    records: list[HitRecord] = []
    for h in picked:
        along, detour = by_id[h.document.place_id]
        rec = hit_record(h, r.origin.name)
        rec["along_m"] = round(haversine_m(a[0], a[1], h.document.lat or a[0], h.document.lon or a[1]))
        rec["detour_m"] = round(detour)
        rec["segment"] = SEGMENTS[_segment(along, total)]
        rec["distance_m"] = None  # measured from the start instead (along_m)
        records.append(rec)
    update: dict[str, Any] = {}
    if filled & {h.document.place_id for h in picked}:
        update["relax_notes"] = [*(state.get("relax_notes") or []), cheaper_fill_note(p, within)]
        update["plan"] = p.model_copy(update={"price_max": p.price_max_wider, "price_max_wider": None})
    return {
        **update,
        "hits": records,
        "strategy_info": info,
        "_decision": f"route {r.origin.name}→{r.destination.name}: {len(samples)} samples, "
        f"{resp.total_candidates} candidates, {len(records)} picked",
        "_detail": {**info.model_dump(exclude_none=True), "took_ms": resp.took_ms},
    }


def _route_line(a: Point, b: Point, res: Resources, info: StrategyInfo) -> list[Point]:
    """The routing provider's polyline, else the straight line (said as an estimate in ``info``)."""
    line: list[Point] = straight(a, b)
    if res.routing is not None:
        try:
            got = res.routing.route(a, b, "car")
            line, info.line_source = list(got.points), got.source
        except Exception as exc:  # any provider failure: the straight line, said as an estimate
            info.fallback = f"routing failed ({type(exc).__name__}: {str(exc)[:120]}); straight line"
    return line


def _spread(
    ordered: list[SearchHit], along: dict[str, float], total: float, between: bool, k: int
) -> list[SearchHit]:
    """Spread over the route's segments: the best of each in turn (the middle first for "사이"),
    then in the order of the way."""
    picked: list[SearchHit] = []
    segments: dict[int, list[SearchHit]] = {0: [], 1: [], 2: []}
    for h in ordered:
        segments[_segment(along[h.document.place_id], total)].append(h)
    turn = [1, 0, 2] if between else [0, 1, 2]
    while len(picked) < k and any(segments.values()):
        for s in turn:
            if segments[s] and len(picked) < k:
                picked.append(segments[s].pop(0))
    picked.sort(key=lambda h: along[h.document.place_id])  # in the order of the way
    return picked


def _segment(along: float, total: float) -> int:
    if total <= 0:
        return 0
    return min(2, int(3 * along / total))


def search_travel(state: AgentState, res: Resources) -> dict[str, Any]:
    """Seed 003's point travel: a radius of threshold × 1.5, then the travel distance or time of
    each place — from the routing provider, else the offline estimate (distance × detour ÷ speed) —
    filtered by the threshold and sorted by it."""
    p = state_plan(state)
    t = p.travel
    loc = p.location
    assert t is not None and loc is not None and loc.lat is not None and loc.lon is not None
    req = to_requests(p)[0].model_copy(update={"k": MAX_K, "sort": "relevance"})
    resp = res.index.search(req)
    budget = within_budget(resp.hits, p, cheaper=bool(state.get("cheaper")))
    hits = [h for h in budget if _point(h) is not None]
    info = StrategyInfo(radius_m=loc.radius_m or 0)
    mode: TravelMode = t.estimate_mode
    legs = _legs((loc.lat, loc.lon), hits, mode, res, info)
    kept: list[tuple[SearchHit, tuple[float, int, bool]]] = [
        (h, leg)
        for h, leg in zip(hits, legs, strict=True)
        if (leg[1] <= t.minutes if t.minutes is not None else leg[0] <= t.threshold_m)
    ]
    # within the threshold: the kind, then the place a local trusts (index.ranking), nearer a
    # little better, then the time
    limit = float(t.minutes if t.minutes is not None else t.threshold_m)
    kept.sort(
        key=lambda x: (
            kind_strength(x[0], p.kinds) if p.kinds else 0,
            local_key(x[0].document, x[1][1] if t.minutes is not None else x[1][0], limit),
            x[1][1],
            x[1][0],
        )
    )
    chosen = one_per_brand([h for h, _ in kept], p.k, res)
    leg_of = {h.document.place_id: leg for h, leg in kept}
    chosen.sort(key=lambda h: (leg_of[h.document.place_id][1], leg_of[h.document.place_id][0]))
    records: list[HitRecord] = []
    for h in chosen:
        metres, minutes, estimate = leg_of[h.document.place_id]
        rec = hit_record(h, loc.name)
        rec["travel_m"], rec["travel_min"], rec["travel_estimate"] = round(metres), minutes, estimate
        records.append(rec)
    return {
        "hits": records,
        "strategy_info": info,
        "_decision": f"point travel {t.minutes or ''}{'분' if t.minutes else ''} {t.threshold_m}m ({mode}): "
        f"{len(kept)} of {len(hits)} within, {len(records)} shown",
        "_detail": {**info.model_dump(exclude_none=True), "took_ms": resp.took_ms},
    }


def _legs(
    start: Point, hits: list[SearchHit], mode: TravelMode, res: Resources, info: StrategyInfo
) -> list[tuple[float, int, bool]]:
    """(metres, minutes, estimate) of each hit from ``start``: the routing provider's, else (it
    fails or misses one) the offline estimate (distance × detour ÷ speed)."""
    legs: list[tuple[float, int, bool]] = []
    if res.routing is not None and hits:
        try:
            got = res.routing.travel(start, [_point(h) or (0.0, 0.0) for h in hits], mode)
            for leg in got:
                if leg.distance_m is None or leg.duration_s is None:
                    raise ValueError("a destination without a route")
                legs.append((leg.distance_m, max(1, math.ceil(leg.duration_s / 60)), False))
            info.travel_source = res.routing.source
        except Exception as exc:
            info.fallback = f"routing failed ({type(exc).__name__}: {str(exc)[:120]}); offline estimate"
            legs = []
    if len(legs) != len(hits):
        legs = []
    if not legs:
        for h in hits:
            metres, minutes = estimate_travel(h.distance_m or 0.0, mode)
            legs.append((metres, minutes, True))
    return legs


def course_days(roles: list[TripRole], words: list[str], days: int) -> list[list[tuple[TripRole, str]]]:
    """Stops per day: a sequence with 숙박 in it is the whole trip, split after each night (the
    next day's first meal is brunch); otherwise every day has the same stops."""
    stops = list(zip(roles, words, strict=False))
    if "숙박" in roles and days > 1:
        out: list[list[tuple[TripRole, str]]] = [[]]
        for role, word in stops:
            times = set(rules().course.slots) - set(rules().course.roles)
            if not out[-1] and len(out) > 1 and role == "식사" and word not in times:
                word = "브런치"
            out[-1].append((role, word))
            if role == "숙박" and len(out) < days:
                out.append([])
        return [d for d in out if d]
    return [stops for _ in range(days)]


def _slot_time(
    day: datetime, word: str, role: TripRole, after: datetime | None = None, floor: datetime | None = None
) -> tuple[datetime, str]:
    """The stop's time by its word or role; never before the stop ``after`` it follows ("저녁이랑 카페":
    the café after dinner, ``_STOP_GAP`` later, not at its usual afternoon slot), nor before ``floor``
    (now, for today's stops: "저녁 코스" asked at 19:40 is not "저녁 18:30")."""
    slots = rules().course.slots
    minute = slots.get(word, slots.get(role, 750))
    label = word if word in slots and word not in rules().course.roles else role
    when = day.replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(minutes=minute)
    if after is not None and when <= after:
        when = after + _STOP_GAP
    if floor is not None and when < floor <= when + _LATE_SLOT:
        # asked a little after the stop's usual time ("저녁 코스" at 19:40): now; long after it
        # ("점심 코스" at 17:20) the slot as said stays, a plan rather than a walk out the door
        when = floor.replace(second=0, microsecond=0)
    return when, f"{label} {when:%H:%M}"


def _live_card(place: LivePlaceLike, extra: dict[str, Any]) -> Card:
    source = "kakao" if place.source.startswith("kakao") else "google"
    return Card(
        id=place.id,
        name=place.name,
        cuisine=place.category.split(">")[-1].strip() or text("strategies.live.unknown_category"),
        category=place.category,
        address=place.address,
        lat=place.lat,
        lon=place.lon,
        telephone=place.phone,
        source_type=source,  # type: ignore[arg-type]
        url=place.url,
        **extra,
    )


@dataclass
class _Trip:
    """A course being built (:func:`search_course`): its plan and the stops chosen so far."""

    plan: SearchPlan
    course: CoursePlan
    loc: PlanLocation
    base: SearchRequest  # the plan's filters without its place
    span: int  # later stops of a day stay this close to its first
    info: StrategyInfo
    chosen: set[str] = field(default_factory=set)
    records: list[HitRecord] = field(default_factory=list)
    live: list[Card] = field(default_factory=list)
    stop: int = 0


class _Stop(NamedTuple):
    """One stop to fill: its role, the word that named it, its day and time, where it starts."""

    role: TripRole
    word: str
    day: int
    slot: str  # "점심 12:30"
    when: datetime
    prev: Point  # the previous stop (the plan's place for a day's first)
    radius: int
    first: bool


def search_course(state: AgentState, res: Resources) -> dict[str, Any]:
    """Seed 003's course: for each day and each role in order, the best place of the role open at
    the stop's time within walking distance (``leg_m``) of the previous stop (the first around the
    plan's place). 관광지 and 숙박 come from Kakao Local when configured, else are named as not
    covered."""
    p = state_plan(state)
    c = p.course
    loc = p.location
    assert c is not None and loc is not None and loc.lat is not None and loc.lon is not None
    trip = _Trip(
        plan=p,
        course=c,
        loc=loc,
        base=_base_request(p).model_copy(update={"kind": [], "cuisine": [], "menu": [], "k": 30}),
        span=rules().course.walk_span_m if c.mode == "walk" else rules().course.car_span_m,
        info=StrategyInfo(days=c.days),
    )
    start = turn_now(state, res)
    for day, plan_day in enumerate(course_days(c.roles, c.slot_words, c.days), start=1):
        _course_day(trip, res, day, start + timedelta(days=day - 1), plan_day)
    info = trip.info
    return {
        "hits": trip.records,
        "live_cards": trip.live,
        "strategy_info": info,
        "_decision": f"course {c.days}일 {'-'.join(c.roles)}: {len(trip.records)} stops"
        + (f" + {len(trip.live)} live" if trip.live else "")
        + (f"; not covered: {', '.join(info.uncovered_roles)}" if info.uncovered_roles else ""),
        "_detail": info.model_dump(exclude_none=True),
    }


def _course_day(
    trip: _Trip, res: Resources, day: int, date: datetime, stops: list[tuple[TripRole, str]]
) -> None:
    """One day's stops in order, each within a leg of the one before."""
    loc, c = trip.loc, trip.course
    assert loc.lat is not None and loc.lon is not None
    prev: Point = (loc.lat, loc.lon)
    day_first: Point | None = None  # later stops stay within ``span`` of the day's first stop
    last: datetime | None = None
    for role, word in stops:
        when, slot = _slot_time(date, word, role, last, date if day == 1 else None)
        rule = rules().course.roles[role]
        if rule.live_category and res.places is None:
            _uncovered(trip.info, role)  # no stop, so no time taken: the next stop keeps this one's time
            continue
        last = when
        first = prev == (loc.lat, loc.lon)
        radius = max(loc.radius_m or 1000, c.leg_m) if first else c.leg_m
        stop = _Stop(role, word, day, slot, when, prev, radius, first)
        if rule.live_category:
            prev = _live_stop(trip, res, stop, rule.live_category)
            continue
        pt = _index_stop(trip, res, stop, rule, day_first)
        if pt is not None:
            prev = pt
            day_first = day_first or pt


def _uncovered(info: StrategyInfo, role: TripRole) -> None:
    if role not in info.uncovered_roles:
        info.uncovered_roles.append(role)


def _live_stop(trip: _Trip, res: Resources, s: _Stop, category: str) -> Point:
    """A 관광지 or 숙박 stop from Kakao Local (none configured: named as not covered); where the
    next stop starts."""
    if res.places is None:
        _uncovered(trip.info, s.role)
        return s.prev
    try:
        found = res.places.category(category, s.prev[0], s.prev[1], max(s.radius, 2000), 5)
    except Exception as exc:
        trip.info.fallback = f"kakao local failed ({type(exc).__name__}: {str(exc)[:120]})"
        _uncovered(trip.info, s.role)
        return s.prev
    pick = next((f for f in found if f.id not in trip.chosen and f.lat is not None), None)
    if pick is None or pick.lat is None or pick.lon is None:
        return s.prev
    trip.stop += 1
    leg = haversine_m(s.prev[0], s.prev[1], pick.lat, pick.lon)
    trip.chosen.add(pick.id)
    trip.info.live_source = "kakao"
    extra = {
        "stop": trip.stop,
        "trip_role": s.role,
        "day_group": s.day,
        "slot": s.slot,
        "leg_m": None if s.first else round(leg),
        "leg_minutes": None if s.first else estimate_travel(leg, trip.course.mode)[1],
    }
    trip.live.append(_live_card(pick, extra))
    return (pick.lat, pick.lon)


def _index_stop(
    trip: _Trip, res: Resources, s: _Stop, rule: RoleRule, day_first: Point | None
) -> Point | None:
    """The best place of the role from the index, open at the stop's time; where it is, or None
    when there is none."""
    update = _stop_request(trip, s, rule)
    cands = _stop_candidates(trip, res, update, s, day_first)[:5]  # the best five, as before the span
    hits = sorted(cands, key=lambda h: kind_strength(h, update["kind"]) if update["kind"] else 0)
    hits = one_per_brand(hits, 1, res)
    if not hits or _point(hits[0]) is None:
        return None
    h = hits[0]
    pt = _point(h) or s.prev
    leg = haversine_m(s.prev[0], s.prev[1], pt[0], pt[1])
    trip.stop += 1
    rec = hit_record(h, trip.loc.name)
    rec["stop"], rec["role"], rec["day"], rec["slot"] = trip.stop, s.role, s.day, s.slot
    if not s.first:
        rec["leg_m"], rec["leg_min"] = round(leg), estimate_travel(leg, trip.course.mode)[1]
    trip.records.append(rec)
    trip.chosen.add(h.document.place_id)
    return pt


def _stop_request(trip: _Trip, s: _Stop, rule: RoleRule) -> dict[str, Any]:
    """The request fields of a stop: around the previous stop, open then, the role's kinds."""
    p, base = trip.plan, trip.base
    update: dict[str, Any] = {
        "geo": GeoFilter(lat=s.prev[0], lon=s.prev[1], radius_m=float(s.radius)),
        "open_at": OpenAt(when=s.when),
        "exclude_ids": [*base.exclude_ids, *trip.chosen],
        "kind": list(rule.kinds) or list(p.kinds),
        "exclude_cuisine": [*base.exclude_cuisine, *rule.exclude_cuisine],
    }
    roles = rules().course.roles
    other_roles = {k for r in roles.values() for k in r.kinds} | set(roles)  # "술집" is a role, too
    meal_kinds = [k for k in p.kinds if k not in other_roles]
    if s.role == "식사":
        update["kind"] = meal_kinds  # "고기-카페 코스": the food asked for at the meal
    else:
        named = kinds().lookup(s.word)
        if named is not None and named[0] in rule.kinds:
            update["kind"] = [named[0]]  # "빵집 투어": bakeries, not any dessert place
    return update


def _stop_candidates(
    trip: _Trip, res: Resources, update: dict[str, Any], s: _Stop, day_first: Point | None
) -> list[SearchHit]:
    """The role's places within the leg and the day's span; none open then: twice as far; still
    none: anywhere within the walk of the day's first stop."""
    base, span = trip.base, trip.span
    cands: list[SearchHit] = _within_span(
        res.index.search(base.model_copy(update=update)).hits, day_first, span
    )
    if not cands:
        wider = GeoFilter(lat=s.prev[0], lon=s.prev[1], radius_m=float(min(2 * s.radius, 20_000)))
        resp = res.index.search(base.model_copy(update={**update, "geo": wider}))
        cands = _within_span(resp.hits, day_first, span)
    if not cands and day_first is not None:
        near = GeoFilter(lat=day_first[0], lon=day_first[1], radius_m=float(span))
        cands = res.index.search(base.model_copy(update={**update, "geo": near})).hits
    return cands


def _within_span(hits: list[SearchHit], first: Point | None, span: int) -> list[SearchHit]:
    """The hits within ``span`` metres (straight line) of the day's first stop (all before it)."""
    if first is None:
        return hits
    return [
        h
        for h in hits
        if (pt := _point(h)) is not None and haversine_m(first[0], first[1], pt[0], pt[1]) <= span
    ]


def search_abroad(state: AgentState, res: Resources) -> dict[str, Any]:
    """Seed 003's provider split: a place abroad goes to Google Places (never to the index)."""
    p = state_plan(state)
    info = StrategyInfo()
    if res.abroad is None:
        return {"hits": [], "strategy_info": info, "_decision": "abroad: no provider configured"}
    food = " ".join([*p.kinds, *p.menu, *p.cuisine]) or text("strategies.live.any_food")
    query = f"{p.overseas} {food}"
    try:
        found = res.abroad.text(query, p.k)
    except Exception as exc:
        info.fallback = f"google places failed ({type(exc).__name__}: {str(exc)[:120]})"
        return {
            "hits": [],
            "strategy_info": info,
            "_decision": info.fallback,
            "_detail": {"fallback": info.fallback},
        }
    info.live_source = "google"
    cards = [_live_card(f, {}) for f in found[: p.k]]
    return {
        "hits": [],
        "live_cards": cards,
        "strategy_info": info,
        "_decision": f"abroad: {len(cards)} places from {res.abroad.source}",
        "_detail": {"query": query, "live": len(cards)},
    }


def live_nearby(p: SearchPlan, res: Resources) -> tuple[list[Card], StrategyInfo]:
    """Nothing in the index around a domestic place: Kakao Local's keyword search around it (issue
    14, seed 003's provider split), shown as cards marked with their source and never stored."""
    info = StrategyInfo()
    loc = p.location
    if res.places is None or loc is None or loc.lat is None or loc.lon is None:
        return [], info
    food = " ".join([*p.kinds, *p.menu, *p.cuisine, *p.occasion]) or text("strategies.live.any_food")
    try:
        found = res.places.keyword(food, loc.lat, loc.lon, max(loc.radius_m or 1000, 1000), p.k)
    except Exception as exc:
        info.fallback = f"kakao local failed ({type(exc).__name__}: {str(exc)[:120]})"
        return [], info
    info.live_source = "kakao"
    cards = [_live_card(f, {"distance_m": _dist(loc.lat, loc.lon, f)}) for f in found[: p.k]]
    return cards, info


def _dist(lat: float, lon: float, f: LivePlaceLike) -> float | None:
    return round(haversine_m(lat, lon, f.lat, f.lon), 1) if f.lat is not None and f.lon is not None else None


def strategy_card_fields(rec: HitRecord, total_m: int | None = None) -> dict[str, Any]:
    """The card fields of a strategy's hit record (course stop, route position, travel estimate)."""
    out: dict[str, Any] = {}
    if "stop" in rec:
        out.update(
            stop=rec.get("stop"), trip_role=rec.get("role"), day_group=rec.get("day"), slot=rec.get("slot")
        )
        out.update(leg_m=rec.get("leg_m"), leg_minutes=rec.get("leg_min"))
    if "segment" in rec:
        out["route_note"] = say(
            "strategies.route.card_note", segment=rec.get("segment"), detour=_km(rec.get("detour_m") or 0)
        )
    if "travel_min" in rec:
        out.update(
            travel_minutes=rec.get("travel_min"),
            travel_m=rec.get("travel_m"),
            travel_estimate=rec.get("travel_estimate"),
        )
    return out


def _km(m: float) -> str:
    return f"{m / 1000:.1f}km" if m >= 1000 else f"{round(m / 10) * 10:.0f}m"
