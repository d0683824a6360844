"""Sufficiency tiers (docs/design.md) and the offline relevance grader (docs/design.md).

Tier 1-2 read only the fused scores: a confident result set is accepted with no grader at all.
Otherwise the offline grader checks each document against the plan's constraints and its
semantic wishes; an LLM grader may replace it for the middle band when a provider is configured.
"""

from __future__ import annotations

from collections.abc import Sequence

from matjip.agent.cardinfo import plate_sharers
from matjip.agent.models import DocumentScore, Grade, SearchPlan, Shown
from matjip.agent.tuning import AgentConfig
from matjip.documents import Restaurant
from matjip.index import reference as ref
from matjip.index.request import PriceRange
from matjip.kinds import kinds
from matjip.wording import say, text


def tier(scores: Sequence[float], cfg: AgentConfig) -> tuple[str, str]:
    """Return (tier, reason): empty | confident | grader (middle band) | insufficient."""
    if not scores:
        return "empty", text("grade.tier.empty")
    top = max(scores)
    mean = sum(scores) / len(scores)
    high = sum(1 for s in scores if s >= cfg.any_high_threshold)
    lines = [say("grade.tier.top_k", top=top, threshold=cfg.top1_threshold)]
    if top < cfg.top1_threshold:
        return "insufficient", "\n".join([*lines, text("grade.tier.failed")])
    lines.append(say("grade.tier.cosine", mean=mean, threshold=cfg.any_high_threshold, high=high))
    if mean < cfg.mean_threshold and high == 0:
        return "insufficient", "\n".join([*lines, text("grade.tier.failed")])
    if top >= cfg.high_threshold:
        return "confident", "\n".join(
            [*lines, say("grade.tier.confident", top=top, threshold=cfg.high_threshold)]
        )
    return "grader", "\n".join([*lines, text("grade.tier.middle")])


def constraint_violations(d: Restaurant, plan: SearchPlan) -> list[str]:
    """The plan's hard constraints the document ``d`` breaks, by the index's own definitions
    (:mod:`matjip.index.reference`), so the grader and the index cannot disagree (the agent
    evaluation counts the same violations)."""
    out: list[str] = []
    if plan.titles and plan.intent in ("compare", "information"):
        # the named restaurant is the target; its other attributes are what the user asks about
        if not any(ref.title_matches(d.title, x) for x in plan.titles):
            out.append(text("grade.violation.name"))
        return out
    if plan.cuisine and not ref.cuisine_matches(d, plan.cuisine):
        out.append(say("grade.violation.cuisine", cuisine=d.cuisine, wanted=", ".join(plan.cuisine)))
    out += [
        say("grade.violation.convenience", value=c)
        for c in plan.convenience
        if not ref.convenience_matches(d, [c])
    ]
    out += [say("grade.violation.menu", menu=m) for m in plan.menu if not ref.menu_matches(d, [m])]
    # a dish that others serve too may stand in for the kind ("짜장면" on a menu)
    dish_ok = bool(plan.kind_dishes) and ref.menu_matches(d, plan.kind_dishes[:1])
    if (
        plan.kinds
        and not ref.kind_matches(d, plan.kinds)
        and not dish_ok
        # a neighbour standing in when too few were found (a bakery selling coffee for "카페")
        and kinds().stands_in(plan.kinds, d.kinds, [m.name for m in d.menus]) is None
    ):
        out.append(say("grade.violation.kind", kinds="/".join(plan.kinds), category=d.category or d.cuisine))
    if plan.exclude_kinds and ref.kind_matches(d, plan.exclude_kinds):
        excluded = ", ".join(k for k in plan.exclude_kinds if k in d.kinds)
        out.append(say("grade.violation.excluded_kind", kinds=excluded))
    if plan.exclude_cuisine and ref.cuisine_matches(d, plan.exclude_cuisine):
        out.append(say("grade.violation.excluded_cuisine", cuisine=d.cuisine))
    out += [
        say("grade.violation.excluded_menu", menu=m) for m in plan.exclude_menu if ref.menu_matches(d, [m])
    ]
    loc = plan.location
    if loc is not None and loc.by_radius and loc.lat is not None and loc.lon is not None and loc.radius_m:
        dist = ref.distance_m(d, loc.lat, loc.lon)
        if dist is None:
            out.append(text("grade.violation.no_coordinates"))
        elif dist > loc.radius_m + 1:
            out.append(say("grade.violation.outside_radius", radius=loc.radius_m))
    if (
        loc is not None
        and loc.mode == "in"
        and loc.region_terms
        and not ref.address_matches(d, loc.region_terms)
    ):
        out.append(say("grade.violation.outside_region", name=loc.name))
    priced = plan.price_min is not None or plan.price_max is not None
    # a plate shared under a budget per person may cost the bound times the people it feeds (cardinfo.plate_sharers)
    top = plan.price_max * plate_sharers(plan) if plan.price_max is not None else None
    if priced and not ref.price_matches(d, PriceRange(min_won=plan.price_min, max_won=top)):
        out.append(text("grade.violation.price"))
    return out


def kind_proven(shown: Sequence[Shown], grade: Grade, plan: SearchPlan) -> bool:
    """Every place shown is of a kind asked by its category path or its name (of the cuisine asked by
    its category path, when a cuisine alone is asked: "마포구청역 조용한 일식") and breaks no hard
    constraint: low fused scores then come from the soft wishes (혼밥, 캐주얼, 조용한), which the
    heading already says, and the answer needs no "검색 점수가 낮아서" caveat."""
    if not shown or any(d.relevance != "relevant" for d in grade.document_scores):
        return False
    if not plan.kinds:  # a cuisine alone: the category path says it (doc.cuisine), no dish or name asked
        cuisine_only = bool(plan.cuisine) and not (plan.menu or plan.titles)
        return cuisine_only and all(s.doc.cuisine in plan.cuisine for s in shown)
    return all(
        any(
            ev.field == "kind" and ev.value in plan.kinds and ev.source in ("category", "title")
            for ev in s.doc.evidence
        )
        for s in shown
    )


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
        reason = text("grade.grader.all_met")
        if wishes:
            have = set(s.doc.atmosphere) | set(s.doc.occasion) | set(s.doc.features)
            met = [w for w in wishes if w in have]
            reason += (
                say("grade.grader.wishes_met", met=len(met), wished=len(wishes))
                if met
                else text("grade.grader.wishes_semantic")
            )
        scores.append(DocumentScore(document_id=s.doc.place_id, relevance="relevant", reason=reason))
    relevant = sum(1 for x in scores if x.relevance == "relevant")
    overall = "relevant" if relevant else "irrelevant"
    reason = (
        say("grade.grader.overall", n=len(scores), relevant=relevant)
        if scores
        else text("grade.grader.no_results")
    )
    return Grade(overall_relevance=overall, reason=reason, document_scores=scores, tier="grader")
