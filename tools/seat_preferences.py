"""How often a Swiss seats a player against an absolute seat (colour) preference (FIDE C.04.3 A.6.a).

Runs seeded Swiss tournaments (8, 39 and 64 players; seeds s1-s3; bots of equal strength: a seeded coin decides
each game, 20 % draws) through league.tournament and counts, round by round, the players whose seat goes against
the absolute preference their seat history gave them before the round. Usage: python tools/seat_preferences.py
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from league import seats as sa
from league.model import Entrant
from league.settings import Settings
from league.tournament import Tournament

CLASHES = [0]  # tables the pairing handed to `untangle` with both players needing the same seat absolutely
_untangle = sa.untangle


def _counting_untangle(tables, history, *args, **kwargs):  # type: ignore[no-untyped-def]
    CLASHES[0] += sum(sa.clash(a, b, history) for a, b in tables)
    return _untangle(tables, history, *args, **kwargs)


sa.untangle = _counting_untangle


def run(n: int, seed: str) -> tuple[int, int, int, int]:
    """Players seated against an absolute, a strong and any preference, and players seated, over the event."""
    t = Tournament("t", Settings(game="flying_blades", format="swiss"), seed)
    for i in range(1, n + 1):
        t = t.register(Entrant(f"bot-{i}", f"Bot {i}", rating=2000 - 10 * i))
    t = t.start()
    rng = random.Random(f"{seed}/{n}")
    against = strong = unmet = seated = 0
    while not t.finished:
        history = sa.histories(t.rounds)
        t = t.pair_next()
        rnd = t.current
        assert rnd is not None
        for i, table in enumerate(rnd.tables):
            for seat, p in enumerate(table.seats):
                pref = sa.preference(history.get(p, ()))
                seated += 1
                against += pref.absolute and pref.seat != seat
                strong += pref.strength == sa.STRONG and pref.seat != seat
                unmet += pref.seat is not None and pref.seat != seat
            if table.decided:
                continue
            roll = rng.random()
            a, b = table.seats
            ranking = ((a, b),) if roll < 0.2 else ((a,), (b,)) if roll < 0.6 else ((b,), (a,))
            t = t.record(rnd.number, i, ranking)
    return against, strong, unmet, seated


def main() -> None:
    for n in (8, 39, 64):
        for seed in ("s1", "s2", "s3"):
            CLASHES[0] = 0
            against, strong, unmet, seated = run(n, seed)
            print(f"{n:3d} players {seed}: of {seated} seats {against} against an absolute preference, {strong} against"
                  f" a strong one, {unmet} against any; pairings with an absolute clash before untangle: {CLASHES[0]}",
                  flush=True)


if __name__ == "__main__":
    main()
