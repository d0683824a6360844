"""A wider circle: filling a short list from farther, and relaxation's one step at a time."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Final

from matjip.agent.cardinfo import is_open_now_label, says_open
from matjip.agent.configuration import AgentConfig, Resources
from matjip.agent.models import SearchPlan
from matjip.agent.plan import to_requests
from matjip.agent.retrieval.fetch import Found
from matjip.agent.retrieval.filters import all_kinds_if_qualified, not_ruled_out_by_category
from matjip.index.request import GeoFilter, SearchHit
from matjip.kinds import kinds, norm
from matjip.text.josa import particle
from matjip.wording import say, text
from matjip.words import words

WIDENED_BY_RELAX: Final = words("search", "widened_by_relax")  # relaxation never widens twice
WIDENED_ANY: Final = words("search", "widened_any")
DISH_HEADS: Final = words("search", "dish_heads")  # the last syllable that makes the dish ("감자탕")
HOURS_CONVENIENCES: Final = frozenset(words("search", "hours_conveniences"))  # "24시": read from the hours
LATE_NIGHT_MIN = 25 * 60  # a late-night condition: still open at 01:00 of the next day ("새벽까지")
EARLY_MORNING_H = 6  # before 06:00 the night is still under way ("24시" asked at 02:00: open now)
GOING_NOW_S = 15 * 60  # a time asked this close to the turn's is "now"
LISTED_NAMED = 2  # the places listing the dish a widening note names (the rest counted)
SOFTNESS = ("open_at", "price", "menu", "cuisine")  # the filters relaxation drops, softest first


def km(m: int) -> str:
    """A radius as a note says it: "500m", "1km", "1.5km"."""
    return f"{m / 1000:g}km" if m >= 1000 else f"{m}m"


def _wider(radius_m: int, cfg: AgentConfig) -> int:
    return int(min(radius_m * cfg.widen_factor, cfg.widen_cap_m))


def _in_dong(p: SearchPlan) -> bool:
    """A search in a dong ("연남동 술집"), around its centre."""
    loc = p.location
    return p.strategy == "region" and loc is not None and loc.mode == "in" and loc.by_radius


def _fill_radius(p: SearchPlan, radius_m: int, cfg: AgentConfig) -> int:
    """The circle a short list is filled from: a dong's a little wider than its own, a place's
    :func:`_wider` — one policy for every short list, the step said in the note."""
    if _in_dong(p):
        return int(min(radius_m * cfg.dong_widen_factor, cfg.widen_cap_m))
    return _wider(radius_m, cfg)


def may_fill_wider(p: SearchPlan, anchor: str | None, notes: list[str], res: Resources) -> bool:
    """A short list around a place may be filled from a wider circle: a plain radius search, not
    "더 가까운 데" and not one already widened (relaxation's cap holds)."""
    loc = p.location
    return (
        # a dong only a little wider (:func:`_fill_radius`): a place far outside it is outside the area
        # asked ("문정동 갈비탕")
        (p.strategy == "radius" or _in_dong(p))
        and loc is not None
        and loc.by_radius
        and loc.lat is not None
        and loc.lon is not None
        and loc.radius_m is not None
        and loc.radius_m < res.config.widen_cap_m
        and not p.titles
        and anchor != "closer"
        and not any(mark in n for n in notes for mark in WIDENED_ANY)
    )


def fill_wider(
    f: Found,
    anchor: str | None,
    notes: list[str],
    res: Resources,
    sure: Callable[[SearchHit], bool] | None = None,
) -> None:
    """ "강남역 오마카세": one within 1 km; the next ones a little further, said so, nearest first
    (``notes``: the relaxation notes so far). With ``sure`` (a place surely of the kind asked: its
    category or name, or a menu mostly of it), the places that are only weakly of the kind do not
    make the list long enough: two 국숫집 near and a 족발 house listing 막국수 is two, so the kind's
    own places a little further come first, the weak near ones after them — one policy for every
    short list: the same kind wider before anything standing in for it."""
    own = [h for h in f.hits if sure(h)] if sure is not None and f.plan.kinds else f.hits
    if not (0 < len(own) < f.plan.k and may_fill_wider(f.plan, anchor, notes, res)):
        return
    loc = f.plan.location
    assert loc is not None and loc.radius_m is not None and loc.lat is not None and loc.lon is not None
    wider = _fill_radius(f.plan, loc.radius_m, res.config)
    geo = GeoFilter(lat=loc.lat, lon=loc.lon, radius_m=float(wider))
    more = res.index.search(
        f.wide.model_copy(update={"geo": geo, "exclude_ids": f.shown_ids(), "sort": "distance"})
    )
    extra = [
        h
        for h in not_ruled_out_by_category(list(more.hits), f.plan, res)
        if all_kinds_if_qualified(h, f.plan) and (own is f.hits or sure is None or sure(h))
    ]
    if _topped(f):
        # the near list was topped up with the kind's places not listing the dish: the wider circle is
        # read the same way — those listing it first, then the kind's others (audit r15 Q11: two cards
        # from a 3 km holding nineteen of the kind)
        f.listed |= {h.document.place_id for h in extra}
        if len(f.hits) + len(extra) < f.plan.k:
            seen = [*f.shown_ids(), *(h.document.place_id for h in extra)]
            rest = res.index.search(
                f.wide.model_copy(update={"geo": geo, "menu": [], "exclude_ids": seen, "sort": "distance"})
            )
            extra += [
                h
                for h in not_ruled_out_by_category(list(rest.hits), f.plan, res)
                if all_kinds_if_qualified(h, f.plan)
            ]
    if not extra:
        return
    f.stand_ins = {h.document.place_id for h in f.hits if own is not f.hits and h not in own}
    listing = len(f.stand_ins)
    listed: list[tuple[str, str]] = []
    if not listing and f.plan.kinds:
        # the places near listing the dish, not counted as the kind: counted in the line, never denied
        # (with the conditions asked too: the listing search keeps them — "지금 영업하는", audit r13 F2)
        shown = {h.document.title for h in f.hits}
        listed = [(t, line) for t, line in listing_near(res)(f.plan) if t not in shown]
        listing = len(listed)
    f.notes.append(_filled_note(f, len(own), listing, km(wider), sure is not None, listed))
    f.hits += extra
    f.farther = {h.document.place_id for h in extra}
    f.plan_update["location"] = loc.model_copy(update={"radius_m": wider})
    f.plan = f.plan.model_copy(update={"location": f.plan_update["location"]})


def _filled_note(
    f: Found, found: int, listing: int, wider: str, by_kind: bool, listed: Sequence[tuple[str, str]] = ()
) -> str:
    """The widening note, saying what it counts: the places the data files as the kind (``by_kind``:
    a 해산물 house listing 모듬초밥 is not one, and the sentence does not claim there is none near)
    and, when near places of another kind list its dishes, how many of those."""
    loc = f.plan.location
    assert loc is not None and loc.radius_m is not None
    label = kinds_counted(f.plan)
    base = {"place": loc.name, "radius": km(loc.radius_m), "found": found, "wider": wider}
    scope = _scope(f.plan, _topped(f))
    if label and scope:
        # "매봉역 주차 되는 고깃집": what was counted is the kind with the conditions asked, said so — and
        # the places meeting them that list its dish, filed as another kind, are not denied
        if listed:
            return say(
                "search.widen.filled_scoped_listing",
                **base,
                scope=scope,
                kinds=label,
                ga=particle(label, "이/가"),
                places=_listed_places(listed),
            )
        return say(
            "search.widen.filled_scoped", **base, scope=scope, kinds=label, ga=particle(label, "이/가")
        )
    if scope:
        # "역삼역 제육 맛집": no kind, a dish (or another condition) counted — said, never a bare count
        return say("search.widen.filled_scoped_any", **base, scope=scope)
    if listing:
        # "뿐" goes with what is short: both counts when together under k, else the kind's own alone
        # (never "메뉴에만 있는 다른 종류의 곳이 43곳뿐")
        many = found + listing >= f.plan.k
        return say(
            "search.widen.filled_listing_many" if many else "search.widen.filled_listing",
            **base,
            kinds=label,
            listing=listing,
            ro=particle(label, "으로/로"),
        )
    if by_kind and label:
        return say("search.widen.filled_kind", **base, kinds=label, ro=particle(label, "으로/로"))
    dishes = "/".join(f.plan.kind_dishes)
    if label and dishes:
        # "복정역 삼겹살": the kind or its dish on the menu was counted (a 쌈밥 house listing 생삼겹살 too)
        return say(
            "search.widen.filled_dish",
            **base,
            kinds=label,
            ro=particle(label, "으로/로"),
            dishes=dishes,
            ga=particle(dishes, "이/가"),
        )
    return say("search.widen.filled", **base)


def kinds_counted(p: SearchPlan) -> str:
    """The kinds a count line counts, with the kinds under them the search ruled out ("안 매운 찌개":
    "부대찌개, 김치찌개를 뺀 찌개·전골") — one policy for every count that justifies a widening: the
    same set the cards were looked for in, its exclusions said (audit r15 F2)."""
    label = ", ".join(p.kinds)
    table = kinds()
    out = [x for x in p.exclude_kinds if any(x in table.descendants(k) for k in p.kinds)]
    if not label or not out:
        return label
    said = ", ".join(out)
    return say("search.widen.kinds_less", out=said, eul=particle(said, "을/를"), kinds=label)


def _topped(f: Found) -> bool:
    """Whether the list was topped up with places not listing the dish asked (topup.menu_topup): its
    count is of the kind, not of the places listing the dish (audit r10 F4: "메뉴에 '짬뽕'이 있는
    중국집이 1곳뿐" counted a place without 짬뽕)."""
    return bool(f.detail.get("menu_topup"))


def _scope(p: SearchPlan, topped: bool = False) -> str:
    """The conditions asked beside the kind, as the count line words them ("주차 언급이 있는"); "" when
    the kind was asked alone. One phrase per condition (``search.widen.scope`` in the wording data);
    the dish asked only when the places counted list it (not ``topped``)."""
    parts = [say("search.widen.scope.convenience", condition=c) for c in p.convenience]
    if not topped:
        parts += [say("search.widen.scope.menu", menu=m, ga=particle(m, "이/가")) for m in p.menu]
    if p.cuisine:
        parts.append(say("search.widen.scope.cuisine", cuisines=", ".join(p.cuisine)))
    if p.open_at is not None:
        label = p.open_label or text("search.relax.condition.hours_unlabelled")
        key = "hours_now" if is_open_now_label(label) else "hours_verb" if says_open(label) else "hours"
        parts.append(say(f"search.widen.scope.{key}", label=label))
    if p.price_min is not None or p.price_max is not None:
        parts.append(text("search.widen.scope.price"))
    return text("search.widen.scope.joiner").join(parts)


def needed_notes(notes: list[str], frame: SearchPlan | None, hits: Sequence[SearchHit]) -> list[str]:
    """The relaxation notes still true of ``hits``: a radius widened by relaxation is not said when a
    later step (a broader kind, a dropped filter) found places all within the radius asked."""
    loc = frame.location if frame is not None else None
    asked = loc.radius_m if loc is not None and loc.by_radius else None
    if not hits or asked is None:
        return notes
    if any(h.distance_m is None or h.distance_m > asked for h in hits):
        return notes
    return [n for n in notes if not any(mark in n for mark in WIDENED_BY_RELAX)]


Listing = Callable[[SearchPlan], list[tuple[str, str]]]


def listing_near(res: Resources) -> Listing:
    """The places within a plan's circle that list one of its kind's menu words on their menu but
    that the search does not count as the kind (a 해산물 house selling 모듬초밥): ``(title, menu
    line)`` each, nearest first — what a count line of the kind must not deny."""

    def near(p: SearchPlan) -> list[tuple[str, str]]:
        table = kinds()
        wanted = [table.by_name[k] for k in p.kinds if k in table.by_name]
        if not wanted or p.location is None or not p.location.by_radius:
            return []
        req = to_requests(p)[0]
        found: dict[str, tuple[float, str, str]] = {}
        for kind in wanted:
            nots = [norm(x) for x in kind.menu_not]
            # the kind asked by its dish ("금욜 밤에 삼겹살"): lines naming that dish, never a neighbour of it
            # ('통목살' is pork, no 삼겹살; audit r14 Q15, and F1's 리코타 for 브런치)
            # ("삼겹살" also finds '꽃삼겹': the word without its last syllable when longer, as a dish is asked of
            # a shown place)
            # — never a word that is the dish only with its last syllable ("감자탕" is no "감자": audit r15)
            said = [
                d[:-1] if len(d) > 2 and not d.endswith(DISH_HEADS) else d for d in map(norm, p.kind_dishes)
            ] or kind.menu
            for word in dict.fromkeys(norm(w) for w in said):
                hits = res.index.search(
                    req.model_copy(update={"kind": [], "menu": [word], "text": "", "k": 20})
                )
                for h in hits.hits:
                    doc = h.document
                    if set(doc.kinds) & set(p.kinds) or doc.place_id in found:
                        continue
                    line = next(
                        (
                            m.name
                            for m in doc.menus
                            if word in norm(m.name) and not any(x in norm(m.name) for x in nots)
                        ),
                        None,
                    )
                    if line is not None:
                        found[doc.place_id] = (h.distance_m or 0.0, doc.title, line)
        return [(t, line) for _, t, line in sorted(found.values())]

    return near


def relax_step(
    p: SearchPlan,
    anchor: str | None,
    notes: list[str],
    cfg: AgentConfig,
    now: datetime | None = None,
    listing: Listing | None = None,
    cheaper: bool = False,
) -> tuple[SearchPlan, str | None]:
    """Relaxation's next step and its note, or ``(p, None)`` when nothing is left to relax. The
    order: a title search anywhere, a convenience (the data rarely records one, so its absence
    says little), then a "near" radius (widened at most to ``widen_cap_m``), then the other
    filters from the softest (:func:`drop_filter`). Going now ("지금 하는", asked at ``now``) drops
    the clock before the radius: the places near, open ones first, rather than a wider circle. "더 싼 데"
    (``cheaper``) never drops its price: dearer places are no answer to it — nothing cheaper is said."""
    loc = p.location
    if p.strategy == "title" and loc is not None:
        return p.model_copy(update={"location": None, "strategy": "title"}), say(
            "search.relax.everywhere", place=loc.name
        )
    can_widen = (
        loc is not None
        and loc.by_radius
        and p.strategy != "point_travel"  # the travel threshold, not the radius, is the limit
        and anchor != "closer"  # "더 가까운 데" never widens past what was shown
        and loc.radius_m is not None
        and loc.radius_m < cfg.widen_cap_m
        and not any(mark in n for n in notes for mark in WIDENED_BY_RELAX)
    )
    if p.convenience and p.convenience[-1] in HOURS_CONVENIENCES:
        # "24시 감자탕": the hours are read — none near open round the clock, said of the circle searched,
        # and the places open latest there stand in (a wider circle may follow for a short list)
        return _late_for_all_day(p, p.convenience[-1], now)
    if p.convenience:
        dropped = p.convenience[-1]
        return p.model_copy(update={"convenience": p.convenience[:-1]}), say(
            "search.relax.convenience", condition=dropped
        )
    if going_now(p, now) and not hours_wished(p) and loc is not None and loc.by_radius:
        return _drop_clock_near(p)
    if can_widen:
        assert loc is not None and loc.radius_m is not None
        wider = _wider(loc.radius_m, cfg)
        return p.model_copy(update={"location": loc.model_copy(update={"radius_m": wider})}), _widened_note(
            p, km(loc.radius_m), km(wider), listing
        )
    wider_price = p.price_max_wider
    if wider_price is not None and p.price_max is not None and wider_price > p.price_max:
        # "더 싼 데" with nothing below the list's typical price in the widest circle: below its dearest
        # place (after the radius, so "… 싼 곳은 없어서" is true of every place the answer could show)
        return p.model_copy(update={"price_max": wider_price, "price_max_wider": None}), say(
            "search.relax.cheaper_wider", typical=p.price_max + 1, bound=wider_price + 1
        )
    return drop_filter(p, keep_price=cheaper)


def _late_for_all_day(p: SearchPlan, dropped: str, now: datetime | None) -> tuple[SearchPlan, str]:
    """ "24시 감자탕" with none open round the clock: the condition is on the hours, which were read —
    never "정보가 없어서". The places open latest stand in for it: a late-night condition ("새벽까지",
    still open at 01:00 tonight) takes its place, and is dropped in its turn only when none is open then."""
    rest = {"convenience": [c for c in p.convenience if c != dropped]}
    loc = p.location
    where = (
        say("search.relax.all_day_where", place=loc.name, radius=km(loc.radius_m))
        if loc is not None and loc.by_radius and loc.radius_m
        else ""
    )
    if p.open_at is not None or now is None:
        return p.model_copy(update=rest), say("search.relax.all_day", where=where, condition=dropped)
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    at = now if now.hour < EARLY_MORNING_H else midnight + timedelta(minutes=LATE_NIGHT_MIN)
    label = text("search.relax.all_day_label")
    update = {**rest, "open_at": at, "open_until": None, "open_label": label}
    note = say("search.relax.all_day_late", where=where, condition=dropped, label=label)
    return p.model_copy(update=update), note


def _listed_places(near: Sequence[tuple[str, str]]) -> str:
    """ "전주감자탕 '뼈해장국', 신사골감자탕 '황태해장국' 외 1곳": the first places listing the dish, named."""
    shown = near[:LISTED_NAMED]
    named = text("search.relax.listing_joiner").join(
        say("search.relax.listing_place", title=t, line=line) for t, line in shown
    )
    more = say("search.relax.listing_more", more=len(near) - len(shown)) if len(near) > len(shown) else ""
    return named + more


def _widened_note(p: SearchPlan, radius: str, wider: str, listing: Listing | None = None) -> str:
    """ "문래역 1km 안에는 초밥·오마카세(으)로 분류된 곳이 없어서": a kind alone asked, the note says what
    was counted — the places the data files as the kind — and names the places near that list its
    dish on their menu all the same (``listing``), so the line never denies a sushi menu near."""
    loc = p.location
    assert loc is not None
    other = p.menu or p.cuisine or p.convenience or p.open_at is not None
    if p.kinds and not other and p.price_min is None and p.price_max is None:
        kinds = kinds_counted(p)
        near = listing(p) if listing is not None else []
        if near:
            return say(
                "search.relax.widened_kind_listing",
                place=loc.name,
                radius=radius,
                kinds=kinds,
                ro=particle(kinds, "으로/로"),
                places=_listed_places(near),
                wider=wider,
            )
        return say(
            "search.relax.widened_kind",
            place=loc.name,
            radius=radius,
            kinds=kinds,
            wider=wider,
            ro=particle(kinds, "으로/로"),
        )
    return say("search.relax.widened", place=loc.name, radius=radius, wider=wider)


def _drop_clock_near(p: SearchPlan) -> tuple[SearchPlan, str | None]:
    """Going now, nothing open near: the clock is dropped for the circle asked, and the note says so
    of that circle only ("공덕역 1km 안에는 … 없어서") — a place open farther may still be on the list."""
    loc = p.location
    dropped, note = drop_filter(p)
    if note is None or p.open_at is None or dropped.open_at is not None or loc is None or not loc.radius_m:
        return dropped, note
    label = p.open_label or text("search.relax.condition.hours_unlabelled")
    condition = say("search.relax.condition.hours", label=label)
    return dropped, say(
        "search.relax.dropped_near", place=loc.name, radius=km(loc.radius_m), condition=condition
    )


def hours_wished(p: SearchPlan) -> bool:
    """The hours are the condition asked ("open late", "심야", "새벽 3시까지"), not only the clock of going
    now ("지금 하는"): kept through a wider circle, dropped only after it (audit r15 Q13: two of three
    cards closed for "open late")."""
    label = p.open_label or ""
    now_said = is_open_now_label(label) or label == text("search.time.now")  # "지금 영업 중", "지금"
    return p.open_at is not None and bool(label) and not now_said


def going_now(p: SearchPlan, now: datetime | None) -> bool:
    """The plan asks for places open at the turn's time ("지금 하는")."""
    return now is not None and p.open_at is not None and p.open_until is None and is_now(p.open_at, now)


def is_now(when: datetime, now: datetime) -> bool:
    """A time asked within :data:`GOING_NOW_S` of the turn's is "now"."""
    return abs((when - now).total_seconds()) <= GOING_NOW_S


def drop_filter(p: SearchPlan, keep_price: bool = False) -> tuple[SearchPlan, str | None]:
    """Drop the softest hard filter left and say so; the kind is never dropped, only widened to
    its broader kind (a 고깃집 never becomes a café). ``(p, None)`` when none is left."""
    dropped, condition = _drop_soft(p, keep_price)
    if condition is not None:
        return dropped, say("search.relax.dropped", condition=condition)
    table = kinds()
    parents = [table.by_name[k].parent for k in p.kinds if k in table.by_name]
    if p.kinds and all(parents):
        # a narrow kind found nothing: its broader kind ("오마카세" → "초밥·오마카세"), said so
        wider = list(dict.fromkeys(x for x in parents if x))
        return p.model_copy(update={"kinds": wider}), say(
            "search.relax.broader_kind",
            kinds=", ".join(p.kinds),
            wider=", ".join(wider),
            ro=particle(", ".join(wider), "으로/로"),
        )
    return p, None


def _drop_soft(p: SearchPlan, keep_price: bool = False) -> tuple[SearchPlan, str | None]:
    """The plan without its softest filter (:data:`SOFTNESS`; the price kept when ``keep_price``) and
    the condition's name."""
    for name in SOFTNESS:
        if name == "price" and keep_price:
            continue
        if name == "open_at" and p.open_at is not None:
            # the label goes with the filter: a heading never claims "지금 영업하는" once dropped
            label = p.open_label or text("search.relax.condition.hours_unlabelled")
            dropped = {"open_at": None, "open_until": None, "open_label": None, "open_wished": p.open_at}
            return p.model_copy(update=dropped), say("search.relax.condition.hours", label=label)
        if name == "price" and (p.price_min is not None or p.price_max is not None):
            return p.model_copy(update={"price_min": None, "price_max": None}), text(
                "search.relax.condition.price"
            )
        if name == "menu" and p.menu and (p.kinds or p.cuisine or len(p.menu) > 1):
            # the last word of what to eat is never dropped: "석촌 케밥집" never becomes any restaurant
            semantic = (p.semantic + " " + p.menu[-1]).strip()
            return p.model_copy(update={"menu": p.menu[:-1], "semantic": semantic}), say(
                "search.relax.condition.menu", menu=p.menu[-1]
            )
        if name == "cuisine" and p.cuisine and (p.kinds or p.menu):
            semantic = (p.semantic + " " + " ".join(p.cuisine)).strip()
            return p.model_copy(update={"cuisine": [], "semantic": semantic}), say(
                "search.relax.condition.cuisine", cuisines=", ".join(p.cuisine)
            )
    return p, None
