"""LLM enrichment at ingest (``matjip ingest --enrich llm``), docs/design.md

:class:`LLMEnricher` implements the :class:`~matjip.ingest.enrich.base.Enricher` protocol:

* **batched** — several records per call (``llm_enrich_batch``, default 4);
* **concurrent within a rate limit** — batches run on a thread pool
  (``llm_enrich_concurrency``) and every call first takes a token from a token bucket
  (``llm_enrich_rps`` calls per second);
* **cached on disk** by content hash in ``data_dir/llm_cache.sqlite`` (key: provider, model,
  prompt version and the record's canonical JSON), so a re-run costs nothing;
* **validated per record** — every value must come with an evidence span found verbatim in the
  record's own text (reviews, description, menu names, category, visitor tags); values without
  evidence are dropped, conveniences must map onto the canonical lexicon values;
* **falling back per record** to the offline enricher when the call fails, the reply is
  invalid, or the record is missing from the reply. Fallbacks are not cached.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from matjip.documents import ENRICH_FIELDS, EnrichField, Evidence
from matjip.errors import ConfigurationError
from matjip.ingest.crawl import CrawlDocument
from matjip.ingest.enrich.base import Enricher, Enrichment
from matjip.ingest.enrich.schemas import EnrichBatchOut, EnrichRecordOut
from matjip.providers.base import CallRecord, LLMClient, error_text, record_of
from matjip.providers.prompts import PromptSet
from matjip.settings import Settings

PROMPTS = PromptSet(Path(__file__).parent / "prompts")

MAX_REVIEWS = 10
MAX_REVIEW_CHARS = 500
MAX_DESCRIPTION_CHARS = 800
MAX_VALUES_PER_FIELD = 12
MAX_VALUE_CHARS = 30
MAX_EVIDENCE_CHARS = 120


class TokenBucket:
    """``rate`` tokens per second, up to ``capacity`` saved; :meth:`acquire` blocks for one."""

    def __init__(
        self,
        rate: float,
        capacity: float | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.rate = rate
        self.capacity = capacity if capacity is not None else max(1.0, rate)
        self._tokens = self.capacity
        self._clock = clock
        self._sleep = sleep
        self._last = clock()
        self._lock = threading.Lock()

    def acquire(self) -> None:
        if self.rate <= 0:
            return
        while True:
            with self._lock:
                now = self._clock()
                self._tokens = min(self.capacity, self._tokens + (now - self._last) * self.rate)
                self._last = now
                if self._tokens >= 1.0:
                    self._tokens -= 1.0
                    return
                wait = (1.0 - self._tokens) / self.rate
            self._sleep(wait)


class EnrichCache:
    """Validated enrichments by key, in SQLite (thread-safe)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(path, check_same_thread=False, timeout=30)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute(
            "CREATE TABLE IF NOT EXISTS enrich_cache (key TEXT PRIMARY KEY, value TEXT NOT NULL, created REAL NOT NULL)"
        )
        self._conn.commit()
        self._lock = threading.Lock()

    def get(self, key: str) -> Enrichment | None:
        with self._lock:
            row = self._conn.execute("SELECT value FROM enrich_cache WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        try:
            return Enrichment.model_validate_json(row[0])
        except ValueError:
            return None

    def put(self, key: str, value: Enrichment) -> None:
        with self._lock:
            self._conn.execute(
                "INSERT OR REPLACE INTO enrich_cache (key, value, created) VALUES (?, ?, ?)",
                (key, value.model_dump_json(), time.time()),
            )
            self._conn.commit()

    def __len__(self) -> int:
        with self._lock:
            return int(self._conn.execute("SELECT COUNT(*) FROM enrich_cache").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._conn.close()


@dataclass
class EnrichStats:
    records: int = 0
    cache_hits: int = 0
    llm_records: int = 0
    fallbacks: int = 0
    dropped_values: int = 0
    calls: list[CallRecord] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _sources(doc: CrawlDocument) -> list[tuple[str, str]]:
    """(source name, text) pairs evidence may be quoted from, in the order they are searched."""
    out: list[tuple[str, str]] = [(f"reviews[{i}]", r) for i, r in enumerate(doc.reviews) if r.strip()]
    if doc.description.strip():
        out.append(("description", doc.description))
    out += [(f"menus[{i}].name", m.name) for i, m in enumerate(doc.menus) if m.name.strip()]
    if doc.category:
        out.append(("category", doc.category))
    out += [("reviewKeywords", tag) for tag in doc.reviewKeywords]
    if doc.title:
        out.append(("title", doc.title))
    return out


def _flat(text: str) -> str:
    """One line: a crawled text cannot start a line of its own ("리뷰2: …", "시스템: …")."""
    return " ".join(text.split())


def record_text(doc: CrawlDocument) -> str:
    """The text of one record as the model sees it (truncated; evidence is searched in full).

    Every crawled value is flattened onto its own labelled line; the prompt then quotes the whole
    text as a JSON string inside ``<records>`` (``providers.prompts.as_data``)."""
    lines = [f"식당: {_flat(doc.title)}"]
    if doc.category:
        lines.append(f"카테고리: {_flat(doc.category)}")
    if doc.menus:
        lines.append("메뉴: " + ", ".join(_flat(m.name) for m in doc.menus[:40]))
    if doc.description.strip():
        lines.append("소개: " + _flat(doc.description)[:MAX_DESCRIPTION_CHARS])
    for i, r in enumerate(doc.reviews[:MAX_REVIEWS], start=1):
        lines.append(f"리뷰{i}: {_flat(r)[:MAX_REVIEW_CHARS]}")
    if doc.reviewKeywords:
        tags = sorted(doc.reviewKeywords.items(), key=lambda kv: -kv[1])[:20]
        lines.append("방문자 태그: " + ", ".join(f"{_flat(t)}({n})" for t, n in tags))
    return "\n".join(lines)


def _locate(span: str, sources: Sequence[tuple[str, str]]) -> tuple[str, str, int, int] | None:
    """Where ``span`` occurs verbatim (whitespace may differ) in one of the sources."""
    span = span.strip().strip("\"'“”‘’")
    if "\\" in span:  # copied with the prompt's JSON escapes (\", \u003c): read them as JSON does
        with contextlib.suppress(ValueError):
            span = str(json.loads(f'"{span}"'))
    if len(span) < 2 or len(span) > MAX_EVIDENCE_CHARS:
        return None
    for name, text in sources:
        i = text.find(span)
        if i >= 0:
            return name, text[i : i + len(span)], i, i + len(span)
    words = span.split()
    if len(words) > 1:
        pattern = re.compile(r"\s+".join(re.escape(w) for w in words))
        for name, text in sources:
            m = pattern.search(text)
            if m:
                return name, m.group(0), m.start(), m.end()
    return None


def _canonical_conveniences() -> dict[str, str]:
    """Surface (compact, lower-case) → canonical convenience value."""
    from matjip.ingest.enrich.tables import lexicons

    out: dict[str, str] = {}
    for canon, surfaces in lexicons()["convenience"].items():
        out["".join(canon.split()).lower()] = canon
        for s in surfaces:
            out.setdefault("".join(s.split()).lower(), canon)
    return out


def validate_record(
    doc: CrawlDocument, out: EnrichRecordOut, conveniences: dict[str, str]
) -> tuple[Enrichment, int]:
    """The enrichment of ``doc`` from one reply record, keeping only values with evidence found
    in the record's text; returns it and the number of dropped values."""
    sources = _sources(doc)
    values: dict[EnrichField, list[str]] = {f: [] for f in ENRICH_FIELDS}
    evidence: list[Evidence] = []
    dropped = 0
    for fld in ENRICH_FIELDS:
        for item in getattr(out, fld)[: MAX_VALUES_PER_FIELD * 2]:
            value = " ".join(item.value.split())[:MAX_VALUE_CHARS]
            if not value:
                dropped += 1
                continue
            if fld == "convenience":
                canon = conveniences.get("".join(value.split()).lower())
                if canon is None:
                    dropped += 1
                    continue
                value = canon
            where = _locate(item.evidence, sources)
            if where is None or len(values[fld]) >= MAX_VALUES_PER_FIELD:
                dropped += 1
                continue
            if value in values[fld]:
                continue
            source, span, start, end = where
            values[fld].append(value)
            count = doc.reviewKeywords.get(span) if source == "reviewKeywords" else None
            evidence.append(
                Evidence(
                    field=fld,
                    value=value,
                    source=source,
                    span=span,
                    start=None if source == "reviewKeywords" else start,
                    end=None if source == "reviewKeywords" else end,
                    count=count,
                )
            )
    return Enrichment(**values, evidence=evidence), dropped


class LLMEnricher:
    """docs/design.md extraction by an LLM, with evidence, cache and offline fallback."""

    def __init__(
        self,
        client: LLMClient,
        *,
        cache_path: Path | None = None,
        batch_size: int = 4,
        concurrency: int = 4,
        rate_per_s: float = 2.0,
        fallback: Enricher | None = None,
        bucket: TokenBucket | None = None,
    ) -> None:
        self.client = client
        self.batch_size = max(1, batch_size)
        self.concurrency = max(1, concurrency)
        self.bucket = bucket or TokenBucket(rate_per_s)
        self.cache = EnrichCache(cache_path) if cache_path is not None else None
        self._fallback = fallback
        self._conveniences = _canonical_conveniences()
        self.prompt_version = PROMPTS.version("enrich")
        self.name = f"llm:{client.provider}:{client.model}:{self.prompt_version}"
        self.stats = EnrichStats()
        self._stats_lock = threading.Lock()

    @classmethod
    def from_settings(cls, settings: Settings, *, client: LLMClient | None = None) -> LLMEnricher:
        from matjip.providers.client import make_client
        from matjip.providers.config import LLMOptions

        options = LLMOptions.from_settings(settings)
        if client is None:
            if options.provider == "none":
                raise ConfigurationError(
                    "--enrich llm needs one of the LLM providers: set MATJIP_LLM_PROVIDER (openai, gemini or fake)"
                )
            client = make_client(options, fake_replies=lambda call: {"records": []})
        return cls(
            client,
            cache_path=Path(settings.data_dir) / "llm_cache.sqlite",
            batch_size=options.enrich_batch,
            concurrency=options.enrich_concurrency,
            rate_per_s=options.enrich_rps,
        )

    @property
    def fallback(self) -> Enricher:
        if self._fallback is None:
            from matjip.ingest.enrich.offline import OfflineEnricher

            self._fallback = OfflineEnricher()
        return self._fallback

    def cache_key(self, doc: CrawlDocument) -> str:
        payload = json.dumps(doc.model_dump(mode="json", by_alias=True), ensure_ascii=False, sort_keys=True)
        h = hashlib.sha256()
        for part in (self.client.provider, self.client.model, self.prompt_version, payload):
            h.update(part.encode("utf-8"))
            h.update(b"\x00")
        return h.hexdigest()

    def enrich(self, doc: CrawlDocument) -> Enrichment:
        return self.enrich_many([doc])[0]

    def enrich_many(self, docs: Sequence[CrawlDocument]) -> list[Enrichment]:
        results: list[Enrichment | None] = [None] * len(docs)
        todo: list[int] = []
        for i, d in enumerate(docs):
            cached = self.cache.get(self.cache_key(d)) if self.cache is not None else None
            if cached is not None:
                results[i] = cached
            else:
                todo.append(i)
        with self._stats_lock:
            self.stats.records += len(docs)
            self.stats.cache_hits += len(docs) - len(todo)
        batches = [todo[k : k + self.batch_size] for k in range(0, len(todo), self.batch_size)]
        if len(batches) > 1 and self.concurrency > 1:
            with ThreadPoolExecutor(max_workers=min(self.concurrency, len(batches))) as pool:
                outcomes = list(pool.map(lambda b: self._run_batch([docs[i] for i in b]), batches))
        else:
            outcomes = [self._run_batch([docs[i] for i in b]) for b in batches]
        failed: list[int] = []
        for batch, outcome in zip(batches, outcomes, strict=True):
            for i, got in zip(batch, outcome, strict=True):
                if got is None:
                    failed.append(i)
                else:
                    results[i] = got
        if failed:
            offline = self.fallback.enrich_many([docs[i] for i in failed])
            for i, e in zip(failed, offline, strict=True):
                results[i] = e
        out: list[Enrichment] = []
        for r in results:
            assert r is not None
            out.append(r)
        return out

    def _run_batch(self, batch: Sequence[CrawlDocument]) -> list[Enrichment | None]:
        """LLM enrichments of one batch; ``None`` for each record that must fall back."""
        msgs = PROMPTS.messages(
            "enrich",
            records=[{"id": d.place_id, "text": record_text(d)} for d in batch],
            conveniences="|".join(self._conveniences_canonical()),
        )
        self.bucket.acquire()
        try:
            reply, record = self.client.complete_json(msgs, EnrichBatchOut, stage="enrich")
        except Exception as exc:
            rec = record_of(exc)
            with self._stats_lock:
                if rec is not None:
                    self.stats.calls.append(rec)
                self.stats.fallbacks += len(batch)
                self.stats.notes.append(f"batch of {len(batch)} fell back to offline: {error_text(exc)}")
            return [None] * len(batch)
        by_id: dict[str, EnrichRecordOut] = {}
        for r in reply.records:
            by_id.setdefault(r.id.strip(), r)
        out: list[Enrichment | None] = []
        dropped = fallbacks = 0
        for d in batch:
            got = by_id.get(d.place_id)
            if got is None:
                out.append(None)
                fallbacks += 1
                continue
            try:
                enrichment, n = validate_record(d, got, self._conveniences)
            except ValueError:
                out.append(None)
                fallbacks += 1
                continue
            dropped += n
            out.append(enrichment)
            if self.cache is not None:
                self.cache.put(self.cache_key(d), enrichment)
        with self._stats_lock:
            self.stats.calls.append(record)
            self.stats.llm_records += len(batch) - fallbacks
            self.stats.fallbacks += fallbacks
            self.stats.dropped_values += dropped
            if fallbacks:
                self.stats.notes.append(f"{fallbacks} record(s) missing from a reply fell back to offline")
        return out

    def _conveniences_canonical(self) -> list[str]:
        return sorted(set(self._conveniences.values()))

    def close(self) -> None:
        if self.cache is not None:
            self.cache.close()
        close = getattr(self.client, "close", None)
        if close is not None:
            close()
