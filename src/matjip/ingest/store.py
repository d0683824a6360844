"""The document store: one SQLite file of restaurant documents keyed by ``place_id``.

Schema changes are an append-only list of migrations (never edit one that has shipped).
Ingest writes here; the index is built from here.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path

from matjip.documents import Restaurant
from matjip.errors import StoreError

MIGRATIONS: list[str] = [
    # 1: documents and their content hash (hash of the raw record + pipeline version + enricher)
    """
    CREATE TABLE documents (
        place_id TEXT PRIMARY KEY,
        content_hash TEXT NOT NULL,
        doc TEXT NOT NULL,
        source TEXT,
        line INTEGER,
        updated_at TEXT NOT NULL
    );
    """,
    # 2: per-input checkpoints so an interrupted ingest can resume
    """
    CREATE TABLE checkpoints (
        source TEXT PRIMARY KEY,
        fingerprint TEXT NOT NULL,
        last_line INTEGER NOT NULL,
        finished INTEGER NOT NULL DEFAULT 0,
        updated_at TEXT NOT NULL
    );
    """,
    # 3: a monotonically increasing change counter so the index knows what to refresh
    """
    ALTER TABLE documents ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    INSERT INTO meta (key, value) VALUES ('version', '0');
    """,
]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class DocumentStore:
    """SQLite-backed document store. Safe to open from several processes (WAL)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(path, timeout=30, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._migrate()
        except sqlite3.DatabaseError as exc:
            raise StoreError(
                f"{path}: the document store is damaged or not a matjip store ({exc}); move it aside and "
                "run `matjip ingest` with your crawl files (no PATH: the demo data) to build a new one"
            ) from exc

    # -- schema ---------------------------------------------------------------------------
    def _migrate(self) -> None:
        current = int(self._db.execute("PRAGMA user_version").fetchone()[0])
        if current > len(MIGRATIONS):
            raise StoreError(
                f"{self.path}: made by a newer matjip (schema {current} > {len(MIGRATIONS)}); upgrade matjip"
            )
        for i in range(current, len(MIGRATIONS)):
            with self._db:
                self._db.executescript(MIGRATIONS[i])
                self._db.execute(f"PRAGMA user_version = {i + 1}")

    @property
    def schema_version(self) -> int:
        return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> DocumentStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reads ----------------------------------------------------------------------------
    def count(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM documents").fetchone()[0])

    def hashes(self) -> dict[str, str]:
        return dict(self._db.execute("SELECT place_id, content_hash FROM documents").fetchall())

    def get(self, place_id: str) -> Restaurant | None:
        row = self._db.execute("SELECT doc FROM documents WHERE place_id = ?", (place_id,)).fetchone()
        return Restaurant.model_validate_json(row[0]) if row else None

    def iter_documents(self, since_version: int = 0) -> Iterator[Restaurant]:
        cur = self._db.execute("SELECT doc FROM documents WHERE version > ? ORDER BY rowid", (since_version,))
        for (doc,) in cur:
            yield Restaurant.model_validate_json(doc)

    def ids(self) -> set[str]:
        return {r[0] for r in self._db.execute("SELECT place_id FROM documents")}

    @property
    def version(self) -> int:
        return int(self._db.execute("SELECT value FROM meta WHERE key='version'").fetchone()[0])

    # -- writes ---------------------------------------------------------------------------
    def write_batch(
        self,
        docs: Iterable[tuple[Restaurant, str, str, int]],
        checkpoint: tuple[str, str, int] | None = None,
    ) -> None:
        """Upsert ``(doc, content_hash, source, line)`` rows and advance a checkpoint atomically."""
        with self._db:
            version = self.version + 1
            self._db.executemany(
                "INSERT INTO documents (place_id, content_hash, doc, source, line, updated_at, version)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT(place_id) DO UPDATE SET content_hash=excluded.content_hash, doc=excluded.doc,"
                " source=excluded.source, line=excluded.line, updated_at=excluded.updated_at,"
                " version=excluded.version",
                [
                    (d.place_id, h, d.model_dump_json(by_alias=True), src, line, _now(), version)
                    for d, h, src, line in docs
                ],
            )
            self._db.execute("UPDATE meta SET value = ? WHERE key='version'", (str(version),))
            if checkpoint is not None:
                self._set_checkpoint(*checkpoint, finished=False)

    def delete(self, place_ids: Iterable[str]) -> int:
        with self._db:
            cur = self._db.executemany("DELETE FROM documents WHERE place_id = ?", [(p,) for p in place_ids])
            return cur.rowcount

    # -- checkpoints ----------------------------------------------------------------------
    def _set_checkpoint(self, source: str, fingerprint: str, last_line: int, finished: bool) -> None:
        self._db.execute(
            "INSERT INTO checkpoints (source, fingerprint, last_line, finished, updated_at) VALUES (?,?,?,?,?)"
            " ON CONFLICT(source) DO UPDATE SET fingerprint=excluded.fingerprint,"
            " last_line=excluded.last_line, finished=excluded.finished, updated_at=excluded.updated_at",
            (source, fingerprint, last_line, int(finished), _now()),
        )

    def set_checkpoint(self, source: str, fingerprint: str, last_line: int, finished: bool) -> None:
        with self._db:
            self._set_checkpoint(source, fingerprint, last_line, finished)

    def checkpoint(self, source: str) -> tuple[str, int, bool] | None:
        row = self._db.execute(
            "SELECT fingerprint, last_line, finished FROM checkpoints WHERE source = ?", (source,)
        ).fetchone()
        return (row[0], int(row[1]), bool(row[2])) if row else None


def dump_json(doc: Restaurant) -> str:
    return json.dumps(doc.model_dump(mode="json", by_alias=True), ensure_ascii=False)
