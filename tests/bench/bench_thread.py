"""``python -m tests.bench thread``: how noisy a game thread is. Whole games through the offline Discord harness
(real discord.py paths), one human against bots: public messages, images (count and bytes), messages that ping,
and edits, per human move (Night of the 27 Ninja) or per round (Floor Plan). Counts, not times: the same seed
gives the same figures on any machine.
"""

from __future__ import annotations

import asyncio
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import FakeClock
from tests.discord_harness import Harness, Sent, start_table, table_of

MAX_STEPS = 400


@dataclass
class Tally:
    label: str
    steps: int = 0  # human moves (or rounds)
    messages: int = 0
    images: int = 0
    image_bytes: int = 0
    pinging: int = 0
    edits: int = 0

    def add(self, sent: list[Sent], edits: int = 0) -> None:
        self.edits += edits  # edits of earlier messages (buttons taken away, status), the harness keeps apart
        for s in sent:
            if s.kind == "edit" or s.kind == "update":
                self.edits += 1
            elif s.public:
                self.messages += 1
                self.pinging += bool(s.pinged)
                pngs = s.pngs()
                self.images += len(pngs)
                self.image_bytes += sum(len(p) for p in pngs)

    def row(self) -> str:
        n = max(self.steps, 1)
        return (f"| {self.label} | {self.steps} | {self.messages / n:.2f} | {self.images / n:.2f} | "
                f"{self.image_bytes / n / 1024:.0f} KB | {self.pinging / n:.2f} | {self.edits / n:.2f} | "
                f"{self.image_bytes / 1024 / 1024:.1f} MB |")


def choose(table: Any, seat: int) -> str:
    legal = table.rules.legal_actions(table.state, seat)
    attacks = [a for a in legal if a.startswith("attack")]
    return attacks[len(attacks) // 2] if attacks else "pass"


async def with_harness(work: Any) -> Tally:
    monkeypatch = pytest.MonkeyPatch()
    with tempfile.TemporaryDirectory() as tmp:
        monkeypatch.chdir(tmp)
        h = await Harness(Path(tmp) / "bench.db", now=FakeClock()).start(monkeypatch)
        try:
            return await work(h)
        finally:
            await h.close()
            monkeypatch.undo()


def flying_blades(bots: int, label: str) -> Any:
    async def work(h: Harness) -> Tally:
        tally = Tally(label)
        channel_id = await start_table(h, "alice", bots=bots)
        for _ in range(MAX_STEPS):
            table = await table_of(h, channel_id) if await h.bot.engine.table_in_channel(channel_id) else None
            if table is None or table.status != "active":
                break
            tally.steps += 1
            edits = len(h.edits)
            sent = await h.slash("move", "alice", channel_id, action=choose(table, 0))
            tally.add(sent, len(h.edits) - edits)
        return tally
    return work


def floor_plan(bots: int, label: str) -> Any:
    async def work(h: Harness) -> Tally:
        tally = Tally(label)
        await h.slash("play", "alice", game="floor_plan")
        lobby = h.with_button(":lobby:join:")
        for _ in range(bots):
            await h.click(lobby, ":lobby:bot:", "alice")
        await h.click(lobby, ":lobby:start:", "alice")
        channel_id = lobby.channel_id
        for _ in range(MAX_STEPS):
            table = await table_of(h, channel_id) if await h.bot.engine.table_in_channel(channel_id) else None
            if table is None or table.status != "active":
                break
            tally.steps += 1
            action = table.rules.bot_action(table.state, 0)
            shown = (await h.slash("move", "alice", channel_id, action=action))[-1]
            if "Confirm" in shown.labels():
                edits = len(h.edits)
                sent = await h.click(shown, "Confirm", "alice")
                tally.add(sent, len(h.edits) - edits)
        return tally
    return work


CASES = (
    (flying_blades(2, "Night of the 27 Ninja, House: 1 human + 2 bots, per human move")),
    (flying_blades(4, "Night of the 27 Ninja, Temple: 1 human + 4 bots, per human move")),
    (floor_plan(2, "Floor Plan: 1 human + 2 bots, per round")),
)


def report() -> str:
    lines = ["| game | moves | messages | images | image bytes | pinging | edits | images in all |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for work in CASES:
        lines.append(asyncio.run(with_harness(work)).row())
    return "\n".join(lines)


if __name__ == "__main__":
    print(report())
