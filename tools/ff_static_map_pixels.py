"""Floating Floors' board images over seeded bot games (2-4 players, overlay on and off): one SHA-256 line per
image, and the static maps' colour counts, so that a change to the cached background can be checked byte for byte
(`python -m tools.ff_static_map_pixels > before.txt`, change, again, `diff`). ``--png DIR`` keeps a few PNGs."""

from __future__ import annotations

import argparse
import hashlib
from pathlib import Path

from engine.core import new_game_options
from render import floating_floors as ff_render
from render.floating_floors import board
from rules.floating_floors.game import FloatingFloors

RULES = FloatingFloors()


def views(players: int, seed: str, every: int, limit: int = 3000) -> list[dict]:
    """Every ``every``-th public view of a bot game, and its last."""
    state = RULES.new(players, new_game_options(RULES, {}), seed)
    out = []
    for step in range(limit):
        if state.phase == "over":
            break
        if step % every == 0:
            out.append(RULES.view(state, None))
        state, _ = RULES.apply(state, state.current, RULES.bot_action(state, state.current))
    out.append(RULES.view(state, None))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--every", type=int, default=7)
    ap.add_argument("--png", type=Path)
    args = ap.parse_args()
    for players in (2, 3, 4):
        for seed in (f"pix-{players}-a", f"pix-{players}-b"):
            for i, view in enumerate(views(players, seed, args.every)):
                for physics in (True, False):
                    data = ff_render.board_image(view, physics=physics, locale="pl" if i % 2 else "en")
                    print(players, seed, i, physics, hashlib.sha256(data).hexdigest()[:16])
                    if args.png and i in (0, 3) and seed.endswith("a"):
                        args.png.mkdir(parents=True, exist_ok=True)
                        (args.png / f"ff-{players}p-{i}-{int(physics)}.png").write_bytes(data)
    info = board._static_map.cache_info()
    print("static_map", info)


if __name__ == "__main__":
    main()
