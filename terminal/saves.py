"""Saved terminal games: each save is its own engine "channel" in one database; list, resume and drop them."""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

from engine import DamagedGameError, Engine, Notice, Table
from engine.services import StorageOpenError, open_store
from i18n import t
from i18n.text import seat_names
from rules import GAMES
from terminal.settings import EXIT_ERROR, EXIT_STORAGE, LEGACY_CHANNEL, PROG, SAVE_META, Settings


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
