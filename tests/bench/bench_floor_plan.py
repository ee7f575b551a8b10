"""One round of Floor Plan with 1, 10 and 100 players: what the bot does between two public summaries.

Per player count, on a real mid-game position (the bot has played the setup and five rounds of the seed):
  - ``choose ×p``: `FloorPlan.bot_action` for every seat (how the actions are picked, timed apart from applying);
  - ``apply ×p``: `FloorPlan.apply` of those actions for every seat, in seat order (the last one closes the round
    and draws the next roll);
  - ``claimable ×p``: `FloorPlan.claimable` for every seat after the round closed (what each player is told);
  - the round summary (thumbnails for up to 6 players, else the leaderboard) and one player's sheet:
    ``render``, ``encode`` and ``render+encode`` with the image size and bytes (`image_rows`);
  - ``round total``: apply + claimable + summary and one sheet render+encode (medians added up);
  - ``suggest`` (1p only): `planner.suggest` on the mid-game position, what a player is offered live (budget
    ~150 ms); ``choose`` is the same search for every bot seat.

Every timed rules call starts from a fresh copy of the state (``from_json(to_json(...))``, untimed): a sheet
caches its derived geometry, and a warm cache would hide the work. The rules rows carry the floor of the round's
summary image (PNG-encoding a flat image of its size), so "× floor" reads as "this many plain image encodes".
"""

from __future__ import annotations

import gc
import math
import statistics
import time
from collections.abc import Callable
from typing import Any

from render import floor_plan as fprender
from rules.floor_plan import FloorPlan
from rules.floor_plan.planner import suggest
from tests.bench.bench_render import image_rows
from tests.bench.harness import Row, floor_ms

GAME = "floor_plan"
PLAYERS = (1, 10, 100)
WARM_ROUNDS = 5  # rounds played before the timed one (after the setup)
FP = FloorPlan()


def play_round(s: Any) -> Any:
    actions = [FP.bot_action(s, seat) for seat in range(s.players)]
    for seat, action in enumerate(actions):
        s, _ = FP.apply(s, seat, action)
    return s


def positions(players: int, seed: str) -> list[Any]:
    """The states after the setup and each of WARM_ROUNDS + 3 rounds (the last few give the images variety)."""
    s = FP.new(players, {}, seed)
    out = []
    for _ in range(WARM_ROUNDS + 4):
        if FP.outcome(s) is not None:
            break
        s = play_round(s)
        out.append(s)
    return out


def copy(s: Any) -> Any:
    return FP.from_json(FP.to_json(s))


def timed(prepare: Callable[[], Any], fn: Callable[[Any], object], n: int) -> tuple[float, float]:
    """(median, p95) ms of ``fn(prepare())`` over ``n`` runs; ``prepare`` is not timed."""
    times = []
    enabled = gc.isenabled()
    for _ in range(n):
        arg = prepare()
        gc.disable()
        try:
            start = time.perf_counter()
            fn(arg)
            times.append((time.perf_counter() - start) * 1000)
        finally:
            if enabled:
                gc.enable()
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, math.ceil(0.95 * len(times)) - 1)]


def runs(n: int, players: int) -> int:
    """Fewer timed runs for the big rounds (a 100-player round chooses 100 actions): at least 3."""
    return max(3, n if players == 1 else n // 2 if players == 10 else n // 5)


def round_rows(players: int, n: int) -> list[Row]:
    states = positions(players, f"bench-floor-plan-{players}")
    base = states[min(WARM_ROUNDS, len(states) - 1) - 1]  # to act in round WARM_ROUNDS
    actions = [FP.bot_action(base, seat) for seat in range(players)]
    after = play_round(base)
    case = f"round {players}p"
    k = runs(n, players)

    def choose(s: Any) -> None:
        for seat in range(players):
            FP.bot_action(s, seat)

    def apply(s: Any) -> None:
        for seat, action in enumerate(actions):
            s, _ = FP.apply(s, seat, action)

    def claims(s: Any) -> None:
        for seat in range(players):
            FP.claimable(s, seat)

    choose_ms = timed(lambda: copy(base), choose, k)
    apply_ms = timed(lambda: copy(base), apply, k)
    claims_ms = timed(lambda: copy(after), claims, k)

    names = [f"Player {i + 1}" for i in range(players)]

    def summary_input(s: Any) -> tuple[dict[str, Any], list[dict[str, Any]] | None]:
        view = FP.view(s, None)
        sheets = [FP.sheet_view(s, i) for i in range(players)] if players <= 6 else None
        return view, sheets

    inputs = [summary_input(s) for s in states[-4:]]
    count = 2 * k
    summary = image_rows(GAME, f"{case} summary", lambda vs: fprender.draw_summary(vs[0], vs[1], names=names),
                         [inputs[i % len(inputs)] for i in range(count)], k)  # type: ignore[arg-type]
    sheets = [FP.sheet_view(s, 0) for s in states[-4:]]
    sheet = image_rows(GAME, f"{case} sheet", lambda sv: fprender.draw_sheet(sv, name=names[0]),
                       [sheets[i % len(sheets)] for i in range(count)], k)
    img = fprender.draw_summary(inputs[-1][0], inputs[-1][1], names=names)
    floor = floor_ms(img.size, img.mode)
    total = apply_ms[0] + claims_ms[0] + summary[2].median_ms + sheet[2].median_ms
    total_p95 = apply_ms[1] + claims_ms[1] + summary[2].p95_ms + sheet[2].p95_ms
    suggest_rows = [Row(GAME, case, "suggest (planner, 4 placements)", *timed(lambda: copy(base),
                                                                                 lambda s: suggest(FP, s, 0), k),
                        floor)] if players == 1 else []
    return [
        Row(GAME, case, f"choose ×{players} (bot_action)", *choose_ms, floor),
        *suggest_rows,
        Row(GAME, case, f"apply ×{players}", *apply_ms, floor),
        Row(GAME, case, f"claimable ×{players}", *claims_ms, floor),
        *summary,
        *sheet,
        Row(GAME, case, "round total (apply+claims+summary+sheet)", total, total_p95, floor),
    ]


def rows(n: int = 100, players: tuple[int, ...] = PLAYERS) -> list[Row]:
    out: list[Row] = []
    for p in players:
        out += round_rows(p, n)
    return out


async def _engine_round_acts(players: int, rounds: int, db: str) -> list[float]:
    """ms per `Engine.act` (parse + apply + save of the whole state, WAL commit) over a few rounds of bots."""
    from engine import Engine, SeatInfo
    from storage import SqliteStore as Store

    store = await Store.open(db)
    try:
        engine = Engine(store)
        t = await engine.open_lobby("floor_plan", guild_id=1, channel_id=1, host=SeatInfo(1, "p1"), seed="bench")
        for i in range(2, players + 1):
            await engine.join(t.id, SeatInfo(i, f"p{i}"))
        t = await engine.start(t.id, 1)
        times: list[float] = []
        for _ in range(rounds):
            for seat in sorted(t.to_move()):
                t = await engine.get(t.id)
                if seat not in t.to_move():
                    continue
                action = t.rules.bot_action(t.state, seat)
                start = time.perf_counter()
                await engine.act(t.id, seat + 1, action)
                times.append((time.perf_counter() - start) * 1000)
            t = await engine.get(t.id)
        return times
    finally:
        await store.close()


def engine_rows(players: tuple[int, ...] = PLAYERS, rounds: int = 4) -> list[Row]:
    """The stored side of a round: every seat's act saved in its own transaction (the whole state each time)."""
    import asyncio
    import tempfile

    out = []
    for p in players:
        with tempfile.TemporaryDirectory() as tmp:
            times = sorted(asyncio.run(_engine_round_acts(p, rounds, f"{tmp}/bench.db")))
        p95 = times[min(len(times) - 1, math.ceil(0.95 * len(times)) - 1)]
        out.append(Row("floor_plan", f"{p}p engine", "act (parse+apply+save) per seat", statistics.median(times), p95))
    return out
