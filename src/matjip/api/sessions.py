"""Map an OpenAI-style conversation (the whole history, resent every turn) onto an agent session.

Every request belongs to a **client namespace**: a hash of the API key it sends
(``Authorization: Bearer …``); requests without a key share the empty namespace. Session ids
carry their namespace (``oa-<ns>-<id>``), so two clients with different keys can never land in
the same session. Within a namespace, in this order:

* ``X-Matjip-Session`` request header: the id the server returned in the ``X-Matjip-Session``
  response header of an earlier turn. Echoing it is the robust way to continue a conversation
  (it survives edited or regenerated histories). An id of another namespace, or one this server
  never issued in that shape, is ignored (a new session starts).
* ``user`` field: one session per (key, user) (``oa-u-<hash>``).
* Otherwise the key is a hash of the namespace and of the conversation *before* the last user
  message (user and assistant messages, whitespace-normalised; system messages are ignored
  because chat UIs rewrite them). After a turn, the hash of the history *including* this turn's
  question and answer is put in a pool for the session; the next request that resends exactly that
  history takes the session out of the pool. Each remembered history continues **one** request:
  two clients whose conversations are identical so far (same key, same question, same answer) each
  take their own session from the pool (their states are identical up to that point), so they never
  share one afterwards. A first message (no history) starts a new session; a history the server has
  never seen (or whose pool is spent, e.g. a regenerated answer) gets a session id derived from
  its hash.
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
import threading
import uuid
from collections import OrderedDict, deque
from pathlib import Path
from typing import Any

from matjip.settings import Settings

SESSION_HEADER = "X-Matjip-Session"
_ISSUED = re.compile(r"^oa-(?:([0-9a-f]{12})-)?(?:u-|h-)?[0-9a-f]{32}$")


def _norm(text: str) -> str:
    return " ".join(text.split())


def client_namespace(authorization: str | None) -> str:
    """The namespace of a request: a short hash of its API key ("" without one)."""
    if not authorization:
        return ""
    scheme, _, token = authorization.strip().partition(" ")
    key = token.strip() if scheme.lower() == "bearer" else authorization.strip()
    if not key:
        return ""
    return hashlib.sha256(("key:" + key).encode()).hexdigest()[:12]


def _prefix(namespace: str) -> str:
    return f"oa-{namespace}-" if namespace else "oa-"


def conversation_key(messages: list[tuple[str, str]], namespace: str = "") -> str:
    """Hash of the namespace and the (role, text) pairs of user/assistant messages."""
    kept = [[role, _norm(text)] for role, text in messages if role in ("user", "assistant")]
    raw = json.dumps(kept, ensure_ascii=False, separators=(",", ":"))
    if namespace:
        raw = namespace + "\n" + raw
    return hashlib.sha256(raw.encode()).hexdigest()


def user_session_id(user: str, namespace: str = "") -> str:
    """The session of a ``user`` within a client namespace."""
    salt = f"{namespace}\n" if namespace else ""
    return _prefix(namespace) + "u-" + hashlib.sha256((salt + "user:" + user).encode()).hexdigest()[:32]


def echoed_session(header: str | None, namespace: str) -> str | None:
    """The session id echoed in ``X-Matjip-Session`` when it belongs to ``namespace``, else None."""
    if not header:
        return None
    m = _ISSUED.match(header.strip())
    if m is None or (m.group(1) or "") != namespace:
        return None
    return header.strip()


_PG_CREATE = (
    "CREATE TABLE IF NOT EXISTS matjip_conversation_pool "
    "(seq bigserial PRIMARY KEY, key text NOT NULL, session_id text NOT NULL)"
)
_PG_INDEX = "CREATE INDEX IF NOT EXISTS matjip_conversation_pool_key ON matjip_conversation_pool (key)"
_PG_TAKE = (
    "DELETE FROM matjip_conversation_pool WHERE seq = (SELECT seq FROM matjip_conversation_pool "
    "WHERE key = %(key)s ORDER BY seq LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING session_id"
)
_PG_PUT = (
    "INSERT INTO matjip_conversation_pool (key, session_id) SELECT %(key)s, %(sid)s WHERE NOT EXISTS "
    "(SELECT 1 FROM matjip_conversation_pool WHERE key = %(key)s AND session_id = %(sid)s)"
)


_SQLITE_TAKE = (
    "DELETE FROM conversation_pool WHERE seq = (SELECT seq FROM conversation_pool WHERE key = ? "
    "ORDER BY seq LIMIT 1) RETURNING session_id"
)
_SQLITE_PUT = (
    "INSERT INTO conversation_pool (key, session_id) SELECT ?, ? WHERE NOT EXISTS "
    "(SELECT 1 FROM conversation_pool WHERE key = ? AND session_id = ?)"
)


class ConversationSessions:
    """Conversation-hash → pool of session ids: in PostgreSQL when a database URL is given (shared
    by every worker on it), else in SQLite when a path is given (survives restarts; shared by the
    workers of one data directory, ``matjip serve --workers N``: each take is one atomic
    ``DELETE … RETURNING``), else in memory. Each remembered history continues exactly one request
    (it is taken from the pool)."""

    def __init__(
        self,
        path: Path | None = None,
        max_memory: int = 50_000,
        database_url: str | None = None,
        settings: Settings | None = None,
    ) -> None:
        self._lock = threading.Lock()
        self._memory: OrderedDict[str, deque[str]] = OrderedDict()
        self._max = max_memory
        self._db: sqlite3.Connection | None = None
        self._pg: Any = None
        if database_url:
            settings = settings or Settings()
            from matjip.index.postgres import connection_pool, setup_lock

            self._pg = connection_pool(database_url, settings, name="matjip-oa", max_size=4)
            with self._pg.connection() as conn, setup_lock(conn):
                conn.execute(_PG_CREATE)
                conn.execute(_PG_INDEX)
            path = None
        if path is not None:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                self._db = sqlite3.connect(path, check_same_thread=False, timeout=10)
                self._db.execute("PRAGMA journal_mode=WAL")  # workers read while one writes
                self._db.execute(
                    "CREATE TABLE IF NOT EXISTS conversation_pool (seq INTEGER PRIMARY KEY AUTOINCREMENT, "
                    "key TEXT NOT NULL, session_id TEXT NOT NULL)"
                )
                self._db.execute(
                    "CREATE INDEX IF NOT EXISTS conversation_pool_key ON conversation_pool (key)"
                )
                self._db.commit()
            except sqlite3.Error:
                self._db = None

    def new_session(self, namespace: str = "") -> str:
        return _prefix(namespace) + uuid.uuid4().hex

    def session_for(self, history: list[tuple[str, str]], namespace: str = "") -> str:
        """The session id for a turn whose earlier messages are ``history`` (takes it from the pool)."""
        if not any(role in ("user", "assistant") for role, _ in history):
            return self.new_session(namespace)
        key = conversation_key(history, namespace)
        found = self._take(key)
        return found or _prefix(namespace) + "h-" + key[:32]

    def remember(self, history: list[tuple[str, str]], session_id: str, namespace: str = "") -> None:
        """Record that the conversation ``history`` (ending with this turn's answer) is ``session_id``."""
        self._put(conversation_key(history, namespace), session_id)

    def _take(self, key: str) -> str | None:
        if self._pg is not None:  # shared by the workers: the database is the only pool
            with self._pg.connection() as conn:
                row = conn.execute(_PG_TAKE, {"key": key}).fetchone()
            return str(row[0]) if row else None
        with self._lock:
            if self._db is not None:  # shared by the workers of this data directory: the only pool
                try:
                    row = self._db.execute(_SQLITE_TAKE, (key,)).fetchone()
                    self._db.commit()
                except sqlite3.Error:
                    self._rollback()
                    return None
                return str(row[0]) if row else None
            pool = self._memory.get(key)
            if pool:
                found = pool.popleft()
                if not pool:
                    del self._memory[key]
                return found
        return None

    def _rollback(self) -> None:
        try:
            if self._db is not None:
                self._db.rollback()
        except sqlite3.Error:
            pass

    def _put(self, key: str, session_id: str) -> None:
        if self._pg is not None:
            with self._pg.connection() as conn:
                conn.execute(_PG_PUT, {"key": key, "sid": session_id})
            return
        with self._lock:
            if self._db is not None:
                try:
                    self._db.execute(_SQLITE_PUT, (key, session_id, key, session_id))
                    self._db.commit()
                except sqlite3.Error:
                    self._rollback()
                return
            pool = self._memory.setdefault(key, deque())
            if session_id in pool:
                return
            pool.append(session_id)
            self._memory.move_to_end(key)
            while len(self._memory) > self._max:
                self._memory.popitem(last=False)

    def close(self) -> None:
        with self._lock:
            if self._pg is not None:
                self._pg.close()
                self._pg = None
            if self._db is not None:
                self._db.close()
                self._db = None
