"""``matjip serve``: the HTTP API and the web page, on uvicorn (``--workers N``:
:mod:`matjip.commands.workers`)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from matjip.commands.server import LOG_FORMAT, uvicorn_config
from matjip.settings import Settings

if TYPE_CHECKING:
    pass


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
