"""How often the Gate's people give their Praise (``game.gate_gift``) in seeded bot games.

    .venv/bin/python tools/floating_world_gate_gift.py [--games N] [--players 1 2 3 4] [--difficulty normal]
                                                       [--rule stall|first]

``--rule first`` puts back the first version of the gift (any Kitsune on the Gate with no Village and under 3
Praise) for the before/after comparison on the same code. Per player count: the turn starts of living Kitsune,
how many of them collected the gift (the ``turn`` event's ``gate`` field), the win rate and the average number
of player turns. Seeds are ``gift-<players>-<i>``, so a run is reproducible; the figures are in
``docs/floating_world.md``.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.floating_world import FloatingWorld
from rules.floating_world import game as fw_game
from rules.floating_world.state import GATE, WON, Kitsune, State


def first_gift(s: State, k: Kitsune) -> int:
    """The gift as first shipped: on the Gate, no Village of one's own, under 3 Praise."""
    return 1 if k.pos == GATE and fw_game.villages_of(s, k.seat) == 0 and k.praise < fw_game.COST else 0


def play(players: int, seed: str, difficulty: str, max_actions: int = 20_000) -> tuple[Counter[str], str, int]:
    """One bot game: (counts of turn starts and gifts, the end reason, player turns)."""
    g = FloatingWorld()
    s = g.new(players, {"difficulty": difficulty}, seed)
    counts: Counter[str] = Counter()
    for _ in range(max_actions):
        if s.phase == "over":
            break
        s, events = g.apply(s, s.current, g.bot_action(s, s.current))
        for e in events:
            if e.kind == "turn" and not e.data.get("haunt"):
                counts["turns"] += 1
                counts["gifts"] += 1 if e.data.get("gate") else 0
    return counts, s.reason or "unfinished", s.turn


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, nargs="+", default=[1, 2, 3, 4])
    ap.add_argument("--difficulty", default="normal")
    ap.add_argument("--rule", choices=("stall", "first"), default="stall")
    args = ap.parse_args(argv)
    if args.rule == "first":
        fw_game.gate_gift = first_gift  # start_turn looks it up in the module at each call
    print(f"rule: {args.rule}; {args.difficulty}; seeds gift-<players>-<i>")
    print(f"{'players':>7} {'games':>5} {'turn starts':>11} {'gifts':>6} {'rate':>6} {'win':>6} {'avg turns':>9}")
    for players in args.players:
        total: Counter[str] = Counter()
        wins = turns = 0
        for i in range(args.games):
            counts, reason, n = play(players, f"gift-{players}-{i}", args.difficulty)
            total.update(counts)
            wins += reason == WON
            turns += n
        rate = total["gifts"] / max(1, total["turns"])
        print(f"{players:>7} {args.games:>5} {total['turns']:>11} {total['gifts']:>6} {rate:>6.1%} "
              f"{wins / args.games:>6.1%} {turns / args.games:>9.1f}")


if __name__ == "__main__":
    main()
