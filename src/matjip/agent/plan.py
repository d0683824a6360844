"""Plan validation and query building (docs/design.md).

Whoever writes a plan (the offline planner or an LLM), the server validates and clamps it here,
and builds every search request from the validated plan alone. Anything out of range is
clamped; anything unknown is dropped; a plan that cannot be repaired becomes the safe default.
Every repair is reported as a note for the trace.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any, Final, get_args
from zoneinfo import ZoneInfo

from pydantic import ValidationError

from matjip.agent.cardinfo import plate_sharers
from matjip.agent.models import (
    DAYS_MAX,
    K_MAX,
    K_MIN,
    MAX_EXCLUDE_IDS,
    MAX_LIST,
    MAX_SEMANTIC_CHARS,
    MAX_STOPS,
    MAX_TERM_CHARS,
    MINUTES_MAX,
    MINUTES_MIN,
    RADIUS_MAX_M,
    RADIUS_MIN_M,
    TRAVEL_MAX_M,
    TRAVEL_MIN_M,
    CoursePlan,
    PlanLocation,
    RoutePlan,
    SearchPlan,
    Sort,
    Strategy,
    TravelPlan,
)
from matjip.index.request import GeoFilter, OpenAt, PriceRange, RegionFilter, SearchRequest
from matjip.kinds import kinds, norm
from matjip.nlu.kinds import chain_rules
from matjip.nlu.models import TripRole
from matjip.settings import DEFAULT_TIMEZONE
from matjip.wording import text
from matjip.words import word_map, words

LAT_RANGE = (33.0, 38.7)
LON_RANGE = (124.5, 132.0)
PRICE_MAX = 10_000_000
_INTENTS = ("search", "compare", "information")
_SORTS: Final = get_args(Sort)  # the orders a plan may ask (models.Sort)
_MODES = ("walk", "car", "transit")
_ROLES: Final = get_args(TripRole)  # a course's stops
_WITH_CHILDREN: Final = words("search", "with_children")[0]
_CHILDREN_OUT: Final = tuple(words("search", "children_out"))


def children_out(occasion: Sequence[str], asked: Sequence[str]) -> list[str]:
    """ "애들 데리고 갈 데", "아이 생일 파티할 곳": with children and no kind, dish or cuisine ``asked``, the
    kinds of bars a child's meal is never taken to (data/words/search.toml ``children_out``)."""
    return list(_CHILDREN_OUT) if _WITH_CHILDREN in occasion and not asked else []


_CAUTIONS = ("pet", "activity")
_SEED_STRATEGIES = ("route", "point_travel", "course")
TRAVEL_RADIUS_FACTOR = 1.5  # seed 003: straight line < travel distance
_PLACE_ID = re.compile(r"^[A-Za-z0-9_.:\-]{1,64}$")


def _clamp_int(value: Any, lo: int, hi: int, name: str, notes: list[str], default: int) -> int:
    try:
        if isinstance(value, bool):
            raise TypeError
        f = float(value)
        if math.isnan(f) or math.isinf(f):
            raise ValueError
        v = int(f)
    except (TypeError, ValueError):
        notes.append(f"{name}={value!r} is not a number; using {default}")
        return default
    if v < lo or v > hi:
        clamped = min(max(v, lo), hi)
        notes.append(f"{name}={v} clamped to {clamped}")
        return clamped
    return v


def _terms(value: Any, name: str, notes: list[str], allowed: Iterable[str] | None = None) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list | tuple):
        notes.append(f"{name} is not a list; dropped")
        return []
    allowed_set = set(allowed) if allowed is not None else None
    out: list[str] = []
    for item in value:
        if not isinstance(item, str):
            notes.append(f"{name}: non-text item dropped")
            continue
        term = " ".join(item.split())[:MAX_TERM_CHARS]
        if not term:
            continue
        if allowed_set is not None and term not in allowed_set:
            notes.append(f"{name}: unknown value {term!r} dropped")
            continue
        if term not in out:
            out.append(term)
    if len(out) > MAX_LIST:
        notes.append(f"{name}: {len(out)} items truncated to {MAX_LIST}")
        out = out[:MAX_LIST]
    return out


def _ids(value: Any, notes: list[str]) -> list[str]:
    """Place ids to leave out (the ones already shown): well-formed ids only, at most
    ``MAX_EXCLUDE_IDS``."""
    if value is None:
        return []
    if not isinstance(value, list | tuple):
        notes.append("exclude_ids is not a list; dropped")
        return []
    out = list(dict.fromkeys(v for v in value if isinstance(v, str) and _PLACE_ID.match(v)))
    if len(out) < len(value):
        notes.append("exclude_ids: malformed or repeated ids dropped")
    if len(out) > MAX_EXCLUDE_IDS:
        notes.append(f"exclude_ids: {len(out)} ids truncated to {MAX_EXCLUDE_IDS}")
        out = out[:MAX_EXCLUDE_IDS]
    return out


def _price(value: Any, name: str, notes: list[str]) -> int | None:
    if value is None:
        return None
    v = _clamp_int(value, 0, PRICE_MAX, name, notes, -1)
    return None if v < 0 else v


def _location(value: Any, notes: list[str]) -> PlanLocation | None:
    if value is None:
        return None
    if not isinstance(value, Mapping):
        notes.append("location is not an object; dropped")
        return None
    name = str(value.get("name") or "")[:MAX_TERM_CHARS] or text("search.place.unnamed")
    mode = value.get("mode", "near")
    if mode not in ("near", "in"):
        notes.append(f"location.mode={mode!r} unknown; using near")
        mode = "near"
    lat, lon = value.get("lat"), value.get("lon")
    terms = _terms(value.get("region_terms"), "location.region_terms", notes)
    if lat is not None or lon is not None:
        try:
            flat, flon = float(lat), float(lon)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            notes.append("location coordinates are not numbers; dropped")
            flat = flon = float("nan")
        if not (LAT_RANGE[0] <= flat <= LAT_RANGE[1] and LON_RANGE[0] <= flon <= LON_RANGE[1]):
            notes.append("location outside Korea; dropped")
            if not terms:
                return None
            return PlanLocation(name=name, mode="in", region_terms=terms)
        radius = value.get("radius_m")
        radius_i = (
            _clamp_int(radius, RADIUS_MIN_M, RADIUS_MAX_M, "radius_m", notes, 1000)
            if radius is not None
            else 1000
        )
        return PlanLocation(name=name, lat=flat, lon=flon, radius_m=radius_i, mode=mode, region_terms=terms)
    if terms:
        return PlanLocation(name=name, mode="in", region_terms=terms)
    notes.append("location has neither coordinates nor region; dropped")
    return None


def _mode(value: Any, name: str, notes: list[str]) -> str | None:
    if value is None:
        return None
    if value not in _MODES:
        notes.append(f"{name}={value!r} unknown; dropped")
        return None
    return str(value)


def _route(value: Any, notes: list[str]) -> RoutePlan | None:
    """Both ends must be places in Korea with coordinates; radius and interval are clamped."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        notes.append("route is not an object; dropped")
        return None
    ends = []
    for key in ("origin", "destination"):
        end = _location(value.get(key), notes)
        if end is None or end.lat is None or end.lon is None:
            notes.append(f"route.{key} has no coordinates; route dropped")
            return None
        ends.append(end.model_copy(update={"mode": "near", "region_terms": []}))
    radius = _clamp_int(value.get("search_radius_m", 3000), 300, 5000, "route.search_radius_m", notes, 3000)
    interval = _clamp_int(value.get("interval_m", 1000), 100, 10_000, "route.interval_m", notes, 1000)
    return RoutePlan(
        origin=ends[0],
        destination=ends[1],
        between=value.get("between") is True,
        search_radius_m=radius,
        interval_m=min(interval, 2 * radius),
    )


def _travel(value: Any, notes: list[str]) -> TravelPlan | None:
    if value is None:
        return None
    if not isinstance(value, Mapping):
        notes.append("travel is not an object; dropped")
        return None
    minutes = value.get("minutes")
    minutes_i = (
        _clamp_int(minutes, MINUTES_MIN, MINUTES_MAX, "travel.minutes", notes, 10)
        if minutes is not None
        else None
    )
    km = value.get("km")
    km_f: float | None = None
    if km is not None:
        km_f = (
            _clamp_int(
                float(km) * 1000 if isinstance(km, int | float) else km,
                TRAVEL_MIN_M,
                TRAVEL_MAX_M,
                "travel.km",
                notes,
                1000,
            )
            / 1000
        )
    threshold = _clamp_int(
        value.get("threshold_m", 1000), TRAVEL_MIN_M, TRAVEL_MAX_M, "travel.threshold_m", notes, 1000
    )
    estimate = _mode(value.get("estimate_mode", "walk"), "travel.estimate_mode", notes) or "walk"
    return TravelPlan(
        minutes=minutes_i,
        mode=_mode(value.get("mode"), "travel.mode", notes),  # type: ignore[arg-type]
        estimate_mode=estimate,  # type: ignore[arg-type]
        km=km_f,
        threshold_m=threshold,
    )


def _course(value: Any, notes: list[str]) -> CoursePlan | None:
    if value is None:
        return None
    if not isinstance(value, Mapping):
        notes.append("course is not an object; dropped")
        return None
    roles = (
        [r for r in (value.get("roles") or []) if r in _ROLES] if isinstance(value.get("roles"), list) else []
    )
    if not roles:
        notes.append("course has no known role; dropped")
        return None
    if len(roles) > MAX_STOPS:
        notes.append(f"course: {len(roles)} stops truncated to {MAX_STOPS}")
        roles = roles[:MAX_STOPS]
    said = value.get("slot_words")
    words = [str(w)[:MAX_TERM_CHARS] for w in (said if isinstance(said, list) else [])][: len(roles)]
    words += [str(r) for r in roles[len(words) :]]
    return CoursePlan(
        roles=roles,
        slot_words=words,
        days=_clamp_int(value.get("days", 1), 1, DAYS_MAX, "course.days", notes, 1),
        mode=_mode(value.get("mode", "walk"), "course.mode", notes) or "walk",  # type: ignore[arg-type]
        leg_m=_clamp_int(value.get("leg_m", 800), 200, 10_000, "course.leg_m", notes, 800),
    )


def _seed_strategy(
    raw: Mapping[str, Any], location: PlanLocation | None, notes: list[str]
) -> tuple[Strategy | None, dict[str, Any]]:
    """Seed 003's strategy a plan asks for, when its fields make it runnable: a route needs both
    ends, point travel and a course a place with coordinates. Otherwise the plan's other fields
    decide (radius, region, global), with the reason in the notes."""
    wanted = raw.get("strategy")
    if wanted not in _SEED_STRATEGIES:
        return None, {}
    has_point = location is not None and location.lat is not None and location.lon is not None
    if wanted == "route":
        route = _route(raw.get("route"), notes)
        if route is not None:  # the route replaces the place: no radius around its start
            return "route", {"route": route, "location": None}
    elif wanted == "point_travel":
        travel = _travel(raw.get("travel"), notes)
        if travel is not None and has_point and location is not None:
            radius = int(min(RADIUS_MAX_M, max(RADIUS_MIN_M, travel.threshold_m * TRAVEL_RADIUS_FACTOR)))
            return "point_travel", {
                "travel": travel,
                "location": location.model_copy(
                    update={"mode": "near", "radius_m": radius, "region_terms": []}
                ),
            }
    elif wanted == "course":
        course = _course(raw.get("course"), notes)
        if course is not None and has_point:
            return "course", {"course": course}
    notes.append(f"strategy {wanted} lacks what it needs; using the plan's other fields")
    return None, {}


def _open_until(value: Any, open_at: Any, timezone: str, notes: list[str]) -> datetime | None:
    """The end of an opening window: after ``open_at`` and within a day of it, else dropped."""
    if value is None or not isinstance(open_at, datetime):
        return None
    until = value
    if not isinstance(until, datetime):
        try:
            until = datetime.fromisoformat(str(value))
        except ValueError:
            notes.append(f"open_until={value!r} is not a time; dropped")
            return None
    if until.tzinfo is None:
        until = until.replace(tzinfo=ZoneInfo(timezone))
    if not (open_at <= until <= open_at + timedelta(days=1)):
        notes.append("open_until is not within a day after open_at; dropped")
        return None
    return until


def validate_plan(
    raw: Mapping[str, Any] | Any,
    *,
    cuisines: Iterable[str] | None = None,
    conveniences: Iterable[str] | None = None,
    fallback_text: str = "",
    timezone: str = DEFAULT_TIMEZONE,
) -> tuple[SearchPlan, list[str]]:
    """Validate and clamp ``raw`` into a :class:`SearchPlan`; return it and the repair notes.

    A naive ``open_at`` is taken to be in ``timezone`` (the agent passes ``settings.timezone``).

    Never raises: an unusable plan becomes :func:`default_plan` with the reason in the notes.
    """
    notes: list[str] = []
    if not isinstance(raw, Mapping):
        return default_plan(fallback_text), [
            f"plan is {type(raw).__name__}, not an object; using the default plan"
        ]
    try:
        return _validated(raw, notes, cuisines, conveniences, timezone), notes
    except (ValidationError, TypeError, ValueError, AttributeError) as exc:
        return default_plan(fallback_text), [
            *notes,
            f"invalid plan ({type(exc).__name__}); using the default plan",
        ]


def _validated(
    raw: Mapping[str, Any],
    notes: list[str],
    cuisines: Iterable[str] | None,
    conveniences: Iterable[str] | None,
    timezone: str,
) -> SearchPlan:
    """The plan of :func:`validate_plan`, field by field (the notes in the order of the fields)."""
    intent = _choice(raw, "intent", _INTENTS, "search", notes)
    sort = _choice(raw, "sort", _SORTS, "relevance", notes)
    location = _location(raw.get("location"), notes)
    titles = _terms(raw.get("titles"), "titles", notes)
    price_min, price_max = _price_range(raw, notes)
    open_at = _open_time(raw.get("open_at"), timezone, notes)
    open_until = _open_until(raw.get("open_until"), open_at, timezone, notes)
    semantic = _semantic(raw.get("semantic"), notes)
    intent = _intent_for(intent, titles, location, notes)
    strategy, location, seed_fields = _strategy(raw, intent, titles, location, notes)
    overseas = raw.get("overseas")
    overseas_s = " ".join(str(overseas).split())[:MAX_TERM_CHARS] or None if overseas else None
    caution = raw.get("caution") if raw.get("caution") in _CAUTIONS else None
    default_k = 5 if intent == "information" and not titles else 3
    lists = _lists(raw, notes, cuisines, conveniences)
    lists["wish_words"] = _wish_words(raw, [*lists["atmosphere"], *lists["occasion"]])
    return SearchPlan(
        intent=intent,
        strategy=strategy,
        location=location,
        titles=titles,
        **lists,
        semantic=" ".join(semantic.split()),
        price_min=price_min,
        price_max=price_max,
        price_max_wider=_wider_bound(raw, price_max, notes),
        open_at=open_at,
        open_until=open_until,
        open_label=str(raw.get("open_label"))[:MAX_TERM_CHARS] if raw.get("open_label") else None,
        open_wished=_open_time(raw.get("open_wished"), timezone, notes) if raw.get("open_wished") else None,
        party=_clamp_int(raw["party"], 1, 100, "party", notes, 1)
        if isinstance(raw.get("party"), int)
        else None,
        k=_clamp_int(raw.get("k", default_k), K_MIN, K_MAX, "k", notes, default_k),
        per_title_k=_clamp_int(raw.get("per_title_k", 2), 1, 5, "per_title_k", notes, 2),
        sort=sort,
        relaxed=_terms(raw.get("relaxed"), "relaxed", notes)[:MAX_LIST],
        overseas=overseas_s,
        caution=caution,
        **seed_fields,
    )


def _wider_bound(raw: Mapping[str, Any], price_max: int | None, notes: list[str]) -> int | None:
    """ "더 싼 데"'s looser bound, kept only above the bound it loosens."""
    wider = (
        _price(raw.get("price_max_wider"), "price_max_wider", notes) if raw.get("price_max_wider") else None
    )
    return wider if wider is not None and price_max is not None and wider > price_max else None


def _choice(raw: Mapping[str, Any], key: str, allowed: Sequence[str], default: str, notes: list[str]) -> Any:
    value = raw.get(key, default)
    if value not in allowed:
        notes.append(f"{key}={value!r} unknown; using {default}")
        value = default
    return value


def _price_range(raw: Mapping[str, Any], notes: list[str]) -> tuple[int | None, int | None]:
    price_min = _price(raw.get("price_min"), "price_min", notes)
    price_max = _price(raw.get("price_max"), "price_max", notes)
    if price_min is not None and price_max is not None and price_min > price_max:
        notes.append("price_min > price_max; swapped")
        price_min, price_max = price_max, price_min
    return price_min, price_max


def _open_time(value: Any, timezone: str, notes: list[str]) -> Any:
    """``open_at`` as a time in ``timezone`` (a naive one is taken to be there), else dropped."""
    open_at = value
    if open_at is not None and not isinstance(open_at, datetime):
        try:
            open_at = datetime.fromisoformat(str(open_at))
        except ValueError:
            notes.append(f"open_at={open_at!r} is not a time; dropped")
            open_at = None
    if isinstance(open_at, datetime) and open_at.tzinfo is None:
        open_at = open_at.replace(tzinfo=ZoneInfo(timezone))
    return open_at


def _semantic(value: Any, notes: list[str]) -> str:
    semantic = value or ""
    if not isinstance(semantic, str):
        notes.append("semantic is not text; dropped")
        semantic = ""
    if len(semantic) > MAX_SEMANTIC_CHARS:
        notes.append(f"semantic text truncated to {MAX_SEMANTIC_CHARS} characters")
        semantic = semantic[:MAX_SEMANTIC_CHARS]
    return semantic


def _intent_for(intent: Any, titles: list[str], location: PlanLocation | None, notes: list[str]) -> Any:
    """The intent the titles and the place allow."""
    if intent == "compare" and len(titles) < 2:
        notes.append("compare needs two titles; using search")
        intent = "search" if not titles else "information"
    if intent == "information" and not titles and location is None:
        notes.append("information without a title or a place; using search")
        intent = "search"
    return intent


def _strategy(
    raw: Mapping[str, Any], intent: Any, titles: list[str], location: PlanLocation | None, notes: list[str]
) -> tuple[Strategy, PlanLocation | None, dict[str, Any]]:
    """How the plan searches (title, radius, region, global, or seed 003's runnable strategy), the
    place it searches around, and the strategy's own fields."""
    strategy: Strategy = "global"
    if titles and intent in ("compare", "information"):
        strategy = "title"
    elif location is not None:
        strategy = "radius" if location.lat is not None and location.mode == "near" else "region"
    seed, seed_fields = _seed_strategy(raw, location, notes) if intent == "search" else (None, {})
    if seed is not None:
        strategy = seed
        location = seed_fields.pop("location", location)
    return strategy, location, seed_fields


def _brands_out(raw: Mapping[str, Any], notes: list[str]) -> list[str]:
    """Names ruled out by title; with chains ruled out, a listed chain brand named beside them ("스벅 같은
    체인 말고", "파바 뚜쥬 이런 거 빼고 동네 빵집") is an example of the chains, which rule it out already."""
    names = _terms(raw.get("exclude_titles"), "exclude_titles", notes)
    if raw.get("exclude_chains") is not True:
        return names
    return [n for n in names if chain_rules().brand_of(n) is None]


# a wish said by a word of its own ("혼술" read as 혼밥): the word the heading and the cards name it by
WISH_SAID: Final = word_map("search", "wish_said")


def wish_words(said: str, wishes: Iterable[str]) -> dict[str, str]:
    """The wishes of ``wishes`` the message ``said`` names by a word of their own (words/search.toml
    ``wish_said``: "송파역 혼술" → {"혼밥": "혼술"}), each with the word they are said by."""
    message = norm(said)
    return {
        w: WISH_SAID[w][0] for w in wishes if w in WISH_SAID and any(norm(x) in message for x in WISH_SAID[w])
    }


def _wish_words(raw: Mapping[str, Any], wishes: Sequence[str]) -> dict[str, str]:
    """The plan's ``wish_words`` kept only for its own wishes, each named by its word of the data."""
    value = raw.get("wish_words")
    if not isinstance(value, Mapping):
        return {}
    return {w: v for w, v in value.items() if w in wishes and w in WISH_SAID and v == WISH_SAID[w][0]}


def _lists(
    raw: Mapping[str, Any],
    notes: list[str],
    cuisines: Iterable[str] | None,
    conveniences: Iterable[str] | None,
) -> dict[str, Any]:
    """The plan's term lists and flags, each term list validated (in this order, for the notes)."""
    return {
        "kinds": _terms(raw.get("kinds"), "kinds", notes, kinds().names),
        "kind_dishes": _terms(raw.get("kind_dishes"), "kind_dishes", notes),
        # "해산물 포차": a food word of the kinds (kinds().lookup) qualifying the one kind asked
        "qualifier": q
        if isinstance(q := raw.get("qualifier"), str) and kinds().lookup(q) is not None
        else None,
        "exclude_kinds": _terms(raw.get("exclude_kinds"), "exclude_kinds", notes, kinds().names),
        "exclude_cuisine": _terms(raw.get("exclude_cuisine"), "exclude_cuisine", notes, cuisines),
        "exclude_menu": _terms(raw.get("exclude_menu"), "exclude_menu", notes),
        "exclude_titles": _brands_out(raw, notes),
        "exclude_chains": raw.get("exclude_chains") is True,
        "avoid_tastes": _terms(
            raw.get("avoid_tastes"), "avoid_tastes", notes, [t.name for t in kinds().tastes]
        ),
        "eat_in": raw.get("eat_in") is True,
        "any_kind": raw.get("any_kind") if kinds().any_kind_theme(raw.get("any_kind")) is not None else None,
        "no_break": raw.get("no_break") is True,
        "per_person": raw.get("per_person") is True,
        "prefer_menu": _terms(raw.get("prefer_menu"), "prefer_menu", notes),
        "exclude_ids": _ids(raw.get("exclude_ids"), notes),
        "unused_terms": _terms(raw.get("unused_terms"), "unused_terms", notes),
        "cuisine": _terms(raw.get("cuisine"), "cuisine", notes, cuisines),
        "menu": _terms(raw.get("menu"), "menu", notes),
        "convenience": _terms(raw.get("convenience"), "convenience", notes, conveniences),
        "atmosphere": _terms(raw.get("atmosphere"), "atmosphere", notes),
        "occasion": _terms(raw.get("occasion"), "occasion", notes),
    }


def default_plan(text: str = "") -> SearchPlan:
    """The safe plan: a plain semantic search over everything, three results."""
    return SearchPlan(
        intent="search", strategy="global", semantic=" ".join(text.split())[:MAX_SEMANTIC_CHARS], k=3
    )


def _base_request(plan: SearchPlan, k: int) -> dict[str, Any]:
    req: dict[str, Any] = {"k": k, "sort": "distance" if plan.sort == "distance" else "relevance"}
    loc = plan.location
    if loc is not None:
        if loc.mode == "near" and loc.lat is not None and loc.lon is not None:
            req["geo"] = GeoFilter(lat=loc.lat, lon=loc.lon, radius_m=loc.radius_m or 1000)
        elif loc.region_terms:
            req["region"] = RegionFilter(name=loc.name, terms=loc.region_terms)
        elif loc.lat is not None and loc.lon is not None:
            req["geo"] = GeoFilter(lat=loc.lat, lon=loc.lon, radius_m=loc.radius_m or 2000)
    if "geo" not in req:
        req["sort"] = "relevance"  # distance needs a point to measure from
    return req


# a name the crawl marked as closed ("왓쇼이켄 (휴업중)"): never recommended by a search (asked by
# name, it is still found)
CLOSED_TITLE_WORDS: Final = words("search", "closed_title")


def to_requests(plan: SearchPlan, chains: Sequence[str] = ()) -> list[SearchRequest]:
    """Build the search requests of a validated plan (one per title for compare). ``chains`` are
    the brand names excluded when the plan excludes chains."""
    if plan.intent == "compare" or (plan.intent == "information" and plan.titles):
        out = []
        for title in plan.titles:
            base = _base_request(plan, plan.per_title_k if plan.intent == "compare" else 3)
            base["sort"] = "relevance"
            out.append(SearchRequest(title=title, text=plan.semantic, **base))
        return out
    base = _base_request(plan, plan.k)
    base["exclude_ids"] = plan.exclude_ids
    semantic = " ".join([*plan.atmosphere, *plan.occasion, plan.semantic]).strip()
    price = None
    if plan.price_min is not None or plan.price_max is not None:
        # "더 싼 데": the index keeps what is below the list's dearest too (retrieval.filters.cheaper_fill)
        top = max(plan.price_max, plan.price_max_wider or 0) if plan.price_max is not None else None
        # "5명 1인 2만원 족발": a shared plate up to the bound times the people it feeds (filters.per_head)
        top = top * plate_sharers(plan) if top is not None else None
        price = PriceRange(min_won=plan.price_min, max_won=top)
    return [
        SearchRequest(
            text=semantic,
            cuisine=plan.cuisine,
            menu=plan.menu,
            kind=plan.kinds,
            exclude_kind=[
                *plan.exclude_kinds,
                *kinds().kinds_out(plan.any_kind),
                *children_out(plan.occasion, [*plan.kinds, *plan.menu, *plan.cuisine]),
            ],
            exclude_cuisine=plan.exclude_cuisine,
            exclude_menu=plan.exclude_menu,
            exclude_title=[
                *plan.exclude_titles,
                *kinds().taste_titles(plan.avoid_tastes, [*plan.kinds, *plan.kind_dishes, *plan.menu]),
                *(kinds().eat_in.title if plan.eat_in else ()),
                *(chains if plan.exclude_chains else ()),
                *CLOSED_TITLE_WORDS,
            ],
            convenience=plan.convenience,
            price=price,
            open_at=OpenAt(when=plan.open_at, until=plan.open_until) if plan.open_at else None,
            **base,
        )
    ]
