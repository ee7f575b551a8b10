"""No spectator output shows a seat's private view (issue 27: "never a hidden view"), for every game with hidden
information: Night of the 27 Ninja's hands, Floor Plan's private round moves and future rolls, The Floor's draft
hands and letters, Floating World's deck order, Floating Floors' draws (each game's docs). A follower's direct
messages carry the image drawn from the public view (``view(state, None)``), byte for byte, never a seat's (where
a seat's image differs); no text a spectator gets (the DMs, the ephemeral replies) holds the seed, nor any word
only a seat's view holds that the game did not post for everyone (a card's name is public once it is played)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cogs.utils.posting import render_view
from cogs.utils.surface import surface_for
from engine import Table
from tests.discord_harness import USERS, Harness, Sent, table_of
from tests.follow.conftest import Spectating
from tests.follow.test_follow_discord import play_one

SEED = "harness-seed"
HIDDEN_INFORMATION = ("flying_blades", "floor_plan", "the_floor", "floating_world", "floating_floors")
STEPS = 6
MIN_SECRET = 4  # shorter strings (a digit, a colour letter) also occur in any public caption


async def start_game(h: Harness, game: str) -> Table:
    await h.slash("play", "alice", game=game)
    lobby = h.with_button(":lobby:join:")
    await h.click(lobby, ":lobby:join:", "bob")
    await h.click(lobby, ":lobby:start:", "alice")
    return await table_of(h, lobby.channel_id)


async def public_png(h: Harness, table: Table) -> bytes | None:
    return await render_view(table, None, "en") or await surface_for(h.bot, table.game).board_png(table, "en")


async def seat_png(h: Harness, table: Table, seat: int) -> bytes | None:
    surface = surface_for(h.bot, table.game)
    return await surface.private_png(table, seat, "en") or await render_view(table, seat, "en")


def strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings(v) for v in value.values()), set())
    if isinstance(value, list | tuple):
        return set().union(*(strings(v) for v in value), set())
    return set()


def private_strings(table: Table) -> set[str]:
    """What some seat's view holds and the public view does not (cards in hand, letters, drawn tiles)."""
    public = json.dumps(table.view(None), ensure_ascii=False)
    return {s for seat in range(len(table.seats)) for s in strings(table.view(seat))
            if len(s) >= MIN_SECRET and s not in public}


def spectator_text(sent: list[Sent]) -> str:
    return "\n".join(s.text + json.dumps(s.payload, default=str, ensure_ascii=False) for s in sent)


@pytest.mark.parametrize("game", HIDDEN_INFORMATION)
async def test_a_followers_direct_messages_show_only_the_public_view(harness: Harness, spectating: Spectating,
                                                                     game: str) -> None:
    table = await start_game(harness, game)
    replies = await harness.slash("follow", "carol", "general", game=table.id, dm=True)
    assert "direct message" in replies[-1].text, replies[-1].text
    secrets: set[str] = set()
    checked = 0
    for _ in range(STEPS):
        table = await harness.bot.engine.get(table.id)
        if table.status != "active":
            break
        secrets |= private_strings(table)
        digest = [s for s in harness.sent if spectating.dm_channels.get(s.channel_id) == USERS["carol"]][-1]
        expected = await public_png(harness, table)
        assert digest.pngs() == ([expected] if expected is not None else [])
        for seat in range(len(table.seats)):
            private = await seat_png(harness, table, seat)
            if private != expected:
                assert private not in digest.pngs(), f"seat {seat}'s view was sent"
        checked += 1
        harness.clock.advance(minutes=10)  # type: ignore[attr-defined]
        await play_one(harness, table.id)
    assert checked >= 2
    spectator = [s for s in harness.sent if spectating.dm_channels.get(s.channel_id) == USERS["carol"]
                 or (s.ephemeral and s in replies)]
    assert len(spectator) > checked
    text = spectator_text(spectator)
    everyone = spectator_text([s for s in harness.sent if s.public and s.channel_id == table.channel_id])
    assert SEED not in text
    assert not sorted(s for s in secrets if s in text and s not in everyone)
