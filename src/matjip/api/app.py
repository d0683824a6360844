"""The FastAPI application: ``create_app(settings, agent=None)``.

Routes: ``POST /v1/chat`` (SSE or JSON), ``GET /v1/search``, ``GET /v1/restaurants/{id}``,
``GET /v1/places``, ``GET /v1/geo/{name}``, ``GET /health``, the OpenAI-compatible
``POST /v1/chat/completions`` and ``GET /v1/models``, and the web page at ``/``.
Every error is an RFC 9457 problem (``application/problem+json``).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.openapi.utils import get_openapi
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from matjip import __version__
from matjip.agent.models import TurnResult
from matjip.api.database import DatabaseMonitor
from matjip.api.middleware import (
    BodySizeLimitMiddleware,
    CatchAllMiddleware,
    RateLimitMiddleware,
    TokenBucketLimiter,
    WorkerHeaderMiddleware,
)
from matjip.api.problems import (
    PROBLEM_BASE,
    PROBLEM_CONTENT,
    PROBLEM_TYPES,
    Problem,
    from_http_exception,
    problem_response,
)
from matjip.api.routes import catalog, chat, openai_compat, search
from matjip.api.runner import AgentLike, TurnRunner
from matjip.api.schemas import OAChatCompletion
from matjip.api.sessions import ConversationSessions
from matjip.api.state import ApiState
from matjip.errors import ProblemError
from matjip.settings import (
    Settings,
    install_log_redaction,
    register_secret,
    register_settings_secrets,
    secret,
)
from matjip.wording import say, text

log = logging.getLogger("matjip.api")

STATIC_DIR = Path(__file__).parent / "static"

DESCRIPTION = """\
맛집 검색·질의응답 에이전트 API (Korean restaurant search and Q&A).

* `POST /v1/chat` streams a turn as Server-Sent Events (default, or `Accept: text/event-stream`)
  or answers JSON (`Accept: application/json`).
* `GET /v1/search` answers docs/design.md search response shape.
* OpenAI-compatible `POST /v1/chat/completions` and `GET /v1/models` (model `matjip-agent`).
* Errors are RFC 9457 problem details (`application/problem+json`).
* Limits: request body size, message length, per-client-IP rate limit (429 with `Retry-After`),
  and a time limit per turn (504 / an SSE `error` event).
"""


def _problem_extra(request: Request, status: int, detail: str) -> dict[str, Any] | None:
    """OpenAI SDKs read ``error.message``; give them one next to the problem members."""
    if request.url.path.startswith(("/v1/chat/completions", "/v1/models")):
        kind = (
            "rate_limit_error"
            if status == 429
            else "invalid_request_error"
            if status < 500
            else "server_error"
        )
        return {"error": {"message": detail, "type": kind, "code": status, "param": None}}
    return None


def _install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ProblemError)
    async def _problem(request: Request, exc: ProblemError) -> JSONResponse:
        return problem_response(
            exc.status,
            exc.detail,
            kind=exc.kind,
            title=exc.title,
            instance=request.url.path,
            headers=exc.headers or None,
            extra={**exc.extra, **(_problem_extra(request, exc.status, exc.detail) or {})},
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 404 and isinstance(exc.detail, str) and exc.detail == "Not Found":
            exc = StarletteHTTPException(404, say("api.error.no_path", path=request.url.path))
        return from_http_exception(exc, instance=request.url.path)  # type: ignore[arg-type]

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = [
            {"loc": list(e.get("loc", ())), "msg": str(e.get("msg", "")), "type": str(e.get("type", ""))}
            for e in exc.errors()
        ]
        if any(e["type"] == "string_unicode" for e in errors):
            detail = text("api.error.invalid_unicode")
            extra400: dict[str, Any] = {"errors": errors, **(_problem_extra(request, 400, detail) or {})}
            return problem_response(
                400, detail, kind="invalid-text", instance=request.url.path, extra=extra400
            )
        first = errors[0] if errors else {"loc": [], "msg": ""}
        where = ".".join(str(p) for p in first["loc"])
        detail = (
            say("api.error.invalid_request_at", where=where, message=first["msg"])
            if where
            else text("api.error.invalid_request")
        )
        extra: dict[str, Any] = {"errors": errors}
        extra.update(_problem_extra(request, 422, detail) or {})
        return problem_response(422, detail, kind="validation-error", instance=request.url.path, extra=extra)


def _problems_everywhere(schema: dict[str, Any]) -> None:
    """Say what the server really sends: every error is ``application/problem+json``; an operation
    that reads a body or parameters can answer 400 (unparsable body, invalid text) and 422."""
    for ops in schema.get("paths", {}).values():
        for op in ops.values():
            responses = op.setdefault("responses", {})
            if "requestBody" in op or op.get("parameters"):
                responses.setdefault("400", {"description": "Bad Request"})
                responses.setdefault("422", {"description": "Unprocessable Entity"})
            for status, response in responses.items():
                if not str(status).startswith("2"):
                    response["content"] = dict(PROBLEM_CONTENT)
    schema.get("components", {}).get("schemas", {}).pop("HTTPValidationError", None)
    schema.get("components", {}).get("schemas", {}).pop("ValidationError", None)


def _message_limits(schema: dict[str, Any], max_chars: int) -> None:
    """The configured message length limit, where one text is the whole question."""
    chat = schema.get("components", {}).get("schemas", {}).get("ChatRequest", {})
    message = chat.get("properties", {}).get("message")
    if isinstance(message, dict):
        message["maxLength"] = max_chars
    for param in schema.get("paths", {}).get("/v1/search", {}).get("get", {}).get("parameters", []):
        if param.get("name") == "query":
            param.setdefault("schema", {})["maxLength"] = max_chars


def _install_openapi(app: FastAPI) -> None:
    def custom_openapi() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        schema = get_openapi(
            title=app.title,
            version=app.version,
            description=app.description,
            routes=app.routes,
            tags=app.openapi_tags,
        )
        components = schema.setdefault("components", {}).setdefault("schemas", {})
        for model in (Problem, TurnResult, OAChatCompletion):
            model_schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
            for name, sub in (model_schema.pop("$defs", None) or {}).items():
                components.setdefault(name, sub)
            components.setdefault(model.__name__, model_schema)
        _problems_everywhere(schema)
        _message_limits(schema, app.state.api.settings.max_message_chars)
        app.openapi_schema = schema
        return schema

    app.openapi = custom_openapi  # type: ignore[method-assign]


def create_app(settings: Settings | None = None, agent: AgentLike | None = None) -> FastAPI:
    """Build the app. Without ``agent``, one is created from ``settings`` at startup (or on first use)."""
    settings = settings or Settings()
    register_settings_secrets(settings)
    install_log_redaction()
    database_url = secret(settings.database_url)
    # the password of every database URL (primary and replicas): a driver error may quote it
    for url in [database_url, *(secret(settings.database_read_urls) or "").split(",")]:
        if url and url.strip():
            from urllib.parse import urlsplit

            register_secret(urlsplit(url.strip()).password)
    sessions_db = settings.data_dir / "openai_conversations.sqlite" if settings.data_dir.exists() else None
    state = ApiState(
        settings=settings,
        agent=agent,
        # turns waiting on a provider hold a worker: give them their own share (providers/guard.py)
        runner=TurnRunner(
            max_workers=settings.turn_workers
            + (settings.llm_max_concurrency if settings.llm_provider != "none" else 0)
        ),
        conversations=ConversationSessions(
            sessions_db,
            database_url=database_url,
            settings=settings,
        ),
        database=DatabaseMonitor(
            database_url or None,
            probe_s=settings.database_probe_s,
            connect_timeout_s=settings.database_connect_timeout_s,
        ),
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        state.database.start()
        if state.agent is None:
            await state.load_agent()
        try:
            yield
        finally:
            state.close()

    app = FastAPI(
        title="matjip",
        version=__version__,
        description=DESCRIPTION,
        lifespan=lifespan,
        openapi_tags=[
            {"name": "chat", "description": "Conversation turns"},
            {"name": "search", "description": "docs/design.md search API"},
            {"name": "openai", "description": "OpenAI-compatible endpoints"},
        ],
    )
    app.state.api = state
    _install_error_handlers(app)
    _install_openapi(app)

    app.include_router(chat.router)
    app.include_router(search.router)
    app.include_router(catalog.router)
    app.include_router(openai_compat.router)

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC_DIR / "index.html", media_type="text/html; charset=utf-8")

    @app.get("/problems/{kind}", include_in_schema=False)
    async def problem_type(kind: str) -> JSONResponse:
        if kind not in PROBLEM_TYPES:
            raise ProblemError(404, say("api.error.unknown_problem_type", kind=kind), kind="not-found")
        return JSONResponse({"type": PROBLEM_BASE + kind, "description": PROBLEM_TYPES[kind]})

    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

    # Middleware: the last added is the outermost. Order, outside in:
    # CORS → worker header → gzip → body size → rate limit → catch-all → routes.
    app.add_middleware(CatchAllMiddleware)
    limiter = (
        TokenBucketLimiter(settings.rate_limit_per_minute) if settings.rate_limit_per_minute > 0 else None
    )
    app.add_middleware(RateLimitMiddleware, limiter=limiter)
    app.add_middleware(BodySizeLimitMiddleware, max_bytes=settings.max_body_bytes)
    app.add_middleware(GZipMiddleware, minimum_size=2048)
    app.add_middleware(WorkerHeaderMiddleware)
    if settings.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=settings.cors_origins,
            allow_methods=["GET", "POST", "OPTIONS"],
            allow_headers=["*"],
            expose_headers=["Retry-After", "X-Matjip-Session", "X-Matjip-Worker"],
        )
    return app
