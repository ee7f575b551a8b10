"""Figures for issue 23 (the Nightmare's decisions): seeded bot games per player count, normal difficulty.

    nice -n 10 .venv/bin/python tools/floating_world_nightmare_decisions.py [--games N] [--players 2 3 4]
                                                                          [--paired] [--auto] [--save F] [--load F]

Without ``--paired``: the win rate, the Kitsune a relocation wounded or killed and the decisions asked per game,
each seat answering by the bot's rule (``--auto``: every seat with ``auto_nightmare=on``, today's automatic
choices). With ``--paired``: every seed is played twice, once with the automatic Nightmare and once with the bot's
decisions (``bot.nightmare_choice``), and the report gives both win rates, the paired difference (bot − automatic)
with its 95% confidence interval, and the discordant seeds. ``--save`` writes the per-seed outcomes (JSON),
``--load`` reuses the automatic column of an earlier run (the same seeds; the automatic column does not depend
on the bot's decision rule). Seeds are ``nd<players>-<i>``. One process on purpose: the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.floating_world import nightmare as nm
from rules.floating_world.game import FloatingWorld
from rules.floating_world.notation import xy
from rules.floating_world.state import State, Work

G = FloatingWorld()
MODES = {"auto": {"auto_nightmare": "on"}, "bot": {"auto_nightmare": "off"}, "control": {"auto_nightmare": "off"}}


def automatic_answer(s: State) -> str:
    """The automatic choice typed as an answer (the control column): the next demon in id order, the first
    neighbour in N, E, S, W order, a uniformly random spawn Land (drawn from its own stream, so the game's dice
    stay aligned with the bot column's)."""
    p = s.pending
    assert p is not None
    if p["decision"] == "resolve":
        d = next(d for i in p["todo"] for d in s.demons if d.id == i)
        return f"resolve {d.type}@{xy(d.at)}"
    if p["decision"] == "flee":
        return f"flee {xy(nm.flee_choices(Work.of(s), tuple(p['from']))[1])}"
    return random.Random(f"{s.seed}/{s.actions}").choice(sorted(p["choices"]))


def play(players: int, seed: str, options: dict[str, str], control: bool = False) -> Counter[str]:
    s = G.new(players, options, seed)
    out: Counter[str] = Counter()
    for _ in range(40_000):
        if s.phase == "over":
            break
        seat = next(iter(G.to_move(s)))
        if getattr(s, "pending", None) is not None:
            out[f"asked_{s.pending['decision']}"] += 1
        action = automatic_answer(s) if control and s.pending is not None else G.bot_action(s, seat)
        s, events = G.apply(s, seat, action)
        for e in events:
            steps = e.data.get("steps", []) if e.kind == "nightmare" else []
            hurt = [x["seat"] for x in steps if x["kind"] == "kitsune_moved" and x["wound"]]
            out["relocation_wounds"] += len(hurt)
            out["relocation_deaths"] += sum(1 for x in steps if x["kind"] == "death" and x["seat"] in hurt)
    out["won"] += s.reason == "fw.outcome.sealed"
    out["turns"] += s.turn
    return out


def paired_ci(auto: list[int], bot: list[int]) -> tuple[float, float]:
    """Mean of the per-seed differences (bot − automatic) and its 95% half-width (normal approximation)."""
    d = [b - a for a, b in zip(auto, bot, strict=True)]
    n = len(d)
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / (n - 1) if n > 1 else 0.0
    return mean, 1.96 * math.sqrt(var / n)


def rate_ci(wins: list[int]) -> str:
    n, p = len(wins), sum(wins) / len(wins)
    return f"{p:.1%} ± {1.96 * math.sqrt(p * (1 - p) / n):.1%}"


def column(p: int, games: int, mode: str, old: dict) -> list[int]:
    """Won (1) or lost (0) per seed for one mode; a baseline column already measured is reused."""
    done = old.get(str(p), {}).get(mode, [])[:games]
    if mode != "bot" and len(done) == games:
        return done
    return [play(p, f"nd{p}-{i}", MODES[mode], control=mode == "control")["won"] for i in range(games)]


def paired(players: list[int], games: int, save: str | None, load: str | None, base: str = "auto") -> None:
    old = json.loads(Path(load).read_text()) if load else {}
    results: dict[str, dict[str, list[int]]] = {}
    print(f"| players | seeds | {base} | bot's decisions | bot − {base} (95% CI) | bot only / {base} only |")
    print("| --- | --- | --- | --- | --- | --- |")
    for p in players:
        key = str(p)
        auto = column(p, games, base, old)
        bot = column(p, games, "bot", old)
        results[key] = {**old.get(key, {}), base: auto, "bot": bot}
        mean, half = paired_ci(auto, bot)
        only_bot = sum(1 for a, b in zip(auto, bot, strict=True) if b and not a)
        only_auto = sum(1 for a, b in zip(auto, bot, strict=True) if a and not b)
        print(f"| {p} | {games} | {rate_ci(auto)} | {rate_ci(bot)} | {mean:+.1%} ± {half:.1%} | "
              f"{only_bot} / {only_auto} |", flush=True)
    all_auto = [x for r in results.values() for x in r[base]]
    all_bot = [x for r in results.values() for x in r["bot"]]
    mean, half = paired_ci(all_auto, all_bot)
    print(f"| all | {len(all_auto)} | {rate_ci(all_auto)} | {rate_ci(all_bot)} | {mean:+.1%} ± {half:.1%} | |")
    if save:
        Path(save).write_text(json.dumps(results))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4], choices=(1, 2, 3, 4))
    ap.add_argument("--paired", action="store_true", help="each seed with the automatic and the bot's decisions")
    ap.add_argument("--auto", action="store_true", help="every choice automatic (auto_nightmare=on)")
    ap.add_argument("--baseline", choices=("auto", "control"), default="auto",
                    help="auto: auto_nightmare=on; control: the automatic choices typed at each decision")
    ap.add_argument("--save", help="write the per-seed outcomes of --paired here (JSON)")
    ap.add_argument("--load", help="reuse the automatic outcomes of an earlier --paired --save")
    args = ap.parse_args(argv)
    if args.paired:
        paired(args.players, args.games, args.save, args.load, args.baseline)
        return
    for players in args.players:
        total: Counter[str] = Counter()
        for i in range(args.games):
            total.update(play(players, f"nd{players}-{i}", MODES["auto" if args.auto else "bot"]))
        per = {k: round(v / args.games, 3) for k, v in sorted(total.items())}
        print(f"{players} player(s), {args.games} games: win {100 * total['won'] / args.games:.1f}% {per}")


if __name__ == "__main__":
    main()
