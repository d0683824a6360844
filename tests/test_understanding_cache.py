"""The compiled gazetteer + NLU vocabulary cache: read back it understands exactly as a fresh
build; a bad cache (corrupt, truncated, foreign, of other types) is ignored and rebuilt; a change
of the documents or of the sources changes the key."""

from __future__ import annotations

import pickle
import shutil
from pathlib import Path

import pytest

from matjip.agent import cache as understanding
from matjip.agent.cache import cache_key, cache_path, load_understanding, read_cache
from matjip.geo.gazetteer import Gazetteer, get_gazetteer
from matjip.index import open_index
from matjip.nlu.vocabulary import Vocabulary
from matjip.settings import Settings

QUESTIONS = [
    "잠실역 치킨집 추천해줘",
    "강남역 주차되는 일식집",
    "마포 진대감 주차되나요?",
    "버거킹과 맥도날드 중 어디가 더 맛있어?",
    "석촌호수 근처 조용한 카페",
    "gangnam station korean bbq",
    "송리단길 파스타 말고 스시",
]


@pytest.fixture
def settings(sample_settings: Settings, tmp_path: Path) -> Settings:
    """A private copy of the sample's data directory (the cache is written into its index)."""
    data = tmp_path / "data"
    shutil.copytree(sample_settings.data_dir, data, symlinks=True)
    for old in (data / "index").glob("cache-understanding-*.pickle"):
        old.unlink()
    return Settings(data_dir=data)


def _parses(settings: Settings) -> list[dict[str, object]]:
    _gazetteer, nlu = load_understanding(settings, open_index(settings))
    return [nlu.parse(q).model_dump(mode="json") for q in QUESTIONS]


def test_a_cached_start_understands_as_a_fresh_one(settings: Settings) -> None:
    key = cache_key(settings)
    path = cache_path(settings, key)
    assert not path.exists()
    fresh = _parses(settings)  # builds and writes the cache
    assert path.exists() and read_cache(path, key) is not None
    cached = _parses(settings)
    assert cached == fresh
    gazetteer, nlu = load_understanding(settings, open_index(settings))
    assert get_gazetteer() is gazetteer  # the process-wide gazetteer is the one read back
    assert gazetteer.lookup("잠실역") and nlu.vocabulary.title_info("진대감") is not None


@pytest.mark.parametrize(
    "damage",
    [
        b"",
        b"not a pickle at all",
        b"\x80\x05\x95",  # a truncated pickle
        pickle.dumps({"key": "another", "gazetteer": None, "vocabulary": None}),
        pickle.dumps(["a", "list"]),
    ],
    ids=["empty", "garbage", "truncated", "other key", "other type"],
)
def test_a_bad_cache_is_ignored_and_rebuilt(settings: Settings, damage: bytes) -> None:
    fresh = _parses(settings)
    key = cache_key(settings)
    path = cache_path(settings, key)
    path.write_bytes(damage)
    assert read_cache(path, key) is None
    assert _parses(settings) == fresh
    rebuilt = read_cache(path, key)  # written again, good this time
    assert rebuilt is not None
    assert isinstance(rebuilt[0], Gazetteer) and isinstance(rebuilt[1], Vocabulary)


def test_a_cache_of_the_wrong_types_under_the_right_key_is_refused(settings: Settings) -> None:
    key = cache_key(settings)
    path = cache_path(settings, key)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pickle.dumps({"key": key, "gazetteer": "x", "vocabulary": "y"}))
    assert read_cache(path, key) is None


def test_the_key_follows_the_documents_and_the_sources(settings: Settings, tmp_path: Path) -> None:
    from matjip.ingest.store import DocumentStore

    key = cache_key(settings)
    assert cache_key(settings) == key  # stable
    with DocumentStore(settings.store_path) as store:
        store.delete([next(iter(store.ids()))])
    assert cache_key(settings) != key  # a changed store is another key

    package = tmp_path / "pkg"
    (package / "data").mkdir(parents=True)
    (package / "mod.py").write_text("X = 1\n", encoding="utf-8")
    (package / "data" / "names.tsv").write_text("a\n", encoding="utf-8")
    (package / "data" / "crawl.jsonl.gz").write_bytes(b"documents")
    files = understanding.source_files(package)
    assert [p.relative_to(package).as_posix() for p in files] == ["data/names.tsv", "mod.py"]
    before = cache_key(settings, package)
    (package / "data" / "crawl.jsonl.gz").write_bytes(b"other documents")  # not a source
    assert cache_key(settings, package) == before
    (package / "data" / "names.tsv").write_text("b\n", encoding="utf-8")
    assert cache_key(settings, package) != before


def test_an_unwritable_cache_only_costs_the_rebuild(settings: Settings, tmp_path: Path) -> None:
    key = cache_key(settings)
    blocked = tmp_path / "not-a-dir"
    blocked.write_text("a file where the directory should be", encoding="utf-8")
    gazetteer, nlu = load_understanding(settings, open_index(settings))
    understanding.write_cache(blocked / "x.pickle", key, gazetteer, nlu.vocabulary)  # logs, no raise
    assert not (blocked / "x.pickle").exists()


def test_a_cache_beside_the_index_is_never_part_of_its_manifest(tmp_path: Path) -> None:
    """Replacing the understanding cache (a code or data change) must not make the index look
    damaged and rebuild it: caches are not listed in a version's manifest."""
    from matjip.index.layout import CACHE_PREFIX, verify, write_manifest

    version = tmp_path / "v"
    version.mkdir()
    (version / "docs.bin").write_bytes(b"index data")
    (version / f"{CACHE_PREFIX}understanding-old.pickle").write_bytes(b"cache")
    write_manifest(version)
    (version / f"{CACHE_PREFIX}understanding-old.pickle").unlink()  # replaced by a newer key
    (version / f"{CACHE_PREFIX}understanding-new.pickle").write_bytes(b"newer cache")
    verify(version)  # no IndexDamagedError
