"""One process or several (issue 26): real ``python bot.py`` processes against the local Discord API double, side by
side in one run: (a) one process on SQLite, (b) one on PostgreSQL, (c) 4 processes on PostgreSQL, one shard each.

*The database.* A few hundred real games are made through the `Engine` on a SQLite file (every one of the five games
running with a few opening moves, and flying_blades games played by its bots to the end), then copied by SQL in one
transaction with fresh ids and fresh guild and channel ids spread over 4 shards (games, their actions and their
clocks, moved far into the future so that none falls due) until it holds ``--games`` stored games of which
``--active`` are running. The file is built once and kept (``--db PATH``); PostgreSQL gets it by
``./floorboard db copy`` (the documented upgrade path), one schema per configuration.

*The load.* Alice plays flying_blades tables against two bots in ``--guilds`` guilds of the double (spread over the
shards); each move is a click on the latest board's Pass button, a real interaction sent through the gateway of the
process holding the guild's shard, answered by the bot (the *ack*: the double times the callback from the
interaction's creation), applied, the bots' moves after it, and one board image posted (*act*: from the click to
the post that gives alice her turn back). A ramp of steps at a fixed offered rate stops at the first step whose ack
p99 exceeds 1 s (or that the tables cannot carry: fewer than 90 % of the offered moves could be sent); the best
rate is then held for ``--hold-minutes``. Per window: ack and act percentiles, the loop lag (the bots' opt-in
ticker, ``FLOORBOARD_LOOP_LAG_LOG``: per second the worst lateness of a 50 ms sleep; p99 over those seconds),
the CPU per move (user+sys of every bot process and its render workers, from /proc sampled every second, over
the window / moves).

*The kill.* Under load at half the best rate, with turn clocks of other tables falling due around it, one process
(shard 1's in (c)) is SIGKILLed and started again; its exec-to-first-served-move time and loop lag during the start
are the cold start. Audited from the actions table and the double's posts: moves lost (acknowledged, not in the
log), doubled (a board image of a table posted twice), deadlines fired twice or never, moves cut by the kill (sent
to the dead process, never acknowledged: Discord shows the player a failed interaction; not a loss).

Run: ``python -m tests.bench cluster`` or ``python -m tests.bench.bench_cluster [--quick] [--configs abc]
[--hold-minutes 10] [--db PATH] [--pg-url URL]``; PostgreSQL from ``FLOORBOARD_TEST_PG_URL`` (tools/pg_cluster.sh),
configurations (b) and (c) are left out without one. Takes minutes (each configuration: a ramp, a hold, a kill).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from engine import Engine, SeatInfo
from rules import GAMES
from storage import open_store
from tests.e2e import driver
from tests.e2e.discord_double import DiscordDouble, Interaction, Sent
from tests.e2e.driver import ROOT, BotProcess, PgReader, Table, query, read_table

SHARDS = 4
MIX = ("flying_blades", "floor_plan", "the_floor", "floating_world", "floating_floors")
OPENING = 4  # moves played in each running template game
ACK_LIMIT = 1.0  # seconds: the ack p99 a sustained rate must keep
CARRY = 0.9  # a step whose tables could take fewer than this share of the offered moves ends the ramp
MOVE_WAIT = 20.0  # seconds a move may take to be answered and shown before it counts as stuck
LEASE_SECONDS = 3
OPTIONS = "cards=none turn_minutes=60"  # turn clocks run (the kill's deadlines), none falls due by itself
FAR = datetime(2099, 1, 1, tzinfo=UTC)  # the copies' clocks: never due in a run
LAG_LINE = re.compile(r"loop lag: max ([\d.]+) ms at ([\d.]+)")
CONFIGS = {"a": ("1 process, SQLite", 1, "sqlite"), "b": ("1 process, PostgreSQL", 1, "postgres"),
           "c": (f"{SHARDS} processes, PostgreSQL", SHARDS, "postgres")}


@dataclass
class Options:
    games: int = 100_000
    active: int = 5_000
    templates: int = 250  # running games made through the engine (50 of each game); finished ones besides
    finished: int = 40
    tables: int = 24  # hot flying_blades tables moved by the load
    clocks: int = 4  # tables whose turn clocks fall due around the kill
    guilds: int = 8
    step_s: float = 60.0
    hold_s: float = 600.0
    kill_s: float = 30.0
    rates: tuple[float, ...] = (2, 4, 6, 8, 12, 16, 24, 32, 48)
    db: Path | None = None
    pg_url: str = ""
    configs: str = "abc"
    workdir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="bench-cluster-")))
    seed: int = 1

    @classmethod
    def quick(cls, **kw: Any) -> Options:
        """A few games, 20 s steps: the harness's own check (CI keeps it working), no figure worth quoting."""
        return cls(**{"games": 300, "active": 60, "templates": 10, "finished": 4, "tables": 4, "clocks": 2,
                      "guilds": 4, "step_s": 20.0, "hold_s": 20.0, "kill_s": 10.0, "rates": (1, 2), **kw})


# ----------------------------------------------------------------------------------------------- the database

def _bot_move(game: str, state: Any, seat: int) -> str:
    rules = GAMES[game]
    if game == "floor_plan":
        from rules.floor_plan.bot import choose_baseline  # lazy: only Floor Plan's templates need its bot

        return choose_baseline(rules, state, seat)  # type: ignore[arg-type]
    return rules.bot_action(state, seat)


async def _template(engine: Engine, game: str, players: int, channel: int, seed: str, moves: int | None) -> str:
    """One game made as players make one (lobby, join, start), then ``moves`` bot moves (None: to its end)."""
    host = SeatInfo(channel, f"Player {channel}")
    table = await engine.open_lobby(game, guild_id=1, channel_id=channel, host=host, seed=seed)
    for user in range(1, players):
        await engine.join(table.id, SeatInfo(channel + user * 7919, f"Player {channel}-{user}"))
    table = await engine.start(table.id, channel)
    rules = GAMES[game]
    for _ in range(moves if moves is not None else 2000):
        if table.status != "active":
            break
        seat = min(rules.to_move(table.state))
        table = (await engine.act(table.id, table.seats[seat].user_id or 0, _bot_move(game, table.state,
                                                                                     seat))).table
    await engine.set_meta(table.id, announced=table.moves)  # posted, as the cogs mark a game after its board
    return table.status


async def make_templates(path: Path, running: int, finished: int) -> tuple[int, int]:
    """``running`` running games of the five in turn and ``finished`` flying_blades games played to the end."""
    store = await open_store(path)
    engine = Engine(store)
    done = 0
    try:
        for i in range(running):
            await _template(engine, MIX[i % len(MIX)], 2 + i % 2, 10_000 + i, f"cluster/{i}", OPENING)
        for i in range(finished):
            status = await _template(engine, "flying_blades", 2 + i % 2, 20_000 + i, f"cluster/end/{i}", None)
            done += status == "finished"
    finally:
        await store.close()
    return running, done


def _columns(con: sqlite3.Connection, table: str) -> list[str]:
    return [r[1] for r in con.execute(f"PRAGMA table_info({table})")]


def bulk_copy(path: Path, games: int, active: int) -> None:
    """Copies of the templates (running ones for the running share) by SQL in one transaction, with fresh ids and
    fresh guild and channel ids spread over the shards, their actions and clocks (every clock moved to `FAR`)."""
    con = sqlite3.connect(path, isolation_level=None)
    try:
        running = [r[0] for r in con.execute("SELECT id FROM games WHERE status = 'active' ORDER BY id")]
        ended = [r[0] for r in con.execute("SELECT id FROM games WHERE status = 'finished' ORDER BY id")]
        have = len(running) + len(ended)
        first = con.execute("SELECT max(id) FROM games").fetchone()[0] + 1
        mapping = []
        for k in range(max(0, games - have)):
            src = running[k % len(running)] if k < active - len(running) or not ended else ended[k % len(ended)]
            mapping.append((first + k, src, (1_000_000 + k % 4096) << 22, 9_000_000_000_000 + k))
        con.execute("BEGIN IMMEDIATE")
        # The templates' clocks too: their channels are in no guild of the double, where a timeout would post.
        con.execute("UPDATE deadlines SET due_at = ?", (FAR.isoformat(timespec="microseconds"),))
        con.execute("CREATE TEMP TABLE copies (new_id INTEGER PRIMARY KEY, src INTEGER, guild INTEGER, "
                    "channel INTEGER)")
        con.executemany("INSERT INTO copies VALUES (?, ?, ?, ?)", mapping)
        cols = _columns(con, "games")
        pick = {"id": "c.new_id", "guild_id": "c.guild", "channel_id": "c.channel"}
        con.execute(f"INSERT INTO games ({', '.join(cols)}) SELECT "
                    f"{', '.join(pick.get(c, 'g.' + c) for c in cols)} FROM copies c JOIN games g ON g.id = c.src")
        cols = _columns(con, "actions")
        pick = {"game_id": "c.new_id", "interaction_id": "NULL"}
        con.execute(f"INSERT INTO actions ({', '.join(cols)}) SELECT "
                    f"{', '.join(pick.get(c, 'a.' + c) for c in cols)} FROM copies c JOIN actions a "
                    "ON a.game_id = c.src")
        cols = [c for c in _columns(con, "deadlines") if c != "id"]
        pick = {"game_id": "c.new_id", "due_at": "?"}
        con.execute(f"INSERT INTO deadlines ({', '.join(cols)}) SELECT "
                    f"{', '.join(pick.get(c, 'd.' + c) for c in cols)} FROM copies c JOIN deadlines d "
                    "ON d.game_id = c.src", (FAR.isoformat(timespec="microseconds"),))
        con.execute("COMMIT")
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        con.close()


async def build_sqlite(opts: Options) -> tuple[Path, float]:
    """The stored games' SQLite file (kept at ``--db`` and reused when it exists); seconds it took to build."""
    path = opts.db or opts.workdir / "stored.sqlite3"
    if path.exists():
        return path, 0.0
    began = time.monotonic()
    building = path.with_suffix(".building")
    for leftover in building.parent.glob(building.name + "*"):
        leftover.unlink()
    await make_templates(building, opts.templates, opts.finished)
    bulk_copy(building, opts.games, opts.active)
    building.rename(path)
    return path, time.monotonic() - began


def counts(db: Path | PgReader) -> tuple[int, int]:
    rows = query(db, "SELECT count(*), sum(CASE WHEN status = 'active' THEN 1 ELSE 0 END) FROM games")
    return int(rows[0][0]), int(rows[0][1] or 0)


def pg_copy(sqlite_path: Path, server: str) -> tuple[str, float]:
    """A fresh schema on ``server`` holding the SQLite file, by ``./floorboard db copy``; its URL and seconds."""
    from tests.storage.backends import with_search_path  # lazy: the PostgreSQL configurations only

    schema = f"cluster_{uuid.uuid4().hex[:12]}"
    reader = PgReader(server)
    try:
        reader.execute(f"CREATE SCHEMA {schema}")
    finally:
        reader.close()
    url = with_search_path(server, schema)
    began = time.monotonic()
    subprocess.run([sys.executable, "bot.py", "db", "copy", "--from", str(sqlite_path), "--to", url], cwd=ROOT,
                   check=True, stdout=subprocess.DEVNULL)
    # Planner statistics for the bulk-loaded tables (db copy leaves them to autovacuum): without them the first
    # start on 100,000 games did not log in within 60 s.
    reader = PgReader(url)
    try:
        reader.execute("ANALYZE")
    finally:
        reader.close()
    return url, time.monotonic() - began


def drop_schema(server: str, url: str) -> None:
    schema = url.rsplit("search_path=", 1)[-1]
    reader = PgReader(server)
    try:
        reader.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
    finally:
        reader.close()


# ----------------------------------------------------------------------------------------------- measuring

def pct(values: Iterable[float], q: float) -> float | None:
    ordered = sorted(values)
    if not ordered:
        return None
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def descendants(roots: Iterable[int]) -> set[int]:
    """``roots`` and every process below them (render workers are the forkserver's children)."""
    parent: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            parent[int(stat.parent.name)] = int(fields[1])
    frontier = list(roots)  # once: ``roots`` may be a generator
    found = set(frontier)
    while frontier:
        pid = frontier.pop()
        kids = [p for p, pp in parent.items() if pp == pid and p not in found]
        found.update(kids)
        frontier += kids
    return found


def cpu_seconds(pids: Iterable[int]) -> dict[int, float]:
    """user+sys CPU seconds of each live pid (/proc/PID/stat fields 14 and 15)."""
    tick, out = os.sysconf("SC_CLK_TCK"), {}
    for pid in pids:
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            out[pid] = (int(fields[11]) + int(fields[12])) / tick
    return out


class CpuMeter:
    """CPU seconds spent by process trees over a window, sampled as it goes: a process that ends within it (a
    render worker retired after `render.pool.RECYCLE_DRAWS` draws, a killed bot) counts up to its last sample
    (read at its end, it would be gone and its whole window lost), and one that starts within it counts from 0."""

    def __init__(self, roots: Iterable[int]) -> None:
        self.first = cpu_seconds(descendants(roots))
        self.last = dict(self.first)

    def sample(self, roots: Iterable[int]) -> None:
        for pid, cpu in cpu_seconds(descendants(roots)).items():  # a late sample's thread may finish last
            self.last[pid] = max(cpu, self.last.get(pid, 0.0))

    @property
    def seconds(self) -> float:
        return sum(cpu - self.first.get(pid, 0.0) for pid, cpu in self.last.items())


def lag_samples(bots: Iterable[BotProcess], since: float, until: float) -> list[float]:
    """The bots' per-second worst loop lag (ms) logged between wall times ``since`` and ``until``."""
    out = []
    for bot in bots:
        for m in LAG_LINE.finditer(bot.log()):
            if since <= float(m[2]) <= until:
                out.append(float(m[1]))
    return out


@dataclass
class Window:
    """One step of the ramp, the hold or the kill phase."""

    name: str
    offered: float
    seconds: float
    sent: int = 0
    unsent: int = 0  # due while every table of the right process was busy
    acks: list[float] = field(default_factory=list)  # seconds
    acts: list[float] = field(default_factory=list)
    unanswered: int = 0
    stuck: int = 0
    lag_ms: list[float] = field(default_factory=list)
    cpu_s: float = 0.0
    load: list[float] = field(default_factory=list)

    @property
    def done(self) -> int:
        return len(self.acts)

    @property
    def rate(self) -> float:
        return self.done / self.seconds if self.seconds else 0.0

    def ok(self) -> bool:
        p99 = pct(self.acks, 0.99)
        carried = self.sent >= CARRY * (self.sent + self.unsent)
        return p99 is not None and p99 <= ACK_LIMIT and self.unanswered == 0 and self.stuck == 0 and carried

    def cells(self) -> list[str]:
        def ms(v: float | None) -> str:
            return "–" if v is None else f"{v * 1000:.0f}"

        lag = pct(self.lag_ms, 0.99)
        cpu = f"{self.cpu_s / self.done * 1000:.0f}" if self.done else "–"
        load = f"{statistics.mean(self.load):.1f}" if self.load else "–"
        return [f"{self.offered:g}", f"{self.rate:.1f}", str(self.done), ms(pct(self.acks, 0.5)),
                ms(pct(self.acks, 0.99)), ms(pct(self.acts, 0.5)), ms(pct(self.acts, 0.99)),
                "–" if lag is None else f"{lag:.0f}", cpu, load]


WINDOW_HEAD = ["offered /s", "moves /s", "moves", "ack p50 ms", "ack p99 ms", "act p50 ms", "act p99 ms",
               "loop lag p99 ms", "CPU ms/move", "load avg"]


# ----------------------------------------------------------------------------------------------- one configuration

@dataclass
class Hot:
    """A flying_blades table alice moves on, and the move of hers in flight."""

    table: Table
    guild: int
    pending: Interaction | None = None
    sent_at: float = 0.0
    shown_at: float = 0.0  # when the post giving alice her turn back came (`Sent.at`, monotonic)
    done: asyncio.Event = field(default_factory=asyncio.Event)
    finished: bool = False
    interactions: list[Interaction] = field(default_factory=list)
    boards: list[int] = field(default_factory=list)  # move counts of the board images posted, in order
    board_posts: list[str] = field(default_factory=list)  # who posted each board and how: a doubled one's story


@dataclass
class Audit:
    lost: int = 0
    doubled: int = 0
    cut: int = 0
    refused: int = 0
    fired_twice: int = 0
    never_fired: int = 0
    notes: list[str] = field(default_factory=list)


@dataclass
class ConfigResult:
    key: str
    label: str
    stored: tuple[int, int]
    prepare_s: float
    ramp: list[Window]
    best: float
    hold: Window | None
    kill: Window | None
    audit: Audit
    ready_s: float  # first start: exec to logged in (every process of the configuration)
    start_lag_ms: float | None  # worst loop lag logged during that start
    restart_s: float | None  # the killed process: exec to its first move served
    restart_lag_ms: float | None
    errors: list[str]


class Run:
    def __init__(self, key: str, opts: Options, db: Path | PgReader, url: str) -> None:
        self.key, self.opts, self.db, self.url = key, opts, db, url
        self.label, self.procs, self.backend = CONFIGS[key]
        self.double = DiscordDouble(guilds=opts.guilds, shards=SHARDS, rate_limit=1000)
        self.bots: list[BotProcess] = []
        self.owner: dict[int, int] = {}  # guild index -> index in bots
        self.hot: list[Hot] = []
        self.by_thread: dict[int, Hot] = {}
        self.clock_tables: list[Table] = []
        self.retired: list[Hot] = []
        self.dead: set[int] = set()
        self.rng = random.Random(opts.seed)
        self.opens: dict[int, asyncio.Lock] = {}
        self.moving: set[asyncio.Task[None]] = set()
        self.replacing: asyncio.Task[None] | None = None  # finished tables being replaced during a window
        self.kills: dict[int, int] = {}  # process index -> times killed
        self.killed: list[BotProcess] = []

    # --- processes ----------------------------------------------------------------------------------------

    def process_env(self, i: int) -> dict[str, str]:
        env = {"DEV_GUILD_ID": "", "TICK_SECONDS": "0.5", "DEADLINE_LEASE_SECONDS": str(LEASE_SECONDS),
               "FLOORBOARD_LOOP_LAG_LOG": "1"}
        if self.backend == "postgres":
            env["DATABASE_URL"] = self.url
        if self.procs > 1:
            # Four processes on two cores: one render worker each (their default is one per core: 8 workers).
            env.update(SHARD_COUNT=str(SHARDS), SHARD_IDS=str(i), RENDER_WORKERS="1")
        return env

    def new_bot(self, i: int, again: int = 0) -> BotProcess:
        tag = f"p{i}" + (f"r{again}" if again else "")
        db_path = self.db if isinstance(self.db, Path) else self.opts.workdir / "unused.db"
        bot = BotProcess(self.double, db_path, self.opts.workdir / f"{self.key}-{tag}.log", tag=tag,
                         extra=self.process_env(i))
        return bot

    async def start_all(self) -> tuple[float, float | None]:
        await self.double.start()
        began, wall = time.monotonic(), time.time()
        self.bots = [self.new_bot(i) for i in range(self.procs)]
        await self.bots[0].start()  # shard 0's holder syncs the slash commands: the others find them synced
        await asyncio.gather(*(b.start() for b in self.bots[1:]))
        ready = time.monotonic() - began
        for g, guild in enumerate(self.double.guilds):
            self.owner[g] = (guild.id >> 22) % SHARDS if self.procs > 1 else 0
        return ready, max(lag_samples(self.bots, wall - 1, time.time()), default=None)

    async def stop(self) -> None:
        for bot in [*self.killed, *self.bots]:
            await bot.kill()
        await self.double.stop()

    # --- tables -------------------------------------------------------------------------------------------

    def on_sent(self, sent: Sent) -> None:
        hot = self.by_thread.get(sent.channel_id)
        if hot is None or not sent.public:
            return
        for name, _ in sent.files:
            if name.endswith((".png", ".webp")):
                hot.boards.append(int(name.rsplit("-", 1)[1].partition(".")[0]))
                hot.board_posts.append(f"{hot.boards[-1]}: {sent.kind} by {sent.by or '?'} (interaction "
                                       f"{sent.interaction_id}, message {sent.message_id}, t={sent.at:.2f})")
        rematch = bool(sent.components) and "rematch" in json.dumps(sent.components)
        if rematch:
            hot.finished = True
        if hot.pending is not None and (hot.table.alice in sent.pinged or rematch):
            hot.shown_at = sent.at
            hot.pending = None
            hot.done.set()

    async def open_table(self, g: int, options: str = OPTIONS) -> Table:
        guild = self.double.guilds[g]
        table = Table(self.double, self.bots[self.owner[g]], self.db, channel_id=guild.channel_id)
        async with self.opens.setdefault(g, asyncio.Lock()):  # each /play's thread is the next in #general
            await table.open(options=options)
        return table

    async def open_hot(self, g: int) -> None:
        table = await self.open_table(g)
        hot = Hot(table, g)
        self.hot.append(hot)
        self.by_thread[table.thread_id] = hot

    async def open_all(self) -> None:
        guilds = len(self.double.guilds)

        async def in_guild(g: int) -> None:
            for n in range(g, self.opts.tables, guilds):
                await self.open_hot(n % guilds)
            for n in range(g, self.opts.clocks, guilds):
                self.clock_tables.append(await self.open_table(n % guilds))

        await asyncio.gather(*(in_guild(g) for g in range(min(guilds, max(self.opts.tables, self.opts.clocks)))))

    # --- moves --------------------------------------------------------------------------------------------

    def idle(self) -> list[Hot]:
        return [h for h in self.hot if h.pending is None and not h.finished and self.owner[h.guild] not in self.dead]

    async def move(self, hot: Hot, window: Window) -> None:
        board = self.double.with_button("Pass", hot.table.thread_id)
        if board is None:
            hot.finished = True
            return
        hot.done.clear()
        hot.sent_at = time.monotonic()
        inter = self.double.click(board, "Pass")
        hot.pending = inter
        hot.interactions.append(inter)
        window.sent += 1
        owner = self.owner[hot.guild]
        kills = self.kills.get(owner, 0)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(hot.done.wait(), MOVE_WAIT)
        cut = self.kills.get(owner, 0) != kills  # its process was killed meanwhile: the audit judges it
        if inter.callbacks:
            window.acks.append(inter.callbacks[0][1])
        elif not cut:
            window.unanswered += 1
        if hot.pending is inter:  # no post gave alice her turn back
            hot.pending = None
            window.stuck += not cut
        elif not cut:
            window.acts.append(hot.shown_at - hot.sent_at)

    async def replace_finished(self) -> None:
        for hot in [h for h in self.hot if h.finished and h.pending is None]:
            self.hot.remove(hot)
            self.retired.append(hot)
            await self.open_hot(hot.guild)

    def roots(self) -> list[int]:
        return [b.proc.pid for b in self.bots if b.proc and b.proc.returncode is None]

    async def sample_cpu(self, meter: CpuMeter) -> None:
        while True:  # off the loop: a walk of /proc takes milliseconds the clicks should not wait for
            await asyncio.sleep(1.0)
            await asyncio.to_thread(meter.sample, self.roots())

    async def offer(self, window: Window) -> Window:
        """Moves at ``window.offered`` per second for ``window.seconds``, each on an idle table."""
        loop = asyncio.get_running_loop()
        meter, wall0 = CpuMeter(self.roots()), time.time()
        sampling = asyncio.create_task(self.sample_cpu(meter))
        began = loop.time()
        n = 0
        while (at := began + n / window.offered) < began + window.seconds:
            await asyncio.sleep(max(0.0, at - loop.time()))
            n += 1
            if n % max(1, int(window.offered * 5)) == 0:
                window.load.append(os.getloadavg()[0])
            if n % max(1, int(window.offered)) == 0 and self.replacing is None:
                # Games end under load (alice passes, the bots play on to the end): a long hold must not run out
                # of tables, so those are replaced as the window goes, not only between windows.
                self.replacing = asyncio.create_task(self.replace_finished())
                self.replacing.add_done_callback(lambda _: setattr(self, "replacing", None))
            idle = self.idle()
            if not idle:
                window.unsent += 1
                continue
            task = asyncio.create_task(self.move(self.rng.choice(idle), window))
            self.moving.add(task)
            task.add_done_callback(self.moving.discard)
        if self.moving:
            await asyncio.wait(list(self.moving))
        if self.replacing is not None:
            await self.replacing
        window.load.append(os.getloadavg()[0])
        sampling.cancel()
        meter.sample(self.roots())
        window.cpu_s = meter.seconds
        window.lag_ms = lag_samples(self.bots, wall0, time.time())
        print(f"({self.key}) {window.name}:", *window.cells(), file=sys.stderr, flush=True)  # kept if a step fails
        await self.replace_finished()
        return window

    # --- the kill -----------------------------------------------------------------------------------------

    def set_due(self, tables: list[Table], when: datetime) -> None:
        ids = [t.row().id for t in tables]  # type: ignore[union-attr]
        if isinstance(self.db, PgReader):
            query(self.db, "UPDATE deadlines SET due_at = ? WHERE kind = 'turn_timeout' AND game_id = ANY(?::bigint[])"
                  " RETURNING game_id", when, ids)
            return
        con = sqlite3.connect(self.db, timeout=10, isolation_level=None)
        try:
            con.executemany("UPDATE deadlines SET due_at = ? WHERE kind = 'turn_timeout' AND game_id = ?",
                            [(when.isoformat(timespec="microseconds"), i) for i in ids])
        finally:
            con.close()

    async def kill_phase(self, rate: float) -> tuple[Window, float | None, float | None]:
        """Load at ``rate``; clocks falling due before and after the moment one process is SIGKILLed; the
        process started again (its cold start: exec to its first move served)."""
        victim = 1 % self.procs
        window = Window("kill", rate, self.opts.kill_s)
        load = asyncio.create_task(self.offer(window))
        await asyncio.sleep(self.opts.kill_s / 3)
        now = datetime.now(UTC)
        half = len(self.clock_tables) // 2
        self.set_due(self.clock_tables[:half], now)
        self.set_due(self.clock_tables[half:], now + timedelta(seconds=0.5))
        await asyncio.sleep(self.rng.uniform(0.2, 0.8))
        self.dead.add(victim)
        self.kills[victim] = self.kills.get(victim, 0) + 1
        await self.bots[victim].kill()
        await asyncio.sleep(1.0)
        began, wall = time.monotonic(), time.time()
        again = self.new_bot(victim, again=len(self.killed) + 1)
        self.killed.append(self.bots[victim])
        self.bots[victim] = again  # tables opened from now on in its guilds wait for the new process
        await again.start()
        for g, owner in self.owner.items():
            if owner == victim:
                for hot in self.hot:
                    if hot.guild == g:
                        hot.table.bot = again
        self.dead.discard(victim)
        self.bots_by_index(victim, again)
        served = await self.first_move(victim, began)
        restart_lag = max(lag_samples([again], wall - 1, time.time()), default=None)
        await load
        return window, served, restart_lag

    def bots_by_index(self, index: int, bot: BotProcess) -> None:
        for table in self.clock_tables:
            if self.owner[self.guild_index(table)] == index:
                table.bot = bot

    def guild_index(self, table: Table) -> int:
        return next(i for i, g in enumerate(self.double.guilds) if g.channel_id == table.channel_id)

    async def first_move(self, index: int, began: float) -> float | None:
        """Seconds from the restarted process's exec to its first move answered and shown."""
        for _ in range(int(MOVE_WAIT / 0.05)):
            mine = [h for h in self.idle() if self.owner[h.guild] == index]
            if mine:
                hot = mine[0]
                scratch = Window("first", 1, 1)
                await self.move(hot, scratch)
                return time.monotonic() - began if scratch.acts else None
            await asyncio.sleep(0.05)
        return None

    async def audit(self) -> Audit:
        """After the run: every acknowledged move in the log once, no board posted twice, every clock fired
        once."""
        out = Audit()
        for hot in [*self.hot, *self.retired]:
            row = read_table(self.db, hot.table.thread_id)
            if row is None:
                continue
            logged = [r[0] for r in query(self.db, "SELECT interaction_id FROM actions WHERE game_id = ? AND "
                                                   "source = 'player'", row.id)]
            out.doubled += len(logged) - len(set(logged))
            for inter in hot.interactions:
                if not inter.callbacks:
                    out.cut += inter.id not in logged
                    continue
                accepted = inter.callbacks[0][0] in (5, 6, 7) or any(
                    s.interaction_id == inter.id and not s.ephemeral for s in self.double.sent)
                if inter.id not in logged:
                    if accepted:
                        out.lost += 1
                        out.notes.append(f"interaction {inter.id} acknowledged, not in the log of game {row.id}")
                    else:
                        out.refused += 1
            twice = len(hot.boards) - len(set(hot.boards))
            out.doubled += twice
            if twice:
                out.notes.append(f"game {row.id}: a board posted twice: {hot.boards}")
                again = {n for n in hot.boards if hot.boards.count(n) > 1}
                out.notes += [f"    {p}" for p in hot.board_posts if int(p.partition(":")[0]) in again]
        for table in self.clock_tables:
            await table.bot.poll(lambda table=table: self.timer_moves(table) >= 1, LEASE_SECONDS + MOVE_WAIT)
        await asyncio.sleep(LEASE_SECONDS + 1.0)  # a second firing would come after a lease
        for table in self.clock_tables:
            fired = self.timer_moves(table)
            out.never_fired += fired == 0
            out.fired_twice += fired > 1
        return out

    def timer_moves(self, table: Table) -> int:
        row = table.row()
        if row is None:
            return 0
        return int(query(self.db, "SELECT count(*) FROM actions WHERE game_id = ? AND source = 'timer'",
                         row.id)[0][0])


async def run_config(key: str, opts: Options, sqlite_path: Path,
                     pg: asyncio.Future[tuple[str, float]] | None = None) -> ConfigResult:
    """One configuration; PostgreSQL ones run on the copy ``pg`` makes (one copy, shared by (b) and (c))."""
    backend = CONFIGS[key][2]
    prepare_s, url, db = 0.0, "", None
    if backend == "postgres":
        assert pg is not None
        url, prepare_s = await pg
        db = PgReader(url)
    else:
        work = opts.workdir / f"{key}.sqlite3"
        began = time.monotonic()
        src = sqlite3.connect(sqlite_path)
        try:
            with contextlib.closing(sqlite3.connect(work)) as dst:
                src.backup(dst)  # a copy per run: the cached file stays as built
        finally:
            src.close()
        prepare_s, db = time.monotonic() - began, work
    run = Run(key, opts, db, url)
    run.double.on_sent.append(run.on_sent)
    try:
        stored = counts(db)
        ready_s, start_lag = await run.start_all()
        await run.open_all()
        ramp: list[Window] = []
        best = 0.0
        for rate in opts.rates:
            step = await run.offer(Window(f"ramp {rate:g}", rate, opts.step_s))
            ramp.append(step)
            if not step.ok():
                break
            best = rate
        hold = await run.offer(Window("hold", best, opts.hold_s)) if best else None
        kill, restart_s, restart_lag = await run.kill_phase(max(best, opts.rates[0]) / 2)
        audit = await run.audit()
        errors = [f"{b.tag}: {e}" for b in [*run.killed, *run.bots] for e in b.errors()]
        return ConfigResult(key, run.label, stored, prepare_s, ramp, best, hold, kill, audit, ready_s, start_lag,
                            restart_s, restart_lag, errors)
    finally:
        await run.stop()
        if isinstance(db, PgReader):
            db.close()


# ----------------------------------------------------------------------------------------------- the report

def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def report_table(results: list[ConfigResult]) -> str:
    head = ["configuration", "stored (active)", "best rate /s", *WINDOW_HEAD[1:], "lost", "doubled",
            "deadlines twice / never", "cut by the kill", "ready s", "start lag max ms", "restart → first move s",
            "restart lag max ms"]
    lines = [_row(head), _row(["---"] * 3 + ["---:"] * (len(head) - 3))]
    for r in results:
        hold = r.hold.cells()[1:] if r.hold else ["–"] * (len(WINDOW_HEAD) - 1)
        a = r.audit
        lines.append(_row([f"({r.key}) {r.label}", f"{r.stored[0]:,} ({r.stored[1]:,})", f"{r.best:g}", *hold,
                           str(a.lost), str(a.doubled), f"{a.fired_twice} / {a.never_fired}", str(a.cut),
                           f"{r.ready_s:.1f}", "–" if r.start_lag_ms is None else f"{r.start_lag_ms:.0f}",
                           "–" if r.restart_s is None else f"{r.restart_s:.1f}",
                           "–" if r.restart_lag_ms is None else f"{r.restart_lag_ms:.0f}"]))
    return "\n".join(lines)


def ramp_table(results: list[ConfigResult]) -> str:
    head = ["configuration", "window", *WINDOW_HEAD, "unsent / unanswered / stuck"]
    lines = [_row(head), _row(["---"] * 2 + ["---:"] * (len(head) - 2))]
    for r in results:
        for w in [*r.ramp, *(x for x in (r.hold, r.kill) if x is not None)]:
            judged = w.name.startswith("ramp") and not w.ok()  # the step that ended the ramp
            lines.append(_row([f"({r.key})", f"{w.name} ({w.seconds:g} s)" + (" ✗" if judged else ""), *w.cells(),
                               f"{w.unsent} / {w.unanswered} / {w.stuck}"]))
    return "\n".join(lines)


def render(results: list[ConfigResult], opts: Options, build_s: float) -> str:
    out = [report_table(results), "", ramp_table(results), ""]
    out.append(f"Steps of {opts.step_s:g} s, hold {opts.hold_s:g} s, kill phase {opts.kill_s:g} s; {opts.tables} "
               f"tables moved in {opts.guilds} guilds over {SHARDS} shards; database built in {build_s:.0f} s "
               "(0: reused).")
    for r in results:
        out.append(f"({r.key}) prepared in {r.prepare_s:.0f} s"
                   + (" (db copy + ANALYZE, shared by (b) and (c))" if CONFIGS[r.key][2] == "postgres"
                      else " (SQLite backup copy)")
                   + (f"; refused {r.audit.refused}" if r.audit.refused else "")
                   + (f"; ERROR lines: {len(r.errors)} (first: {r.errors[0]})" if r.errors else ""))
        out += [f"  - {n}" for n in r.audit.notes[:5]]
    return "\n".join(out)


async def run_all(opts: Options) -> str:
    sqlite_path, build_s = await build_sqlite(opts)
    keys = [k for k in opts.configs if k in CONFIGS and (CONFIGS[k][2] == "sqlite" or opts.pg_url)]
    driver.START_WAIT = max(driver.START_WAIT, 300.0)  # a cold start on 100,000 games is measured, not refused
    # The copy into PostgreSQL (minutes for 100,000 games) runs while (a) does: noted with the figures.
    pg = (asyncio.ensure_future(asyncio.to_thread(pg_copy, sqlite_path, opts.pg_url))
          if any(CONFIGS[k][2] == "postgres" for k in keys) else None)
    results = []
    try:
        for k in keys:
            results.append(await run_config(k, opts, sqlite_path, pg))
            print(render(results[-1:], opts, build_s), file=sys.stderr, flush=True)  # kept if a later one fails
    finally:
        if pg is not None:
            drop_schema(opts.pg_url, (await pg)[0])
    skipped = [k for k in opts.configs if k not in keys]
    text = render(results, opts, build_s)
    if skipped:
        text += f"\nLeft out (no PostgreSQL: set FLOORBOARD_TEST_PG_URL or --pg-url): {', '.join(skipped)}"
    return text


def report(argv: list[str] | None = None) -> str:
    return asyncio.run(run_all(parse(argv or [])))


def parse(argv: list[str]) -> Options:
    p = argparse.ArgumentParser(prog="python -m tests.bench.bench_cluster", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="a few games, 20 s steps (the harness's own check)")
    p.add_argument("--configs", default="abc", help="which of a, b, c (default abc)")
    p.add_argument("--hold-minutes", type=float, default=None, help="the hold at the best rate (default 10)")
    p.add_argument("--step-seconds", type=float, default=None, help="each ramp step (default 60)")
    p.add_argument("--kill-seconds", type=float, default=None)
    p.add_argument("--rates", default="", help="the ramp's offered rates, comma-separated")
    p.add_argument("--tables", type=int, default=None)
    p.add_argument("--games", type=int, default=None)
    p.add_argument("--active", type=int, default=None)
    p.add_argument("--db", type=Path, default=None, help="the stored games' SQLite file (built once, reused)")
    p.add_argument("--pg-url", default=os.environ.get("FLOORBOARD_TEST_PG_URL", ""))
    a = p.parse_args(argv)
    kw: dict[str, Any] = {"configs": a.configs, "db": a.db, "pg_url": a.pg_url}
    for name, value in (("hold_s", None if a.hold_minutes is None else a.hold_minutes * 60),
                        ("step_s", a.step_seconds), ("kill_s", a.kill_seconds), ("tables", a.tables),
                        ("games", a.games), ("active", a.active)):
        if value is not None:
            kw[name] = value
    if a.rates:
        kw["rates"] = tuple(float(r) for r in a.rates.split(","))
    return Options.quick(**kw) if a.quick else Options(**kw)


if __name__ == "__main__":
    print(report(sys.argv[1:]))
