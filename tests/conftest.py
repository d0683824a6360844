"""Shared fixtures. ``sample_data_dir`` ingests and indexes a stratified sample of the demo data
once per test session (a real run of the product's own pipeline, ~2.5k documents)."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from matjip.settings import DEMO_DATA, Settings

SAMPLE_BRANDS = ("진대감", "버거킹", "맥도날드", "롯데리아", "맘스터치", "교촌", "BBQ", "본죽")
SAMPLE_EVERY = 5


def write_sample(path: Path, every: int = SAMPLE_EVERY) -> int:
    """Every ``every``-th demo record plus all records of a few brands used by tests."""
    n = 0
    with gzip.open(DEMO_DATA, "rt", encoding="utf-8") as src, path.open("w", encoding="utf-8") as dst:
        for i, line in enumerate(src):
            rec = json.loads(line)
            if i % every == 0 or any(b in rec.get("title", "") for b in SAMPLE_BRANDS):
                dst.write(line)
                n += 1
    return n


@pytest.fixture(scope="session")
def sample_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("sample") / "sample.jsonl"
    write_sample(path)
    return path


@pytest.fixture(scope="session")
def sample_settings(tmp_path_factory: pytest.TempPathFactory, sample_file: Path) -> Settings:
    """Settings whose data dir holds the ingested + indexed sample."""
    from matjip.commands.ingest import run_ingest

    data_dir = tmp_path_factory.mktemp("matjip-data")
    settings = Settings(data_dir=data_dir)
    run_ingest(settings, [sample_file], resume=False, enricher_name="offline", do_index=True)
    return settings


@pytest.fixture(scope="session")
def sample_agent(sample_settings: Settings) -> Iterator[object]:
    """A real offline agent over the sample (sessions in memory)."""
    from matjip.agent.service import Agent

    agent = Agent(sample_settings, persist=False)
    yield agent
    agent.close()


# --- API fixtures (tests/test_api*.py, tests/test_web*.py); names prefixed ``api_`` ----------


class ApiFakeIndex:
    """The parts of the search backend the API reads: get, count, stats."""

    def __init__(self, docs: dict[str, object]) -> None:
        self.docs = docs

    def get(self, place_id: str) -> object | None:
        return self.docs.get(place_id)

    def count(self) -> int:
        return len(self.docs)

    def stats(self) -> dict[str, object]:
        return {"embedder": "fake", "documents": len(self.docs)}


class ApiFakeGazetteer:
    def lookup(self, name: str) -> list[object]:
        from matjip.geo.gazetteer import Place, PlaceType

        if name != "양평역":
            return []
        return [
            Place(
                key="subway_station:1",
                name="양평역",
                type=PlaceType.SUBWAY_STATION,
                lat=37.525614,
                lon=126.885,
                default_radius_m=1000,
                display_name="양평역 (5호선, 서울 영등포구)",
            ),
            Place(
                key="subway_station:2",
                name="양평역",
                type=PlaceType.SUBWAY_STATION,
                lat=37.492674,
                lon=127.4918,
                default_radius_m=1000,
                display_name="양평역 (경의중앙선, 경기 양평군)",
            ),
        ]

    def is_ambiguous(self, name: str) -> bool:
        return name == "양평역"


class ApiFakeResources:
    def __init__(self, docs: dict[str, object]) -> None:
        self.index = ApiFakeIndex(docs)
        self.gazetteer = ApiFakeGazetteer()


class ApiFakeAgent:
    """A stand-in for ``matjip.agent.service.Agent`` that streams real-shaped ``TurnEvent``s.

    Messages: anything → 3 restaurant cards near 강남역; "양평역 …" → a place clarification
    (answer "1"/"2" to resolve it); "boom" → raises; "slow" → blocks until ``release`` is set;
    "llm" → an answer without answer events (like an LLM answer); "reset" → an answer that is
    reset mid-stream (``answer_reset``), then streamed again; "기억" → the answer lists
    this session's earlier messages (for isolation tests).
    """

    CHOICES = (
        {"index": 1, "label": "양평역 (5호선, 서울 영등포구)", "lat": 37.525614, "lon": 126.885},
        {"index": 2, "label": "양평역 (경의중앙선, 경기 양평군)", "lat": 37.492674, "lon": 127.4918},
    )

    def __init__(self) -> None:
        import threading

        from matjip.documents import MenuItem, Restaurant

        self.release = threading.Event()
        self.history: dict[str, list[str]] = {}
        self.pending: dict[str, str] = {}
        self.calls = 0
        docs = {
            f"9000{i}": Restaurant(
                place_id=f"9000{i}",
                title=name,
                category="일식>초밥,롤",
                cuisine="일식",
                address=f"서울 강남구 역삼동 {i}",
                lat=37.4979 + i * 0.001,
                lon=127.0276 + i * 0.001,
                menus=[MenuItem(name="모듬초밥", price=18000 + i * 1000), MenuItem(name="우동", price=9000)],
                telephone="02-000-000" + str(i),
            )
            for i, name in enumerate(["스시 하나", "초밥 두리", "오마카세 셋"], start=1)
        }
        self.resources = ApiFakeResources(docs)  # type: ignore[arg-type]

    def stream(self, message: str, session_id: str | None = None, location: dict[str, float] | None = None):  # type: ignore[no-untyped-def]
        import uuid

        from matjip.agent.models import (
            Card,
            Clarification,
            Grade,
            PlanLocation,
            SearchPlan,
            TraceEntry,
            TurnEvent,
            TurnResult,
        )

        self.calls += 1
        sid = session_id or uuid.uuid4().hex
        yield TurnEvent(event="session", data={"session_id": sid})
        earlier = list(self.history.get(sid, []))
        self.history.setdefault(sid, []).append(message)
        trace = [TraceEntry(node="query_input", ms=0.1, decision="ok"), TraceEntry(node="generate", ms=0.2)]
        if message == "boom":
            raise RuntimeError("internal failure with secret sk-test-DO-NOT-LEAK")
        if message == "slow":
            self.release.wait(30)
        if message.startswith("양평역") and sid not in self.pending:
            self.pending[sid] = message
            clar = Clarification(
                question="'양평역'이(가) 여러 곳 있어요. 어느 곳을 말씀하시는 건가요?",
                name="양평역",
                choices=list(self.CHOICES),  # type: ignore[arg-type]
                pending_query=message,
            )
            yield TurnEvent(event="clarification", data=clar.model_dump(mode="json"))
            answer = (
                clar.question + "\n1. 양평역 (5호선, 서울 영등포구)\n2. 양평역 (경의중앙선, 경기 양평군)\n"
            )
            for i in range(0, len(answer), 10):
                yield TurnEvent(event="answer", data=answer[i : i + 10])
            result = TurnResult(session_id=sid, answer=answer, clarification=clar, trace=trace)
            yield TurnEvent(event="trace", data=[t.model_dump(mode="json") for t in trace])
            yield TurnEvent(event="end", data=result.model_dump(mode="json"))
            return
        origin = "강남역"
        lat, lon = 37.4979, 127.0276
        if sid in self.pending:
            self.pending.pop(sid)
            choice = (
                self.CHOICES[0] if message.strip() in ("1", self.CHOICES[0]["label"]) else self.CHOICES[1]
            )
            origin, lat, lon = str(choice["label"]), float(choice["lat"]), float(choice["lon"])  # type: ignore[arg-type]
        if location:
            origin, lat, lon = "내 위치", location["lat"], location["lon"]
        plan = SearchPlan(
            strategy="radius",
            location=PlanLocation(name=origin, lat=lat, lon=lon, radius_m=1000),
            cuisine=["일식"],
            k=3,
        )
        yield TurnEvent(event="plan", data=plan.model_dump(mode="json"))
        cards = []
        for i, doc in enumerate(self.resources.index.docs.values()):
            cards.append(
                Card(
                    id=doc.place_id,  # type: ignore[attr-defined]
                    name=doc.title,  # type: ignore[attr-defined]
                    cuisine="일식",
                    category="초밥,롤",
                    address=doc.address,  # type: ignore[attr-defined]
                    distance_m=120.0 * (i + 1),
                    lat=lat + 0.001 * (i + 1),
                    lon=lon + 0.001 * (i + 1),
                    matched=["일식", "반경 1km"],
                    menus=[{"name": "모듬초밥", "price": 18000 + i * 1000}],
                    hours_today="11:30~22:00",
                    score=0.9 - i * 0.05,
                    telephone=doc.telephone,  # type: ignore[attr-defined]
                )
            )
        yield TurnEvent(event="results", data=[c.model_dump(mode="json") for c in cards])
        if message == "기억":
            answer = "이 대화에서 물어보신 것: " + " / ".join(earlier) + "\n"
        else:
            answer = f"{origin} 근처 일식집 3곳을 찾았어요.\n" + "".join(
                f"{i}. {c.name} ({c.distance_m:.0f}m): 모듬초밥 {c.menus[0]['price']:,}원\n"
                for i, c in enumerate(cards, start=1)
            )
        if message == "reset":  # an LLM answer abandoned mid-stream, then the template answer
            yield TurnEvent(event="answer", data="근거 없는 ")
            yield TurnEvent(event="answer", data="답변")
            yield TurnEvent(event="answer_reset", data="ProviderError: upstream said sk-test-RESET-SECRET")
        if message != "llm":
            for i in range(0, len(answer), 7):
                yield TurnEvent(event="answer", data=answer[i : i + 7])
        grade = Grade(
            overall_relevance="relevant", reason="[1단계 Top-K] top_1=0.90", tier="confident", top_score=0.9
        )
        result = TurnResult(
            session_id=sid,
            answer=answer,
            intent="search",
            plan=plan,
            cards=cards,
            grade=grade,
            searched=True,
            trace=trace,
            nlu={"intent": "search", "entities": {"location": [origin], "category": ["일식"]}},
        )
        yield TurnEvent(event="trace", data=[t.model_dump(mode="json") for t in trace])
        yield TurnEvent(event="end", data=result.model_dump(mode="json"))


@pytest.fixture
def api_fake_agent() -> Iterator[ApiFakeAgent]:
    agent = ApiFakeAgent()
    yield agent
    agent.release.set()


@pytest.fixture
def api_settings(tmp_path: Path) -> Settings:
    """Settings for API tests with a fake agent (an empty, private data dir)."""
    return Settings(data_dir=tmp_path / "data", _env_file=None)  # type: ignore[call-arg]


@pytest.fixture(scope="session")
def api_data_dir(sample_settings: Settings) -> Path:
    """A data dir holding the ingested + indexed sample (the shared ``sample_settings``)."""
    return sample_settings.data_dir


def api_free_port() -> int:
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def api_live_server(api_data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``matjip serve`` in a subprocess on a free loopback port over the sample data; yields its base URL."""
    import os
    import subprocess
    import sys
    import time

    import httpx

    port = api_free_port()
    workdir = tmp_path_factory.mktemp("serve")
    env = {k: v for k, v in os.environ.items() if not k.startswith("MATJIP_")}
    env.update(
        {
            "MATJIP_DATA_DIR": str(api_data_dir),
            "MATJIP_LLM_PROVIDER": "none",
            "MATJIP_RATE_LIMIT_PER_MINUTE": "0",
            "MATJIP_PORT": str(port),
        }
    )
    log_path = workdir / "serve.log"
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-c", "from matjip.cli import main; main()", "serve", "--no-access-log"],
            cwd=workdir,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    try:
        while True:
            if proc.poll() is not None:
                pytest.fail(
                    f"matjip serve exited ({proc.returncode}):\n{log_path.read_text(errors='replace')}"
                )
            try:
                if httpx.get(base + "/health", timeout=2).json().get("index_loaded"):
                    break
            except (httpx.HTTPError, ValueError):
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"matjip serve did not become ready:\n{log_path.read_text(errors='replace')}")
            time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
