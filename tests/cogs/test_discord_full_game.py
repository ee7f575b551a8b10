"""A whole game through the Discord surface, from /play to the result, and a restart in the middle."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.conftest import FakeClock
from tests.discord_harness import (
    USERS,
    ErrorLog,
    Harness,
    check_png,
    open_table,
    start_table,
    table_of,
)

MAX_HUMAN_MOVES = 400


def choose(table: object, seat: int) -> str:
    """A human who attacks when she can and otherwise passes (so the game ends)."""
    legal = table.rules.legal_actions(table.state, seat)  # type: ignore[attr-defined]
    attacks = [a for a in legal if a.startswith("attack")]
    return attacks[len(attacks) // 2] if attacks else "pass"


async def test_full_three_player_game_one_human_two_bots(harness: Harness) -> None:
    started = time.perf_counter()
    await harness.slash("play", "alice", game="flying_blades")
    lobby = harness.with_button("Join")
    channel_id = lobby.channel_id
    await harness.click(lobby, "Add bot", "alice")
    await harness.click(lobby, "Add bot", "alice")
    await harness.click(lobby, "Start", "alice")
    board = harness.with_button("Choose cards")
    assert board.pinged == [USERS["alice"]]
    assert "Bot 1 has chosen" in board.text and "Bot 2 has chosen" in board.text
    menu = (await harness.click(board, "Choose cards", "alice"))[-1]
    select = next(c for row in menu.components for c in row["components"] if c["type"] == 3)
    cheapest = min(select["options"], key=lambda o: int(o["label"].rsplit("(", 1)[1].rstrip(")")))
    out = await harness.select(menu, [cheapest["value"]], "alice")
    assert "moves first" in harness.public(out)[-1].text

    doors = ("slash", "typed", "prefix", "button")
    for n in range(MAX_HUMAN_MOVES):
        table = await table_of(harness, channel_id)
        assert table.to_move() == {0}, "after the bots, it is always the human's turn"
        action = choose(table, 0)
        door = doors[n % len(doors)]
        if action == "pass" and door == "button":
            out = await harness.click(harness.with_button("Pass"), "Pass", "alice")
        elif door == "slash" or door == "button":
            out = await harness.slash("move", "alice", channel_id, action=action)
        elif door == "typed":
            out = await harness.say(action, "alice", channel_id)
        else:
            out = await harness.say(f"!move {action}", "alice", channel_id)
        assert not any(s.ephemeral and s.kind not in ("defer",) for s in out), [s.text for s in out]
        if await harness.bot.engine.table_in_channel(channel_id) is None:
            break
    else:
        pytest.fail("the game did not end")

    final = harness.with_button("Rematch")
    assert "game over" in final.text and "🥇" in final.text
    assert '[Status "finished"]' in await harness.bot.engine.record(table.id)
    images = harness.images()
    assert len(images) > 20
    for png in images:
        check_png(png)
    for s in harness.sent:
        assert all(len(cid) <= 100 for cid in s.custom_ids())
        assert len(s.content or "") <= 2000
        for row in s.components:
            assert len(row.get("components", [])) <= 5
    print(f"full game: {len(images)} images, {len(harness.sent)} sends, {time.perf_counter() - started:.1f}s")


async def test_a_three_human_game_with_typed_moves_reaches_the_end(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob", "carol"], options="cards=none")
    table = await table_of(harness, channel_id)
    names = {0: "alice", 1: "bob", 2: "carol"}
    for _ in range(MAX_HUMAN_MOVES):
        table = await harness.bot.engine.get(table.id)
        if table.status != "active":
            break
        seat = next(iter(table.to_move()))
        out = await harness.say(choose(table, seat), names[seat], channel_id)
        assert len(out) == 1 and out[0].pngs()
        nxt = (await harness.bot.engine.get(table.id))
        if nxt.status == "active":
            assert out[0].pinged == [USERS[names[next(iter(nxt.to_move()))]]]
    assert table.status == "finished"
    assert harness.with_button("Rematch").embeds[0]["title"].endswith("game over")


async def test_buttons_sent_before_a_restart_still_work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         clock: FakeClock, error_log: ErrorLog) -> None:
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "floorboard.db"
    old = await Harness(db, now=clock).start(monkeypatch)
    channel_id, lobby = await open_table(old, joiners=["bob"])
    await old.click(lobby, "Start", "alice")
    board = old.with_button("Choose cards")
    shown = old.snapshot(board)  # as a client showed it before the restart
    threads, old_sent = old.threads, old.sent
    await old.close()

    new = await Harness(db, now=clock).start(monkeypatch, threads=threads)
    new.sent, new.messages = list(old_sent), {s.message_id: s for s in old_sent if s.message_id}
    menu = (await new.click(board, "Choose cards", "alice"))[-1]
    assert menu.ephemeral and "Dealt to you" in menu.text
    await new.click(menu, "Keep no cards", "alice")
    menu = (await new.click(shown, "Choose cards", "bob"))[-1]
    out = await new.click(menu, "Keep no cards", "bob")
    assert "moves first" in new.public(out)[-1].text
    table = await table_of(new, channel_id)
    assert table.state.phase == "play"
    out = await new.click(shown, "Show my hand", "bob")
    assert out[-1].ephemeral and out[-1].pngs()
    # the status message (the lobby message, its id in the table's meta) is still the one kept current
    assert new.edits and {e.message_id for e in new.status_edits()} == {lobby.message_id}
    assert "Moves" in new.messages[lobby.message_id].text
    await new.close()
