"""The layer rule of docs/design.md holds for the source tree, and the checker can fail."""

from __future__ import annotations

from pathlib import Path

from support.layercheck import imports_of, violations

SRC = Path(__file__).resolve().parents[1] / "src"


def test_source_tree_has_no_upward_import_and_no_circle() -> None:
    assert violations(SRC) == []


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / "matjip" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


def test_checker_flags_an_upward_import_even_a_lazy_one(tmp_path: Path) -> None:
    src = _tree(
        tmp_path,
        {
            "__init__.py": "",
            "errors.py": "",
            "providers/__init__.py": "",
            "providers/base.py": "def f():\n    from matjip.agent import graph\n",
            "agent/__init__.py": "",
            "agent/graph.py": "from matjip.providers.base import f\n",
        },
    )
    found = violations(src)
    assert len(found) == 1 and "providers (layer 4) imports matjip.agent" in found[0]


def test_checker_flags_a_relative_upward_import(tmp_path: Path) -> None:
    src = _tree(tmp_path, {"__init__.py": "", "nlu/__init__.py": "", "nlu/x.py": "from ..api import app\n"})
    assert any("nlu (layer 3) imports matjip.api" in v for v in violations(src))


def test_checker_flags_a_circle_within_a_layer(tmp_path: Path) -> None:
    src = _tree(
        tmp_path,
        {
            "__init__.py": "",
            "nlu/__init__.py": "from matjip.geo import a\n",
            "geo/__init__.py": "",
            "geo/a.py": "import matjip.nlu\n",
        },
    )
    assert [v for v in violations(src) if v.startswith("circle geo ⇄ nlu")]


def test_checker_flags_an_unknown_unit(tmp_path: Path) -> None:
    src = _tree(tmp_path, {"__init__.py": "", "llm/__init__.py": ""})
    assert violations(src) == ["matjip/llm/__init__.py: 'llm' is in no layer"]


def test_checker_accepts_downward_imports(tmp_path: Path) -> None:
    src = _tree(
        tmp_path,
        {
            "__init__.py": "",
            "cli.py": "from matjip.commands import run\n",
            "commands/__init__.py": "from matjip.agent import x\nfrom matjip.settings import S\n",
            "agent/__init__.py": "from matjip.nlu import y\nfrom matjip.providers import z\n",
            "nlu/__init__.py": "from matjip.errors import E\n",
            "settings.py": "",
            "errors.py": "",
            "providers/__init__.py": "from matjip.errors import E\n",
        },
    )
    assert violations(src) == []


def test_no_test_file_imports_another_test_file() -> None:
    """Shared test code lives in ``tests/support`` (and fakes in ``tests/fakes``): a test module
    or ``conftest`` is never imported, so each test file can move or go on its own."""
    tests = Path(__file__).resolve().parent
    found = []
    for path in sorted(tests.rglob("*.py")):
        for name, line in imports_of(path, "tests"):
            top = name.split(".")[0]
            if top.startswith("test_") or top == "conftest" or name.startswith("tests."):
                found.append(f"{path.relative_to(tests)}:{line}: {name}")
    assert found == []
