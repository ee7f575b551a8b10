"""The project's import graph, read from the source with `ast` (nothing is imported), and the layer table.

Why not import-linter/grimp: they build graphs of *packages*, and four of our rooms are top-level modules
(`bot`, `cli`, `hints`), which grimp refuses (`NotATopLevelModule`); an `ast` walk over our own
files is short and sees what we need besides: where each import sits (module level, inside a function, under
`if TYPE_CHECKING`).

`python -m tests.layers` prints the figures the structure work is measured by (cycles, in-function imports,
type-only imports, files over 800 lines, layer violations); `tests/test_layers.py` holds the contract.
"""

from __future__ import annotations

import ast
import sys
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("config", "i18n", "rules", "league", "storage", "render", "engine", "cogs", "hints", "terminal",
            "web", "bot", "cli")
# A top-level module's room, where its name is not the room's (none now; the terminal's entry module was one).
ROOM_OF_MODULE: dict[str, str] = {}

# Which rooms each room may import (its own always). The bottom first; see shared/STRUCTURE.md.
MAY_IMPORT: dict[str, frozenset[str]] = {
    "config": frozenset(),
    "i18n": frozenset(),
    "rules": frozenset({"i18n"}),
    "league": frozenset({"rules", "i18n"}),
    "storage": frozenset({"league", "config", "i18n"}),  # i18n: text folding for keys
    "render": frozenset({"rules", "i18n", "config"}),
    "hints": frozenset({"rules", "i18n"}),
    "engine": frozenset({"rules", "league", "storage", "i18n", "config"}),
    "cogs": frozenset({"engine", "render", "rules", "league", "i18n", "config", "hints"}),
    "terminal": frozenset({"engine", "render", "rules", "league", "i18n", "config", "hints"}),
    # The read-only web site: reads storage itself (opened read-only), draws with render, replays with engine's
    # log helpers; no room but the roots imports it.
    "web": frozenset({"storage", "league", "render", "rules", "engine", "i18n", "config"}),
    "bot": frozenset(PACKAGES),
    "cli": frozenset(PACKAGES),
}
# Nothing imports the composition roots (cli imports bot lazily to start it).
ROOTS = frozenset({"bot", "cli"})


@dataclass(frozen=True)
class Import:
    source: str  # importing module, dotted
    target: str  # imported project module, dotted
    line: int
    in_function: bool
    type_only: bool


def room(module: str) -> str:
    head = module.split(".")[0]
    return ROOM_OF_MODULE.get(head, head)


def source_files() -> dict[str, Path]:
    """Every project module by dotted name (tests and tools are not the product)."""
    found: dict[str, Path] = {}
    for name in PACKAGES:
        single = ROOT / f"{name}.py"
        if single.exists():
            found[name] = single
            continue
        for path in sorted((ROOT / name).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _is_main_guard(test: ast.expr) -> bool:
    return (isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == "__name__"
            and any(isinstance(c, ast.Constant) and c.value == "__main__" for c in test.comparators))


def _walk(node: ast.AST, in_function: bool, type_only: bool) -> Iterator[tuple[ast.AST, bool, bool]]:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.Import | ast.ImportFrom):
            yield child, in_function, type_only
        elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            yield from _walk(child, True, type_only)
        elif isinstance(child, ast.If) and _is_main_guard(child.test):
            continue  # runs only when the file is the script (module `__main__`): no module imports it from there
        elif isinstance(child, ast.If) and _is_type_checking(child.test):
            for stmt in child.body:
                yield from _walk(ast.Module(body=[stmt], type_ignores=[]), in_function, True)
            for stmt in child.orelse:
                yield from _walk(ast.Module(body=[stmt], type_ignores=[]), in_function, type_only)
        else:
            yield from _walk(child, in_function, type_only)


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def imports_of(module: str, path: Path, known: set[str]) -> list[Import]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    found: list[Import] = []
    for node, in_function, type_only in _walk(tree, False, False):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            base = _resolve(module, is_package, node)
            # `from pkg import mod` imports the module pkg.mod; `from mod import name` imports mod.
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        for name in dict.fromkeys(names):
            target = _project_module(name, known)
            if target and target != module:
                found.append(Import(module, target, node.lineno, in_function, type_only))
    return found


def _project_module(name: str, known: set[str]) -> str | None:
    parts = name.split(".")
    while parts:
        if ".".join(parts) in known:
            return ".".join(parts)
        parts.pop()
    return None


def graph() -> list[Import]:
    files = source_files()
    known = set(files)
    return [imp for module, path in files.items() for imp in imports_of(module, path, known)]


def cycles(imports: list[Import]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan), each sorted, over every import."""
    edges: dict[str, set[str]] = defaultdict(set)
    for imp in imports:
        edges[imp.source].add(imp.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        for node in sorted({imp.source for imp in imports} | {imp.target for imp in imports}):
            if node not in index:
                visit(node)
    finally:
        sys.setrecursionlimit(limit)
    return sorted(groups)


def violations(imports: list[Import]) -> list[Import]:
    """Imports that point up or sideways in the layer table (type-only imports count: they couple too)."""
    bad = []
    for imp in imports:
        source, target = room(imp.source), room(imp.target)
        if source == target:
            continue
        if target in ROOTS or target not in MAY_IMPORT[source]:
            bad.append(imp)
    return bad


def long_files(limit: int = 800) -> dict[str, int]:
    sizes = {module: len(path.read_text(encoding="utf-8").splitlines()) for module, path in source_files().items()}
    return {module: n for module, n in sorted(sizes.items(), key=lambda kv: -kv[1]) if n > limit}


def report() -> str:
    imports = graph()
    groups = cycles(imports)
    pairs = {(room(i.source), room(i.target)) for i in violations(imports)}
    lines = [
        f"modules: {len(source_files())}, imports between them: {len(imports)}",
        f"import cycles: {len(groups)}",
        *(f"  {len(g)}: {', '.join(g)}" for g in groups),
        f"imports inside functions: {sum(i.in_function for i in imports)}",
        f"type-only module pairs: {len({(i.source, i.target) for i in imports if i.type_only})}",
        f"layer violations: {len(violations(imports))} imports, room pairs: "
        + ", ".join(f"{a}->{b}" for a, b in sorted(pairs)),
        f"files over 800 lines: {len(long_files())}",
        *(f"  {n} {m}" for m, n in long_files().items()),
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    print(report())
