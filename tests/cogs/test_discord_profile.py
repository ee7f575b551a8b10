"""``/leaderboard``, ``/profile`` and ``/history`` through the real discord.py paths: finished games' ratings best
first (public), a player's ratings, record and last games with links (private), a clear reply for a member with no
games and for a game that does not exist (escaped)."""

from __future__ import annotations

from itertools import count
from typing import Any

import pytest

from engine import SeatInfo, Table
from tests.discord_harness import GUILD_ID, USERS, Harness, Sent, check_embeds, check_png, command_data

_channels = count(760000000000000001)  # each game its own channel: one open game per channel


async def finished(h: Harness, winner: str, loser: str, **options: Any) -> Table:
    """A two-player Night of the 27 Ninja game (no draft) that ``loser`` resigns."""
    engine = h.bot.engine
    table = await engine.open_lobby("flying_blades", guild_id=GUILD_ID, channel_id=next(_channels),
                                    host=SeatInfo(USERS[winner], winner.capitalize()),
                                    options={"cards": "none", **options})
    await engine.join(table.id, SeatInfo(USERS[loser], loser.capitalize()))
    await engine.start(table.id, USERS[winner])
    result = await engine.resign(table.id, USERS[loser])
    assert result.table.status == "finished"
    return result.table




async def slash(h: Harness, name: str, user: str, **options: Any) -> list[Sent]:
    """A slash command whose ``member`` option names a harness member."""
    data = command_data(h, name, **options)
    return await h.feed(h.interaction_payload(2, data, user, h.channel(None)))


def answer(out: list[Sent]) -> Sent:
    replies = [s for s in out if s.kind != "defer"]
    assert out[0].kind == "defer" and replies, [s.kind for s in out]
    check_embeds(replies[-1].embeds)
    return replies[-1]


def link(table: Table) -> str:
    return f"https://discord.com/channels/{table.guild_id}/{table.channel_id}"


@pytest.mark.usefixtures("webp")
async def test_the_leaderboard_after_two_finished_games_lists_the_winner_first(harness: Harness) -> None:
    h = harness
    await finished(h, "alice", "bob")
    await finished(h, "alice", "carol")
    out = answer(await h.slash("leaderboard", "dave", game="flying_blades"))
    assert out.public
    lines = out.embeds[0]["description"].splitlines()
    # Carol lost to a stronger Alice than Bob did, so she lost less.
    assert [line.split(" — ")[0] for line in lines] == ["**1.** Alice", "**2.** Carol", "**3.** Bob"]
    assert lines[0].endswith("**? · 2 games · 2-0-0")
    assert lines[2].endswith("? · 1 game · 0-0-1")  # provisional: sigma still high
    assert "this server" in out.embeds[0]["title"]
    [(name, png)] = out.files  # the leaderboard as an image too, inside the embed
    check_png(png)
    assert name == "leaderboard.webp" and out.embeds[0]["image"]["url"] == "attachment://leaderboard.webp"
    everywhere = answer(await h.slash("leaderboard", "dave", game="flying_blades", scope="global"))
    assert "every server" in everywhere.embeds[0]["title"] and everywhere.embeds[0]["description"].startswith(
        "**1.** Alice")


async def test_the_leaderboard_of_a_game_nobody_has_played_says_so(harness: Harness) -> None:
    out = answer(await harness.slash("leaderboard", "dave", game="the_floor"))
    assert "Nobody has a rating in The Floor here yet" in out.text


async def test_a_game_that_does_not_exist_gets_a_clear_escaped_reply(harness: Harness) -> None:
    out = await harness.slash("leaderboard", "dave", game="**chess** @everyone")
    reply = out[-1]
    assert reply.ephemeral and "chess" in reply.text
    assert "\\*\\*chess\\*\\*" in reply.text and "\\@everyone" in reply.text  # shown as typed, never formatted
    assert all(s.kind != "defer" for s in out)  # refused before anything waits on the database


async def test_profile_shows_the_ratings_record_and_last_games_privately(harness: Harness) -> None:
    h = harness
    first = await finished(h, "alice", "bob")
    second = await finished(h, "bob", "alice", rated="no")
    out = answer(await h.slash("profile", "alice"))
    assert out.ephemeral
    embed = out.embeds[0]
    assert embed["title"] == "Alice — profile"
    [game] = [f for f in embed["fields"] if f["name"] == "Night of the 27 Ninja"]
    rating = (await h.bot.engine.store.rating(GUILD_ID, "flying_blades", USERS["alice"])).rating.display
    assert f"Server: **{rating}?**" in game["value"] and f"Global: **{rating}?**" in game["value"]
    assert "1-0-1 (W-D-L)" in game["value"]  # the record counts the unrated game too
    [last] = [f for f in embed["fields"] if f["name"] == "Last games"]
    assert last["value"].index(link(second)) < last["value"].index(link(first))  # newest first
    assert f"#{first.id}]" in last["value"] and "unrated" in last["value"]


async def test_profile_of_another_member(harness: Harness) -> None:
    await finished(harness, "alice", "bob")
    out = answer(await slash(harness, "profile", "carol", member="bob"))
    assert out.ephemeral and out.embeds[0]["title"] == "Bob — profile"


async def test_history_lists_games_with_links_places_and_rating_changes(harness: Harness) -> None:
    h = harness
    first = await finished(h, "alice", "bob")
    second = await finished(h, "alice", "carol")
    out = answer(await slash(h, "history", "alice", member="bob"))
    assert out.ephemeral
    [line] = out.embeds[0]["description"].splitlines()
    assert link(first) in line and "2/2" in line and "\u2212" in line  # Bob lost: his rating went down
    out = answer(await h.slash("history", "alice", game="flying_blades"))
    lines = out.embeds[0]["description"].splitlines()
    assert [link(second) in lines[0], link(first) in lines[1]] == [True, True] and "1/2" in lines[0]
    assert all("+" in line for line in lines)
    assert "Night of the 27 Ninja" in out.embeds[0]["title"]
    past = answer(await h.slash("history", "alice", page=2))
    assert "past the end" in past.text


async def test_the_leaderboard_shows_mu_on_the_1500_scale_and_drops_the_mark_once_sigma_is_low(
        harness: Harness) -> None:
    h = harness
    await finished(h, "alice", "bob")
    await h.bot.engine.store._write(lambda conn: conn.execute(  # Alice's rating settled (as after many games)
        "UPDATE ratings SET sigma = 2.0 WHERE user_id = ?", (USERS["alice"],)))
    row = await h.bot.engine.store.rating(GUILD_ID, "flying_blades", USERS["alice"])
    shown = row.rating.display
    assert shown == round(1500 + (row.mu - 25) * 400 / 2.302585 / (2 ** 0.5 * 25 / 6))  # not mu − 3σ
    lines = answer(await h.slash("leaderboard", "dave", game="flying_blades")).embeds[0]["description"].splitlines()
    assert f"**{shown}** · 1 game" in lines[0]  # no provisional mark, after a single game
    assert lines[1].endswith("? · 1 game · 0-0-1")


async def test_a_member_with_no_games_gets_a_clear_reply(harness: Harness) -> None:
    out = answer(await harness.slash("profile", "dave"))
    assert out.ephemeral and "Dave has not finished a game with other players here yet" in out.text
    out = answer(await harness.slash("history", "dave"))
    assert out.ephemeral and "Dave has no finished games to show here" in out.text


async def test_the_lobby_says_when_a_game_will_not_be_rated(harness: Harness) -> None:
    await harness.slash("play", "alice", game="flying_blades", options="rated=no")
    lobby = harness.with_button(":lobby:join:")
    clock_field = next(f for f in lobby.embeds[0]["fields"] if f["name"] == "Clock")
    assert clock_field["value"].endswith(" · unrated")


async def test_the_typed_prefix_commands_answer_too(harness: Harness) -> None:
    await finished(harness, "alice", "bob")
    out = await harness.say("!leaderboard flying_blades", "carol")
    assert out[-1].embeds and out[-1].embeds[0]["description"].startswith("**1.** Alice")
    out = await harness.say("!ranking flying_blades global", "carol")  # the Polish name is an alias
    assert "every server" in out[-1].embeds[0]["title"]
    out = await harness.say("!leaderboard flying_blades nowhere", "carol")
    assert "nowhere is not a scope" in out[-1].text
