"""A collection run's state in SQLite, next to the output (``FILE.jsonl.state.sqlite``).

Tasks (rectangles, dense points, queries, detail reads) are pending or done; a task's places, its
children and its being done are written in ONE transaction, so a run killed at any moment (even
``kill -9``) resumes with no duplicate and no lost place, repeating at most the task in flight. Calls
are counted per source and day, committed with each call, for the daily quotas.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from matjip.collect.records import CollectedPlace

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tasks(
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    source TEXT NOT NULL, key TEXT NOT NULL, kind TEXT NOT NULL, payload TEXT NOT NULL,
    done INTEGER NOT NULL DEFAULT 0,
    UNIQUE(source, key)
);
CREATE TABLE IF NOT EXISTS places(
    source TEXT NOT NULL, id TEXT NOT NULL, record TEXT NOT NULL,
    detailed INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY(source, id)
);
CREATE TABLE IF NOT EXISTS calls(day TEXT NOT NULL, source TEXT NOT NULL, n INTEGER NOT NULL,
    PRIMARY KEY(day, source));
CREATE TABLE IF NOT EXISTS unreached(source TEXT NOT NULL, key TEXT NOT NULL, n INTEGER NOT NULL,
    PRIMARY KEY(source, key));
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


def state_path(out: Path) -> Path:
    return out.with_name(out.name + ".state.sqlite")


@dataclass(frozen=True)
class Task:
    source: str
    key: str
    kind: str
    payload: dict[str, Any]


class CollectState:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._db = sqlite3.connect(path, isolation_level=None, timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        self._db.close()

    # --- runs ------------------------------------------------------------------------------

    def get_meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def has_tasks(self, source: str) -> bool:
        return (
            self._db.execute("SELECT 1 FROM tasks WHERE source=? LIMIT 1", (source,)).fetchone() is not None
        )

    def start(self, source: str, spec: str, tasks: Iterable[Task]) -> None:
        """A fresh run of ``source``: its tasks, places and unreached counts are replaced (other
        sources' places and every call count stay)."""
        with self._tx() as db:
            for table in ("tasks", "places", "unreached"):
                db.execute(f"DELETE FROM {table} WHERE source=?", (source,))
            db.execute("INSERT OR REPLACE INTO meta VALUES(?, ?)", (f"spec:{source}", spec))
            self._insert(db, tasks)

    @staticmethod
    def _insert(db: sqlite3.Connection, tasks: Iterable[Task]) -> None:
        db.executemany(
            "INSERT OR IGNORE INTO tasks(source, key, kind, payload) VALUES(?, ?, ?, ?)",
            ((t.source, t.key, t.kind, json.dumps(t.payload, ensure_ascii=False)) for t in tasks),
        )

    def next_task(self, source: str, kinds: tuple[str, ...] | None = None) -> Task | None:
        sql = "SELECT source, key, kind, payload FROM tasks WHERE source=? AND done=0"
        args: list[Any] = [source]
        if kinds:
            sql += f" AND kind IN ({','.join('?' * len(kinds))})"
            args.extend(kinds)
        row = self._db.execute(sql + " ORDER BY seq LIMIT 1", args).fetchone()
        return None if row is None else Task(row[0], row[1], row[2], json.loads(row[3]))

    def task_counts(self, source: str) -> tuple[int, int]:
        """(done, all) tasks of ``source``."""
        row = self._db.execute(
            "SELECT COALESCE(SUM(done), 0), COUNT(*) FROM tasks WHERE source=?", (source,)
        ).fetchone()
        return int(row[0]), int(row[1])

    def complete(
        self,
        task: Task,
        places: Iterable[CollectedPlace] = (),
        children: Iterable[Task] = (),
        unreached: int | None = None,
        done: bool = True,
        payload: dict[str, Any] | None = None,
    ) -> None:
        """In one transaction: the task's places, its children, its unreached count, and the task
        done (or, with ``done=False``, its new ``payload``: a checkpoint inside a long task)."""
        with self._tx() as db:
            self._put(db, places)
            self._insert(db, children)
            if unreached is not None:
                db.execute(
                    "INSERT OR REPLACE INTO unreached VALUES(?, ?, ?)", (task.source, task.key, unreached)
                )
            if done:
                db.execute("UPDATE tasks SET done=1 WHERE source=? AND key=?", (task.source, task.key))
            elif payload is not None:
                db.execute(
                    "UPDATE tasks SET payload=? WHERE source=? AND key=?",
                    (json.dumps(payload, ensure_ascii=False), task.source, task.key),
                )

    @staticmethod
    def _put(db: sqlite3.Connection, places: Iterable[CollectedPlace]) -> None:
        db.executemany(
            "INSERT INTO places(source, id, record) VALUES(?, ?, ?) "
            "ON CONFLICT(source, id) DO UPDATE SET record=excluded.record "
            "WHERE places.detailed=0",  # a detailed record is never replaced by a bare one
            ((p.source, p.place_id, p.model_dump_json()) for p in places),
        )

    def put_detailed(self, place: CollectedPlace) -> None:
        with self._tx() as db:
            db.execute(
                "UPDATE places SET record=?, detailed=1 WHERE source=? AND id=?",
                (place.model_dump_json(), place.source, place.place_id),
            )

    def detail_counts(self, source: str) -> tuple[int, int]:
        """(places with their detail read, all places) of ``source``."""
        row = self._db.execute(
            "SELECT COALESCE(SUM(detailed), 0), COUNT(*) FROM places WHERE source=?", (source,)
        ).fetchone()
        return int(row[0]), int(row[1])

    def undetailed(self, source: str) -> list[CollectedPlace]:
        rows = self._db.execute(
            "SELECT record FROM places WHERE source=? AND detailed=0 ORDER BY id", (source,)
        ).fetchall()
        return [CollectedPlace.model_validate_json(r[0]) for r in rows]

    # --- places ------------------------------------------------------------------------------

    def places(self, source: str | None = None) -> Iterator[CollectedPlace]:
        sql, args = "SELECT record FROM places", ()
        if source is not None:
            sql, args = sql + " WHERE source=?", (source,)  # type: ignore[assignment]
        for (text,) in self._db.execute(sql + " ORDER BY source, id", args).fetchall():
            yield CollectedPlace.model_validate_json(text)

    def place_count(self, source: str) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM places WHERE source=?", (source,)).fetchone()[0])

    def tasks(self, source: str, kind: str) -> list[Task]:
        rows = self._db.execute(
            "SELECT source, key, kind, payload FROM tasks WHERE source=? AND kind=? ORDER BY seq",
            (source, kind),
        ).fetchall()
        return [Task(r[0], r[1], r[2], json.loads(r[3])) for r in rows]

    def set_unreached(self, source: str, counts: dict[str, int]) -> None:
        with self._tx() as db:
            db.execute("DELETE FROM unreached WHERE source=?", (source,))
            db.executemany(
                "INSERT INTO unreached VALUES(?, ?, ?)", ((source, k, n) for k, n in counts.items())
            )

    def unreached(self, source: str) -> int:
        row = self._db.execute(
            "SELECT COALESCE(SUM(n), 0) FROM unreached WHERE source=?", (source,)
        ).fetchone()
        return int(row[0])

    # --- calls ---------------------------------------------------------------------------------

    def count_call(self, day: str, source: str) -> int:
        with self._tx() as db:
            db.execute(
                "INSERT INTO calls VALUES(?, ?, 1) ON CONFLICT(day, source) DO UPDATE SET n=n+1",
                (day, source),
            )
        return self.calls(day, source)

    def calls(self, day: str | None, source: str) -> int:
        if day is None:
            row = self._db.execute(
                "SELECT COALESCE(SUM(n), 0) FROM calls WHERE source=?", (source,)
            ).fetchone()
        else:
            row = self._db.execute("SELECT n FROM calls WHERE day=? AND source=?", (day, source)).fetchone()
        return int(row[0]) if row else 0

    # --- plumbing --------------------------------------------------------------------------------

    def _tx(self) -> _Transaction:
        return _Transaction(self._db)


class _Transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> sqlite3.Connection:
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, exc_type: object, *rest: object) -> None:
        self.db.execute("ROLLBACK" if exc_type is not None else "COMMIT")
