"""An AST import scan that enforces matjip's layers (docs/design.md, "Layers").

A package may import from its own layer or any layer below it, never from a layer above; lazy
imports inside functions and ``TYPE_CHECKING`` blocks count the same. Between two packages of
the same layer, imports may run one way only: a pair that imports each other is a circle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence
from pathlib import Path

# top to bottom; every top-level module or package of src/matjip belongs to exactly one layer
LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"cli"}),
    frozenset({"commands", "api"}),
    frozenset({"agent", "eval"}),
    frozenset({"ingest", "index", "nlu", "geo", "text", "collect"}),
    frozenset({"providers"}),
    frozenset({"documents", "errors", "settings", "vocab", "kinds", "words", "wording", "data", "__init__"}),
)


def unit_of(module: str, root: str) -> str | None:
    """``matjip.agent.nodes.search`` → ``agent``; None for modules outside ``root``."""
    parts = module.split(".")
    if parts[0] != root:
        return None
    return parts[1] if len(parts) > 1 else "__init__"


def imports_of(path: Path, package: str) -> Iterator[tuple[str, int]]:
    """Absolute names of every module ``path`` imports (relative imports resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                mod = ".".join([*base, node.module] if node.module else base)
            else:
                mod = node.module or ""
            yield mod, node.lineno
            for alias in node.names:  # ``from matjip import agent`` imports the package agent
                yield f"{mod}.{alias.name}", node.lineno


def violations(src: Path, root: str = "matjip", layers: Sequence[frozenset[str]] = LAYERS) -> list[str]:
    """Every upward import, every unit outside the layer table, and every circle between units."""
    level = {unit: i for i, layer in enumerate(layers) for unit in layer}
    out: list[str] = []
    edges: dict[tuple[str, str], str] = {}
    base = src / root
    for path in sorted(base.rglob("*.py")):
        rel = path.relative_to(src).with_suffix("")
        module = ".".join(rel.parts)
        package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
        if path.name == "__init__.py":
            module = module.removesuffix(".__init__")
            package = module
        me = unit_of(module, root) or "__init__"
        if me not in level:
            out.append(f"{path.relative_to(src)}: '{me}' is in no layer")
            continue
        seen: set[tuple[int, str]] = set()
        for name, line in imports_of(path, package):
            other = unit_of(name, root)
            if other is None or other == me or other not in level or (line, other) in seen:
                continue
            seen.add((line, other))
            where = f"{path.relative_to(src)}:{line}"
            if level[other] < level[me]:
                out.append(f"{where}: {me} (layer {level[me]}) imports {name} (layer {level[other]})")
            elif level[other] == level[me]:
                edges.setdefault((me, other), where)
    for (a, b), where in sorted(edges.items()):
        if a < b and (b, a) in edges:
            out.append(f"circle {a} ⇄ {b}: {where} and {edges[(b, a)]}")
    return out
