"""LLM enrichment at ingest: batching, evidence validation, per-record fallback, disk cache,
rate limit, and the Enricher protocol."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from fakes import openai as ofake
from fakes.http import Script
from matjip.errors import ConfigurationError, ProviderError
from matjip.ingest.crawl import CrawlDocument
from matjip.ingest.enrich import Enricher, Enrichment, OfflineEnricher
from matjip.ingest.enrich.llm import LLMEnricher, TokenBucket, record_text
from matjip.providers.base import RetryPolicy
from matjip.providers.fake import FakeCall, FakeLLM
from matjip.providers.openai_compat import OpenAICompatClient
from matjip.settings import Settings

REVIEW = "주차장이 넓어서 편했어요. 모듬전이 정말 맛있고 분위기가 조용해서 데이트하기 좋아요."


def doc(pid: str, **kw: Any) -> CrawlDocument:
    base: dict[str, Any] = {
        "place_id": pid,
        "title": f"식당{pid}",
        "category": "한식>전,빈대떡",
        "reviews": [REVIEW],
        "description": "매일 신선한 재료로 준비합니다. 단체석 완비.",
        "menus": [{"name": "모듬전", "price": "35,000원"}],
    }
    base.update(kw)
    return CrawlDocument.model_validate(base)


def good_record(pid: str) -> dict[str, Any]:
    return {
        "id": pid,
        "review_food": [{"value": "모듬전", "evidence": "모듬전이 정말 맛있고"}],
        "convenience": [
            {"value": "주차 가능", "evidence": "주차장이 넓어서 편했어요"},  # a surface → canonical 주차
            {"value": "와이파이", "evidence": "와이파이 빵빵"},  # evidence not in the text
        ],
        "atmosphere": [{"value": "조용한", "evidence": "분위기가   조용해서"}],  # whitespace differs
        "occasion": [{"value": "데이트", "evidence": "데이트하기 좋아요"}, {"value": "회식", "evidence": ""}],
        "features": [
            {"value": "단체석", "evidence": "단체석 완비"},
            {"value": "방송출연", "evidence": "생생정보통 출연"},
        ],
    }


def echo_records(call: FakeCall) -> dict[str, Any]:
    """Answers for every record id in the prompt."""
    import re

    ids = re.findall(r'^\{"id": "([^"]+)"', call.prompt, re.MULTILINE)
    return {"records": [good_record(i) for i in ids]}


def enricher(fake: Any, tmp_path: Path | None = None, **kw: Any) -> LLMEnricher:
    return LLMEnricher(
        fake,
        cache_path=None if tmp_path is None else tmp_path / "llm_cache.sqlite",
        rate_per_s=0,
        fallback=kw.pop("fallback", OfflineEnricher()),
        **kw,
    )


def test_values_need_verbatim_evidence() -> None:
    e = enricher(FakeLLM(function=echo_records))
    [out] = e.enrich_many([doc("1")])
    assert out.review_food == ["모듬전"]
    assert out.convenience == ["주차"]  # canonical; 와이파이 had no evidence in the text
    assert out.atmosphere == ["조용한"] and out.occasion == ["데이트"] and out.features == ["단체석"]
    ev = out.evidence_for("atmosphere", "조용한")[0]
    assert (
        ev.source == "reviews[0]" and ev.span == "분위기가 조용해서" and REVIEW[ev.start : ev.end] == ev.span
    )
    desc = out.evidence_for("features", "단체석")[0]
    assert desc.source == "description" and desc.span == "단체석 완비"
    assert all(
        out.evidence_for(f, v) for f in ("review_food", "convenience", "occasion") for v in out.values(f)
    )
    assert e.stats.dropped_values == 3 and e.stats.llm_records == 1


def test_batches_and_concurrency(tmp_path: Path) -> None:
    threads: set[int] = set()

    def fn(call: FakeCall) -> dict[str, Any]:
        threads.add(threading.get_ident())
        return echo_records(call)

    fake = FakeLLM(function=fn)
    e = enricher(fake, tmp_path, batch_size=2, concurrency=3)
    docs = [doc(str(i)) for i in range(5)]
    out = e.enrich_many(docs)
    assert len(fake.calls) == 3  # 2 + 2 + 1
    assert all(o.convenience == ["주차"] for o in out)
    assert sorted(len(__import__("re").findall('\n\\{"id": ', c.prompt)) for c in fake.calls) == [1, 2, 2]
    assert len(e.stats.calls) == 3 and all(c.stage == "enrich" for c in e.stats.calls)


def test_cache_makes_reruns_free(tmp_path: Path) -> None:
    fake = FakeLLM(function=echo_records)
    first = enricher(fake, tmp_path).enrich_many([doc("1"), doc("2")])
    assert len(fake.calls) == 1 and (tmp_path / "llm_cache.sqlite").exists()
    again = enricher(fake, tmp_path)
    second = again.enrich_many([doc("1"), doc("2")])
    assert len(fake.calls) == 1 and second == first and again.stats.cache_hits == 2
    changed = doc("2", reviews=["완전히 다른 리뷰예요. 주차장이 넓어서 편했어요"])
    again.enrich_many([changed])
    assert len(fake.calls) == 2  # content changed → new key


class CountingOffline(OfflineEnricher):
    """The offline enricher, remembering which documents it enriched."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[str] = []

    def enrich_many(self, docs: Sequence[CrawlDocument]) -> list[Enrichment]:
        self.seen += [d.place_id for d in docs]
        return super().enrich_many(docs)


def test_missing_record_falls_back_per_record_and_is_not_cached(tmp_path: Path) -> None:
    offline = CountingOffline()
    fake = FakeLLM(script={"enrich": [{"records": [good_record("1")]}, {"records": [good_record("2")]}]})
    e = enricher(fake, tmp_path, fallback=offline)
    out = e.enrich_many([doc("1"), doc("2")])
    assert offline.seen == ["2"] and e.stats.fallbacks == 1
    assert out[0].features == ["단체석"]
    assert "주차" in out[1].convenience  # offline found it
    e.enrich_many([doc("1"), doc("2")])
    assert len(fake.calls) == 2 and offline.seen == ["2"]  # 1 from cache; 2 retried, now from the LLM


@pytest.mark.parametrize("reply", ["{not json", {"records": "nope"}, ProviderError("HTTP 500")])
def test_failed_batch_falls_back_to_offline(reply: Any) -> None:
    offline = CountingOffline()
    e = enricher(FakeLLM(script={"enrich": reply}), fallback=offline)
    out = e.enrich_many([doc("1"), doc("2")])
    assert offline.seen == ["1", "2"] and len(out) == 2 and e.stats.fallbacks == 2
    assert e.stats.calls[0].ok is False and "fell back" in e.stats.notes[0]


def test_over_http_with_a_429(tmp_path: Path) -> None:
    script = Script(
        ofake.error_reply(429, "rate", retry_after="0"),
        ofake.json_reply({"records": [good_record("1")]}),
    )
    client = OpenAICompatClient(
        model="gpt-4o-mini",
        api_key="sk-test",
        timeout_s=0.5,
        retry=RetryPolicy(base_s=0.0, sleep=lambda s: None),
        transport=script.transport(),
    )
    [out] = enricher(client, tmp_path).enrich_many([doc("1")])
    assert out.convenience == ["주차"] and len(script.seen) == 2
    body = script.seen[1].json()
    assert body["response_format"]["json_schema"]["name"] == "EnrichBatchOut"
    assert "모듬전이 정말 맛있고" in body["messages"][1]["content"]


def test_token_bucket_waits_without_real_time() -> None:
    now = [0.0]
    sleeps: list[float] = []

    def sleep(s: float) -> None:
        sleeps.append(s)
        now[0] += s

    bucket = TokenBucket(2.0, capacity=1.0, clock=lambda: now[0], sleep=sleep)
    for _ in range(3):
        bucket.acquire()
    assert sum(sleeps) == pytest.approx(1.0)  # 3 calls at 2/s with a burst of 1
    TokenBucket(0).acquire()  # unlimited


def test_protocol_name_and_settings(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="MATJIP_LLM_PROVIDER"):
        LLMEnricher.from_settings(Settings(data_dir=tmp_path))
    e = LLMEnricher.from_settings(Settings(data_dir=tmp_path, llm_provider="fake"))
    assert isinstance(e, Enricher) and e.name.startswith("llm:fake:fake:")
    [out] = e.enrich_many([doc("1")])  # the fake's default reply has no records → offline
    assert "주차" in out.convenience and e.stats.fallbacks == 1
    assert (tmp_path / "llm_cache.sqlite").exists()
    e.close()


def test_record_text_is_bounded() -> None:
    d = doc("1", reviews=["가" * 2000] * 30, reviewKeywords={"음식이 맛있어요": 30, "주차하기 편해요": 5})
    text = record_text(d)
    assert text.count("리뷰") == 10 and len(text) < 8000
    assert "방문자 태그: 음식이 맛있어요(30), 주차하기 편해요(5)" in text
