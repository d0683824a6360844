"""Seed 003's search strategies read off a message (issue 14): a route ("A에서 B 가는 길에", "A와 B
사이"), a travel threshold ("걸어서 10분", "차로 15분", "3km 이내"), a course ("점심-카페-저녁 코스",
"1박 2일 먹방 코스"), a place abroad ("시부야 라멘") and the cautions (pets, activities).

Every word and pattern is in ``data/strategies.toml`` (its header documents the format); this module
only applies them. The result is a :class:`~matjip.nlu.models.StrategySpec` of surface names as the
person wrote them; the agent geocodes them and the server validates the plan built from them.
"""

from __future__ import annotations

import math
import re
import tomllib
import unicodedata
from functools import cache
from pathlib import Path
from typing import Literal, get_args

from pydantic import BaseModel, Field

from matjip.nlu.models import StrategySpec, TravelMode, TripRole
from matjip.nlu.terms import CONTEXT

STRATEGIES_FILE = Path(__file__).resolve().parent.parent / "data" / "strategies.toml"
TRIP_ROLES: tuple[TripRole, ...] = get_args(TripRole)


class ModeRule(BaseModel):
    words: list[str]
    speed_m_per_min: float
    detour: float


class RoleRule(BaseModel):
    words: list[str]
    kinds: list[str] = Field(default_factory=list)
    exclude_cuisine: list[str] = Field(default_factory=list)
    live_category: str | None = None


class RouteRules(BaseModel):
    along: list[str]
    between: list[str]
    radius_city_m: int
    radius_outer_m: int
    radius_long_m: int
    city_max_km: float
    outer_max_km: float
    min_radius_m: int
    radius_share: float
    max_samples: int
    detour_step_m: int  # places within one step of detour are ranked by the trust a local gives them
    not_place: str
    words: list[str] = Field(default_factory=list)


class TravelRules(BaseModel):
    radius_factor: float
    numerals: dict[str, float]
    minutes: list[str]
    hours: list[str]
    km: list[str]
    m: list[str]
    radius_words: list[str]
    walk_max_m: int
    modes: dict[TravelMode, ModeRule]


class CourseRules(BaseModel):
    triggers: list[str]
    not_triggers: list[str]
    sequences: list[str] = Field(default_factory=list)  # "A 먹고 … B도": a course when two roles are named
    days: list[str]
    one_day: list[str]
    walk_leg_m: int
    car_leg_m: int
    walk_span_m: int
    car_span_m: int
    max_stops_per_day: int
    slot_merge_gap: str
    round_words: list[str]
    round_gap: str
    counts: dict[str, int]
    tour_words: list[str]
    tour_stops: int
    separators: str
    roles: dict[TripRole, RoleRule]
    slots: dict[str, int]
    defaults: dict[str, list[TripRole]]


class Rules(BaseModel):
    suffixes: list[str]
    keep: list[str]
    not_places: list[str]
    here: list[str]
    route: RouteRules
    travel: TravelRules
    course: CourseRules
    overseas: list[str]
    overseas_answer: str
    pet: list[str]
    activity: list[str]
    pet_text: str
    activity_text: str
    activity_before_text: str


@cache
def rules() -> Rules:
    raw = tomllib.loads(STRATEGIES_FILE.read_text(encoding="utf-8"))
    travel = dict(raw["travel"])
    modes = {m: travel.pop(m) for m in ("walk", "car", "transit")}
    return Rules(
        suffixes=sorted(raw["places"]["suffixes"], key=len, reverse=True),
        keep=raw["places"]["keep"],
        not_places=raw["places"]["not_places"],
        here=raw["places"]["here"],
        route=RouteRules(**raw["route"]),
        travel=TravelRules(**travel, modes=modes),
        course=CourseRules(**raw["course"]),
        overseas=raw["overseas"]["names"],
        overseas_answer=raw["overseas"]["answer"],
        pet=raw["caution"]["pet"],
        activity=raw["caution"]["activity"],
        pet_text=raw["caution"]["pet_text"],
        activity_text=raw["caution"]["activity_text"],
        activity_before_text=raw["caution"]["activity_before_text"],
    )


@cache
def _compiled(patterns: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(p, re.IGNORECASE) for p in patterns)


def _place(word: str) -> str | None:
    """A place name as written, its particles stripped; None for "여기" and the like."""
    w = word.strip(" ,.!?~'\"()")
    kept = next((k for k in rules().keep if w.startswith(k)), None)
    if kept is not None:
        return kept
    for _ in range(2):
        for s in rules().suffixes:
            if w.endswith(s) and len(w) > len(s):
                w = w[: -len(s)].rstrip()  # "잠실 쪽으로" → "잠실"
                break
    if not w or w in rules().here or w.replace(" ", "") in rules().here:
        return None
    return w


def _route(text: str) -> tuple[str | None, str | None, bool] | None:
    r = rules().route
    for between, patterns in ((False, r.along), (True, r.between)):
        for rx in _compiled(tuple(patterns)):
            m = rx.search(text)
            if m is None:
                continue
            a, b = _place(m.group("a")), _place(m.group("b"))
            if a is None and b is None:
                continue
            amount = re.compile(r.not_place)
            if any(x is not None and amount.search(x) for x in (a, b)):
                continue
            if a is not None and b is not None and a == b:
                continue
            return a, b, between
    return None


def mode_said(text: str) -> TravelMode | None:
    """The travel mode a message names first (the mode words of strategies.toml), or None. A word
    right after a number is none: "2차로 맥주" is the second round, not "by car" (차로)."""
    low = text.lower()
    found: list[tuple[int, TravelMode]] = []
    for name, rule in rules().travel.modes.items():
        for w in rule.words:
            m = re.search(r"(?<![0-9])" + re.escape(w.lower()), low)
            if m is not None:
                found.append((m.start(), name))
    return min(found)[1] if found else None


_CLOCK = re.compile(r"\d+\s*시\s*$")


def _minutes(text: str, mode: TravelMode | None) -> int | None:
    t = rules().travel
    for rx in _compiled(tuple(t.hours)):
        m = rx.search(text)
        if m and (mode is not None or m.group(0).strip() != m.group("n") + "시간"):
            half = 30 if "반" in m.group(0) else 0  # "1시간반"
            return round(float(m.group("n")) * 60) + half
    patterns = list(t.minutes)
    if mode is not None:
        patterns.append(r"(?P<n>\d+)\s*분")
    for rx in _compiled(tuple(patterns)):
        for m in rx.finditer(text):
            if _CLOCK.search(text[: m.start()]):  # "7시 30분" is a clock time
                continue
            return int(m.group("n"))
    return None


def _distance_m(text: str) -> tuple[float | None, bool]:
    """(the travel distance asked in metres, whether it was said as a plain radius "반경 1km")."""
    t = rules().travel
    for patterns, unit in ((t.km, 1000.0), (t.m, 1.0)):
        for rx in _compiled(tuple(patterns)):
            m = rx.search(text)
            if m:
                before = text[max(0, m.start() - 6) : m.start()]
                plain = any(w in before for w in t.radius_words) or "반경" in m.group(0)
                return float(m.group("n")) * unit, plain
    return None, False


def _course_days(text: str) -> int | None:
    c = rules().course
    for rx in _compiled(tuple(c.days)):
        m = rx.search(text)
        if m:
            return max(1, int(m.group("d")))
    if any(w in text for w in c.one_day):
        return 1
    return None


def _is_course(text: str) -> bool:
    c = rules().course
    cleaned = text
    for w in c.not_triggers:
        cleaned = cleaned.replace(w, " ")
    if any(w in cleaned for w in c.triggers) or any(rx.search(text) for rx in _compiled(tuple(c.days))):
        return True
    # "고기 먹고 걸어서 갈 수 있는 카페도": one stop after another, both named, with no course word
    return any(rx.search(cleaned) for rx in _compiled(tuple(c.sequences))) and (
        len({role for role, _ in _role_mentions(text)}) >= 2
    )


def _role_mentions(text: str) -> list[tuple[TripRole, str]]:
    """The roles named, in the order said, with the word that named each ("점심" → 식사)."""
    c = rules().course
    spans: list[tuple[int, int, TripRole, str]] = []
    for role, rule in c.roles.items():
        for w in rule.words:
            if len(w) == 1:
                rx = re.compile(
                    r"(?:(?<=^)|(?<=[\s\-–—→>,/~]))" + re.escape(w) + r"(?=$|[\s\-–—→>,/~]|[이랑도은는를])"
                )
            else:
                rx = re.compile(re.escape(w), re.IGNORECASE)
            for m in rx.finditer(text):
                spans.append((m.start(), m.end(), role, w))
    for m in re.finditer(r"[가-힣]{2,}", text):
        # a dish or kind named in a course ("담날 해장국") is a stop of its role
        if any(a < m.end() and m.start() < b for a, b, _, _ in spans):
            continue
        got = _kind_role(m.group(0))
        if got is not None:
            spans.append((m.start(), m.end(), got, m.group(0)))
    spans.sort(key=lambda s: (s[0], -(s[1] - s[0])))
    kept: list[tuple[int, int, TripRole, str]] = []
    for span in spans:
        if kept and span[0] < kept[-1][1]:
            continue
        kept.append(span)
    merge, round_gap = re.compile(c.slot_merge_gap), re.compile(c.round_gap)
    slot_words = {w for w in c.slots if w not in c.roles}
    out: list[tuple[TripRole, str]] = []
    last_end = -1
    for _i, (start, stop, role, word) in enumerate(kept):
        gap = text[last_end:start] if last_end >= 0 else "x"
        if out and out[-1][1] in c.round_words and round_gap.match(gap):
            # "2차로 맥주", "2차는 가볍게 와인": the round and the kind said for it are one stop
            out[-1] = (role, word)
            last_end = stop
            continue
        if out and merge.match(gap):
            prev_role, prev_word = out[-1]
            if prev_word in slot_words and role != prev_role:
                out[-1] = (role, prev_word)  # "저녁엔 술집": 술집 at dinner time
                last_end = stop
                continue
            if prev_role == role:  # "2차 술집": one stop
                last_end = stop
                continue
        out.append((role, word))
        after = text[stop : stop + 8]
        for phrase, n in c.counts.items():
            if after.lstrip().startswith(phrase):
                out += [(role, word)] * (n - 1)
                break
        last_end = stop
    return out


def _kind_role(word: str) -> TripRole | None:
    from matjip.kinds import kinds

    table = kinds()
    for cut in range(len(word), 1, -1):
        got = table.lookup(word[:cut])
        if got is None:
            continue
        name = got[0]
        for role, rule in rules().course.roles.items():
            if name in rule.kinds:
                return role
        return "식사"
    return None


def _course_roles(text: str, days: int) -> tuple[list[TripRole], list[str]]:
    c = rules().course
    said = _role_mentions(text)
    generic = {"맛집", "먹방", "식사", "밥"}
    named = [(r, w) for r, w in said if w not in generic]
    if len(named) >= 2:
        return [r for r, _ in named], [w for _, w in named]
    if len(named) == 1 and any(w in text for w in c.tour_words):  # "빵집 투어": bakeries only
        role, word = named[0]
        return [role] * c.tour_stops, [word] * c.tour_stops
    default = next((v for k, v in c.defaults.items() if k != "plain" and k in text), c.defaults["plain"])
    roles = list(default)
    words: list[str] = [str(r) for r in roles]
    for r, w in named:
        if r not in roles:
            roles.insert(0, r)
            words.insert(0, w)
    return roles, words


def _has_word(text: str, words: list[str]) -> str | None:
    low = text.lower()
    return next((w for w in words if w.lower() in low), None)


def _overseas(text: str) -> str | None:
    names = set(rules().overseas)
    for token in re.findall(r"[^\s,.!?~]+", text):
        t = token
        for _ in range(3):
            if t in names:
                return t
            stripped = _place(t)
            for extra in ("역", "맛집", "근처"):
                if stripped and stripped.endswith(extra) and len(stripped) > len(extra):
                    stripped = stripped[: -len(extra)]
            if not stripped or stripped == t:
                break
            t = stripped
        if t in names:
            return t
    return None


def without_place_names(text: str) -> str:
    """``text`` with the place names it mentions blanked out: a word inside a station or landmark
    name (종합운동장역, 잠실야구장, 월드컵경기장) is no condition of the question."""
    from matjip.geo.gazetteer import find_in_text

    out = unicodedata.normalize("NFC", text)
    for _, start, end in sorted(find_in_text(out), key=lambda m: -m[1]):
        out = out[:start] + " " + out[end:]
    return out


def activity_sought(text: str) -> bool:
    """An activity word of the message is what is looked for ("클라이밍 할 수 있는 곳"), not only what
    one does before eating ("등산하고 막걸리", "러닝 끝나고 샐러드": dialogue_cues [context] before):
    only then does the answer say that activities were estimated from words."""
    return bool(_activities(text)) and activity_before(text) is None


def activity_before(text: str) -> str | None:
    """The activity word said only as what one does before eating ("등산하고 막걸리" → "등산"), when
    every activity word of the message is said so; else None."""
    found = _activities(text)
    if not found or any(not before for _, before in found):
        return None
    return found[0][0]


def _activities(text: str) -> list[tuple[str, bool]]:
    """The activity words of the message (as :func:`caution_of` finds them), each with whether a
    "before" ending follows it (dialogue_cues [context])."""
    low = without_place_names(text).lower()
    return [
        (word, any(p.search(low[m.end() :]) for p in CONTEXT["before"]))
        for word in rules().activity
        for m in re.finditer(re.escape(word.lower()), low)
    ]


def caution_of(text: str) -> Literal["pet", "activity"] | None:
    r = rules()
    text = without_place_names(text)
    if _has_word(text, r.pet):
        return "pet"
    if _has_word(text, r.activity):
        return "activity"
    return None


_TENS = re.compile(r"(?<![가-힣])([이삼사오육]?)십([일이삼사오육칠팔구]?)\s*(?=분|키로|킬로)")
_UNITS = re.compile(r"(?<![가-힣])([한두세네]|반)\s*(?=시간)")
_FIVE = re.compile(r"(?<![가-힣])오\s*(?=분\s*(?:이내|안|거리|컷|정도))")


def _digits(text: str) -> str:
    """Korean numerals before a unit as digits: "십분" → "10분", "한시간" → "1시간", "반시간" → "0.5시간"."""
    n = rules().travel.numerals

    def tens(m: re.Match[str]) -> str:
        return str(int(n.get(m.group(1), 1) * 10 + (n.get(m.group(2), 0) if m.group(2) else 0)))

    text = _TENS.sub(tens, text)
    text = _UNITS.sub(lambda m: f"{n[m.group(1)]:g}", text)
    return _FIVE.sub("5", text)


def detect_strategy(text: str) -> StrategySpec:
    """Seed 003's strategy of ``text`` (``strategy`` None: a radius, region or global search as
    before) with its fields as said."""
    text = _digits(text)
    spec = StrategySpec(caution=caution_of(text))
    abroad = _overseas(text)
    if abroad is not None:
        return spec.model_copy(update={"overseas": abroad})
    mode = mode_said(text)
    if _is_course(text):
        days = _course_days(text)
        roles, words = _course_roles(text, days or 1)
        return spec.model_copy(
            update={
                "strategy": "course",
                "origin": _first_place(text),
                "roles": roles,
                "slot_words": words,
                "days": days or 1,
                "mode": mode,
            }
        )
    route = _route(text)
    if route is not None:
        a, b, between = route
        return spec.model_copy(
            update={"strategy": "route", "origin": a, "destination": b, "between": between, "mode": mode}
        )
    minutes = _minutes(text, mode)
    distance, plain = _distance_m(text)
    origin = _origin(text)
    if minutes is not None:
        return spec.model_copy(
            update={"strategy": "point_travel", "minutes": minutes, "mode": mode, "origin": origin}
        )
    if distance is not None and not plain:
        return spec.model_copy(
            update={
                "strategy": "point_travel",
                "km": round(distance / 1000, 3),
                "mode": mode,
                "origin": origin,
            }
        )
    return spec


def _first_place(text: str) -> str | None:
    """A course's area said first ("강릉 1박2일 코스", "망원에서 점심 먹고"): the first word when it is
    no number, no strategy word and no default-course word (the parser prefers a gazetteer place)."""
    words = text.split()
    if not words:
        return None
    word = _place(words[0])
    if word is None or len(word) < 2 or word[0].isdigit() or is_strategy_word(word):
        return None
    if any(word.startswith(k) for k in rules().course.defaults) or word in rules().course.triggers:
        return None
    return word


_FROM = re.compile(r"(?:^|\s)([^\s]+?)(?:에서부터|에서|부터)(?=\s|$)")


def _origin(text: str) -> str | None:
    """The place a travel threshold is measured from ("강남역에서 걸어서 10분"); None for "여기서"."""
    m = _FROM.search(text)
    return _place(m.group(1)) if m else None


def travel_threshold_m(spec: StrategySpec) -> tuple[float, TravelMode]:
    """The travel distance a point-travel question allows (metres) and the mode the estimate uses:
    minutes × the mode's speed, or the distance said (on foot up to ``walk_max_m``, else by car)."""
    t = rules().travel
    if spec.km is not None:
        metres = spec.km * 1000
        mode = spec.mode or ("walk" if metres <= t.walk_max_m else "car")
        return metres, mode
    mode = spec.mode or "walk"
    minutes = spec.minutes or 10
    return minutes * t.modes[mode].speed_m_per_min, mode


def estimate_travel(straight_m: float, mode: TravelMode) -> tuple[float, int]:
    """Offline travel estimate (seed 003's fallback): (distance, minutes) = (straight × detour,
    distance ÷ speed), rounded up to a minute. Always said as "약"."""
    rule = rules().travel.modes[mode]
    metres = straight_m * rule.detour
    return metres, max(1, math.ceil(metres / rule.speed_m_per_min))


@cache
def strategy_words() -> frozenset[str]:
    """Every word of the strategies' vocabulary (modes, course triggers and roles): no search term."""
    r = rules()
    words = {*r.course.triggers, *r.course.one_day, *r.course.slots, *r.route.words}
    for rule in r.course.roles.values():
        words.update(rule.words)
    for mode in r.travel.modes.values():
        words.update(mode.words)
    return frozenset(w for w in words if len(w) >= 2)


def is_strategy_word(term: str) -> bool:
    return any(w in term for w in strategy_words()) or bool(
        re.search(r"\d+\s*(?:분|박|일|km|키로|킬로)", term)
    )
