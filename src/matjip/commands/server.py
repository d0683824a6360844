"""The uvicorn configuration and log format a server runs with: ``matjip serve``'s single process and
each of its workers (:mod:`matjip.commands.workers`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from matjip.settings import Settings

if TYPE_CHECKING:
    import uvicorn


LOG_FORMAT = "%(levelname)s:     %(name)s: %(message)s"


def uvicorn_config(
    settings: Settings,
    app: Any,
    host: str,
    port: int,
    *,
    log_level: str = "info",
    access_log: bool = True,
) -> uvicorn.Config:
    """The uvicorn configuration ``matjip serve`` runs with.

    ``X-Forwarded-For`` / ``X-Forwarded-Proto`` are honoured only from the proxies listed in
    ``settings.trusted_proxies`` (none by default): uvicorn would otherwise trust them from
    127.0.0.1, and a local client could pick any address for the per-client rate limit.
    """
    import uvicorn

    trusted = [p.strip() for p in settings.trusted_proxies if p.strip()]
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        access_log=access_log,
        timeout_graceful_shutdown=5,
        proxy_headers=bool(trusted),
        forwarded_allow_ips=",".join(trusted) if trusted else "",
    )
