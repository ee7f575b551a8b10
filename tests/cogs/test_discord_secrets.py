"""The seed is a secret while a game runs: every deal, draw, die and letter follows from it. No output a member
can trigger (record, board, status, games list, hand, help, error replies, logs at INFO) shows it until the game
is over; then the record carries it as the proof of a fair deal. One test per output and game with hidden
information (Night of the 27 Ninja's hands, Floor Plan's future rolls, The Floor's draft hands and letters)."""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable

import pytest

from tests.discord_harness import Harness, Sent, start_table, table_of

SEED = "harness-seed"


async def start_flying_blades(h: Harness) -> int:
    return await start_table(h, joiners=["bob"], keep_none=False)  # hands still hidden in the draft


async def start_game(h: Harness, game: str) -> int:
    await h.slash("play", "alice", game=game)
    lobby = h.with_button(":lobby:join:")
    await h.click(lobby, ":lobby:join:", "bob")
    await h.click(lobby, ":lobby:start:", "alice")
    return lobby.channel_id


STARTERS: dict[str, Callable[[Harness], Awaitable[int]]] = {
    "flying_blades": start_flying_blades,
    "floor_plan": lambda h: start_game(h, "floor_plan"),
    "the_floor": lambda h: start_game(h, "the_floor"),
}

OUTPUTS: dict[str, Callable[[Harness, int], Awaitable[list[Sent]]]] = {
    "slash_record": lambda h, c: h.slash("record", "carol", c),
    "prefix_record": lambda h, c: h.say("!record", "bob", c),
    "board": lambda h, c: h.slash("board", "bob", c),
    "games": lambda h, c: h.slash("games", "carol", "general"),
    "hand": lambda h, c: h.slash("hand", "bob", c),
    "help": lambda h, c: h.slash("help", "bob", c, game="flying_blades"),
    "bad_move_reply": lambda h, c: h.slash("move", "bob", c, action=f"attack {SEED}"),
    "typed_move_reply": lambda h, c: h.say(TYPED_BAD_MOVE[h.game], "bob", c),
    "replay": lambda h, c: h.slash("replay", "carol", c),
    "replay_animated": lambda h, c: h.slash("replay", "carol", c, animate=True),
}
TYPED_BAD_MOVE = {"flying_blades": "attack a1 a2", "floor_plan": "skip", "the_floor": "challenge A1 A2"}


def leaks(sent: list[Sent], secret: str) -> list[str]:
    """Every place ``secret`` shows up in what was sent: text, raw payload, or a text file's bytes."""
    found = []
    for s in sent:
        if secret in s.text or secret in json.dumps(s.payload, default=str):
            found.append(f"{s.kind} in {s.channel_id}: {s.text[:80]!r}")
        found += [name for name, data in s.files if not name.endswith((".png", ".webp")) and secret.encode() in data]
    return found


@pytest.mark.parametrize("game", sorted(STARTERS))
@pytest.mark.parametrize("output", sorted(OUTPUTS))
async def test_no_output_of_a_running_game_shows_its_seed(harness: Harness, game: str, output: str,
                                                          caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    channel_id = await STARTERS[game](harness)
    harness.game = game  # type: ignore[attr-defined]
    assert (await table_of(harness, channel_id)).seed == SEED
    sent = await OUTPUTS[output](harness, channel_id)
    typed_ignored = output == "typed_move_reply" and not harness.bot.surfaces[game].typed_moves
    assert sent or typed_ignored, f"{output} sent nothing"
    everything = harness.sent + harness.edits
    # The bad move echoes what the player typed (it contains the word on purpose): only the bot's own text counts.
    if output == "bad_move_reply":
        everything = [s for s in everything if f"attack {SEED}" not in s.text]
    assert not leaks(everything, SEED)
    assert not [r.getMessage() for r in caplog.records if SEED in r.getMessage()]


async def test_the_record_of_a_finished_game_carries_its_seed(harness: Harness) -> None:
    channel_id = await start_flying_blades(harness)
    table = await table_of(harness, channel_id)
    await harness.slash("abort", "alice", channel_id)
    out = await harness.slash("record", "carol", "general", table=table.id)
    text = out[-1].files[0][1].decode()
    assert f'[Seed "{SEED}"]' in text and '[Status "aborted"]' in text


async def test_the_record_of_a_running_game_has_no_seed_line(harness: Harness) -> None:
    channel_id = await start_flying_blades(harness)
    out = await harness.slash("record", "carol", channel_id)
    text = out[-1].files[0][1].decode()
    assert "[Seed" not in text and '[Status "active"]' in text


async def test_a_move_reposted_after_a_restart_does_not_show_kept_cards(harness: Harness) -> None:
    from cogs.utils.posting import ANNOUNCED_META, resume

    channel_id = await start_flying_blades(harness)
    table = await table_of(harness, channel_id)
    engine = harness.bot.engine
    hand = table.state.hands[0]
    kept = min(hand, key=len)
    await engine.act(table.id, table.seats[0].user_id, f"keep {kept}")  # saved, then the bot "died" unposted
    await engine.set_meta(table.id, **{ANNOUNCED_META: 0})
    start = len(harness.sent)
    await resume(harness.bot, await engine.get(table.id), "en")
    await harness.settle()
    posted = harness.sent[start:]
    assert any("keep ?" in s.text for s in posted), [s.text for s in posted]
    assert not any(f"keep {kept}" in s.text for s in posted)
