"""Offline answers: Korean templates that state only facts found in the documents.

The sentences are named templates in ``data/wording/answer.toml`` (and ``cards.toml``), said through
:mod:`matjip.wording`; this module picks which one to say and fills in the facts.

Each function returns the answer as a list of chunks (lines), so callers can stream them.
Every name, price, distance, count and hour below is read from a document or a search hit.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Final

from matjip.agent.acts import compare_criteria
from matjip.agent.cardinfo import (
    is_open_now_label,
    is_qualified,
    mention_only,
    night_flag,
    one_head,
    open_status,
    other_day_hours,
    plate_sharers,
    qualifier_line,
    says_open,
    set_within,
    standing,
    tags_too_few,
    thin_tags_only,
)
from matjip.agent.models import SearchPlan, Shown
from matjip.documents import WEEKDAYS, EnrichField, Evidence, MenuItem, Restaurant
from matjip.index.ranking import value_votes
from matjip.index.reference import BRANCH_SUFFIXES, line_matches
from matjip.kinds import kinds
from matjip.text.josa import final_consonant, josa, particle
from matjip.vocab import vocab
from matjip.wording import say, table, text
from matjip.words import word_set


def _is(word: str) -> str:
    """The copula that fits ``word``'s last sound: "3.9예요", "3-6이에요", "24:00이에요"."""
    return particle(word, "이에요/예요") if final_consonant(word) is not None else "이에요"


def won(value: int) -> str:
    return say("answer.units.won", value=value)


def distance_text(m: float | None) -> str | None:
    if m is None:
        return None
    if m < 1000:
        return f"{round(m / 10) * 10:.0f}m"
    return f"{m / 1000:.1f}km"


def menu_text(doc: Restaurant, n: int = 3) -> str | None:
    # crawl badges ("추천") are dropped at ingest; documents stored before that still hold them
    menus = [m for m in doc.menus if not vocab().is_menu_badge(m.name)]
    priced = [m for m in menus if m.price is not None][:n]
    if priced:
        return ", ".join(f"{m.name} {won(m.price)}" for m in priced if m.price is not None)
    if menus:
        return ", ".join(m.name for m in menus[:n])
    return None


def hours_today(doc: Restaurant, now: datetime) -> str | None:
    if doc.hours is None:
        return None
    # only parsed weekly hours: a raw crawl status ("영업 전 08:30에 영업 시작") or a dated note
    # is not today's hours
    return doc.hours.label_for(now.weekday()) or None


def hours_line(doc: Restaurant, now: datetime, today: str | None) -> str:
    """The card's hours line for today: the hours; a day off; a day the crawled timetable does not
    list (said with the timetable, not as "no information"); or no hours at all."""
    if today:
        return say("cards.hours.today", hours=today)
    sched = doc.hours
    if (
        sched is not None
        and sched.parsed
        and sched.days
        and sched.kind == "timetable"
        and not sched.implausible
    ):
        day = WEEKDAYS[now.weekday()]
        running = sched.carried_over(now)
        if running is not None:  # after midnight: yesterday's session is still on, whatever today is
            yday = WEEKDAYS[(now.weekday() - 1) % 7]
            return say(
                "cards.hours.yesterday_running", day=yday, hours=running.label(), raw=sched.raw.strip()
            )
        if now.weekday() in sched.closed:
            return say("cards.hours.day_off", day=day, raw=sched.raw.strip())
        return say("cards.hours.day_unlisted", day=day, raw=sched.raw.strip())
    return text("cards.hours.unknown")


NOW_SLACK_S = 15 * 60  # an asked time this close to the turn's time is "now"
TONIGHT = timedelta(hours=12)
EARLY_MORNING_END_H = 6
WHOLE_DAY = timedelta(hours=20)  # an asked span this long is a day ("일요일에"), not an hour


def _in_zone_of(when: datetime, now: datetime) -> datetime:
    """``when`` comparable with ``now`` (in its zone; naive when ``now`` is)."""
    if now.tzinfo is None:
        return when.replace(tzinfo=None)
    return when.astimezone(now.tzinfo) if when.tzinfo is not None else when.replace(tzinfo=now.tzinfo)


def _about_now(when: datetime, now: datetime) -> bool:
    return abs((_in_zone_of(when, now) - now).total_seconds()) <= NOW_SLACK_S


def clock_of(plan: SearchPlan | None, now: datetime) -> datetime:
    """The time a card's clock flag reads: a time asked a few minutes ahead that counts as now ("7시반" at
    07:20) is that time — a place opening at 07:30 is open then, not "영업 전" (audit r16 Q10) — else now."""
    asked = plan.open_at if plan is not None else None
    if asked is not None and _about_now(asked, now) and _in_zone_of(asked, now) > now:
        return _in_zone_of(asked, now)
    return now


def _going_now(plan: SearchPlan, now: datetime) -> bool:
    """The question means going now: a time asked (or a meal under way: "아침 먹을 데" at 09:30) that is
    the turn's own time."""
    asked = plan.open_at if plan.open_at is not None else plan.open_wished
    return asked is not None and _about_now(asked, now)


def asked_day(plan: SearchPlan | None, now: datetime) -> datetime | None:
    """The day the plan asks a place to be open on, in ``now``'s zone (None: none, or tonight); with no
    time asked, the day of a meal wished on another day ("토요일 점심에 갈": Saturday's hours)."""
    if plan is not None and plan.open_at is None and plan.open_wished is not None:
        wished = _in_zone_of(plan.open_wished, now)
        return wished if wished.date() != now.date() else None
    if plan is None or plan.open_at is None:
        return None
    when = _in_zone_of(plan.open_at, now)
    whole_day = plan.open_until is not None and plan.open_until - plan.open_at >= WHOLE_DAY
    if whole_day:
        # "일요일에도 해?" asked on Saturday evening: Sunday's own hours, not tonight's small hours
        return when.replace(hour=12, minute=0) if when.hour < EARLY_MORNING_END_H else when
    if timedelta(0) <= when - now <= TONIGHT and when.hour < EARLY_MORNING_END_H:
        return None  # "새벽 1시" asked in the evening: tonight, today's (overnight) hours
    return when


def asked_day_hours(doc: Restaurant, plan: SearchPlan | None, now: datetime) -> str | None:
    """ "토요일 영업: 11:00~22:00" when the plan asks about another day than today; else None."""
    when = asked_day(plan, now)
    got = other_day_hours(doc.hours, when, now) if when is not None else None
    return f"{got[0]}: {got[1]}" if got else None


# seed 003: what only reviews suggest is said with this caution
REVIEW_CAUTION: Final = text("answer.caution.reviews")
CHECK_FIRST: Final = text("answer.caution.check_first")  # nothing was estimated: no "추정" caution
# asks whose answer always carries the caution (a place's rules change; a review is not a policy)
ALWAYS_CAUTIOUS: Final = word_set("answers", "always_cautious")


def _review_count(ev: Evidence) -> str:
    """ "리뷰 12건 중 5건 " when the evidence carries its support, else ""."""
    if ev.support and ev.reviews:
        return say("answer.evidence.review_count", reviews=ev.reviews, support=ev.support)
    return ""


def evidence_text(doc: Restaurant, field: str, value: str) -> str | None:
    for ev in doc.evidence:
        if ev.field == field and ev.value == value:
            if ev.source == "reviewKeywords" and ev.count:
                return say("answer.evidence.visitor_tag", span=ev.span, count=ev.count)
            if ev.source.startswith("reviews"):
                return say("answer.evidence.review", count=_review_count(ev), span=ev.span)
            if ev.source == "description":
                return say("answer.evidence.description", span=ev.span)
            return f"{ev.span}"
    return None


_KIND_SOURCE: Final = table("answer.kind_source")


def kind_text(doc: Restaurant, kind: str) -> str | None:
    """Why ``doc`` is of ``kind``: "카테고리 '한식>육류,고기>삼겹살'", "메뉴 '…'"."""
    for ev in doc.evidence:
        if ev.field == "kind" and ev.value == kind:
            if ev.source.startswith("kind:"):
                return kind_text(doc, ev.span)
            return say("answer.evidence.kind", source=_KIND_SOURCE.get(ev.source, ev.source), span=ev.span)
    return None


def _with_evidence(reason: str, evidence: str | None) -> str:
    """A card's reason, with where it was read in brackets when known."""
    return say("answer.reason.with_evidence", reason=reason, evidence=evidence) if evidence else reason


def _food_reason(doc: Restaurant, plan: SearchPlan, reasons: list[str]) -> list[str]:
    """ "해산물 포차": why the card serves the food — the menu line, or the food's own kind."""
    if not plan.qualifier or not is_qualified(doc, plan):
        return []
    line = qualifier_line(doc, plan)
    if line is not None:
        return (
            []
            if any(line in r for r in reasons)
            else [_with_evidence(plan.qualifier, say("answer.reason.menu", name=line))]
        )
    food = kinds().lookup(plan.qualifier)
    return [_with_evidence(plan.qualifier, kind_text(doc, food[0]))] if food is not None else []


def _why(s: Shown, plan: SearchPlan | None) -> list[str]:
    reasons: list[str] = []
    if plan is not None:
        for k in plan.kinds:
            if k in s.doc.kinds:
                ev = kind_text(s.doc, k)
                reasons.append(_with_evidence(f"{k}", ev))
        for dish in plan.kind_dishes:  # "짬뽕 맛집": the dish on the card, not only its kind (class 11)
            lines = _within_first([x for x in s.doc.menus if line_matches(x.name, dish)], plan)
            if plan.avoid_tastes:  # "안 매운 쭈꾸미": a '매운쭈꾸미' line is no evidence for the wish
                lines = [x for x in lines if not kinds().is_spicy_line(x.name)]
            # "안 매운 짬뽕": the mild version the place lists (백짬뽕) is the line said
            milder = [x for x in lines if kinds().is_mild_line(x.name, plan.prefer_menu)]
            hit = next(iter(milder or lines), None)
            if hit is not None and dish not in plan.menu:
                priced = (
                    hit.price is not None
                    and _within(hit.price, plan)
                    and any(k in s.doc.kinds for k in plan.kinds)
                )
                reasons.append(
                    say("answer.reason.menu_priced", name=hit.name, price=won(hit.price or 0))
                    if priced
                    else say("answer.reason.menu", name=hit.name)
                )
        reasons += _food_reason(s.doc, plan, reasons)
        mild_line = _mild_line(s.doc, plan.prefer_menu)
        if mild_line is not None and not any(mild_line in r for r in reasons):
            reasons.append(say("answer.reason.mild", name=mild_line))  # "안 매운 떡볶이": the version listed
        for c in plan.convenience:
            mentions = convenience_shown(s.doc, c)
            if mentions:  # one visitor tag among many reviews is a mention, not a fact
                reasons.append(say("cards.facts.mention", value=c, n=mentions))
                continue
            ev = evidence_text(s.doc, "convenience", c)
            reasons.append(_with_evidence(say("answer.reason.convenience", value=c), ev))
        for m in plan.menu:
            hit = next(iter(_within_first([x for x in s.doc.menus if line_matches(x.name, m)], plan)), None)
            if hit is not None and hit.price is not None and _within(hit.price, plan):
                reasons.append(say("answer.reason.menu_priced", name=hit.name, price=won(hit.price)))
            elif hit is not None:  # a price over the budget asked is not quoted as if it met it
                reasons.append(say("answer.reason.menu", name=hit.name))
            elif m in s.doc.review_food:
                reasons.append(say("answer.reason.review_food", menu=m))
        for a in [*plan.atmosphere, *plan.occasion]:
            said = plan.wish_words.get(a, a)  # "혼술": named as asked, a 분식 category no evidence of it
            for fld in ("atmosphere", "occasion", "features"):
                ev = evidence_text(s.doc, fld, a)
                if (
                    ev
                    and not (said != a and by_category_only(s.doc, fld, a))
                    and not thin_tags_only(s.doc, fld, a)
                ):
                    reasons.append(_with_evidence(said, ev))
                    break
        if plan.open_at is not None and s.open_now:
            label = plan.open_label or text("answer.reason.asked_time")
            as_is = is_open_now_label(label) or says_open(label)
            reasons.append(label if as_is else say("answer.reason.open_at", label=label))
        if plan.sort == "price":  # "싼 데": the price the order used, or that there is none
            price = typical_price(s.doc)
            reasons.append(
                say("answer.reason.typical_price", price=won(price))
                if price is not None
                else text("answer.reason.no_price")
            )
            if votes := value_votes(s.doc):  # ... and visitors' value tag, which counts the same
                reasons.append(say("answer.reason.value_votes", n=votes))
        if plan.price_max is not None or plan.price_min is not None:
            inside = [
                x
                for x in s.doc.priced_menus()
                if (plan.price_min is None or (x.price or 0) >= plan.price_min)
                and (plan.price_max is None or (x.price or 0) <= plan.price_max)
            ]
            # "파스타 … 좀 더 저렴한 데": a line of the kind asked, not the café's espresso, when there is one
            own = [x for x in inside if any(kinds().is_kind_line(k, x.name) for k in plan.kinds)]
            inside = own or inside
            shared = _shared_plate(s.doc, plan)
            if shared is not None:  # "6명 1인 2만원 족발": the plate, and what it comes to a head
                reasons = [r for r in reasons if f"'{shared[0]}'" not in r] + [shared[1]]
                inside = []
            # "1인 5만원 이하": the course or set within the bound is the line said (filters.set_within)
            inside = [x for x in [set_within(s.doc, plan)] if x is not None] or inside
            if inside and not any(f"'{inside[0].name}'" in r for r in reasons):  # said once
                reasons.append(
                    say("answer.reason.priced", name=inside[0].name, price=won(inside[0].price or 0))
                )
    return list(dict.fromkeys(reasons))  # a menu line that answers two wishes is said once


def _shared_plate(doc: Restaurant, plan: SearchPlan) -> tuple[str, str] | None:
    """ "'족발 (중)' 36,000원 (3명이 나누면 1인 약 12,000원)": the cheapest priced plate of the kind asked
    within a budget per person once shared (:func:`cardinfo.plate_sharers`), with its name; or None."""
    people = plate_sharers(plan)
    if people <= 1 or plan.price_max is None:
        return None
    plates = sorted(
        (
            x
            for x in doc.priced_menus()
            if any(kinds().is_kind_line(k, x.name) for k in plan.kinds) and not one_head(x.name)
        ),
        key=lambda x: x.price or 0,
    )
    hit = next((x for x in plates if x.price and round(x.price / people) <= plan.price_max), None)
    if hit is None or hit.price is None:
        return None
    each = won(int(round(hit.price / people, -2)))
    said = say("answer.reason.priced_shared", name=hit.name, price=won(hit.price), people=people, each=each)
    return hit.name, said


def _within_first(lines: list[MenuItem], plan: SearchPlan) -> list[MenuItem]:
    """Menu lines with the ones within the plan's price bound first ("5만원 이하 오마카세": the 45,000원
    lunch course is the line said, not the 130,000원 special)."""
    if plan.price_max is None:
        return lines
    return sorted(lines, key=lambda x: x.price is None or not _within(x.price, plan))


def _within(price: int, plan: SearchPlan) -> bool:
    """The price is not above the plan's price bound (any price when none is asked)."""
    return plan.price_max is None or price <= plan.price_max


def _mild_line(doc: Restaurant, prefer: Sequence[str]) -> str | None:
    """The first menu line naming a mild version asked for ("로제 떡닭 세트" for 로제떡), or None."""
    return next(iter(kinds().mild_lines([m.name for m in doc.menus], prefer)), None)


# the position flags (matjip.ingest.coords, matjip.ingest.placement) a card hedges its distance for
_HEDGED_FLAGS: Final = tuple(table("answer.card.hedged_distance"))


def _card_distance(s: Shown, origin: str | None) -> str:
    """The head's distance part: " · 강남역에서 350m", " · 약 1.2km (동 중심 기준 추정)", or ""."""
    dist = distance_text(s.distance_m)
    hedge = next((flag for flag in _HEDGED_FLAGS if flag in s.doc.flags), None)
    if dist and hedge is not None:
        dist = say(f"answer.card.hedged_distance.{hedge}", distance=dist)
    if not dist:
        return ""
    if origin:
        return say("answer.card.distance_from", origin=origin, distance=dist)
    return say("answer.card.distance", distance=dist)


def restaurant_block(
    i: int, s: Shown, plan: SearchPlan | None, now: datetime, origin: str | None
) -> list[str]:
    d = s.doc
    lines = [
        say(
            "answer.card.head", number=i, title=d.title, cuisine=d.cuisine, distance=_card_distance(s, origin)
        )
    ]
    why = _why(s, plan)
    if why:
        lines.append(say("answer.card.reasons", reasons=", ".join(why)))
    said = standing(d)
    if said:
        lines.append(say("cards.standing.line", evidence=said))
    menus = menu_text(d)
    if menus:
        lines.append(say("answer.card.menus", menus=menus))
    asked = asked_day_hours(d, plan, now)
    today = hours_today(d, now)
    if asked:
        lines.append(say("answer.card.asked_day", hours=asked))  # "토요일에도 해요?": that day's hours
    else:
        lines.append(hours_line(d, now, today))
    if plan is None or plan.open_at is None or _about_now(plan.open_at, now):
        # evening and night, or going now by day: closed, or closing within the hour
        flag = night_flag(d.hours, clock_of(plan, now), going=plan is not None and _going_now(plan, now))
        if flag:
            lines.append(flag)
    if d.display_address:
        lines.append(say("answer.card.address", address=d.display_address))
    return [line + "\n" for line in lines]


def _conditions(plan: SearchPlan) -> str:
    parts: list[str] = []
    # an occasion is said as what it is good for ("술자리 하기 좋은 식당", never "술자리 식당")
    said = plan.wish_words  # "혼술": a wish said by a word of its own is named by it
    parts += [said.get(a, a) for a in plan.atmosphere]
    parts += [_WISH_PHRASE.get(said.get(o, o), said.get(o, o)) for o in plan.occasion]
    parts += [say("answer.conditions.convenience", value=c) for c in plan.convenience]
    if plan.price_max is not None and plan.price_min is None and (plan.price_max + 1) % 100 == 0:
        # "더 싼 데": a bound one won below a round price is said as that price's "미만", never "18,999원"
        parts.append(say("answer.conditions.price_below", max=won(plan.price_max + 1)))
    elif plan.price_max is not None and plan.price_min is None:
        parts.append(say("answer.conditions.price_max", max=won(plan.price_max)))
    elif plan.price_min is not None and plan.price_max is not None:
        parts.append(say("answer.conditions.price_range", min=won(plan.price_min), max=won(plan.price_max)))
    elif plan.price_min is not None:
        parts.append(say("answer.conditions.price_min", min=won(plan.price_min)))
    if plan.open_label:
        label = plan.open_label
        parts.append(
            say(
                "answer.conditions.open_now"
                if is_open_now_label(label)
                else "answer.conditions.open_verb"
                if says_open(label)
                else "answer.conditions.open_at",
                label=label,
            )
        )
    # "전이랑 막걸리": a dish the kind's own label already names is not said twice ("전·막걸리 전")
    labels = [part for k in plan.kinds for part in re.split(r"[·,\s]+", k)]
    menus = [m for m in plan.menu if m not in labels]
    # "옛날통닭": a style of the kind names the kind itself — said once ("옛날통닭 3곳", not "통닭 옛날통닭");
    # "해산물 포차": the kind with the food it serves
    named = [k for k in plan.kinds if not any(k in m for m in menus)]
    if plan.qualifier and len(plan.kinds) == 1:
        named = [f"{plan.qualifier} {plan.kinds[0]}"]
    target = " ".join(_kinds_said(named) + menus + plan.cuisine) or text("answer.conditions.any_place")
    return " ".join([*parts, target])


def _kinds_said(kinds: Sequence[str]) -> list[str]:
    """The kinds in a heading: two as "국밥·순대국, 찌개·전골" (never run together with a space); a
    theme's family of kinds ("속이 편한"): the first few, "등"."""
    if len(kinds) > 2:
        return [say("answer.conditions.kind_family", kinds=", ".join(kinds[:3]))]
    return [", ".join(kinds)] if kinds else []


def plan_notes(plan: SearchPlan, unknown_hours: int | None, no_coordinates: int | None = None) -> list[str]:
    """What the answer must say about the search itself: what was excluded, which words the data
    cannot check, how many places were left out for unknown hours."""
    notes: list[str] = []
    excluded = [*plan.exclude_menu, *plan.exclude_cuisine, *plan.exclude_titles] or plan.exclude_kinds
    if excluded:
        terms = list(dict.fromkeys(excluded))
        notes.append(
            say("answer.notes.excluded", terms="', '".join(terms), topic=particle(terms[-1], "은/는"))
        )
    if plan.exclude_chains:
        notes.append(text("answer.notes.no_chains"))
    if plan.unused_terms:
        notes.append(
            say(
                "answer.notes.unused",
                terms="', '".join(plan.unused_terms),
                topic=particle(plan.unused_terms[-1], "은/는"),
            )
        )
    if plan.open_at is not None and unknown_hours:
        notes.append(say("answer.notes.unknown_hours", n=unknown_hours))
    if no_coordinates:
        notes.append(say("answer.notes.no_coordinates", n=no_coordinates))
    return notes


def wish_shown(doc: Restaurant, wish: str) -> bool:
    """Does the card show evidence for an atmosphere or occasion wish: the enriched value itself,
    or a visitor tag the wish names ("분위기 좋은" → '분위기'; a '분위기' tag says nothing of 조용한)?"""
    fields: tuple[EnrichField, ...] = ("atmosphere", "occasion", "features")
    if any(wish in getattr(doc, fld) and not thin_tags_only(doc, fld, wish) for fld in fields):
        return True
    return wish_tagged(doc, wish)


def wish_tagged(doc: Restaurant, wish: str) -> bool:
    """A visitor tag the wish names has the votes a card shows ("분위기 좋은" → '분위기')."""
    said = wish.replace(" ", "")
    return any(
        not tags_too_few(doc, doc.review_keywords.get(t, 0))  # a single vote is noise, a few of many too
        for t in vocab().tags_for(wish)
        if t.replace(" ", "") in said
    )


def convenience_shown(doc: Restaurant, value: str) -> int | None:
    """How a card shows a convenience: None when the place has no evidence, the tag count when a
    few visitor tags only mention it (the card says "주차 언급 1건"), 0 when the card states it."""
    if value not in doc.convenience:
        return None
    mentions = mention_only(doc, "convenience", value)
    return 0 if mentions is None else max(mentions, 1)


def _mention_caveat(
    wish: str,
    phrase: str,
    backed: Sequence[int],
    mentioned: Sequence[int],
    n: int,
    after_n: bool,
    counts: Sequence[int] = (),
) -> str:
    """The heading's bracket for a convenience some cards only mention: which cards state it, which
    only mention it — the numbers the cards themselves show."""
    listed = "·".join(map(str, mentioned))
    if not backed:
        if len(mentioned) == n:
            return say("cards.heading.mentioned", value=josa(wish, "은/는"))
        return say("cards.heading.mentioned_some", value=josa(wish, "은/는"), numbers=listed)
    template = "cards.heading.partly_mentioned" if after_n else "cards.heading.partly_mentioned_noun"
    said = "·".join(map(str, counts))
    if len(counts) > 1 and len(set(counts)) == 1:  # "2·3번은 … 언급 각 2건뿐이에요"
        said = say("cards.heading.each_count", n=counts[0])
    return say(template, wish=phrase, numbers="·".join(map(str, backed)), mentioned=listed, counts=said)


_WISH_PHRASE: Final = table("cards.heading.wish_phrase")  # "아이와" → "아이와 가기 좋은"


def by_category_only(doc: Restaurant, field: EnrichField, wish: str) -> bool:
    """The place has ``wish`` only because its category says a kind that usually suits it (a grill
    house: 단체) — the kind the cards already name, nothing known of the place itself."""
    evidence = doc.evidence_for(field, wish)
    return bool(evidence) and all(ev.source == "category" for ev in evidence) and not wish_tagged(doc, wish)


def heading_wishes(shown: Sequence[Shown], plan: SearchPlan) -> tuple[SearchPlan, list[str]]:
    """The plan as the heading may state it — only the wishes every card shows evidence for — and
    what to say about the others ("조용한 곳인지는 정보가 없어요")."""
    caveats: list[str] = []
    keep: dict[str, list[str]] = {"atmosphere": [], "occasion": [], "convenience": []}
    said = plan.wish_words  # "혼술" (read as 혼밥) is named as asked; a category suiting 혼밥 is no evidence
    asked: list[tuple[EnrichField, str, str]] = [
        *(("atmosphere", w, said.get(w, w)) for w in plan.atmosphere),
        *(("occasion", w, _WISH_PHRASE.get(said.get(w, w), said.get(w, w))) for w in plan.occasion),
        *(("convenience", c, say("answer.conditions.convenience", value=c)) for c in plan.convenience),
    ]
    for field, wish, phrase in asked:
        mentioned: list[int] = []
        counts: list[int] = []
        family: frozenset[str] = frozenset()
        if field == "convenience":  # the cards' own reading of each place (one source of truth)
            shows = [convenience_shown(s.doc, wish) for s in shown]
            backed = [i for i, n in enumerate(shows, 1) if n == 0]
            mentioned = [i for i, n in enumerate(shows, 1) if n]
            counts = [n for n in shows if n]
        else:
            # a described food ("해장"): a card of one of its kinds is evidence, as the first line says
            family = kinds().theme_kinds(wish)
            backed = [
                i
                for i, s in enumerate(shown, 1)
                if (wish_shown(s.doc, wish) and not (wish in said and by_category_only(s.doc, field, wish)))
                or family & set(s.doc.kinds)
            ]
        if len(backed) == len(shown):
            # a described food is said by its kinds ("해장국, 국밥·순대국 …"); a wish every card has
            # only by its category ("8명 단체" at grill houses) is no more than the kind: not said
            by_kind = field == "occasion" and all(by_category_only(s.doc, "occasion", wish) for s in shown)
            if not family and not by_kind:
                keep[field].append(wish)
            continue
        after_n = final_consonant(phrase) == 4  # 조용한, 분위기 좋은: "… 곳인지는"
        if mentioned:  # tags mention it on some cards, no more (the cards say "주차 언급 N건")
            caveats.append(_mention_caveat(wish, phrase, backed, mentioned, len(shown), after_n, counts))
            continue
        if backed:
            template = "cards.heading.partly" if after_n else "cards.heading.partly_noun"
            caveats.append(say(template, wish=phrase, numbers="·".join(map(str, backed))))
        else:
            caveats.append(
                say("cards.heading.unknown" if after_n else "cards.heading.unknown_noun", wish=phrase)
            )
    if plan.qualifier and not all(is_qualified(s.doc, plan) for s in shown):
        plan = plan.model_copy(update={"qualifier": None})  # "해산물 포차": named when every card serves it
    if len(plan.kinds) > 2:  # a family ("다이어트"): name only the kinds the cards are
        kinds_shown = [k for k in plan.kinds if any(k in s.doc.kinds for s in shown)]
        if kinds_shown:
            keep["kinds"] = kinds_shown
    return plan.model_copy(update=keep), caveats


def search_answer(
    shown: Sequence[Shown], plan: SearchPlan, now: datetime, origin: str | None, notes: Sequence[str]
) -> list[str]:
    # a dong searched around its point (no address terms: road addresses carry no dong) is said as
    # "풍납동 근처": the cards may lie across its border (audit r6 Q8)
    near = plan.location is not None and (plan.location.mode == "near" or plan.location.by_radius)
    inside = plan.location is not None and plan.location.in_building  # "롯데월드몰 안 식당"
    template = (
        "answer.search.where_near"
        if near
        else "answer.search.where_inside"
        if inside
        else "answer.search.where"
    )
    where = say(template, origin=origin) if origin else ""
    chunks: list[str] = [note + "\n" for note in notes]
    if not shown:
        wanted = f"{where}{_conditions(plan)}"
        chunks.append(say("answer.search.none", wanted=josa(wanted, "을/를")) + "\n")
        return chunks
    backed, caveats = heading_wishes(shown, plan)
    caveat = say("answer.search.caveats", caveats="; ".join(caveats)) if caveats else ""
    found = say(
        "answer.search.found", where=where, conditions=_conditions(backed), n=len(shown), caveats=caveat
    )
    chunks.append(found + "\n\n")
    for i, s in enumerate(shown, start=1):
        chunks += restaurant_block(i, s, plan, now, origin)
        chunks.append("\n")
    chunks += review_term_lines([s.doc for s in shown], plan.unused_terms)
    if plan.location is None:
        chunks.append(text("answer.search.ask_area") + "\n")
    return chunks


def review_term_lines(docs: Sequence[Restaurant], terms: Sequence[str]) -> list[str]:
    """Seed 003: a term no field records is looked up in the review sentences of the restaurants shown
    (BM25, the sentence quoted); what only reviews suggest, or nothing at all, carries the caution."""
    if not terms:
        return []
    from matjip.index.review_search import ReviewIndex

    index = ReviewIndex(docs)
    lines: list[str] = []
    for term in terms:
        hits = index.search(term, k=3)
        if hits:
            said = "; ".join(
                say(
                    "answer.reviews.hit",
                    title=h.title,
                    reviews=len(d.reviews),
                    count=index.count(term, h.place_id),
                    sentence=h.sentence,
                )
                for h in hits
                for d in docs
                if d.place_id == h.place_id
            )
            lines.append(say("answer.reviews.found", term=term, hits=said, caution=REVIEW_CAUTION) + "\n")
        elif any(d.reviews for d in docs):  # nothing was estimated: no caution about estimates
            quoted = josa(say("answer.reviews.quoted", term=term), "은/는")
            lines.append(say("answer.reviews.not_in_reviews", term=quoted, check=CHECK_FIRST) + "\n")
        else:
            quoted = josa(say("answer.reviews.quoted", term=term), "은/는")
            lines.append(say("answer.reviews.no_reviews", term=quoted) + "\n")
    return lines


def _tag(doc: Restaurant, tag: str) -> int:
    return int(doc.review_keywords.get(tag, 0))


def compare_criterion(text: str) -> str:
    """By what a comparison is asked ("어디가 더 늦게까지 해?" → hours; ``data/dialogue.toml``)."""
    return next((c for c, words in compare_criteria().items() if any(w in text for w in words)), "taste")


SHARE_MIN_REVIEWS = (
    10  # a visitor tag's share of fewer reviews than this decides no comparison (audit r12 C1.2)
)


def _share(doc: Restaurant, tag: str) -> tuple[float | None, str]:
    """A visitor tag as a share of the restaurant's reviews ("맛 120건/리뷰 800건 = 15%")."""
    n = _tag(doc, tag)
    if doc.review_count and n <= doc.review_count:  # more tags than reviews: the counts do not compare
        share = n / doc.review_count
        return share, say("answer.compare.share", n=n, share=share)
    return None, say("answer.compare.count", n=n) if n else "-"


def _closing(doc: Restaurant, now: datetime) -> tuple[int | None, int | None]:
    """Today's (opening, closing) minute of the day, closing past midnight as > 1440."""
    today = hours_today(doc, now)
    if not today or "~" not in today:
        return None, None
    try:
        a, b = today.split("~")[0].strip(), today.split("~")[1].strip()
        ah, am = map(int, a[:5].split(":"))
        bh, bm = map(int, b[:5].split(":"))
    except ValueError:
        return None, None
    start, end = ah * 60 + am, bh * 60 + bm
    return start, end + (1440 if end <= start else 0)


def _clock(minute: int) -> str:
    """ "02:00" for a minute of the day (past midnight as > 1440)."""
    m = minute % 1440 if minute != 1440 else minute
    return f"{m // 60:02d}:{m % 60:02d}"


def _today_unlisted(doc: Restaurant, now: datetime) -> bool:
    """The crawled timetable lists other days but not today (not a day off, not unknown hours)."""
    sched = doc.hours
    return (
        sched is not None
        and sched.parsed
        and bool(sched.days)
        and sched.kind == "timetable"
        and not sched.implausible
        and now.weekday() not in sched.days
        and now.weekday() not in sched.closed
        and sched.carried_over(now) is None  # Saturday 01:40 inside Friday's 17:00~03:00 is open
    )


def _dish_price(doc: Restaurant, dishes: Sequence[str]) -> tuple[int, str] | None:
    """The cheapest priced menu line naming one of ``dishes`` ("삼겹살" finds "생삼겹살 (180g)")."""
    stems = [d.replace(" ", "")[:-1] if len(d.replace(" ", "")) > 2 else d.replace(" ", "") for d in dishes]
    lines = [
        (m.price, m.name)
        for m in doc.menus
        if m.price is not None and any(s and s in m.name.replace(" ", "") for s in stems)
    ]
    return min(lines) if lines else None


def _verdict(docs: Sequence[Restaurant], criterion: str, now: datetime, dishes: Sequence[str] = ()) -> str:
    """One line that says which one and on what it is based (or that the data cannot say)."""
    if criterion == "price" and dishes:
        lines = [(line, d) for d in docs if (line := _dish_price(d, dishes)) is not None]
        if len(lines) >= 2:
            cheap = min(lines, key=lambda x: x[0][0])[1]
            said = ", ".join(
                say("answer.compare.dish_line", title=d.title, name=name, price=won(price))
                for (price, name), d in lines
            )
            return say(
                "answer.compare.dish_cheaper",
                dishes=josa("/".join(dishes), "은/는"),
                title=josa(cheap.title, "이/가"),
                lines=said,
            )
    if criterion == "price":
        prices = [(typical_price(d), d) for d in docs]
        known = [(p, d) for p, d in prices if p is not None]
        if len(known) >= 2:
            low, d = min(known, key=lambda x: x[0])
            # every median said, not only the winner's: the numbers that decide it
            medians = ", ".join(
                say("answer.compare.price_line", title=x.title, price=won(q)) for q, x in known
            )
            if sum(q == low for q, _ in known) > 1:
                return say("answer.compare.price_tie", lines=medians)
            return say("answer.compare.price_cheaper", title=josa(d.title, "이/가"), lines=medians)
        # only the places without a priced menu are named: "both" is said only when it is both
        unpriced = [d.title for q, d in prices if q is None]
        return say("answer.compare.price_unknown", titles=", ".join(unpriced))
    if criterion == "hours":
        times = [(_closing(d, now), d) for d in docs]
        spans = [(a, b, d) for (a, b), d in times if a is not None and b is not None]
        if len(spans) >= 2:
            return _hours_verdict(spans)
        missing = [d for (t, d) in times if t[0] is None]
        unlisted = [d for d in missing if _today_unlisted(d, now)]
        if len(spans) == 1 and len(unlisted) == len(missing) == len(docs) - 1:
            return _hours_only_one_open(spans[0], unlisted, docs, now)
        # no place lists today (both closed on Saturday): the next day they all list
        other = _hours_on_listed_day(docs, now) if len(unlisted) == len(docs) else None
        if other is not None:
            return other
        if unlisted:
            d = unlisted[0]
            raw = d.hours.raw.strip() if d.hours is not None else ""
            return say(
                "answer.compare.hours_unlisted",
                title=josa(d.title, "은/는"),
                day=WEEKDAYS[now.weekday()],
                raw=raw,
            )
        return say("answer.compare.hours_unknown", titles=", ".join(d.title for d in missing))
    if criterion == "reviews":
        return _reviews_verdict(docs)
    if criterion == "rating":
        return _rating_verdict(docs)
    if criterion == "parking":
        votes = [(_tag(d, "주차"), d) for d in docs]
        if any(n for n, _ in votes):
            top, best = max(votes, key=lambda x: x[0])
            counts = ", ".join(say("answer.compare.parking_count", title=d.title, n=k) for k, d in votes)
            if sum(k == top for k, _ in votes) > 1:
                return say("cards.facts.parking_tie", counts=counts)
            return say("cards.facts.parking_verdict", title=best.title, counts=counts)
        has = [d.title for d in docs if "주차" in d.convenience]
        if has:
            return say("answer.compare.parking_evidence", titles=", ".join(has))
        return text("cards.facts.parking_none")
    tag = {"mood": "분위기", "group": "단체모임", "taste": "맛", "value": "가성비", "service": "친절"}.get(
        criterion, "맛"
    )
    shares = [(_share(d, tag)[0], d) for d in docs]
    # a share of a handful of reviews is no evidence a local trusts (2 of 5 is not "better" than 9 of 64)
    few = [d for x, d in shares if x is not None and (d.review_count or 0) < SHARE_MIN_REVIEWS]
    known_shares = [(x, d) for x, d in shares if x is not None and d not in few]
    top_share = max((x for x, _ in known_shares), default=0.0)
    few_share = max((x for x, d in shares if d in few and x is not None), default=0.0)
    if few and few_share > top_share:
        return say(
            "answer.compare.tag_few",
            tag=tag,
            titles=", ".join(
                josa(d.title, "은/는") if i == len(few) - 1 else d.title for i, d in enumerate(few)
            ),
            n=max(d.review_count or 0 for d in few),
            least=SHARE_MIN_REVIEWS,
        )
    if len(known_shares) >= 2 and top_share > 0:
        # one place's tags against the other's none is a verdict too: "9건 (12%)" against "0건"
        leaders = [d for x, d in known_shares if x == top_share]
        if len(leaders) == 1:
            # two places: one is "더" high, never "가장"
            key = "answer.compare.tag_share_two" if len(docs) == 2 else "answer.compare.tag_share"
            return say(key, tag=tag, title=josa(leaders[0].title, "이/가"), share=top_share)
        return say(
            "answer.compare.tag_tie", tag=tag, titles=", ".join(d.title for d in leaders), share=top_share
        )
    return say("answer.compare.tag_unknown", tag=tag, tag_by=josa(tag, "으로/로"))


def _reviews_verdict(docs: Sequence[Restaurant]) -> str:
    """ "리뷰 어디가 더 많아?": the review counts, the most first said with every count."""
    counts = [(d.review_count or 0, d) for d in docs]
    top = max(n for n, _ in counts)
    leaders = [d for n, d in counts if n == top]
    if len(leaders) > 1:
        return say("answer.compare.reviews_tie", titles=", ".join(d.title for d in leaders), n=top)
    lines = ", ".join(say("answer.compare.reviews_line", title=d.title, n=n) for n, d in counts)
    key = "answer.compare.reviews_more_two" if len(docs) == 2 else "answer.compare.reviews_more"
    return say(key, title=josa(leaders[0].title, "이/가"), n=top, lines=lines)


def _rating_verdict(docs: Sequence[Restaurant]) -> str:
    """ "평점 제일 높은 곳은?": the ratings with the review count each rests on, the highest named."""
    rated = [(d.rating, d) for d in docs if d.rating is not None]
    if len(rated) < 2:
        return say("answer.compare.rating_unknown", known=len(rated))
    lines = ", ".join(
        say("answer.compare.rating_line", title=d.title, rating=f"{r:g}", n=d.review_count or 0)
        for r, d in rated
    )
    top = max(r for r, _ in rated)
    leaders = [d for r, d in rated if r == top]
    if len(leaders) > 1:
        titles = ", ".join(d.title for d in leaders)
        return say(
            "answer.compare.rating_tie", titles=titles, rating=josa(f"{top:g}", "으로/로"), lines=lines
        )
    key = "answer.compare.rating_more_two" if len(docs) == 2 else "answer.compare.rating_more"
    return say(key, title=josa(leaders[0].title, "이/가"), rating=josa(f"{top:g}", "으로/로"), lines=lines)


def _listed_day(
    docs: Sequence[Restaurant], now: datetime
) -> tuple[datetime, list[tuple[int, int, Restaurant]]] | None:
    """The next day after today every place's timetable lists, with each place's span that day."""
    for ahead in range(1, 7):
        day = now + timedelta(days=ahead)
        times = [_closing(d, day) for d in docs]
        spans = [(a, b, d) for (a, b), d in zip(times, docs, strict=True) if a is not None and b is not None]
        if len(spans) == len(docs) >= 2:
            return day, spans
    return None


def _listed_day_verdict(day: datetime, spans: Sequence[tuple[int, int, Restaurant]]) -> tuple[str, str]:
    """That day's verdict and its hours line (the table shows today's gap)."""
    lines = say(
        "answer.compare.hours_other_day_lines",
        day=WEEKDAYS[day.weekday()],
        lines=", ".join(f"{d.title} {_clock(a)}~{_clock(b)}" for a, b, d in spans),
    )
    return _hours_verdict(spans, WEEKDAYS[day.weekday()]), lines


def _hours_on_listed_day(docs: Sequence[Restaurant], now: datetime) -> str | None:
    """Today is in no timetable (both closed on Saturday): the comparison on the next day every place
    lists, said as that day's, with today's gap said first; None when there is no such day."""
    listed = _listed_day(docs, now)
    if listed is None:
        return None
    verdict, lines = _listed_day_verdict(*listed)
    return (
        say(
            "answer.compare.hours_other_day",
            titles=josa(", ".join(d.title for d in docs), "은/는"),
            today=WEEKDAYS[now.weekday()],
            verdict=verdict,
        )
        + lines
    )


def _hours_only_one_open(
    span: tuple[int, int, Restaurant],
    unlisted: Sequence[Restaurant],
    docs: Sequence[Restaurant],
    now: datetime,
) -> str:
    """One place open today, the others' timetables leaving today out: the one open said as today's
    only one (never "hard to compare"), then the next day all of them list compared as that day's."""
    a, b, d = span
    out = say(
        "answer.compare.hours_only_open",
        today=WEEKDAYS[now.weekday()],
        title=d.title,
        hours=f"{_clock(a)}~{_clock(b)}",
        closed=josa(", ".join(x.title for x in unlisted), "은/는"),
    )
    listed = _listed_day(docs, now)
    if listed is None:
        return out
    verdict, lines = _listed_day_verdict(*listed)
    return f"{out} {verdict}{lines}"


def _hours_verdict(spans: Sequence[tuple[int, int, Restaurant]], day: str | None = None) -> str:
    """Who closes latest and who opens earliest today (or on ``day``, "월"); places sharing that
    time are said as a tie."""
    one, tied = (
        ("answer.compare.hours", "answer.compare.hours_tied")
        if day is None
        else (
            "answer.compare.hours_day",
            "answer.compare.hours_day_tied",
        )
    )
    close = max(b for _, b, _ in spans)
    opening = min(a for a, _, _ in spans)
    late = [d.title for _, b, d in spans if b == close]
    early = [d.title for a, _, d in spans if a == opening]
    if len(late) == 1 and len(early) == 1:
        return say(
            one,
            late=josa(late[0], "이/가"),
            early=josa(early[0], "이/가"),
            close=_clock(close),
            open=_clock(opening),
            day=day or "",
        )
    return say(
        tied,
        day=day or "",
        late=_tie_clause(("answer.compare.late_one", "answer.compare.late_tie"), late, close=_clock(close)),
        early=_tie_clause(
            ("answer.compare.early_one", "answer.compare.early_tie"), early, open=_clock(opening)
        ),
    )


def _tie_clause(names: tuple[str, str], titles: Sequence[str], **times: str) -> str:
    """ "A가 가장 늦게까지 하고(22:00까지)" for one place, "A, B 모두 22:00까지 하고" for a tie."""
    one, tie = names
    if len(titles) == 1:
        return say(one, title=josa(titles[0], "이/가"), **times)
    return say(tie, titles=", ".join(titles), **times)


def compare_answer(
    groups: Sequence[tuple[str, Sequence[Shown]]],
    now: datetime,
    criterion: str = "taste",
    numbers: Sequence[int] | None = None,
    dishes: Sequence[str] = (),
    origin: str | None = None,
) -> list[str]:
    """A side-by-side table of the restaurants compared, and a verdict by ``criterion``.
    ``numbers`` are their numbers in the list they were shown in (kept as shown); ``origin``: the
    place a distance is measured from when the message names one ("오금역에서 더 가까운")."""
    chunks: list[str] = []
    found = [(t, g[0]) for t, g in groups if g]
    missing = [t for t, g in groups if not g]
    if missing:
        chunks.append(say("answer.compare.missing", titles=", ".join(missing)) + "\n")
    if not found:
        chunks.append(text("answer.compare.none") + "\n")
        return chunks
    docs = [s.doc for _, s in found]
    if len(docs) == 1 and not missing:  # both references point at one restaurant
        chunks.append(say("answer.compare.same_place", title=josa(docs[0].title, "이에요/예요")) + "\n\n")
    names = [
        say("answer.compare.numbered", number=numbers[i], title=d.title)
        if numbers and i < len(numbers)
        else d.title
        for i, d in enumerate(docs)
    ]
    chunks.append(say("answer.compare.heading", names=" vs ".join(names)) + "\n\n")
    rows = _compare_rows(docs, now)
    chunks.append("| | " + " | ".join(names) + " |\n")
    chunks.append("|---|" + "---|" * len(names) + "\n")
    for label, values in rows:
        chunks.append(f"| {label} | " + " | ".join(v.replace("|", "/") for v in values) + " |\n")
    chunks.append("\n")
    if len(found) >= 2 and criterion == "distance":
        chunks.append(_distance_verdict([sh for _, sh in found], origin) + "\n")
    elif len(found) >= 2:
        chunks.append(_verdict(docs, criterion, now, dishes) + "\n")
    return chunks


def _distance_verdict(shown: Sequence[Shown], origin: str | None = None) -> str:
    """ "어디가 더 가까워?": the nearer one from the place searched (or from ``origin``, the place the
    message names), with each distance."""
    known = [(s.distance_m, s.doc) for s in shown if s.distance_m is not None]
    if len(known) < 2:
        return text("answer.compare.distance_unknown")
    near = min(known, key=lambda x: x[0])[1]
    said = ", ".join(
        say("answer.compare.distance_line", title=d.title, distance=distance_text(m) or "") for m, d in known
    )
    if origin:
        return say("answer.compare.distance_from", place=origin, title=josa(near.title, "이/가"), lines=said)
    return say("answer.compare.distance", title=josa(near.title, "이/가"), lines=said)


def _no_hours_cell(doc: Restaurant, now: datetime, unknown: str) -> str:
    """A comparison's hours cell with no hours today: a day the timetable does not list, or unknown."""
    if _today_unlisted(doc, now):
        return say("answer.compare.unlisted_cell", day=WEEKDAYS[now.weekday()])
    return unknown


def _compare_rows(docs: Sequence[Restaurant], now: datetime) -> list[tuple[str, list[str]]]:
    """The comparison table's rows: a label and one cell per restaurant."""
    unknown = text("answer.compare.unknown")
    row = table("answer.compare.row")
    return [
        (row["kind"], [d.cuisine for d in docs]),
        (row["rating"], [f"{d.rating}" if d.rating is not None else unknown for d in docs]),
        (
            row["reviews"],
            [say("answer.compare.count", n=d.review_count) if d.review_count else unknown for d in docs],
        ),
        (row["taste"], [_share(d, "맛")[1] for d in docs]),
        (row["value"], [_share(d, "가성비")[1] for d in docs]),
        (row["mood"], [_share(d, "분위기")[1] for d in docs]),
        (row["service"], [_share(d, "친절")[1] for d in docs]),
        (row["parking"], [_parking_cell(d) for d in docs]),
        (row["price"], [won(p) if (p := typical_price(d)) is not None else unknown for d in docs]),
        (row["hours"], [hours_today(d, now) or _no_hours_cell(d, now, unknown) for d in docs]),
        (row["menus"], [menu_text(d, 2) or unknown for d in docs]),
    ]


def _parking_cell(doc: Restaurant) -> str:
    """A comparison's parking cell with the number that decides it: "언급 1건", "가능 (태그 12건)"."""
    if "주차" not in doc.convenience:
        return text("answer.compare.unknown")
    mentions = mention_only(doc, "convenience", "주차")
    if mentions is not None:
        return say("cards.facts.mention", value="", n=mentions).strip()
    n = _tag(doc, "주차")
    if n:
        return say("answer.compare.parking_yes_votes", votes=say("cards.facts.tag_votes", n=n))
    return text("answer.compare.parking_yes")


def typical_price(doc: Restaurant) -> int | None:
    """The median of the restaurant's priced menu lines (of an even count, the mean of the middle
    two, rounded to the won)."""
    prices = [m.price for m in doc.priced_menus() if m.price is not None]
    return round(statistics.median(prices)) if prices else None


def brand_base(title: str) -> str:
    """A restaurant's name without its branch word ("진대감 마포점" → "진대감"), spaces removed."""
    words = title.split()
    if len(words) > 1 and words[-1].endswith(BRANCH_SUFFIXES):
        words = words[:-1]
    return "".join(words)


ASK_LABELS: Final = table("answer.ask_label")


def _has_convenience(doc: Restaurant, value: str) -> tuple[bool, str | None]:
    if value in doc.convenience:
        return True, evidence_text(doc, "convenience", value)
    return False, None


def _review_only(doc: Restaurant, field: EnrichField, value: str) -> bool:
    """Whether only reviews back the value (no tag, category, menu or owner's description)."""
    sources = [ev.source for ev in doc.evidence_for(field, value)]
    return bool(sources) and all(s.startswith("reviews") for s in sources)


def _subject(word: str) -> str:
    """``word`` with its subject particle: 주차가, 예약이."""
    return josa(word, "이/가")


def convenience_answer(doc: Restaurant, value: str) -> str:
    """Yes with counts and a quote, the negative evidence stated, or "모르겠어요" when nothing is said."""
    label = value
    ok, ev = _has_convenience(doc, value)
    against = doc.against_for("convenience", value)
    mentions = mention_only(doc, "convenience", value) if ok else None
    if mentions is not None:
        total = say("cards.facts.mention_total", reviews=doc.review_count) if doc.review_count else ""
        line = say(
            "cards.facts.mention_answer",
            title=josa(doc.title, "은/는"),
            value=value,
            n=mentions,
            total=total,
            subject=_subject(label),
        )
        return line + "\n"
    if ok:
        title = josa(doc.title, "은/는")
        if ev:
            line = say("answer.convenience.yes_evidence", title=title, value=label, evidence=ev)
        else:
            line = say("answer.convenience.yes", title=title, value=label)
        if against:
            line += " " + say("answer.convenience.but_against", subject=_subject(label), n=against[0].support)
        if value in ALWAYS_CAUTIOUS or _review_only(doc, "convenience", value):
            line += " " + REVIEW_CAUTION
        return line + "\n"
    if against:
        n = against[0].support or len(against)
        return (
            say(
                "answer.convenience.against",
                title=josa(doc.title, "은/는"),
                subject=_subject(label),
                n=n,
                span=against[0].span,
                caution=REVIEW_CAUTION,
            )
            + "\n"
        )
    return say("answer.convenience.unknown", title=doc.title, value=label) + "\n"


def information_lines(
    doc: Restaurant,
    asks: Sequence[str],
    conveniences: Sequence[str],
    now: datetime,
    dishes: Sequence[str] = (),
    wishes: Sequence[str] = (),
    day: datetime | None = None,
    open_now: bool = False,
    window: tuple[datetime, datetime, str] | None = None,
) -> list[str]:
    """Answer the question first ("네, 주차 가능해요 …" / "영업시간은 …" / "정보가 없어요").
    ``wishes`` ("데이트", "혼술") are answered yes/no from the evidence, or "알 수 없어요".
    ``day``: the day asked about ("토요일에도 열어요?"), whose hours follow the week's.
    ``open_now``: "지금 열었어?" — whether it is open now is said before the hours.
    ``window``: a part of the day asked ("내일 아침에도 해?": from, to, its words) — yes or no for it
    before the hours (audit r15 Q9.2: the hours line alone left the question unanswered)."""
    lines: list[str] = [wish_line(doc, w) for w in wishes]
    wanted = [a for a in dict.fromkeys(asks) if not (wishes and a == "rating")]
    for c in conveniences:
        lines.append(convenience_answer(doc, c))
    for ask in wanted:
        if ask in ("parking", "convenience", "reservation") and conveniences:
            continue
        if ask == "parking":
            lines.append(convenience_answer(doc, "주차"))
        elif ask == "reservation":
            lines.append(_reservation_line(doc) + "\n")
        elif ask == "hours":
            if open_now and day is None:
                lines.append(open_now_line(doc, now) + "\n")
            elif window is not None:
                lines.append(window_line(doc, *window) + "\n")
            lines.append(_hours_answer(doc, now, day) + "\n")
        elif ask in ("menu", "price") and dishes:
            lines.append(_dish_answer(doc, dishes) + "\n")
        elif ask in ("menu", "price"):
            menus = menu_text(doc, 5)
            if menus:
                lines.append(say("answer.info.menu", title=doc.title, menus=menus) + "\n")
            else:
                lines.append(say("answer.info.menu_unknown", title=doc.title) + "\n")
        elif ask == "address":
            lines.append(
                say(
                    "answer.info.address",
                    title=doc.title,
                    address=doc.display_address,
                    copula=_is(doc.display_address),
                )
                + "\n"
                if doc.display_address
                else say("answer.info.address_unknown", title=doc.title) + "\n"
            )
        elif ask == "phone":
            lines.append(
                say("answer.info.phone", title=doc.title, phone=doc.telephone, copula=_is(doc.telephone))
                + "\n"
                if doc.telephone
                else say("answer.info.phone_unknown", title=doc.title) + "\n"
            )
        elif ask == "rating":
            lines.append(_rating_line(doc) + "\n")
        elif ask == "waiting":
            lines.append(_waiting_line(doc) + "\n")
        elif ask == "seats":
            lines.append(say("answer.info.seats_unknown", title=doc.title) + "\n")
        elif ask == "convenience":
            lines.append(
                say("answer.info.convenience", title=doc.title, values=", ".join(doc.convenience)) + "\n"
                if doc.convenience
                else text("answer.info.convenience_unknown") + "\n"
            )
    # "점심 메뉴 얼마야" asks the menu and its prices: one line said once (audit r15 Q22.2)
    return list(dict.fromkeys(lines))


WINDOW_STEP_MIN = 15  # a part of the day is checked every quarter of an hour


def window_line(doc: Restaurant, start: datetime, end: datetime, label: str) -> str:
    """ "거기 내일 아침에도 해?": whether the hours have the place open at some time of the part of the day
    asked (yes, no, or unknown without a timetable), the part's span in brackets."""
    span = f"{start:%H:%M}~{end:%H:%M}"
    title = josa(doc.title, "은/는")
    when = start
    statuses: list[bool | None] = []
    while when < end:
        statuses.append(doc.hours.is_open(when) if doc.hours is not None else None)
        when += timedelta(minutes=WINDOW_STEP_MIN)
    if any(st is True for st in statuses):
        return say("answer.info.window.open", title=title, label=label, span=span)
    if not statuses or all(st is None for st in statuses):
        return say("answer.info.window.unknown", title=title, label=label, span=span)
    return say("answer.info.window.closed", title=title, label=label, span=span)


def _reservation_line(doc: Restaurant) -> str:
    ok, ev = _has_convenience(doc, "예약")
    if ok and ev:
        return say("answer.info.reservation_evidence", evidence=ev)
    return text("answer.info.reservation" if ok else "answer.info.reservation_unknown")


_OPEN_NOW_ANSWER: Final = table("answer.info.open_now")  # an open state → the sentence that says it


def open_now_line(doc: Restaurant, now: datetime) -> str:
    """ "거기 지금 열었어?": yes or no from the card's own open status, its label in brackets; a day the
    timetable leaves out or hours not crawled are unknown, never guessed."""
    status = open_status(doc.hours, now)
    said = _OPEN_NOW_ANSWER.get(status.state, _OPEN_NOW_ANSWER["unknown"])
    return said.format(title=josa(doc.title, "은/는"), label=status.label)


def _hours_answer(doc: Restaurant, now: datetime, day: datetime | None) -> str:
    """The week's hours as crawled, with the asked day's (or today's) in brackets."""
    if doc.hours is None or not doc.hours.raw:
        return say("answer.info.hours_unknown", title=doc.title)
    today = hours_today(doc, now)
    other = other_day_hours(doc.hours, day, now, with_raw=False) if day is not None else None
    detail = ""
    if other is not None:
        detail = say("answer.info.hours_other_day", day=other[0], hours=other[1])
    elif (running := doc.hours.carried_over(now)) is not None and now.weekday() not in doc.hours.days:
        yday = WEEKDAYS[(now.weekday() - 1) % 7]
        detail = say("answer.info.hours_yesterday_running", day=yday, hours=running.label())
    elif today and doc.hours.parsed:
        detail = say("answer.info.hours_today", hours=today)
    elif _today_unlisted(doc, now):
        detail = say("answer.info.hours_today_unlisted", day=WEEKDAYS[now.weekday()])
    return say(
        "answer.info.hours", title=doc.title, raw=doc.hours.raw, detail=detail, copula=_is(doc.hours.raw)
    )


def _dish_answer(doc: Restaurant, dishes: Sequence[str]) -> str:
    """ "거기 삼겹살 얼마야?": the menu lines that name the dish, with their prices.
    "삼겹살" also finds "본삼겹 (180g)": the word without its last syllable when longer."""
    stems = [d.replace(" ", "")[:-1] if len(d.replace(" ", "")) > 2 else d.replace(" ", "") for d in dishes]
    lines_for = [
        say("answer.info.dish_priced", name=m.name, price=won(m.price))
        if m.price is not None
        else say("answer.info.dish_unpriced", name=m.name)
        for m in doc.menus
        if any(stem in m.name.replace(" ", "") for stem in stems)
    ]
    if lines_for:
        return say("answer.info.dish_lines", title=doc.title, lines=", ".join(lines_for[:5]))
    return say("answer.info.dish_missing", title=doc.title, dishes=josa(", ".join(dishes), "은/는"))


def _rating_line(doc: Restaurant) -> str:
    if doc.rating is None:
        return say("answer.info.rating_unknown", title=doc.title)
    if doc.review_count:
        return say(
            "answer.info.rating_reviews",
            title=doc.title,
            rating=doc.rating,
            reviews=doc.review_count,
            copula=_is(str(doc.rating)),
        )
    return say("answer.info.rating", title=doc.title, rating=doc.rating, copula=_is(str(doc.rating)))


def _waiting_line(doc: Restaurant) -> str:
    """ "거기 웨이팅 있어?": the reviews' mention of waiting with its evidence, or "모르겠어요"."""
    if "웨이팅" in doc.features:
        evidence = evidence_text(doc, "features", "웨이팅")
        if evidence:
            return say("answer.info.waiting", title=josa(doc.title, "은/는"), evidence=evidence)
    return say("answer.info.waiting_unknown", title=doc.title)


def wish_line(doc: Restaurant, wish: str) -> str:
    """ "혼술하기 좋아?": what the document says about the wish, with its evidence."""
    for field in ("occasion", "atmosphere"):
        if wish in getattr(doc, field):
            ev = evidence_text(doc, field, wish)
            title = josa(doc.title, "은/는")
            if ev:
                return say("answer.wish.yes_evidence", title=title, wish=wish, evidence=ev) + "\n"
            return say("answer.wish.yes", title=title, wish=wish) + "\n"
    tags = [(t, _tag(doc, t)) for t in vocab().tags_for(wish)]
    backed = [(t, n) for t, n in tags if n > 0]
    if backed:
        said = ", ".join(say("answer.wish.tag", tag=t, n=n) for t, n in backed)
        total = say("answer.wish.total", reviews=doc.review_count) if doc.review_count else ""
        title = josa(doc.title, "은/는")
        return say("answer.wish.tags", title=title, tags=said, total=total, wish=wish) + "\n"
    return say("answer.wish.unknown", title=josa(doc.title, "이/가"), wish=wish) + "\n"


def information_answer(
    shown: Sequence[Shown],
    asks: Sequence[str],
    conveniences: Sequence[str],
    now: datetime,
    origin: str | None,
    day: datetime | None = None,
) -> list[str]:
    if not shown:
        return [text("answer.info.not_found") + "\n"]
    first = shown[0]
    if day is not None and not asks and not conveniences:
        asks = ["hours"]  # "허심탄회 일요일에도 장사해?": that day's hours, said first
    chunks = information_lines(first.doc, asks, conveniences, now, day=day)
    chunks.append("\n")
    chunks += restaurant_block(1, first, None, now, origin)
    # only real branches of one brand ("진대감 마포점", "진대감 잠실점"), never another place found
    branches = [s for s in shown[1:4] if brand_base(s.doc.title) == brand_base(first.doc.title)]
    if branches:
        others = ", ".join(s.doc.title for s in branches)
        chunks.append("\n" + say("answer.info.branches", titles=others) + "\n")
    return chunks


def clarification_answer(question: str, labels: Sequence[str]) -> list[str]:
    chunks = [question + "\n"]
    for i, label in enumerate(labels, start=1):
        chunks.append(f"{i}. {label}\n")
    return chunks


SMALLTALK: Final = table("answer.smalltalk")  # by the small talk's kind ("smalltalk:thanks")
REPLIES: Final = table("answer.reply")  # a question that cannot be searched as it stands


def unknown_food_answer(name: str) -> list[str]:
    said = say("answer.unknown.food", name=name, topic=particle(name, "은/는"))
    return [said + "\n", text("answer.unknown.food_hint") + "\n"]


def unknown_place_answer(name: str) -> list[str]:
    return [say("answer.unknown.place", name=name) + "\n"]


CHUNK_CHARS = 24  # characters per streamed piece


def split_chunks(text: str, size: int = CHUNK_CHARS) -> list[str]:
    """Split text into chunks of ``size`` characters for streaming (the concatenation is ``text``;
    an empty text is one empty chunk). The agent streams template lines with it, the API an
    answer that was not streamed."""
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]
