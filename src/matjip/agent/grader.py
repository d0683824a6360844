"""Sufficiency tiers (docs/design.md) and the offline relevance grader (docs/design.md).

Tier 1-2 read only the fused scores: a confident result set is accepted with no grader at all.
Otherwise the offline grader checks each document against the plan's constraints and its
semantic wishes; an LLM grader may replace it for the middle band when a provider is configured.
"""

from __future__ import annotations

from collections.abc import Sequence

from matjip.agent.models import DocumentScore, Grade, SearchPlan, Shown
from matjip.agent.tuning import AgentConfig
from matjip.documents import Restaurant
from matjip.index import reference as ref
from matjip.index.request import PriceRange
from matjip.kinds import kinds


def tier(scores: Sequence[float], cfg: AgentConfig) -> tuple[str, str]:
    """Return (tier, reason): empty | confident | grader (middle band) | insufficient."""
    if not scores:
        return "empty", "[부족] 검색 결과 없음"
    top = max(scores)
    mean = sum(scores) / len(scores)
    high = sum(1 for s in scores if s >= cfg.any_high_threshold)
    lines = [f"[1단계 Top-K] top_1={top:.2f} (기준: {cfg.top1_threshold})"]
    if top < cfg.top1_threshold:
        return "insufficient", "\n".join([*lines, "→ 실패, 문서별 검증 필요"])
    lines.append(f"[2단계 Cosine] 평균={mean:.2f}, 고점수({cfg.any_high_threshold}+) {high}건")
    if mean < cfg.mean_threshold and high == 0:
        return "insufficient", "\n".join([*lines, "→ 실패, 문서별 검증 필요"])
    if top >= cfg.high_threshold:
        return "confident", "\n".join(
            [*lines, f"[고신뢰도] top_score={top:.2f} ≥ {cfg.high_threshold} → 검증 생략"]
        )
    return "grader", "\n".join([*lines, "[중간 신뢰도] 문서별 검증"])


def constraint_violations(d: Restaurant, plan: SearchPlan) -> list[str]:
    """The plan's hard constraints the document ``d`` breaks, by the index's own definitions
    (:mod:`matjip.index.reference`), so the grader and the index cannot disagree (the agent
    evaluation counts the same violations)."""
    out: list[str] = []
    if plan.titles and plan.intent in ("compare", "information"):
        # the named restaurant is the target; its other attributes are what the user asks about
        if not any(ref.title_matches(d.title, x) for x in plan.titles):
            out.append("이름 불일치")
        return out
    if plan.cuisine and not ref.cuisine_matches(d, plan.cuisine):
        out.append(f"음식 종류 {d.cuisine} ≠ {', '.join(plan.cuisine)}")
    out += [f"편의 '{c}' 없음" for c in plan.convenience if not ref.convenience_matches(d, [c])]
    out += [f"메뉴 '{m}' 없음" for m in plan.menu if not ref.menu_matches(d, [m])]
    # a dish that others serve too may stand in for the kind ("짜장면" on a menu)
    dish_ok = bool(plan.kind_dishes) and ref.menu_matches(d, plan.kind_dishes[:1])
    if (
        plan.kinds
        and not ref.kind_matches(d, plan.kinds)
        and not dish_ok
        # a neighbour standing in when too few were found (a bakery selling coffee for "카페")
        and kinds().stands_in(plan.kinds, d.kinds, [m.name for m in d.menus]) is None
    ):
        out.append(f"{'/'.join(plan.kinds)} 아님 ({d.category or d.cuisine})")
    if plan.exclude_kinds and ref.kind_matches(d, plan.exclude_kinds):
        out.append(f"제외한 종류 ({', '.join(k for k in plan.exclude_kinds if k in d.kinds)})")
    if plan.exclude_cuisine and ref.cuisine_matches(d, plan.exclude_cuisine):
        out.append(f"제외한 음식 종류 {d.cuisine}")
    out += [f"제외한 메뉴 '{m}' 있음" for m in plan.exclude_menu if ref.menu_matches(d, [m])]
    loc = plan.location
    if loc is not None and loc.by_radius and loc.lat is not None and loc.lon is not None and loc.radius_m:
        dist = ref.distance_m(d, loc.lat, loc.lon)
        if dist is None:
            out.append("좌표 없음")
        elif dist > loc.radius_m + 1:
            out.append(f"반경 {loc.radius_m}m 밖")
    if (
        loc is not None
        and loc.mode == "in"
        and loc.region_terms
        and not ref.address_matches(d, loc.region_terms)
    ):
        out.append(f"{loc.name} 밖")
    priced = plan.price_min is not None or plan.price_max is not None
    if priced and not ref.price_matches(d, PriceRange(min_won=plan.price_min, max_won=plan.price_max)):
        out.append("가격 조건 밖")
    return out


def offline_grade(shown: Sequence[Shown], plan: SearchPlan) -> Grade:
    scores: list[DocumentScore] = []
    wishes = [*plan.atmosphere, *plan.occasion]
    for s in shown:
        bad = constraint_violations(s.doc, plan)
        if bad:
            scores.append(
                DocumentScore(document_id=s.doc.place_id, relevance="irrelevant", reason="; ".join(bad))
            )
            continue
        reason = "모든 조건 충족"
        if wishes:
            have = set(s.doc.atmosphere) | set(s.doc.occasion) | set(s.doc.features)
            met = [w for w in wishes if w in have]
            reason += (
                f"; 분위기·상황 {len(met)}/{len(wishes)} 일치"
                if met
                else "; 분위기·상황은 의미 유사도로 선택"
            )
        scores.append(DocumentScore(document_id=s.doc.place_id, relevance="relevant", reason=reason))
    relevant = sum(1 for x in scores if x.relevance == "relevant")
    overall = "relevant" if relevant else "irrelevant"
    reason = f"{len(scores)}건 중 {relevant}건이 조건에 맞음" if scores else "검색 결과 없음"
    return Grade(overall_relevance=overall, reason=reason, document_scores=scores, tier="grader")
