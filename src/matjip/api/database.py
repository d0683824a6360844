"""Is PostgreSQL reachable? Answered from cached state, never by waiting on the database.

In PostgreSQL mode (``MATJIP_DATABASE_URL``) a daemon thread probes the server every
``database_probe_s`` seconds (``SELECT 1`` on its own connection, ``database_connect_timeout_s``
to connect). While the last probe failed, or a turn just failed on the database:

* turns, searches and the OpenAI-compatible endpoint answer at once with a 503 problem
  (``database-unavailable``) and ``Retry-After`` instead of waiting for pool timeouts;
* ``/health`` says ``degraded`` with the reason, within a second.

A turn that fails with a database error marks the database down at once (and wakes the probe),
so the next requests do not pile up behind it. Without a database URL the monitor always says
available and starts no thread.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from matjip.errors import DatabaseUnavailable, ProblemError
from matjip.wording import text

log = logging.getLogger("matjip.api")

RETRY_AFTER_S = 5
UNAVAILABLE = text("api.error.database_unavailable")


def is_database_failure(exc: BaseException | None) -> bool:
    """Whether ``exc`` (or an exception it was raised from) says the database is unreachable:
    a connection failure, a broken connection, no pooled connection in time."""
    seen = 0
    while exc is not None and seen < 10:
        if isinstance(exc, DatabaseUnavailable):
            return True
        for cls in type(exc).__mro__:
            module = cls.__module__ or ""
            if module.startswith(("psycopg", "psycopg_pool")) and cls.__name__ in (
                "OperationalError",
                "InterfaceError",
                "PoolTimeout",
                "PoolClosed",
            ):
                return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


class DatabaseMonitor:
    """Cached reachability of the PostgreSQL server (see the module docstring)."""

    def __init__(self, url: str | None, *, probe_s: float = 1.0, connect_timeout_s: int = 3) -> None:
        self.url = url
        self.probe_s = probe_s
        self.connect_timeout_s = connect_timeout_s
        self._available = True
        self._reason: str | None = None
        self._since = time.monotonic()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._conn: Any = None

    @property
    def enabled(self) -> bool:
        return self.url is not None

    @property
    def available(self) -> bool:
        return self._available

    @property
    def reason(self) -> str | None:
        return self._reason

    def start(self) -> None:
        if self.url is None or self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name="matjip-db-probe", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=self.connect_timeout_s + 1)
            self._thread = None
        self._drop()

    def note_failure(self, exc: BaseException) -> None:
        """A request failed on the database: say unavailable now and probe again at once."""
        if self.url is None:
            return
        self._set(False, type(exc).__name__)
        self._wake.set()

    def require(self) -> None:
        """Raise a 503 problem while the database is unreachable."""
        if not self._available:
            raise unavailable_problem()

    # -- the probe ---------------------------------------------------------------------------

    def _set(self, available: bool, reason: str | None) -> None:
        if available != self._available:
            self._since = time.monotonic()
            if available:
                log.warning("database reachable again")
            else:
                log.warning("database unreachable: %s", reason)
        self._available = available
        self._reason = None if available else reason

    def _drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                conn.close()
            except Exception:
                log.debug("closing the probe connection failed", exc_info=True)

    def probe(self) -> bool:
        """One probe: ``SELECT 1`` on the probe's own connection (reconnecting when needed)."""
        import psycopg

        try:
            if self._conn is None or self._conn.closed:
                self._conn = psycopg.connect(
                    self.url or "", autocommit=True, connect_timeout=self.connect_timeout_s
                )
            self._conn.execute("SELECT 1").fetchone()
        except Exception as exc:
            self._drop()
            self._set(False, type(exc).__name__)
            return False
        self._set(True, None)
        return True

    def _run(self) -> None:
        while not self._stop.is_set():
            self.probe()
            self._wake.wait(self.probe_s)
            self._wake.clear()


def unavailable_problem() -> ProblemError:
    return ProblemError(
        503, UNAVAILABLE, kind="database-unavailable", headers={"Retry-After": str(RETRY_AFTER_S)}
    )
