"""Compiled copies of the review-reading hot path (optional; mypyc).

Reading review text is plain Python over many small objects. Compiled with mypyc it runs about
twice as fast, and ingest of review text 1.6x as fast (``bench/ingest.py`` prints which reader ran).
The copies are built from the sources (``python -m matjip.ingest.enrich.native``, run by
``make native`` and ``make setup-test``) under their own names, so an edited source never runs stale
compiled code:

    matjip.text.pairs             →  matjip.text._pairs_native
    matjip.ingest.enrich.offline  →  matjip.ingest.enrich._offline_native

The build records the digest of the sources next to the copies; :func:`offline_module` imports the
compiled module only when that digest matches the sources on disk, and returns the plain module
otherwise (no compiler, no mypyc, an edited source, ``MATJIP_NATIVE=false``). Both give the same
enrichment (``tests/test_native.py``).
"""

from __future__ import annotations

import hashlib
import importlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from functools import lru_cache
from pathlib import Path
from types import ModuleType

from matjip.ingest.enrich import offline

_SRC = Path(__file__).resolve().parents[3]  # the directory holding the matjip package
# module → its compiled copy
COPIES: dict[str, str] = {
    "matjip.text.pairs": "matjip.text._pairs_native",
    "matjip.ingest.enrich.offline": "matjip.ingest.enrich._offline_native",
}
GROUP = "matjip_native"  # mypyc's shared runtime library for the group: ``matjip_native__mypyc``


def _path(module: str, root: Path = _SRC) -> Path:
    return root.joinpath(*module.split(".")).with_suffix(".py")


def source_digest(root: Path = _SRC) -> str:
    """The digest of the sources the compiled copies are built from."""
    h = hashlib.sha256()
    for module in COPIES:
        h.update(module.encode() + b"\0" + _path(module, root).read_bytes() + b"\0")
    return h.hexdigest()


def _copy_source(module: str, digest: str, root: Path) -> str:
    text = _path(module, root).read_text(encoding="utf-8")
    for plain, copy in COPIES.items():
        text = re.sub(rf"\bfrom {re.escape(plain)} import\b", f"from {copy} import", text)
    return text + f'\n\nSOURCE_DIGEST = "{digest}"\n'


def _stamp(root: Path = _SRC) -> Path:
    """Written last by :func:`build`: the digest of the sources the compiled copies were built
    from, read before importing them (a stale copy is never imported)."""
    return _path(COPIES["matjip.ingest.enrich.offline"], root).with_suffix(".digest")


def _built_digest(root: Path = _SRC) -> str:
    try:
        return _stamp(root).read_text(encoding="utf-8").strip()
    except OSError:
        return ""


@lru_cache(maxsize=2)
def offline_module(enabled: bool = True) -> ModuleType:
    """The offline enricher's module: the compiled copy when it is built from these sources."""
    if not enabled or _built_digest() != source_digest():
        return offline
    try:
        native = importlib.import_module(COPIES["matjip.ingest.enrich.offline"])
    except ImportError:
        return offline
    return native if getattr(native, "SOURCE_DIGEST", None) == source_digest() else offline


def is_native(module: ModuleType) -> bool:
    return module.__name__ in COPIES.values()


def build(root: Path = _SRC, *, quiet: bool = True) -> bool:
    """Compile the copies with mypyc into ``root`` (next to their sources); True when built or
    already up to date, False when mypyc or a C compiler is missing (the plain modules then run)."""
    digest = source_digest(root)
    if _built_digest(root) == digest:
        return True
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        print("matjip native: mypyc is not installed; the plain Python reader runs", file=sys.stderr)
        return False
    with tempfile.TemporaryDirectory(prefix="matjip-native-") as tmp:
        work = Path(tmp)
        shutil.copytree(
            root / "matjip", work / "matjip", ignore=shutil.ignore_patterns("__pycache__", "*.so")
        )
        for module, copy in COPIES.items():
            _path(copy, work).write_text(_copy_source(module, digest, root), encoding="utf-8")
        # the project's mypy settings (pyproject.toml): the pydantic plugin types the models
        (work / "mypy.ini").write_text(
            "[mypy]\nplugins = pydantic.mypy\nignore_missing_imports = True\n", encoding="utf-8"
        )
        paths = [str(_path(copy, Path("."))) for copy in COPIES.values()]
        script = (
            "from setuptools import setup\n"
            "from mypyc.build import mypycify\n"
            f"setup(name='{GROUP}', ext_modules=mypycify({paths!r}, group_name='{GROUP}',"
            " opt_level='3'), script_args=['build_ext', '--inplace'])\n"
        )
        done = subprocess.run(
            [sys.executable, "-c", script],
            cwd=work,
            capture_output=quiet,
            text=True,
        )
        if done.returncode != 0:
            print("matjip native: the build failed; the plain Python reader runs", file=sys.stderr)
            if quiet:
                print((done.stdout or "")[-2000:] + (done.stderr or "")[-2000:], file=sys.stderr)
            return False
        built = [p for p in work.rglob("*.so") if "build" not in p.relative_to(work).parts[:1]]
        _stamp(root).unlink(missing_ok=True)
        for so in built:
            target = root / so.relative_to(work)
            partial = target.with_name(target.name + ".partial")
            shutil.copy2(so, partial)
            # a new file under the old name: a process that has the old library loaded keeps it
            # (overwriting it in place would crash that process)
            os.replace(partial, target)
        _stamp(root).write_text(digest + "\n", encoding="utf-8")
    importlib.invalidate_caches()
    return True


if __name__ == "__main__":  # python -m matjip.ingest.enrich.native
    sys.exit(0 if build(quiet="-v" not in sys.argv) else 1)
