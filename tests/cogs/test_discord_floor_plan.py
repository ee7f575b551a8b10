"""Floor Plan through the Discord surface: private previews with Confirm / Cancel, one public summary per round,
/sheet, and summaries that fit Discord's limits even with 100 players."""

from __future__ import annotations

import re
import time
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest

from cogs.floor_plan import (
    PREVIEW_TEMPLATE,
    FloorPlanSurface,
    PreviewButton,
    TableButton,
    mention_chunks,
    post_kwargs,
    round_posts,
)
from cogs.utils.posting import after_move
from cogs.utils.surface import Segment
from engine import ActResult, SeatInfo, Table
from rules.floor_plan import FloorPlan
from tests.discord_harness import USERS, Harness, Sent, check_embeds, check_png, table_of

MAX_ROUNDS = 40


async def start_floor_plan(h: Harness, joiners: tuple[str, ...] = (), bots: int = 0,
                           options: str = "") -> tuple[int, list[Sent]]:
    kwargs = {"options": options} if options else {}
    await h.slash("play", "alice", game="floor_plan", **kwargs)
    lobby = h.with_button(":lobby:join:")
    for user in joiners:
        await h.click(lobby, ":lobby:join:", user)
    for _ in range(bots):
        await h.click(lobby, ":lobby:bot:", "alice")
    out = await h.click(lobby, ":lobby:start:", "alice")
    return lobby.channel_id, out


async def preview(h: Harness, user: str, channel_id: int, action: str) -> Sent:
    out = await h.slash("move", user, channel_id, action=action)
    assert not h.public(out), [s.text for s in h.public(out)]
    reply = out[-1]
    assert reply.ephemeral, reply.text
    return reply


def check_limits(sent: list[Sent]) -> None:
    for s in sent:
        assert len(s.content or "") <= 2000, len(s.content or "")
        check_embeds(s.embeds)
        assert all(len(cid) <= 100 for cid in s.custom_ids())
        for row in s.components:
            assert len(row.get("components", [])) <= 5


async def test_a_three_player_game_with_previews_from_play_to_the_end(harness: Harness) -> None:
    h = harness
    started = time.perf_counter()
    channel_id, out = await start_floor_plan(h, joiners=("bob",), bots=1)
    table = await table_of(h, channel_id)
    users = {0: "alice", 1: "bob"}
    # the start: one public message with the intro and the setup ping for both humans (the bot has drawn)
    ping = h.public(out)[-1]
    assert "Setup, roll 6" in ping.text and sorted(ping.pinged) == sorted([USERS["alice"], USERS["bob"]])
    assert table.to_move() == {0, 1}

    # typed moves are refused with a hint (they would be public), and so is !move
    said = await h.say("skip", "alice", channel_id)
    assert len(said) == 1 and "/move" in said[0].text
    said = await h.say("!move skip", "alice", channel_id)
    assert len(said) == 1 and "/move" in said[0].text
    assert (await table_of(h, channel_id)).to_move() == {0, 1}

    # setup: a refused start is answered privately; a good one is previewed, not played, until Confirm
    bad = await preview(h, "alice", channel_id, "start A1 6x3")
    assert not bad.pngs() and not bad.custom_ids()
    start = table.rules.bot_action(table.state, 0)
    shown = await preview(h, "alice", channel_id, start)
    assert shown.pngs() and "Preview of" in shown.text and [lab for lab in shown.labels()] == ["Confirm", "Cancel"]
    check_png(shown.pngs()[0])
    assert (await table_of(h, channel_id)).to_move() == {0, 1}, "a preview plays nothing"
    # only alice may answer her preview
    refused = await h.click(shown, "Confirm", "bob")
    assert refused[-1].ephemeral and "belongs to" in refused[-1].text
    # Cancel, then preview again and confirm
    out = await h.click(shown, "Cancel", "alice")
    assert "Cancelled" in h.current(shown).text and not h.current(shown).custom_ids()
    assert (await table_of(h, channel_id)).to_move() == {0, 1}
    shown = await preview(h, "alice", channel_id, start)
    out = await h.click(shown, "Confirm", "alice")
    assert not h.public(out), "one player's move posts nothing in public"
    update = next(s for s in out if s.kind == "update")
    assert "Drawn:" in update.text and update.payload.get("attachments") == [] and not update.custom_ids()
    assert (await table_of(h, channel_id)).to_move() == {1}
    again = await preview(h, "alice", channel_id, start)
    assert "already drawn" in again.text and not again.custom_ids()

    # My sheet / /sheet: own sheet with this round's work, another player's public sheet
    out = await h.slash("sheet", "alice", channel_id)
    assert out[-1].ephemeral and out[-1].pngs() and "Your blueprint" in out[-1].text
    assert "Drawn this round" in out[-1].text
    out = await h.slash("sheet", "bob", channel_id, player="alice")
    assert out[-1].ephemeral and out[-1].pngs() and "Alice's blueprint" in out[-1].text
    assert "Drawn this round" not in out[-1].text, "another player's pending work stays private"
    out = await h.slash("hand", "alice", channel_id)
    assert out[-1].ephemeral and out[-1].pngs() and "Drawn this round" in out[-1].text
    out = await h.slash("board", "bob", channel_id)
    board = h.public(out)[-1]
    assert "still to draw" in board.text and not board.pinged and board.pngs()
    out = await h.slash("sheet", "bob", channel_id, player="nobody")
    assert out[-1].ephemeral and "No player called" in out[-1].text

    # a stale preview: bob previews, the round closes some other way, then his Confirm is refused
    table = await table_of(h, channel_id)
    stale = await preview(h, "bob", channel_id, table.rules.bot_action(table.state, 1))
    snapshot = h.snapshot(stale)
    result = await h.bot.engine.act(table.id, USERS["bob"], table.rules.bot_action(table.state, 1))
    assert any(e.kind == "round_closed" for e in result.events)
    await h.bot.engine.play_bots(table.id)  # what the surface does after a move that opens a round
    out = await h.click(snapshot, "Confirm", "bob")
    assert out[-1].ephemeral and "moved on" in out[-1].text
    out = await h.click(snapshot, "Confirm", "bob")
    assert out[-1].ephemeral and "no longer current" in out[-1].text

    # play to the end: every human previews the bot's choice and confirms; the last one closes the round
    summaries = 0
    claims_seen = claims_offered = False
    for _ in range(MAX_ROUNDS):
        table = await table_of(h, channel_id) if await h.bot.engine.table_in_channel(channel_id) else None
        if table is None or table.status != "active":
            break
        assert table.to_move() - {0, 1} == set(), "the bot acts at the start of each round"
        for seat in sorted(table.humans_to_move()):
            table = await h.bot.engine.get(table.id)
            if seat not in table.to_move():
                continue
            action = table.rules.bot_action(table.state, seat)
            main, _, claim = action.partition("; claim ")
            if claim and not claims_offered:  # the preview of the placement alone offers the claim it allows
                shown = await preview(h, users[seat], channel_id, main)
                first = claim.split(";")[0].split()[0]  # (the bot may claim several demands)
                assert "you could claim" in shown.text and f"`claim {first}`" in shown.text
                claims_offered = True
            shown = await preview(h, users[seat], channel_id, action)
            out = await h.click(shown, "Confirm", users[seat])
            public = h.public(out)
            if not public:
                continue
            summary = next(s for s in public if s.pngs())
            summaries += 1
            claims_seen = claims_seen or "Demands claimed" in summary.text
            assert "closed" in summary.text or "game over" in summary.text, summary.text
    else:
        pytest.fail("the game did not end")

    final = h.with_button("Rematch")
    assert "game over" in final.text and "🥇" in final.text
    assert summaries >= 3 and claims_seen and claims_offered
    # was "no Floor Plan game here" once the game ended: the thread still shows the final blueprints
    out = await h.slash("sheet", "alice", channel_id)
    assert out[-1].ephemeral and out[-1].pngs() and "Your blueprint" in out[-1].text, out[-1].text
    out = await h.slash("sheet", "carol", channel_id, player="alice")
    assert out[-1].ephemeral and out[-1].pngs() and "Alice's blueprint" in out[-1].text, out[-1].text
    out = await h.slash("help", "bob", channel_id, game="floor_plan")
    assert out[-1].ephemeral and "`room C3 4x3 K@D4`" in out[-1].text
    check_embeds(out[-1].embeds)
    for png in h.images():
        check_png(png)
    check_limits(h.sent)
    print(f"floor plan game: {summaries} summaries, {len(h.images())} images, "
          f"{time.perf_counter() - started:.1f}s")


async def test_the_status_message_counts_who_has_drawn(harness: Harness) -> None:
    h = harness
    channel_id, _ = await start_floor_plan(h, joiners=("bob", "carol"))
    table = await table_of(h, channel_id)
    shown = await preview(h, "bob", channel_id, table.rules.bot_action(table.state, 1))
    await h.click(shown, "Confirm", "bob")
    await h.pass_time(seconds=30)
    table = await table_of(h, channel_id)
    status = h.messages[table.meta["status_message_id"]]
    assert "1/3 have drawn" in status.text


def fake_table(players: int, humans: int = 100) -> tuple[Table, list[ActResult]]:
    """A 100-seat game played by the rules alone for a few rounds: the results a round summary is built from."""
    rules = FloorPlan()
    state = rules.new(players, {}, "big-seed")
    seats = [SeatInfo(10**17 + i, f"Player number {i + 1:03d}") if i < humans else SeatInfo(None, f"Bot {i}", True)
             for i in range(players)]
    now = datetime.now(UTC)
    table = Table(id=7, game="floor_plan", rules=rules, guild_id=1, channel_id=2, host_id=seats[0].user_id or 0,
                  status="active", options={}, seed="big-seed", seats=seats, version=1, moves=0, state=state,
                  meta={}, outcome=None, created_at=now, updated_at=now)
    results = []
    for _ in range(3):  # setup and two rounds
        for seat in sorted(rules.to_move(table.state)):
            action = rules.bot_action(table.state, seat)
            state, events = rules.apply(table.state, seat, rules.notation(table.state, action))
            table = replace(table, state=state, version=table.version + 1)
            results.append(ActResult(table, seat, action, events))
    return table, results


@pytest.mark.parametrize(("players", "locale"), [(100, "en"), (5, "en"), (100, "pl")])
async def test_a_round_summary_fits_discords_limits(players: int, locale: str) -> None:
    _, results = fake_table(players)
    surface = FloorPlanSurface()
    segments = [Segment("", r.table, image=False, result=r) for r in results[-players:]]
    posts = round_posts(surface, None, segments, locale)  # type: ignore[arg-type]
    assert posts and posts[0].embed is not None and posts[0].image is not None
    for post in posts:
        kw = await post_kwargs(post, locale)
        assert len(kw.get("content") or "") <= 2000
        if "embed" in kw:
            check_embeds([kw["embed"].to_dict()])
        if "file" in kw:
            check_png(kw["file"].fp.read())
    text = "\n".join(p.content for p in posts)
    assert text.count("<@") == players, "every human to act is pinged"
    if players == 100:
        more = "more" if locale == "en" else "jeszcze"
        assert len(posts) >= 2 and more in posts[0].embed.description


def test_mentions_are_chunked_under_the_limit() -> None:
    mentions = [f"<@{10**18 + i}>" for i in range(100)]
    chunks = mention_chunks(mentions, "Round 3:")
    assert len(chunks) == 2 and all(len(c) <= 2000 for c in chunks)
    assert sum(c.count("<@") for c in chunks) == 100


@pytest.mark.parametrize("make", [
    lambda t, v: TableButton("sheet", t),
    lambda t, v: PreviewButton("ok", t, 2**63 - 1, v, "0123abcd"),
    lambda t, v: PreviewButton("no", t, 730000000000000001, v, "ffffffff"),
])
def test_custom_ids_fit_and_match_their_template(make: Any) -> None:
    for table, version in ((1, 0), (10**12, 10**9), (2**63 - 1, 2**63 - 1)):
        cid = make(table, version).item.custom_id
        assert len(cid) <= 100
        assert re.fullmatch(make(table, version).__discord_ui_compiled_template__, cid)
    assert PREVIEW_TEMPLATE


async def test_round_timer_reminds_once_then_skips_for_who_missed_it(harness: Harness, clock: Any) -> None:
    h = harness
    channel_id, _ = await start_floor_plan(h, joiners=("bob", "carol"), options="round_minutes=10")
    table = await table_of(h, channel_id)
    shown = await preview(h, "bob", channel_id, table.rules.bot_action(table.state, 1))
    await h.click(shown, "Confirm", "bob")
    start = len(h.sent)
    clock.advance(minutes=6)
    await h.bot.engine.run_due()
    await h.settle()
    reminders = h.public(h.sent[start:])
    assert len(reminders) == 1, "one reminder per round, however many seats are late"
    assert sorted(reminders[0].pinged) == sorted([USERS["alice"], USERS["carol"]])
    start = len(h.sent)
    clock.advance(minutes=3)  # a minute before the end: one last call for the round, with its time
    await h.bot.engine.run_due()
    await h.settle()
    (warning,) = h.public(h.sent[start:])
    assert "last call" in warning.text and "<t:" in warning.text
    assert sorted(warning.pinged) == sorted([USERS["alice"], USERS["carol"]])
    start = len(h.sent)
    clock.advance(minutes=2)
    await h.bot.engine.run_due()
    await h.settle()
    posts = [s for s in h.public(h.sent[start:]) if s.kind == "message" and (s.pngs() or s.pinged)]
    assert len(posts) == 1, [p.text for p in posts]
    summary = posts[0]
    assert "every starting room is drawn" in summary.text and len(summary.pinged) == 3
    check_png(summary.pngs()[0])
    table = await table_of(h, channel_id)
    assert table.state.phase == "play" and table.to_move() == {0, 1, 2}
    # a missed round in play draws nothing (like a skip) and is logged as a timeout, never as a skip
    clock.advance(minutes=11)
    await h.bot.engine.run_due()
    await h.settle()
    table = await table_of(h, channel_id)
    assert table.state.round == 2
    record = await h.bot.engine.record(table.id)
    assert "0 timeout" in record and "skip" not in record


async def test_a_solo_game_ends_with_its_rating(harness: Harness) -> None:
    h = harness
    channel_id, _ = await start_floor_plan(h)
    table = await table_of(h, channel_id)
    for _ in range(MAX_ROUNDS):
        if table.status != "active":
            break
        shown = await preview(h, "alice", channel_id, table.rules.bot_action(table.state, 0))
        await h.click(shown, "Confirm", "alice")
        table = await h.bot.engine.get(table.id)
    else:
        pytest.fail("the solo game did not end")
    final = h.with_button("Rematch")
    assert "Solo rating:" in final.text and final.pngs()
    check_png(final.pngs()[0])
    check_limits(h.sent)
    # the end of a game as in every game: the result pings the player, the thread shows it and archives
    assert final.pinged == [USERS["alice"]]
    assert h.channel_edits and h.channel_edits[-1][0] == channel_id
    edit = h.channel_edits[-1][1]
    assert edit["name"].startswith("✅ Floor Plan") and edit["auto_archive_duration"] == 60


async def test_a_hundred_player_round_through_the_bot_stays_within_limits(harness: Harness) -> None:
    h = harness
    engine = h.bot.engine
    lobby_cog = h.bot.get_cog("Lobby")
    channel = h.channels["general"]
    table = await engine.open_lobby("floor_plan", guild_id=h.guild.id, channel_id=channel.id,
                                    host=SeatInfo(USERS["alice"], "Alice"))
    for i in range(1, 100):
        table = await engine.join(table.id, SeatInfo(10**17 + i, f"A rather long player name {i:03d}"))
    table = await engine.start(table.id, USERS["alice"])
    start = len(h.sent)
    await lobby_cog.begin(table, "en")
    await h.settle()
    posted = h.public(h.sent[start:])
    assert sum(len(s.pinged) > 0 for s in posted) >= 2, "100 mentions need more than one message"
    assert {u for s in posted for u in s.pinged} >= {10**17 + i for i in range(1, 100)}
    check_limits(posted)
    started = time.perf_counter()
    for _ in range(2):  # setup and round 1: every seat acts, the last one's move posts the summary
        start = len(h.sent)
        table = await engine.get(table.id)
        for seat in sorted(table.to_move()):
            table = await engine.get(table.id)
            user = table.seats[seat].user_id
            result = await engine.act(table.id, user, table.rules.bot_action(table.state, seat))
            await after_move(h.bot, result, "en", channel=channel)
        await h.settle()
        posted = h.public(h.sent[start:])
        summaries = [s for s in posted if s.pngs()]
        assert len(summaries) == 1, "one public summary per round, nothing per player"
        check_png(summaries[0].pngs()[0])
        assert "more" in summaries[0].text
        check_limits(posted)
    await h.pass_time(seconds=60)
    check_limits(h.edits)
    print(f"100 players: two rounds through the bot in {time.perf_counter() - started:.1f}s")


async def test_after_a_restart_a_preview_asks_again_and_my_sheet_still_works(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch, clock: Any, error_log: Any) -> None:
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "floorboard.db"
    old = await Harness(db, now=clock).start(monkeypatch)
    channel_id, _ = await start_floor_plan(old, joiners=("bob",))
    table = await table_of(old, channel_id)
    shown = await preview(old, "alice", channel_id, table.rules.bot_action(table.state, 0))
    ping = old.with_button("My sheet")
    threads, old_sent = old.threads, old.sent
    await old.close()

    new = await Harness(db, now=clock).start(monkeypatch, threads=threads)
    new.sent, new.messages = list(old_sent), {s.message_id: s for s in old_sent if s.message_id}
    out = await new.click(shown, "Confirm", "alice")
    assert out[-1].ephemeral and "no longer current" in out[-1].text
    assert (await table_of(new, channel_id)).to_move() == {0, 1}
    out = await new.click(ping, "My sheet", "bob")
    assert out[-1].ephemeral and out[-1].pngs() and "Your blueprint, Bob" in out[-1].text
    out = await new.click(ping, "My sheet", "carol")
    assert out[-1].ephemeral and "no blueprint" in out[-1].text
    await new.close()
