"""Names people can fake: a human nicknamed "Bot 1" never looks like the bot in seat 3, in the status message nor in
the board image's names; "Alice", "Аlice" (a Cyrillic А) and "Al\u200bice" (a zero-width space) at one table come
out as three different names."""

from __future__ import annotations

from typing import Any

import pytest
from discord.ext.test import backend as back

from cogs.utils.surface import surface_for
from cogs.utils.text import BOT_MARK, seat_names, skeleton
from engine.tables import SeatInfo
from tests.discord_harness import Harness, open_table, table_of

CYRILLIC_ALICE = "\u0410lice"
HIDDEN_ALICE = "Al\u200bice"


def rename(h: Harness, user: str, nick: str) -> None:
    h.members[user] = back.update_member(h.members[user], nick=nick)


async def started(h: Harness, monkeypatch: pytest.MonkeyPatch, joiners: list[str], bots: int) -> tuple[Any, list]:
    """A started Night of the 27 Ninja game (no cards to keep); returns its table and the names its images got."""
    import render.flying_blades as fb

    drawn: list[list[str]] = []
    draw = fb.render

    def recording(view: Any, **kwargs: Any) -> bytes:
        drawn.append(list(kwargs["names"]))
        return draw(view, **kwargs)

    monkeypatch.setattr(fb, "render", recording)
    channel_id, lobby = await open_table(h, "alice", joiners, bots, options="cards=none")
    await h.click(lobby, ":lobby:start:", "alice")
    return await table_of(h, channel_id), drawn


def status_text(h: Harness) -> str:
    return "\n".join(s.text for s in [*h.sent, *h.edits] if s.embeds)


async def test_a_human_nicknamed_bot_1_never_looks_like_the_bot(harness: Harness,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    rename(harness, "bob", "Bot 1")
    rename(harness, "carol", f"{BOT_MARK}\ufe0f Bot 1")  # even with the bot's own mark typed in
    table, drawn = await started(harness, monkeypatch, ["bob", "carol"], bots=1)
    labels = [surface_for(harness.bot, table.game).seat_status(table, s, "en") for s in range(4)]
    bot_seat = next(i for i, s in enumerate(table.seats) if s.bot)
    assert f"{BOT_MARK} Bot 1" in labels[bot_seat]
    humans = [labels[i] for i in range(4) if i != bot_seat and i != 0]
    assert all(BOT_MARK not in label for label in humans), humans
    assert len(set(labels)) == 4, labels
    shown = status_text(harness)
    assert f"{BOT_MARK} Bot 1" in shown and "Bot 1 \\#2" in shown and "Bot 1 \\#3" in shown, shown  # "#" escaped
    assert drawn, "no board image was drawn"
    names = drawn[-1]
    assert names[bot_seat] == f"{BOT_MARK} Bot 1" and len(set(names)) == 4, names
    assert sum(BOT_MARK in n for n in names) == 1, names


async def test_names_that_look_the_same_at_one_table_come_out_distinct(harness: Harness,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    rename(harness, "alice", "Alice")
    rename(harness, "bob", CYRILLIC_ALICE)
    rename(harness, "carol", HIDDEN_ALICE)
    table, drawn = await started(harness, monkeypatch, ["bob", "carol"], bots=0)
    labels = [surface_for(harness.bot, table.game).seat_status(table, s, "en") for s in range(3)]
    assert len({skeleton(label.split(" ", 1)[1]) for label in labels}) == 3, labels  # beyond the seat emoji
    assert "\u200b" not in status_text(harness)
    names = drawn[-1]
    assert len({skeleton(n) for n in names}) == 3 and all("\u200b" not in n for n in names), names


def test_look_alike_names_are_numbered_and_bots_keep_theirs() -> None:
    seats = [SeatInfo(1, "Alice"), SeatInfo(2, CYRILLIC_ALICE), SeatInfo(3, HIDDEN_ALICE), SeatInfo(4, "Bot 1"),
             SeatInfo(None, "Bot 1", True), SeatInfo(5, "Bob")]
    assert seat_names(seats) == ["Alice", f"{CYRILLIC_ALICE} #2", "Alice #3", "Bot 1 #2", f"{BOT_MARK} Bot 1", "Bob"]


def test_a_numbered_name_keeps_its_number_within_the_name_limit() -> None:
    long = "A" * 40
    names = seat_names([SeatInfo(1, long), SeatInfo(2, long)], limit=32)
    assert all(len(n) <= 32 for n in names) and names[1].endswith(" #2") and names[0] != names[1]
