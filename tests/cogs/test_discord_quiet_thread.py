"""A quieter, clearer game thread (issue 9): a run of bot moves is one message with one image that marks
every move, only the latest board carries live buttons, the end of a game pings its players and shows the
result in the thread's name, ``/record`` works in a finished thread, and a closed lobby loses its buttons."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import render.flying_blades as fb_render
from cogs.utils.ending import thread_title
from cogs.utils.posting import PROMPT_META
from cogs.utils.surface import GameSurface
from engine import SeatInfo
from rules.base import Outcome
from tests.conftest import FakeClock
from tests.discord_harness import (
    CHANNELS,
    USERS,
    ErrorLog,
    Harness,
    Sent,
    check_png,
    http_error,
    open_table,
    start_table,
    table_of,
)


def first_attack_or_pass(table: Any, seat: int) -> str:
    legal = table.rules.legal_actions(table.state, seat)
    return next((a for a in legal if a.startswith("attack")), "pass")


def posted(out: list[Sent]) -> list[Sent]:
    """The public messages a step posted (not edits, not the deferred "thinking…")."""
    return [s for s in out if s.public and s.kind in ("message", "followup", "response")]


@pytest.fixture
def drawn_runs(monkeypatch: pytest.MonkeyPatch) -> list[list[dict[str, Any]] | None]:
    """The ``moves`` each board image was drawn with (the renderer still draws them)."""
    calls: list[list[dict[str, Any]] | None] = []
    real = fb_render.render

    def spy(view: dict[str, Any], *, names: list[str] | None = None, locale: str = "en",
            moves: list[dict[str, Any]] | None = None) -> bytes:
        calls.append(moves)
        return real(view, names=names, locale=locale, moves=moves)

    monkeypatch.setattr(fb_render, "render", spy)
    return calls


async def human_move(h: Harness, channel_id: int, user: str = "alice") -> list[Sent]:
    table = await table_of(h, channel_id)
    return await h.slash("move", user, channel_id, action=first_attack_or_pass(table, table.seat_of(USERS[user])))


# --- 1. the bots' moves: one message, one image ---------------------------------------------------------------


@pytest.mark.parametrize(("bots", "board"), [(2, "house"), (3, "temple")])
async def test_a_human_move_and_the_bots_replies_are_one_message_with_one_image_marking_every_move(
        harness: Harness, drawn_runs: list[Any], bots: int, board: str) -> None:
    channel_id = await start_table(harness, bots=bots, options="cards=none")
    for _ in range(3):
        drawn_runs.clear()
        out = await human_move(harness, channel_id)
        messages = posted(out)
        assert len(messages) == 1, [m.text for m in messages]  # the issue asks for at most 2
        assert len(harness.images(messages)) == 1
        check_png(messages[0].pngs()[0])
        lines = messages[0].text.splitlines()
        assert "Alice" in lines[0] and [any(f"Bot {n}" in line for line in lines) for n in range(1, bots + 1)] \
            == [True] * bots
        assert messages[0].pinged == [USERS["alice"]]
        (moves,) = drawn_runs
        assert moves is not None and [m["seat"] for m in moves] == list(range(bots + 1))
    table = await table_of(harness, channel_id)
    assert table.rules.view(table.state, None)["board_name"] == board


async def test_a_timeout_and_the_bots_after_it_are_one_message_with_one_image(
        harness: Harness, clock: FakeClock, drawn_runs: list[Any]) -> None:
    channel_id = await start_table(harness, bots=3, options="cards=none turn_minutes=10")
    start, drawn_runs[:] = len(harness.sent), []
    clock.advance(minutes=11)
    await harness.bot.engine.run_due()
    await harness.settle()
    messages = [m for m in posted(harness.sent[start:]) if m.pngs()]
    assert len(messages) == 1 and messages[0].channel_id == channel_id
    assert "missed their turn (time ran out)" in messages[0].text
    assert [[m["seat"] for m in moves or []] for moves in drawn_runs] == [[0, 1, 2, 3]]


async def test_a_long_run_of_bot_moves_is_split_into_messages_of_at_most_six_moves(
        harness: Harness, drawn_runs: list[Any]) -> None:
    channel_id = await start_table(harness, bots=3, options="cards=none")
    out = await harness.say("!resign confirm", "alice", channel_id)  # the bots play the game out alone
    messages = posted(out)
    assert len(messages) > 2 and all(len(m.pngs()) == 1 for m in messages)
    assert all(len(moves or []) <= 6 for moves in drawn_runs)
    assert all(len(m.content or "") <= 2000 for m in messages)
    assert [bool(m.components) for m in messages] == [False] * (len(messages) - 1) + [True]  # Rematch only


# --- 2. only the latest prompt has live buttons ---------------------------------------------------------------


async def test_a_new_board_takes_the_buttons_off_the_previous_one_in_one_edit(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"])
    first = harness.with_button("Pass")
    stale = harness.snapshot(first)
    before = len(harness.button_removals())
    out = await human_move(harness, channel_id, "alice")
    second = posted(out)[-1]
    assert "Pass" in second.labels() and "Show my hand" in second.labels()
    assert harness.messages[first.message_id].components == []
    assert [e.message_id for e in harness.button_removals()[before:]] == [first.message_id]
    table = await table_of(harness, channel_id)
    assert table.meta[PROMPT_META] == second.message_id
    # a client that still shows the old buttons gets a clear refusal, and nothing moves
    refused = await harness.click(stale, "Pass", "bob")
    assert refused[-1].ephemeral and (await table_of(harness, channel_id)).moves == table.moves


@pytest.mark.parametrize(("status", "code"), [(404, 10008), (403, 50001), (429, 30046)])
async def test_an_old_board_that_cannot_be_edited_is_left_alone_and_the_game_goes_on(
        harness: Harness, status: int, code: int) -> None:
    channel_id = await start_table(harness, joiners=["bob"])
    first = harness.with_button("Pass")
    harness.edit_errors[first.message_id] = http_error(status, code)
    out = await human_move(harness, channel_id, "alice")
    second = posted(out)[-1]
    assert second.pngs() and second.pinged == [USERS["bob"]]
    assert (await table_of(harness, channel_id)).meta[PROMPT_META] == second.message_id


async def test_board_reposts_the_live_buttons_and_takes_them_off_the_last_board(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"])
    before = harness.with_button("Pass")
    out = await harness.slash("board", "bob", channel_id)
    repost = posted(out)[-1]
    assert "Pass" in repost.labels() and harness.messages[before.message_id].components == []


# --- 3. the end of a game -------------------------------------------------------------------------------------


async def finish_by_resigning(h: Harness) -> tuple[int, Sent]:
    """Alice and Bob both resign against a bot: the bot wins. Returns the thread and the result message."""
    channel_id = await start_table(h, joiners=["bob"], bots=1, options="cards=none")
    await h.say("!resign confirm", "alice", channel_id)
    out = await h.say("!resign confirm", "bob", channel_id)
    return channel_id, next(m for m in posted(out) if "Rematch" in m.labels())


async def test_the_result_pings_every_human_player_and_no_bot(harness: Harness) -> None:
    _, result = await finish_by_resigning(harness)
    assert sorted(result.pinged) == sorted([USERS["alice"], USERS["bob"]])
    assert f"<@{USERS['alice']}>" in result.content and f"<@{USERS['bob']}>" in result.content
    assert "game over" in result.text


async def test_the_finished_games_thread_shows_the_result_and_archives_after_an_hour(harness: Harness) -> None:
    channel_id, _ = await finish_by_resigning(harness)
    table = (await harness.bot.engine.store.games_in_guild(harness.guild.id, statuses=("finished",)))[0]
    assert harness.channel_edits == [(channel_id, {"name": f"✅ Night of the 27 Ninja #{table.id} — ⚙ Bot 1 wins",
                                                   "auto_archive_duration": 60})]
    thread = harness.bot.get_channel(channel_id)
    assert thread.name.endswith("⚙ Bot 1 wins") and thread.auto_archive_duration == 60


async def test_the_last_board_loses_its_buttons_when_the_game_ends(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"], bots=1, options="cards=none")
    board = harness.with_button("Pass")
    await harness.say("!resign confirm", "alice", channel_id)
    await harness.say("!resign confirm", "bob", channel_id)
    assert harness.messages[board.message_id].components == []
    assert harness.with_button("Rematch")  # the result's own button stays


async def test_record_and_prefix_record_work_in_a_finished_games_thread(harness: Harness) -> None:
    channel_id, _ = await finish_by_resigning(harness)
    out = await harness.slash("record", "bob", channel_id)
    assert out[-1].ephemeral and '[Status "finished"]' in out[-1].files[0][1].decode()
    out = await harness.say("!record", "carol", channel_id)
    assert '[Status "finished"]' in out[-1].files[0][1].decode()


async def test_record_in_a_channel_that_never_had_a_game_still_says_so(harness: Harness) -> None:
    await finish_by_resigning(harness)
    out = await harness.slash("record", "bob", "other")
    assert out[-1].ephemeral and not out[-1].files


async def test_a_thread_the_bot_may_not_rename_is_left_as_it_was(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"], bots=1, options="cards=none")
    harness.channel_edit_errors[channel_id] = http_error(403, 50013, "Missing Permissions")
    await harness.say("!resign confirm", "alice", channel_id)
    out = await harness.say("!resign confirm", "bob", channel_id)
    assert any("Rematch" in m.labels() for m in posted(out)) and harness.channel_edits == []


async def test_a_game_in_a_servers_own_channel_leaves_the_channels_name_alone(harness: Harness) -> None:
    await harness.slash("threads", "mod", enabled=False)
    channel_id = await start_table(harness, joiners=["bob"], bots=1, options="cards=none")
    assert channel_id == CHANNELS["general"]
    await harness.say("!resign confirm", "alice", channel_id)
    await harness.say("!resign confirm", "bob", channel_id)
    assert harness.with_button("Rematch") and harness.channel_edits == []


async def test_a_rematch_gives_the_thread_its_lobby_name_back_and_retires_the_rematch_button(harness: Harness) -> None:
    channel_id, result = await finish_by_resigning(harness)
    await harness.click(result, "Rematch", "bob")
    assert harness.messages[result.message_id].components == []  # one rematch per result
    name, archive = harness.channel_edits[-1][1]["name"], harness.channel_edits[-1][1]["auto_archive_duration"]
    assert "✅" not in name and "Bob" in name and archive == 10080
    assert harness.bot.get_channel(channel_id).name == name


def test_the_thread_name_fits_100_characters_and_keeps_names_unescaped() -> None:
    seats = [SeatInfo(i, f"**Gracz\u202e_{i}_" + "x" * 24) for i in range(5)]
    table = SimpleNamespace(id=123456, status="finished", meta={}, seats=seats,
                            outcome=Outcome(winners=[0, 1, 2, 3, 4], ranking=[[0, 1, 2, 3, 4]], scores=[0] * 5,
                                            reason=""))
    surface = GameSurface()
    surface.game_id = "flying_blades"
    name = thread_title(surface, table, "pl")  # type: ignore[arg-type]
    assert len(name) <= 100 and name.startswith("✅") and "#123456" in name and "wygrywają" in name
    assert "**Gracz_0_" in name and "\u202e" not in name and "\\" not in name and name.endswith("…")


# --- 4. closed lobbies ----------------------------------------------------------------------------------------


async def test_an_expired_lobby_loses_its_buttons_and_its_thread_says_so(harness: Harness,
                                                                          clock: FakeClock) -> None:
    channel_id, lobby = await open_table(harness)
    table = await table_of(harness, channel_id)
    clock.advance(minutes=31)
    await harness.bot.engine.run_due()
    await harness.settle()
    message = harness.messages[lobby.message_id]
    assert message.components == [] and "closed" in message.text.lower()
    name = f"⌛ Night of the 27 Ninja #{table.id} — lobby expired"
    assert harness.channel_edits == [(channel_id, {"name": name, "auto_archive_duration": 60})]


async def test_aborting_a_lobby_takes_its_buttons_away(harness: Harness) -> None:
    channel_id, lobby = await open_table(harness)
    stale = harness.snapshot(lobby)
    await harness.slash("abort", "alice", channel_id)
    assert harness.messages[lobby.message_id].components == []
    assert harness.bot.get_channel(channel_id).name.endswith("aborted")
    out = await harness.click(stale, "Join", "bob")  # a client that still shows them: refused as before
    assert out[-1].ephemeral


async def test_a_lobby_posted_again_by_board_is_the_one_with_live_buttons_and_the_one_closed(
        harness: Harness) -> None:
    channel_id, lobby = await open_table(harness)
    again = (await harness.slash("board", "alice", channel_id))[-1]
    assert "Join" in again.labels() and again.message_id != lobby.message_id
    assert harness.messages[lobby.message_id].components == [], "the first lobby message lost its buttons"
    await harness.click(again, "Join", "bob")
    await harness.slash("abort", "alice", channel_id)
    assert harness.messages[again.message_id].components == []


async def test_a_lobby_opened_in_the_channel_is_remembered_and_closed_too(harness: Harness) -> None:
    await harness.slash("threads", "mod", enabled=False)
    _, lobby = await open_table(harness)
    await harness.slash("abort", "alice")
    assert harness.messages[lobby.message_id].components == [] and harness.channel_edits == []


async def test_aborting_a_running_game_takes_the_last_boards_buttons_away(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"])
    board = harness.with_button("Pass")
    await harness.slash("abort", "alice", channel_id)
    assert harness.messages[board.message_id].components == []
    assert harness.bot.get_channel(channel_id).name.endswith("aborted")


# --- a restart keeps the bookkeeping ----------------------------------------------------------------------------


async def test_after_a_restart_the_next_board_still_takes_the_buttons_off_the_last_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clock: FakeClock, error_log: ErrorLog) -> None:
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "floorboard.db"
    old = await Harness(db, now=clock).start(monkeypatch)
    channel_id = await start_table(old, joiners=["bob"], options="cards=none")
    board = old.with_button("Pass")
    threads, old_sent = old.threads, old.sent
    await old.close()
    new = await Harness(db, now=clock).start(monkeypatch, threads=threads)
    new.sent, new.messages = list(old_sent), {s.message_id: s for s in old_sent if s.message_id}
    await human_move(new, channel_id, "alice")
    assert new.messages[board.message_id].components == []
    await new.close()
