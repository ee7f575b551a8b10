"""The command line of ``./floorboard`` (click): the bot by default, ``run`` for the same, ``play`` for the
terminal game. `invoke` returns the exit code instead of exiting, so that bot.main and the tests can call it."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import click

CONTEXT = {"help_option_names": ["-h", "--help"]}
# league.tournament.FORMATS, written out so that `--help` loads no tournament code (a test keeps them equal).
FORMATS = ("swiss", "round-robin", "single-elimination", "double-elimination", "pods", "score")
PROG = "./floorboard"


def play_command() -> click.Command:
    """play_cli's click command; imported only when needed (it loads every game's rules)."""
    import play_cli

    command = getattr(play_cli, "play", None)
    if isinstance(command, click.Command):
        return command
    return legacy_play(play_cli.main)


def legacy_play(play_main: Callable[[list[str]], int]) -> click.Command:
    """play_cli still parsing its own arguments (argparse ``main(argv)``): pass them through untouched."""

    @click.command("play", add_help_option=False,
                   context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False})
    @click.argument("args", nargs=-1, type=click.UNPROCESSED)
    def play(args: tuple[str, ...]) -> int:
        """Play a game in the terminal, without Discord (`./floorboard play -h` for its options)."""
        return play_main(list(args))

    return play


class LazyPlay(click.Command):
    """``play`` in the command list; play_cli is imported only when it runs, so ``./floorboard --help`` and the
    bot do not load the terminal game."""

    def __init__(self) -> None:
        super().__init__("play", short_help="Play a game in the terminal, without Discord.")

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: object) -> click.Context:
        return play_command().make_context(info_name, args, parent=parent, **extra)  # type: ignore[arg-type]


@click.group(invoke_without_command=True, context_settings=CONTEXT)
@click.pass_context
def cli(ctx: click.Context) -> int | None:
    """Floorboard: tabletop games in Discord.

    With no command, runs the bot, like `./floorboard run`. Settings come from the environment and .env
    (copy .env.example to .env and set DISCORD_TOKEN).

    \b
    Examples:
      ./floorboard                  run the bot
      ./floorboard play -h          the terminal game's options
      ./floorboard play flying_blades --players 3 --bots 2

    \b
    Exit codes: 2 missing token, bad settings or arguments; 3 token rejected;
    4 Message Content intent refused; 5 database cannot be opened;
    6 cannot reach Discord.
    """
    if ctx.invoked_subcommand is None:
        return ctx.invoke(run)
    return None


@cli.command(context_settings=CONTEXT)
def run() -> int:
    """Run the Discord bot until it is stopped (Ctrl-C)."""
    from bot import run_bot

    return run_bot()


cli.add_command(LazyPlay())


@cli.group(context_settings=CONTEXT)
def tournament() -> None:
    """Tournaments without Discord."""


@tournament.command(context_settings=CONTEXT)
@click.option("--game", required=True, help="The game id, e.g. flying_blades.")
@click.option("--format", "fmt", required=True, type=click.Choice(FORMATS),
              help="swiss, round-robin, single-elimination, double-elimination: two-player games; pods: Swiss-like "
                   "multiplayer tables (--table-size 2-10); score: everyone plays the same deal alone, ranked by "
                   "score (--table-size 1). Swiss with --table-size 3 or more plays pods; with 1, a score event.")
@click.option("--players", type=click.IntRange(2, 512), required=True, help="How many bot entrants.")
@click.option("--table-size", type=click.IntRange(1, 10), default=2, show_default=True,
              help="Players at each table: 2 for the two-player formats, 2-10 for pods, 1 for a score event.")
@click.option("--rounds", type=click.IntRange(0, 50), default=0, help="Swiss, pods and score events (0: default).")
@click.option("--seed", default="sim", show_default=True, help="The same seed plays the same tournament.")
@click.option("--export", "export", type=click.Path(dir_okay=False, writable=True),
              help="Write the tournament as JSON (the organisers' export).")
def simulate(game: str, fmt: str, players: int, table_size: int, rounds: int, seed: str, export: str | None) -> int:
    """Play a whole tournament of bots through the real engine in fake time and print the final standings."""
    import orjson

    from engine.simulate import run, standings_text
    from league.tournament import TournamentError
    from rules import GAMES

    if game not in GAMES:
        raise click.BadParameter(f"no game {game!r}; games: {', '.join(sorted(GAMES))}", param_hint="--game")
    try:
        sim = run(game=game, fmt=fmt, players=players, table_size=table_size, rounds=rounds, seed=seed)
    except TournamentError as e:
        raise click.UsageError(str(e)) from None
    click.echo(standings_text(sim.tournament))
    click.echo(f"{sim.games} games in {sim.seconds:.1f} s ({1000 * sim.per_game:.0f} ms a game)")
    if export:
        Path(export).write_bytes(orjson.dumps(sim.tournament.export(), option=orjson.OPT_INDENT_2))
        click.echo(f"exported to {export}")
    return 0


def invoke(argv: list[str]) -> int:
    """Run the command line on ``argv``; bad arguments print the usage and the reason (exit 2), not a
    traceback."""
    try:
        result = cli.main(args=argv, prog_name=PROG, standalone_mode=False)
    except click.ClickException as e:
        e.show()
        return e.exit_code
    except click.Abort:  # Ctrl-C (click has ended the line): the shell's code for SIGINT, as play_cli.main
        return 130
    except SystemExit as e:  # a subcommand that exits the old way (sys.exit / argparse)
        if isinstance(e.code, str):
            print(e.code, file=sys.stderr)
        return e.code if isinstance(e.code, int) else int(e.code is not None)
    return result if isinstance(result, int) else 0


if __name__ == "__main__":
    sys.exit(invoke(sys.argv[1:]))
