"""An AST import scan that enforces matjip's layers (docs/design.md, "Layers").

A package may import from its own layer or any layer below it, never from a layer above; lazy
imports inside functions and ``TYPE_CHECKING`` blocks count the same. Between two packages of
the same layer, imports may run one way only: a pair that imports each other is a circle. Inside
one top-level package, modules may not import each other in a circle either (``nodes.search`` →
``nodes.common`` → ``nodes.search``, however long the way round): an import names the module it
reads from (``from matjip.agent.nodes import common`` is an edge to ``common``, ``from
matjip.agent import Agent`` one to ``matjip/agent/__init__.py``); the parent packages Python loads
on the way are not edges.
"""

from __future__ import annotations

import ast
import itertools
from collections import deque
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


def module_of(path: Path, src: Path) -> tuple[str, str]:
    """``(module, package)`` of a source file: ``matjip/agent/__init__.py`` → ``matjip.agent`` twice."""
    module = ".".join(path.relative_to(src).with_suffix("").parts)
    if path.name == "__init__.py":
        module = module.removesuffix(".__init__")
        return module, module
    return module, module.rsplit(".", 1)[0]


def _absolute(node: ast.ImportFrom, package: str) -> str:
    if not node.level:
        return node.module or ""
    base = package.split(".")
    base = base[: len(base) - node.level + 1]
    return ".".join([*base, node.module] if node.module else base)


def _nearest(name: str, known: set[str]) -> str | None:
    """The longest prefix of ``name`` that is a module of the tree (``a.b.Name`` → ``a.b``)."""
    parts = name.split(".")
    for n in range(len(parts), 0, -1):
        if ".".join(parts[:n]) in known:
            return ".".join(parts[:n])
    return None


def module_edges(path: Path, package: str, known: set[str]) -> Iterator[tuple[str, int]]:
    """The modules of ``known`` that ``path`` reads from, with the line of each import."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            mod = _absolute(node, package)
            names = [f"{mod}.{a.name}" if f"{mod}.{a.name}" in known else mod for a in node.names]
        else:
            continue
        for name in names:
            target = _nearest(name, known)
            if target is not None:
                yield target, node.lineno


def _strongly_connected(graph: dict[str, dict[str, str]]) -> list[list[str]]:
    """Tarjan's components of more than one module, each sorted (iterative: no recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                part = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    part.append(top)
                    if top == node:
                        break
                if len(part) > 1:
                    out.append(sorted(part))
    return sorted(out)


def _shortest_cycle(graph: dict[str, dict[str, str]], start: str, part: set[str]) -> list[str]:
    """The shortest way from ``start`` back to itself inside ``part`` (start, ..., start)."""
    back: dict[str, str] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for child in sorted(graph[node]):
            if child not in part or child in back:
                continue
            back[child] = node
            if child == start:
                way = [start]
                while way[-1] != start or len(way) == 1:
                    way.append(back[way[-1]])
                return way[::-1]
            queue.append(child)
    return [start]


def package_circles(src: Path, root: str = "matjip") -> list[str]:
    """Every import circle between modules of one top-level package (``agent``, ``index``, …)."""
    files = {module_of(path, src): path for path in sorted((src / root).rglob("*.py"))}
    known = {module for module, _ in files}
    graph: dict[str, dict[str, str]] = {module: {} for module in known}
    for (module, package), path in files.items():
        unit = unit_of(module, root)
        for target, line in module_edges(path, package, known):
            if target != module and unit_of(target, root) == unit:
                graph[module].setdefault(target, f"{path.relative_to(src)}:{line}")
    out = []
    for part in _strongly_connected(graph):
        way = _shortest_cycle(graph, part[0], set(part))
        steps = " → ".join(way)
        where = ", ".join(graph[a][b] for a, b in itertools.pairwise(way))
        more = (
            f" (one of {len(part)} modules in a circle: {', '.join(part)})"
            if len(part) > len(way) - 1
            else ""
        )
        out.append(f"circle inside {unit_of(part[0], root)}: {steps} ({where}){more}")
    return out


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
    return out + package_circles(src, root)
