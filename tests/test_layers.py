"""The import-layer contract (shared/STRUCTURE.md): every import points down the layer table in tests/layers.py.

Today's exceptions are listed here, each with its reason and the step of the structure work that removes it. An
exception that no longer matches anything fails too, so the list can only shrink.
"""

from __future__ import annotations

from fnmatch import fnmatch

import pytest

from tests.layers import Import, cycles, graph, room, source_files, violations

# (importing module pattern, imported module pattern) → why it is still there.
LAYER_EXCEPTIONS: dict[tuple[str, str], str] = {
    ("cli", "bot"): "`run` starts the bot (lazily: `play` and `tournament` need no discord.py); the one way in",
}

@pytest.fixture(scope="module")
def imports() -> list[Import]:
    return graph()


def _excused(imp: Import) -> str | None:
    for (source, target), reason in LAYER_EXCEPTIONS.items():
        if fnmatch(imp.source, source) and fnmatch(imp.target, target):
            return reason
    return None


def test_every_import_points_down_the_layers(imports: list[Import]) -> None:
    unexcused = [f"{i.source}:{i.line} imports {i.target} ({room(i.source)} → {room(i.target)})"
                 for i in violations(imports) if _excused(i) is None]
    assert not unexcused, "\n".join(unexcused)


def test_every_layer_exception_is_still_needed(imports: list[Import]) -> None:
    bad = violations(imports)
    stale = [pair for pair in LAYER_EXCEPTIONS
             if not any(fnmatch(i.source, pair[0]) and fnmatch(i.target, pair[1]) for i in bad)]
    assert not stale, f"remove these exceptions, nothing needs them any more: {stale}"


def test_rules_and_league_stay_pure(imports: list[Import]) -> None:
    """The rules and the league logic know nothing of Discord, storage, the engine or images."""
    impure = [f"{i.source} imports {i.target}" for i in imports
              if room(i.source) in {"rules", "league"}
              and room(i.target) in {"cogs", "storage", "engine", "render", "terminal", "bot", "cli"}]
    assert not impure


def test_no_import_cycle(imports: list[Import]) -> None:
    """Every import points down, so no module reaches itself again (lazy and type-only imports count too)."""
    assert cycles(imports) == []


def test_an_import_inside_a_function_says_why_it_is_lazy(imports: list[Import]) -> None:
    """Only a heavy module's import may wait for its first use, and it says so (a comment with "lazy" or "heavy"
    on its line, or above its group of imports): never to get around a cycle."""
    files = source_files()
    silent = []
    for imp in (i for i in imports if i.in_function):
        lines = files[imp.source].read_text(encoding="utf-8").splitlines()
        first = imp.line - 1
        while first > 0 and lines[first - 1].strip().startswith(("from ", "import ")):
            first -= 1  # the top of this group of imports
        said = " ".join(lines[max(first - 1, 0):imp.line]).lower()
        if "lazy" not in said and "heavy" not in said:
            silent.append(f"{imp.source}:{imp.line} imports {imp.target}")
    assert not silent, "\n".join(silent)


def test_nothing_imports_the_composition_roots(imports: list[Import]) -> None:
    """bot.py and cli.py assemble everything; a module importing them would pull the whole bot in."""
    upward = [f"{i.source}:{i.line}" for i in imports
              if i.target in {"bot", "cli"} and i.source not in {"bot", "cli"} and not i.type_only]
    assert not upward


def test_the_walker_sees_where_each_import_sits(tmp_path) -> None:
    """The contract is only as good as the walk: a lazy, a type-only and a relative import are each seen as such."""
    from tests.layers import imports_of

    path = tmp_path / "game.py"
    path.write_text(
        "if __name__ == '__main__':\n    import cli\n"
        "from typing import TYPE_CHECKING\n"
        "from . import state\n"
        "if TYPE_CHECKING:\n    from storage import Store\n"
        "def f():\n    import engine.core\n", encoding="utf-8")
    known = {"rules.x.game", "rules.x.state", "storage", "engine.core"}
    found = {i.target: (i.in_function, i.type_only) for i in imports_of("rules.x.game", path, known)}
    assert found == {"rules.x.state": (False, False), "storage": (False, True), "engine.core": (True, False)}


def test_an_upward_import_is_a_violation() -> None:
    up = Import("rules.the_floor.game", "storage.sqlite", 1, in_function=True, type_only=False)
    down = Import("engine.core", "rules.base", 1, in_function=False, type_only=False)
    assert violations([up, down]) == [up]
