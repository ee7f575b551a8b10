"""The rulebook's scoring (9.5) for bragging rights: one point each for the highest total stats (1D = 3 pips),
the most Praise, the most Dreams (Items, Upgrades and Legends), the most Legends and the most Villages.

Decisions: tied seats share the point (split evenly: "ties share"); a category in which the best is 0 (nobody
has a Legend) gives no point; a resigned seat scores nothing (it left the world); a dead Kitsune still counts
(its deeds stand). Stats are the Kitsune's own, without Items (Items already count as Dreams).
"""

from __future__ import annotations

from rules.floating_world.state import State


def categories(s: State) -> list[list[int]]:
    """Per category, each seat's measure (resigned seats: -1, never the best)."""
    villages = [sum(1 for land in s.lands if land.village == k.seat) for k in s.kitsune]
    rows = [
        [k.body.value + k.mind.value + k.spirit.value for k in s.kitsune],
        [k.praise for k in s.kitsune],
        [len(k.cards) for k in s.kitsune],
        [len(k.legends) for k in s.kitsune],
        villages,
    ]
    return [[-1 if s.kitsune[i].resigned else row[i] for i in range(s.players)] for row in rows]


def points(s: State) -> list[float]:
    out = [0.0] * s.players
    for row in categories(s):
        best = max(row)
        if best <= 0:
            continue
        tied = [i for i, x in enumerate(row) if x == best]
        for i in tied:
            out[i] += 1.0 / len(tied)
    return out
