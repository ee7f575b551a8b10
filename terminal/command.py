"""`./floorboard play`: the click command, its per-game option help, and `main` for tests and scripts."""

from __future__ import annotations

import asyncio
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from i18n import LOCALES, catalog, t
from rules import GAMES
from rules.options import UNSET, describe
from terminal.app import run
from terminal.saves import drop_saved, list_saved
from terminal.settings import DEFAULT_PLAYERS, PROG, Read, checked_settings, new_game_preset


@dataclass(frozen=True)
class Keyboard:
    """Passed as the click context's object so tests (and `main`) can type for the player."""

    read: Read


# --- options: each game's, as its own rules take them (`rules.options`), for --help and the README -------------


def default_text(info: Any, lang: str) -> str:
    if info.varies:
        return t("cli.options.by_players", lang)
    if info.default is UNSET:
        return t("cli.options.no_default", lang)
    if isinstance(info.default, bool):
        return str(info.default).lower()
    return "none" if info.default in (None, (), []) else str(info.default)


def option_rows(game: str, lang: str) -> list[tuple[str, str, str]]:
    """(name, allowed values, default) of every option ``game`` takes, as `play GAME --help` and the README list
    them. The values an option's rules do not spell out (a list, a member) have their own words in the catalog."""
    rules = GAMES[game]
    players = min(max(DEFAULT_PLAYERS, rules.min_players), rules.max_players)
    rows = []
    for info in describe(rules, players, new_game_preset(game)):
        own = f"cli.options.values.{game}.{info.key}"
        values = t(own, lang) if own in catalog(lang) else ", ".join(info.values or ("?",))
        if info.values_vary and own not in catalog(lang):
            values = t("cli.options.up_to_players", lang, values=values)
        rows.append((info.key, values, default_text(info, lang)))
    return rows


def options_help(game: str, lang: str) -> list[str]:
    rows = option_rows(game, lang)
    width = max((len(key) for key, _, _ in rows), default=0)
    return [t("cli.options.title", lang, game=GAMES[game].name)] + [
        f"  {key:<{width}}  {values} ({t('cli.options.default', lang, value=default)})"
        for key, values, default in rows]


def games_help(lang: str) -> list[str]:
    return [t("cli.options.games", lang, prog=PROG)] + [
        f"  {game:<16} {t('cli.options.game', lang, name=rules.name, min=rules.min_players, max=rules.max_players)}"
        for game, rules in GAMES.items()]


class PlayCommand(click.Command):
    """`play --help` lists the games; `play GAME --help` that game's options (in `--lang` when given first)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        # --help is answered while the arguments are parsed, before GAME is: note the game named first.
        ctx.meta["play.game"] = next((a for a in args if a in GAMES), None)
        return super().parse_args(ctx, args)

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_epilog(ctx, formatter)
        lang, game = ctx.params.get("lang") or "en", ctx.params.get("game") or ctx.meta.get("play.game")
        formatter.write_paragraph()
        formatter.write("\n".join(options_help(game, lang) if game in GAMES else games_help(lang)) + "\n")


@click.command("play", cls=PlayCommand,
               context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 110})
@click.argument("game", required=False, metavar="GAME", type=click.Choice(sorted(GAMES)))
@click.option("--players", type=int, default=None, help=f"Seats at the table (default {DEFAULT_PLAYERS}).")
@click.option("--bots", type=int, default=None, help="Seats the AI plays (default: all but one).")
@click.option("--option", "pairs", multiple=True, metavar="KEY=VALUE",
              help="A game option; repeatable (`play GAME --help` lists the game's options).")
@click.option("--seed", default=None, help="A fixed seed for a reproducible game.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("out"), show_default=True,
              help="Folder for images, records and the saved games.")
@click.option("--db", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="SQLite file of the saved games (default: OUT/play.db).")
@click.option("--lang", type=click.Choice(LOCALES), default="en", show_default=True, is_eager=True,
              help="Language of the text.")
@click.option("--no-images", is_flag=True, help="Write no PNGs.")
@click.option("--save", default=None, metavar="NAME",
              help="The saved game to resume or start (default: the one this command started).")
@click.option("--new", is_flag=True, help="Start another game; saved games are kept.")
@click.option("--list", "listing", is_flag=True, help="List the saved games and exit.")
@click.option("--drop", default=None, metavar="NAME",
              help="End the saved game NAME (as --list names it; damaged ones too): its moves go to OUT first.")
@click.pass_context
def play(ctx: click.Context, game: str | None, players: int | None, bots: int | None, pairs: tuple[str, ...],
         seed: str | None, out: Path, db: Path | None, lang: str, no_images: bool, save: str | None, new: bool,
         listing: bool, drop: str | None) -> int:
    """Play a Floorboard game in the terminal (hot seat for humans; bots play themselves).

    GAME is flying_blades, floor_plan, the_floor, floating_world or floating_floors. In the game type `help`,
    `legal` or `quit`.
    """
    keyboard = ctx.find_object(Keyboard)
    read = keyboard.read if keyboard is not None else input
    if listing:
        code = asyncio.run(list_saved(db or out / "play.db", lang))
    elif drop is not None:
        code = asyncio.run(drop_saved(db or out / "play.db", drop, out, lang))
    elif game is None:
        raise click.UsageError(t("cli.err.no_game", lang, games=", ".join(sorted(GAMES))))
    else:
        settings = checked_settings(game, players, bots, pairs, seed=seed, out=out, db=db, lang=lang,
                                    images=not no_images, save=save, new=new)
        code = asyncio.run(run(settings, read))
    if code:
        ctx.exit(code)
    return code


def main(argv: list[str] | None = None, read: Read = input) -> int:
    """Run `play` as ``./floorboard play``; returns the exit code (2 for a bad command line, never a traceback)."""
    try:
        code = play.main(args=list(sys.argv[1:] if argv is None else argv), prog_name=PROG,
                         standalone_mode=False, obj=Keyboard(read))
    except click.ClickException as e:
        e.show()
        return e.exit_code
    except click.Abort:
        print()
        return 130
    return code if isinstance(code, int) else 0
