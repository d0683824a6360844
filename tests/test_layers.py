"""The layer rule of docs/design.md holds for the source tree, and the checker can fail."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.layercheck import imports_of, package_circles, violations

SRC = Path(__file__).resolve().parents[1] / "src"


def test_source_tree_has_no_upward_import_and_no_circle_between_packages() -> None:
    assert [v for v in violations(SRC) if not v.startswith("circle inside ")] == []


def test_source_tree_has_no_circle_inside_a_package() -> None:
    assert package_circles(SRC) == []


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


def test_checker_flags_a_circle_inside_a_package_even_a_lazy_or_long_one(tmp_path: Path) -> None:
    src = _tree(
        tmp_path,
        {
            "__init__.py": "",
            "agent/__init__.py": "",
            "agent/nodes/__init__.py": "",
            "agent/nodes/common.py": "def f():\n    from matjip.agent.nodes.search import g\n",
            "agent/nodes/search.py": "from matjip.agent import plan\n",
            "agent/plan.py": "from .nodes import common\n",
        },
    )
    assert violations(src) == [
        "circle inside agent: matjip.agent.nodes.common → matjip.agent.nodes.search → matjip.agent.plan"
        " → matjip.agent.nodes.common (matjip/agent/nodes/common.py:2, matjip/agent/nodes/search.py:1,"
        " matjip/agent/plan.py:1)"
    ]


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("from matjip.agent.b import x\n", "from matjip.agent import a\n"),
        ("import matjip.agent.b\n", "from . import a\n"),
        ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import X\n", "from .a import Y\n"),
    ],
)
def test_checker_flags_a_two_module_circle_in_any_import_form(tmp_path: Path, a: str, b: str) -> None:
    src = _tree(tmp_path, {"__init__.py": "", "agent/__init__.py": "", "agent/a.py": a, "agent/b.py": b})
    assert [v.split(" (")[0] for v in violations(src)] == [
        "circle inside agent: matjip.agent.a → matjip.agent.b → matjip.agent.a"
    ]


def test_a_package_and_the_modules_it_reexports_are_no_circle(tmp_path: Path) -> None:
    """``__init__`` importing its modules, and modules importing siblings or names of other
    packages' ``__init__``: every import points one way."""
    src = _tree(
        tmp_path,
        {
            "__init__.py": "",
            "agent/__init__.py": "from matjip.agent.service import Agent\nfrom matjip.agent import nodes\n",
            "agent/service.py": "from matjip.agent.nodes import search\nfrom matjip.agent.models import M\n",
            "agent/models.py": "",
            "agent/nodes/__init__.py": "from .search import run\n",
            "agent/nodes/search.py": "from matjip.agent.models import M\nfrom ..models import N\n",
        },
    )
    assert violations(src) == []


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
