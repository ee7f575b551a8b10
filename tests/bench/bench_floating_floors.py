"""Floating Floors (``python -m tests.bench floating_floors``): bot-played games, timed three ways.

- **check**: one balance check (`game.balance_of`: supports, loads, hull, margin) after each step of the bots'
  games; × floor = the same loads' centre of mass alone (`statics.centre_of_mass`), the arithmetic no check can
  skip.
- **turn + previews**: a whole bot turn as Discord serves it — every action applied, and after each one the
  "what if" preview of every option the selects would offer (`cogs.floating_floors.select_options`'s work,
  without Discord); × floor = the same turn's actions applied without previews. Timed apart from the images
  (the bot draws them in its render workers) and with the played game's states frozen out of the GC (the bot
  freezes what its start loaded and holds one state a game, not a whole game's). After each action, untimed in
  the turn, the young generation is collected as the bot does once a move is posted
  (`cogs.utils.posting.collect_young`); those collections are their own row, **between moves**. The caches the
  bots' own play of those games filled are emptied first (`mem_probe.clear_caches`).
- **render**: the top view with the physics overlay, drawn and encoded as the bot posts it (`board_image`), the
  draw (*render*) and the encode timed apart too;
  × floor = PNG-encoding a flat image of the same size and mode in the same run; × best bytes = the bytes over
  the best lossless encoding of the same pixels (`harness.best_ratio`, on a sample).
"""

from __future__ import annotations

import gc
import statistics
import time

from PIL import Image

from cogs.utils.posting import collect_young
from engine.core import new_game_options
from render import floating_floors as ff_render
from render.kit import encode_image
from rules.floating_floors import statics
from rules.floating_floors.components import PHYSICS
from rules.floating_floors.game import FloatingFloors, Work, balance_of, loads, previews
from tests.bench.harness import Row, best_ratio, best_samples, floor_bytes, floor_ms, median_p95
from tests.bench.mem_probe import clear_caches

GAME = "floating_floors"
RULES = FloatingFloors()
SELECTS = ("move", "place", "board", "take")
MAX_OPTIONS = 25



def _ms(fn: object, *args: object) -> float:
    t0 = time.perf_counter()
    fn(*args)  # type: ignore[operator]
    return (time.perf_counter() - t0) * 1000


def _previews(state: object, seat: int) -> None:
    groups: dict[str, list[str]] = {}  # by verb, in one pass, as the surface groups them (`by_kind`)
    for action in RULES.legal_actions(state, seat):
        groups.setdefault(action.partition(" ")[0], []).append(action)
    for verb in SELECTS:  # each select's options in one call, as `select_options` asks them
        previews(state, seat, groups.get(verb, [])[:MAX_OPTIONS])


def turns(players: int, seed: str, limit: int = 3000) -> list[list[tuple[object, int, str]]]:
    """The bots' game as turns: each a list of (state before, seat, action)."""
    state = RULES.new(players, new_game_options(RULES, {}), seed)  # what a new game plays (tension bands)
    out: list[list[tuple[object, int, str]]] = [[]]
    for _ in range(limit):
        if state.phase == "over":
            break
        seat = state.current
        action = RULES.bot_action(state, seat)
        out[-1].append((state, seat, action))
        turn = state.turn
        state, _ = RULES.apply(state, seat, action)
        if state.turn != turn:
            out.append([])
    return [t for t in out if t]


def games_of_turns(players: int, n: int) -> list[list[tuple[object, int, str]]]:
    """``n`` turns from as many games as it takes (a game has 12–21 turns, too few for a p95 of its own)."""
    out: list[list[tuple[object, int, str]]] = []
    while len(out) < n:
        out += turns(players, f"bench-ff-{players}" + (f"-{len(out)}" if out else ""))  # the first: as before
    return out[:n]


def rows(n: int = 30, players: tuple[int, ...] = (2, 4)) -> list[Row]:
    out: list[Row] = []
    for p in players:
        checks, floors, with_previews, bare, renders, young = [], [], [], [], [], []
        draws: list[float] = []
        encodes: list[float] = []
        samples: list[tuple[Image.Image, int]] = []
        size, mode, sizes = (0, 0), "P", []
        played = games_of_turns(p, n)
        # The bots' look-ahead on these very states filled the rules' caches: emptied, so that a timed turn is not
        # answered from it (a player's turn is not preceded by a bot thinking it over).
        clear_caches()
        # The bot freezes what its start loaded (`bot.freeze_loaded`) and holds one state per game; the bench holds
        # every state of the game it played, which a full collection inside a timed turn would walk: frozen too.
        gc.collect()
        gc.freeze()
        for turn in played:  # the turns first, on their own: the bot's images are drawn in other processes
            t_bare = t_full = 0.0
            for state, seat, action in turn:
                t_bare += _ms(RULES.apply, state, seat, action)
                t_full += _ms(_previews, state, seat)
                young.append(_ms(collect_young))  # the bot's, once the move is posted: not in the turn
            with_previews.append(t_bare + t_full)
            bare.append(t_bare)
        # A worker that has drawn for a while holds the sprites every map shares (boards, ninjas, Jutsu): another
        # game's maps drawn first, untimed, so that the timed draws pay for what is new in their position only.
        for turn in turns(p, f"bench-ff-{p}-warm-up"):
            ff_render.draw_board(RULES.view(turn[-1][0], None), physics=True)
        for turn in played:
            for state, _, _ in turn:
                w = Work(state)
                for card in w.boards:
                    checks.append(_ms(balance_of, w, card))
                    board = [(w.lay.centre(card), PHYSICS.board_weight)]
                    floors.append(_ms(statics.centre_of_mass, board + loads(w, card)))
            view = RULES.view(turn[-1][0], None)
            # Drawn and encoded as the bot posts it (`board_image`), the two steps timed apart.
            t0 = time.perf_counter()
            img = ff_render.draw_board(view, physics=True)
            t1 = time.perf_counter()
            sent = encode_image(img)
            t2 = time.perf_counter()
            draws.append((t1 - t0) * 1000)
            encodes.append((t2 - t1) * 1000)
            renders.append((t2 - t0) * 1000)
            size, mode = img.size, img.mode
            sizes.append(len(sent))
            samples.append((img, len(sent)))
        gc.unfreeze()
        case = f"{p}p"
        if checks:
            med, p95 = median_p95(checks)
            out.append(Row(GAME, f"{case} balance check", "check", med, p95, statistics.median(floors)))
        med, p95 = median_p95(with_previews)
        out.append(Row(GAME, f"{case} turn", "apply+previews", med, p95, statistics.median(bare)))
        med, p95 = median_p95(young)
        out.append(Row(GAME, f"{case} between moves", "young GC", med, p95))
        floor, image = floor_ms(size, mode), f"{case} map {size[0]}×{size[1]}"
        sent_bytes, flat_bytes = round(statistics.median(sizes)), floor_bytes(size, mode)
        best = best_ratio(samples, best_samples(len(samples)))
        out.append(Row(GAME, image, "render", *median_p95(draws), floor))
        out.append(Row(GAME, image, "encode", *median_p95(encodes), floor, sent_bytes, flat_bytes, best))
        out.append(Row(GAME, image, "render+encode", *median_p95(renders), floor, sent_bytes, flat_bytes, best))
    return out
