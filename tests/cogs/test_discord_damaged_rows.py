"""A damaged stored game in Discord: the bot starts with every cog loaded (The Floor's included), the game's
players are told once, /games still answers and marks it, typed chat in its thread is left alone, only its host or
an admin exports or ends it, and the other games play on."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from tests.cogs.test_discord_game_admin import gameadmin, reply
from tests.conftest import FakeClock
from tests.discord_harness import USERS, ErrorLog, Harness, open_table, start_table, table_of

TRUNCATED_STATE = "UPDATE games SET state = substr(state, 1, 30) WHERE id = ?"


async def restart_with_damage(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clock: FakeClock,
                              game: str, fault: str = TRUNCATED_STATE) -> tuple[Harness, int, int]:
    """A healthy Night of the 27 Ninja game and a ``game`` (carol hosts, dave joined) whose row is then damaged by
    ``fault`` (its state truncated by default); the bot restarts."""
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
        conn.execute(fault, (broken,))
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


# --- damage outside the JSON columns: read as damaged, never as a healthy game that then crashes --------------

HUGE_VERSION = "UPDATE games SET version = 99999999999999999999 WHERE id = ?"
DAMAGED = "saved data is damaged"


async def test_version_past_64_bits_is_reported_as_damage_and_abort_frees_the_thread(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clock: FakeClock, error_log: ErrorLog) -> None:
    h, _, broken = await restart_with_damage(tmp_path, monkeypatch, clock, "flying_blades", HUGE_VERSION)
    out = await h.slash("move", "carol", broken, action="keep none")
    assert out[-1].ephemeral and DAMAGED in out[-1].text
    out = await gameadmin(h, "adjudicate", "mod", broken)
    assert DAMAGED in reply(out).text
    out = await gameadmin(h, "bot", "mod", broken, seat=1)
    assert DAMAGED in reply(out).text and not any("handed seat" in s.text for s in out)
    out = await h.slash("play", "carol", broken, game="flying_blades")  # the thread names its way out
    assert DAMAGED in out[-1].text and "/abort" in out[-1].text and "already has a game" not in out[-1].text
    out = await h.slash("abort", "carol", broken)
    assert "was ended by" in out[-1].text
    await open_table(h, host="carol", channel=broken)  # the thread is free for a new game
    assert (await table_of(h, broken)).status == "lobby"
    assert not [r for r in error_log.records if r.exc_info is not None]  # no traceback on the way
    error_log.records.clear()
    await h.close()


async def test_moves_not_a_number_is_reported_as_damage_and_its_timer_stops_failing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clock: FakeClock, error_log: ErrorLog) -> None:
    h, _, broken = await restart_with_damage(tmp_path, monkeypatch, clock, "flying_blades",
                                             "UPDATE games SET moves = 'abc' WHERE id = ?")
    out = await h.slash("move", "carol", broken, action="keep none")
    assert out[-1].ephemeral and DAMAGED in out[-1].text
    for _ in range(3):
        await h.pass_time(days=2)  # past any turn clock: the scheduler meets its deadlines
    assert not [r for r in error_log.records if r.exc_info is not None]
    assert len([s for s in h.sent if DAMAGED in s.text and s.channel_id == broken and s.public]) == 1
    error_log.records.clear()
    await h.close()


async def test_channel_id_not_a_number_is_listed_as_damaged_never_as_your_move(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clock: FakeClock, error_log: ErrorLog) -> None:
    h, healthy, broken = await restart_with_damage(tmp_path, monkeypatch, clock, "flying_blades",
                                                   "UPDATE games SET channel_id = 'abc' WHERE id = ?")
    out = await h.slash("games", "carol", "general")
    broken_id = next(int(n) for n in re.findall(r"#(\d+) · damaged", out[-1].text))
    assert f"<#{broken}>" not in out[-1].text and f"<#{healthy}>" in out[-1].text
    out = await h.slash("mygames", "carol")
    assert f"#{broken_id}" not in out[-1].text
    # its thread cannot be found from the row, so it is ended by number from anywhere on the server
    out = await h.slash("abort", "bob", "general", table=broken_id)
    assert "host" in out[-1].text and out[-1].ephemeral  # only its host or an admin
    out = await h.slash("abort", "alice", "general", table=(await table_of(h, healthy)).id)
    assert "is not damaged" in out[-1].text and f"<#{healthy}>" in out[-1].text
    out = await h.slash("abort", "carol", "general", table=broken_id)
    assert "was ended by" in out[-1].text
    out = await h.slash("games", "carol", "general")
    assert f"#{broken_id} · damaged" not in out[-1].text
    error_log.records.clear()
    await h.close()


async def test_a_seat_user_id_stored_as_text_tells_that_player_the_game_is_damaged(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clock: FakeClock, error_log: ErrorLog) -> None:
    fault = f"UPDATE games SET seats = json_set(seats, '$[1].user_id', '{USERS['dave']}') WHERE id = ?"
    h, _, broken = await restart_with_damage(tmp_path, monkeypatch, clock, "flying_blades", fault)
    out = await h.slash("move", "dave", broken, action="keep none")
    assert DAMAGED in out[-1].text and "not playing" not in out[-1].text
    error_log.records.clear()
    await h.close()
