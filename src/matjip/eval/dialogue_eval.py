"""``matjip eval dialogues``: the frozen multi-turn gold set (``dialogue_set.jsonl``, see
``dialogue_set.md``) asked of the real agent, one new session per dialogue, scored turn by turn.

This module is a measuring instrument: it reads only what a :class:`~matjip.agent.models.TurnResult`
shows (``decision``, ``reused``, ``resumed``, ``clarification``, ``intent``, ``frame``/``plan``,
``cards``, ``answer``, ``location`` and the per-turn ``trace``) and never changes the product.
"The plan" below is the frame as asked (``TurnResult.frame``, see :func:`asked`), falling back
to the plan as searched.

Decision mapping (product behaviour → gold label), strict and literal
--------------------------------------------------------------------
* ``decision == "clarify"`` (a clarification question, no cards) → ``search``. It is the
  md's "place-less search without GPS must ask"; the frame check then demands that gold has
  neither a place nor GPS (otherwise the product asked where it should have searched). The other
  frame slots of an asking turn are checked on the ``clarify_answer`` turn that completes it.
* ``decision == "reply"`` whose ``need_search`` trace entry says ``smalltalk`` → ``smalltalk``.
  Any other canned reply (no content, unknown or outside place, …) → ``reply``, a label the gold
  never uses, so it is always wrong — except on a turn whose gold frame says ``outside: true`` (a
  place with no restaurant of the data around it): a reply that names that place as not covered and
  shows nothing is the gold decision (:func:`outside_reply`; the frame is not checked, no plan exists).
* ``decision == "context"`` (answered from the conversation, no search) → ``compare`` when the
  turn's intent is ``compare``, otherwise ``answer``.
* ``decision == "search"``, checked in this order:

  1. ``reused`` (the product's duplicate detection) → ``search`` with ``duplicate = true``;
  2. ``resumed`` (the product completed its pending clarification) → ``clarify_answer``;
  3. a title lookup (``plan.titles`` set and ``plan.intent`` ``information``/``compare``) → ``answer``
     / ``compare``: the product's way of answering about restaurants the user named;
  4. the plan's place name is the name of a restaurant shown earlier in the dialogue, or the
     name is no gazetteer place and its centre lies within :data:`SAME_SPOT_M` of such a restaurant
     → ``place_relative`` (a gazetteer place such as a station stays a place even when a shown
     restaurant stands at its centre);
  5. there is an earlier frame search in this dialogue and either the product flagged the turn as
     narrowing it (``need_search`` trace "narrow the previous search") or the new plan keeps the
     previous plan's kinds and differs from it in at most one other slot (place with its near/in
     mode, conveniences, exclusions, price bound, k, open time, sort) → ``refine``. Identical frames
     that are not ``reused`` count as "다른 데는 없어?" refines;
  6. otherwise → ``search`` (``duplicate = false``).

  A frame search that keeps the kind and only changes the place is therefore a ``refine`` even
  when the user restated kind and place; the product has no observable way to say otherwise, and
  such a turn counts wrong when gold says ``search``.

The duplicate flag must match on ``search`` turns (the md's decision accuracy).

Frame check (only for turns whose gold has a frame)
----------------------------------------------------
* kind: both words resolve through ``kinds().lookup``; the plan's ``kinds`` must be exactly that
  kind (``null`` → no kinds). A gold word that resolves to no kind must appear in the plan's
  kinds or menu terms.
* place: gold and plan place names resolve to the same gazetteer entry (``Gazetteer.best`` key;
  equal names without spaces also match). ``null`` with GPS (the turn's, or an earlier turn's of the
  dialogue: the session keeps the device's position) → the turn's location is the GPS;
  ``null`` without GPS → the product asked (clarification, no cards). ``"$ref1"`` → the plan's
  centre is within :data:`SAME_SPOT_M` of the referred restaurant (its card coordinates).
  A gold ``route`` (points in order, ``"GPS"`` for the device) replaces the place and near checks:
  the plan must be a route strategy from its first point to its last (``"GPS"`` → within
  :data:`SAME_SPOT_M` of the turn's GPS).
* near: ``true`` → mode ``near``; ``false`` → mode ``in``; ``"closer"`` → mode ``near``, the plan
  sorted by distance, every card's distance known, below the farthest card shown by the previous
  listing turn, and in non-decreasing order.
* conveniences: set equality with ``plan.convenience``.
* exclude: set equality after mapping each word (gold and the plan's ``exclude_kinds``,
  ``exclude_cuisine``, ``exclude_menu``, ``exclude_titles``) to its kind when it has one, the
  word without spaces otherwise; ``exclude_chains`` reads as the word "프랜차이즈", and a gold "체인" or
  "프차" is the same exclusion (a notation some sets use).
* price_max: an int must equal ``plan.price_max``. ``"<shown"`` needs a bound strictly below the
  highest price level of the previous listing's cards, and every new card's price level below
  that highest level (a card without prices fails). A restaurant's price level is the median of
  its priced menu lines (the ``price_of`` callable the runner gives, from the index). After a listing
  whose gold was already ``"<shown"`` ("더 싼 데" then "다른 데도"), the bound kept is checked instead:
  no looser than that listing's bound, every new card within it.
* k: equals ``plan.k``. open: ``null`` → no ``open_at``; ``"now"`` → ``open_at`` within 15
  minutes of the turn's wall clock; ``"late"`` → ``open_at`` (or ``open_until``) at 23:00–05:59.
* a ``refine`` whose gold frame equals the previous gold frame ("다른 데") must show at least one
  card and none that the product showed before for that same gold frame.

References and answers
----------------------
``{"turn": t, "ordinal": i}`` resolves on the product's own cards of turn ``t`` (``-1`` = last);
a turn that showed no such card fails. ``{"name": X}`` is the title ``X``. For ``answer`` and
``compare`` turns, the answer must name every referred restaurant and no other restaurant the
product showed in this dialogue (a referred name is removed before looking for the others).
Names are compared without spaces; a branch suffix may be dropped when no other restaurant of the
dialogue shares the brand. ``answer_must_say`` facts ignore spaces and commas, treat "원" as
optional, accept "HH시" (minutes 00), "HH시 MM분", "HH시 반" and 12-hour forms (오전/오후/밤/저녁/
새벽/아침) for "HH:MM"; "모르겠어요" needs a not-known phrase and no telephone-like number.
Small talk must show no cards. A dialogue is fully right when every turn is right.
"""

from __future__ import annotations

import itertools
import json
import math
import re
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import lru_cache
from pathlib import Path
from typing import Any, Final, Literal, get_args

from matjip.agent.models import Card, SearchPlan, TurnResult
from matjip.words import words

SET_PATH = Path(__file__).with_name("dialogue_set.jsonl")
# the decisions a gold turn may expect (dialogue_set.md), in report order
Decision = Literal["search", "refine", "answer", "compare", "place_relative", "smalltalk", "clarify_answer"]
DECISIONS: tuple[Decision, ...] = get_args(Decision)
LISTING = ("search", "refine", "clarify_answer", "place_relative")
SAME_SPOT_M = 100.0
NOT_KNOWN: Final = words("eval_phrases", "not_known")
_PHONE = re.compile(r"\d{2,4}-\d{3,4}-\d{4}")
_BRANCH = re.compile(r"\S*점$|\S*호점$|본관$|별관$")

PriceOf = Callable[[str], int | None]
"""The price level of a restaurant id (median priced menu line), or None when it has no prices."""


# --- small resolvers -------------------------------------------------------------------------
def squash(text: str) -> str:
    """Without spaces and commas (names and facts are compared this way)."""
    return re.sub(r"[\s,]+", "", text)


@lru_cache(maxsize=4096)
def kind_of(word: str) -> str | None:
    from matjip.kinds import kinds

    got = kinds().lookup(word)
    return got[0] if got is not None else None


@lru_cache(maxsize=4096)
def place_key(name: str) -> str:
    """The gazetteer entry a place name resolves to (its key), or the name without spaces."""
    from matjip.geo.gazetteer import Gazetteer

    best = Gazetteer.load().best(name)
    return best.key if best is not None else "name:" + squash(name)


def meters(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    r = 6_371_000.0
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * r * math.asin(math.sqrt(a))


CHAIN_WORDS = frozenset({"체인", "프차"})
"""Gold notations of the chain exclusion, read as "프랜차이즈" (what ``exclude_chains`` reads as)."""


def _exclusion_set(words: Sequence[str]) -> set[str]:
    return {kind_of(w) or squash(w) for w in ("프랜차이즈" if w in CHAIN_WORDS else w for w in words) if w}


def plan_exclusions(plan: SearchPlan) -> set[str]:
    words = [*plan.exclude_kinds, *plan.exclude_cuisine, *plan.exclude_menu, *plan.exclude_titles]
    if plan.exclude_chains:
        words.append("프랜차이즈")
    return _exclusion_set(words)


def _trace_decision(res: TurnResult, node: str) -> str:
    for t in res.trace:
        if t.node == node:
            return t.decision
    return ""


def is_title_lookup(res: TurnResult) -> bool:
    p = asked(res)
    return p is not None and bool(p.titles) and p.intent in ("information", "compare")


def asked(res: TurnResult) -> SearchPlan | None:
    """The frame the turn searched for: ``TurnResult.frame`` (the plan as asked, before the
    product relaxed any condition), else its ``plan``. The gold's frame is what the user asked;
    a condition the product had to drop to find anything is still part of the conversation."""
    return res.frame or res.plan


def _near_card(plan: SearchPlan, cards: Sequence[Card], gps: dict[str, float] | None = None) -> Card | None:
    loc = plan.location
    if loc is None:
        return None
    if (
        gps
        and loc.lat is not None
        and loc.lon is not None
        and meters(loc.lat, loc.lon, gps["lat"], gps["lon"]) < 1
    ):
        return None  # the device's position, sent with the turn, is no shown restaurant

    named_place = not place_key(loc.name).startswith("name:")
    for c in cards:
        if squash(loc.name) == squash(c.name):
            return c
        if (
            not named_place  # a station that happens to have a shown restaurant at its centre
            and loc.lat is not None
            and loc.lon is not None
            and c.lat is not None
            and c.lon is not None
            and meters(loc.lat, loc.lon, c.lat, c.lon) <= SAME_SPOT_M
        ):
            return c
    return None


def _slots(plan: SearchPlan) -> dict[str, Any]:
    loc = plan.location
    return {
        # one slot: the md's refine "replaces one slot: … place" ("그냥 문정동에서" → place and mode)
        "place": (place_key(loc.name), loc.mode) if loc is not None else None,
        "conveniences": frozenset(plan.convenience),
        "exclude": frozenset(plan_exclusions(plan)),
        "price": (plan.price_min, plan.price_max),
        "k": plan.k,
        "open": (plan.open_at, plan.open_until),
        "sort": plan.sort,
    }


def changed_slots(prev: SearchPlan, new: SearchPlan) -> list[str]:
    """Slots (besides kinds) in which ``new`` differs from ``prev``."""
    a, b = _slots(prev), _slots(new)
    return [s for s in a if a[s] != b[s]]


# --- decision ---------------------------------------------------------------------------------
def outside_reply(res: TurnResult, frame: dict[str, Any]) -> bool:
    """A gold ``outside: true`` place (no restaurant of the data around it) answered plainly as not
    covered, naming that place and searching nothing: what the sets' READMEs count right for it
    (dialogue_test9/test10 "Outside places"). Showing places elsewhere instead would be wrong."""
    place = squash(str(frame.get("place") or ""))
    said = _trace_decision(res, "understand")
    # the place as the user said it: "itaewon" is 이태원 to the product, 이태원역 to the gold (station → near)
    names = {place, place.removesuffix("역")} - {""}
    return (
        res.decision == "reply"
        and not res.cards
        and bool(place)
        and (said.startswith("no restaurant in the data around") or said.endswith("is outside the data"))
        and any(n in squash(said) and n in squash(res.answer or "") for n in names)
    )


def product_label(
    res: TurnResult,
    prev_plan: SearchPlan | None,
    shown_before: Sequence[Card],
    gps: dict[str, float] | None = None,
) -> tuple[str, bool]:
    """The gold label the product's observable behaviour amounts to, and its duplicate flag."""
    if res.decision == "clarify":
        return "search", False
    if res.decision == "reply":
        return ("smalltalk" if _trace_decision(res, "need_search") == "smalltalk" else "reply"), False
    if res.decision == "context":
        return ("compare" if res.intent == "compare" else "answer"), False
    if res.decision != "search":
        return res.decision or "none", False
    if res.reused:
        return "search", True
    if res.resumed:
        return "clarify_answer", False
    if is_title_lookup(res):
        p = asked(res)
        assert p is not None
        return ("compare" if p.intent == "compare" else "answer"), False
    plan = asked(res)
    if plan is not None and _near_card(plan, shown_before, gps) is not None:
        return "place_relative", False
    if plan is not None and prev_plan is not None:
        if "narrow the previous search" in _trace_decision(res, "need_search"):
            return "refine", False
        if set(plan.kinds) == set(prev_plan.kinds) and len(changed_slots(prev_plan, plan)) <= 1:
            return "refine", False
    return "search", False


# --- answer text ------------------------------------------------------------------------------
def brand_of(title: str) -> str:
    words = title.split()
    if len(words) > 1 and _BRANCH.search(words[-1]):
        return " ".join(words[:-1])
    return title


def name_in_answer(title: str, answer: str, other_titles: Sequence[str] = ()) -> bool:
    """The title (without spaces) is in the answer, or its brand when the branch may be dropped:
    no other title of the dialogue has the same brand."""
    text = squash(answer)
    if squash(title) in text:
        return True
    brand = brand_of(title)
    if brand == title:
        return False
    same_brand = [
        t for t in other_titles if squash(t) != squash(title) and squash(brand_of(t)) == squash(brand)
    ]
    return not same_brand and squash(brand) in text


def _time_forms(hh: int, mm: int) -> list[str]:
    """Ways of writing HH:MM (without spaces): 22:00, 22시, 밤10시, 22시30분, 밤10시반, …"""
    tails = ["", "00분"] if mm == 0 else [f"{mm}분", f"{mm:02d}분", *(["반"] if mm == 30 else [])]
    forms = [f"{hh:02d}:{mm:02d}", f"{hh}:{mm:02d}"]
    forms += [f"{h}시{t}" for h in {str(hh), f"{hh:02d}"} for t in tails]
    twelve = hh % 12 or 12
    if hh == 0 or hh == 24:
        prefixes = ["밤", "자정", "새벽"]
    elif hh >= 12:
        prefixes = ["오후", "저녁", "밤"]
    elif hh < 6:
        prefixes = ["새벽", "오전"]
    else:
        prefixes = ["오전", "아침"]
    forms += [f"{p}{twelve}시{t}" for p in prefixes for t in tails]
    return forms


def fact_in_answer(fact: str, answer: str) -> bool:
    """One ``answer_must_say`` fact (see the module docstring)."""
    if fact == "모르겠어요":
        return any(p.replace(" ", "") in squash(answer) for p in NOT_KNOWN) and not _PHONE.search(answer)
    text = squash(answer)
    m = re.fullmatch(r"(\d{1,2}):(\d{2})", fact.strip())
    if m:
        return any(f in text for f in _time_forms(int(m.group(1)), int(m.group(2))))
    want = squash(fact)
    if want.endswith("원"):
        want = want[:-1]
    return want in text


# --- scores -----------------------------------------------------------------------------------
@dataclass
class TurnScore:
    dialogue: str
    turn: int
    user: str
    gold: str
    got: str
    gold_duplicate: bool = False
    got_duplicate: bool = False
    errors: list[str] = field(default_factory=list)

    @property
    def decision_ok(self) -> bool:
        return self.gold == self.got and (self.gold != "search" or self.gold_duplicate == self.got_duplicate)

    @property
    def ok(self) -> bool:
        return self.decision_ok and not self.errors

    def reason(self) -> str:
        parts = []
        if not self.decision_ok:
            dup = lambda d: " (duplicate)" if d else ""  # noqa: E731
            parts.append(
                f"decision {self.got}{dup(self.got_duplicate)} ≠ gold {self.gold}{dup(self.gold_duplicate)}"
            )
        return "; ".join([*parts, *self.errors])


@dataclass
class DialogueScore:
    id: str
    split: str
    type: str
    turns: list[TurnScore]
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None and all(t.ok for t in self.turns)


@dataclass
class _Listing:
    turn: int
    cards: list[Card]
    plan: SearchPlan | None
    gold_frame: dict[str, Any] | None


def _frame_key(frame: dict[str, Any]) -> str:
    return json.dumps({k: sorted(v) if isinstance(v, list) else v for k, v in frame.items()}, sort_keys=True)


def _resolve_refs(
    refs: Sequence[dict[str, Any]], cards_by_turn: dict[int, list[Card]]
) -> tuple[list[str], list[Card | None], list[str]]:
    """Titles and cards (None for a named ref without a shown card) of ``refs``, and errors."""
    titles: list[str] = []
    cards: list[Card | None] = []
    errors: list[str] = []
    for ref in refs:
        if "name" in ref:
            name = str(ref["name"])
            titles.append(name)
            shown = [c for cs in cards_by_turn.values() for c in cs if squash(c.name) == squash(name)]
            cards.append(shown[0] if shown else None)
            continue
        t, i = int(ref["turn"]), int(ref["ordinal"])
        lst = cards_by_turn.get(t) or []
        idx = len(lst) - 1 if i == -1 else i - 1
        if 0 <= idx < len(lst):
            titles.append(lst[idx].name)
            cards.append(lst[idx])
        else:
            errors.append(f"ref turn {t} #{i}: the product showed {len(lst)} cards there")
            titles.append("")
            cards.append(None)
    return titles, cards, errors


def check_frame(
    frame: dict[str, Any],
    res: TurnResult,
    *,
    gps: dict[str, float] | None,
    ref_cards: Sequence[Card | None] = (),
    prev_listing: _Listing | None = None,
    price_of: PriceOf | None = None,
    now: datetime | None = None,
) -> list[str]:
    """Field-by-field differences between a gold frame and the product's turn (empty = right)."""
    errors: list[str] = []
    if frame.get("place") is None and gps is None:
        if res.clarification is None or res.cards:
            errors.append("a place-less search without GPS must ask where, with no results")
        return errors
    if res.clarification is not None:
        return [f"asked a clarification instead of searching ({res.clarification.question[:40]})"]
    plan = asked(res)
    if plan is None:
        return ["no search plan"]
    # kind
    want = frame.get("kind")
    if want is None:
        # a course (dialogue_test13 README "Course": `kind: null` with `course` informative, no course slot):
        # a course plan lists its stops' kinds, which is no kind asked of one list
        course = bool(frame.get("course")) and plan.strategy == "course"
        if plan.kinds and not course:
            errors.append(f"kind: gold any, plan {plan.kinds}")
    else:
        k = kind_of(str(want))
        if k is not None:
            if list(dict.fromkeys(plan.kinds)) != [k]:
                errors.append(f"kind: gold {want}→{k}, plan {plan.kinds}")
        elif want not in plan.kinds and want not in plan.menu:
            errors.append(f"kind: gold {want} (no kind), plan {plan.kinds}/{plan.menu}")
    # place (a gold route is checked on the plan's route ends instead)
    place = frame.get("place")
    loc = plan.location
    if frame.get("route"):
        errors += _route_errors(list(frame["route"]), plan, gps)
    elif loc is None:
        errors.append(f"place: gold {place or 'GPS'}, plan has no place")
    elif place is None:
        if res.location is None or res.location.type != "GPS":
            errors.append(f"place: gold GPS, plan {loc.name}")
    elif place == "$ref1":
        ref = ref_cards[0] if ref_cards else None
        if ref is None or ref.lat is None or ref.lon is None:
            errors.append("place: the referred restaurant has no shown card with coordinates")
        elif loc.lat is None or loc.lon is None or meters(loc.lat, loc.lon, ref.lat, ref.lon) > SAME_SPOT_M:
            errors.append(f"place: gold around {ref.name}, plan {loc.name}")
    elif place_key(str(place)) != place_key(loc.name) and squash(str(place)) != squash(loc.name):
        errors.append(f"place: gold {place}, plan {loc.name}")
    # near
    near = frame.get("near")
    mode = loc.mode if loc is not None else None
    if frame.get("route"):
        pass  # a route is searched along its line, not around one place
    elif near is True and mode != "near":
        errors.append(f"near: gold radius, plan {mode}")
    elif near is False and mode != "in":
        errors.append(f"near: gold in-region, plan {mode}")
    elif near == "closer":
        errors += _closer_errors(res, plan, prev_listing)
    # conveniences, exclude
    if set(frame.get("conveniences") or []) != set(plan.convenience):
        errors.append(f"conveniences: gold {frame.get('conveniences')}, plan {plan.convenience}")
    gold_ex = _exclusion_set(frame.get("exclude") or [])
    if gold_ex != plan_exclusions(plan):
        errors.append(f"exclude: gold {sorted(gold_ex)}, plan {sorted(plan_exclusions(plan))}")
    # price
    price = frame.get("price_max")
    if price == "<shown":
        errors += _cheaper_errors(res, plan, prev_listing, price_of)
    elif price != plan.price_max:
        errors.append(f"price_max: gold {price}, plan {plan.price_max}")
    # k, open
    if frame.get("k") != plan.k:
        errors.append(f"k: gold {frame.get('k')}, plan {plan.k}")
    errors += _open_errors(frame.get("open"), plan, now)
    errors += _day_errors(frame.get("day"), plan)
    return errors


def _route_errors(points: list[str], plan: SearchPlan, gps: dict[str, float] | None) -> list[str]:
    """A gold ``route`` (its points in order, "GPS" for the device's position) against the plan's
    route: a route strategy whose origin and destination are those two points."""
    route = plan.route
    if plan.strategy != "route" or route is None:
        return [f"route: gold {' → '.join(points)}, plan strategy {plan.strategy}"]
    errors = []
    for want, end in zip(points[:1] + points[-1:], (route.origin, route.destination), strict=True):
        if want == "GPS":
            at = (end.lat, end.lon) if end.lat is not None and end.lon is not None else None
            if gps is None or at is None or meters(gps["lat"], gps["lon"], *at) > SAME_SPOT_M:
                errors.append(f"route: gold GPS, plan {end.name}")
        elif place_key(want) != place_key(end.name) and squash(want) != squash(end.name):
            errors.append(f"route: gold {want}, plan {end.name}")
    return errors


def _closer_errors(res: TurnResult, plan: SearchPlan, prev: _Listing | None) -> list[str]:
    before = [c.distance_m for c in (prev.cards if prev else [])]
    if not before or any(d is None for d in before):
        return ["closer: the previous listing has no distances"]
    limit = max(d for d in before if d is not None)
    dists = [c.distance_m for c in res.cards]
    errors = []
    if plan.sort != "distance":
        errors.append(f"closer: plan sorted by {plan.sort}")
    if not dists:
        errors.append("closer: no results")
    elif any(d is None or d >= limit for d in dists):
        errors.append(f"closer: results not all nearer than {limit:.0f} m ({dists})")
    elif any(a is not None and b is not None and a > b for a, b in itertools.pairwise(dists)):
        errors.append("closer: results not ordered by distance")
    return errors


def _cheaper_errors(
    res: TurnResult, plan: SearchPlan, prev: _Listing | None, price_of: PriceOf | None
) -> list[str]:
    if price_of is None:
        return ["<shown: no price levels available"]
    kept = (
        prev.plan.price_max
        if prev and prev.plan and (prev.gold_frame or {}).get("price_max") == "<shown"
        else None
    )
    if kept is not None:
        # "좀 더 싼 데" then "다른 데도": the next page keeps the cheaper bound already set (a bound no looser,
        # every new card within it), not a second "cheaper than these" of its own
        new_levels = [price_of(c.id) for c in res.cards]
        if plan.price_max is None or plan.price_max > kept:
            return [f"<shown: bound {plan.price_max} looser than the cheaper bound kept {kept}"]
        if not new_levels or any(p is None or p > kept for p in new_levels):
            return [f"<shown: results {new_levels} not all within the cheaper bound kept {kept}"]
        return []
    shown = [price_of(c.id) for c in (prev.cards if prev else [])]
    levels = [p for p in shown if p is not None]
    if not levels:
        return ["<shown: the previous listing has no prices"]
    top = max(levels)
    errors = []
    if plan.price_max is None or plan.price_max >= top:
        errors.append(f"<shown: bound {plan.price_max} not below the highest shown level {top}")
    new = [price_of(c.id) for c in res.cards]
    if not new:
        errors.append("<shown: no results")
    elif any(p is None or p >= top for p in new):
        errors.append(f"<shown: results {new} not all cheaper than {top}")
    return errors


_WEEKDAYS = "월화수목금토일"


def _day_errors(want: Any, plan: SearchPlan) -> list[str]:
    """A gold ``day`` ("토요일", "일"; the sets' note: "open null with day") against the day the plan
    is about: of the time asked, else of the meal wished ("토요일 점심에 갈" is Saturday's lunch)."""
    if not want:
        return []
    day = _WEEKDAYS.find(str(want)[0])
    at = plan.open_at or plan.open_wished
    if at is None:
        return [f"day: gold {want}, plan none"]
    return [] if at.weekday() == day else [f"day: gold {want}, plan {_WEEKDAYS[at.weekday()]}"]


def _open_errors(want: Any, plan: SearchPlan, now: datetime | None) -> list[str]:
    at = plan.open_at
    if want is None:
        return [] if at is None else [f"open: gold none, plan {at:%H:%M}"]
    if at is None:
        return [f"open: gold {want}, plan none"]
    if want == "now":
        ref = now or datetime.now(at.tzinfo)
        if at.tzinfo is not None and ref.tzinfo is None:
            ref = ref.astimezone(at.tzinfo)
        ok = abs(at - ref) <= timedelta(minutes=15)
        return [] if ok else [f"open: gold now, plan {at:%H:%M}"]
    if want == "late":
        hours = [t.hour for t in (at, plan.open_until) if t is not None]
        ok = any(h >= 23 or h < 6 for h in hours)
        return [] if ok else [f"open: gold late, plan {at:%H:%M}"]
    return [f"open: unknown gold value {want}"]


def score_dialogue(
    item: dict[str, Any],
    results: Sequence[TurnResult],
    price_of: PriceOf | None = None,
    now: datetime | None = None,
) -> DialogueScore:
    """Score the product's turn results of one gold dialogue (``results[i]`` answers turn i+1)."""
    scores: list[TurnScore] = []
    cards_by_turn: dict[int, list[Card]] = {}
    listings: list[_Listing] = []
    prev_plan: SearchPlan | None = None
    shown_titles = [c.name for r in results for c in r.cards]
    device: dict[str, float] | None = None
    for n, (turn, res) in enumerate(zip(item["turns"], results, strict=False), start=1):
        exp = turn["expect"]
        # the device's position, once sent, is the session's until another is sent (a refine of a GPS
        # search keeps it: "지금 여기 근처 국밥" then "더 싼 데")
        device = turn.get("gps") or device
        shown_before = [c for cs in cards_by_turn.values() for c in cs]
        got, dup = product_label(res, prev_plan, shown_before, device)
        frame = exp.get("frame")
        outside = frame is not None and bool(frame.get("outside")) and outside_reply(res, frame)
        if outside:
            got = exp["decision"]  # the sets' convention: an outside place said plainly not covered
        ts = TurnScore(
            dialogue=item["id"],
            turn=n,
            user=turn["user"],
            gold=exp["decision"],
            got=got,
            gold_duplicate=bool(exp.get("duplicate")),
            got_duplicate=dup,
        )
        refs = exp.get("refers_to") or []
        ref_titles, ref_cards, ref_errors = _resolve_refs(refs, cards_by_turn)
        ts.errors += ref_errors
        prev_listing = listings[-1] if listings else None
        if frame is not None and not outside:
            ts.errors += check_frame(
                frame,
                res,
                gps=device,
                ref_cards=ref_cards,
                prev_listing=prev_listing,
                price_of=price_of,
                now=now,
            )
            if (
                exp["decision"] == "refine"
                and prev_listing is not None
                and prev_listing.gold_frame is not None
            ) and _frame_key(frame) == _frame_key(prev_listing.gold_frame):
                before = {
                    c.id
                    for lst in listings
                    if lst.gold_frame is not None and _frame_key(lst.gold_frame) == _frame_key(frame)
                    for c in lst.cards
                }
                if not res.cards:
                    ts.errors.append("next page: no results")
                elif any(c.id in before for c in res.cards):
                    ts.errors.append("next page: repeats a restaurant already shown for this frame")
        if exp["decision"] == "smalltalk" and res.cards:
            ts.errors.append("small talk replaced the list")
        others = [t for t in shown_titles if t]
        for placeholder in exp.get("answer_must_name") or []:
            m = re.fullmatch(r"\$ref(\d+)", placeholder)
            title = (
                ref_titles[int(m.group(1)) - 1] if m and int(m.group(1)) <= len(ref_titles) else placeholder
            )
            if title and not name_in_answer(title, res.answer, [*others, *ref_titles]):
                ts.errors.append(f"answer does not name {title}")
        if exp["decision"] in ("answer", "compare") and ref_titles and all(ref_titles):
            text = squash(res.answer)
            for t in sorted(ref_titles, key=len, reverse=True):
                text = text.replace(squash(t), "").replace(squash(brand_of(t)), "")
            extra = sorted({t for t in others if squash(t) in text and len(squash(t)) >= 2})
            if extra:
                ts.errors.append(f"answer also names {', '.join(extra[:3])}")
        for fact in exp.get("answer_must_say") or []:
            if not fact_in_answer(str(fact), res.answer):
                ts.errors.append(f"answer does not say {fact}")
        scores.append(ts)
        # the product's own lists: what later ordinals resolve on
        if res.cards:
            cards_by_turn[n] = list(res.cards)
        if exp["decision"] in LISTING:  # the gold's listing turns, with the product's cards
            listings.append(_Listing(n, list(res.cards), asked(res), frame))
        if res.decision == "search" and asked(res) is not None and not is_title_lookup(res):
            prev_plan = asked(res)
    return DialogueScore(id=item["id"], split=item["split"], type=item["type"], turns=scores)


# --- report -----------------------------------------------------------------------------------
@dataclass
class Report:
    split: str
    dialogues: list[DialogueScore] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def turns(self) -> list[TurnScore]:
        return [t for d in self.dialogues for t in d.turns]

    def rows(self) -> list[tuple[str, str]]:
        ds, ts = self.dialogues, self.turns

        def share(a: int, b: int) -> str:
            return f"{a}/{b} ({a / b:.1%})" if b else "-"

        rows = [
            ("dialogues fully right (target ≥ 90 %)", share(sum(d.ok for d in ds), len(ds))),
            ("turns with the right decision (target ≥ 97 %)", share(sum(t.decision_ok for t in ts), len(ts))),
            ("turns fully right", share(sum(t.ok for t in ts), len(ts))),
        ]
        for dec in DECISIONS:
            sub = [t for t in ts if t.gold == dec]
            if sub:
                rows.append((f"decision {dec}", share(sum(t.decision_ok for t in sub), len(sub))))
                rows.append((f"  {dec} turns fully right", share(sum(t.ok for t in sub), len(sub))))
        got = Counter(t.got for t in ts if not t.decision_ok)
        if got:
            rows.append(("wrong decisions given as", ", ".join(f"{k} {v}" for k, v in got.most_common())))
        for typ in sorted({d.type for d in ds}):
            sub_d = [d for d in ds if d.type == typ]
            rows.append((f"type {typ}", share(sum(d.ok for d in sub_d), len(sub_d))))
        rows.append(("errors", str(len(self.errors))))
        rows.append(("time (s)", f"{self.seconds:.1f}"))
        return rows

    def failures(self) -> list[str]:
        out = []
        for d in self.dialogues:
            if d.error is not None:
                out.append(f"{d.id} [{d.type}] error: {d.error}")
            for t in d.turns:
                if not t.ok:
                    out.append(f"{d.id}#{t.turn} [{d.type}] {t.user!r}: {t.reason()}")
                    break  # the first wrong turn of each dialogue
        return out


def load_set(path: Path | None = None) -> list[dict[str, Any]]:
    """The set's dialogues; a ``$`` placeholder other than ``$refN`` is an error (a gold written
    "$1" would otherwise be looked for as a literal title and fail every answer turn)."""
    lines = (path or SET_PATH).read_text(encoding="utf-8").splitlines()
    items = [json.loads(line) for line in lines if line.strip()]
    for it in items:
        for turn in it["turns"]:
            if isinstance(turn.get("gps"), list):
                # a device position written [lat, lon] (dialogue_test18) is the {"lat", "lon"} of the others
                lat, lon = turn["gps"]
                turn["gps"] = {"lat": float(lat), "lon": float(lon)}
            for name in turn["expect"].get("answer_must_name") or []:
                if name.startswith("$") and not re.fullmatch(r"\$ref\d+", name):
                    raise ValueError(f"{it['id']}: unknown placeholder {name!r} (write $ref1, $ref2, …)")
    return items


Ask = Callable[[str, str, dict[str, float] | None], TurnResult]
"""``ask(message, session_id, gps)``: one turn of the real agent."""


def run(
    ask: Ask,
    split: str = "test",
    limit: int | None = None,
    price_of: PriceOf | None = None,
    path: Path | None = None,
) -> Report:
    """Ask every dialogue of ``split`` (``dev``, ``test`` or ``all``), one new session each."""
    items = [it for it in load_set(path) if split == "all" or it["split"] == split]
    report = Report(split=split)
    started = time.perf_counter()
    for it in items[:limit] if limit else items:
        sid = f"dialogue-eval-{it['id']}-{time.time_ns()}"
        results: list[TurnResult] = []
        error = None
        for turn in it["turns"]:
            try:
                results.append(ask(turn["user"], sid, turn.get("gps")))
            except Exception as exc:  # one broken turn is a finding, not the end of the run
                error = f"turn {len(results) + 1}: {type(exc).__name__}: {exc}"
                report.errors.append(f"{it['id']} {error}")
                break
        score = score_dialogue(it, results, price_of)
        if error is not None:
            score.error = error
        report.dialogues.append(score)
    report.seconds = time.perf_counter() - started
    return report
