"""The shape of the source tree (issue 25): long functions and literal tables left in code.

A *literal table* is a module-level assignment whose value is a literal list/tuple/set/dict (or a
call wrapping one, e.g. ``frozenset({...})``) holding at least ``MIN_STRINGS`` string constants;
``__all__`` is not one. Vocabulary and wording belong in data files (``matjip.words``,
``matjip.wording``). Run ``python tests/support/codeshape.py`` for the current lists.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "matjip"
MIN_STRINGS = 5


def long_functions(root: Path = SRC, limit: int = 120) -> list[tuple[int, str]]:
    """``(lines, "path:function")`` of every function longer than ``limit`` lines, longest first."""
    out = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                n = (node.end_lineno or node.lineno) - node.lineno + 1
                if n > limit:
                    out.append((n, f"{path.relative_to(root.parent)}:{node.name}"))
    return sorted(out, reverse=True)


def _strings(node: ast.AST) -> int:
    return sum(isinstance(n, ast.Constant) and isinstance(n.value, str) for n in ast.walk(node))


def _is_literal(value: ast.AST) -> bool:
    if isinstance(value, ast.List | ast.Tuple | ast.Set | ast.Dict):
        return True
    return isinstance(value, ast.Call) and any(_is_literal(a) for a in value.args)


def literal_tables(root: Path = SRC) -> list[tuple[int, str]]:
    """``(strings, "path:NAME")`` of every literal table of ≥ MIN_STRINGS strings."""
    out = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Assign):
                target, value = node.targets[0], node.value
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                target, value = node.target, node.value
            else:
                continue
            name = target.id if isinstance(target, ast.Name) else "?"
            if name == "__all__" or not _is_literal(value):
                continue
            n = _strings(value)
            if n >= MIN_STRINGS:
                out.append((n, f"{path.relative_to(root.parent)}:{name}"))
    return sorted(out, reverse=True)


if __name__ == "__main__":
    funcs, tables = long_functions(limit=100), literal_tables()
    print(f"functions over 100 lines: {len(funcs)}")
    for n, where in funcs:
        print(f"  {n:4d} {where}")
    print(f"literal tables (>= {MIN_STRINGS} strings): {len(tables)}, {sum(n for n, _ in tables)} strings")
    for n, where in tables:
        print(f"  {n:4d} {where}")
