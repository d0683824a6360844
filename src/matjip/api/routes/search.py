"""``GET /v1/search``: docs/design.md's search API, adapted to restaurants."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from matjip.agent.models import Card, TurnResult
from matjip.api.problems import problem_responses
from matjip.api.routes.chat import check_message
from matjip.api.schemas import SESSION_ID_PATTERN, ParsedQuery, SearchResponse
from matjip.api.state import Api
from matjip.api.turns import run_turn
from matjip.settings import redact_data
from matjip.wording import say, text

router = APIRouter(tags=["search"])

_FILTER_FIELDS = (
    "titles",
    "cuisine",
    "menu",
    "convenience",
    "atmosphere",
    "occasion",
    "price_min",
    "price_max",
    "open_label",
)


def _josa_i_ga(word: str) -> str:
    """'이' after a final consonant, '가' otherwise; '이(가)' when undecidable (docs/design.md style)."""
    last = word.rstrip()[-1:] if word.strip() else ""
    if "가" <= last <= "힣":
        return "이" if (ord(last) - 0xAC00) % 28 else "가"
    return "이(가)"


def summary_for(query: str, result: TurnResult, cards: list[Card], top_score: float) -> str:
    if result.clarification is not None:
        return result.clarification.question
    if not cards:
        return say("api.search.none", query=query)
    top = cards[0]
    pct = round(max(0.0, min(1.0, top_score or top.score)) * 100)
    return say(
        "api.search.found", query=query, n=len(cards), top=top.name, particle=_josa_i_ga(top.name), pct=pct
    )


def parsed_query_for(result: TurnResult) -> ParsedQuery:
    nlu = result.nlu or {}
    entities = {k: list(v) for k, v in (nlu.get("entities") or {}).items() if isinstance(v, list) and v}
    filters: dict[str, Any] = {}
    plan = result.plan
    if plan is not None:
        dumped = plan.model_dump(mode="json")
        for key in _FILTER_FIELDS:
            value = dumped.get(key)
            if value not in (None, [], ""):
                filters[key] = value
        if plan.location is not None:
            filters["location"] = plan.location.model_dump(mode="json", exclude_defaults=False)
        if plan.open_at is not None:
            filters["open_at"] = plan.open_at.isoformat()
    return ParsedQuery(
        intent=result.intent or (plan.intent if plan else None),
        entities=entities,
        filters=filters,
        sort_preference=plan.sort if plan else "relevance",
    )


def search_response(query: str, result: TurnResult) -> SearchResponse:
    cards = [c.model_copy() for c in result.cards]
    for w in result.web_sources:
        cards.append(
            Card(
                id=w.url or w.title,
                name=w.title,
                cuisine=text("answer.web.cuisine"),
                source_type="web",
                url=w.url,
            )
        )
    grade = result.grade
    top_score = (
        grade.top_score
        if grade is not None and grade.top_score
        else max((c.score for c in cards), default=0.0)
    )
    if grade is not None:
        sufficient = grade.overall_relevance == "relevant" and bool(result.cards)
        reason = f"[{grade.tier}] {grade.reason}"
    else:
        sufficient = bool(result.cards)
        reason = (
            text("api.search.reused")
            if result.reused
            else ("" if result.cards else text("api.search.not_searched"))
        )
    return SearchResponse(
        session_id=result.session_id,
        summary=summary_for(query, result, cards, top_score),
        answer=result.answer,
        restaurants=cards,
        total_count=len(cards),
        parsed_query=parsed_query_for(result),
        top_score=round(float(top_score), 4),
        is_sufficient=sufficient,
        sufficiency_reason=reason,
        web_sources=result.web_sources,
        clarification=result.clarification,
    )


@router.get(
    "/v1/search",
    response_model=SearchResponse,
    summary="Search restaurants (one turn, JSON)",
    responses=problem_responses(400, 422, 429, 503, 504),
)
async def search(
    api: Api,
    query: Annotated[
        str,
        Query(
            min_length=1,
            pattern=r"\S",
            description="The question, e.g. 강남역 일식",
            examples=["강남역 일식"],
        ),
    ],
    session_id: Annotated[
        str | None,
        Query(pattern=SESSION_ID_PATTERN, description="Continue this session (omitted: a new one)."),
    ] = None,
    lat: Annotated[
        float | None,
        Query(ge=-90, le=90, description="GPS latitude (used together with lon; alone it is ignored)."),
    ] = None,
    lon: Annotated[
        float | None,
        Query(ge=-180, le=180, description="GPS longitude (used together with lat; alone it is ignored)."),
    ] = None,
) -> SearchResponse:
    check_message(query, api.settings.max_message_chars, field="query")
    # a position needs both: a lone lat or lon is ignored (the schema cannot say "both or neither")
    location = {"lat": lat, "lon": lon} if lat is not None and lon is not None else None
    agent = await api.require_agent()
    result = await run_turn(api, agent, query, session_id, location)
    response = search_response(query, result)
    return SearchResponse.model_validate(redact_data(response.model_dump(mode="json")))
