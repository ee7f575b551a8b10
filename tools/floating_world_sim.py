"""Balance check for Floating World: N seeded solo games per difficulty with the bot; prints the win rate.

    .venv/bin/python tools/floating_world_sim.py [N]
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.floating_world import FloatingWorld


def simulate(difficulty: str, games: int, players: int = 1) -> Counter[str]:
    g, results = FloatingWorld(), Counter[str]()
    for i in range(games):
        s = g.new(players, {"difficulty": difficulty}, f"sim-{difficulty}-{i}")
        for _ in range(5000):
            if s.phase == "over":
                break
            s, _ = g.apply(s, s.current, g.bot_action(s, s.current))
        results[s.reason or "unfinished"] += 1
    return results


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    for difficulty in ("easy", "normal", "hard"):
        r = simulate(difficulty, games)
        wins = r["fw.outcome.sealed"]
        print(f"{difficulty:6} {wins / games:6.1%} won  ({dict(r)})")


if __name__ == "__main__":
    main()
