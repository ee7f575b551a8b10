"""A damaged stored game in Discord: the bot starts with every cog loaded (The Floor's included), the game's
players are told once, /games still answers and marks it, typed chat in its thread is left alone, only its host or
an admin exports or ends it, and the other games play on."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.conftest import FakeClock
from tests.discord_harness import USERS, ErrorLog, Harness, open_table, start_table, table_of


async def restart_with_damage(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clock: FakeClock,
                              game: str) -> tuple[Harness, int, int]:
    """A healthy Night of the 27 Ninja game and a ``game`` whose state row is then truncated; the bot restarts."""
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "floorboard.db"
    old = await Harness(db, now=clock).start(monkeypatch)
    healthy = await start_table(old, joiners=["bob"], options="cards=none")
    await old.slash("play", "carol", game=game)
    lobby = old.with_button(":lobby:join:")
    await old.click(lobby, ":lobby:join:", "dave")
    await old.click(lobby, ":lobby:start:", "carol")
    broken = (await table_of(old, lobby.channel_id)).id
    threads = old.threads
    await old.close()
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE games SET state = substr(state, 1, 30) WHERE id = ?", (broken,))
    new = await Harness(db, now=clock).start(monkeypatch, threads=threads)
    return new, healthy, lobby.channel_id


@pytest.mark.parametrize("game", ["the_floor", "flying_blades", "floor_plan"])
async def test_a_damaged_game_leaves_every_cog_loaded_and_games_listing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clock: FakeClock, error_log: ErrorLog, game: str) -> None:
    h, healthy, broken_channel = await restart_with_damage(tmp_path, monkeypatch, clock, game)
    error_log.records.clear()  # the isolation itself is logged at ERROR, with the table id: expected here
    assert h.bot.failed_extensions == {}
    out = await h.slash("games", "alice", "general")
    assert "damaged" in out[-1].text and f"<#{healthy}>" in out[-1].text
    notices = [s for s in h.sent if "saved data is damaged" in s.text]
    assert len(notices) == 1 and notices[0].channel_id == broken_channel
    assert sorted(notices[0].pinged) == sorted([USERS["carol"], USERS["dave"]])
    await h.slash("games", "bob", "general")  # asked again: told once only
    assert len([s for s in h.sent if "saved data is damaged" in s.text]) == 1
    error_log.records.clear()
    await h.close()


async def test_moves_in_a_damaged_game_get_a_clear_reply_and_other_games_play_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clock: FakeClock, error_log: ErrorLog) -> None:
    h, healthy, broken_channel = await restart_with_damage(tmp_path, monkeypatch, clock, "flying_blades")
    out = await h.slash("move", "carol", broken_channel, action="pass")
    assert out[-1].ephemeral and "saved data is damaged" in out[-1].text
    assert await h.say("pass", "carol", broken_channel) == []  # typed chat in its thread: left alone
    table = await table_of(h, healthy)
    user = "alice" if table.seats[sorted(table.to_move())[0]].user_id == USERS["alice"] else "bob"
    out = await h.slash("move", user, healthy, action="pass")
    assert any("passes" in s.text for s in h.public(out))
    error_log.records.clear()
    await h.close()


async def test_only_the_host_or_an_admin_exports_or_ends_a_damaged_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clock: FakeClock, error_log: ErrorLog) -> None:
    h, _, broken_channel = await restart_with_damage(tmp_path, monkeypatch, clock, "flying_blades")
    out = await h.slash("record", "dave", broken_channel)
    assert out[-1].ephemeral and "Only the host" in out[-1].text
    out = await h.slash("record", "mod", broken_channel)
    text = out[-1].files[0][1].decode()
    assert '[Status "active (damaged)"]' in text and "[Seed" not in text
    out = await h.slash("abort", "dave", broken_channel)
    assert "Only the host" in out[-1].text
    out = await h.slash("abort", "carol", broken_channel)
    assert "was ended by" in out[-1].text
    assert await h.bot.engine.table_in_channel(broken_channel) is None
    out = await open_table(h, host="carol", channel=broken_channel)  # the thread is free for a new game
    error_log.records.clear()
    await h.close()
