"""The terminal's settings: a command line's game, seats, options and files, each checked by the game's rules."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from i18n import t
from rules import GAMES
from rules.base import FloorboardError

PROG = "./floorboard play"
HUMAN_BASE_ID = 1000
SAVE_META = "cli"  # a table's meta: {"save": name, "shape": the command's game, seats, options and seed}
LEGACY_CHANNEL = 0  # before saves, every terminal game used channel 0
DEFAULT_PLAYERS = 3
EXIT_ERROR = 1  # the game could not go on (a damaged saved game, the database gone)
EXIT_STORAGE = 5  # the database cannot be opened, as for the bot
Read = Callable[[str], str]


@dataclass(frozen=True)
class Settings:
    game: str
    players: int
    bots: int
    options: dict[str, Any]
    seed: str | None
    out: Path
    db: Path
    lang: str
    images: bool = True
    save: str | None = None
    new: bool = False

    def shape(self) -> dict[str, Any]:
        """What makes "the same command": the same game, seats, options and seed resume the same save."""
        return {"game": self.game, "players": self.players, "bots": self.bots, "options": self.options,
                "seed": self.seed}


def option_value(value: str) -> Any:
    """``60`` -> 60, ``true`` -> True: option values as the lobby's typed options would hold them."""
    value = value.strip()
    if value.lstrip("-").isdigit():
        return int(value)
    return {"true": True, "false": False}.get(value.lower(), value)


def parse_options(pairs: tuple[str, ...] | list[str], lang: str) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(t("cli.err.option_form", lang, pair=pair), param_hint="--option")
        options[key.strip()] = option_value(value)
    return options


def checked_settings(game: str, players: int | None, bots: int | None, pairs: tuple[str, ...], **rest: Any) -> Settings:
    """Settings from the command line, every value checked by the game's own rules before anything is opened."""
    lang = rest["lang"]
    rules = GAMES[game]
    players = DEFAULT_PLAYERS if players is None else players
    if not rules.min_players <= players <= rules.max_players:
        raise click.BadParameter(t("cli.err.players", lang, game=rules.name, min=rules.min_players,
                                   max=rules.max_players, count=players), param_hint="--players")
    bots = max(players - 1, 0) if bots is None else bots
    if not 0 <= bots <= players:
        raise click.BadParameter(t("cli.err.bots", lang, max=players, count=bots), param_hint="--bots")
    options = parse_options(pairs, lang)
    for key, value in new_game_preset(game).items():
        options.setdefault(key, value)
    try:
        rules.normalize_options(players, options)
    except FloorboardError as e:
        raise click.BadParameter(f"{t(e.msg, lang)} {t('cli.options.see_help', lang, prog=PROG, game=game)}",
                                 param_hint="--option") from None
    out: Path = rest.pop("out")
    db = rest.pop("db") or out / "play.db"
    return Settings(game=game, players=players, bots=bots, options=options, out=out, db=db, **rest)


# The terminal's own defaults for a game, on top of the rules' new-game options (none today: the fair letters The
# Floor's lobby gives are the rules' `new_game_options`, which every new game gets).
TERMINAL_PRESET: dict[str, dict[str, Any]] = {}


def new_game_preset(game: str) -> dict[str, Any]:
    """What a new terminal game starts with before the player's options: the rules' new-game defaults (as the
    engine gives every new game) and the terminal's own preset."""
    return {**getattr(GAMES[game], "new_game_options", {}), **TERMINAL_PRESET.get(game, {})}
