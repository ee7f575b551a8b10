"""The real bot as a subprocess, and a player's hands on it: open a flying_blades table through the Discord
double, make moves by every door (typed, ``!move``, ``/move``, the Pass button), wait until each is answered.

Moves are chosen from the game as the bot stored it: the SQLite file is read through a read-only connection
(the bot keeps it in WAL mode and may be writing), a PostgreSQL database through `PgReader`, and
``rules.GAMES["flying_blades"]`` gives the legal move.
Every wait is bounded; a timeout or a dead bot fails the test with the tail of the bot's log.
"""

from __future__ import annotations

import asyncio
import ctypes
import io
import json
import os
import re
import signal
import sqlite3
import sys
import threading
from collections.abc import Awaitable, Callable, Coroutine
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pytest
from PIL import Image

from rules import GAMES
from tests.e2e.discord_double import DiscordDouble, Interaction, Message, Sent

T = TypeVar("T")
ROOT = Path(__file__).resolve().parents[2]
GAME = "flying_blades"
RULES = GAMES[GAME]
WAIT = 20.0  # seconds any single wait may take before the test fails
# A start may take longer: the render pool's forkserver imports every renderer before the first worker forks, and
# setup waits for it (7-10 s of a start on a 2-core machine under load; starts failed at 20 s).
START_WAIT = 60.0
MESSAGE_CONTENT_INTENT = 1 << 15
HUMAN_SEAT = 0
MAX_HUMAN_MOVES = 200
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
DOORS = ("typed", "slash", "button", "prefix")
ANSI = re.compile(r"\x1b\[[0-9;]*m")
LOG_ERROR = re.compile(r"\b(ERROR|CRITICAL)\b|^Traceback")
PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """In the child, before exec (Linux): SIGKILL when the test process dies first, so that a killed test run
    leaves no bot behind reconnecting to a double that is gone."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


class BotProcess:
    """``python bot.py`` pointed at the double, its output (stdout and stderr: the log) in ``log_path``; ``tag``
    names it to the double (what it sends is recorded ``by=tag``), ``extra`` adds to (or, empty, unsets) its
    settings."""

    def __init__(self, double: DiscordDouble, db_path: Path, log_path: Path, *, tag: str = "",
                 extra: dict[str, str] | None = None) -> None:
        self.double, self.db_path, self.log_path = double, db_path, log_path
        self.tag, self.extra = tag, extra or {}
        self.proc: asyncio.subprocess.Process | None = None

    def env(self) -> dict[str, str]:
        d = self.double
        api, gateway = (d.api_url_for(self.tag), d.gateway_url_for(self.tag)) if self.tag else (d.api_url,
                                                                                                d.gateway_url)
        # Environment variables win over a developer's .env; the ones that change behaviour are all set here.
        return {**os.environ, "DISCORD_TOKEN": d.token, "DATABASE_PATH": str(self.db_path),
                "DISCORD_API_URL": api, "DISCORD_GATEWAY_URL": gateway, "STATUS_SECONDS": "0",
                "LOG_LEVEL": "INFO", "DEV_GUILD_ID": str(d.guild_id), "COMMAND_PREFIX": "!",
                "DEFAULT_LOCALE": "en", "PYTHONUNBUFFERED": "1", **self.extra}

    async def start(self) -> BotProcess:
        with self.log_path.open("wb") as out:  # the child keeps its own copy of the descriptor
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, "bot.py", cwd=ROOT, env=self.env(), stdin=asyncio.subprocess.DEVNULL,
                stdout=out, stderr=asyncio.subprocess.STDOUT, preexec_fn=die_with_parent)
        await self.wait(lambda: "logged in as" in self.log(), "the bot to log in and be ready", START_WAIT)
        return self

    def log(self) -> str:
        """The bot's output so far, without colour codes (discord.py colours its log inside Docker)."""
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        return ANSI.sub("", text)

    def tail(self, lines: int = 40) -> str:
        return "\n".join(self.log().splitlines()[-lines:])

    def check(self) -> None:
        """Fail at once if the bot died."""
        if self.proc is not None and self.proc.returncode is not None:
            pytest.fail(f"the bot exited with code {self.proc.returncode}\n--- bot log ---\n{self.tail()}")

    async def wait(self, predicate: Callable[[], T], what: str, timeout: float = WAIT) -> T:
        try:
            return await self.double.wait_for(predicate, what, timeout, check=self.check)
        except TimeoutError as e:
            pytest.fail(f"{e}\n--- bot log ---\n{self.tail()}\n--- problems seen by the double ---\n"
                        f"{self.double.problems()}")

    async def poll(self, predicate: Callable[[], Any], timeout: float) -> bool:
        """Whether ``predicate`` came true within ``timeout`` seconds (no failure when it did not)."""
        try:
            await self.double.wait_for(predicate, "", timeout, check=self.check)
        except TimeoutError:
            return False
        return True

    async def kill(self) -> None:
        """SIGKILL: no clean shutdown, exactly like a crash or an OOM kill."""
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()

    def errors(self) -> list[str]:
        """ERROR / CRITICAL log lines and tracebacks in the bot's output."""
        return [line for line in self.log().splitlines() if LOG_ERROR.search(line)]


Launch = Callable[[], Awaitable[BotProcess]]  # the ``launch`` fixture: start (again) on the test's database


# --- the database, read-only ---------------------------------------------------------------------------------


class PgReader:
    """Synchronous reads of a PostgreSQL database for the tests' predicates (as sqlite3 gives for the SQLite
    file): asyncpg on an event loop of its own in a daemon thread, each query waited for (milliseconds on
    loopback)."""

    def __init__(self, url: str) -> None:
        import asyncpg  # lazy: only the PostgreSQL end-to-end tests need the driver

        self.url = url
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="pg-reader", daemon=True)
        self.thread.start()
        self.conn: Any = self.run(asyncpg.connect(url))

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout=WAIT)

    def rows(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        return [tuple(r) for r in self.run(self.conn.fetch(sql, *args))]

    def execute(self, sql: str, *args: Any) -> None:
        """A statement whose rows don't matter (``BEGIN``, ``ROLLBACK``: a transaction held open on purpose)."""
        self.run(self.conn.execute(sql, *args))

    def close(self) -> None:
        self.run(self.conn.close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=5)


Db = Path | PgReader  # a test's database: the SQLite file, or a PostgreSQL one


@dataclass
class TableRow:
    id: int
    status: str
    moves: int
    version: int
    seats: list[dict[str, Any]]
    state: dict[str, Any] | None

    def game(self) -> Any:
        assert self.state is not None
        return RULES.from_json(self.state)

    def to_move(self) -> frozenset[int]:
        return RULES.to_move(self.game()) if self.status == "active" else frozenset()


@dataclass
class ActionRow:
    seq: int
    seat: int
    action: str
    source: str
    interaction_id: int | None


def connect(db: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)


def query(db: Db, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    """Rows of ``sql`` (written with ``?`` placeholders) on either backend."""
    if isinstance(db, PgReader):
        numbered = iter(range(1, sql.count("?") + 1))
        return db.rows(re.sub(r"\?", lambda _: f"${next(numbered)}", sql), *args)
    with closing(connect(db)) as con:
        return con.execute(sql, args).fetchall()


def read_table(db: Db, channel_id: int) -> TableRow | None:
    if isinstance(db, Path) and not db.exists():
        return None
    rows = query(db, "SELECT id, status, moves, version, seats, state FROM games WHERE channel_id = ? "
                 "ORDER BY id DESC LIMIT 1", channel_id)
    row = rows[0] if rows else None
    if row is None:
        return None
    gid, status, moves, version, seats, state = row
    return TableRow(gid, status, moves, version, json.loads(seats), json.loads(state) if state else None)


def read_actions(db: Db, game_id: int) -> list[ActionRow]:
    rows = query(db, "SELECT seq, seat, action, source, interaction_id FROM actions WHERE game_id = ? "
                 "ORDER BY seq", game_id)
    return [ActionRow(*r) for r in rows]


def check_png(data: bytes) -> tuple[int, int]:
    """A posted image (WebP lossless or PNG: `render.kit.encode_image`) that Pillow opens and decodes, of a sane
    size."""
    assert (data.startswith(PNG_MAGIC) or data[8:12] == b"WEBP") and len(data) > 1000, f"not an image ({len(data)} B)"
    with Image.open(io.BytesIO(data)) as img:
        img.verify()
    with Image.open(io.BytesIO(data)) as img:
        img.load()
        assert img.format in ("PNG", "WEBP") and 200 <= img.width <= 4000 and 200 <= img.height <= 4000, img.size
        return img.size


# --- a game through Discord --------------------------------------------------------------------------------


@dataclass
class Move:
    action: str
    door: str
    source_id: int  # the interaction's or the typed message's id: the actions row's interaction_id
    interaction: Interaction | None = None


@dataclass
class Table:
    """A flying_blades table played by alice (seat 0) against bots, through the double."""

    double: DiscordDouble
    bot: BotProcess
    db: Db
    thread_id: int = 0
    moves: list[Move] = field(default_factory=list)
    channel_id: int = 0  # where /play is typed (0: the first guild's #general)

    @property
    def alice(self) -> int:
        return self.double.users["alice"].id

    def row(self) -> TableRow | None:
        return read_table(self.db, self.thread_id)

    async def answered(self, inter: Interaction) -> Interaction:
        await self.bot.wait(lambda: inter.answered, f"an answer to interaction {inter.data}")
        return inter

    async def button(self, which: str) -> Message:
        return await self.bot.wait(lambda: self.double.with_button(which, self.thread_id or None),
                                   f"a message with a {which!r} button")

    def seated(self) -> int:
        row = self.row()
        return 0 if row is None else len(row.seats)

    async def open(self, *, bots: int = 2, options: str = "cards=none") -> None:
        """/play in #general: a lobby in a new thread; Add bot ``bots`` times; Start; the first board."""
        d = self.double
        channel = self.channel_id or d.channel_id
        before = set(d.threads)
        await self.answered(d.slash("play", "alice", channel, game=GAME, options=options))

        def new_thread() -> int | None:
            return next((t for t in d.threads if t not in before
                         and d.channels.get(t, {}).get("parent_id") == str(channel)), None)

        self.thread_id = await self.bot.wait(new_thread, "the game's thread")
        await self.seat_bots_and_start(bots)

    async def seat_bots_and_start(self, bots: int) -> None:
        """In the open lobby: Add bot ``bots`` times (each once the lobby shows the last), Start, the first board."""
        d = self.double
        for n in range(bots):
            lobby = await self.button("Add bot")
            shown = lobby.button("Add bot")["custom_id"]
            await self.answered(d.click(lobby, "Add bot"))  # the lobby may be edited after the answer
            await self.bot.wait(lambda n=n: self.seated() == n + 2, "a bot seated")
            await self.bot.wait(lambda shown=shown, lobby=lobby: lobby.button("Add bot")["custom_id"] != shown,
                                "the lobby shown with the new seat")
        marker = len(d.sent)
        await self.answered(d.click(await self.button("Start"), "Start"))
        await self.settled(marker, None)

    async def settled(self, marker: int, moves_before: int | None) -> list[Sent]:
        """Wait until the bot has saved a move (unless ``moves_before`` is None) and posted everything after
        it: its last post pings alice (her turn) or shows the result with Rematch. Returns what it sent since
        ``marker``."""
        await self.bot.wait(lambda: self.answered_since(marker, moves_before),
                            f"the bot to answer the move after {moves_before} moves")
        return self.double.sent[marker:]

    def answered_since(self, marker: int, moves_before: int | None) -> bool:
        """A move was saved (unless ``moves_before`` is None) and a post since ``marker`` ends the run."""
        row = self.row()
        if row is None or (moves_before is not None and row.moves <= moves_before):
            return False
        return any(s.public and s.channel_id == self.thread_id
                   and (self.alice in s.pinged or "rematch" in json.dumps(s.components))
                   for s in self.double.sent[marker:])

    def status_messages(self) -> list[Message]:
        """Messages in the thread showing the game's status (the lobby message becomes the one at Start)."""
        return [m for m in self.double.in_channel(self.thread_id)
                if m.embeds and any(f.get("name") == "Moves" for f in m.embeds[0].get("fields", []))]

    def choose(self, door: str) -> str:
        row = self.row()
        assert row is not None and row.status == "active", row
        state = row.game()
        assert RULES.to_move(state) == {HUMAN_SEAT}, f"not alice's turn: {RULES.to_move(state)}"
        return "pass" if door == "button" else RULES.bot_action(state, HUMAN_SEAT)

    def send(self, action: str, door: str, board: Message | None = None) -> Move:
        """Alice plays ``action`` through ``door`` (the Pass button of ``board``, by default of the latest
        board); returns what the actions row will carry."""
        d = self.double
        if door == "typed":
            return Move(action, door, d.say(action, "alice", self.thread_id).id)
        if door == "prefix":
            return Move(action, door, d.say(f"!move {action}", "alice", self.thread_id).id)
        if door == "slash":
            inter = d.slash("move", "alice", self.thread_id, action=action)
        else:
            board = board or d.with_button("Pass", self.thread_id)
            assert board is not None, "no board with a Pass button"
            inter = d.click(board, "Pass")
        return Move(action, door, inter.id, inter)

    async def move(self, door: str, *, before: Callable[[], Any] | None = None,
                   board: Message | None = None) -> list[Sent]:
        """One move of alice's, then everything the bot posts for it and for the bots after it; ``before`` runs
        just before she sends it (to inject a fault)."""
        row = self.row()
        assert row is not None
        action, marker = self.choose(door), len(self.double.sent)
        if before is not None:
            before()
        move = self.send(action, door, board)
        self.moves.append(move)
        if move.interaction is not None:
            await self.answered(move.interaction)
        return await self.settled(marker, row.moves)

    async def play(self, *, limit: int = MAX_HUMAN_MOVES) -> None:
        """Alice plays until the game is over (or ``limit`` moves), by every door in turn."""
        for n in range(limit):
            row = self.row()
            assert row is not None
            if row.status != "active":
                return
            await self.move(DOORS[n % len(DOORS)])
        row = self.row()
        assert row is not None and row.status != "active", f"the game did not end in {limit} moves"

    # --- what must hold after a run ------------------------------------------------------------------------

    def check_actions(self) -> list[ActionRow]:
        """Every move of alice's is in the log exactly once, under its interaction or message id; seqs run
        1..n without a gap; the games row counts them all."""
        row = self.row()
        assert row is not None
        actions = read_actions(self.db, row.id)
        assert [a.seq for a in actions] == list(range(1, len(actions) + 1)) and row.moves == len(actions)
        mine = [a for a in actions if a.source == "player"]
        assert all(a.seat == HUMAN_SEAT for a in mine)
        assert [a.interaction_id for a in mine] == [m.source_id for m in self.moves], "a move lost or doubled"
        assert [a.action for a in mine] == [m.action for m in self.moves]
        return actions

    def check_boards(self, actions: list[ActionRow]) -> int:
        """The board images, each a valid image: a run of moves (a player's and the bots' after it) shares one,
        named by the number of moves it shows, so none is posted twice (the numbers increase) and none is lost
        (the last one shows the last move)."""
        posts = [s for s in self.double.sent if s.public and s.channel_id == self.thread_id]
        names = [name for s in posts for name, _ in s.files if name.endswith((".png", ".webp"))]
        shown = [int(name.rsplit("-", 1)[1].partition(".")[0]) for name in names]
        for png in self.double.public_pngs(self.thread_id):
            check_png(png)
        assert shown == sorted(set(shown)), f"a board posted twice or out of order: {shown}"
        assert shown and shown[-1] == len(actions), f"the last board shows {shown[-1:]} of {len(actions)} moves"
        return len(names)

    async def check_result(self) -> Message:
        """The result is announced (🥇, Rematch) and the status message is edited to show it."""
        row = self.row()
        assert row is not None and row.status == "finished", row
        final = self.double.with_button("Rematch", self.thread_id)
        assert final is not None, "no result message with a Rematch button"
        assert "game over" in final.text and "🥇" in final.text, final.text

        def status_shows_result() -> bool:
            return any(m.edited and any(f.get("name") == "Result" for f in m.embeds[0].get("fields", []))
                       for m in self.status_messages())

        await self.bot.wait(status_shows_result, "the status message to show the result")
        return final
