"""``matjip serve``: the HTTP API and the web page, on uvicorn."""

from __future__ import annotations

import logging

from matjip.settings import Settings


def run_serve(
    settings: Settings, host: str, port: int, *, log_level: str = "info", access_log: bool = True
) -> None:
    import uvicorn

    from matjip.api import create_app
    from matjip.commands.ingest import ensure_index

    ensure_index(settings)  # a fresh machine: ingest + index the demo data first
    logging.basicConfig(level=log_level.upper(), format="%(levelname)s:     %(name)s: %(message)s")
    app = create_app(settings)
    display_host = f"[{host}]" if ":" in host else host
    logging.getLogger("matjip.api").info(
        "matjip serve: http://%s:%d/ (API docs: /docs, data dir: %s)", display_host, port, settings.data_dir
    )
    uvicorn.run(
        app, host=host, port=port, log_level=log_level, access_log=access_log, timeout_graceful_shutdown=5
    )
