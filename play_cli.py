"""Play in a terminal, without Discord: ``python bot.py play flying_blades --players 3 --bots 2``.

The same engine, storage and renderer as the bot: moves are typed in the game's notation, the text board is
printed after every move and the board image is written to ``--out``. Humans share the keyboard (hot seat);
with as many bots as players the game plays itself to the end and exits 0. A game in ``--db`` that is still
running is resumed, so nothing typed is lost when the terminal closes.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from i18n import LOCALES, t
from rules.base import FloorboardError
from rules.engine import ActResult, Engine, SeatInfo, Table
from storage import Store

CLI_CHANNEL = 0  # the terminal is one "channel": one running game per database
HUMAN_BASE_ID = 1000


def parse_args(argv: list[str]) -> argparse.Namespace:
    from rules import GAMES

    p = argparse.ArgumentParser(prog="./floorboard play", description="Play a Floorboard game in the terminal.")
    p.add_argument("game", choices=sorted(GAMES))
    p.add_argument("--players", type=int, default=3, help="seats at the table")
    p.add_argument("--bots", type=int, default=None, help="how many seats the AI plays (default: all but one)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a game option, repeatable")
    p.add_argument("--seed", default=None, help="a fixed seed for a reproducible game")
    p.add_argument("--out", type=Path, default=Path("out"), help="folder for board images and the record")
    p.add_argument("--db", type=Path, default=None, help="SQLite file (default: OUT/play.db)")
    p.add_argument("--lang", choices=LOCALES, default="en")
    p.add_argument("--no-images", action="store_true", help="do not write PNGs")
    args = p.parse_args(argv)
    if args.bots is None:
        args.bots = max(args.players - 1, 0)
    if not 0 <= args.bots <= args.players:
        p.error("--bots must be between 0 and --players")
    return args


def parse_options(pairs: list[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"--option expects KEY=VALUE, got {pair!r}")
        options[key.strip()] = int(value) if value.strip().lstrip("-").isdigit() else value.strip()
    return options


class TerminalGame:
    def __init__(self, engine: Engine, args: argparse.Namespace, read: Callable[[str], str]) -> None:
        self.engine = engine
        self.args = args
        self.read = read
        self.lang = args.lang
        self.renderer = importlib.import_module(f"render.{args.game}")
        self.images = 0

    def say(self, key: str, **params: Any) -> None:
        print(t(key, self.lang, **params))

    async def setup(self) -> Table:
        existing = await self.engine.table_in_channel(CLI_CHANNEL)
        if existing is not None and existing.status == "active" and existing.game == self.args.game:
            self.say("cli.resumed", table=existing.id, moves=existing.moves)
            return existing
        if existing is not None:
            await self.engine.abort(existing.id, existing.host_id, is_admin=True)
        humans = self.args.players - self.args.bots
        # With no human at the table the first bot hosts it (host id 0, as for any bot-hosted table).
        host = SeatInfo(HUMAN_BASE_ID, "Player 1") if humans else SeatInfo(None, "Bot 1", bot=True)
        host_id = HUMAN_BASE_ID if humans else 0
        table = await self.engine.open_lobby(
            self.args.game, guild_id=None, channel_id=CLI_CHANNEL, host=host,
            options=parse_options(self.args.option), seed=self.args.seed,
        )
        for i in range(1, humans):
            await self.engine.join(table.id, SeatInfo(HUMAN_BASE_ID + i, f"Player {i + 1}"))
        for _ in range(self.args.bots - (0 if humans else 1)):
            await self.engine.add_bot(table.id, host_id)
        table = await self.engine.start(table.id, host_id)
        self.say("cli.started", table=table.id, game=table.rules.name)  # the seed is secret until the end
        return table

    def show(self, table: Table, seat: int | None) -> None:
        """Print the board as ``seat`` sees it (hot seat: the player about to type)."""
        print(self.renderer.text_board(self.engine.view(table, seat), names=table.names(), locale=self.lang))

    def save_image(self, table: Table) -> None:
        """The public board after a move, as the bot would post it (a spectator's view: no hand)."""
        draw = getattr(self.renderer, "render", None)  # a game without a one-image public board writes none
        if self.args.no_images or draw is None:
            return
        self.args.out.mkdir(parents=True, exist_ok=True)
        path = self.args.out / f"{table.game}-{table.id}-{table.moves:04d}.png"
        path.write_bytes(draw(self.engine.view(table, None), names=table.names(), locale=self.lang))
        self.images += 1

    def announce(self, result: ActResult) -> None:
        who = result.table.seats[result.seat].name
        self.say("cli.moved", name=who, action=result.action)
        self.save_image(result.table)

    async def run(self) -> int:
        table = await self.setup()
        self.show(table, None)
        self.save_image(table)
        while table.status == "active":
            for result in await self.engine.play_bots(table.id):
                self.announce(result)
            table = await self.engine.get(table.id)
            if table.status != "active":
                break
            humans = table.humans_to_move()
            if not humans:
                continue
            self.show(table, humans[0])
            if not await self.prompt(table, humans[0]):
                self.say("cli.saved", db=str(self.engine.store.path))
                return 0
            table = await self.engine.get(table.id)
        self.show(table, None)
        self.finish(table)
        record = self.args.out / f"{table.game}-{table.id}.txt"
        self.args.out.mkdir(parents=True, exist_ok=True)
        record.write_text(await self.engine.record(table.id), encoding="utf-8")
        self.say("cli.record", path=str(record), images=self.images)
        self.say("cli.seed", seed=table.seed)
        return 0

    async def prompt(self, table: Table, seat: int) -> bool:
        """One human move; returns False when the player quits (the game stays saved)."""
        shown = time.monotonic()  # a game with clocks (The Floor's duels) is charged from the prompt
        while True:
            try:
                text = self.read(t("cli.prompt", self.lang, name=table.seats[seat].name)).strip()
            except EOFError:
                return False
            if text in ("quit", "exit"):
                return False
            if text in ("help", "?"):
                self.say("cli.help")
                continue
            if text == "legal":
                actions = table.rules.legal_actions(table.state, seat)
                print(", ".join(actions) if actions else t("cli.no_list", self.lang))
                continue
            if not text:
                continue
            typed = getattr(table.rules, "typed_action", None)
            if typed is not None:
                text = typed(table.state, text, int((time.monotonic() - shown) * 1000))
            try:
                result = await self.engine.act(table.id, table.seats[seat].user_id or 0, text)
            except FloorboardError as e:
                print(t(e.msg, self.lang))
                continue
            self.announce(result)
            return True

    def finish(self, table: Table) -> None:
        if table.outcome is None:
            self.say("cli.aborted")
            return
        names = table.names()
        winners = ", ".join(names[w] for w in table.outcome.winners)
        self.say("cli.result", winners=winners)
        for place, group in enumerate(table.outcome.ranking, start=1):
            for seat in group:
                self.say("cli.rank", place=place, name=names[seat], score=f"{table.outcome.scores[seat]:g}")


async def run(args: argparse.Namespace, read: Callable[[str], str] = input) -> int:
    db = args.db or args.out / "play.db"
    store = await Store.open(db)
    try:
        return await TerminalGame(Engine(store), args, read).run()
    finally:
        await store.close()


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    try:
        return asyncio.run(run(args))
    except KeyboardInterrupt:
        print()
        return 130


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
