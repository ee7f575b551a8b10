"""The Floor Plan daily challenge through the real discord.py paths: ``/floorplan daily`` played to the end with
ephemeral replies, one attempt a day, the result stored and on the server and global leaderboards."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from engine.daily import APP_SETTINGS_GUILD, SECRET_KEY
from rules.floor_plan import FloorPlan
from rules.floor_plan import daily as fpdaily
from tests.conftest import FakeClock
from tests.discord_harness import GUILD_ID, USERS, Harness, Sent, check_png, snowflake

FP = FloorPlan()
OTHER_GUILD = 710000000000000999


async def seed_of_day(harness, day: date) -> str:
    """The day's seed under the secret this bot made for itself (kept in its database)."""
    secret = await harness.bot.store.get_setting(APP_SETTINGS_GUILD, SECRET_KEY)
    return fpdaily.seed_for(day, secret)


async def floorplan(h: Harness, sub: str, user: str = "alice", **options: Any) -> list[Sent]:
    """``/floorplan <sub> [options]``: a subcommand of the group, as Discord delivers it."""
    group = h.bot.tree.get_command("floorplan")
    assert group is not None, "no /floorplan group"
    command = group.get_command(sub)  # type: ignore[union-attr]
    params = {p.name: p for p in command.parameters}
    opts = [{"name": params[k].display_name, "type": params[k].type.value, "value": v} for k, v in options.items()]
    data = {"id": str(snowflake()), "name": group.name, "type": 1, "guild_id": str(GUILD_ID),
            "options": [{"name": command.name, "type": 1, "options": opts}]}
    return await h.feed(h.interaction_payload(2, data, user, h.channel(None)))


def reply_of(out: list[Sent]) -> Sent:
    replies = [s for s in out if s.kind != "defer"]
    assert len(replies) == 1, [s.text for s in out]
    assert replies[0].ephemeral, "a daily reply is private"
    return replies[0]


async def attempt_of(h: Harness, user: str) -> Any:
    cog = h.bot.get_cog("FloorPlanDaily")
    return await cog.daily.attempt(USERS[user])  # type: ignore[union-attr]


async def play_to_the_end(h: Harness, user: str) -> Sent:
    last = reply_of(await floorplan(h, "daily", user))
    previews = 0
    for _ in range(200):
        row = await attempt_of(h, user)
        table = await h.bot.engine.get(row.game_id)
        if table.status != "active":
            assert previews > 0
            return last
        action = FP.bot_action(table.state, 0)
        last = reply_of(await floorplan(h, "daily", user, move=action))
        if "Confirm" in last.labels():  # a placement: previewed first, played by Confirm
            assert last.text.startswith("Preview of") and last.pngs()
            previews += 1
            update = [s for s in await h.click(last, "Confirm", user) if s.kind == "update"]
            assert len(update) == 1
            last = h.current(last)
            assert not last.components
        assert "Played:" in last.text and last.pngs(), last.text
    raise AssertionError("the daily game did not end")


async def test_a_daily_challenge_played_to_the_end_is_stored_and_on_the_leaderboards(
        harness: Harness, clock: FakeClock) -> None:
    first = reply_of(await floorplan(harness, "daily", "alice"))
    assert "Today's attempt has started" in first.text and "2026-01-01" in first.text
    assert "Draw your living room" in first.text and "/floorplan daily move:start " in first.text
    check_png(first.pngs()[0])

    bad = reply_of(await floorplan(harness, "daily", "alice", move="room A1 2x2 C@A1"))
    assert bad.text.startswith("⚠️") and bad.pngs(), "a refused move says why, above the sheet as it is"

    final = await play_to_the_end(harness, "alice")
    row = await attempt_of(harness, "alice")
    assert row.finished and row.score is not None and row.guild_id == GUILD_ID and row.rating
    assert f"Final score: **{row.score}**" in final.text and "#1 of 1 on this server" in final.text
    table = await harness.bot.engine.get(row.game_id)
    assert table.seed == await seed_of_day(harness, date(2026, 1, 1))
    assert table.status == "finished" and table.guild_id is None
    assert await harness.bot.engine.table_in_channel(harness.channels["general"].id) is None

    # one attempt a day: again shows the result; a move is refused; nothing new is stored
    again = reply_of(await floorplan(harness, "daily", "alice"))
    assert "Game over" in again.text and "started" not in again.text
    refused = reply_of(await floorplan(harness, "daily", "alice", move="skip"))
    assert "played today's challenge already" in refused.text
    assert (await attempt_of(harness, "alice")) == row

    # bob plays the same game; someone on another server did better
    await play_to_the_end(harness, "bob")
    bob = await attempt_of(harness, "bob")
    assert (await harness.bot.engine.get(bob.game_id)).seed == table.seed
    store = harness.bot.engine.store
    far, _ = await store.claim_daily("2026-01-01", 42, OTHER_GUILD, "Faraway", clock())
    await store.finish_daily(far.id, row.score + 1000, None, clock())

    server = [s for s in await floorplan(harness, "leaderboard", "carol") if s.kind != "defer"][-1]
    assert server.public and "this server" in server.text
    assert "Alice" in server.text and "Bob" in server.text and "Faraway" not in server.text
    assert server.text.index("1. ") < server.text.index("2. ")
    worldwide = [s for s in await floorplan(harness, "leaderboard", "carol", scope="global")
                 if s.kind != "defer"][-1]
    assert "all servers" in worldwide.text
    lines = worldwide.text.splitlines()
    assert "Faraway" in lines[1] and any("Alice" in x for x in lines[2:]) and any("Bob" in x for x in lines[2:])

    # the next day: a new attempt on a new seed
    clock.advance(days=1)
    fresh = reply_of(await floorplan(harness, "daily", "alice"))
    assert "Today's attempt has started" in fresh.text and "2026-01-02" in fresh.text
    row2 = await attempt_of(harness, "alice")
    assert row2.id != row.id and (await harness.bot.engine.get(row2.game_id)).seed == await seed_of_day(
        harness, date(2026, 1, 2))
    empty = [s for s in await floorplan(harness, "leaderboard", "alice") if s.kind != "defer"][-1]
    assert "Nobody has finished today's challenge yet" in empty.text
    assert clock() - timedelta(days=1) < clock()


async def test_the_daily_prefix_command_points_to_the_slash_command(harness: Harness) -> None:
    out = await harness.say("!floorplan daily", "alice")
    assert len(out) == 1 and "/floorplan daily" in out[0].text and not out[0].pngs()
    assert await attempt_of(harness, "alice") is None
    out = await harness.say("!floorplan leaderboard global", "alice")
    assert "all servers" in out[-1].text
    out = await harness.say("!floorplan", "alice")
    assert "`/floorplan daily` plays today's game" in out[-1].text


async def test_the_daily_speaks_polish_and_refuses_a_resignation(harness: Harness) -> None:
    await harness.slash("language", "mod", language="pl")
    first = reply_of(await floorplan(harness, "daily", "dave"))
    assert "Wyzwanie dnia Floor Plan, 2026-01-01" in first.text and "/plan dzienne ruch:start " in first.text
    refused = reply_of(await floorplan(harness, "daily", "dave", move="resign"))
    assert refused.text.startswith("⚠️ W wyzwaniu dnia nie można się poddać") and refused.pngs()
    row = await attempt_of(harness, "dave")
    assert not row.finished and (await harness.bot.engine.get(row.game_id)).status == "active"
    board = [s for s in await floorplan(harness, "leaderboard", "dave") if s.kind != "defer"][-1]
    assert "ten serwer" in board.text and "Nikt jeszcze" in board.text


async def test_a_placement_is_previewed_and_only_confirm_plays_it(harness: Harness) -> None:
    await floorplan(harness, "daily", "alice")
    row = await attempt_of(harness, "alice")
    table = await harness.bot.engine.get(row.game_id)
    start = FP.bot_action(table.state, 0)
    preview = reply_of(await floorplan(harness, "daily", "alice", move=start))
    assert preview.labels() == ["Confirm", "Cancel"] and preview.pngs()
    assert (await harness.bot.engine.get(row.game_id)).moves == 0, "a preview plays nothing"

    other = await harness.click(preview, "Confirm", "bob")
    assert "not yours" in other[-1].text and (await harness.bot.engine.get(row.game_id)).moves == 0
    cancelled = await harness.click(preview, "Cancel", "alice")
    assert cancelled[-1].kind == "update" and "Cancelled" in harness.current(preview).text
    assert (await harness.bot.engine.get(row.game_id)).moves == 0

    old = reply_of(await floorplan(harness, "daily", "alice", move=start))
    new = reply_of(await floorplan(harness, "daily", "alice", move=start))
    gone = await harness.click(new, "Confirm", "alice")
    assert "Played:" in harness.current(new).text and gone[-1].kind == "update"
    stale = await harness.click(old, "Confirm", "alice")
    assert "out of date" in stale[-1].text
    table = await harness.bot.engine.get(row.game_id)
    assert table.moves == 1 and table.state.phase == "play"

    skipped = reply_of(await floorplan(harness, "daily", "alice", move="skip"))
    assert "Played: `skip`" in skipped.text and not skipped.components
    assert (await harness.bot.engine.get(row.game_id)).moves == 2


async def test_the_daily_accepts_polish_verbs_and_logs_the_english_notation(harness: Harness) -> None:
    await floorplan(harness, "daily", "alice")
    row = await attempt_of(harness, "alice")
    table = await harness.bot.engine.get(row.game_id)
    start = FP.bot_action(table.state, 0)
    assert start.startswith("start ")
    preview = reply_of(await floorplan(harness, "daily", "alice", move="pokój startowy " + start.split(" ", 1)[1]))
    assert preview.labels() == ["Confirm", "Cancel"]
    await harness.click(preview, "Confirm", "alice")
    skipped = reply_of(await floorplan(harness, "daily", "alice", move="pomiń"))
    assert "Played: `skip`" in skipped.text
    actions = [a.action for a in await harness.bot.engine.store.actions(row.game_id)]
    assert actions == [start, "skip"]


async def test_the_setup_example_where_no_centred_start_fits_is_the_bots_start_thought_over_off_the_loop(
        harness: Harness, monkeypatch: Any) -> None:
    import cogs.floor_plan_daily as daily_cog
    from render import pool as render_pool

    offloaded: list[str] = []
    real_draw = render_pool.draw

    async def draw(fn: Any, *args: Any, **kwargs: Any) -> Any:
        offloaded.append(fn.__name__)
        return await real_draw(fn, *args, **kwargs)

    monkeypatch.setattr(daily_cog, "start_example", lambda table: None)
    monkeypatch.setattr(daily_cog.render_pool, "draw", draw)
    first = reply_of(await floorplan(harness, "daily", "carol"))
    table = await harness.bot.engine.get((await attempt_of(harness, "carol")).game_id)
    assert table.state.phase == "setup"
    bots_start = FP.bot_action(table.state, 0)
    assert bots_start.startswith("start ") and f"move:{bots_start}" in first.text
    assert offloaded == ["think", "render_sheet"], "the bot's start is worked out where the sheet is drawn"


async def test_the_setup_example_falls_back_to_the_notations_own_when_the_bot_does_not_choose_in_time(
        harness: Harness, monkeypatch: Any) -> None:
    import cogs.floor_plan_daily as daily_cog
    from engine.bots import ThoughtTooLong
    from render import pool as render_pool
    from rules.floor_plan.notation import USAGE

    real_draw = render_pool.draw

    async def draw(fn: Any, *args: Any, **kwargs: Any) -> Any:
        if fn.__name__ == "think":
            raise ThoughtTooLong("over its limit")
        return await real_draw(fn, *args, **kwargs)

    monkeypatch.setattr(daily_cog, "start_example", lambda table: None)
    monkeypatch.setattr(daily_cog.render_pool, "draw", draw)
    first = reply_of(await floorplan(harness, "daily", "carol"))
    assert f"move:{USAGE['start']}" in first.text and first.pngs()
