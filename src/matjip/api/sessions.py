"""Map an OpenAI-style conversation (the whole history, resent every turn) onto an agent session.

* With a ``user`` field: the session id is derived from it (``oa-u-<hash>``), one session per user.
* Otherwise the key is a hash of the conversation *before* the last user message (user and
  assistant messages, whitespace-normalised; system messages are ignored because chat UIs
  rewrite them). After a turn, the hash of the history *including* this turn's question and
  answer is mapped to the session id, so the next request (which resends exactly that history)
  continues the same session. A first message (no history) starts a new session; a history
  the server has never seen (e.g. edited) gets a session id derived from its hash.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import uuid
from collections import OrderedDict
from pathlib import Path
from typing import Any


def _norm(text: str) -> str:
    return " ".join(text.split())


def conversation_key(messages: list[tuple[str, str]]) -> str:
    """Hash of (role, text) pairs of user/assistant messages."""
    kept = [[role, _norm(text)] for role, text in messages if role in ("user", "assistant")]
    raw = json.dumps(kept, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(raw.encode()).hexdigest()


def user_session_id(user: str) -> str:
    return "oa-u-" + hashlib.sha256(("user:" + user).encode()).hexdigest()[:32]


_PG_CREATE = (
    "CREATE TABLE IF NOT EXISTS matjip_conversations (key text PRIMARY KEY, session_id text NOT NULL)"
)
_PG_GET = "SELECT session_id FROM matjip_conversations WHERE key = %(key)s"
_PG_PUT = (
    "INSERT INTO matjip_conversations (key, session_id) VALUES (%(key)s, %(sid)s) "
    "ON CONFLICT (key) DO UPDATE SET session_id = excluded.session_id"
)


class ConversationSessions:
    """Conversation-hash → session id: in PostgreSQL when a database URL is given (shared by every
    worker on it), else in SQLite when a path is given (survives restarts), else in memory."""

    def __init__(
        self, path: Path | None = None, max_memory: int = 50_000, database_url: str | None = None
    ) -> None:
        self._lock = threading.Lock()
        self._memory: OrderedDict[str, str] = OrderedDict()
        self._max = max_memory
        self._db: sqlite3.Connection | None = None
        self._pg: Any = None
        if database_url:
            from psycopg_pool import ConnectionPool

            self._pg = ConnectionPool(
                database_url, min_size=1, max_size=4, kwargs={"autocommit": True}, open=True, name="matjip-oa"
            )
            with self._pg.connection() as conn:
                conn.execute(_PG_CREATE)
            path = None
        if path is not None:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                self._db = sqlite3.connect(path, check_same_thread=False, timeout=10)
                self._db.execute(
                    "CREATE TABLE IF NOT EXISTS conversations (key TEXT PRIMARY KEY, session_id TEXT NOT NULL)"
                )
                self._db.commit()
            except sqlite3.Error:
                self._db = None

    def session_for(self, history: list[tuple[str, str]]) -> str:
        """The session id for a turn whose earlier messages are ``history``."""
        if not any(role in ("user", "assistant") for role, _ in history):
            return "oa-" + uuid.uuid4().hex
        key = conversation_key(history)
        found = self._get(key)
        return found or "oa-h-" + key[:32]

    def remember(self, history: list[tuple[str, str]], session_id: str) -> None:
        """Record that the conversation ``history`` (ending with this turn's answer) is ``session_id``."""
        self._put(conversation_key(history), session_id)

    def _get(self, key: str) -> str | None:
        with self._lock:
            if key in self._memory:
                self._memory.move_to_end(key)
                return self._memory[key]
            if self._pg is not None:
                with self._pg.connection() as conn:
                    found = conn.execute(_PG_GET, {"key": key}).fetchone()
                if found:
                    return str(found[0])
            if self._db is not None:
                row = self._db.execute(
                    "SELECT session_id FROM conversations WHERE key = ?", (key,)
                ).fetchone()
                if row:
                    return str(row[0])
        return None

    def _put(self, key: str, session_id: str) -> None:
        with self._lock:
            self._memory[key] = session_id
            self._memory.move_to_end(key)
            while len(self._memory) > self._max:
                self._memory.popitem(last=False)
            if self._pg is not None:
                with self._pg.connection() as conn:
                    conn.execute(_PG_PUT, {"key": key, "sid": session_id})
            if self._db is not None:
                try:
                    self._db.execute(
                        "INSERT OR REPLACE INTO conversations (key, session_id) VALUES (?, ?)",
                        (key, session_id),
                    )
                    self._db.commit()
                except sqlite3.Error:
                    pass

    def close(self) -> None:
        with self._lock:
            if self._pg is not None:
                self._pg.close()
                self._pg = None
            if self._db is not None:
                self._db.close()
                self._db = None
