"""Fault campaign: the real bot process (``python bot.py``) against the Discord double, one fault per round.

Each round starts the bot on the same database, lets alice play 1–3 moves of her flying_blades game against two
bots through random doors (typed, ``!move``, ``/move``, the Pass button), then makes one more move with ONE fault,
the kinds in turn (round-robin):

- *SIGKILL* at a random moment, the variants in turn: right after sending the move (no wait), after a random
  0–300 ms, or while the move's board post is held by the double (`stall_next`); the bot is started again on the
  same database and the game must go on from where the log says. A fourth variant, not in the default rotation
  (``--at-ack``), kills once Discord has the move's interaction acknowledged: the double applies the callback and
  holds its answer (`stall_next(..., processed=True)`), so the moment between the acknowledgement and the move's
  commit is hit every time;
- a *429* (retry_after 0.1–0.5 s) on the next channel message post;
- a *500 or 502* on the next message post, or (for ``/move``) on its webhook call (the placeholder's removal);
- a *429* (retry_after 0.1–0.5 s) on the next interaction callback (the move goes by ``/move`` or the button);
- the gateway socket *dropped* (no close frame) just before the move or 0–300 ms after it.

A round ends with the bot SIGKILLed once everything is answered and the double has seen no request for 0.2 s (a
stop at a quiet moment, not a fault). After every round the game's log (the ``actions`` table, read-only) is checked
against what alice sent and what the double saw, and counted per fault:

- *lost*: a move whose interaction was answered (or that a post shows as played) but that is not in the log (a
  refusal with a reason is not a loss), or a move seen in the log earlier and missing later;
- *doubled*: an interaction or message id in the log twice, or a board image (named by table and move count)
  posted twice;
- *unanswered*: an interaction that never got its callback (or too late), a typed move ignored without a word;
- *cut by the kill*: the same, but sent to a process SIGKILLed before it answered: Discord shows the player a
  failed interaction (or nothing, for a typed move) and they try again; not a loss;
- *stuck*: the game did not come back to alice's turn with its latest board shown (or its result) within 10 s;
- the bot's ERROR / CRITICAL log lines.

A move in the log that no post ever shows is reported among the findings. ``-v`` prints one line per round: the
fault, the doors, each move's verdict and, for a kill, how far the bot had got with the move.

Random choices come from one seeded `random.Random`; every wait is bounded; every bot process is SIGKILLed at the
end whatever happens. Run: ``python -m tests.bench faults [--rounds 30]`` or
``python -m tests.bench.bench_faults [--rounds 30] [--seed 1] [--keep DIR] [--at-ack] [-v]``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import random
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.discord_double import DiscordDouble, Interaction, Stall
from tests.e2e.driver import DOORS, GAME, HUMAN_SEAT, BotProcess, Move, Table, TableRow, read_actions

ROUNDS, SEED = 30, 1
KILL, RATE_POST, SERVER_ERROR, RATE_CALLBACK, GATEWAY = "kill", "429 post", "5xx", "429 callback", "gateway drop"
KINDS = (KILL, RATE_POST, SERVER_ERROR, RATE_CALLBACK, GATEWAY)  # round-robin
AFTER_SEND, AFTER_DELAY, STALLED = "right after the send", "after 0–300 ms", "while the board post is stalled"
KILL_VARIANTS = (AFTER_SEND, AFTER_DELAY, STALLED)  # in turn, over the kill rounds
# Not in the default rotation: the moment between the interaction's acknowledgement and the move's commit, made
# wide by holding the callback's answer (Discord has applied it; the bot waits for the answer) and killing then.
AT_ACK = "once the interaction is acknowledged"
LABELS = {
    (KILL, AFTER_SEND): "SIGKILL right after sending a move",
    (KILL, AFTER_DELAY): "SIGKILL 0–300 ms after a move",
    (KILL, STALLED): "SIGKILL while the board post is stalled",
    (KILL, AT_ACK): "SIGKILL once the move's interaction is acknowledged",
    (RATE_POST, None): "429 on the next message post",
    (SERVER_ERROR, None): "500/502 on the next post or webhook call",
    (RATE_CALLBACK, None): "429 on the next interaction callback",
    (GATEWAY, None): "gateway socket dropped",
}
INTERACTION_DOORS = ("slash", "button")
SETTLE = 10.0  # seconds a move (with its fault, a restart included) may take to be answered and shown
QUIET, QUIET_LIMIT = 0.2, 3.0  # no request to the double for QUIET s (waited at most QUIET_LIMIT s)
MAX_DELAY = 0.3
LATE = "callback after"  # how the double words a callback refused for coming after 3 s
ALICE = "Alice"  # how the bot names her seat in its posts (her display name)
ERROR_LINE = re.compile(r"\b(ERROR|CRITICAL)\b")
Failed = pytest.fail.Exception  # what the driver's own waits raise (a BaseException)


def board_stem(name: str) -> str | None:
    """An image file's name without its extension (posts are WebP or PNG, by IMAGE_FORMAT); None for other files."""
    stem, _, ext = name.rpartition(".")
    return stem if ext in ("webp", "png") else None


class BotDied(Exception):
    """The bot exited without being killed by the campaign."""


class Stuck(Exception):
    """A bounded wait ran out."""


@dataclass
class Attempt:
    """One move of alice's as sent, and what became of it."""

    round: int
    label: str
    move: Move
    game_id: int
    channel_id: int
    marker: int  # len(double.sent) when it was sent
    faulted: bool
    killed: bool = False  # a SIGKILL hit the process it was sent to before the round settled
    seen_applied: bool = False
    missing_reported: bool = False
    verdict: str = ""  # applied | lost | unanswered | cut | refused

    def describe(self) -> str:
        kind = "interaction" if self.move.interaction is not None else "message"
        what = "the faulted move" if self.faulted else "a move before the fault"
        return (f"round {self.round + 1} ({self.label}), {what}: alice `{self.move.action}` by {self.move.door} "
                f"({kind} {self.move.source_id}) in table {self.game_id}")


@dataclass
class Tally:
    tried: int = 0
    lost: int = 0
    doubled: int = 0
    unanswered: int = 0
    cut: int = 0
    stuck: int = 0
    errors: int = 0

    def add(self, other: Tally) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))


@dataclass
class Round:
    index: int
    label: str
    sent_start: int
    interactions_start: int
    fault: str = ""  # what was injected, in words
    procs: list[BotProcess] = field(default_factory=list)
    seconds: float = 0.0


@dataclass
class Result:
    rounds: int
    seed: int
    tallies: dict[str, Tally]
    findings: list[str]
    notes: list[str]
    error_lines: list[str]
    wall_s: float
    processes: int
    moves: int
    games: int
    log: list[str] = field(default_factory=list)  # one line per round
    kill_stages: dict[str, int] = field(default_factory=dict)  # where the SIGKILLs landed in a move

    def total(self) -> Tally:
        out = Tally()
        for tally in self.tallies.values():
            out.add(tally)
        return out

    def markdown(self) -> str:
        lines = ["| fault | tried | lost | doubled | unanswered | cut by the kill | stuck | ERROR lines |",
                 "|---|---:|---:|---:|---:|---:|---:|---:|"]
        rows = [*self.tallies.items(), ("**total**", self.total())]
        for label, t in rows:
            lines.append(f"| {label} | {t.tried} | {t.lost} | {t.doubled} | {t.unanswered} | {t.cut} | {t.stuck} "
                         f"| {t.errors} |")
        lines.append("")
        lines.append(f"{self.rounds} rounds (seed {self.seed}): {self.moves} moves of alice's sent, {self.games} "
                     f"game(s), {self.processes} bot processes; total wall time {self.wall_s:.1f} s.")
        if self.kill_stages:
            lines.append("The SIGKILLs found the faulted move: "
                         + "; ".join(f"{stage} ×{n}" for stage, n in self.kill_stages.items()) + ".")
        if self.findings:
            lines += ["", "Findings:", *(f"- {f}" for f in self.findings)]
        if self.notes:
            lines += ["", "Notes:", *(f"- {n}" for n in self.notes)]
        if self.error_lines:
            lines += ["", "ERROR lines (first 10):", *(f"    {e}" for e in self.error_lines[:10])]
        return "\n".join(lines)


class Campaign:
    def __init__(self, double: DiscordDouble, workdir: Path, seed: int,
                 kill_variants: tuple[str, ...] = KILL_VARIANTS) -> None:
        self.kill_variants = kill_variants
        self.double = double
        self.workdir = workdir
        self.db = workdir / "floorboard.db"
        self.rng = random.Random(seed)
        self.seed = seed
        self.table = Table(double, None, self.db)  # type: ignore[arg-type]  # the bot comes with `launch`
        self.procs: list[BotProcess] = []
        self.killed: set[int] = set()  # ids of the processes the campaign SIGKILLed
        self.attempts: list[Attempt] = []
        self.rounds: list[Round] = []
        self.tallies = {label: Tally() for label in LABELS.values()}
        self.findings: list[str] = []
        self.notes: list[str] = []
        self.error_lines: list[str] = []
        self.games: set[int] = set()
        self.reported_ids: set[int] = set()
        self.reported_boards: set[str] = set()
        self.audited_interactions = 0
        self.stuck_tables: set[int] = set()
        self.kill_stages: Counter[str] = Counter()
        self.gapped: set[int] = set()

    # --- the bot -----------------------------------------------------------------------------------------

    @property
    def bot(self) -> BotProcess:
        return self.table.bot

    async def launch(self, rnd: Round) -> BotProcess:
        bot = BotProcess(self.double, self.db, self.workdir / f"bot-{len(self.procs) + 1:03d}.log")
        self.procs.append(bot)
        rnd.procs.append(bot)
        self.table.bot = bot
        await bot.start()  # bounded (driver.WAIT); a bot that cannot start ends the campaign
        return bot

    async def kill(self) -> None:
        bot = self.table.bot
        if bot is not None:
            self.killed.add(id(bot))
            await bot.kill()

    def alive(self) -> None:
        bot = self.table.bot
        if bot is not None and bot.proc is not None and bot.proc.returncode is not None and id(bot) not in self.killed:
            raise BotDied(f"the bot exited with code {bot.proc.returncode}:\n{bot.tail(15)}")

    async def poll(self, predicate: Callable[[], Any], timeout: float = SETTLE) -> bool:
        try:
            await self.double.wait_for(predicate, "", timeout, check=self.alive)
        except TimeoutError:
            return False
        return True

    async def quiet(self, rnd: Round) -> None:
        """Wait until the double has seen no request and sent nothing for `QUIET` s (at most `QUIET_LIMIT` s)."""
        d = self.double
        loop = asyncio.get_running_loop()
        deadline = loop.time() + QUIET_LIMIT
        last, since = (len(d.requests), len(d.sent)), loop.time()
        while loop.time() < deadline:
            await asyncio.sleep(0.05)
            self.alive()
            now = (len(d.requests), len(d.sent))
            if now != last:
                last, since = now, loop.time()
            elif loop.time() - since >= QUIET:
                return
        self.notes.append(f"round {rnd.index + 1}: the double never went quiet for {QUIET} s")

    # --- the game ----------------------------------------------------------------------------------------

    def row(self) -> TableRow | None:
        return self.table.row() if self.table.thread_id else None

    def shown(self) -> bool:
        """The game waits for alice (or is over) and shows it: the latest public board is of the current move
        count, and a post pinging alice (or the result with Rematch) came with it or after it."""
        row = self.row()
        if row is None or row.status not in ("active", "finished"):
            return False
        if row.status == "active" and row.to_move() != {HUMAN_SEAT}:
            return False
        d, thread = self.double, self.table.thread_id
        stem = f"{GAME}-{row.id}-{row.moves}"
        at = next((i for i in range(len(d.sent) - 1, -1, -1)
                   if d.sent[i].public and d.sent[i].channel_id == thread
                   and any(board_stem(n) == stem for n, _ in d.sent[i].files)), None)
        if at is None:
            return False
        return any(s.public and s.channel_id == thread
                   and (self.table.alice in s.pinged or "rematch" in json.dumps(s.components))
                   for s in d.sent[at:])

    async def ready(self, rnd: Round) -> None:
        """Alice's turn in a running game: a new game (Rematch, or /play when there is no result to rematch)
        when the last one is over; wait for a restarted bot to finish what the last process left. A game that
        does not come back is counted stuck (once) and left for a new one."""
        row = self.row()
        if row is not None and row.status == "active":
            if await self.poll(self.shown):
                return
            if row.id not in self.stuck_tables:
                self.stuck_tables.add(row.id)
                self.tallies[rnd.label].stuck += 1
                self.findings.append(f"round {rnd.index + 1}: stuck: table {row.id} does not come back to alice's "
                                     f"turn after a restart (seats to move {sorted(row.to_move())}, move {row.moves})")
        if row is not None and row.status == "finished" and self.double.with_button("Rematch", self.table.thread_id):
            await self.rematch(row)
        else:
            await self.open()
        row = self.row()
        assert row is not None and row.status == "active", row
        self.games.add(row.id)

    async def open(self) -> None:
        """/play in #general: a new thread, Add bot twice, Start (`Table.open`, for a second thread too)."""
        d, table = self.double, self.table
        threads = len(d.threads)
        await table.answered(d.slash("play", "alice", game=GAME, options="cards=none"))
        await self.bot.wait(lambda: len(d.threads) > threads, "the game's thread")
        table.thread_id = d.threads[-1]
        await table.seat_bots_and_start(2)

    async def rematch(self, old: TableRow) -> None:
        d, thread = self.double, self.table.thread_id
        final = d.with_button("Rematch", thread)
        assert final is not None
        await self.table.answered(d.click(final, "Rematch"))

        def lobby() -> TableRow | None:
            row = self.row()
            return row if row is not None and row.id != old.id and row.status == "lobby" else None

        new = await self.bot.wait(lobby, "a new lobby from Rematch")
        start = f"{GAME}:lobby:start:{new.id}:"

        def start_message() -> Any:
            return next((m for m in reversed(d.in_channel(thread))
                         if any(c.startswith(start) for c in m.custom_ids())), None)

        message = await self.bot.wait(start_message, "the rematch lobby with its Start button")
        marker = len(d.sent)
        await self.table.answered(d.click(message, "Start"))
        await self.table.settled(marker, None)

    def send(self, rnd: Round, door: str, *, faulted: bool) -> Attempt:
        row = self.row()
        assert row is not None
        action = self.table.choose(door)
        marker = len(self.double.sent)
        move = self.table.send(action, door)
        attempt = Attempt(rnd.index, rnd.label, move, row.id, self.table.thread_id, marker, faulted)
        self.attempts.append(attempt)
        return attempt

    async def settle(self, attempt: Attempt, moves_before: int) -> None:
        """The move answered, saved and posted (else the audit says why); then the game shown at alice's turn."""
        inter = attempt.move.interaction
        await self.poll(lambda: (inter is None or inter.answered)
                        and self.table.answered_since(attempt.marker, moves_before))
        if not await self.poll(self.shown):
            row = self.row()
            raise Stuck(f"after {attempt.describe()}: the game is not shown at alice's turn within {SETTLE:.0f} s "
                        f"(table {row.id if row else '?'}, status {row.status if row else '?'}, move "
                        f"{row.moves if row else '?'}, seats to move {sorted(row.to_move()) if row else '?'})")

    async def clean_move(self, rnd: Round) -> None:
        await self.ready(rnd)
        row = self.row()
        assert row is not None
        await self.settle(self.send(rnd, self.rng.choice(DOORS), faulted=False), row.moves)

    # --- one round -----------------------------------------------------------------------------------------

    async def faulted_move(self, rnd: Round, kind: str, variant: str | None) -> None:
        d, rng = self.double, self.rng
        await self.ready(rnd)
        row = self.row()
        assert row is not None
        doors: tuple[str, ...] = INTERACTION_DOORS if kind == RATE_CALLBACK or variant == AT_ACK else DOORS
        door = rng.choice(doors)
        if kind == KILL:
            await self.kill_round(rnd, variant or AFTER_SEND, door, row)
            return
        if kind == RATE_POST:
            retry = round(rng.uniform(0.1, 0.5), 2)
            d.fail_next(429, retry_after=retry)
            rnd.fault = f"429 retry_after {retry} on post_message, move by {door}"
        elif kind == SERVER_ERROR:
            status = rng.choice((500, 502))
            route = rng.choice(("post_message", "delete_webhook_message")) if door == "slash" else "post_message"
            d.fail_next(status, route=route)
            rnd.fault = f"{status} on {route}, move by {door}"
        elif kind == RATE_CALLBACK:
            retry = round(rng.uniform(0.1, 0.5), 2)
            d.fail_next(429, route="callback", retry_after=retry)
            rnd.fault = f"429 retry_after {retry} on callback, move by {door}"
        served = len(d.faults_served)
        if kind == GATEWAY:
            delay = None if rng.random() < 0.5 else round(rng.uniform(0, MAX_DELAY), 3)
            rnd.fault = (f"gateway dropped {'before the move' if delay is None else f'{delay * 1000:.0f} ms after it'}"
                         f", move by {door}")
            if delay is None:
                d.drop_gateway()
            attempt = self.send(rnd, door, faulted=True)
            if delay is not None:
                await asyncio.sleep(delay)
                if d.live is not None:
                    d.drop_gateway()
                else:
                    self.notes.append(f"round {rnd.index + 1}: no live gateway socket to drop after {delay} s")
        else:
            attempt = self.send(rnd, door, faulted=True)
        try:
            await self.settle(attempt, row.moves)
            await self.quiet(rnd)  # a webhook call (the /move placeholder's removal) may come after the last post
        finally:
            if kind != GATEWAY and len(d.faults_served) == served:
                self.notes.append(f"round {rnd.index + 1} ({rnd.fault}): the fault was never served")
            d.faults.clear()

    def stage(self, attempt: Attempt, moves_before: int) -> str:
        """How far the bot had got with a move when it was killed (read from the log and the double)."""
        inter = attempt.move.interaction
        applied = attempt.move.source_id in {a.interaction_id for a in self.player_rows()}
        posted = any(s.public and s.channel_id == self.table.thread_id and s.pngs()
                     for s in self.double.sent[attempt.marker:])
        if self.table.answered_since(attempt.marker, moves_before):
            return "done (saved, posted, alice pinged)"
        if applied:
            return "saved, its posts under way" if posted else "saved, nothing posted yet"
        if inter is not None and inter.answered:
            return "acknowledged, not saved yet"
        return "not received or not acted on yet"

    async def kill_round(self, rnd: Round, variant: str, door: str, row: TableRow) -> None:
        d = self.double
        stall: Stall | None = (d.stall_next("post_message") if variant == STALLED
                               else d.stall_next("callback", processed=True) if variant == AT_ACK else None)
        delay = round(self.rng.uniform(0, MAX_DELAY), 3) if variant == AFTER_DELAY else 0.0
        when = f"{variant} ({delay * 1000:.0f} ms)" if variant == AFTER_DELAY else variant
        rnd.fault = f"SIGKILL {when}, move by {door}"
        attempt = self.send(rnd, door, faulted=True)
        try:
            if variant == AFTER_SEND:
                await asyncio.sleep(0)
            elif variant == AFTER_DELAY:
                await asyncio.sleep(delay)
            elif stall is not None and not await self.poll(stall.arrived.is_set):
                self.notes.append(f"round {rnd.index + 1}: the {stall.route} request never came to be stalled")
        finally:
            await self.kill()
            attempt.killed = True  # the moves before it were settled: it is the only one in flight
            stage = self.stage(attempt, row.moves)
            self.kill_stages[stage] += 1
            rnd.fault += f"; it found the move {stage}"
            if stall is not None:
                stall.release()
                if stall in d.stalls and not stall.arrived.is_set():
                    d.stalls.remove(stall)
        await self.launch(rnd)
        if not await self.poll(self.shown):
            now = self.row()
            raise Stuck(f"after the restart: {attempt.describe()}: the game is not shown at alice's turn within "
                        f"{SETTLE:.0f} s (status {now.status if now else '?'}, move {now.moves if now else '?'}, "
                        f"seats to move {sorted(now.to_move()) if now else '?'})")

    async def play_round(self, index: int, kind: str, variant: str | None) -> None:
        d = self.double
        rnd = Round(index, LABELS[(kind, variant)], len(d.sent), len(d.interactions))
        started = time.monotonic()
        self.rounds.append(rnd)
        self.tallies[rnd.label].tried += 1
        try:
            await self.launch(rnd)
            for _ in range(self.rng.randint(1, 3)):
                await self.clean_move(rnd)
            await self.faulted_move(rnd, kind, variant)
            if kind == KILL:
                await self.quiet(rnd)
        except (Exception, Failed) as e:
            row = self.row()
            if row is not None:
                self.stuck_tables.add(row.id)
            self.tallies[rnd.label].stuck += 1
            self.findings.append(f"round {index + 1} ({rnd.fault or rnd.label}): stuck: {type(e).__name__}: "
                                 f"{str(e).strip()[:600]}")
        finally:
            await self.kill()  # the end of the round: a stop at a quiet moment (or after the failure)
            for stall in d.stalls:
                stall.abandoned = True
                stall.release()
            d.faults.clear()
        self.audit(rnd)
        rnd.seconds = time.monotonic() - started

    def round_lines(self) -> list[str]:
        lines = []
        for rnd in self.rounds:
            moves = ", ".join(f"{a.move.door} `{a.move.action}` {a.verdict}{' (faulted)' if a.faulted else ''}"
                              for a in self.attempts if a.round == rnd.index)
            lines.append(f"round {rnd.index + 1:>2} {rnd.seconds:4.1f} s, {len(rnd.procs)} process(es): "
                         f"{rnd.fault or rnd.label}: {moves}")
        return lines

    # --- the audit ----------------------------------------------------------------------------------------

    def player_rows(self) -> list[Any]:
        return [a for gid in sorted(self.games | {t.game_id for t in self.attempts})
                for a in read_actions(self.db, gid) if a.source == "player"]

    def round_of_sent(self, index: int) -> Round:
        return next(r for r in reversed(self.rounds) if r.sent_start <= index)

    def audit(self, rnd: Round) -> None:
        rows = self.player_rows()
        ids = Counter(a.interaction_id for a in rows)
        actions = {a.interaction_id: a.action for a in rows}
        by_id = {a.move.source_id: a for a in self.attempts}
        for iid, n in ids.items():  # an id applied twice
            if n > 1 and iid not in self.reported_ids:
                self.reported_ids.add(iid)
                owner = by_id.get(iid)
                label = owner.label if owner is not None else rnd.label
                self.tallies[label].doubled += 1
                self.findings.append(f"doubled: id {iid} is in the actions log {n} times"
                                     + (f" ({owner.describe()})" if owner else ""))
        for gid in sorted(self.games | {t.game_id for t in self.attempts}):
            self.check_sequence(gid)
        for attempt in self.attempts:
            applied = attempt.move.source_id in ids
            if attempt.seen_applied and not applied and not attempt.missing_reported:
                attempt.missing_reported = True
                self.tallies[attempt.label].lost += 1
                self.findings.append(f"lost: {attempt.describe()} was in the actions log and is gone after "
                                     f"round {rnd.index + 1}")
            if applied:
                attempt.seen_applied = True
                if actions[attempt.move.source_id] != attempt.move.action and not attempt.verdict:
                    self.notes.append(f"{attempt.describe()} is logged as `{actions[attempt.move.source_id]}`")
            if attempt.round == rnd.index and not attempt.verdict:
                self.classify(attempt, applied)
        self.check_boards()
        self.check_other_interactions(rnd)
        for bot in rnd.procs:
            lines = [line for line in bot.log().splitlines() if ERROR_LINE.search(line)]
            self.tallies[rnd.label].errors += len(lines)
            self.error_lines += [f"round {rnd.index + 1} ({bot.log_path.name}): {line}" for line in lines]

    def check_sequence(self, gid: int) -> None:
        rows = read_actions(self.db, gid)
        if [a.seq for a in rows] != list(range(1, len(rows) + 1)) and gid not in self.gapped:
            self.gapped.add(gid)
            self.notes.append(f"table {gid}: the actions' seqs are not 1..{len(rows)}: {[a.seq for a in rows]}")

    def described(self, attempt: Attempt) -> bool:
        """A public post in the game's channel since the move shows it as alice's (its own line, or the list
        of moves a restart posts)."""
        action = attempt.move.action
        needles = [f"`{action}`", *(["passes"] if action == "pass" else [])]
        return any(s.public and s.channel_id == attempt.channel_id
                   and any(ALICE in line and any(n in line for n in needles) for line in s.text.splitlines())
                   for s in self.double.sent[attempt.marker:])

    def refusal(self, attempt: Attempt) -> str | None:
        """The bot's private or replied refusal of a move (a reason given to alice), if any."""
        sid = attempt.move.source_id
        for s in self.double.sent[attempt.marker:]:
            if (s.interaction_id == sid and s.kind in ("response", "followup") and s.ephemeral) or s.reference == sid:
                return s.text[:120]
        return None

    def classify(self, attempt: Attempt, applied: bool) -> None:
        inter: Interaction | None = attempt.move.interaction
        tally = self.tallies[attempt.label]
        late = [r for r in (inter.refused if inter is not None else []) if r.startswith(LATE)]
        if inter is not None and not inter.answered:
            attempt.verdict = "cut" if attempt.killed else "unanswered"
            if attempt.killed:
                tally.cut += 1
            else:
                tally.unanswered += 1
                self.findings.append(f"unanswered: {attempt.describe()}: no callback{f' ({late})' if late else ''}; "
                                     f"{'applied' if applied else 'not applied'}")
            return
        shown = self.described(attempt)
        if applied:
            attempt.verdict = "applied"
            if late:
                self.notes.append(f"{attempt.describe()}: refused callbacks {late}")
            if not shown:
                self.findings.append(f"not shown: {attempt.describe()} is in the actions log but no post in the "
                                     "channel shows it")
            return
        refused = self.refusal(attempt)
        if refused is not None:
            attempt.verdict = "refused"
            self.notes.append(f"refused: {attempt.describe()}: \u201c{refused}\u201d")
            return
        if inter is not None or shown:  # acknowledged (or shown), not applied, no reason given: gone
            attempt.verdict = "lost"
            tally.lost += 1
            answer = (f"the interaction got callback type(s) {[k for k, _ in inter.callbacks]}" if inter is not None
                      else "the bot posted it as played")
            self.findings.append(
                f"lost: {attempt.describe()}: {answer} "
                f"({'the process was SIGKILLed after that' if attempt.killed else 'no kill'}) but no actions row "
                f"carries its id{'' if shown else ', and no post shows it'}")
            return
        attempt.verdict = "cut" if attempt.killed else "unanswered"
        if attempt.killed:
            tally.cut += 1
        else:
            tally.unanswered += 1
            self.findings.append(f"unanswered: {attempt.describe()}: not applied and no reply (ignored)")

    def check_boards(self) -> None:
        """A board image (``flying_blades-<table>-<moves>.webp`` or ``.png``) posted publicly twice: the same move
        shown twice."""
        first: dict[str, int] = {}
        counts: Counter[str] = Counter()
        for i, s in enumerate(self.double.sent):
            if not s.public:
                continue
            for name, _ in s.files:
                stem = board_stem(name)
                if stem is not None and not stem.endswith("-private"):
                    counts[stem] += 1
                    first.setdefault(stem, i)
        for name, n in counts.items():
            if n > 1 and name not in self.reported_boards:
                self.reported_boards.add(name)
                owner = self.round_of_sent(first[name])
                self.tallies[owner.label].doubled += 1
                self.findings.append(f"doubled: the board {name} was posted {n} times (first in round "
                                     f"{owner.index + 1}, {owner.fault})")

    def check_other_interactions(self, rnd: Round) -> None:
        """Interactions that are not alice's moves (/play, Add bot, Start, Rematch): answered once, in time."""
        mine = {a.move.source_id for a in self.attempts}
        inters = list(self.double.interactions.values())
        for inter in inters[self.audited_interactions:]:
            if inter.id not in mine and not inter.answered:
                self.tallies[rnd.label].unanswered += 1
                what = inter.data.get("name") or inter.data.get("custom_id")
                self.findings.append(f"unanswered: round {rnd.index + 1}: {what} (interaction {inter.id}) "
                                     f"{inter.refused}")
            twice = [r for r in inter.refused if not r.startswith(LATE)]
            if twice:
                self.notes.append(f"round {rnd.index + 1}: interaction {inter.id} answered twice: {twice}")
        self.audited_interactions = len(inters)


def killed_client(record: logging.LogRecord) -> bool:
    """aiohttp's "Error handling request" for a request whose client (the bot) was SIGKILLed mid-upload: expected
    here, not worth a traceback on the terminal (any other error of the double's server still shows)."""
    return not (record.exc_info and isinstance(record.exc_info[1], ConnectionError))


def kind_of_round(index: int, kill_variants: tuple[str, ...] = KILL_VARIANTS) -> tuple[str, str | None]:
    kind = KINDS[index % len(KINDS)]
    variant = kill_variants[(index // len(KINDS)) % len(kill_variants)] if kind == KILL else None
    return kind, variant


async def run_campaign(rounds: int = ROUNDS, seed: int = SEED, workdir: Path | None = None,
                       kill_variants: tuple[str, ...] = KILL_VARIANTS) -> Result:
    """Run the campaign in ``workdir`` (the database and one log per bot process; a temporary one by default);
    the kill rounds take ``kill_variants`` in turn."""
    with contextlib.ExitStack() as stack:
        if workdir is None:
            workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="floorboard-faults-")))
        workdir.mkdir(parents=True, exist_ok=True)
        start = time.monotonic()
        server_log = logging.getLogger("aiohttp.server")
        server_log.addFilter(killed_client)
        stack.callback(server_log.removeFilter, killed_client)
        double = await DiscordDouble().start()
        campaign = Campaign(double, workdir, seed, kill_variants)
        try:
            for index in range(rounds):
                await campaign.play_round(index, *kind_of_round(index, kill_variants))
        finally:
            for bot in campaign.procs:
                await bot.kill()
            await double.stop()
        unknown = [f"the double got an unknown route: {u}" for u in double.unknown]
        violations = [f"rate limit exceeded: {v}" for v in double.rate_limit_violations]
        return Result(rounds, seed, {k: v for k, v in campaign.tallies.items() if v.tried}, campaign.findings,
                      campaign.notes + unknown + violations, campaign.error_lines, time.monotonic() - start,
                      len(campaign.procs), len(campaign.attempts), len(campaign.games), campaign.round_lines(),
                      dict(campaign.kill_stages))


def report(rounds: int = ROUNDS, seed: int = SEED, keep: Path | None = None, verbose: bool = False,
           kill_variants: tuple[str, ...] = KILL_VARIANTS) -> str:
    result = asyncio.run(run_campaign(rounds, seed, keep, kill_variants))
    return result.markdown() + ("\n\n" + "\n".join(result.log) if verbose else "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.bench_faults", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=ROUNDS, help=f"rounds, one fault each (default {ROUNDS})")
    parser.add_argument("--seed", type=int, default=SEED, help=f"seed of the random choices (default {SEED})")
    parser.add_argument("--keep", type=Path, help="keep the database and the bot logs in this directory")
    parser.add_argument("-v", "--verbose", action="store_true", help="print one line per round after the table")
    parser.add_argument("--at-ack", action="store_true",
                        help="every kill round kills once the move's interaction is acknowledged (its answer held)")
    args = parser.parse_args(argv)
    print(report(args.rounds, args.seed, args.keep, args.verbose, (AT_ACK,) if args.at_ack else KILL_VARIANTS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
