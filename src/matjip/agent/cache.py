"""The gazetteer and the NLU vocabulary, compiled once and cached between processes.

Building them is most of a second of every start: the gazetteer from its tables (stations, dongs,
landmarks, outlines), the vocabulary from the documents' titles and menus (itself cached as JSON
next to the index) plus the gazetteer's place names. A cold ``matjip ask`` reads both back from
one pickle instead, in about a tenth of that.

The cache is ``<index dir>/cache-understanding-<key>.pickle`` (``cache-`` files are never part of an
index version's manifest: replacing one cannot make the index look damaged). The key is a SHA-256 of what the two
are built from:

- the source of every module of the ``matjip`` package and every package data file but the demo
  crawl (code, lexicons, gazetteer tables, vocabularies): a new version of either rebuilds it;
- the document store's version and document count (the vocabulary's source);
- the cache format and the Python version.

Anything wrong with the file — missing, truncated, corrupt, from another key, of other types — is
ignored and the cache rebuilt; it is written atomically (a temporary file renamed over it) and
older caches are removed. A pickle runs code when read: the file lives in the user's own data
directory, trusted like the index and the sessions beside it.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import logging
import os
import pickle
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from matjip.index.layout import CACHE_PREFIX

if TYPE_CHECKING:
    from matjip.geo.gazetteer import Gazetteer
    from matjip.index.backend import SearchBackend
    from matjip.nlu.parser import OfflineNLU
    from matjip.nlu.vocabulary import Vocabulary
    from matjip.settings import Settings

log = logging.getLogger("matjip.agent")

CACHE_FORMAT = 1
PREFIX = CACHE_PREFIX + "understanding-"
_PACKAGE = Path(__file__).resolve().parents[1]  # src/matjip
_NOT_SOURCES = (".gz",)  # the demo crawl: documents, read through the store


def source_files(package: Path = _PACKAGE) -> list[Path]:
    """The files the key hashes: every module and every package data file but the demo crawl."""
    modules = package.rglob("*.py")
    data = (p for p in (package / "data").rglob("*") if p.is_file() and not p.name.endswith(_NOT_SOURCES))
    return sorted({*modules, *data})


def cache_key(settings: Settings, package: Path = _PACKAGE) -> str:
    from matjip.ingest.store import DocumentStore

    h = hashlib.sha256(f"{CACHE_FORMAT}|{sys.version}|{pickle.HIGHEST_PROTOCOL}".encode())
    for path in source_files(package):
        h.update(str(path.relative_to(package)).encode() + b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    with DocumentStore(settings.store_path) as store:
        h.update(f"|store {store.version} {store.count()}".encode())
    return h.hexdigest()


def cache_path(settings: Settings, key: str) -> Path:
    return settings.index_dir / f"{PREFIX}{key[:32]}.pickle"


def read_cache(path: Path, key: str) -> tuple[Gazetteer, Vocabulary] | None:
    """The cached pair, or ``None`` when the file is missing or not a good cache for ``key``."""
    from matjip.geo.gazetteer import Gazetteer
    from matjip.nlu.vocabulary import Vocabulary

    try:
        with path.open("rb") as fh:
            data: Any = pickle.load(fh)
    except FileNotFoundError:
        return None
    except Exception as exc:  # truncated, corrupt, from an incompatible version: rebuild
        log.warning("%s is not a readable cache (%s): rebuilding it", path, type(exc).__name__)
        return None
    if (
        not isinstance(data, dict)
        or data.get("key") != key
        or not isinstance(data.get("gazetteer"), Gazetteer)
        or not isinstance(data.get("vocabulary"), Vocabulary)
    ):
        log.warning("%s does not hold this data's gazetteer and vocabulary: rebuilding it", path)
        return None
    return data["gazetteer"], data["vocabulary"]


def write_cache(path: Path, key: str, gazetteer: Gazetteer, vocabulary: Vocabulary) -> None:
    """Write the pair atomically and remove older caches; a failure to write is only logged."""
    tmp = path.with_name(f"{path.name}.tmp-{os.getpid()}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tmp.open("wb") as fh:
            pickle.dump(
                {"key": key, "gazetteer": gazetteer, "vocabulary": vocabulary},
                fh,
                protocol=pickle.HIGHEST_PROTOCOL,
            )
        tmp.replace(path)
        for old in path.parent.glob(f"{PREFIX}*.pickle"):
            if old != path:
                old.unlink(missing_ok=True)
    except OSError as exc:
        log.warning("could not write %s (%s): the next start builds it again", path, exc)
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)


def _vocabulary(settings: Settings, index: SearchBackend) -> tuple[Vocabulary, bool]:
    """The vocabulary from its JSON next to the index, else built from the documents; ``True``
    when built (to be saved once the gazetteer's place names are in)."""
    from matjip.ingest.store import DocumentStore
    from matjip.nlu.vocabulary import Vocabulary

    vocab_path = _vocabulary_path(settings, index)
    if vocab_path.exists():
        try:
            return Vocabulary.load(vocab_path), False
        except Exception:
            pass
    with DocumentStore(settings.store_path) as store:
        return Vocabulary.from_restaurants(store.iter_documents()), True


def _with_document_dongs(gazetteer: Gazetteer, settings: Settings) -> Gazetteer:
    """A copy of the process-wide gazetteer that also places the dongs the documents name
    (:mod:`matjip.geo.docplaces`)."""
    from matjip.geo.docplaces import DocumentDongs
    from matjip.ingest.store import DocumentStore

    with DocumentStore(settings.store_path) as store:
        dongs = DocumentDongs.from_documents(
            (d.title, d.address, d.road_address, d.lat, d.lon) for d in store.iter_documents()
        )
    out = copy.copy(gazetteer)
    out.document_dongs = dongs
    return out


def _vocabulary_path(settings: Settings, index: SearchBackend) -> Path:
    # a rebuilt index removes it, a changed document count renames it
    return settings.index_dir / f"{CACHE_PREFIX}nlu-vocabulary-{index.count()}.json"


def load_understanding(settings: Settings, index: SearchBackend) -> tuple[Gazetteer, OfflineNLU]:
    """The gazetteer (also made the process-wide one) and the offline NLU over the index's
    vocabulary: from the cache when it is good, otherwise built and cached."""
    from matjip.geo.gazetteer import Gazetteer, install_gazetteer
    from matjip.nlu import OfflineNLU

    key = cache_key(settings)
    path = cache_path(settings, key)
    cached = read_cache(path, key)
    if cached is not None:
        gazetteer, vocabulary = cached
        install_gazetteer(gazetteer)
        return gazetteer, OfflineNLU(vocabulary, gazetteer)
    gazetteer = Gazetteer.load()
    vocabulary, fresh = _vocabulary(settings, index)
    gazetteer = _with_document_dongs(gazetteer, settings)
    install_gazetteer(gazetteer)
    nlu = OfflineNLU(vocabulary, gazetteer)  # adds the gazetteer's place names to the vocabulary
    if fresh:
        for old in settings.index_dir.glob(f"{CACHE_PREFIX}nlu-vocabulary-*.json"):
            old.unlink(missing_ok=True)
        vocabulary.save(_vocabulary_path(settings, index))
    write_cache(path, key, gazetteer, vocabulary)
    return gazetteer, nlu
