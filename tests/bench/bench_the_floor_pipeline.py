"""The Floor's whole per-action pipeline with its image, on real games: parse + apply + save (``Engine.act`` on a
real SQLite file in WAL), the spectator view, render (draw) and PNG encode, and their sum, per table size.

Actions come from seeded games the rules' bot plays against itself (2 sides, 5 sides, and 9 players in 5 teams),
replayed through the engine as if typed by players, so every timed action is a real position and a real commit.
Rows per case:
  - ``all actions``: every action, every step, image bytes;
  - ``duel answer/pass``: the hot path; the surface posts the new letter as text, no image, so its total is
    parse+apply+save + view only;
  - ``board move challenge/take/keep``: moves that change the board, which the surface posts with an image;
  - ``bot``: ``TheFloor.bot_action`` decisions while playing those games (all, and in a running duel).
Figures are also ratios to the floor: PNG-encoding a flat image of the same size and mode in this run.

Run alone: ``python -m tests.bench.bench_the_floor_pipeline [-n N]``; it also runs in ``python -m tests.bench``.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image

from engine import Engine
from engine.core import new_game_options
from render import the_floor as tf_render
from rules.the_floor import TheFloor
from storage import SqliteStore as Store
from tests.bench.harness import (
    PIPELINE_STEPS,
    Row,
    best_ratio,
    best_samples,
    floor_bytes,
    floor_ms,
    markdown_table,
    median_p95,
    seated_table,
    timed_move,
)

GAME = "the_floor"
G = TheFloor()
NAMES = ["Ann", "Bożena", "Cyprian", "Dagny", "Eun-ji", "Filip", "Gosia", "Hiro", "Ilse", "Jędrzej"]
STEPS = PIPELINE_STEPS
CASES = (("2 sides", 2), ("5 sides", 5), ("9 players, 5 teams", 9))
# action groups: label -> verbs, and whether the surface posts an image for them
GROUPS = {
    "all actions": (None, True),
    "duel answer/pass": (("answer", "pass"), False),
    "board move challenge/take/keep": (("challenge", "take", "keep"), True),
}
MAX_GAMES = 200  # a safety bound on games played per case
# images kept per group for the bytes anchor: every 8th, at most 12 (all of them would hold gigabytes of pixels)
KEEP_EVERY, KEEP_MAX = 8, 12


def bot_game(players: int, seed: str, think: dict[str, list[float]]) -> list[tuple[int, str]]:
    """The log of one game the bot plays against itself; each decision's time goes to ``think`` by verb."""
    s = G.new(players, new_game_options(G, {}), seed)  # the options the engine's table gets
    log: list[tuple[int, str]] = []
    while movers := G.to_move(s):
        seat = min(movers)
        t0 = time.perf_counter()
        action = G.bot_action(s, seat)
        think.setdefault(action.split(maxsplit=1)[0], []).append((time.perf_counter() - t0) * 1000)
        s, _ = G.apply(s, seat, action)
        log.append((seat, action))
    return log



def _enough(samples: dict[str, dict[str, list[float]]], n: int) -> bool:
    return all(len(samples[g]["total"]) >= n for g in GROUPS)


async def _replay_timed(players: int, n: int, db: Path, think: dict[str, list[float]]) -> tuple[
        dict[str, dict[str, list[float]]], dict[str, list[int]], tuple, dict[str, list]]:
    """Per group, per step, ms samples; per group, PNG sizes; the image (size, mode); and per group some
    (image, bytes sent) pairs for the bytes anchor. Plays games until every group has at least ``n`` samples."""
    store = await Store.open(db)
    engine = Engine(store)
    times: dict[str, dict[str, list[float]]] = {g: {step: [] for step in STEPS} for g in GROUPS}
    sizes: dict[str, list[int]] = {g: [] for g in GROUPS}
    kept: dict[str, list[tuple[Image.Image, int]]] = {g: [] for g in GROUPS}
    size_mode: tuple = ()
    names = NAMES[:players]
    game_no = 0
    try:
        while not _enough(times, n) and game_no < MAX_GAMES:
            game_no += 1
            seed = f"bench-{players}-{game_no}"
            log = bot_game(players, seed, think)
            t = await seated_table(engine, GAME, seed, names, game_no)
            for seat, action in log:
                if _enough(times, n):
                    break
                dts, png, img = await timed_move(engine, t.id, seat, action, tf_render.draw, names)
                verb = action.split(maxsplit=1)[0]
                for group, (verbs, _) in GROUPS.items():
                    if verbs is not None and verb not in verbs:
                        continue
                    for step, dt in zip(STEPS, dts, strict=True):
                        times[group][step].append(dt)
                    if len(sizes[group]) % KEEP_EVERY == 0 and len(kept[group]) < KEEP_MAX:
                        kept[group].append((img, len(png)))
                    sizes[group].append(len(png))
                size_mode = (img.size, img.mode)
    finally:
        await store.close()
    return times, sizes, size_mode, kept


def case_rows(case: str, players: int, n: int) -> list[Row]:
    think: dict[str, list[float]] = {}
    tf_render.draw(G.view(G.new(players, {}, "warm"), None), names=NAMES[:players])  # fonts, background cache
    with tempfile.TemporaryDirectory() as tmp:
        times, sizes, (size, mode), kept = asyncio.run(_replay_timed(players, n, Path(tmp) / "bench.db", think))
    floor, fbytes = floor_ms(size, mode), floor_bytes(size, mode)
    out: list[Row] = []
    for group, (_, image) in GROUPS.items():
        samples = times[group]
        label = f"{case} {group} (×{len(samples['total'])})"
        if not samples["total"]:
            continue
        if not image:  # the letter is posted as text: the pipeline is the act and the view
            no_image = [a + v for a, v in zip(samples["parse+apply+save"], samples["view"], strict=True)]
            for step, values in (("parse+apply+save", samples["parse+apply+save"]), ("view", samples["view"]),
                                 ("total (no image)", no_image)):
                out.append(Row(GAME, label, step, *median_p95(values), floor))
            continue
        mean_size = round(statistics.mean(sizes[group]))
        best = best_ratio(kept[group], best_samples(n))
        for step in STEPS:
            has_bytes = step in ("encode", "total")
            out.append(Row(GAME, label, step, *median_p95(samples[step]), floor,
                           mean_size if has_bytes else None, fbytes if has_bytes else None,
                           best if has_bytes else None))
    every = [ms for values in think.values() for ms in values]
    duel = [ms for verb in ("answer", "pass") for ms in think.get(verb, ())]
    for what, values in (("all", every), ("duel answer/pass", duel)):
        if values:
            out.append(Row(GAME, f"{case} bot", f"bot decision, {what} ×{len(values)} (max {max(values):.1f})",
                           *median_p95(values)))
    return out


def rows(n: int = 100) -> list[Row]:
    out: list[Row] = []
    for case, players in CASES:
        out += case_rows(case, players, n)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.bench_the_floor_pipeline", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", type=int, default=100, help="at least this many timed actions per group (default 100)")
    args = parser.parse_args(argv)
    print(markdown_table(rows(args.n)))
    print()
    print("× floor: median divided by PNG-encoding a flat image of the same size and mode in this run.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
