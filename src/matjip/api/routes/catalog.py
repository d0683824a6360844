"""Lookups: a restaurant's full document, the gazetteer, the offline base map, health."""

from __future__ import annotations

import gzip
import json
import os
from functools import lru_cache
from typing import Annotated, Any, Literal

import anyio
from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import JSONResponse, Response

from matjip import __version__
from matjip.api.problems import problem_responses
from matjip.api.schemas import (
    CoverageRegion,
    CoverageResponse,
    EmbedderInfo,
    HealthResponse,
    PlaceCandidate,
    PlacesResponse,
)
from matjip.api.state import Api
from matjip.documents import Restaurant
from matjip.errors import ProblemError
from matjip.index.backend import SearchBackend
from matjip.settings import PACKAGE_DATA
from matjip.wording import say, text
from matjip.words import words

router = APIRouter()

GeoName = Literal["seoul_gu", "korea_sigungu", "seoul_legal_dong"]
# Administrative code prefixes of the capital region (old and new codes): Seoul, Incheon, Gyeonggi.
CAPITAL_PREFIXES: tuple[str, ...] = words("sido", "capital_code_prefixes")


@router.get(
    "/v1/restaurants/{place_id}",
    response_model=Restaurant,
    response_model_by_alias=False,
    tags=["restaurants"],
    summary="A restaurant's full document",
    responses=problem_responses(404, 429, 503),
)
async def restaurant(
    api: Api,
    place_id: Annotated[
        str,
        Path(
            min_length=1,
            max_length=64,
            description="The place id (Kakao).",
            examples=["1933726193"],  # the first record of the demo data (a 200 for the examples phase)
        ),
    ],
) -> Restaurant:
    await api.require_agent()
    res = api.resources()
    index = getattr(res, "index", None)
    if index is None:
        raise ProblemError(503, text("api.error.index_unavailable"), kind="index-unavailable")
    doc = await anyio.to_thread.run_sync(index.get, place_id)
    if doc is None:
        raise ProblemError(404, say("api.error.unknown_restaurant", place_id=place_id), kind="not-found")
    assert isinstance(doc, Restaurant)
    return doc


def _candidate(place: Any) -> PlaceCandidate:
    return PlaceCandidate(
        name=str(getattr(place, "name", "") or getattr(place, "display_name", "")),
        display_name=str(getattr(place, "display_name", "") or getattr(place, "name", "")),
        type=str(getattr(place, "type", "")),
        type_label=getattr(place, "type_label", None),
        region=getattr(place, "region", None) or None,
        lat=float(place.lat),
        lon=float(place.lon),
        default_radius_m=getattr(place, "default_radius_m", None),
    )


@router.get(
    "/v1/places",
    response_model=PlacesResponse,
    tags=["places"],
    summary="Gazetteer lookup (stations, neighbourhoods, districts, landmarks)",
    responses=problem_responses(422, 429, 503),
)
async def places(
    api: Api,
    q: Annotated[str, Query(min_length=1, max_length=100, description="A place name", examples=["양평역"])],
) -> PlacesResponse:
    gazetteer = await api.gazetteer()
    name = q.strip()
    if not name:
        return PlacesResponse(query=q)
    found = await anyio.to_thread.run_sync(gazetteer.lookup, name)
    is_ambiguous = getattr(gazetteer, "is_ambiguous", None)
    ambiguous = bool(is_ambiguous(name)) if callable(is_ambiguous) and len(found) > 1 else False
    return PlacesResponse(query=q, ambiguous=ambiguous, candidates=[_candidate(p) for p in found])


@lru_cache(maxsize=8)
def _geojson_gzip(name: str, region: str) -> bytes:
    return gzip.compress(_geojson(name, region), compresslevel=6, mtime=0)


@lru_cache(maxsize=8)
def _geojson(name: str, region: str) -> bytes:
    path = PACKAGE_DATA / "geo" / f"{name}.geojson"
    raw = path.read_bytes()
    if region == "all":
        return raw
    data = json.loads(raw)

    def code(feature: dict[str, Any]) -> str:
        props = feature.get("properties") or {}
        return str(
            props.get("code") or props.get("SIG_CD") or props.get("EMD_CD") or props.get("adm_cd") or ""
        )

    data["features"] = [f for f in data.get("features", []) if code(f).startswith(CAPITAL_PREFIXES)]
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


@router.get(
    "/v1/geo/{name}",
    tags=["map"],
    summary="Administrative boundaries as GeoJSON (the web map's offline base layer)",
    response_class=Response,
    responses={
        200: {"description": "A GeoJSON FeatureCollection", "content": {"application/geo+json": {}}},
        **problem_responses(404, 422, 429),
    },
)
async def geo(
    request: Request,
    name: GeoName,
    region: Annotated[
        Literal["all", "capital"], Query(description="`capital`: only Seoul, Incheon and Gyeonggi features")
    ] = "all",
) -> Response:
    body = await anyio.to_thread.run_sync(_geojson, name, region)
    return Response(
        body, media_type="application/geo+json", headers={"Cache-Control": "public, max-age=86400"}
    )


HEALTH_BUDGET_S = 0.6  # /health answers within a second, whatever the index or the database do


async def _index_health(index: SearchBackend, configured: str) -> tuple[int, EmbedderInfo, str | None]:
    """The index's size, its embedder and its self-check (files, a newer version), each read in a
    worker thread that is abandoned when the caller's time budget runs out."""
    documents = int(await anyio.to_thread.run_sync(index.count, abandon_on_cancel=True))
    stats = await anyio.to_thread.run_sync(index.stats, abandon_on_cancel=True)
    embedder = EmbedderInfo(name=configured, configured=configured)
    built = stats.get("embedder") if isinstance(stats, dict) else None
    if isinstance(built, dict):  # the index reports {"name": ..., "dim": ...}
        dim = built.get("dim")
        embedder = EmbedderInfo(
            name=str(built.get("name") or configured),
            dim=int(dim) if isinstance(dim, int | float) else None,
            configured=configured,
        )
    elif isinstance(built, str) and built:
        embedder = EmbedderInfo(name=built, configured=configured)
    problem: str | None = None
    try:
        problem = await anyio.to_thread.run_sync(index.health, abandon_on_cancel=True)
    except Exception as exc:
        problem = type(exc).__name__
    return documents, embedder, problem


@router.get("/health", response_model=HealthResponse, tags=["meta"], summary="Service health")
async def health(api: Api) -> JSONResponse:
    """Answers within a second from cached state: ``ok`` only when the index is loaded and nothing
    is wrong; ``degraded`` with the reason in ``detail`` otherwise (e.g. the database is away)."""
    s = api.settings
    if api.agent is None:
        api.load_agent_in_background()
    res = api.resources()
    index = getattr(res, "index", None)
    documents: int | None = None
    embedder = EmbedderInfo(name=s.embedder, configured=s.embedder)
    detail: str | None = None
    database_down = api.database.enabled and not api.database.available
    if database_down:
        detail = say("api.health.database_down", reason=api.database.reason)
        documents = api.last_documents
    elif index is not None:
        try:
            with anyio.fail_after(HEALTH_BUDGET_S):  # one budget for every index call below
                documents, embedder, problem = await _index_health(index, s.embedder)
            api.last_documents = documents
            if problem:
                detail = say("api.health.index_problem", problem=problem)
        except Exception:
            detail = text("api.health.index_slow")
    loaded = api.agent is not None and index is not None and documents is not None
    if api.agent is None:
        detail = detail or (api.agent_error and text("api.error.index_ingest_health"))
    body = HealthResponse(
        status="ok" if loaded and detail is None else "degraded",
        version=__version__,
        index_loaded=loaded,
        documents=documents,
        embedder=embedder,
        data_key=s.data_key,
        llm_provider=s.llm_provider,
        providers={
            "llm": s.llm_provider != "none",
            "web_search": bool(s.tavily_api_key),
        },
        detail=detail,
        worker_pid=os.getpid(),
    )
    return JSONResponse(body.model_dump(mode="json"), status_code=200)


@router.get(
    "/v1/coverage",
    response_model=CoverageResponse,
    tags=["meta"],
    summary="What the data covers (districts with most restaurants)",
    responses=problem_responses(429, 503),
)
async def coverage(api: Api) -> CoverageResponse:
    from matjip.agent.coverage import coverage_summary

    await api.require_agent()
    res = api.resources()
    if res is None or getattr(res, "index", None) is None:
        raise ProblemError(503, text("api.error.index_unavailable"), kind="index-unavailable")
    summary = await anyio.to_thread.run_sync(coverage_summary, res)
    return CoverageResponse(
        documents=summary.documents,
        regions=[CoverageRegion(sido=a, sigungu=b, restaurants=n) for a, b, n in summary.regions],
        summary=summary.line,
    )
