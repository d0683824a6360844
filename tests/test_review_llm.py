"""Issue 12: the LLM enrichment path on the review gold set, with the fake provider.

An oracle fake answers every record with its gold values (evidence: the review text) and must score
perfectly through the LLM enricher's validation; a careless fake (values without verbatim evidence,
unknown conveniences) must be stopped by that validation; an empty reply falls back to the offline
enricher, whose figures are then the offline ones."""

from __future__ import annotations

import re
from typing import Any

from matjip.eval.review_eval import FIELDS, ReviewItem, load, run, score
from matjip.ingest.enrich import OfflineEnricher
from matjip.ingest.enrich.llm import LLMEnricher
from matjip.providers.fake import FakeCall, FakeLLM

ITEMS = load("dev")[:60]
BY_ID = {i.id: i for i in ITEMS}


def _ids(call: FakeCall) -> list[str]:
    return re.findall(r'^\{"id": "([^"]+)"', call.prompt, re.MULTILINE)


def oracle(call: FakeCall) -> dict[str, Any]:
    records = []
    for rid in _ids(call):
        item = BY_ID[rid]
        rec: dict[str, Any] = {"id": rid}
        for f in FIELDS:
            rec[f] = [{"value": v, "evidence": item.text} for v, pol in item.gold[f].items() if pol]
        records.append(rec)
    return {"records": records}


def careless(call: FakeCall) -> dict[str, Any]:
    """Every record gets 주차 and 조용한 quoted from nowhere, and a convenience no vocabulary has."""
    return {
        "records": [
            {
                "id": rid,
                "convenience": [
                    {"value": "주차", "evidence": "주차 완전 편해요 (지어낸 문장)"},
                    {"value": "헬기장", "evidence": BY_ID[rid].text},
                ],
                "atmosphere": [{"value": "조용한", "evidence": "조용해요!!! (지어낸 문장)"}],
            }
            for rid in _ids(call)
        ]
    }


def llm(function: Any) -> LLMEnricher:
    return LLMEnricher(FakeLLM(function=function), rate_per_s=0, fallback=OfflineEnricher(), batch_size=8)


def _scored(items: list[ReviewItem], enricher: LLMEnricher) -> Any:
    return score(items, enricher.enrich_many([i.document() for i in items]))


def test_oracle_answers_pass_validation_and_score_perfectly() -> None:
    enricher = llm(oracle)
    report = _scored(ITEMS, enricher)
    assert report.micro.precision == 1.0 and report.micro.recall == 1.0, report.failures[:5]
    assert report.negation_accuracy == 1.0 and enricher.stats.dropped_values == 0


def test_values_without_evidence_or_vocabulary_are_dropped() -> None:
    enricher = llm(careless)
    report = _scored(ITEMS, enricher)
    assert report.per_field["convenience"].tp == 0 and report.per_field["convenience"].fp == 0
    assert report.per_field["atmosphere"].fp == 0
    assert enricher.stats.dropped_values >= 2 * len(ITEMS)


def test_empty_replies_fall_back_to_the_offline_figures() -> None:
    fallback = llm(lambda call: {"records": []})
    offline = run(OfflineEnricher(), split="dev", limit=60)
    report = _scored(ITEMS, fallback)
    assert report.rows() == offline.rows()
