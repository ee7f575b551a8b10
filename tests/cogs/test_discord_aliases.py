"""Polish verbs, typed or with /move, play the same move as the English notation and are stored as it; /help in
Polish lists them."""

from __future__ import annotations

from typing import Any

from cogs.floor_plan import start_example
from i18n import t
from tests.cogs.test_discord_floor_plan import start_floor_plan
from tests.discord_harness import Harness, start_table, table_of


async def moves_of(h: Harness, table_id: int) -> list[str]:
    """The record's move lines (``seat action``), the header left out."""
    return (await h.bot.engine.record(table_id)).split("\n\n", 1)[1].splitlines()


def first_attack(table: Any) -> str:
    (seat,) = table.to_move()
    return next(a for a in table.rules.legal_actions(table.state, seat) if a.startswith("attack"))


async def play_typed(h: Harness, text: str) -> list[str]:
    """A new two-player game (same seed, so the same position), ``text`` typed by the player to move."""
    channel_id = await start_table(h, joiners=["bob"])
    table = await table_of(h, channel_id)
    out = await h.say(text.format(attack=first_attack(table)[len("attack "):].upper()), "alice", channel_id)
    assert len(out) == 1 and out[0].pngs(), [s.text for s in out]
    return await moves_of(h, table.id)


async def test_a_move_typed_in_polish_is_stored_as_the_english_one(harness: Harness) -> None:
    english = await play_typed(harness, "attack {attack}")
    polish = await play_typed(harness, "Atak {attack}")
    also = await play_typed(harness, "atakuj {attack}")
    assert polish == english == also and english[-1].startswith("0 attack ")


async def test_polish_slash_moves_are_stored_as_the_english_ones(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"], keep_none=False)
    table = await table_of(harness, channel_id)
    card = table.state.hands[0][0]
    await harness.slash("move", "alice", channel_id, action=f"zachowaj {t(f'fb.card.{card}', 'pl')}")
    await harness.slash("move", "bob", channel_id, action="zostaw nic")
    out = await harness.slash("move", "alice", channel_id, action="Pas")
    assert any("Alice passes" in s.text for s in out), [s.text for s in out]
    assert await moves_of(harness, table.id) == [f"0 keep {card}", "1 keep none", "0 pass"]


async def test_a_polish_keep_typed_in_public_is_refused_like_the_english_one(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"], keep_none=False)
    for text in ("zachowaj nic", "zostaw bomba"):
        out = await harness.say(text, "alice", channel_id)
        assert len(out) == 1 and "show your choice to everyone" in out[0].text, text
    assert (await table_of(harness, channel_id)).to_move() == {0, 1}


async def confirm(h: Harness, user: str, channel_id: int, action: str) -> None:
    shown = (await h.slash("move", user, channel_id, action=action))[-1]
    assert shown.ephemeral and "Confirm" in shown.labels(), shown.text
    await h.click(shown, "Confirm", user)


async def test_polish_floor_plan_moves_are_stored_as_the_english_ones(harness: Harness) -> None:
    channel_id, _ = await start_floor_plan(harness)
    table = await table_of(harness, channel_id)
    start = start_example(table)
    assert start is not None
    await confirm(harness, "alice", channel_id, start.replace("start", "Pokój startowy", 1).lower())
    await confirm(harness, "alice", channel_id, "pomiń")
    assert await moves_of(harness, table.id) == [f"0 {start}", "0 skip"]


async def test_help_in_polish_lists_the_polish_verbs(harness: Harness) -> None:
    for game, words in (("flying_blades", ("`atak`", "`pas`", "→ `pass`", "`z` → `from`")),
                        ("floor_plan", ("`pokój` → `room`", "`pomiń`", "→ `skip`", "`dzika`"))):
        out = await harness.slash("help", "carol", game=game)
        assert "Polish words" not in out[-1].text and "`atak`" not in out[-1].text
        await harness.slash("language", "mod", language="pl")
        out = await harness.slash("help", "carol", game=game)
        assert "Polskie słowa" in out[-1].text and all(w in out[-1].text for w in words), out[-1].text
        await harness.slash("language", "mod", language="en")
