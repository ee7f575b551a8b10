"""Play in a terminal, without Discord: ``./floorboard play flying_blades --players 3 --bots 2``.

The same engine, storage and renderer as the bot: moves are typed in the game's notation, the text board is
printed after every move and the images the bot would post are written to ``--out``. Humans share the keyboard
(hot seat); with as many bots as players the game plays itself to the end and exits 0.

Saved games live side by side in one database (``OUT/play.db``): each is a *save* with a name, and each save is
its own "channel" for the engine (one open game per channel). A command resumes the saved game it names: the one
saved under ``--save NAME``, or else the latest running game started with the same game, seats, options and seed.
``--new`` starts another beside it (never ends one); ``--list`` shows them all.
"""

from __future__ import annotations

import asyncio
import hashlib
import importlib
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from engine import ActResult, DamagedGameError, Engine, Notice, SeatInfo, Table
from engine.services import StorageOpenError, open_store
from i18n import LOCALES, catalog, t
from i18n.text import seat_names
from rules import GAMES
from rules.base import Event, FloorboardError, Msg

PROG = "./floorboard play"
HUMAN_BASE_ID = 1000
SAVE_META = "cli"  # a table's meta: {"save": name, "shape": the command's game, seats, options and seed}
LEGACY_CHANNEL = 0  # before saves, every terminal game used channel 0
DEFAULT_PLAYERS = 3
EXAMPLES = 3  # legal examples shown by `legal` and `help`
LIST_ALL = 24  # a list of legal moves longer than this is summarised per verb
FINAL_SHEETS = 6  # Floor Plan's final sheets printed at most (past 6 players the summary is a leaderboard)
SUGGESTIONS = 4  # Floor Plan: the planner's best moves listed by `legal` (as Discord's buttons offer them)
EXIT_ERROR = 1  # the game could not go on (a damaged saved game, the database gone)
EXIT_STORAGE = 5  # the database cannot be opened, as for the bot
Read = Callable[[str], str]


# --- settings and the command line ----------------------------------------------------------------------


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


@dataclass(frozen=True)
class Hidden:
    """A hidden choice, said without its content; consecutive ones of a kind are said in one line."""

    key: str  # takes {names}
    name: str


Line = str | Hidden


@dataclass(frozen=True)
class Keyboard:
    """Passed as the click context's object so tests (and `main`) can type for the player."""

    read: Read


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


# --- options: each game's, as its own rules take them (`rules.options`), for --help and the README -------------

# Set before the player's options, as the bot's lobby does: The Floor redraws a letter the category cannot answer.
TERMINAL_PRESET: dict[str, dict[str, Any]] = {"the_floor": {"letters": "answerable"}}


def new_game_preset(game: str) -> dict[str, Any]:
    """What a new terminal game starts with before the player's options: the rules' new-game defaults (as the
    engine gives every new game) and the terminal's own preset."""
    return {**getattr(GAMES[game], "new_game_options", {}), **TERMINAL_PRESET.get(game, {})}


def default_text(info: Any, lang: str) -> str:
    from rules.options import UNSET

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
    from rules.options import describe

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


# --- saves ------------------------------------------------------------------------------------------------


def save_channel(name: str) -> int:
    """A save's own channel id (stable, never 0): the engine keeps one open game per channel."""
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:6], "big") + 1


def save_name(table: Table) -> str:
    return str(table.meta.get(SAVE_META, {}).get("save") or f"#{table.id}")


def same_command(table: Table, settings: Settings) -> bool:
    saved = table.meta.get(SAVE_META)
    if saved is not None:
        return saved.get("shape") == settings.shape()
    # A game saved before saves existed: the same game with the same seats counts as the same command.
    bots = sum(1 for s in table.seats if s.bot)
    return table.channel_id == LEGACY_CHANNEL and (len(table.seats), bots) == (settings.players, settings.bots)


async def taken(engine: Engine, name: str) -> bool:
    try:
        return await engine.table_in_channel(save_channel(name)) is not None
    except DamagedGameError:  # a damaged save keeps its name until it is dropped
        return True


async def free_name(engine: Engine, base: str) -> str:
    name, n = base, 1
    while await taken(engine, name):
        n += 1
        name = f"{base}-{n}"
    return name


def drop_command(save: str, db: Path) -> str:
    return f"{PROG} --drop {save} --db {db}"


def damaged_notice(settings: Settings, told: set[int]) -> Callable[[Notice], Awaitable[None]]:
    """The engine's notice of a save found damaged (sent once per game, ever: the store remembers it was told),
    said in the terminal's own words: how to drop it here, not Discord's /record and /abort."""

    async def listener(notice: Notice) -> None:
        if notice.kind == "damaged":
            told.add(notice.table.id)
            save = save_name(notice.table)
            print(t("cli.damaged", settings.lang, save=save, table=notice.table.id,
                    command=drop_command(save, settings.db)), file=sys.stderr)

    return listener


async def damaged_saves(engine: Engine) -> list[Table]:
    """The running saves isolated as damaged so far (after `running_tables`), as shells."""
    shells = [await engine.damaged_shell(table_id) for table_id in sorted(engine.damaged)]
    return [x for x in shells if x is not None and x.status == "active"]


async def drop_saved(db: Path, name: str, out: Path, lang: str) -> int:
    """``--drop NAME``: the save's record written to OUT, then the game ended (damaged or not)."""
    try:
        store = await open_store(db)
    except StorageOpenError as e:
        print(t("cli.err.db", lang, path=e.path, reason=e.reason), file=sys.stderr)
        return EXIT_STORAGE
    engine = Engine(store)
    try:
        number = name.removeprefix("#")
        row = (await engine.queries.saved_game(int(number)) if number.isdigit() and len(number) < 19
               else await engine.queries.saved_game(channel_id=save_channel(name)))
        if row is None or row.status not in ("lobby", "active"):
            print(t("cli.err.no_save", lang, save=name, db=str(db), prog=PROG), file=sys.stderr)
            return EXIT_ERROR
        out.mkdir(parents=True, exist_ok=True)
        path = out / f"{row.game if row.game in GAMES else 'damaged'}-{row.id}.txt"
        path.write_text(await engine.record(row.id), encoding="utf-8")  # a damaged one is isolated here
        if row.id in engine.damaged:
            await engine.abort_damaged(row.id, row.host_id, is_admin=True)
        else:
            await engine.abort(row.id, row.host_id, is_admin=True)
        print(t("cli.dropped", lang, save=name, table=row.id, path=str(path)))
        return 0
    finally:
        await store.close()


async def list_saved(db: Path, lang: str) -> int:
    if not db.exists():
        print(t("cli.list.none", lang, db=str(db)))
        return 0
    try:
        store = await open_store(db)
    except StorageOpenError as e:
        print(t("cli.err.db", lang, path=e.path, reason=e.reason), file=sys.stderr)
        return EXIT_STORAGE
    try:
        engine = Engine(store)
        tables = await engine.running_tables()
        damaged = await damaged_saves(engine)
    finally:
        await store.close()
    if not tables and not damaged:
        print(t("cli.list.none", lang, db=str(db)))
        return 0
    print(t("cli.list.title", lang, db=str(db)))
    for table in sorted(tables, key=lambda x: x.updated_at, reverse=True):
        print(t("cli.list.line", lang, save=save_name(table), game=table.rules.name, table=table.id,
                moves=t("cli.list.moves", lang, count=table.moves), seats=", ".join(seat_names(table.seats)),
                when=table.updated_at.strftime("%Y-%m-%d %H:%M")))
    for shell in damaged:
        print(t("cli.list.damaged", lang, save=save_name(shell), table=shell.id,
                command=drop_command(save_name(shell), db)))
    print(t("cli.list.hint", lang, prog=PROG))
    return 0


# --- captions: what the terminal says about a move (never a hidden choice, never raw internals) -----------


def fb_caption(table: Table, result: ActResult, lang: str) -> list[Line]:
    from render.flying_blades import card_name
    from rules.flying_blades.cards import PRICES

    name = seat_names(table.seats)[result.seat]
    verb = result.action.split()[0]
    lines: list[Line] = []
    for e in result.events:
        d = e.data
        if e.kind == "drafted":
            if table.options.get("cards", "hidden") == "hidden":
                lines.append(Hidden("cli.fb.chose", name))
            else:
                cards = result.action.split()[1].split(",") if verb == "keep" else []
                kept = ", ".join(f"{card_name(c, lang)} ({PRICES[c]})" for c in cards if c in PRICES)
                lines.append(t("cli.fb.kept", lang, name=name, cards=kept or t("cli.fb.no_cards", lang)))
        elif e.kind in ("attack", "card"):
            cells = " → ".join(c for c in (d.get("from"), d.get("to")) if c)
            if e.kind == "attack":  # the prey on the target cell is the one eliminated
                lines.append(t("cli.fb.attack", lang, name=name, cells=cells))
                continue
            line = t("cli.fb.card", lang, name=name, cells=cells, card=card_name(d["card"], lang))
            if d.get("removed"):
                line += " " + t("cli.fb.removed", lang, count=len(d["removed"]), cells=", ".join(d["removed"]))
            lines.append(line)
        elif e.kind in ("pass", "resign"):
            lines.append(t(f"cli.{e.kind}", lang, name=name))
        elif e.kind == "timeout":  # a missed turn, never said as a pass
            lines.append(t("cli.fb.timed_out_draft" if "kept" in d else "cli.timeout", lang, name=name))
        elif e.kind == "draft_done":
            lines.append(t("cli.fb.draft_done", lang, name=table.seats[d["first"]].name))
    return lines


def feature_name(kind: str, lang: str) -> str:
    return t(f"fp.sheet.feature.{kind}", lang)


def fp_words(action: str, lang: str) -> str:
    from render.floor_plan import action_words

    # A round's text may end in the engine's "timeout" (logged alone, after the claims sent that round).
    return "; ".join(t("cli.fp.timed_out", lang) if part == "timeout" else action_words(part, lang)
                     for part in action.split("; "))


def fp_caption(table: Table, result: ActResult, lang: str, hidden: dict[int, str]) -> list[Line]:
    """A seat's drawing stays private until its round closes; then every drawing of the round is shown."""
    name = seat_names(table.seats)[result.seat]
    lines: list[Line] = []
    for e in result.events:
        if e.kind in ("acted", "claims"):
            hidden[result.seat] = " · ".join(x for x in (hidden.get(result.seat), fp_words(
                result.action, lang)) if x)
            lines.append(Hidden("cli.fp.acted", name))
        elif e.kind == "timeout":
            hidden[result.seat] = " · ".join(x for x in (hidden.get(result.seat), t("cli.fp.timed_out", lang)) if x)
            lines.append(t("cli.timeout", lang, name=name))
        elif e.kind == "resign":
            lines.append(t("cli.resign", lang, name=name))
        elif e.kind == "round_closed":
            lines.append(t("cli.fp.round_closed", lang, round=e.data["round"]))
            lines += [f"  {seat_names(table.seats)[seat]}: {text}" for seat, text in sorted(hidden.items())]
            hidden.clear()
        elif e.kind == "round":
            lines.append(t("cli.fp.round", lang, round=e.data["round"], roll=fp_roll_text(e.data["roll"], lang)))
        elif e.kind == "ending":
            lines.append(t("cli.fp.ending", lang))
    return lines


def tf_side(table: Table, side: int) -> str:
    state = table.state
    seats = [i for i in range(len(table.seats)) if state.seat_side[i] == side]
    return ", ".join(seat_names(table.seats)[i] for i in seats) or "?"


def tf_cat(table: Table, cid: str) -> str:
    return f"«{table.rules.category_name(table.state, cid)}»"


def tf_event(table: Table, result: ActResult, e: Event, lang: str) -> Line:
    d, k, name = e.data, e.kind, seat_names(table.seats)[result.seat]
    side = (lambda x: tf_side(table, x))  # noqa: E731 - a short alias keeps the table below readable
    if k in ("picked", "vote"):  # a draft pick and a judge's vote are secret
        return Hidden(f"cli.tf.{k}", name)
    simple = {"ready": ("cli.tf.ready", {"side": side(e.seat)}),
              "pass": ("cli.tf.pass", {"name": name, "letter": d.get("letter", "?")}),
              "absent": ("cli.tf.absent", {"side": side(e.seat)}),
              "eliminated": ("cli.tf.eliminated", {"side": side(e.seat)}),
              "resign": ("cli.resign", {"name": name})}
    if k in simple:
        key, params = simple[k]
        return t(key, lang, **params)
    if k == "draft_done":
        return t("cli.tf.draft_done", lang, side=side(d["first"]))
    if k == "challenge":
        return t("cli.tf.challenge", lang, name=name, defender=side(d["defender"]), frm=d["from"], to=d["to"],
                 category=tf_cat(table, d["category"]))
    if k == "duel_start":
        return t("cli.tf.duel_start", lang, side=side(e.seat), letter=d["letter"])
    if k == "answer":
        return t("cli.tf.answer", lang, name=name, answer=d["answer"], letter=d["letter"])
    if k == "judging":
        return t("cli.tf.judging", lang, name=name, answer=d["answer"])
    if k == "judged":
        return t("cli.tf.judged_yes" if d["accepted"] else "cli.tf.judged_no", lang, side=side(e.seat))
    if k == "dispute":
        return t("cli.tf.dispute", lang, side=side(e.seat), answer=d["answer"])
    if k == "duel_over":
        timed_out = 0 in d.get("clocks_ms", [])  # the loser's clock ran out (an answer came too late)
        return t("cli.tf.duel_over_time" if timed_out else "cli.tf.duel_over", lang, winner=side(e.seat),
                 loser=side(d["loser"]), category=tf_cat(table, d["category"]))
    if k == "take":
        return t("cli.tf.take", lang, side=side(e.seat), loser=side(d["loser"]), count=len(d["cells"]),
                 cells=", ".join(d["cells"]))
    if k == "keep":
        return t("cli.tf.keep", lang, side=side(e.seat), category=tf_cat(table, d["category"]))
    if k == "final":
        if e.seat is not None:  # a round winner's card for the Final stays face down
            return t("cli.tf.final_card", lang, side=side(e.seat))
        return t("cli.tf.final", lang, ladder=" → ".join(side(x) for x in reversed(d["ranking"])))
    if k == "round_over":
        return t("cli.tf.round_over", lang, round=d["round"], side=side(e.seat))
    if k == "round_start":
        return t("cli.tf.round_start", lang, round=d["round"])
    if k == "final_pick":
        return t("cli.tf.final_pick", lang, side=side(e.seat), category=tf_cat(table, d["category"]))
    if k == "final_duel":
        return t("cli.tf.final_duel", lang, holder=side(e.seat), defender=side(d["defender"]),
                 category=tf_cat(table, d["category"]))
    return ""


def tf_caption(table: Table, result: ActResult, lang: str) -> list[Line]:
    return [x for x in (tf_event(table, result, e, lang) for e in result.events) if x]


# --- help and legal moves: the game's notation, with examples legal right now ------------------------------


FB_FORMS = {"attack": "attack <from> <to>", "vanish": "vanish <from> <to>", "shuriken": "shuriken <from> <to>",
            "double": "double <from> <to>", "triple": "triple <from> <to>", "dragon": "dragon <cell> from <from>",
            "circle": "circle <cell>", "bomb": "bomb <from> <to>", "pass": "pass", "keep": "keep <card>,<card>…"}
FP_FORMS = {"start": "start <cell> 6x<die>", "room": "room <cell> <w>x<h> <type>@<cell>",
            "features": "features <die>:<cells> <die>:<cells>", "doors": "doors <cell>,<cell>",
            "claim": "claim <demand>", "skip": "skip"}
FW_FORMS = {"move": "move x,y", "land": "land x,y", "village": "village", "takeover": "takeover body|mind|spirit",
            "attack": "attack <demon>|<player> <stat>", "harvest": "harvest", "buy": "buy <card>",
            "keep": "keep none", "heal": "heal", "trade": "trade <item> to <player>", "seal": "seal", "end": "end",
            "boost": "<roll> boost", "resolve": "resolve <demon>@x,y | resolve all", "flee": "flee x,y",
            "spawn": "spawn x,y"}
FF_FORMS = {"take": "take <jutsu> pool | <space> | under <space>",
            "place": "place <jutsu> <space> [ne] [nudge sw] [+ place … | + move …]",
            "board": "board <space> [back] [r90]", "move": "move <space> [nudge sw]", "claim": "claim",
            "end": "end [keep ws wt]",
            "reset": "reset", "stand": "stand <player> <space>", "chakra": "chakra <space>", "use": "use <bansen>",
            "hide": "hide <bansen> <space>"}
TF_FORMS = {"pick": "pick <category>", "challenge": "challenge <your cell> <their cell>", "ready": "ready",
            "answer": "<answer>", "pass": "pass", "dispute": "dispute", "judge": "judge accept|reject",
            "take": "take <cell>,<cell>", "keep": "keep <category>"}


def fw_caption(table: Table, result: ActResult, lang: str) -> list[Line]:
    """Floating World: each action in words with its dice, and a Nightmare's summary, step by step."""
    from render import floating_world_words as fw

    names = seat_names(table.seats)
    lines: list[Line] = list(fw.action_lines(result.events, result.seat, names, lang))
    for e in result.events:
        if e.kind == "nightmare":
            summary = fw.nightmare_lines(e.data, names, lang, limit=1 << 20)
            lines += [line.replace("**", "") for line in summary]
            lines += fw_decision_lines(e.data.get("pending"), names, lang)
    lines += fw.turn_lines(result.events, names, lang)
    return lines or [t("cli.moved", lang, name=seat_names(table.seats)[result.seat], action=result.action)]


def fw_decision_lines(pending: dict[str, Any] | None, names: list[str], lang: str) -> list[Line]:
    """The Nightmare's paused decision (issue 23): who decides what, and every choice to type."""
    if not pending:
        return []
    from render import floating_world_words as fw

    what = t(f"fwui.decide.{pending['decision']}", lang, name=names[pending.get("fleeing", 0)],
             demon=fw.demon(pending.get("type", "oni"), lang))
    return [t("fwui.turn_decide", lang, who=names[pending["seat"]], what=what),
            t("fwui.decide.choices", lang, choices=", ".join(pending["choices"]))]


def ff_caption(table: Table, result: ActResult, lang: str) -> list[Line]:
    """Floating Floors: each event in words, every balance check with its margin."""
    from render import floating_floors_words as ff

    lines: list[Line] = list(ff.action_lines(result.events, seat_names(table.seats), lang))
    return lines or [t("cli.moved", lang, name=seat_names(table.seats)[result.seat], action=result.action)]


def ff_whatif(table: Table, seat: int, action: str, lang: str) -> str:
    """Floating Floors: ``? <move>`` says whether each touched board would stand (a combination ``a + b`` as one
    board), with the rules' own preview (steady hands; nothing is played)."""
    from render import floating_floors_words as ff
    from rules.floating_floors.game import preview

    try:
        return ff.preview_text(preview(table.state, seat, " ".join(action.lower().split())), lang)
    except FloorboardError as e:
        return t(terminal_words(e.msg), lang)


def spread(items: list[str], count: int = EXAMPLES) -> list[str]:
    """A few items from across a sorted list (not just its first, alphabetically similar ones)."""
    if len(items) <= count:
        return list(items)
    step = (len(items) - 1) / (count - 1) if count > 1 else 0
    return list(dict.fromkeys(items[round(i * step)] for i in range(count)))


def fb_hand_text(hand: list[str], lang: str) -> str:
    from render.flying_blades import card_name
    from rules.flying_blades.cards import CARD_IDS, PRICES

    counts = Counter(hand)
    parts = [f"{card_name(c, lang)} ({PRICES[c]})" + (f" ×{counts[c]}" if counts[c] > 1 else "")
             for c in CARD_IDS if counts[c]]
    return ", ".join(parts) or t("cli.fb.no_cards", lang)


def fb_prices(lang: str) -> str:
    from render.flying_blades import card_name
    from rules.flying_blades.cards import CARD_IDS, PRICES

    return ", ".join(f"{card_name(c, lang)} ({c}) {PRICES[c]}" for c in CARD_IDS)


def fb_keep_examples(table: Table, seat: int, legal: list[str]) -> list[str]:
    """The bot's own choice, the dearest keep and keeping nothing: all in the rules' list of legal keeps."""
    from rules.flying_blades.draft import price

    bot = table.rules.bot_action(table.state, seat)
    dearest = max(legal, key=lambda k: (price(k.split()[1].split(",")) if k != "keep none" else 0, k))
    return [k for k in dict.fromkeys([bot, dearest, "keep none"]) if k in legal]


def fb_legal(table: Table, seat: int, lang: str) -> list[str]:
    from rules.flying_blades.cards import PRICE_LIMIT

    state, legal = table.state, table.rules.legal_actions(table.state, seat) or []
    hand = list(state.hands[seat])
    if state.phase == "draft":
        return [t("cli.fb.hand", lang, cards=fb_hand_text(hand, lang)),
                t("cli.fb.budget", lang, limit=PRICE_LIMIT, count=len(legal)),
                examples_text(fb_keep_examples(table, seat, legal), lang)]
    lines = [t("cli.fb.hand", lang, cards=fb_hand_text(hand, lang))] if hand else []
    return lines + grouped(legal, lang)


def examples_text(moves: list[str], lang: str) -> str:
    """One example a line: a Floor Plan move may itself hold ``;``."""
    return "\n".join([t("cli.examples", lang), *(f"  {m}" for m in moves)])


def grouped(legal: list[str], lang: str) -> list[str]:
    """Every legal move when they are few; else a count and a few examples per verb."""
    if len(legal) <= LIST_ALL:
        return [", ".join(legal)]
    verbs: dict[str, list[str]] = {}
    for action in legal:
        verbs.setdefault(action.split()[0], []).append(action)
    lines = [t("cli.legal_count", lang, count=len(legal))]
    lines += [f"  {verb} ({len(acts)}): {'; '.join(spread(acts))}" for verb, acts in verbs.items()]
    return lines


def fp_roll_text(roll: list[int] | tuple[int, ...] | None, lang: str) -> str:
    """Each die with what it allows: ``3 (Bedroom, or 3 × window)``."""
    from render.floor_plan import room_name
    from rules.floor_plan.sheet import FEATURE_KINDS, ROOM_TYPES

    if not roll:
        return "—"
    return ", ".join(t("cli.fp.die", lang, die=d, room=room_name(ROOM_TYPES[d - 1], lang), count=d,
                       kind=feature_name(FEATURE_KINDS[d - 1], lang)) for d in roll)


def fp_dice_table(lang: str) -> list[str]:
    from render.floor_plan import room_name
    from rules.floor_plan.sheet import FEATURE_KINDS, ROOM_TYPES

    return [t("cli.fp.table_title", lang)] + [
        f"  {d}  {ROOM_TYPES[d - 1]} {room_name(ROOM_TYPES[d - 1], lang):<12} {d} × "
        f"{feature_name(FEATURE_KINDS[d - 1], lang)}" for d in range(1, 7)]


def fp_candidates(table: Table, seat: int) -> list[str]:
    """Moves to offer as examples: the bot's choice, a few of the rooms and features it considers, a claim."""
    from rules import rng
    from rules.floor_plan import bot
    from rules.floor_plan import notation as nt

    state, rules = table.state, table.rules
    out = [rules.bot_action(state, seat)]
    if state.phase == "setup":
        return out + spread(fp_starts(state.roll[1]), EXAMPLES + 2)
    board = state.board(seat, private=True)
    r = rng.stream(state.seed, 7_000_000 + state.round)  # not the bot's stream: other candidates than its pick
    out += [nt.text((nt.Step("room", rooms=(rd,)),)) for rd, _ in bot._rooms(r, state, board.sheet, state.roll)]
    feats = bot._features(r, board.sheet, state.roll)
    if feats is not None:
        out.append(nt.text((feats,)))
    out += [f"claim {d}" for d in rules.claimable(state, seat)[:1]]
    return [*out, "skip"]


def fp_starts(die: int) -> list[str]:
    """Every living room of 6×die (either way round) over the centre cell, as the setup asks."""
    from rules.floor_plan.sheet import cell_name, start_spots

    return [f"start {cell_name((x, y))} {w}x{h}" for x, y, w, h in start_spots(die)]


def fp_examples(table: Table, seat: int) -> list[str]:
    """Candidates the rules accept in this very position (each checked by ``apply`` on the state)."""
    legal = []
    for action in dict.fromkeys(fp_candidates(table, seat)):
        try:
            table.rules.apply(table.state, seat, action)
        except FloorboardError:
            continue
        legal.append(action)
    by_verb: dict[str, str] = {}
    for action in legal:
        by_verb.setdefault(action.split()[0], action)
    chosen = list(dict.fromkeys([*legal[:1], *by_verb.values(), *legal]))[:max(EXAMPLES, len(by_verb))]
    return sorted(chosen, key=legal.index)


def fp_legal(table: Table, seat: int, lang: str) -> list[str]:
    state = table.state
    lines = [t("cli.fp.roll", lang, roll=fp_roll_text(state.roll, lang))]
    if state.phase == "setup":
        lines.append(t("cli.fp.setup", lang, die=state.roll[1]))
    else:
        board = state.board(seat, private=True)
        bonuses = [t(f"render.floor_plan.bonus.{b}", lang) for b in ("double_room", "double_feature", "two_doors")
                   if board.open_bonus(b) is not None]
        lines.append(t("cli.fp.bonuses", lang, bonuses=", ".join(bonuses) or "—",
                       wild=t("render.floor_plan.wild_used" if board.wild_used else "render.floor_plan.wild_ready",
                              lang)))
        claimable = table.rules.claimable(state, seat)
        if claimable:
            from render.floor_plan import demand_text

            demands = ", ".join(f"{d} ({demand_text(d, lang)})" for d in claimable)
            lines.append(t("cli.fp.claimable", lang, demands=demands))
    found = fp_suggestions(table, seat)
    if found:  # the same suggestions as Discord's "Suggest a move" buttons
        lines.append(t("cli.fp.suggested", lang))
        lines += [t("cli.fp.suggestion_points" if s.points else "cli.fp.suggestion", lang, n=n, action=s.text,
                    points=s.points) for n, s in enumerate(found, start=1)]
    lines.append(t("cli.fp.too_many", lang))
    lines.append(examples_text(fp_examples(table, seat), lang))
    return lines


def fp_suggestions(table: Table, seat: int) -> list[Any]:
    """The planner's best few moves for the seat (none when it is not to act)."""
    from rules.floor_plan import planner

    if table.status != "active" or seat not in table.to_move():
        return []
    return planner.suggest(table.rules, table.state, seat, SUGGESTIONS)


def suggestion_numbered(table: Table, seat: int, text: str) -> str:
    """A Floor Plan player may type the number of a suggestion `legal` listed (``2``) to play it."""
    if table.game != "floor_plan" or not text.isdigit():
        return text
    found = fp_suggestions(table, seat)
    n = int(text)
    return found[n - 1].text if 1 <= n <= len(found) else text


def terminal_words(msg: Msg) -> Msg:
    """A rules message in the terminal's own words where the rules' names a Discord button ("press Challenge") or
    shows internal notation ("Usage: pass <elapsed ms>"): the catalog's ``terminal.<key>.<verb>`` (a message about
    one verb) or ``terminal.<key>``, with the same parameters, if there is one."""
    for key in (f"terminal.{msg.key}.{msg.params.get('verb')}", f"terminal.{msg.key}"):
        if key in catalog("en"):
            return Msg(key, **msg.params)
    return msg


def tf_legal(table: Table, seat: int, lang: str) -> list[str]:
    state, legal = table.state, table.rules.legal_actions(table.state, seat)
    if legal and legal[0].split()[0] in ("pick", "keep"):  # category ids, with the names players know
        return [f"  {a} — {tf_cat(table, a.split()[1])}" for a in legal]
    if legal:
        return grouped(legal, lang)
    d = state.duel
    if state.pending and state.pending[0].kind == "take":
        p = state.pending[0]
        from rules.the_floor import board as bd

        cells = [bd.name(c) for c in p.cells]
        return [t("cli.tf.take_legal", lang, count=p.count, cells=", ".join(cells)),
                examples_text([table.rules.bot_action(state, seat)], lang)]
    if d is not None and d.started:
        return [t("cli.tf.answer_legal", lang, letter=d.letter, category=tf_cat(table, d.category))]
    return [t("cli.no_moves", lang)]


def move_verbs(game: str) -> list[str]:
    """The verbs a player types in ``game`` (from the help's forms; an answer or a boost is no verb of its own)."""
    forms = {"flying_blades": FB_FORMS, "floor_plan": FP_FORMS, "the_floor": TF_FORMS, "floating_world": FW_FORMS,
             "floating_floors": FF_FORMS}.get(game, {})
    return [v for v in forms if v not in ("answer", "boost")] + ["resign"]


def words_module(game: str) -> Any:
    """The game's words in players' languages (``rules/<game>/words.py``), or None for a game that has none."""
    name = f"rules.{game}.words"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name != name:
            raise
        return None


def typed_text(game: str, text: str) -> str:
    """A typed move read as Discord reads typed moves and ``/move``: ``pas`` is ``pass`` in every game, whatever
    its language, and the log keeps the English notation. The game's own ``canonical_text`` (the cog calls the same
    function); a game whose notation reads its own aliases (Floating World) gets its words lowercased, as its cog
    does. (The Floor reads a duel's answers first: `TheFloor.typed_action`.)"""
    words = words_module(game)
    return words.canonical_text(text) if words is not None else " ".join(text.lower().split())


def typed_aliases(game: str) -> dict[str, str]:
    """The other languages' spellings of the game's verbs (``atak`` → ``attack``), for "did you mean"."""
    words = words_module(game)
    table = getattr(words, "VERB_ALIAS", None)
    if table is None:  # a game whose notation module keeps its aliases (Floating World)
        table = getattr(importlib.import_module(f"rules.{game}.notation"), "ALIASES", {})
    verbs = set(move_verbs(game))
    return {alias: verb for alias, verb in table.items() if verb in verbs}


def typo_hint(table: Table, seat: int, text: str, lang: str) -> str | None:
    """For a refused move whose first word is no verb (``atack d3 e3``, ``atakk d3 e3``): "did you mean
    `attack`?" and moves legal now, by the hint mechanism of Discord's typed moves (`hints`), which knows the
    verbs in every language; None otherwise (the rules' error says why)."""
    import hints

    verbs, aliases = move_verbs(table.game), typed_aliases(table.game)
    words = text.split()
    guess = hints.closest(words[0], verbs, aliases) if words else None
    examples = examples_for(table, seat)
    shown = [examples[v] for v in dict.fromkeys([guess or "", *examples]) if v in examples]
    msg = hints.unknown_verb_msg(text, verbs, aliases=aliases, examples=shown)
    return None if msg is None else hints.render(msg, lang)


QUIET = {  # moves after which the bot posts no new image (nothing on the board changed)
    "flying_blades": {"drafted", "resign", "timeout"},
    "the_floor": {"picked", "ready", "duel_start", "answer", "judging", "judged", "pass", "dispute", "vote", "absent",
                  "duel_over", "turn"},
}


def quiet(result: ActResult) -> bool:
    kinds = {e.kind for e in result.events}
    return bool(kinds) and kinds <= QUIET.get(result.table.game, set())


def legal_lines(table: Table, seat: int, lang: str) -> list[str]:
    return {"flying_blades": fb_legal, "floor_plan": fp_legal, "the_floor": tf_legal}.get(
        table.game, lambda *_: grouped(table.rules.legal_actions(table.state, seat) or [], lang))(table, seat, lang)


def examples_for(table: Table, seat: int) -> dict[str, str]:
    """One legal example per verb, from the rules' own list (or the checked Floor Plan candidates)."""
    if table.game == "floor_plan":
        actions = fp_examples(table, seat)
    else:
        # a game may name the legal moves worth suggesting (Floating World: never an attack on a partner)
        actions = getattr(table.rules, "examples", table.rules.legal_actions)(table.state, seat) or []
    out: dict[str, str] = {}
    for action in actions:  # a rare verb (one bomb among a thousand vanishes) gets its example too
        out.setdefault(action.split()[0], action)
    if table.game == "flying_blades" and table.state.phase == "draft" and actions:
        out["keep"] = fb_keep_examples(table, seat, actions)[0]
    return out


def help_lines(table: Table, seat: int, lang: str) -> list[str]:
    forms = {"flying_blades": FB_FORMS, "floor_plan": FP_FORMS, "the_floor": TF_FORMS,
             "floating_world": FW_FORMS, "floating_floors": FF_FORMS}.get(table.game, {})
    examples = examples_for(table, seat)
    lines = [t("cli.help.title", lang, game=table.rules.name)]
    for verb, form in forms.items():
        line = f"  {form:<38} {t(f'cli.help.{table.game}.{verb}', lang)}"
        if verb in examples:
            line += " " + t("cli.help.now", lang, move=examples[verb])
        lines.append(line)
    if table.game == "flying_blades":
        from rules.flying_blades.cards import PRICE_LIMIT

        lines.append(t("cli.fb.prices", lang, prices=fb_prices(lang), limit=PRICE_LIMIT))
    if table.game == "floor_plan":
        lines += fp_dice_table(lang)
        lines.append(t("cli.fp.help_join", lang))
    lines.append(t("cli.help.commands", lang))
    return lines


# --- the game loop --------------------------------------------------------------------------------------


class TerminalGame:
    def __init__(self, engine: Engine, settings: Settings, read: Read) -> None:
        self.engine = engine
        self.settings = settings
        self.read = read
        self.lang = settings.lang
        self.renderer = importlib.import_module(f"render.{settings.game}")
        # A game whose renderer has no text board keeps it with its words (Floating World).
        self.text_board = getattr(self.renderer, "text_board", None) or importlib.import_module(
            f"render.{settings.game}_words").text_board
        self.images = 0
        self.hidden: dict[int, str] = {}  # Floor Plan: this round's drawings, shown when it closes

    def say(self, key: str | Msg, **params: Any) -> None:
        print(t(key, self.lang, **params))

    async def saved(self) -> Table | None:
        """The running game this command names (its save, or the latest one the same command started)."""
        s = self.settings
        if s.save is not None:
            table = await self.engine.table_in_channel(save_channel(s.save))
            if table is not None and table.status == "lobby":  # a set-up cut short: nothing was played
                await self.engine.abort(table.id, table.host_id, is_admin=True)
                return None
            if table is not None and table.game != s.game:
                raise click.UsageError(t("cli.err.save_other_game", self.lang, save=s.save, game=table.rules.name))
            if table is not None and s.new:
                raise click.UsageError(t("cli.err.save_taken", self.lang, save=s.save))
            return table
        if s.new:
            return None
        tables = [x for x in await self.engine.running_tables(s.game) if same_command(x, s)]
        if not tables:  # this command's own save is damaged: say so (how to drop it), never start another silently
            for shell in await damaged_saves(self.engine):
                if shell.game == s.game and same_command(shell, s):
                    raise DamagedGameError(shell.id)
        return max(tables, key=lambda x: x.updated_at, default=None)

    async def setup(self) -> Table:
        existing = await self.saved()
        if existing is not None:
            self.say("cli.resumed", game=existing.rules.name, table=existing.id, count=existing.moves,
                     save=save_name(existing))
            return existing
        others = await self.engine.running_tables(self.settings.game)
        name = self.settings.save or await free_name(self.engine, self.settings.game)
        table = await self.open(name)
        humans = self.settings.players - self.settings.bots
        self.say("cli.started" if humans else "cli.started_bots", table=table.id, game=table.rules.name, save=name)
        if others:
            self.say("cli.kept", count=len(others))
        return table

    def player(self, n: int) -> str:
        return t("cli.player", self.lang, n=n)

    async def open(self, name: str) -> Table:
        s = self.settings
        humans = s.players - s.bots
        # With no human at the table the first bot hosts it (host id 0, as for any bot-hosted table).
        host = SeatInfo(HUMAN_BASE_ID, self.player(1)) if humans else SeatInfo(None, "Bot 1", bot=True)
        host_id = HUMAN_BASE_ID if humans else 0
        table = await self.engine.open_lobby(s.game, guild_id=None, channel_id=save_channel(name), host=host,
                                             options=s.options, seed=s.seed)
        await self.engine.set_meta(table.id, **{SAVE_META: {"save": name, "shape": s.shape()}})
        for i in range(1, humans):
            await self.engine.join(table.id, SeatInfo(HUMAN_BASE_ID + i, self.player(i + 1)))
        for _ in range(s.bots - (0 if humans else 1)):
            await self.engine.add_bot(table.id, host_id)
        return await self.engine.start(table.id, host_id)  # the seed is secret until the end

    def show(self, table: Table, seat: int | None) -> None:
        """Print the board as ``seat`` sees it (hot seat: the player about to type)."""
        print(self.text_board(self.engine.view(table, seat), names=seat_names(table.seats), locale=self.lang))

    def show_final(self, table: Table) -> None:
        """The board at the end. Floor Plan's public board has no blueprint (each player draws their own): it is
        shown with the final sheet of each human, or of the winners when only bots played."""
        if table.game != "floor_plan" or table.state is None:
            self.show(table, None)
            return
        view = self.engine.view(table, None)
        for seat in final_sheet_seats(table):
            sheet = table.rules.sheet_view(table.state, seat)
            print(self.text_board({**view, "sheet": sheet}, names=seat_names(table.seats), locale=self.lang))

    def write_png(self, table: Table, label: str, png: bytes) -> None:
        self.settings.out.mkdir(parents=True, exist_ok=True)
        (self.settings.out / f"{table.game}-{table.id}-{label}.png").write_bytes(png)
        self.images += 1

    def save_images(self, table: Table, events: list[Event] | None = None) -> None:
        """What the bot would post: the public board after a move; Floor Plan's summary and sheets per round."""
        if not self.settings.images:
            return
        if table.game == "floor_plan":
            self.floor_plan_images(table, events or [])
            return
        if table.game == "floating_world":
            self.floating_world_images(table, events or [])
            return
        draw = getattr(self.renderer, "render", None)
        if draw is not None:
            names = seat_names(table.seats)
            png = draw(self.engine.view(table, None), names=names, locale=self.lang)
            self.write_png(table, f"{table.moves:04d}", png)

    def floating_world_images(self, table: Table, events: list[Event]) -> None:
        """The map after every move; after a Nightmare, its image too (as the bot posts them)."""
        from render.floating_world_words import card_names

        view = self.engine.view(table, None)
        if any(e.kind == "nightmare" for e in events):
            self.write_png(table, f"{table.moves:04d}-nightmare", self.renderer.nightmare_image(
                view, names=seat_names(table.seats), locale=self.lang))
        self.write_png(table, f"{table.moves:04d}", self.renderer.map_image(
            view, names=seat_names(table.seats), locale=self.lang, card_names=card_names(self.lang)))

    def floor_plan_images(self, table: Table, events: list[Event]) -> None:
        closed = next((e for e in events if e.kind == "round_closed"), None)
        if closed is None:
            return
        state, rules = table.state, table.rules
        view = rules.view(state, None)
        view = {**view, "round": closed.data["round"], "roll": closed.data.get("roll") or view["roll"],
                "to_move": []}  # as the bot's summary: the round just closed, nobody waits in it
        seats = range(state.players) if state.players <= 6 else []  # past 6 the summary is a leaderboard
        sheets = [rules.sheet_view(state, i) for i in seats]
        label = f"round{closed.data['round']:02d}"
        self.write_png(table, label, self.renderer.render_summary(view, sheets or None, names=seat_names(table.seats),
                                                                  locale=self.lang))
        for seat in seats:
            self.write_png(table, f"{label}-sheet{seat + 1}", self.renderer.render_sheet(
                sheets[seat], name=seat_names(table.seats)[seat], locale=self.lang))

    def caption(self, result: ActResult) -> list[Line]:
        table = result.table
        if table.game == "flying_blades":
            return fb_caption(table, result, self.lang)
        if table.game == "floor_plan":
            return fp_caption(table, result, self.lang, self.hidden)
        if table.game == "the_floor":
            return tf_caption(table, result, self.lang)
        if table.game == "floating_world":
            return fw_caption(table, result, self.lang)
        if table.game == "floating_floors":
            return ff_caption(table, result, self.lang)
        return [t("cli.moved", self.lang, name=seat_names(table.seats)[result.seat], action=result.action)]

    def announce(self, results: list[ActResult]) -> None:
        """Captions of the moves, consecutive hidden choices of a kind in one line, and the images."""
        group: list[Hidden] = []
        for result in results:
            for line in self.caption(result):
                if isinstance(line, Hidden) and (not group or group[0].key == line.key):
                    group.append(line)
                    continue
                self.say_hidden(group)
                group = [line] if isinstance(line, Hidden) else []
                if isinstance(line, str):
                    print(line)
            if not quiet(result):
                self.save_images(result.table, result.events)
        self.say_hidden(group)

    def say_hidden(self, group: list[Hidden]) -> None:
        if group:
            names = list(dict.fromkeys(h.name for h in group))
            self.say(group[0].key, names=", ".join(names), count=len(names))

    async def run(self) -> int:
        table = await self.setup()
        if table.game == "floor_plan":  # a resumed round's drawings so far, to show when it closes
            self.hidden = {i: fp_words(a, self.lang) for i, a in enumerate(table.state.actions) if a}
        if table.moves == 0:
            self.save_images(table)
        if not table.humans_to_move():  # else the prompt shows the board: the opening state is printed once
            self.show(table, None)
        while table.status == "active":
            self.announce(await self.engine.play_bots(table.id))
            table = await self.engine.get(table.id)
            if table.status != "active":
                break
            humans = table.humans_to_move()
            if not humans:
                continue
            self.show(table, humans[0])
            if not await self.prompt(table, humans[0]):
                # After --new the same command would start yet another game: name the save instead.
                self.say("cli.saved_new" if self.settings.new else "cli.saved", db=str(self.engine.store.path),
                         save=save_name(table), prog=PROG, game=table.game)
                return 0
            table = await self.engine.get(table.id)
        self.show_final(table)
        self.finish(table)
        record = self.settings.out / f"{table.game}-{table.id}.txt"
        self.settings.out.mkdir(parents=True, exist_ok=True)
        record.write_text(await self.engine.record(table.id), encoding="utf-8")
        self.say("cli.record", path=str(record), count=self.images)
        self.say("cli.seed", seed=table.seed)
        return 0

    def first_prompt_lines(self, table: Table, seat: int) -> None:
        """Night of the 27 Ninja's card choice: the hand with prices and the budget, before the first keep."""
        if table.game == "flying_blades" and table.state.phase == "draft":
            for line in fb_legal(table, seat, self.lang):
                print(line)

    async def prompt(self, table: Table, seat: int) -> bool:
        """One human move; returns False when the player quits (the game stays saved)."""
        shown = time.monotonic()  # a game with clocks (The Floor's duels) is charged from the prompt
        self.first_prompt_lines(table, seat)
        while True:
            try:
                text = self.read(t("cli.prompt", self.lang, name=seat_names(table.seats)[seat])).strip()
            except EOFError:  # the keyboard closed: end the prompt's line
                print()
                return False
            if text in ("quit", "exit"):
                return False
            if text in ("help", "?"):
                print("\n".join(help_lines(table, seat, self.lang)))
                continue
            if text == "legal":
                print("\n".join(legal_lines(table, seat, self.lang)))
                continue
            if not text:
                continue
            if table.game == "floating_floors" and text.lower().startswith(("? ", "whatif ")):
                print(ff_whatif(table, seat, text.split(None, 1)[1], self.lang))
                continue
            typed = suggestion_numbered(table, seat, text)
            read_duel = getattr(table.rules, "typed_action", None)  # The Floor: a duel's answers, then its turns
            if read_duel is not None:
                action = read_duel(table.state, typed, int((time.monotonic() - shown) * 1000))
            else:
                action = typed_text(table.game, typed)  # Discord's reading: `pas` is `pass`
            try:
                result = await self.engine.act(table.id, table.seats[seat].user_id or 0, action)
            except FloorboardError as e:
                said = action if read_duel is not None else typed  # a duel's answer is never a typo of a verb
                print(typo_hint(table, seat, said, self.lang) or t(terminal_words(e.msg), self.lang))
                continue
            self.announce([result])
            return True

    def finish(self, table: Table) -> None:
        if table.outcome is None:
            self.say("cli.aborted")
            return
        names = seat_names(table.seats)
        winners = ", ".join(names[w] for w in table.outcome.winners)
        self.say("cli.result", winners=winners or "—", count=max(len(table.outcome.winners), 1))
        if table.game == "floating_world" and table.outcome.reason:  # co-op: how the world ended
            self.say(table.outcome.reason)
        for place, group in enumerate(table.outcome.ranking, start=1):
            for seat in group:
                self.say("cli.rank", place=place, name=names[seat], score=f"{table.outcome.scores[seat]:g}")


def final_sheet_seats(table: Table) -> list[int]:
    """Whose final Floor Plan sheet the terminal shows: every human's (hot seat), else the winners'."""
    humans = [i for i, seat in enumerate(table.seats) if not seat.bot]
    winners = list(table.outcome.winners) if table.outcome is not None else [0]
    return (humans or winners)[:FINAL_SHEETS]


async def run(settings: Settings, read: Read = input) -> int:
    try:
        store = await open_store(settings.db)
    except StorageOpenError as e:
        print(t("cli.err.db", settings.lang, path=e.path, reason=e.reason), file=sys.stderr)
        return EXIT_STORAGE
    engine, told = Engine(store), set[int]()
    engine.add_listener(damaged_notice(settings, told))
    try:
        return await TerminalGame(engine, settings, read).run()
    except DamagedGameError as e:  # the save this command resumes: the notice above said it once; then one line
        if e.table_id not in told:
            shell = await engine.damaged_shell(e.table_id)
            save = settings.save or (save_name(shell) if shell is not None else f"#{e.table_id}")
            print(t("cli.damaged_save", settings.lang, save=save, command=drop_command(save, settings.db)),
                  file=sys.stderr)
        return EXIT_ERROR
    except FloorboardError as e:  # never a traceback
        print(t(e.msg, settings.lang), file=sys.stderr)
        return EXIT_ERROR
    finally:
        await store.close()


if __name__ == "__main__":
    sys.exit(main())
