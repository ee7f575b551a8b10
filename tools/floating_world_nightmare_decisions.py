"""Figures for issue 23 (the Nightmare's decisions, 6.2's free move): seeded bot games per player count, the
win rate, the Kitsune a relocation wounded or killed, and the decisions asked per game.

    nice -n 10 .venv/bin/python tools/floating_world_nightmare_decisions.py [games] [auto]

``auto`` plays every seat with ``auto_nightmare=on`` (today's automatic choices) instead of each player count's
default (decisions at a table, decided by the bot's rule).
Run it from an older checkout (``PYTHONPATH=<old tree>``) for the "before" figures: the same seeds, the same bot.
"""

from __future__ import annotations

import sys
from collections import Counter

from rules.floating_world.game import FloatingWorld

G = FloatingWorld()


def play(players: int, seed: str, options: dict[str, str]) -> Counter[str]:
    s = G.new(players, options, seed)
    out: Counter[str] = Counter()
    for _ in range(20_000):
        if s.phase == "over":
            break
        seat = next(iter(G.to_move(s)))
        if getattr(s, "pending", None) is not None:
            out[f"asked_{s.pending['decision']}"] += 1
        s, events = G.apply(s, seat, G.bot_action(s, seat))
        for e in events:
            steps = e.data.get("steps", []) if e.kind == "nightmare" else []
            hurt = [x["seat"] for x in steps if x["kind"] == "kitsune_moved" and x["wound"]]
            out["relocation_wounds"] += len(hurt)
            out["relocation_deaths"] += sum(1 for x in steps if x["kind"] == "death" and x["seat"] in hurt)
    out["won"] += s.reason == "fw.outcome.sealed"
    out["turns"] += s.turn
    return out


def main(games: int, options: dict[str, str]) -> None:
    for players in (1, 2, 3):
        total: Counter[str] = Counter()
        for i in range(games):
            total.update(play(players, f"nd{players}-{i}", options))
        per = {k: round(v / games, 3) for k, v in sorted(total.items())}
        print(f"{players} player(s), {games} games: win {100 * total['won'] / games:.1f}% {per}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200, {"auto_nightmare": "on"} if "auto" in sys.argv[2:] else {})
