"""``/tournament`` through the real discord.py paths: creating (Manage Server; clear refusals), entering by button and
by command (the announcement kept current), starting (a thread per table, pairings with links and pings), rounds
closing when their games end or at their deadline (standings posted, the next round paired), the end (final
standings and bracket images), export, disqualification, awarded results, and stale or forged buttons."""

from __future__ import annotations

import json
from typing import Any

from league.tournament import Tournament
from tests.discord_harness import (
    CHANNELS,
    GUILD_ID,
    USERS,
    Harness,
    Sent,
    check_embeds,
    check_png,
    command_data,
    http_error,
    resign,
    walk,
)

GENERAL = CHANNELS["general"]




async def tour(h: Harness, sub: str, user: str, channel: Any = None, **options: Any) -> list[Sent]:
    """``/tournament <sub> [options]`` as Discord delivers a subcommand (``member`` by harness name)."""
    data = command_data(h, "tournament", sub, **options)
    start = len(h.sent)
    await h.feed(h.interaction_payload(2, data, user, h.channel(channel)))
    await settle(h)
    return h.sent[start:]


async def settle(h: Harness) -> None:
    """The reconciles a game's end started, and what they post."""
    await h.bot.director.settle()
    await h.settle()
    await h.bot.director.settle()


def reply(out: list[Sent]) -> Sent:
    replies = [s for s in out if s.kind != "defer"]
    assert replies, "no reply"
    return replies[-1]


async def create(h: Harness, fmt: str = "swiss", user: str = "mod", **options: Any) -> Sent:
    kwargs = {"name": "Cup", "game": "flying_blades", "format": fmt, "options": "cards=none", **options}
    out = await tour(h, "create", user, **kwargs)
    announcement = reply(out)
    assert announcement.public, announcement.text
    check_embeds(announcement.embeds)
    return announcement


async def only(h: Harness) -> tuple[int, Tournament]:
    rows = await h.bot.engine.store.tournaments_in_guild(GUILD_ID, ("registration", "running", "finished",
                                                                    "cancelled"))
    assert len(rows) == 1
    entry = await h.bot.director.get(rows[0].id)
    return entry.row.id, entry.value


async def entered(h: Harness, fmt: str = "swiss", players: tuple[str, ...] = ("alice", "bob", "carol"),
                  **options: Any) -> tuple[int, Sent]:
    announcement = await create(h, fmt, **options)
    for user in players:
        await h.click(announcement, "Join", user)
    tid, value = await only(h)
    assert [e.id for e in value.entrants] == [str(USERS[u]) for u in players]
    return tid, announcement


def thread_ids(h: Harness) -> list[int]:
    return [int(d["id"]) for d in h.threads if int(d["parent_id"]) == GENERAL]


async def finish_game(h: Harness, game_id: int, loser: str) -> None:
    """The loser resigns in the game's thread (/resign, then the confirmation)."""
    table = await h.bot.engine.get(game_id)
    await resign(h, loser, table.channel_id)
    await settle(h)


def name_of(player: str) -> str:
    return next(name for name, uid in USERS.items() if str(uid) == player)


# --- creating ----------------------------------------------------------------------------------------------------


async def test_create_needs_manage_server_and_bad_settings_are_refused(harness: Harness) -> None:
    h = harness
    refused = reply(await tour(h, "create", "alice", name="Cup", game="flying_blades", format="swiss"))
    assert refused.ephemeral and "Manage Server" in refused.text
    refused = reply(await tour(h, "create", "mod", name="Cup", game="flying_blades", format="single-elimination",
                               table_size=3))
    assert refused.ephemeral and "two-player tables" in refused.text
    refused = reply(await tour(h, "create", "mod", name="Cup", game="flying_blades", format="swiss", table_size=1))
    assert refused.ephemeral and "seats 2 to 5" in refused.text
    refused = reply(await tour(h, "create", "mod", name="Cup", game="flying_blades", format="knockout"))
    assert refused.ephemeral and "Unknown format" in refused.text
    refused = reply(await tour(h, "create", "mod", name="Cup", game="flying_blades", format="swiss",
                               options="bogus"))
    assert refused.ephemeral
    refused = reply(await tour(h, "create", "mod", name="Cup", game="flying_blades", format="swiss",
                               options="on_timeout=never"))
    assert refused.ephemeral and "never" in refused.text
    nothing = reply(await tour(h, "standings", "alice"))
    assert nothing.ephemeral and "No tournament is open" in nothing.text
    assert await h.bot.engine.store.tournaments_in_guild(GUILD_ID, ("registration",)) == []


async def test_the_announcement_escapes_the_name_and_defaults_to_forfeits(harness: Harness) -> None:
    h = harness
    announcement = await create(h, name="**Big** @everyone Cup", starts_in_hours=5)
    assert "\\*\\*Big\\*\\*" in announcement.text and "\\@everyone" in announcement.text
    assert "<t:" in announcement.text and ":R>" in announcement.text
    _, value = await only(h)
    assert value.settings.options == {"cards": "none", "on_timeout": "forfeit"}
    assert announcement.labels() == ["Join", "Leave"]


# --- entering ----------------------------------------------------------------------------------------------------


async def test_players_join_by_button_and_command_and_the_count_updates(harness: Harness) -> None:
    h = harness
    announcement = await create(h)
    done = reply(await h.click(announcement, "Join", "alice"))
    assert done.ephemeral and "You are entered" in done.text
    done = reply(await tour(h, "join", "bob"))
    assert done.ephemeral and "You are entered" in done.text
    again = reply(await h.click(announcement, "Join", "alice"))
    assert again.ephemeral and "already entered" in again.text
    again = reply(await tour(h, "join", "bob"))
    assert again.ephemeral and "already entered" in again.text
    await h.click(announcement, "Join", "carol")
    assert "Entrants (3)" in h.current(announcement).text
    left = reply(await h.click(announcement, "Leave", "carol"))
    assert left.ephemeral and "left" in left.text
    current = h.current(announcement)
    assert "Entrants (2)" in current.text and "Alice" in current.text and "Carol" not in current.text
    _, value = await only(h)
    assert [e.id for e in value.entrants] == [str(USERS["alice"]), str(USERS["bob"])]
    never = reply(await h.click(announcement, "Leave", "dave"))
    assert never.ephemeral and "not entered" in never.text


async def test_the_organiser_closes_and_reopens_entries_before_the_start(harness: Harness) -> None:
    h = harness
    announcement = await create(h)
    await h.click(announcement, "Join", "alice")
    refused = reply(await tour(h, "registration", "bob", is_open=False))
    assert refused.ephemeral and "organiser" in refused.text.lower()
    await tour(h, "registration", "mod", is_open=False)
    closed = reply(await h.click(announcement, "Join", "bob"))
    assert closed.ephemeral and "closed" in closed.text
    await tour(h, "registration", "mod", is_open=True)
    assert "You are entered" in reply(await h.click(announcement, "Join", "bob")).text
    _, value = await only(h)
    assert [e.id for e in value.entrants] == [str(USERS["alice"]), str(USERS["bob"])]


async def test_checkin_is_a_button_when_the_tournament_has_it(harness: Harness) -> None:
    h = harness
    announcement = await create(h, checkin=True)
    assert "Check in" in announcement.labels()
    await h.click(announcement, "Join", "alice")
    done = reply(await h.click(announcement, "Check in", "alice"))
    assert done.ephemeral and "checked in" in done.text
    _, value = await only(h)
    assert value.checked_in == {str(USERS["alice"])}


# --- running -----------------------------------------------------------------------------------------------------


async def test_an_elimination_runs_in_threads_to_its_final_standings(harness: Harness) -> None:
    h = harness
    _, announcement = await entered(h, "single-elimination")
    refused = reply(await tour(h, "start", "bob"))
    assert refused.ephemeral and "organiser" in refused.text
    start = len(h.sent)
    assert reply(await tour(h, "start", "mod")).ephemeral
    threads = thread_ids(h)
    assert len(threads) == 1, "three players: one match and a bye in round 1"
    _, value = await only(h)
    table = value.current.tables[0]
    pairings = [s for s in h.public(h.sent[start:]) if s.channel_id == GENERAL and "round 1" in s.text]
    assert pairings and f"https://discord.com/channels/{GUILD_ID}/{threads[0]}" in pairings[0].text
    assert set(pairings[0].pinged) == {int(p) for p in (*table.seats, *value.current.byes)}
    in_thread = [s for s in h.sent[start:] if s.channel_id == threads[0]]
    assert in_thread and any(s.pinged for s in in_thread), "the game's first turn ping is in its thread"
    assert h.current(announcement).labels() == [], "the buttons go at the start"
    # Round 1: the lower seat resigns; standings follow, and the final is paired in a new thread.
    start = len(h.sent)
    await finish_game(h, table.game_id, name_of(table.seats[1]))
    posted = h.public(h.sent[start:])
    assert any(s.channel_id == GENERAL and "after round 1" in s.text and s.pngs() for s in posted)
    assert len(thread_ids(h)) == 2
    _, value = await only(h)
    final = value.current.tables[0]
    assert value.current.number == 2 and final.game_id is not None
    # The final: the tournament ends with the standings and the bracket, and the winner is congratulated.
    start = len(h.sent)
    await finish_game(h, final.game_id, name_of(final.seats[1]))
    posted = [s for s in h.public(h.sent[start:]) if s.channel_id == GENERAL]
    images = [png for s in posted for png in s.pngs()]
    assert len(images) == 2, "final standings and the bracket"
    for png in images:
        check_png(png)
    winner = final.seats[0]
    assert any("Congratulations" in s.text and int(winner) in s.pinged for s in posted)
    _, value = await only(h)
    assert value.status == "finished" and value.standings()[0].player == winner
    assert "finished" in h.current(announcement).text
    # The winner's profile lists it.
    profile = reply(await h.slash("profile", name_of(winner)))
    assert "Tournaments" in profile.text and "place 1 of 3" in profile.text


async def test_a_rounds_deadline_adjudicates_its_games_and_pairs_the_next(harness: Harness, clock: Any) -> None:
    h = harness
    tid, _ = await entered(h, "swiss", ("alice", "bob", "carol", "dave"), rounds=2, round_hours=24)
    await tour(h, "start", "mod")
    _, value = await only(h)
    assert len(value.current.tables) == 2 and len(thread_ids(h)) == 2
    start = len(h.sent)
    clock.advance(hours=25)
    await h.bot.engine.run_due()
    await settle(h)
    _, value = await only(h)
    assert value.rounds[0].complete and value.current.number == 2
    assert len(thread_ids(h)) == 4
    posted = [s for s in h.public(h.sent[start:]) if s.channel_id == GENERAL]
    assert any("after round 1" in s.text and s.pngs() for s in posted)
    assert any("round 2" in s.text and "https://discord.com/channels/" in s.text for s in posted)
    shown = reply(await tour(h, "standings", "alice"))
    assert shown.public and shown.pngs() and "Alice" in shown.text
    pairs = [s for s in await tour(h, "pairings", "bob") if s.public]
    assert pairs and "Table 1" in pairs[0].text and not pairs[0].pinged
    listed = reply(await tour(h, "list", "carol"))
    assert f"#{tid}" in listed.text and "round 2/2" in listed.text


async def test_export_is_a_json_attachment_for_the_organiser(harness: Harness) -> None:
    h = harness
    await entered(h)
    await tour(h, "start", "mod")
    _, value = await only(h)
    refused = reply(await tour(h, "export", "alice"))
    assert refused.ephemeral and "organiser" in refused.text
    out = reply(await tour(h, "export", "mod"))
    assert out.ephemeral and out.files
    name, data = out.files[0]
    assert name.endswith(".json")
    export = json.loads(data)
    assert {"game", "format", "name", "status", "players", "rounds", "standings"} <= set(export)  # the old keys
    assert export["status"] == "running" and len(export["players"]) == 3
    assert value.seed not in json.dumps(export)  # the draw's secret, and so every game's seed, stays out


async def test_disqualify_resigns_the_running_game_and_award_overrides_a_table(harness: Harness) -> None:
    h = harness
    await entered(h, "swiss", ("alice", "bob", "carol", "dave"), rounds=2)
    await tour(h, "start", "mod")
    _, value = await only(h)
    bob = str(USERS["bob"])
    bobs = next(tb for tb in value.current.tables if bob in tb.seats)
    other = next(i for i, tb in enumerate(value.current.tables) if bob not in tb.seats)
    refused = reply(await tour(h, "disqualify", "alice", member="bob"))
    assert refused.ephemeral and "organiser" in refused.text
    done = reply(await tour(h, "disqualify", "mod", member="bob"))
    assert done.public and "disqualified" in done.text and done.pinged == [USERS["bob"]]
    game = await h.bot.engine.get(bobs.game_id)
    assert game.status == "finished", "the disqualified player's game is resigned"
    seats = value.current.tables[other].seats
    bad = reply(await tour(h, "award", "mod", round=1, table=other + 1, ranking="nobody > 2"))
    assert bad.ephemeral and "`>` between places" in bad.text
    awarded = reply(await tour(h, "award", "mod", round=1, table=other + 1, ranking=f"<@{seats[1]}> > 1"))
    assert awarded.public and "the result is set" in awarded.text
    _, value = await only(h)
    assert value.rounds[0].tables[other].ranking == ((seats[1],), (seats[0],))
    assert value.current.number == 2, "both tables decided: round 2 is paired"
    assert all(bob not in tb.seats for tb in value.current.tables), "a disqualified player is not paired"


async def test_pause_and_resume_are_for_the_organiser(harness: Harness) -> None:
    h = harness
    await entered(h)
    await tour(h, "start", "mod")
    refused = reply(await tour(h, "pause", "carol"))
    assert refused.ephemeral and "organiser" in refused.text
    assert "paused" in reply(await tour(h, "pause", "mod")).text
    _, value = await only(h)
    assert value.paused
    assert "resumes" in reply(await tour(h, "resume", "mod")).text
    _, value = await only(h)
    assert not value.paused


# --- stale and forged buttons ------------------------------------------------------------------------------------


async def forged(h: Harness, message: Sent, custom_id: str, user: str) -> Sent:
    """A click on a message whose Join button carries ``custom_id`` (discord.py only calls a dynamic item that is
    on the message clicked: a forger edits both)."""
    copy = h.snapshot(message)
    button = next(c for c in walk(copy.components) if c.get("label") == "Join")
    button["custom_id"] = custom_id
    return reply(await h.click(copy, "Join", user))


async def test_stale_and_forged_buttons_change_nothing(harness: Harness) -> None:
    h = harness
    tid, announcement = await entered(h)
    stale = h.snapshot(announcement)
    await tour(h, "start", "mod")
    late = reply(await h.click(stale, "Join", "dave"))
    assert late.ephemeral and "Registration is over" in late.text
    _, value = await only(h)
    assert str(USERS["dave"]) not in {e.id for e in value.entrants}
    for custom_id, words in ((f"tour:join:{tid + 100}", "no tournament"), ("tour:join:abc", "not one of the bot's"),
                             (f"tour:explode:{tid}", "not one of the bot's"), ("tour:join:" + "9" * 40,
                                                                              "no tournament")):
        out = await forged(h, stale, custom_id, "dave")
        assert out.ephemeral and words in out.text, (custom_id, out.text)
    _, after = await only(h)
    assert after == value


async def test_a_cancelled_tournament_says_so_and_its_buttons_refuse(harness: Harness) -> None:
    h = harness
    _, announcement = await entered(h, players=("alice",))
    stale = h.snapshot(announcement)
    refused = reply(await tour(h, "cancel", "alice"))
    assert refused.ephemeral and "organiser" in refused.text
    start = len(h.sent)
    await tour(h, "cancel", "mod")
    assert any("cancelled" in s.text for s in h.public(h.sent[start:]) if s.channel_id == GENERAL)
    out = reply(await h.click(stale, "Join", "bob"))
    assert out.ephemeral and "Registration is over" in out.text
    _, value = await only(h)
    assert value.status == "cancelled" and len(value.entrants) == 1


async def test_a_table_without_a_thread_is_announced_and_the_rest_of_the_round_goes_on(
        harness: Harness, monkeypatch: Any) -> None:
    h = harness
    await entered(h, "swiss", ("alice", "bob", "carol", "dave"), rounds=1)

    async def refuse(*args: Any, **kwargs: Any) -> Any:
        raise http_error(403, 50013, "Missing Permissions")

    monkeypatch.setattr("discord.TextChannel.create_thread", refuse)
    start = len(h.sent)
    await tour(h, "start", "mod")
    _, value = await only(h)
    assert all(tb.game_id is not None for tb in value.current.tables), "every table has its game"
    posted = [s for s in h.public(h.sent[start:]) if s.channel_id == GENERAL]
    assert sum("could not be made" in s.text for s in posted) == 2
    assert any("the organiser may award it" in s.text for s in posted)
    table = value.current.tables[0]
    done = reply(await tour(h, "award", "mod", round=1, table=1, ranking="1 > 2"))
    assert done.public
    _, value = await only(h)
    assert value.rounds[0].tables[0].ranking == ((table.seats[0],), (table.seats[1],))
