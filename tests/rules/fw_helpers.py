"""Floating World states and events as the rules emit them, for the renderer's and the surfaces' tests.

Nothing here writes a view or an event by hand: seeded bot games are driven until the wanted situation, and
maps too large to reach by play are laid out with the rules' own builder (`rules.floating_world.state.build`),
checked by `from_json` (the same check a stored game passes) and shown through `FloatingWorld.view`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from rules.base import Event
from rules.floating_world.dice import Stat
from rules.floating_world.game import FloatingWorld
from rules.floating_world.state import DEMON_IDS, GATE, Kitsune, State, build

G = FloatingWorld()
Coord = tuple[int, int]


@dataclass(frozen=True)
class Step:
    """One action of a seeded game: the state after it, who played what, and the events the rules emitted."""

    state: State
    seat: int
    action: str
    events: list[Event]

    def view(self, seat: int | None = None) -> dict[str, Any]:
        return G.view(self.state, seat)


def game(seed: str, players: int = 2, options: dict[str, Any] | None = None, limit: int = 5_000) -> Iterator[Step]:
    """Every action of a seeded bot game, to its end."""
    s = G.new(players, options or {}, seed)
    for _ in range(limit):
        if s.phase == "over":
            return
        seat = next(iter(G.to_move(s)))
        action = G.bot_action(s, seat)
        s, events = G.apply(s, seat, action)
        yield Step(s, seat, action, events)


def first_step(wanted: Callable[[Step], bool], players: int = 2, options: dict[str, Any] | None = None,
               prefix: str = "fw", seeds: int = 300) -> Step:
    """The first step of seeded games (``prefix0``, ``prefix1``…) at which ``wanted`` holds."""
    for i in range(seeds):
        for step in game(f"{prefix}{i}", players, options):
            if wanted(step):
                return step
    raise AssertionError(f"no seeded game of {players} reached the wanted situation")


def nightmare_of(step: Step) -> dict[str, Any] | None:
    return next((e.data for e in step.events if e.kind == "nightmare"), None)


def with_step(kind: str, where: Callable[[dict[str, Any]], bool] = lambda _: True) -> Callable[[Step], bool]:
    """A `first_step` condition: the action ran a Nightmare with a step of ``kind`` that ``where`` accepts."""
    def wanted(step: Step) -> bool:
        night = nightmare_of(step)
        return night is not None and any(x["kind"] == kind and where(x) for x in night["steps"])
    return wanted


def nightmares(count: int, players: int = 2, prefix: str = "nm") -> list[Step]:
    """``count`` steps that ran a Nightmare to its end (not paused for a decision), from seeded games."""
    out: list[Step] = []
    i = 0
    while len(out) < count:
        out += [step for step in game(f"{prefix}{i}", players)
                if nightmare_of(step) is not None and step.state.pending is None]
        i += 1
    return out[:count]


def sealed(players: int = 1, prefix: str = "seal") -> Step:
    """A game won by the Spell of Sealing: a Kitsune at the Gate with 10 Praise and a strong Mind casts it
    (``seal`` through the rules, with the first seed whose roll succeeds)."""
    for i in range(100):
        kit = [Kitsune(0, praise=10, mind=Stat(5)), *(Kitsune(j) for j in range(1, players))]
        s = build(players, seed=f"{prefix}{i}", kitsune=kit)
        after, events = G.apply(s, 0, "seal")
        if after.phase == "over":
            return Step(after, 0, "seal", events)
    raise AssertionError("no seed sealed the Gate")


def spiral(n: int) -> list[Coord]:
    """n connected spaces around the Gate, the Gate first."""
    out = [GATE]
    x = y = 0
    dx, dy = 1, 0
    leg, steps, turns = 1, 0, 0
    while len(out) < n:
        x, y = x + dx, y + dy
        out.append((x, y))
        steps += 1
        if steps == leg:
            steps, (dx, dy), turns = 0, (-dy, dx), turns + 1
            leg += turns % 2 == 0
    return out


def world(coords: list[Coord] | None = None, *, lands: int = 9, players: int = 2, seed: str = "map",
          villages: dict[Coord, int] | None = None, demons: dict[str, Coord] | None = None,
          kitsune: dict[int, Coord] | None = None, kit: dict[int, dict[str, Any]] | None = None,
          **changes: Any) -> State:
    """A map laid out by the rules' builder: ``coords`` (a spiral of ``lands`` by default, Gate included), the
    Villages' owners, demons by id (``oni1``), Kitsune positions by seat (others on the Gate) and other Kitsune
    fields by seat (``kit={0: {"items": ("lucky_coin",)}}``). The result is checked as a stored game is
    (`from_json`), so a test cannot draw a state the rules would refuse."""
    cells: dict[Coord, int | None] = dict.fromkeys(coords or spiral(lands))
    cells.update(villages or {})
    kit = [Kitsune(seat, pos=(kitsune or {}).get(seat, GATE), **(kit or {}).get(seat, {}))
           for seat in range(players)]
    s = build(players, seed=seed, lands=cells, demons=demons, kitsune=kit, **changes)
    return G.from_json(G.to_json(s))


def busy_world(lands: int = 9, players: int = 2) -> State:
    """A spiral with a demon on every third Land (types in turn), a Village on every fifth (owners in turn,
    never next to another) and the Kitsune spread over the first Lands."""
    coords = spiral(lands)
    free = {t: [i for i in DEMON_IDS if i.startswith(t)] for t in ("oni", "tengu", "gaki")}
    demons: dict[str, Coord] = {}
    villages: dict[Coord, int] = {}
    for i, c in enumerate(coords[1:], start=1):
        kind = ("oni", "tengu", "gaki")[(i // 3) % 3]
        if i % 3 == 0 and free[kind]:
            demons[free[kind].pop(0)] = c
        near = {(c[0] + dx, c[1] + dy) for dx, dy in ((0, 0), (0, 1), (1, 0), (0, -1), (-1, 0))}
        if i % 5 == 2 and not near & set(villages):
            villages[c] = i % players
    kitsune = {seat: coords[seat % len(coords)] for seat in range(players)}
    return world(coords, players=players, villages=villages, demons=demons, kitsune=kitsune)


def with_kitsune(s: State, seat: int, **changes: Any) -> State:
    """``s`` with one Kitsune changed (a dead one is taken off the map), checked by `from_json`."""
    if changes.get("alive") is False:
        changes.setdefault("pos", None)
    kit = list(s.kitsune)
    kit[seat] = replace(kit[seat], **changes)
    return G.from_json(G.to_json(replace(s, kitsune=tuple(kit))))
