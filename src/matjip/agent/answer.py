"""Offline answers: Korean templates that state only facts found in the documents.

Each function returns the answer as a list of chunks (lines), so callers can stream them.
Every name, price, distance, count and hour below is read from a document or a search hit.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from datetime import datetime, timedelta

from matjip.agent.acts import compare_criteria
from matjip.agent.cardinfo import cards_config, mention_only, night_flag, other_day_hours, standing
from matjip.agent.models import SearchPlan, Shown
from matjip.documents import EnrichField, Evidence, Restaurant
from matjip.index.reference import BRANCH_SUFFIXES
from matjip.text.josa import final_consonant, josa
from matjip.vocab import vocab


def won(value: int) -> str:
    return f"{value:,}원"


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


WEEKDAYS = "월화수목금토일"


def hours_line(doc: Restaurant, now: datetime, today: str | None) -> str:
    """The card's hours line for today: the hours; a day off; a day the crawled timetable does not
    list (said with the timetable, not as "no information"); or no hours at all."""
    words = cards_config().hours
    if today:
        return words.today.format(hours=today)
    sched = doc.hours
    if (
        sched is not None
        and sched.parsed
        and sched.days
        and sched.kind == "timetable"
        and not sched.implausible
    ):
        day = WEEKDAYS[now.weekday()]
        if now.weekday() in sched.closed:
            return words.day_off.format(day=day, raw=sched.raw.strip())
        return words.day_unlisted.format(day=day, raw=sched.raw.strip())
    return words.unknown


NOW_SLACK_S = 15 * 60  # an asked time this close to the turn's time is "now"
TONIGHT = timedelta(hours=12)
EARLY_MORNING_END_H = 6


def _in_zone_of(when: datetime, now: datetime) -> datetime:
    """``when`` comparable with ``now`` (in its zone; naive when ``now`` is)."""
    if now.tzinfo is None:
        return when.replace(tzinfo=None)
    return when.astimezone(now.tzinfo) if when.tzinfo is not None else when.replace(tzinfo=now.tzinfo)


def asked_day_hours(doc: Restaurant, plan: SearchPlan | None, now: datetime) -> str | None:
    """ "토요일 영업: 11:00~22:00" when the plan asks about another day than today; else None."""
    if plan is None or plan.open_at is None:
        return None
    when = _in_zone_of(plan.open_at, now)
    if timedelta(0) <= when - now <= TONIGHT and when.hour < EARLY_MORNING_END_H:
        return None  # "새벽 1시" asked in the evening: tonight, today's (overnight) hours
    got = other_day_hours(doc.hours, when, now)
    return f"{got[0]}: {got[1]}" if got else None


# seed 003: what only reviews suggest is said with this caution
REVIEW_CAUTION = "리뷰로만 추정한 거라 방문 전에 확인해 보세요."
CHECK_FIRST = "방문 전에 가게에 확인해 보세요."  # nothing was estimated: no "추정" caution
# asks whose answer always carries the caution (a place's rules change; a review is not a policy)
ALWAYS_CAUTIOUS = frozenset({"반려동물", "콜키지", "놀이방", "유아의자", "24시"})


def _review_count(ev: Evidence) -> str:
    """ "리뷰 12건 중 5건 " when the evidence carries its support, else ""."""
    if ev.support and ev.reviews:
        return f"리뷰 {ev.reviews}건 중 {ev.support}건 "
    return ""


def evidence_text(doc: Restaurant, field: str, value: str) -> str | None:
    for ev in doc.evidence:
        if ev.field == field and ev.value == value:
            if ev.source == "reviewKeywords" and ev.count:
                return f"방문자 태그 '{ev.span}' {ev.count}건"
            if ev.source.startswith("reviews"):
                return f'{_review_count(ev)}리뷰 "{ev.span}"'
            if ev.source == "description":
                return f'소개글 "{ev.span}"'
            return f"{ev.span}"
    return None


_KIND_SOURCE = {"category": "카테고리", "title": "상호", "menus": "메뉴"}


def kind_text(doc: Restaurant, kind: str) -> str | None:
    """Why ``doc`` is of ``kind``: "카테고리 '한식>육류,고기>삼겹살'", "메뉴 '…'"."""
    for ev in doc.evidence:
        if ev.field == "kind" and ev.value == kind:
            if ev.source.startswith("kind:"):
                return kind_text(doc, ev.span)
            return f"{_KIND_SOURCE.get(ev.source, ev.source)} '{ev.span}'"
    return None


def _why(s: Shown, plan: SearchPlan | None) -> list[str]:
    reasons: list[str] = []
    if plan is not None:
        for k in plan.kinds:
            if k in s.doc.kinds:
                ev = kind_text(s.doc, k)
                reasons.append(f"{k}" + (f" ({ev})" if ev else ""))
        for dish in plan.kind_dishes:
            if not any(k in s.doc.kinds for k in plan.kinds):
                hit = next((x for x in s.doc.menus if dish in x.name.replace(" ", "")), None)
                if hit is not None:
                    reasons.append(f"메뉴 '{hit.name}'")
        for c in plan.convenience:
            mentions = mention_only(s.doc, "convenience", c)
            if mentions is not None:  # one visitor tag among many reviews is a mention, not a fact
                reasons.append(cards_config().facts.mention.format(value=c, n=mentions))
                continue
            ev = evidence_text(s.doc, "convenience", c)
            reasons.append(f"{c} 가능" + (f" ({ev})" if ev else ""))
        for m in plan.menu:
            hit = next((x for x in s.doc.menus if m in x.name.replace(" ", "")), None)
            if hit is not None:
                reasons.append(f"메뉴 '{hit.name}'" + (f" {won(hit.price)}" if hit.price is not None else ""))
            elif m in s.doc.review_food:
                reasons.append(f"리뷰 음식 '{m}'")
        for a in [*plan.atmosphere, *plan.occasion]:
            for fld in ("atmosphere", "occasion", "features"):
                ev = evidence_text(s.doc, fld, a)
                if ev:
                    reasons.append(f"{a} ({ev})")
                    break
        if plan.open_at is not None and s.open_now:
            label = plan.open_label or "요청한 시간"
            reasons.append(label if label.endswith("영업 중") else f"{label} 영업")
        if plan.price_max is not None or plan.price_min is not None:
            inside = [
                x
                for x in s.doc.priced_menus()
                if (plan.price_min is None or (x.price or 0) >= plan.price_min)
                and (plan.price_max is None or (x.price or 0) <= plan.price_max)
            ]
            if inside:
                reasons.append(f"'{inside[0].name}' {won(inside[0].price or 0)}")
    return list(dict.fromkeys(reasons))  # a menu line that answers two wishes is said once


def restaurant_block(
    i: int, s: Shown, plan: SearchPlan | None, now: datetime, origin: str | None
) -> list[str]:
    d = s.doc
    head = f"**{i}. {d.title}** ({d.cuisine}"
    dist = distance_text(s.distance_m)
    if dist and "approximate_coordinates" in s.doc.flags:
        dist = f"약 {dist} (동 중심 기준 추정)"
    if dist:
        head += f" · {origin}에서 {dist}" if origin else f" · {dist}"
    head += ")"
    lines = [head]
    why = _why(s, plan)
    if why:
        lines.append("- 맞는 조건: " + ", ".join(why))
    said = standing(d)
    if said:
        lines.append(cards_config().standing.line.format(evidence=said))
    menus = menu_text(d)
    if menus:
        lines.append(f"- 대표 메뉴: {menus}")
    asked = asked_day_hours(d, plan, now)
    today = hours_today(d, now)
    if asked:
        lines.append(f"- {asked}")  # "토요일에도 해요?": that day's hours
    else:
        lines.append(hours_line(d, now, today))
    if (
        plan is None
        or plan.open_at is None
        or abs((_in_zone_of(plan.open_at, now) - now).total_seconds()) <= NOW_SLACK_S
    ):
        flag = night_flag(d.hours, now)  # at night: closed, or closing within the hour
        if flag:
            lines.append(flag)
    if d.display_address:
        lines.append(f"- 주소: {d.display_address}")
    return [line + "\n" for line in lines]


def _conditions(plan: SearchPlan) -> str:
    parts: list[str] = []
    parts += plan.atmosphere + plan.occasion
    parts += [f"{c} 가능한" for c in plan.convenience]
    if plan.price_max is not None and plan.price_min is None:
        parts.append(f"{won(plan.price_max)} 이하")
    elif plan.price_min is not None and plan.price_max is not None:
        parts.append(f"{won(plan.price_min)}~{won(plan.price_max)}")
    elif plan.price_min is not None:
        parts.append(f"{won(plan.price_min)} 이상")
    if plan.open_label:
        label = plan.open_label
        parts.append(f"{label}인" if label.endswith("영업 중") else f"{label} 영업하는")
    # a theme's family of kinds ("속이 편한"): the first few, "등"
    kinds_said = plan.kinds if len(plan.kinds) <= 2 else [", ".join(plan.kinds[:3]) + " 등"]
    target = " ".join(kinds_said + plan.menu + plan.cuisine) or "식당"
    return " ".join([*parts, target])


def plan_notes(plan: SearchPlan, unknown_hours: int | None, no_coordinates: int | None = None) -> list[str]:
    """What the answer must say about the search itself: what was excluded, which words the data
    cannot check, how many places were left out for unknown hours."""
    notes: list[str] = []
    excluded = [*plan.exclude_menu, *plan.exclude_cuisine, *plan.exclude_titles] or plan.exclude_kinds
    if excluded:
        notes.append("'" + "', '".join(dict.fromkeys(excluded)) + "'은(는) 빼고 찾았어요.")
    if plan.exclude_chains:
        notes.append("체인점은 빼고 찾았어요 (지점 이름이 붙은 곳과 알려진 프랜차이즈).")
    if plan.unused_terms:
        notes.append(
            "'" + "', '".join(plan.unused_terms) + "'은(는) 데이터로 확인할 수 없어서 빼고 찾았어요."
        )
    if plan.open_at is not None and unknown_hours:
        notes.append(f"영업시간 정보가 없는 {unknown_hours}곳은 영업 중인지 알 수 없어서 뺐어요.")
    if no_coordinates:
        notes.append(
            f"조건에 맞는 곳 중 좌표가 없는 {no_coordinates}곳(주소만 있는 곳)은 거리를 알 수 없어서 "
            "가까운 곳 찾기에서 빠졌어요. 동네 이름으로 물어봐 주시면 주소로 찾아 드릴게요."
        )
    return notes


def wish_shown(doc: Restaurant, wish: str) -> bool:
    """Does the card show evidence for an atmosphere or occasion wish: the enriched value itself,
    or a visitor tag the wish names ("분위기 좋은" → '분위기'; a '분위기' tag says nothing of 조용한)?"""
    if any(wish in getattr(doc, fld) for fld in ("atmosphere", "occasion", "features")):
        return True
    said = wish.replace(" ", "")
    return any(
        doc.review_keywords.get(t, 0) > 0 for t in vocab().tags_for(wish) if t.replace(" ", "") in said
    )


def heading_wishes(shown: Sequence[Shown], plan: SearchPlan) -> tuple[SearchPlan, list[str]]:
    """The plan as the heading may state it — only the wishes every card shows evidence for — and
    what to say about the others ("조용한 곳인지는 정보가 없어요")."""
    conf = cards_config().heading
    caveats: list[str] = []
    keep: dict[str, list[str]] = {"atmosphere": [], "occasion": [], "convenience": []}
    asked = [
        *(("atmosphere", w, w) for w in plan.atmosphere),
        *(("occasion", w, w) for w in plan.occasion),
        *(("convenience", c, f"{c} 가능한") for c in plan.convenience),
    ]
    for field, wish, phrase in asked:
        if field == "convenience":
            backed = [
                i
                for i, s in enumerate(shown, 1)
                if wish in s.doc.convenience and mention_only(s.doc, "convenience", wish) is None
            ]
        else:
            backed = [i for i, s in enumerate(shown, 1) if wish_shown(s.doc, wish)]
        if len(backed) == len(shown):
            keep[field].append(wish)
            continue
        if field == "convenience" and not backed and any(wish in x.doc.convenience for x in shown):
            caveats.append(conf.mentioned.format(value=josa(wish, "은/는")))  # tags mention it, no more
            continue
        after_n = final_consonant(phrase) == 4  # 조용한, 분위기 좋은: "… 곳인지는"
        if backed:
            template = conf.partly if after_n else conf.partly_noun
            caveats.append(template.format(wish=phrase, numbers="·".join(map(str, backed))))
        else:
            caveats.append((conf.unknown if after_n else conf.unknown_noun).format(wish=phrase))
    if len(plan.kinds) > 2:  # a family ("다이어트"): name only the kinds the cards are
        kinds_shown = [k for k in plan.kinds if any(k in s.doc.kinds for s in shown)]
        if kinds_shown:
            keep["kinds"] = kinds_shown
    return plan.model_copy(update=keep), caveats


def search_answer(
    shown: Sequence[Shown], plan: SearchPlan, now: datetime, origin: str | None, notes: Sequence[str]
) -> list[str]:
    where = (
        f"{origin} " + ("근처 " if plan.location and plan.location.mode == "near" else "") if origin else ""
    )
    chunks: list[str] = [note + "\n" for note in notes]
    if not shown:
        wanted = f"{where}{_conditions(plan)}"
        chunks.append(f"{josa(wanted, '을/를')} 찾지 못했어요. 조건을 바꿔서 다시 물어봐 주세요.\n")
        return chunks
    backed, caveats = heading_wishes(shown, plan)
    caveat = f" ({'; '.join(caveats)})" if caveats else ""
    chunks.append(f"{where}{_conditions(backed)} {len(shown)}곳을 찾았어요{caveat}.\n\n")
    for i, s in enumerate(shown, start=1):
        chunks += restaurant_block(i, s, plan, now, origin)
        chunks.append("\n")
    chunks += review_term_lines([s.doc for s in shown], plan.unused_terms)
    if plan.location is None:
        chunks.append("지역을 알려 주시면 더 가까운 곳으로 찾아 드릴게요.\n")
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
                f'{h.title} (리뷰 {len(d.reviews)}건 중 {index.count(term, h.place_id)}건, "{h.sentence}")'
                for h in hits
                for d in docs
                if d.place_id == h.place_id
            )
            lines.append(f"'{term}' 이야기가 있는 리뷰: {said}. {REVIEW_CAUTION}\n")
        elif any(d.reviews for d in docs):  # nothing was estimated: no caution about estimates
            quoted = f"'{term}'"
            lines.append(f"{josa(quoted, '은/는')} 리뷰에서도 찾지 못했어요. {CHECK_FIRST}\n")
        else:
            quoted = f"'{term}'"
            lines.append(
                f"{josa(quoted, '은/는')} 확인할 수 없었어요 (이 식당들의 리뷰 글이 데이터에 없어요).\n"
            )
    return lines


def _tag(doc: Restaurant, tag: str) -> int:
    return int(doc.review_keywords.get(tag, 0))


def compare_criterion(text: str) -> str:
    """By what a comparison is asked ("어디가 더 늦게까지 해?" → hours; ``data/dialogue.toml``)."""
    return next((c for c, words in compare_criteria().items() if any(w in text for w in words)), "taste")


def _share(doc: Restaurant, tag: str) -> tuple[float | None, str]:
    """A visitor tag as a share of the restaurant's reviews ("맛 120건/리뷰 800건 = 15%")."""
    n = _tag(doc, tag)
    if doc.review_count and n <= doc.review_count:  # more tags than reviews: the counts do not compare
        share = n / doc.review_count
        return share, f"{n}건 ({share:.0%})"
    return None, f"{n}건" if n else "-"


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
            said = ", ".join(f"{d.title} '{name}' {won(price)}" for (price, name), d in lines)
            return f"{josa('/'.join(dishes), '은/는')} {josa(cheap.title, '이/가')} 더 싸요 ({said})."
    if criterion == "price":
        prices = [(typical_price(d), d) for d in docs]
        known = [(p, d) for p, d in prices if p is not None]
        if len(known) >= 2:
            p, d = min(known, key=lambda x: x[0])
            return f"가격은 {josa(d.title, '이/가')} 더 싸요 (메뉴 가격 중간값 {won(p)} 기준)."
        return "두 곳 모두의 가격 정보가 없어서 가격으로는 비교하기 어려워요."
    if criterion == "hours":
        times = [(_closing(d, now), d) for d in docs]
        spans = [(a, b, d) for (a, b), d in times if a is not None and b is not None]
        if len(spans) >= 2:
            late = max(spans, key=lambda x: x[1])
            early = min(spans, key=lambda x: x[0])
            return (
                f"오늘은 {josa(late[2].title, '이/가')} 가장 늦게까지 하고, {josa(early[2].title, '이/가')} 가장 일찍 열어요 "
                "(오늘 영업시간 기준)."
            )
        missing = [d.title for (t, d) in times if t[0] is None]
        return f"{', '.join(missing)}의 오늘 영업시간 정보가 없어서 비교하기 어려워요."
    if criterion == "parking":
        facts = cards_config().facts
        votes = [(_tag(d, "주차"), d) for d in docs]
        if any(n for n, _ in votes):
            top, best = max(votes, key=lambda x: x[0])
            counts = ", ".join(f"{d.title} {k}건" for k, d in votes)
            if sum(k == top for k, _ in votes) > 1:
                return facts.parking_tie.format(counts=counts)
            return facts.parking_verdict.format(title=best.title, counts=counts)
        has = [d.title for d in docs if "주차" in d.convenience]
        if has:
            return f"주차 가능하다는 근거가 있는 곳: {', '.join(has)} (리뷰·설명 기준)."
        return facts.parking_none
    tag = {"mood": "분위기", "group": "단체모임", "taste": "맛"}.get(criterion, "맛")
    shares = [(_share(d, tag)[0], d) for d in docs]
    known_shares = [(x, d) for x, d in shares if x is not None and x > 0]
    if len(known_shares) >= 2:
        x, d = max(known_shares, key=lambda t: t[0])
        return f"방문자 태그 '{tag}'의 리뷰 대비 비율로는 {josa(d.title, '이/가')} 가장 높아요 ({x:.0%})."
    return f"방문자 태그 '{tag}' 자료가 부족해서 {tag}으로는 비교하기 어려워요. 메뉴와 위치로 골라 보세요."


def compare_answer(
    groups: Sequence[tuple[str, Sequence[Shown]]],
    now: datetime,
    criterion: str = "taste",
    numbers: Sequence[int] | None = None,
    dishes: Sequence[str] = (),
) -> list[str]:
    """A side-by-side table of the restaurants compared, and a verdict by ``criterion``.
    ``numbers`` are their numbers in the list they were shown in (kept as shown)."""
    chunks: list[str] = []
    found = [(t, g[0]) for t, g in groups if g]
    missing = [t for t, g in groups if not g]
    if missing:
        chunks.append("찾지 못한 곳: " + ", ".join(missing) + "\n")
    if not found:
        chunks.append("비교할 식당을 찾지 못했어요. 식당 이름을 다시 확인해 주세요.\n")
        return chunks
    docs = [s.doc for _, s in found]
    names = [
        (f"{numbers[i]}. " if numbers and i < len(numbers) else "") + d.title for i, d in enumerate(docs)
    ]
    chunks.append(" vs ".join(names) + " 비교예요.\n\n")
    rows: list[tuple[str, list[str]]] = [
        ("종류", [d.cuisine for d in docs]),
        ("평점", [f"{d.rating}" if d.rating is not None else "정보 없음" for d in docs]),
        ("리뷰", [f"{d.review_count}건" if d.review_count else "정보 없음" for d in docs]),
        ("'맛' 태그", [_share(d, "맛")[1] for d in docs]),
        ("'가성비' 태그", [_share(d, "가성비")[1] for d in docs]),
        ("'분위기' 태그", [_share(d, "분위기")[1] for d in docs]),
        ("주차", [_parking_cell(d) for d in docs]),
        ("가격(중간값)", [won(p) if (p := typical_price(d)) is not None else "정보 없음" for d in docs]),
        ("오늘 영업", [hours_today(d, now) or "정보 없음" for d in docs]),
        ("대표 메뉴", [menu_text(d, 2) or "정보 없음" for d in docs]),
    ]
    chunks.append("| | " + " | ".join(names) + " |\n")
    chunks.append("|---|" + "---|" * len(names) + "\n")
    for label, values in rows:
        chunks.append(f"| {label} | " + " | ".join(v.replace("|", "/") for v in values) + " |\n")
    chunks.append("\n")
    if len(found) >= 2:
        chunks.append(_verdict(docs, criterion, now, dishes) + "\n")
    return chunks


def _parking_cell(doc: Restaurant) -> str:
    """A comparison's parking cell with the number that decides it: "언급 1건", "가능 (태그 12건)"."""
    facts = cards_config().facts
    if "주차" not in doc.convenience:
        return "정보 없음"
    mentions = mention_only(doc, "convenience", "주차")
    if mentions is not None:
        return facts.mention.format(value="", n=mentions).strip()
    n = _tag(doc, "주차")
    return f"가능 ({facts.tag_votes.format(n=n)})" if n else "가능"


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


ASK_LABELS = {
    "hours": "영업시간",
    "price": "가격",
    "menu": "메뉴",
    "parking": "주차",
    "address": "위치",
    "phone": "전화번호",
    "reservation": "예약",
    "convenience": "편의시설",
    "rating": "평점",
}


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
        facts = cards_config().facts
        total = facts.mention_total.format(reviews=doc.review_count) if doc.review_count else ""
        line = facts.mention_answer.format(
            title=josa(doc.title, "은/는"), value=value, n=mentions, total=total, subject=_subject(label)
        )
        return line + "\n"
    if ok:
        line = f"네, {josa(doc.title, '은/는')} {label} 가능해요" + (f" ({ev})." if ev else ".")
        if against:
            line += f" 다만 {_subject(label)} 어렵다거나 안 된다는 리뷰도 {against[0].support}건 있어요."
        if value in ALWAYS_CAUTIOUS or _review_only(doc, "convenience", value):
            line += " " + REVIEW_CAUTION
        return line + "\n"
    if against:
        n = against[0].support or len(against)
        return (
            f"{josa(doc.title, '은/는')} {_subject(label)} 어렵거나 안 된다는 리뷰가 {n}건 있어요"
            f' (리뷰 "{against[0].span}"). {REVIEW_CAUTION}\n'
        )
    return (
        f"{doc.title}의 {label} 정보는 모르겠어요. 리뷰에도 언급이 없어요. 방문 전에 전화로 확인해 보세요.\n"
    )


def information_lines(
    doc: Restaurant,
    asks: Sequence[str],
    conveniences: Sequence[str],
    now: datetime,
    dishes: Sequence[str] = (),
    wishes: Sequence[str] = (),
) -> list[str]:
    """Answer the question first ("네, 주차 가능해요 …" / "영업시간은 …" / "정보가 없어요").
    ``wishes`` ("데이트", "혼술") are answered yes/no from the evidence, or "알 수 없어요"."""
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
            ok, ev = _has_convenience(doc, "예약")
            lines.append(
                f"네, 예약 가능해요 ({ev}).\n"
                if ok and ev
                else ("네, 예약 가능해요.\n" if ok else "예약 정보가 없어요.\n")
            )
        elif ask == "hours":
            if doc.hours is not None and doc.hours.raw:
                today = hours_today(doc, now)
                text = f"{doc.title} 영업시간은 {doc.hours.raw}이에요"
                if today and doc.hours.parsed:
                    text += f" (오늘: {today})"
                lines.append(text + ".\n")
            else:
                lines.append(f"{doc.title}의 영업시간 정보가 없어요.\n")
        elif ask in ("menu", "price") and dishes:
            # "거기 삼겹살 얼마야?": the menu lines that name the dish, with their prices
            # "삼겹살" also finds "본삼겹 (180g)": the word without its last syllable when longer
            stems = [
                d.replace(" ", "")[:-1] if len(d.replace(" ", "")) > 2 else d.replace(" ", "") for d in dishes
            ]
            lines_for = [
                m.name + (f" {won(m.price)}" if m.price is not None else " (가격 정보 없음)")
                for m in doc.menus
                if any(stem in m.name.replace(" ", "") for stem in stems)
            ]
            if lines_for:
                lines.append(f"{doc.title}: " + ", ".join(lines_for[:5]) + "\n")
            else:
                lines.append(f"{doc.title} 메뉴에 {josa(', '.join(dishes), '은/는')} 없어요.\n")
        elif ask in ("menu", "price"):
            menus = menu_text(doc, 5)
            if menus:
                lines.append(f"{doc.title} 메뉴: {menus}\n")
            else:
                lines.append(f"{doc.title}의 메뉴 정보가 없어요.\n")
        elif ask == "address":
            lines.append(
                f"{doc.title} 주소는 {doc.display_address}예요.\n"
                if doc.display_address
                else f"{doc.title}의 주소 정보가 없어요.\n"
            )
        elif ask == "phone":
            lines.append(
                f"{doc.title} 전화번호는 {doc.telephone}예요.\n"
                if doc.telephone
                else f"{doc.title}의 전화번호 정보가 없어요.\n"
            )
        elif ask == "rating":
            lines.append(
                f"{doc.title} 평점은 {doc.rating}이에요"
                + (f" (리뷰 {doc.review_count}건).\n" if doc.review_count else ".\n")
                if doc.rating is not None
                else f"{doc.title}의 평점 정보가 없어요.\n"
            )
        elif ask == "convenience":
            lines.append(
                f"{doc.title} 편의시설: {', '.join(doc.convenience)}\n"
                if doc.convenience
                else "편의시설 정보가 없어요.\n"
            )
    return lines


def wish_line(doc: Restaurant, wish: str) -> str:
    """ "혼술하기 좋아?": what the document says about the wish, with its evidence."""
    for field in ("occasion", "atmosphere"):
        if wish in getattr(doc, field):
            ev = evidence_text(doc, field, wish)
            return f"네, {josa(doc.title, '은/는')} {wish}에 좋다는 근거가 있어요" + (
                f" ({ev}).\n" if ev else ".\n"
            )
    tags = [(t, _tag(doc, t)) for t in vocab().tags_for(wish)]
    backed = [(t, n) for t, n in tags if n > 0]
    if backed:
        said = ", ".join(f"'{t}' {n}건" for t, n in backed)
        total = f" (리뷰 {doc.review_count}건 중)" if doc.review_count else ""
        return (
            f"{josa(doc.title, '은/는')} 방문자 태그 {said}{total}가 있어서 {wish}에 괜찮은 편으로 보여요.\n"
        )
    return f"{josa(doc.title, '이/가')} {wish}에 좋은지는 자료로 알 수 없어요 (관련 리뷰·태그가 없어요).\n"


def information_answer(
    shown: Sequence[Shown],
    asks: Sequence[str],
    conveniences: Sequence[str],
    now: datetime,
    origin: str | None,
) -> list[str]:
    if not shown:
        return ["그 식당을 찾지 못했어요. 이름이나 지역을 다시 알려 주세요.\n"]
    first = shown[0]
    chunks = information_lines(first.doc, asks, conveniences, now)
    chunks.append("\n")
    chunks += restaurant_block(1, first, None, now, origin)
    # only real branches of one brand ("진대감 마포점", "진대감 잠실점"), never another place found
    branches = [s for s in shown[1:4] if brand_base(s.doc.title) == brand_base(first.doc.title)]
    if branches:
        others = ", ".join(s.doc.title for s in branches)
        chunks.append(f"\n같은 이름의 다른 지점도 있어요: {others}\n")
    return chunks


def clarification_answer(question: str, labels: Sequence[str]) -> list[str]:
    chunks = [question + "\n"]
    for i, label in enumerate(labels, start=1):
        chunks.append(f"{i}. {label}\n")
    return chunks


SMALLTALK = {
    "thanks": "천만에요! 더 궁금한 식당이 있으면 언제든 물어봐 주세요.",
    "greeting": "안녕하세요! 지역과 음식을 알려 주시면 맛집을 찾아 드릴게요. 예: '강남역 주차되는 일식집'",
    "bye": "맛있는 식사 되세요! 또 찾아 주세요.",
    "offtopic": "그건 제가 알 수 없어요. 저는 식당 정보(메뉴, 영업시간, 편의시설, 위치)만 찾아 드릴 수 있어요.",
    "about": "저는 맛집 검색 도우미예요. 식당 정보(메뉴, 영업시간, 편의시설, 위치)를 찾아 드릴 수 있어요. "
    "지역과 음식을 알려 주세요. 예: '잠실역 주차되는 고깃집'",
    "reaction": "좋아요! 더 궁금한 점(영업시간, 주차, 메뉴, 비교)이 있으면 물어봐 주세요.",
}

REPLIES = {
    "empty": "질문이 비어 있어요. 예: '잠실역 근처 조용한 카페', '마포 진대감 주차되나요?'",
    "too_long": "질문이 너무 길어요. 앞부분만 읽고 찾아 봤어요.",
    "not_korean": "한국어로 물어봐 주세요. 예: '강남역 근처 파스타 맛집 추천해줘'",
    "no_content": "무엇을 찾으시는지 알 수 없었어요. 지역과 음식 종류를 알려 주세요. 예: '홍대 삼겹살 회식'",
    "no_context": "앞에서 찾은 식당이 없어요. 먼저 지역과 음식을 알려 주세요.",
    "bad_ordinal": "그 번호의 식당은 앞의 결과에 없어요. 번호를 다시 확인해 주세요.",
}


def unknown_food_answer(name: str) -> list[str]:
    return [
        f"'{name}'은(는) 데이터에 있는 음식 종류나 메뉴에서 찾지 못했어요. 엉뚱한 식당을 추천하지 않도록 "
        "찾지 않았어요.\n",
        "다른 음식이나 메뉴 이름으로 물어봐 주세요. 예: '잠실 양꼬치', '강남역 쌀국수'\n",
    ]


def unknown_place_answer(name: str) -> list[str]:
    return [
        f"'{name}' 위치를 찾지 못했어요. 역 이름이나 동·구 이름으로 다시 알려 주세요. 예: '잠실역', '역삼동'\n"
    ]


CHUNK_CHARS = 24  # characters per streamed piece


def split_chunks(text: str, size: int = CHUNK_CHARS) -> list[str]:
    """Split text into chunks of ``size`` characters for streaming (the concatenation is ``text``;
    an empty text is one empty chunk). The agent streams template lines with it, the API an
    answer that was not streamed."""
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]
