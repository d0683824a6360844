"""RFC 9457 problem details: one JSON shape for every error the API returns.

Every error response has ``Content-Type: application/problem+json`` and the members ``type``,
``title``, ``status`` and ``detail`` (plus ``instance`` and optional extension members).
Tracebacks never leave the server; texts are scrubbed of configured secrets before they do.
"""

from __future__ import annotations

import json
from http import HTTPStatus
from typing import Any, Final

from fastapi import HTTPException
from pydantic import BaseModel, ConfigDict, Field
from starlette.responses import JSONResponse

from matjip.settings import redact, redact_data
from matjip.wording import table

PROBLEM_MEDIA_TYPE = "application/problem+json"
PROBLEM_BASE = "/problems/"  # a relative URI reference; GET it for a description

PROBLEM_TYPES: Final = table("api.problem_type")  # kind → what it means (GET /problems/{kind})


class Problem(BaseModel):
    """An RFC 9457 problem details object."""

    model_config = ConfigDict(extra="allow")

    type: str = Field("about:blank", description="A URI reference that identifies the problem type.")
    title: str = Field(description="A short, human-readable summary of the problem type.")
    status: int = Field(description="The HTTP status code.")
    detail: str = Field("", description="A human-readable explanation of this occurrence.")
    instance: str | None = Field(None, description="The request path this occurrence relates to.")


def _phrase(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Error"


def problem_body(
    status: int,
    detail: str = "",
    *,
    kind: str | None = None,
    title: str | None = None,
    instance: str | None = None,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "type": PROBLEM_BASE + kind if kind else "about:blank",
        "title": title or _phrase(status),
        "status": status,
        "detail": redact(detail),
    }
    if instance:
        body["instance"] = redact(instance)
    for key, value in (extra or {}).items():
        if key not in body:
            body[key] = redact_data(value)
    return body


def problem_response(
    status: int,
    detail: str = "",
    *,
    kind: str | None = None,
    title: str | None = None,
    instance: str | None = None,
    headers: dict[str, str] | None = None,
    extra: dict[str, Any] | None = None,
) -> JSONResponse:
    body = problem_body(status, detail, kind=kind, title=title, instance=instance, extra=extra)
    return JSONResponse(body, status_code=status, headers=headers, media_type=PROBLEM_MEDIA_TYPE)


def problem_bytes(status: int, detail: str = "", **kwargs: Any) -> bytes:
    return json.dumps(problem_body(status, detail, **kwargs), ensure_ascii=False).encode()


def from_http_exception(exc: HTTPException, instance: str | None = None) -> JSONResponse:
    detail = exc.detail if isinstance(exc.detail, str) else json.dumps(exc.detail, ensure_ascii=False)
    kind = {404: "not-found", 405: "method-not-allowed"}.get(exc.status_code)
    return problem_response(
        exc.status_code, detail, kind=kind, instance=instance, headers=dict(exc.headers or {}) or None
    )


# Shown in the OpenAPI schema for every route that can fail.
PROBLEM_CONTENT: dict[str, Any] = {PROBLEM_MEDIA_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}}


def problem_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {s: {"description": _phrase(s), "content": PROBLEM_CONTENT} for s in statuses}
