"""The command line of ``./floorboard`` (click): the bot by default, ``run`` for the same, ``play`` for the
terminal game. `main`/`invoke` return the exit code instead of exiting, so that the tests can call them."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from league.settings import Settings
    from league.tournament import Tournament

CONTEXT = {"help_option_names": ["-h", "--help"]}
# league.settings.FORMATS, written out so that `--help` loads no tournament code (a test keeps them equal).
FORMATS = ("swiss", "round-robin", "single-elimination", "double-elimination", "pods", "score")
PROG = "./floorboard"


def play_command() -> click.Command:
    """The terminal game's click command; imported only when needed (it loads every game's rules)."""
    import terminal  # lazy: the terminal game loads every game's rules and images

    return terminal.play


class LazyPlay(click.Command):
    """``play`` in the command list; the terminal game is imported only when it runs, so ``./floorboard --help`` and the
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
    from bot import run_bot  # lazy: `play` and `tournament` start without loading discord.py and the cogs

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
@click.option("--rounds", type=click.IntRange(0, 50), default=0,
              help="Swiss, pods and score events (0: default). More than the field is sure to play without "
                   "rematches (Swiss: half the players, rounded up; 3 for 3-4 players) is refused.")
@click.option("--bye-points", type=click.FloatRange(0, 1), default=None,
              help="What a bye is worth (a win is 1; default: 1, in pods 0.5, the average table points).")
@click.option("--half-bye-points", type=click.FloatRange(0, 1), default=0.5, show_default=True,
              help="What a requested (half-point) bye is worth.")
@click.option("--max-half-byes", type=click.IntRange(0, 50), default=1, show_default=True,
              help="Requested byes each entrant may take in the event.")
@click.option("--tiebreaks", default="",
              help="The tie-break order, comma-separated, e.g. buchholz_cut1,buchholz,sonneborn_berger,wins,direct "
                   "(default: the format's).")
@click.option("--min-table-size", type=click.IntRange(0, 10), default=0,
              help="Pods: the smallest table when the field does not divide (0: one less than the table size).")
@click.option("--max-table-size", type=click.IntRange(0, 10), default=0,
              help="Pods: the largest table (0: the table size).")
@click.option("--grand-final-reset/--no-grand-final-reset", default=True, show_default=True,
              help="Double elimination: a second final when the lower-bracket player wins the first.")
@click.option("--draw-rule", type=click.Choice(("rematch", "higher_seed")), default="rematch", show_default=True,
              help="Elimination: a drawn game is replayed with seats swapped (up to 3 times, then the higher seed "
                   "goes through), or the higher seed goes through at once.")
@click.option("--top-cut", type=click.IntRange(0, 16), default=0,
              help="After the Swiss or pods: a playoff of the best 4, 8 or 16, seeded by the standings (0: none).")
@click.option("--cut-format", type=click.Choice(("single", "double")), default="single", show_default=True,
              help="The playoff (top cut or groups): single or double elimination.")
@click.option("--third-place/--no-third-place", default=None,
              help="A single-elimination playoff's semi-final losers play for 3rd (default: on for a playoff).")
@click.option("--groups", type=click.IntRange(0, 16), default=0,
              help="Round robin: this many pools (snake-seeded), then a playoff of the top --advance of each.")
@click.option("--advance", type=click.IntRange(1, 8), default=2, show_default=True,
              help="Groups: how many of each pool go through to the playoff (cross-seeded: A1 v B2, B1 v A2).")
@click.option("--seed", default="sim", show_default=True, help="The same seed plays the same tournament.")
@click.option("--export", "export", type=click.Path(dir_okay=False, writable=True),
              help="Write the organisers' export to FILE (JSON; .trf or .csv names pick those formats).")
@click.option("--export-format", type=click.Choice(("json", "trf", "csv", "crosstable")),
              help="json: everything; trf: FIDE TRF-16 (Swiss and round robin); csv: the standings; crosstable: "
                   "a CSV with a column per round. Default: by the file's extension, else json.")
@click.option("--db", "database", metavar="PATH_OR_URL",
              help="Keep the tournament and its games in this database (a SQLite file, created when new, or "
                   "postgresql://…), in a server opted in to the web site: `./floorboard web --db` serves it.")
def simulate(game: str, fmt: str, players: int, table_size: int, rounds: int, bye_points: float | None,
             half_bye_points: float, max_half_byes: int, tiebreaks: str, min_table_size: int, max_table_size: int,
             grand_final_reset: bool, draw_rule: str,
             top_cut: int, cut_format: str, third_place: bool | None, groups: int, advance: int, seed: str,
             export: str | None, export_format: str | None = None, database: str | None = None) -> int:
    """Play a whole tournament of bots through the real engine in fake time and print the final standings."""
    # lazy: `./floorboard --help` and `play` load no engine or tournament code
    from engine.simulate import run, standings_text
    from league.stages import has_playoff, playoff_format

    settings = simulation_settings(game, fmt, players, table_size, rounds, bye_points=bye_points,
                                   half_bye_points=half_bye_points, max_half_byes=max_half_byes,
                                   tiebreaks=tuple(k.strip() for k in tiebreaks.split(",") if k.strip()),
                                   min_size=min_table_size, max_size=max_table_size,
                                   grand_final_reset=grand_final_reset, draw_rule=draw_rule, top_cut=top_cut,
                                   cut_format=cut_format, third_place=third_place, groups=groups, advance=advance)
    if export:
        check_export(export)
        # A playoff ends the event as an elimination, which TRF does not describe: refused now, not after it.
        export_format = export_kind(export, export_format, playoff_format(settings) if has_playoff(settings)
                                    else settings.format)
    sim = run(game=game, fmt=fmt, players=players, table_size=table_size, rounds=rounds, seed=seed,
              settings=settings, database=database, web_guild=SIMULATED_GUILD if database else None)
    click.echo(standings_text(sim.tournament))
    click.echo(f"{sim.games} games in {sim.seconds:.1f} s ({1000 * sim.per_game:.0f} ms a game)")
    if export:
        Path(export).write_bytes(export_bytes(sim.tournament, export_format or "json"))
        click.echo(f"exported to {export}")
    if sim.web_slug:
        click.echo(f"kept in {database}; its web page: /t/{sim.web_slug} (./floorboard web --db {database})")
    return 0


SIMULATED_GUILD = 1  # the server a simulation kept in a database belongs to (opted in to the web site)


def simulation_settings(game: str, fmt: str, players: int, table_size: int, rounds: int, **more: object) -> Settings:
    """The tournament's settings, every argument checked before the first game: a bad one is a usage error."""
    # lazy: `./floorboard --help` and `play` load no engine or tournament code
    from engine.simulate import bots
    from league.settings import Settings, TournamentError, check_rounds, resolve_format
    from league.tournament import Tournament
    from rules import GAMES

    rules = GAMES.get(game)
    if rules is None:
        raise click.BadParameter(f"no game {game!r}; games: {', '.join(sorted(GAMES))}", param_hint="--game")
    if not rules.min_players <= table_size <= rules.max_players:
        raise click.BadParameter(f"{game} seats {rules.min_players}-{rules.max_players} players at a table, "
                                 f"not {table_size}", param_hint="--table-size")
    try:
        settings = Settings(game=game, format=resolve_format(fmt, table_size), table_size=table_size, rounds=rounds,
                            **more)  # type: ignore[arg-type]
        check_rounds(settings, players)
        dry = Tournament("check", settings, seed="check")  # what the start refuses (too few players for a table)
        for entrant in bots(players):
            dry = dry.register(entrant)
        dry.start()
    except TournamentError as e:
        raise click.UsageError(str(e)) from None
    return settings


def check_export(path: str) -> None:
    """The export's folder must exist before the simulation runs, not after it."""
    folder = Path(path).expanduser().resolve().parent
    if not folder.is_dir():
        raise click.BadParameter(f"no folder {str(folder)!r} to write {Path(path).name!r} in", param_hint="--export")
    if Path(path).is_dir():
        raise click.BadParameter(f"{path!r} is a folder", param_hint="--export")


EXTENSIONS = {".trf": "trf", ".trfx": "trf", ".csv": "csv", ".json": "json"}


def export_kind(path: str, chosen: str | None, fmt: str) -> str:
    """The export's format (chosen, else by the file's extension, else JSON), refused before the simulation when
    the tournament cannot give it (TRF describes 2-player Swiss and round robin only)."""
    from league.export import TRF_FORMATS  # lazy: as above

    kind = chosen or EXTENSIONS.get(Path(path).suffix.lower(), "json")
    if kind == "trf" and fmt not in TRF_FORMATS:
        raise click.BadParameter(f"TRF describes {' and '.join(TRF_FORMATS)} tournaments, not {fmt}; "
                                 "use json, csv or crosstable", param_hint="--export-format")
    return kind


def export_bytes(value: Tournament, kind: str) -> bytes:
    import orjson  # lazy: as above

    from league import export as ex  # lazy: as above

    if kind == "trf":
        return ex.trf(value).encode("utf-8")
    if kind == "csv":
        return ex.standings_csv(value).encode("utf-8")
    if kind == "crosstable":
        return ex.crosstable_csv(value).encode("utf-8")
    return orjson.dumps(ex.json_export(value), option=orjson.OPT_INDENT_2)


@cli.command(context_settings=CONTEXT)
@click.option("--db", "database", metavar="PATH_OR_URL",
              help="The database to serve, read-only (default: DATABASE_URL, else DATABASE_PATH, as the bot's).")
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option("--port", type=click.IntRange(1, 65535), default=8080, show_default=True, help="The port.")
def web(database: str | None, host: str, port: int) -> int:
    """Serve the read-only web pages (tournaments, games, players, leaderboards) of servers that turned /web on."""
    import asyncio
    import logging

    from config import load_settings  # lazy: as above
    from storage import StorageOpenError  # lazy: as above
    from web import serve  # lazy: aiohttp's server is loaded by this command only

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    url = database or str(load_settings().store_url)
    try:
        asyncio.run(serve(url, host, port))
    except StorageOpenError as e:
        click.echo(f"Cannot open the database {e.path}: {e.reason}; {e.hint}.", err=True)
        return 5
    except KeyboardInterrupt:
        pass
    return 0


@cli.group(context_settings=CONTEXT)
def db() -> None:
    """The database: copy it from SQLite into PostgreSQL (and back)."""


@db.command("copy", context_settings=CONTEXT)
@click.option("--from", "source", required=True, metavar="PATH_OR_URL",
              help="The database to copy: a SQLite file (or sqlite:///PATH) or postgresql://USER@HOST:PORT/DB.")
@click.option("--to", "target", required=True, metavar="PATH_OR_URL",
              help="Where to copy it, as --from; created and migrated when new; it must hold no other rows.")
@click.option("--replace", is_flag=True, help="Empty the target first when it holds other rows.")
def db_copy(source: str, target: str, replace: bool) -> int:
    """Copy every table (games, actions, deadlines, results, ratings, tournaments, settings, content) and check
    each table's row count and checksum on both ends. Stop the bot first. To move to PostgreSQL: copy, then set
    DATABASE_URL in .env. A second run of the same copy changes nothing."""
    import asyncio

    from storage import StorageOpenError  # lazy: the bot and `play` start without the copy's code
    from storage.copy import CopyError, copy_database  # lazy: as above

    try:
        sums = asyncio.run(copy_database(source, target, replace=replace))
    except (CopyError, ValueError) as e:
        click.echo(f"db copy: {e}", err=True)
        return 1
    except StorageOpenError as e:
        click.echo(f"Cannot open the database {e.path}: {e.reason}; {e.hint}.", err=True)
        return 5
    for s in sums:
        click.echo(f"{s.table:<18} {s.rows:>9} rows  checksum {s.checksum[:16]}")
    click.echo("Copied: every table's row count and checksum are equal on both ends.")
    return 0


def invoke(argv: list[str]) -> int:
    """Run the command line on ``argv``; bad arguments print the usage and the reason (exit 2), not a
    traceback."""
    try:
        result = cli.main(args=argv, prog_name=PROG, standalone_mode=False)
    except click.ClickException as e:
        e.show()
        return e.exit_code
    except click.Abort:  # Ctrl-C (click has ended the line): the shell's code for SIGINT, as the terminal's main
        return 130
    except SystemExit as e:  # a subcommand that exits the old way (sys.exit / argparse)
        if isinstance(e.code, str):
            print(e.code, file=sys.stderr)
        return e.code if isinstance(e.code, int) else int(e.code is not None)
    return result if isinstance(result, int) else 0


def main(argv: list[str] | None = None) -> int:
    """The command line on ``argv`` (default: the process's); returns the exit code instead of exiting."""
    return invoke(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    sys.exit(main())


@cli.command(context_settings=CONTEXT)
@click.argument("game_id", required=False, type=int)
@click.option("--db", "db", type=click.Path(path_type=Path), help="The bot's database (with GAME_ID).")
@click.option("--save", "save", help="A terminal game's save name (see `./floorboard play --list`).")
@click.option("--out", "out", type=click.Path(path_type=Path), default=Path("out"), show_default=True,
              help="Where `play` keeps its saves (with --save).")
@click.option("--record", "record", type=click.Path(path_type=Path), help="A record file (/record's text).")
@click.option("--gif", "gif", type=click.Path(path_type=Path), help="Write the whole game as an animated GIF.")
@click.option("--frames", "frames", type=click.Path(path_type=Path), help="Write each step's board into DIR.")
def replay(game_id: int | None, db: Path | None, save: str | None, out: Path, record: Path | None,
           gif: Path | None, frames: Path | None) -> int:
    """Replay a game: from the bot's database, a terminal save or a record file; print it step by step, or write
    an animated GIF or every step's board. Exit 2 with one line for an unknown game or a path that cannot be
    written."""
    import asyncio  # lazy: the bot's start needs none of this

    return asyncio.run(run_replay(game_id, db, save, out, record, gif, frames))


async def run_replay(game_id: int | None, db: Path | None, save: str | None, out: Path, record: Path | None,
                     gif: Path | None, frames: Path | None) -> int:
    # lazy: the rules, the engine and the renderers load only for this command
    from engine.replays import Replay, ReplayError, load_record, table_source
    from engine.services import StorageOpenError, open_store
    from i18n import t
    from render.animate import animate_views, board_frames
    from rules import GAMES
    from terminal.saves import save_channel

    def fail(key: str, **params: object) -> int:
        click.echo(t(key, "en", prog=PROG, **params), err=True)
        return 2

    replay: Replay
    if record is not None:
        try:
            replay = load_record(record.read_text(encoding="utf-8"), GAMES)
        except OSError as e:
            return fail("replay.cli.cannot_read", path=str(record), reason=e.strerror or str(e))
        except ReplayError as e:
            return fail(e.key, **e.params)
    else:
        path = out / "play.db" if save is not None and db is None else db
        if path is None or (game_id is None and save is None):
            return fail("replay.cli.need_one")
        if not path.exists():
            return fail("replay.cli.unknown_game", table=game_id or save, db=str(path))
        try:
            store = await open_store(path)
        except StorageOpenError as e:
            return fail("replay.cli.unknown_game", table=game_id or save, db=f"{path} ({e.reason})")
        try:
            from engine import DamagedGameError, Engine  # lazy: as above

            engine = Engine(store)
            if save is not None:  # the save's running game, else the last one that ended under its name
                row = await engine.queries.saved_game(channel_id=save_channel(save))
                found = await (engine.get(row.id) if row is not None
                               else engine.last_closed_table_in_channel(save_channel(save)))
            else:  # an id past SQLite's integers is no game (it would overflow the query)
                row = await store.load_game(game_id) if game_id is not None and 0 < game_id < 2**63 else None
                found = None if row is None else await engine.get(row.id)
            if found is None:
                return fail("replay.cli.no_save" if save else "replay.cli.unknown_game", save=save, table=game_id,
                            db=str(path))
            table = found
            replay = Replay(table.rules, await table_source(store, table))
        except DamagedGameError:
            return fail("replay.cli.unknown_game", table=game_id or save, db=str(path))
        finally:
            await store.close()
    names = replay.source.names
    views = replay.views()
    try:
        if gif is not None:
            made = animate_views(replay.source.game, views, names=names, locale="en", limit=10 << 20)
            if made is None:
                return fail("replay.no_image", game=replay.source.game)
            gif.write_bytes(made.data)
            click.echo(t("replay.cli.wrote_gif", "en", path=str(gif), size=f"{made.size / 1024:.0f} KiB",
                         frames=made.frames, steps=len(replay) - 1))
        if frames is not None:
            frames.mkdir(parents=True, exist_ok=True)
            images = board_frames(replay.source.game, views, names=names, locale="en")
            for k, data in enumerate(images):
                (frames / f"step-{k:04d}.{'png' if data.startswith(bytes([137])) else 'webp'}").write_bytes(data)
            click.echo(t("replay.cli.wrote_frames", "en", count=len(images), path=str(frames)))
    except OSError as e:
        return fail("replay.cli.cannot_write", path=str(gif if frames is None else frames), reason=e.strerror or e)
    if gif is None and frames is None:
        for k in range(len(replay)):
            click.echo(f"{k:>4}  {replay.step(k, 'en').caption}")
    return 0
