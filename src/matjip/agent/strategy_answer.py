"""Answers of seed 003's strategies (issue 14): say how the search was done — the route and its
samples, the travel estimate, the course's stops and times — and mark every estimate with "약".
Offline templates; every fact comes from the documents or the plan."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from matjip.agent.acts import phrases
from matjip.agent.answer import _conditions, heading_wishes, hours_today, menu_text, restaurant_block
from matjip.agent.models import Card, LocationContext, SearchPlan, Shown, StrategyInfo
from matjip.agent.state import HitRecord
from matjip.documents import Restaurant
from matjip.geo.distance import haversine_m
from matjip.nlu.models import TravelMode
from matjip.nlu.strategy import estimate_travel, rules

MODE_WORDS = {"walk": "걸어서", "car": "차로", "transit": "대중교통으로"}
LINE_SOURCES = {
    "osrm": "OSRM 도로 경로",
    "kakao-mobility": "카카오모빌리티 도로 경로",
    "google-routes": "Google Routes 경로",
}


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
    where = origin.name or origin.display_name or "지정한 곳"
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


def caution_line(plan: SearchPlan) -> str | None:
    """Seed 003's disclaimer for pets and activities: the data only suggests it."""
    if plan.caution == "pet":
        return "⚠️ " + rules().pet_text + "\n"
    if plan.caution == "activity":
        return "⚠️ " + rules().activity_text + "\n"
    return None


def overseas_answer(name: str) -> list[str]:
    return [f"'{name}'은(는) 해외 장소예요. {rules().overseas_answer}\n"]


def abroad_answer(
    plan: SearchPlan, live: Sequence[Card], info: StrategyInfo | None, notes: Sequence[str]
) -> list[str]:
    if not live:
        return [*(n + "\n" for n in notes), *overseas_answer(plan.overseas or "그곳")]
    chunks = [
        *(n + "\n" for n in notes),
        f"{plan.overseas}은(는) 해외라 식당 자료에는 없어서, Google 지도에서 실시간으로 찾은 {len(live)}곳을 알려 드려요 "
        "(출처: Google Places, 저장하지 않아요).\n\n",
    ]
    for i, c in enumerate(live, start=1):
        chunks.append(f"**{i}. {c.name}** ({c.cuisine or '장소'} · Google)\n")
        if c.address:
            chunks.append(f"- 주소: {c.address}\n")
        chunks.append("\n")
    return chunks


def live_answer(plan: SearchPlan, live: Sequence[Card], notes: Sequence[str]) -> list[str]:
    """Places from Kakao Local around a place the index does not cover."""
    where = plan.location.name if plan.location else "그곳"
    chunks = [
        *(n + "\n" for n in notes),
        f"{where} 근처는 식당 데이터에 없어서, 카카오맵에서 실시간으로 찾은 {len(live)}곳을 알려 드려요 "
        "(출처: 카카오 로컬, 저장하지 않아요. 메뉴·영업시간은 확인하지 못했어요).\n\n",
    ]
    for i, c in enumerate(live, start=1):
        dist = f" · {where}에서 약 {km(c.distance_m)}" if c.distance_m is not None else ""
        chunks.append(f"**{i}. {c.name}** ({c.cuisine or '장소'}{dist} · 카카오)\n")
        if c.address:
            chunks.append(f"- 주소: {c.address}\n")
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
        f"{LINE_SOURCES.get(info.line_source, info.line_source)}를 따라"
        if info.line_source != "straight"
        else "두 곳을 이은 직선(길찾기 경로 없이 어림한 추정 경로)을 따라"
    )
    where = f"{_wa(a)} {b} 사이" if r.between else f"{a}→{b} 경로"
    chunks = [n + "\n" for n in notes]
    chunks.append(
        f"{where}(약 {km(info.total_m)})를 {how} {km(info.interval_m)}마다 {info.samples}개 지점으로 나눠, "
        f"각 지점 반경 {km(info.radius_m)} 안에서 찾았어요"
        + (" (중간 지점 근처 먼저)" if r.between else "")
        + ".\n"
    )
    if not shown:
        chunks.append(f"경로 주변에서 {_conditions(plan)}을(를) 찾지 못했어요.\n")
        return chunks
    backed, caveats = heading_wishes(shown, plan)  # the heading names only what the cards show
    said = f" ({'; '.join(caveats)})" if caveats else ""
    chunks.append(f"{_conditions(backed)} {len(shown)}곳을 {a}에서 가까운 순서로 보여 드려요{said}.\n\n")
    rec = {h["id"]: h for h in hits}
    for i, s in enumerate(shown, start=1):
        h = rec.get(s.doc.place_id, {})
        extra = (
            f"{a}→{b} 경로 {h.get('segment', '')} 근처, {a}에서 약 {km(float(h.get('along_m') or 0))}, "
            f"우회 약 {km(float(h.get('detour_m') or 0))}"
        )
        chunks += _block(i, s, plan, now, extra)
        chunks.append("\n")
    chunks.append("우회 거리는 경로에서 벗어났다 돌아오는 추가 거리를 직선으로 어림한 값이에요.\n")
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
        f"{MODE_WORDS.get(t.mode or '', '')} {t.minutes}분".strip()
        if t.minutes is not None
        else f"{km(t.threshold_m)}"
    )
    chunks = [n + "\n" for n in notes]
    rule = rules().travel.modes[t.estimate_mode]
    if info.travel_source == "estimate":
        how = (
            f"이동 거리·시간은 길찾기 없이 어림한 값이에요: 직선거리 × {rule.detour:g}(우회) ÷ "
            f"분당 {rule.speed_m_per_min:g}m({mode_word}). 그래서 '약'으로 적었어요."
        )
    else:
        how = f"이동 거리·시간은 {LINE_SOURCES.get(info.travel_source, info.travel_source)}로 잰 값이에요."
    chunks.append(
        f"{loc.name}에서 {limit} 안에 갈 수 있는 곳을 찾으려고 반경 {km(loc.radius_m or 0)}(기준의 1.5배) 안을 찾은 뒤 "
        f"이동 거리로 걸렀어요. {how}\n"
    )
    if not shown:
        chunks.append(f"{limit} 안에서 {_conditions(plan)}을(를) 찾지 못했어요.\n")
        return chunks
    backed, caveats = heading_wishes(shown, plan)  # the heading names only what the cards show
    chunks.append(f"{_conditions(backed)} {len(shown)}곳이에요 ({'; '.join(['가까운 순', *caveats])}).\n\n")
    rec = {h["id"]: h for h in hits}
    for i, s in enumerate(shown, start=1):
        h = rec.get(s.doc.place_id, {})
        approx = "약 " if h.get("travel_estimate", True) else ""
        extra = f"{mode_word} {approx}{h.get('travel_min')}분, {approx}{km(float(h.get('travel_m') or 0))}"
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
    roles = " → ".join(c.roles)
    days = f"{c.days}일 " if c.days > 1 else ""
    mode_word = MODE_WORDS[c.mode]
    chunks.append(
        f"{loc.name} {days}코스({roles})를 짰어요. 각 장소는 그 시간에 영업 중이고, 다음 장소는 앞 장소에서 "
        f"{mode_word} 갈 만한 거리(직선 {km(c.leg_m)} 안)에서 골랐어요.\n\n"
    )
    by_id = {s.doc.place_id: s for s in shown}
    stops: list[tuple[int, int, HitRecord | None, Card | None]] = []
    for rec in hits:
        stops.append((int(rec.get("day") or 1), int(rec.get("stop") or 0), rec, None))
    for live_card in live:
        stops.append((live_card.day_group or 1, live_card.stop or 0, None, live_card))
    stops.sort(key=lambda x: (x[0], x[1]))
    day_now = 0
    for n, (day, _, h, card) in enumerate(stops, start=1):
        if c.days > 1 and day != day_now:
            chunks.append(f"**{day}일차**\n")
            day_now = day
        if card is not None:
            leg = f" (앞 장소에서 {mode_word} 약 {card.leg_minutes}분)" if card.leg_minutes else ""
            chunks.append(
                f"{n}. {card.slot} · {card.trip_role} — **{card.name}** ({card.cuisine} · 카카오 실시간){leg}\n"
            )
            if card.address:
                chunks.append(f"   - 주소: {card.address}\n")
            continue
        assert h is not None
        s = by_id.get(h["id"])
        if s is None:
            continue
        leg = (
            f" (앞 장소에서 {mode_word} 약 {h.get('leg_min')}분, 약 {km(float(h.get('leg_m') or 0))})"
            if h.get("leg_min")
            else ""
        )
        chunks.append(f"{n}. {h.get('slot')} · {h.get('role')} — **{s.doc.title}** ({s.doc.cuisine}){leg}\n")
        menus = menu_text(s.doc)
        if menus:
            chunks.append(f"   - 대표 메뉴: {menus}\n")
        today = hours_today(s.doc, now)
        chunks.append(f"   - 오늘 영업: {today}\n" if today else "   - 영업시간: 정보가 없어요\n")
    if not stops:
        chunks.append("조건에 맞는 코스를 만들 만큼 영업 중인 곳을 찾지 못했어요.\n")
    far = [
        n
        for n, (_, _, h, _) in enumerate(stops, start=1)
        if h is not None and (h.get("leg_m") or 0) > c.leg_m
    ]
    if far:
        chunks.append(
            f"{', '.join(f'{n}번' for n in far)}은(는) 앞 장소 가까이에 그 시간에 여는 곳이 없어서 "
            f"조금 더 멀리(직선 {km(2 * c.leg_m)} 안)에서 골랐어요.\n"
        )
    missing = [r for r in c.roles if r not in {h.get("role") for h in hits} and r not in info.uncovered_roles]
    missing = [r for r in dict.fromkeys(missing) if r not in {lc.trip_role for lc in live}]
    if missing:
        chunks.append(f"'{', '.join(missing)}' 자리는 그 시간에 영업 중인 곳을 근처에서 찾지 못해 뺐어요.\n")
    if info.uncovered_roles:
        chunks.append(
            f"'{', '.join(info.uncovered_roles)}'은(는) 식당 데이터로는 다룰 수 없어서 코스에 넣지 못했어요 "
            "(실시간 장소 검색이 설정되어 있지 않아요).\n"
        )
    chunks.append("이동 시간은 직선거리로 어림한 값이라 '약'으로 적었어요.\n")
    return chunks
