"""Two real bot processes on one PostgreSQL database, each holding one of two gateway shards (docs/operations.md,
"Running several processes"): one is SIGKILLed in the middle of a move and of firing a deadline, the other plays
on, the killed one is started again and finishes the move. Nothing is lost or doubled, every deadline fires once
(one that fell due while its process was dead at the restart, one the killed process had claimed once its lease
ends), and no process posts in a server whose shard it does not hold.

The turn clocks are an hour long and the test makes a timeout due by moving its row's ``due_at`` into the past
(the clock running out, without waiting a minute — the shortest clock a game offers); the processes' schedulers
look every half second (TICK_SECONDS), so the row is claimed and fired by whichever process may fire it.
Skipped without a PostgreSQL server (FLOORBOARD_TEST_PG_URL), failing under CI=true (tests/storage/backends.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import pytest

from i18n import t
from tests.e2e.discord_double import DiscordDouble, Sent
from tests.e2e.driver import HUMAN_SEAT, BotProcess, PgReader, Table, query, read_actions
from tests.storage.backends import fresh_database

pytestmark = pytest.mark.e2e

SHARDS = 2
OPTIONS = "cards=none turn_minutes=60"  # no clock falls due by itself: the test makes the timeouts due
LEASE_SECONDS = 3  # a killed process's claims on deadlines last this long (60 s by default)


@dataclass
class Cluster:
    """The double (two guilds, one per shard), the database and the bot processes started on it."""

    double: DiscordDouble
    db: PgReader
    url: str
    tmp: Path
    started: list[BotProcess] = field(default_factory=list)

    async def launch(self, shard: int, tag: str) -> BotProcess:
        """``python bot.py`` holding ``shard`` of SHARDS (the holder of shard 0 syncs the slash commands)."""
        extra = {"DATABASE_URL": self.url, "SHARD_COUNT": str(SHARDS), "SHARD_IDS": str(shard),
                 "DEV_GUILD_ID": "",  # global commands: both guilds have them
                 # Images in threads: two processes and their render pools would be six on two cores, and a
                 # start waits for its pool's forkserver to import every renderer (~10 s more on a busy machine).
                 # The pools are tested apart: tests/cogs/test_discord_render_pool.py, test_render_pool*.py.
                 "TICK_SECONDS": "0.5", "RENDER_WORKERS": "0", "DEADLINE_LEASE_SECONDS": str(LEASE_SECONDS)}
        bot = BotProcess(self.double, self.tmp / "unused.db", self.tmp / f"{tag}.log", tag=tag, extra=extra)
        self.started.append(bot)
        return await bot.start()

    def table(self, bot: BotProcess, guild: int) -> Table:
        return Table(self.double, bot, self.db, channel_id=self.double.guilds[guild].channel_id)

    def posts_in_guild(self, guild: int, since: int = 0) -> list[Sent]:
        gid = self.double.guilds[guild].id
        return [s for s in self.double.sent[since:] if self.double.guild_of(s.channel_id) == gid]

    def claim_until(self, table: Table) -> datetime | None:
        """Until when a process's claim on alice's timeout at ``table`` lasts (None: unclaimed, or no row)."""
        rows = query(self.db, "SELECT claim_until FROM deadlines WHERE kind = 'turn_timeout' AND seat = ? "
                              "AND game_id = ?", HUMAN_SEAT, table.row().id)  # type: ignore[union-attr]
        return rows[0][0] if rows else None

    def timer_moved_at(self, table: Table) -> datetime:
        rows = query(self.db, "SELECT created_at FROM actions WHERE source = 'timer' AND game_id = ?",
                     table.row().id)  # type: ignore[union-attr]
        return rows[0][0]

    @contextmanager
    def row_locked(self, table: Table) -> Iterator[None]:
        """``table``'s game row locked by another connection (as a slow writer would), until the block ends."""
        locker = PgReader(self.url)
        try:
            locker.execute("BEGIN")
            locker.rows("SELECT id FROM games WHERE id = $1 FOR UPDATE", table.row().id)  # type: ignore[union-attr]
            yield
        finally:
            locker.execute("ROLLBACK")
            locker.close()

    def make_timeouts_due(self, *tables: Table) -> None:
        """Alice's turn clock runs out now at each of ``tables`` (one statement: all due at once)."""
        ids = [table.row().id for table in tables]  # type: ignore[union-attr]
        moved = query(self.db, "UPDATE deadlines SET due_at = now() - interval '1 second' WHERE kind = "
                               "'turn_timeout' AND seat = ? AND game_id = ANY(?::bigint[]) RETURNING game_id",
                      HUMAN_SEAT, ids)
        assert sorted(r[0] for r in moved) == sorted(ids), "alice's clock is not running at every table"


@pytest.fixture
async def cluster(tmp_path: Path) -> AsyncIterator[Cluster]:
    async with fresh_database("postgres", tmp_path) as url:
        double = await DiscordDouble(guilds=2, shards=SHARDS).start()
        db = PgReader(url)
        c = Cluster(double, db, url, tmp_path)
        try:
            yield c
        finally:
            for bot in c.started:
                await bot.kill()
            db.close()
            await double.stop()


def timer_moves(table: Table) -> list[int]:
    row = table.row()
    assert row is not None
    return [a.seat for a in read_actions(table.db, row.id) if a.source == "timer"]


def pause_notices(table: Table) -> int:
    """How often the thread was told the game is paused: once per timeout here (alice is its only human)."""
    text = t("lobby.policy.pause", "en")
    return sum(1 for s in table.double.sent if s.channel_id == table.thread_id and s.content == text)


def boards_shown(table: Table) -> list[int]:
    """The move counts the thread's board images show, in the order they were posted."""
    posts = [s for s in table.double.sent if s.public and s.channel_id == table.thread_id]
    return [int(name.rsplit("-", 1)[1].partition(".")[0]) for s in posts for name, _ in s.files
            if name.endswith((".png", ".webp"))]


async def caught_up(table: Table, what: str) -> None:
    """Alice is to move and the last board posted shows every move saved (the bots' too)."""
    def done() -> bool:
        row, shown = table.row(), boards_shown(table)
        return row is not None and row.to_move() == {HUMAN_SEAT} and bool(shown) and shown[-1] == row.moves

    await table.bot.wait(done, what)


async def test_two_processes_one_killed_mid_move_lose_and_double_nothing(cluster: Cluster) -> None:
    double = cluster.double
    assert [(g.id >> 22) % SHARDS for g in double.guilds] == [0, 1], "guild 0 on shard 0, guild 1 on shard 1"
    first, second = await asyncio.gather(cluster.launch(0, "p0"), cluster.launch(1, "p1"))
    assert double.syncs == 1, "only the holder of shard 0 syncs the slash commands"
    assert sorted((i["by"], tuple(i["shard"])) for i in double.identifies) == [("p0", (0, 2)), ("p1", (1, 2))]

    # Guild 0 is first's: a. Guild 1 is second's: b (killed mid-move), b2 (its timeout claimed by the process
    # when it is killed), b3 (its timeout falls due while the process is dead).
    a = cluster.table(first, 0)
    b, b2, b3 = (cluster.table(second, 1) for _ in range(3))
    await asyncio.gather(a.open(options=OPTIONS), b.open(options=OPTIONS))
    for table in (b2, b3):  # one at a time: each /play's thread is the next one in #general
        await table.open(options=OPTIONS)
    await asyncio.gather(a.move("typed"), b.move("slash"))

    # b2's clock runs out while its game row is locked (a slow write): second claims the timeout and waits.
    with cluster.row_locked(b2):
        cluster.make_timeouts_due(b2)
        await second.wait(lambda: cluster.claim_until(b2) is not None, "the second process to claim b2's timeout")
        # Discord sits on the board post of alice's move in b while the process is SIGKILLed.
        row = b.row()
        assert row is not None
        stall = double.stall_next("post_message")
        move = b.send(b.choose("typed"), "typed")
        b.moves.append(move)
        await second.wait(lambda: stall.arrived.is_set(), "the bot to post the board of alice's move")
        saved = [x for x in read_actions(b.db, row.id) if x.source == "player"]
        assert saved[-1].interaction_id == move.source_id, "the move is saved before it is posted"
        await second.kill()
        stall.release()
    dead_from = len(double.sent)
    lease_end = cluster.claim_until(b2)
    assert lease_end is not None and timer_moves(b2) == [], "b2's timeout is claimed, not fired"

    # The survivor fires its own guild's timeout, not the dead process's (all due in the same instant) ...
    cluster.make_timeouts_due(a, b3)
    await first.wait(lambda: timer_moves(a) == [HUMAN_SEAT], "the first process to fire guild 0's timeout")
    await caught_up(a, "the bots to play after the timeout")
    assert timer_moves(b3) == [], "a deadline of the dead process's guild was fired by the survivor"
    # ... and plays on.
    await a.move("button")
    await a.move("prefix")
    assert cluster.posts_in_guild(1, dead_from) == [], "the survivor posted in the dead process's guild"

    second = await cluster.launch(1, "p1-again")
    b.bot = b2.bot = b3.bot = second
    await caught_up(b, "the restarted process to finish the interrupted move")
    await second.wait(lambda: timer_moves(b3) == [HUMAN_SEAT], "the restarted process to fire b3's timeout")
    await second.wait(lambda: timer_moves(b2) == [HUMAN_SEAT], "the killed claim on b2's timeout to end")
    assert cluster.timer_moved_at(b2) >= lease_end, "the killed process's claim was taken before its lease ended"
    for table in (b3, b2):
        await caught_up(table, "the bots to play after the timeout")
    await asyncio.gather(b.move("button"), a.move("slash"), b2.move("typed"), b3.move("prefix"))
    await asyncio.gather(a.play(), b.play())  # both games to their results, each in its own process

    # Every move once (actions and boards), every timeout once, every post from the shard's holder.
    tables = (a, b, b2, b3)
    for table in tables:
        actions = table.check_actions()
        table.check_boards(actions)
    for table in (a, b):
        await table.check_result()
    assert [timer_moves(x) for x in tables] == [[HUMAN_SEAT], [], [HUMAN_SEAT], [HUMAN_SEAT]]
    assert [pause_notices(x) for x in tables] == [1, 0, 1, 1], "a timeout announced twice or never"
    assert query(cluster.db, "SELECT count(*) FROM deadlines WHERE due_at <= now()") == [(0,)]
    assert {s.by for s in cluster.posts_in_guild(0)} == {"p0"}
    assert {s.by for s in cluster.posts_in_guild(1)} == {"p1", "p1-again"}
    assert double.syncs == 1, "the restarted process (not shard 0's) did not sync"
    assert double.problems() == []
    for bot in cluster.started:
        assert bot.errors() == [], bot.log_path
