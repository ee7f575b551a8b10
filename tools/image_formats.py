"""How many bytes each move's image costs against the best lossless encoding of the same pixels (issue 25).

Plays one all-bot game of each game in the terminal (or reads the images a terminal game wrote, ``--dir``),
re-encodes every image's pixels with what the bot sends (`render.kit.encode_image`), with the old PNG (zlib level
3) and, on a sample, with the anchor (`tests.bench.harness.best_bytes`: the smaller of oxipng's best PNG and WebP
lossless at maximum effort, seconds per image), and prints per game the median and worst ratio to the anchor and
the median encode CPU ms. CPU time (not wall time) because the machine is shared: compare the columns of one run.

    nice -n 10 .venv/bin/python -m tools.image_formats [--dir OUT] [--sample 8] [--games flying_blades ...]
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import click
import numpy as np
from PIL import Image

from render import kit
from tests.bench.harness import best_bytes

GAMES = {"flying_blades": 3, "the_floor": 3, "floor_plan": 3, "floating_world": 2, "floating_floors": 3}
ROOT = Path(__file__).resolve().parent.parent


def play(game: str, players: int, seed: str, out: Path) -> None:
    """One all-bot game in the terminal, writing the images the bot would post into ``out``."""
    subprocess.run([sys.executable, str(ROOT / "play_cli.py"), game, "--players", str(players), "--bots",
                    str(players), "--seed", seed, "--out", str(out)], check=True, capture_output=True, cwd=ROOT)


def as_drawn(path: Path) -> Image.Image:
    """The image's pixels as the renderer drew them: a 'P' image (a WebP decodes to RGB: its colours, at most 256,
    are put back into an exact palette, first seen colour first, so PNG figures stay those of a 'P' image)."""
    img = Image.open(path)
    img.load()
    if img.mode == "P":
        return img
    rgb = np.asarray(img.convert("RGB"), dtype=np.uint32)
    keys = (rgb[..., 0] << 16) | (rgb[..., 1] << 8) | rgb[..., 2]
    colours, index = np.unique(keys.ravel(), return_inverse=True)
    if len(colours) > 256:
        return img.convert("RGB")
    out = Image.frombytes("P", img.size, index.astype(np.uint8).tobytes())
    out.putpalette([int(c >> s) & 255 for c in colours for s in (16, 8, 0)])
    return out


def cpu_ms(fn: Callable[[], bytes]) -> tuple[float, int]:
    start = time.process_time()
    size = len(fn())
    return (time.process_time() - start) * 1000, size


def report(game: str, paths: list[Path], sample: int) -> str:
    sent_ms, png_ms, sent_ratio, png_ratio, sent_sizes, png_sizes = [], [], [], [], [], []
    step = max(1, len(paths) // sample) if sample else 0
    for i, path in enumerate(paths):
        img = as_drawn(path)
        ms, size = cpu_ms(lambda img=img: kit.encode_image(img))
        pms, psize = cpu_ms(lambda img=img: kit.encode_png(img))
        sent_ms.append(ms)
        png_ms.append(pms)
        sent_sizes.append(size)
        png_sizes.append(psize)
        if step and i % step == 0 and len(sent_ratio) < sample:
            best = best_bytes(img)
            sent_ratio.append(size / best)
            png_ratio.append(psize / best)
    med = statistics.median
    return (f"| {game} | {len(paths)} | {med(png_sizes):,.0f} → {med(sent_sizes):,.0f} "
            f"| {med(png_ratio):.2f} / {max(png_ratio):.2f} | {med(sent_ratio):.2f} / {max(sent_ratio):.2f} "
            f"| {med(png_ms):.1f} → {med(sent_ms):.1f} |")


@click.command()
@click.option("--dir", "folder", type=click.Path(path_type=Path), help="Images a terminal game wrote (per game).")
@click.option("--games", multiple=True, type=click.Choice(list(GAMES)), help="Games to measure (default: all).")
@click.option("--sample", default=8, show_default=True, help="Images per game measured against the anchor.")
@click.option("--seed", default="formats-25", show_default=True)
def main(folder: Path | None, games: tuple[str, ...], sample: int, seed: str) -> None:
    print("| game | images | median bytes PNG-3 → sent | PNG-3 × best (median / worst) "
          "| sent × best (median / worst) | encode CPU ms PNG-3 → sent (median) |")
    print("|---|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for game in games or GAMES:
            where = Path(tmp) / game if folder is None else (folder / game if (folder / game).is_dir() else folder)
            if folder is None:
                play(game, GAMES[game], seed, where)
            paths = sorted(p for p in where.iterdir() if p.name.startswith(game + "-")
                           and p.suffix in (".png", ".webp"))
            print(report(game, paths, sample), flush=True)


if __name__ == "__main__":
    main()
