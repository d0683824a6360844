"""Issue 13, defects 4, 5, 6 and 11: the index checks itself, heals from the store, is replaced
atomically as a whole, and a running server notices a new version without ever mixing two.

The layout (:mod:`matjip.index.layout`): ``index`` is a link to an immutable version directory
whose ``manifest.json`` (sizes and checksums) is written last; a build or an update writes a new
version and switches the link. The kill -9 trials are ``scripts/index_crash_trials.py``.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fakes.embedder import FakeEmbedder
from matjip.documents import Restaurant
from matjip.errors import IndexDamagedError, SearchIndexError
from matjip.index import layout, sync
from matjip.index.embedded import EmbeddedIndex
from matjip.index.request import SearchRequest
from matjip.ingest.store import DocumentStore
from matjip.settings import Settings
from support.index import make_corpus, sushi_near_gangnam


@pytest.fixture
def settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Settings:
    import matjip.index.embed as embed_pkg

    monkeypatch.setattr(embed_pkg, "get_embedder", lambda name, settings=None: FakeEmbedder(name=name))
    s = Settings(data_dir=tmp_path / "data", embedder="fake", _env_file=None)  # type: ignore[call-arg]
    s.data_dir.mkdir(parents=True)
    with DocumentStore(s.store_path) as store:
        store.write_batch([(d, f"h{i}", "test", i) for i, d in enumerate(make_corpus(40))])
    return s


def built(settings: Settings) -> EmbeddedIndex:
    result = sync.ensure_index(settings)
    assert result is not None
    return result.index


def damaged_files(version: Path) -> list[str]:
    """The index's files (the manifest's own list, non-empty ones): the core files, two of
    tantivy's, one of the embedder's, and the manifest itself."""
    import json

    listed = json.loads((version / layout.MANIFEST).read_text())["files"]
    files = [rel for rel, f in listed.items() if f["size"] > 0]
    names = ["docs.tsv", "columns.npz", "strings.json", "meta.json", "vectors.f32"]
    tantivy = sorted(rel for rel in files if rel.startswith("tantivy/"))
    embedder = sorted(rel for rel in files if rel.startswith("embedder/"))
    return [*names, *tantivy[:2], *embedder[:1], layout.MANIFEST]


def test_every_truncated_file_is_detected_and_rebuilt_from_the_store(settings: Settings) -> None:
    from matjip.index import open_index

    index = built(settings)
    n = index.count()
    version = layout.current(settings.index_dir)
    assert version is not None and version != settings.index_dir and settings.index_dir.is_symlink()
    for rel in damaged_files(version):
        current = layout.current(settings.index_dir)
        assert current is not None
        path = current / rel
        if not path.exists():
            continue
        with path.open("r+b") as fh:
            fh.truncate(max(0, path.stat().st_size // 2))
        with pytest.raises(SearchIndexError) as err:
            open_index(settings)
        assert "matjip ingest" in str(err.value) and "matjip index" not in str(err.value), (rel, err.value)
        messages: list[str] = []
        result = sync.ensure_index(settings, on_rebuild=messages.append)
        assert result is not None and result.action == "rebuilt", rel
        assert result.index.count() == n and messages, rel
        assert open_index(settings).count() == n


def test_ingest_update_rebuilds_a_damaged_index_instead_of_calling_it_current(settings: Settings) -> None:
    built(settings)
    current = layout.current(settings.index_dir)
    assert current is not None
    with (current / "docs.tsv").open("r+b") as fh:  # the case of the issue: /health ok, chats 500
        fh.truncate(100)
    with DocumentStore(settings.store_path) as store:
        result = sync.update_index(settings, store)
    assert result.action == "rebuilt" and result.index.count() == 45
    assert all(d is not None for d in (result.index.get(pid) for pid in result.index.ids()))


def test_a_half_written_version_is_never_used(settings: Settings) -> None:
    index = built(settings)
    before = layout.current(settings.index_dir)
    half = layout.copy_version(before, settings.index_dir)  # no manifest: a crash mid-write
    assert layout.current(settings.index_dir) == before
    again = EmbeddedIndex(settings.index_dir, FakeEmbedder(name="fake"), settings).load()
    assert again.count() == index.count()
    with pytest.raises(IndexDamagedError, match="no manifest"):
        layout.verify(half)


def test_checksums_are_skipped_only_for_the_files_the_last_pass_found_intact(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second open of an untouched version hashes nothing; a same-size overwrite of one byte,
    even with its modification time put back, is hashed again and found."""
    built(settings)
    version = layout.current(settings.index_dir)
    assert version is not None
    layout.verify(version)
    assert (version / layout.VERIFIED).is_file()
    hashed: list[str] = []
    real = layout._sha256

    def counting(path: Path) -> str:
        hashed.append(path.name)
        return real(path)

    monkeypatch.setattr(layout, "_sha256", counting)
    layout.verify(version)
    assert hashed == []
    path = version / "docs.tsv"
    st = path.stat()
    with path.open("r+b") as fh:
        first = fh.read(1)
        fh.seek(0)
        fh.write(bytes([first[0] ^ 0x01]))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert path.stat().st_size == st.st_size and path.stat().st_mtime_ns == st.st_mtime_ns
    with pytest.raises(IndexDamagedError, match="checksum"):
        layout.verify(version)
    assert hashed
    # a stamp that does not match the files is no reason to skip
    with path.open("r+b") as fh:
        fh.write(first)
    hashed.clear()
    (version / layout.VERIFIED).write_text('{"manifest": "x", "files": {}}', encoding="utf-8")
    layout.verify(version)
    assert "docs.tsv" in hashed


def test_stale_build_folders_are_removed(settings: Settings) -> None:
    built(settings)
    parent = settings.index_dir.parent
    dead = 2**22 + 12345  # beyond pid_max on most systems: not running
    stale = [parent / f".index.build-{dead}", parent / f".index.v-1-{dead}", parent / f".index.old-{dead}"]
    for p in stale:
        (p / "tantivy").mkdir(parents=True)
        (p / "docs.tsv").write_bytes(b"x" * 1000)
    with DocumentStore(settings.store_path) as store:
        store.write_batch([(Restaurant(place_id="new1", title="새 식당"), "n1", "test", 1)])
        sync.update_index(settings, store)
    assert not any(p.exists() for p in stale)
    versions = [p for p in parent.iterdir() if p.name.startswith(".index.v-")]
    assert len(versions) <= 2  # the current version and the one before it


def test_health_of_the_index_names_the_problem(settings: Settings) -> None:
    index = built(settings)
    assert index.health() is None
    current = layout.current(settings.index_dir)
    assert current is not None
    with (current / "strings.json").open("r+b") as fh:
        fh.truncate(10)
    problem = index.health()
    assert problem is not None and "strings.json" in problem and "matjip ingest" in problem


def versioned(tag: str) -> list[Restaurant]:
    return [d.model_copy(update={"title": f"{d.title} {tag}"}) for d in sushi_near_gangnam()]


def test_a_running_index_notices_a_new_version_and_never_mixes(tmp_path: Path) -> None:
    """Searches from many threads while another instance (as another process would) rebuilds the
    index over and over with documents tagged by version: every search sees exactly one version."""
    settings = Settings(data_dir=tmp_path, _env_file=None)  # type: ignore[call-arg]
    directory = tmp_path / "index"
    EmbeddedIndex(directory, FakeEmbedder(), settings).build(versioned("v0"))
    serving = EmbeddedIndex(directory, FakeEmbedder(), settings).load()
    stop = threading.Event()
    seen: set[str] = set()
    errors: list[BaseException] = []

    def search() -> None:
        while not stop.is_set():
            try:
                hits = serving.search(SearchRequest(text="스시", k=10)).hits
                tags = {h.document.title.rsplit(" ", 1)[1] for h in hits}
                assert len(tags) == 1, tags
                docs = [serving.get(h.document.place_id) for h in hits]
                assert all(d is not None for d in docs)
                seen.update(tags)
            except BaseException as exc:
                errors.append(exc)
                stop.set()

    threads = [threading.Thread(target=search) for _ in range(3)]
    for t in threads:
        t.start()
    try:
        for k in range(1, 6):
            EmbeddedIndex(directory, FakeEmbedder(), settings).build(versioned(f"v{k}"))
    finally:
        stop.set()
        for t in threads:
            t.join(30)
    assert not errors, errors[0]
    final = {
        h.document.title.rsplit(" ", 1)[1] for h in serving.search(SearchRequest(text="스시", k=10)).hits
    }
    assert final == {"v5"}  # it noticed the last rebuild


def test_chats_during_a_rebuild_never_fail_or_mix(tmp_path: Path) -> None:
    """The HTTP API over the real offline agent while the index is rebuilt in the background."""
    from matjip.agent.service import Agent
    from matjip.api import create_app
    from support.index import resources_over

    settings = Settings(data_dir=tmp_path, rate_limit_per_minute=0, _env_file=None)  # type: ignore[call-arg]
    directory = tmp_path / "index"
    EmbeddedIndex(directory, FakeEmbedder(), settings).build(versioned("v0"))
    agent = Agent(settings, resources_over(directory, versioned("v0")), persist=False)
    stop = threading.Event()
    outcomes: list[tuple[int, set[str]]] = []
    failures: list[str] = []
    errors: list[BaseException] = []

    with TestClient(create_app(settings, agent=agent)) as client:

        def chat() -> None:
            while not stop.is_set():
                try:
                    resp = client.post(
                        "/v1/chat", json={"message": "강남역 스시"}, headers={"Accept": "application/json"}
                    )
                    cards = resp.json().get("cards", []) if resp.status_code == 200 else []
                    if resp.status_code != 200:
                        failures.append(resp.text[:300])
                    outcomes.append((resp.status_code, {c["name"].rsplit(" ", 1)[1] for c in cards}))
                except BaseException as exc:
                    errors.append(exc)
                    stop.set()

        threads = [threading.Thread(target=chat) for _ in range(3)]
        for t in threads:
            t.start()
        try:
            for k in range(1, 5):
                EmbeddedIndex(directory, FakeEmbedder(), settings).build(versioned(f"v{k}"))
        finally:
            stop.set()
            for t in threads:
                t.join(60)
        health = client.get("/health").json()
    agent.close()
    assert not errors, errors[0]
    assert outcomes and all(status == 200 for status, _ in outcomes), failures
    assert all(len(tags) <= 1 for _, tags in outcomes), outcomes
    assert any(tags for _, tags in outcomes)
    assert health["status"] == "ok", health


def test_health_is_degraded_with_the_reason(tmp_path: Path) -> None:
    from matjip.agent.service import Agent
    from matjip.api import create_app
    from support.index import resources_over

    settings = Settings(data_dir=tmp_path, _env_file=None)  # type: ignore[call-arg]
    directory = tmp_path / "index"
    EmbeddedIndex(directory, FakeEmbedder(), settings).build(versioned("v0"))
    agent = Agent(settings, resources_over(directory, versioned("v0")), persist=False)
    with TestClient(create_app(settings, agent=agent)) as client:
        assert client.get("/health").json()["status"] == "ok"
        current = layout.current(directory)
        assert current is not None
        with (current / "docs.tsv").open("r+b") as fh:
            fh.truncate(10)
        body = client.get("/health").json()
    agent.close()
    assert body["status"] == "degraded" and "docs.tsv" in body["detail"] and "matjip ingest" in body["detail"]
    _ = os, Any


def test_a_damaged_session_database_is_moved_aside(tmp_path: Path, api_resources: Any) -> None:
    from matjip.agent.service import Agent

    settings = Settings(data_dir=tmp_path, _env_file=None)  # type: ignore[call-arg]
    settings.sessions_path.write_bytes(b"not a database " * 100)
    agent = Agent(settings, api_resources, persist=True)  # no traceback
    try:
        assert agent.ask("강남역 스시", "after-damage-1").answer
    finally:
        agent.close()
    assert list(tmp_path.glob("sessions.sqlite.damaged-*"))


def test_a_damaged_document_store_names_the_recovery(tmp_path: Path) -> None:
    path = tmp_path / "documents.sqlite"
    path.write_bytes(b"garbage " * 1000)
    with pytest.raises(SearchIndexError.__mro__[1]) as err:  # MatjipError: reported without a traceback
        DocumentStore(path)
    assert "matjip ingest" in str(err.value) and "damaged" in str(err.value)


def test_a_dropped_index_unpins_its_version(tmp_path: Path) -> None:
    """A loaded index pins its version (kept on disk while in use); dropping it releases the pin at
    once, so old versions can be cleaned up (no reference cycle keeps the snapshot alive)."""
    settings = Settings(data_dir=tmp_path, _env_file=None)  # type: ignore[call-arg]
    directory = tmp_path / "index"
    EmbeddedIndex(directory, FakeEmbedder(), settings).build(versioned("v0"))
    index = EmbeddedIndex(directory, FakeEmbedder(), settings).load()
    assert list(tmp_path.glob(".index.v-*/.pin-*"))
    del index
    assert not list(tmp_path.glob(".index.v-*/.pin-*"))
