"""``/mygames``: the player's games where it is their move (the longest waiting first) and where they wait for
others, each with a jump link and its clock as a Discord timestamp; a link button to the oldest; nobody else's
games; in direct messages, every server's; paused games and stand-ins marked; within Discord's limits."""

from __future__ import annotations

import re
from datetime import timedelta
from itertools import count
from typing import Any

from engine import SeatInfo, Table
from engine import policies as pol
from i18n import t
from tests.discord_harness import GUILD_ID, USERS, Harness, Sent, check_embeds, walk

_channels = count(750000000000000001)  # each game its own (thread-like) channel: one open game per channel


async def game(h: Harness, users: tuple[str, ...], *, guild: int = GUILD_ID, **options: Any) -> Table:
    """A running Flying Blades game without the card draft: its first seat is to move."""
    engine = h.bot.engine
    host, *others = users
    table = await engine.open_lobby("flying_blades", guild_id=guild, channel_id=next(_channels),
                                    host=SeatInfo(USERS[host], host.capitalize()), options={"cards": "none", **options})
    for user in others:
        await engine.join(table.id, SeatInfo(USERS[user], user.capitalize()))
    started = await engine.start(table.id, USERS[host])
    assert started.to_move() == {0}
    return started


async def move(h: Harness, table: Table) -> Table:
    """The seat to move makes its first legal move."""
    seat = next(iter(table.to_move()))
    action = table.rules.legal_actions(table.state, seat)[0]
    return (await h.bot.engine.act(table.id, table.seats[seat].user_id, action)).table


async def mygames(h: Harness, user: str) -> Sent:
    """The reply to /mygames (after its deferral)."""
    out = await h.slash("mygames", user)
    assert out[0].kind == "defer" and out[-1].ephemeral
    return out[-1]


def link(table: Table) -> str:
    return f"https://discord.com/channels/{table.guild_id}/{table.channel_id}"


def stamp(when: Any) -> str:
    return f"<t:{int(when.timestamp())}:R>"


def ids_in(text: str) -> list[int]:
    """The table ids a listing links to, in order."""
    return [int(n) for n in re.findall(r" #(\d+)\]\(", text)]


def listed(sent: Sent) -> list[int]:
    return ids_in(sent.embeds[0]["description"])


def section(sent: Sent, which: int) -> str:
    return sent.embeds[0]["description"].split("\n\n")[which]


def link_buttons(sent: Sent) -> list[dict[str, Any]]:
    return [c for c in walk(sent.components) if c.get("type") == 2 and c.get("url")]


async def three_games(h: Harness, clock: Any) -> tuple[Table, Table, Table]:
    """Alice's move since the start (the oldest), Bob's move (she waits), and her move since Carol's move."""
    oldest = await game(h, ("alice", "bob"))
    clock.advance(hours=1)
    waiting = await game(h, ("bob", "alice"))
    clock.advance(hours=1)
    newer = await game(h, ("carol", "alice"), turn_minutes=120)
    clock.advance(hours=1)
    newer = await move(h, newer)
    clock.advance(hours=1)
    return oldest, waiting, newer


async def test_your_move_lists_the_longest_waiting_first_then_the_games_waiting_for_others(
        harness: Harness, clock: Any) -> None:
    oldest, waiting, newer = await three_games(harness, clock)
    moved_at = clock.now - timedelta(hours=1)
    out = await mygames(harness, "alice")
    assert listed(out) == [oldest.id, newer.id, waiting.id]
    mine, theirs = section(out, 0), section(out, 1)
    assert mine.startswith("**Your move** (2)") and theirs.startswith("**Waiting for others** (1)")
    assert link(oldest) in mine and link(newer) in mine and link(waiting) in theirs
    assert f"[{t('game.flying_blades', 'en')} #{oldest.id}]" in mine  # the surface's name for the game
    newer_line = next(line for line in mine.splitlines() if f"#{newer.id}]" in line)
    due = harness.bot.engine.clocks(await harness.bot.engine.get(newer.id))[1]
    assert f"⏰ {stamp(due)}" in newer_line  # her own clock, counting down in every client
    assert f"turn began {stamp(moved_at)}" in newer_line  # waiting since Carol's move
    oldest_line = next(line for line in mine.splitlines() if f"#{oldest.id}]" in line)
    assert "no clock" in oldest_line
    check_embeds(out.embeds)
    [button] = link_buttons(out)
    assert button["label"] == "Go to the oldest" and button["url"] == link(oldest) and "custom_id" not in button


async def test_another_players_games_are_never_shown(harness: Harness, clock: Any) -> None:
    await three_games(harness, clock)
    theirs = await game(harness, ("bob", "carol"))
    out = await mygames(harness, "alice")
    assert theirs.id not in listed(out)
    out = await mygames(harness, "dave")
    assert listed(out) == [] and "You are in no running game on this server" in out.text
    assert link_buttons(out) == []


async def test_a_paused_game_and_a_stand_in_are_marked(harness: Harness, clock: Any) -> None:
    paused = await game(harness, ("alice", "bob"))
    await harness.bot.engine.set_meta(paused.id, **{pol.PAUSED: True})
    stood_in = await game(harness, ("bob", "alice"))
    await move(harness, stood_in)  # Alice's move now, but a bot plays it while she is away
    await harness.bot.engine.set_meta(stood_in.id, **{pol.STANDINS: [1]})
    out = await mygames(harness, "alice")
    lines = {tid: line for line in out.embeds[0]["description"].splitlines()
             for tid in ids_in(line)}
    assert "⏸️ paused" in lines[paused.id] and "bot plays for you" not in lines[paused.id]
    assert "🤖 a bot plays for you" in lines[stood_in.id] and "paused" not in lines[stood_in.id]


async def test_sixty_games_stay_within_discords_limits_and_the_rest_are_counted(
        harness: Harness, clock: Any) -> None:
    for i in range(60):
        await game(harness, ("alice", "bob") if i % 3 else ("bob", "alice"))
        clock.advance(minutes=1)
    out = await mygames(harness, "alice")
    description = out.embeds[0]["description"]
    assert len(description) <= 4096
    check_embeds(out.embeds)
    mine, theirs = section(out, 0), section(out, 1)
    first, second = ids_in(mine), ids_in(theirs)
    assert mine.endswith(f"…and {40 - len(first)} more.") and first
    # A long first section leaves the second its header, its count and some room.
    assert theirs.startswith("**Waiting for others** (20)") and theirs.endswith(f"…and {20 - len(second)} more.")
    assert len(second) >= 3
    assert first == sorted(first) and second == sorted(second)  # the oldest first: the order they started in


async def test_in_direct_messages_the_games_of_every_server_are_listed(harness: Harness, clock: Any) -> None:
    here = await game(harness, ("alice", "bob"))
    clock.advance(hours=1)
    elsewhere = await game(harness, ("carol", "alice"), guild=GUILD_ID + 1)
    harness.guild.name = "[Evil](https://x.example) @everyone"  # a server's name is its owner's text
    payload = harness.slash_payload("mygames", "alice")
    dm_payload(payload, "alice", harness)
    out = (await harness.feed(payload))[-1]
    assert listed(out) == [here.id, elsewhere.id]
    text = out.embeds[0]["description"]
    assert f"\\[Evil\\](https\\://x.example) \\@everyone: [{t('game.flying_blades', 'en')} #{here.id}]" in text
    assert f"{GUILD_ID + 1}: [" in text  # a server the bot does not see: its id
    assert link(elsewhere) in text and out.embeds[0]["title"] == "Your games on every server"


def dm_payload(payload: dict[str, Any], user: str, h: Harness) -> None:
    """Make a slash payload come from the bot's direct messages with ``user``."""
    member = h.members[user]
    payload.pop("guild_id")
    payload["data"].pop("guild_id")
    payload.pop("guild_locale")
    payload["user"] = payload.pop("member")["user"]
    payload["channel"] = {"id": str(member.id + 1), "type": 1, "recipients": [payload["user"]]}
    payload["channel_id"] = str(member.id + 1)
    payload["context"] = 1
    payload["authorizing_integration_owners"] = {"1": str(member.id)}
