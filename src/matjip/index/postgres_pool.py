"""Connections to the PostgreSQL backend's database, shared by every pool of matjip (the search
index, the sessions, the OpenAI conversation map): the pool that survives restarts, the schema
migrations, the set-up lock, and the read replicas' URLs and their names in logs."""

from __future__ import annotations

import select
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

from matjip.errors import ConfigurationError
from matjip.index import pg_sql
from matjip.settings import Settings, secret


def migrate(conn: Any) -> int:
    """Bring the schema up to date (append-only migrations); returns the version."""
    with conn.transaction():
        conn.execute(pg_sql.LOCK_MIGRATIONS, {"key": pg_sql.MIGRATION_LOCK})
        conn.execute(pg_sql.CREATE_VERSION_TABLE)
        row = conn.execute(pg_sql.SCHEMA_VERSION).fetchone()
        version = int(row[0]) if row else 0
        for i, sql in enumerate(pg_sql.MIGRATIONS, start=1):
            if i <= version:
                continue
            conn.execute(sql)
            conn.execute(pg_sql.RECORD_VERSION, {"version": i})
            version = i
    return version


SETUP_LOCK_WAIT_S = 120
QUICK_CHECK_S = 5.0  # a connection back in the pool for less than this is checked without a round trip


def returned(conn: Any) -> None:
    """The pool's ``reset`` callback: when the connection came back (for :func:`quick_check`)."""
    conn._matjip_returned = time.monotonic()


def quick_check(conn: Any) -> None:
    """The pool's ``check`` for the search connections: one that came back less than
    ``QUICK_CHECK_S`` ago and whose socket has nothing to read is handed out without a round
    trip (a server that shut down, crashed or ended the session has closed the socket or sent
    its error, so the socket is readable); otherwise the pool's own check (an empty statement),
    which raises on a broken connection. Saves a round trip a search."""
    from psycopg_pool import ConnectionPool

    back = getattr(conn, "_matjip_returned", None)
    if back is not None and time.monotonic() - back < QUICK_CHECK_S and not conn.closed and _quiet(conn):
        return
    ConnectionPool.check_connection(conn)


def _quiet(conn: Any) -> bool:
    """Nothing to read on the connection's socket — by ``poll``, which (unlike ``select``) takes any
    descriptor number: a process with more than 1,024 files open made ``select`` raise, and every
    connection failed its check."""
    try:
        poller = select.poll()
        poller.register(conn.pgconn.socket, select.POLLIN)
        return not poller.poll(0)
    except (OSError, ValueError):
        return False


def connection_pool(
    url: str,
    settings: Settings,
    *,
    name: str,
    max_size: int,
    kwargs: dict[str, Any] | None = None,
    quick: bool = False,
) -> Any:
    """A psycopg pool that survives the database restarting, the same for every pool of matjip:
    a connection is checked before it is handed out (a broken one is dropped and replaced), a
    request waits at most ``database_timeout_s`` for one, a new connection may take at most
    ``database_connect_timeout_s``, and reconnection attempts give up after a few seconds instead
    of backing off for minutes, so the next request after the database is back connects at once.
    ``quick``: a connection used a moment ago is checked without a round trip (:func:`quick_check`)."""
    try:
        from psycopg_pool import ConnectionPool
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ConfigurationError("PostgreSQL needs psycopg: pip install 'psycopg[binary,pool]'") from e
    return ConnectionPool(
        url,
        min_size=1,
        max_size=max_size,
        kwargs={"autocommit": True, "connect_timeout": settings.database_connect_timeout_s, **(kwargs or {})},
        check=quick_check if quick else ConnectionPool.check_connection,
        reset=returned if quick else None,
        timeout=settings.database_timeout_s,
        reconnect_timeout=max(1.0, 2 * settings.database_probe_s),
        open=True,
        name=name,
    )


@contextmanager
def setup_lock(conn: Any) -> Iterator[None]:
    """Hold the set-up advisory lock on ``conn`` (autocommit) for the block: workers that start
    together create their tables one after another (``CREATE TABLE IF NOT EXISTS`` and LangGraph's
    migration table both fail when two sessions race on them).

    The lock is polled, never waited on inside a statement: LangGraph's ``CREATE INDEX CONCURRENTLY``
    waits for every open transaction, so a worker blocked in ``pg_advisory_lock`` would deadlock it."""
    deadline = time.monotonic() + SETUP_LOCK_WAIT_S
    while True:
        row = conn.execute(pg_sql.TRY_LOCK_SETUP, {"key": pg_sql.SETUP_LOCK}).fetchone()
        got = row["got"] if isinstance(row, dict) else row[0]
        if got:
            break
        if time.monotonic() > deadline:
            raise TimeoutError(f"another worker held the set-up lock for over {SETUP_LOCK_WAIT_S} s")
        time.sleep(0.05)
    try:
        yield
    finally:
        conn.execute(pg_sql.UNLOCK_SETUP, {"key": pg_sql.SETUP_LOCK})


def read_urls(settings: Settings) -> list[str]:
    """The replica URLs of ``MATJIP_DATABASE_READ_URLS`` (comma-separated), in order."""
    return [u.strip() for u in (secret(settings.database_read_urls) or "").split(",") if u.strip()]


def url_label(url: str, fallback: str) -> str:
    """``host:port/database`` of a URL, never its user or password (for logs and stats)."""
    try:
        parts = urlsplit(url)
        if parts.scheme.startswith("postgres") and parts.hostname:
            return f"{parts.hostname}{f':{parts.port}' if parts.port else ''}{parts.path}"
    except ValueError:
        pass
    return fallback
