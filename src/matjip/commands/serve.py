"""``matjip serve``: the HTTP API and the web page, on uvicorn (``--workers N``:
:mod:`matjip.commands.workers`)."""

from __future__ import annotations

import logging
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


def run_serve(
    settings: Settings,
    host: str,
    port: int,
    *,
    log_level: str = "info",
    access_log: bool = True,
    workers: int = 1,
) -> None:
    import uvicorn

    from matjip.commands.ingest import ensure_index

    ensure_index(settings)  # a fresh machine: ingest + index the demo data first
    logging.basicConfig(level=log_level.upper(), format=LOG_FORMAT)
    display_host = f"[{host}]" if ":" in host else host
    logging.getLogger("matjip.api").info(
        "matjip serve: http://%s:%d/ (API docs: /docs, data dir: %s%s)",
        display_host,
        port,
        settings.data_dir,
        f", {workers} workers" if workers > 1 else "",
    )
    if workers > 1:
        from matjip.commands.workers import Supervisor

        supervisor = Supervisor(settings, host, port, workers, log_level=log_level, access_log=access_log)
        if supervisor.run():
            raise SystemExit(1)
        return
    from matjip.api import create_app

    app = create_app(settings)
    uvicorn.Server(
        uvicorn_config(settings, app, host, port, log_level=log_level, access_log=access_log)
    ).run()
