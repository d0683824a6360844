"""The on-disk layout of the index: immutable version directories behind one pointer.

``<data dir>/index`` is a symbolic link to the current version, ``<data dir>/.index.v-<ns>-<pid>``.
A build or an update writes a **new** version directory (an update starts from a copy of the
current one), writes ``manifest.json`` **last** (every file with its size and SHA-256), and then
switches the pointer with one atomic ``rename`` of a new link over the old one. A crash at any
moment therefore leaves the old version or the new one, never a mix; a half-written version has
no manifest and is never pointed to. Opening a version checks it against its manifest
(:func:`verify`); a damaged one raises :class:`~matjip.errors.IndexDamagedError` and the callers
in :mod:`matjip.index.sync` rebuild it from the document store.

Old versions are kept while they may still be in use: the current one, the one before it, any
version a live process has pinned (a loaded index pins its version: ``.pin-<pid>-<n>``), and any
finished less than :data:`GRACE_S` ago (a server may be loading it); older versions, and folders
of builds whose process is gone (``.index.build-<pid>``, ``.index.v-…-<pid>`` never switched
to), are removed by :func:`cleanup`.

``store_state.json`` (the store version the index holds, :mod:`matjip.index.sync`) lives in the
version directory but outside the manifest: it is a hint, rewritten atomically, and an update is
idempotent when it is stale.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import json
import os
import re
import shutil
import time
from pathlib import Path
from typing import Any

from matjip.errors import IndexDamagedError

MANIFEST = "manifest.json"
GRACE_S = 30.0
_PIN = re.compile(r"^\.pin-(?P<pid>\d+)-\d+$")
_pins = itertools.count()
VERIFIED = ".verified.json"  # the file identities of the last checksum pass (see verify)
UNLISTED = frozenset({MANIFEST, "store_state.json", VERIFIED})
# caches that readers keep beside the index (rebuilt when missing): never part of a version's
# manifest, so replacing or removing one can never make the index look damaged
CACHE_PREFIX = "cache-"
RECOVERY = "`matjip ingest` rebuilds it from the document store"
_VERSION = re.compile(r"^\.(?P<name>.+)\.v-(?P<ns>\d+)-(?P<pid>\d+)$")
_SCRATCH = re.compile(r"^\.(?P<name>.+)\.(?:build|old|link)-(?P<pid>\d+)$")


def new_version_dir(pointer: Path) -> Path:
    return pointer.parent / f".{pointer.name}.v-{time.time_ns()}-{os.getpid()}"


def current(pointer: Path) -> Path | None:
    """The version directory ``pointer`` leads to (itself for a plain directory), or ``None``."""
    if pointer.is_symlink():
        target = pointer.parent / os.readlink(pointer)
        return target if target.is_dir() else None
    return pointer if pointer.is_dir() else None


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _files(directory: Path) -> list[Path]:
    return sorted(
        p
        for p in directory.rglob("*")
        if p.is_file()
        and p.relative_to(directory).as_posix() not in UNLISTED
        and not p.name.endswith(".tmp")
        and not p.name.startswith(CACHE_PREFIX)
        and p.name != ".tantivy-writer.lock"
        and p.name != ".tantivy-meta.lock"
    )


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def write_manifest(directory: Path) -> None:
    """Flush every file of ``directory`` to disk, then write its manifest (last)."""
    files: dict[str, dict[str, Any]] = {}
    for p in _files(directory):
        with p.open("rb") as fh:
            os.fsync(fh.fileno())
        files[p.relative_to(directory).as_posix()] = {"size": p.stat().st_size, "sha256": _sha256(p)}
    tmp = directory / (MANIFEST + ".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        json.dump({"files": files}, fh, ensure_ascii=False)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, directory / MANIFEST)
    _fsync_dir(directory)


def _identity(st: os.stat_result) -> list[int]:
    """What changes whenever a file's content can have changed: size, times (the change time is
    set by the kernel on every write, metadata change or rename; no program can set it back), inode."""
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev]


def verify(directory: Path, *, checksums: bool = True) -> None:
    """Raise :class:`IndexDamagedError` unless every file of the manifest is there, intact.

    Sizes are checked every time. Checksums are computed when the files are not exactly the ones
    the last full pass found intact: after a pass, the identity of every file (size, modification
    and change times, inode; :func:`_identity`) goes into ``.verified.json`` beside the manifest,
    and a later open whose files all have the same identity skips re-hashing them (a version is
    immutable: any write to one of its files changes its change time). A ``matjip ask`` start
    saves the hashing of the whole index (~45 MB for the demo data) that way."""
    try:
        manifest_text = (directory / MANIFEST).read_text(encoding="utf-8")
        manifest = json.loads(manifest_text)
        files: dict[str, dict[str, Any]] = manifest["files"]
    except FileNotFoundError:
        raise IndexDamagedError(
            f"the search index in {directory} has no manifest (its build did not finish); {RECOVERY}"
        ) from None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise IndexDamagedError(
            f"the manifest of the search index in {directory} is unreadable ({exc}); {RECOVERY}"
        ) from exc
    identities: dict[str, list[int]] = {}
    for rel, want in files.items():
        path = directory / rel
        try:
            st = path.stat()
        except OSError:
            raise IndexDamagedError(f"the search index in {directory} lacks {rel}; {RECOVERY}") from None
        if st.st_size != int(want["size"]):
            raise IndexDamagedError(
                f"the search index file {rel} in {directory} has {st.st_size:,} bytes, "
                f"{int(want['size']):,} expected; {RECOVERY}"
            )
        identities[rel] = _identity(st)
    if not checksums:
        return
    stamp = {"manifest": hashlib.sha256(manifest_text.encode("utf-8")).hexdigest(), "files": identities}
    try:
        if json.loads((directory / VERIFIED).read_text(encoding="utf-8")) == stamp:
            return
    except (OSError, ValueError):
        pass
    for rel, want in files.items():
        if _sha256(directory / rel) != want["sha256"]:
            raise IndexDamagedError(
                f"the search index file {rel} in {directory} is corrupt (checksum); {RECOVERY}"
            )
    tmp = directory / f"{VERIFIED}.{os.getpid()}.tmp"
    try:
        tmp.write_text(json.dumps(stamp), encoding="utf-8")
        os.replace(tmp, directory / VERIFIED)
    except OSError:  # a read-only index is hashed at every open, as before
        with contextlib.suppress(OSError):
            tmp.unlink()


def switch(pointer: Path, version: Path) -> None:
    """Point ``pointer`` at ``version`` atomically (a legacy plain directory becomes a version)."""
    if pointer.is_dir() and not pointer.is_symlink():
        legacy = new_version_dir(pointer)
        os.replace(pointer, legacy)
    link = pointer.parent / f".{pointer.name}.link-{os.getpid()}"
    if link.is_symlink() or link.exists():
        link.unlink()
    os.symlink(version.name, link)
    os.replace(link, pointer)
    _fsync_dir(pointer.parent)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def cleanup(pointer: Path, keep: int = 2) -> list[Path]:
    """Remove folders of dead builds and versions older than the newest ``keep`` finished ones
    (the current version is always kept). Returns what was removed."""
    parent = pointer.parent
    if not parent.is_dir():
        return []
    now = current(pointer)
    removed: list[Path] = []
    finished: list[tuple[int, Path]] = []
    for p in parent.iterdir():
        m = _SCRATCH.match(p.name)
        if m and m.group("name") == pointer.name and not _alive(int(m.group("pid"))):
            removed.append(p)
            continue
        m = _VERSION.match(p.name)
        if not m or m.group("name") != pointer.name or (now is not None and p.resolve() == now.resolve()):
            continue
        if (p / MANIFEST).is_file():
            if not _pinned(p) and time.time() - (p / MANIFEST).stat().st_mtime >= GRACE_S:
                finished.append((int(m.group("ns")), p))  # else in use or just finished: kept
        elif not _alive(int(m.group("pid"))):
            removed.append(p)  # a build that never finished
    finished.sort(reverse=True)
    removed.extend(p for _, p in finished[max(0, keep - 1) :])
    for p in removed:
        if p.is_symlink() or p.is_file():
            p.unlink(missing_ok=True)
        else:
            shutil.rmtree(p, ignore_errors=True)
    return removed


def copy_version(source: Path, pointer: Path) -> Path:
    """A new (unfinished) version directory holding a copy of ``source`` without its manifest."""
    target = new_version_dir(pointer)
    shutil.copytree(source, target, ignore=shutil.ignore_patterns(MANIFEST, "*.tmp", ".tantivy-*", ".pin-*"))
    return target


def pin(version: Path) -> Path | None:
    """Mark ``version`` as in use by this process (until :func:`unpin`); None when not possible."""
    marker = version / f".pin-{os.getpid()}-{next(_pins)}"
    try:
        marker.touch()
    except OSError:
        return None
    return marker


def unpin(marker: Path | None) -> None:
    if marker is not None:
        marker.unlink(missing_ok=True)


def _pinned(version: Path) -> bool:
    for p in version.glob(".pin-*"):
        m = _PIN.match(p.name)
        if m and _alive(int(m.group("pid"))):
            return True
    return False
