"""The frozen evaluation sets: a set's files must still hash to what its ``*_FROZEN.txt`` lists."""

from __future__ import annotations

import hashlib
from pathlib import Path

EVAL = Path(__file__).resolve().parents[2] / "src" / "matjip" / "eval"


def assert_files_frozen(frozen_name: str, names: tuple[str, ...]) -> None:
    """Each file of ``names`` (in ``src/matjip/eval``) is listed with its sha256 in ``frozen_name``
    ("<digest>  <name>", as ``sha256sum`` writes it)."""
    frozen = (EVAL / frozen_name).read_text(encoding="utf-8")
    for name in names:
        digest = hashlib.sha256((EVAL / name).read_bytes()).hexdigest()
        assert f"{digest}  {name}" in frozen, name
