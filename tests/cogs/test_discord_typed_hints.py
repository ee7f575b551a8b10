"""Typed moves are never ignored: an attempted move that is not one (a mistyped verb, cells without a verb) gets one
short reply with a hint that pings no one and changes nothing; chat gets nothing; a well-formed move the rules
refuse gets the rules' own reason. Floor Plan keeps its typed moves private and hints at /move."""

from __future__ import annotations

import re
from typing import Any

import pytest

from rules.flying_blades.notation import CARD_VERBS
from tests.cogs.test_discord_floor_plan import start_floor_plan
from tests.discord_harness import Harness, Sent, start_table, table_of, user_of

CHAT = ["gg", "nice move!", "attack is the best defence", "brb 5 min", "c u at 8", "lol", "LOL",
        "https://example.com/game/a1", "🙂", "🔥🔥🔥", "dobry ruch", "ale atak!", "pass the salt", "bob",
        "good luck everyone!", "keep calm", "a1", "kto teraz?", "start now?", "<@730000000000000002> c3"]
ATTEMPTS = [("atack a1 a2", "attack"), ("attak c3 c4", "attack"), ("atakk c3 c4", "attack"), ("passs", "pass"),
            ("shurikn c3 c7", "shuriken"), ("c3 c4", None), ("jump c3 c4", None), ("Atack A1 A2", "attack")]


def moves_in(text: str) -> list[str]:
    return re.findall(r"`([^`]+)`", text.split("Moves now:", 1)[1]) if "Moves now:" in text else []


def check_hint(out: list[Sent], *must: str) -> Sent:
    assert len(out) == 1, [s.text for s in out]
    reply = out[0]
    assert reply.kind == "message" and reply.pinged == [] and not reply.pngs() and not reply.custom_ids()
    assert reply.payload.get("message_reference"), "a reply to the typed message"
    for text in must:
        assert text in reply.text, (text, reply.text)
    return reply


async def test_chat_from_a_seated_player_gets_no_reply(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"])
    before = await table_of(harness, channel_id)
    for line in CHAT:
        for user in ("alice", "bob"):  # the player to move and the one waiting
            assert await harness.say(line, user, channel_id) == [], (user, line)
    after = await table_of(harness, channel_id)
    assert (after.version, after.moves) == (before.version, before.moves)


@pytest.mark.parametrize(("line", "guess"), ATTEMPTS)
async def test_an_attempted_move_gets_one_hint_with_legal_examples_and_changes_nothing(
        harness: Harness, line: str, guess: str | None) -> None:
    channel_id = await start_table(harness, joiners=["bob"])
    before = await table_of(harness, channel_id)
    reply = check_hint(await harness.say(line, "alice", channel_id), "/help flying_blades")
    assert (f"Did you mean `{guess}`?" in reply.text) == (guess is not None), reply.text
    shown = moves_in(reply.text)
    legal = before.rules.legal_actions(before.state, 0)
    assert shown and "pass" in shown and all(m in legal for m in shown), shown
    after = await table_of(harness, channel_id)
    assert (after.version, after.moves) == (before.version, before.moves)


async def test_a_waiting_player_gets_the_hint_without_moves_to_make(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"])
    reply = check_hint(await harness.say("atack a1 a2", "bob", channel_id), "Did you mean `attack`?")
    assert "Moves now" not in reply.text


async def test_a_well_formed_move_the_rules_refuse_gets_their_reason(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"])
    before = await table_of(harness, channel_id)
    check_hint(await harness.say("attack z9 a1", "alice", channel_id), "z9")
    check_hint(await harness.say("attack c3", "alice", channel_id), "attack c3 c4")  # how attack is written
    check_hint(await harness.say("atak c3 c4", "bob", channel_id), "turn, not yours")  # Polish, out of turn
    after = await table_of(harness, channel_id)
    assert (after.version, after.moves) == (before.version, before.moves)


async def test_spectators_other_channels_and_finished_games_get_nothing(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"])
    assert await harness.say("atack a1 a2", "carol", channel_id) == []  # not seated
    assert await harness.say("atack a1 a2", "alice", "general") == []  # no game there
    table = await table_of(harness, channel_id)
    await harness.slash("abort", "alice", channel_id)
    assert (await harness.bot.engine.get(table.id)).status == "aborted"
    assert await harness.say("atack a1 a2", "alice", channel_id) == []
    assert await harness.say("c3 c4", "bob", channel_id) == []


async def test_the_hint_is_in_the_servers_language(harness: Harness) -> None:
    await harness.slash("language", "mod", language="pl")
    channel_id = await start_table(harness, joiners=["bob"])
    check_hint(await harness.say("atack a1 a2", "alice", channel_id), "`atack` to nie ruch.",
               "Czy chodziło o `attack`?", "Możliwe ruchy:", "/pomoc flying_blades")


def playable_card(table: Any) -> str:
    """A card of alice's dealt hand that she can play at once once kept (found with the rules, for this seed)."""
    rules = table.rules
    for card in sorted(set(table.state.hands[0])):
        state = rules.apply(rules.apply(table.state, 0, f"keep {card}")[0], 1, "keep none")[0]
        if rules.to_move(state) == {0} and any(a.startswith(card) for a in rules.legal_actions(state, 0)):
            return card
    raise AssertionError("no card of the dealt hand is playable at once")


async def test_the_hint_never_shows_a_hidden_card(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"], keep_none=False)
    table = await table_of(harness, channel_id)
    card = playable_card(table)
    await harness.slash("move", "alice", channel_id, action=f"keep {card}")
    await harness.slash("move", "bob", channel_id, action="keep none")
    table = await table_of(harness, channel_id)
    (seat,) = table.to_move()
    assert table.state.phase == "play" and table.state.hands[0] == (card,)
    assert any(a.startswith(card) for a in table.rules.legal_actions(table.state, seat)), "the card is playable"
    reply = check_hint(await harness.say("atack a1 a2", user_of(table.seats[seat].user_id), channel_id), "Moves now")
    assert not any(m.split()[0] in CARD_VERBS for m in moves_in(reply.text)), reply.text


async def test_floor_plan_near_misses_hint_at_slash_move_with_a_legal_start(harness: Harness) -> None:
    channel_id, _ = await start_floor_plan(harness, joiners=("bob",))
    table = await table_of(harness, channel_id)
    for line, guess in (("strat G5 6x3", "start"), ("skp", "skip"), ("C5 6x3", None)):
        reply = check_hint(await harness.say(line, "alice", channel_id), "use /move", "/help floor_plan")
        assert (f"Did you mean `{guess}`?" in reply.text) == (guess is not None), reply.text
        example = re.findall(r"`(start [^`]+)`", reply.text)
        assert len(example) == 1
        table.rules.apply(table.state, 0, example[0])  # legal with this roll (raises if not)
    for line in ("start now?", "room for one more", "gg", "skip it"):
        assert await harness.say(line, "alice", channel_id) == [], line
    # a typed move (and its Polish form) is still refused in public with the hint to use /move
    for line in ("skip", "pas", "start C5 6x3"):
        check_hint(await harness.say(line, "alice", channel_id), "/move")
    assert await harness.say("strat G5 6x3", "carol", channel_id) == []  # not seated
    assert (await table_of(harness, channel_id)).to_move() == {0, 1}


# One seed per value of the setup die (the starting room is 6 × that die).
SETUP_SEEDS = {1: "seed-2", 2: "seed-0", 3: "seed-7", 4: "seed-1", 5: "seed-8", 6: "seed-6"}


@pytest.mark.parametrize("die", sorted(SETUP_SEEDS))
async def test_the_setup_ping_shows_a_start_that_is_legal_with_the_roll(harness: Harness, die: int,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("engine.core.new_seed", lambda: SETUP_SEEDS[die])
    channel_id, out = await start_floor_plan(harness, joiners=("bob",))
    table = await table_of(harness, channel_id)
    assert table.state.roll[1] == die
    ping = next(s for s in harness.public(out) if s.pinged)
    assert f"Setup, roll 6 · {die}" in ping.text
    (example,) = re.findall(r"`/move (start [^`]+)`", ping.text)
    assert example != "start C5 6x3" or die == 3
    refused = (await harness.slash("move", "alice", channel_id, action="skip"))[-1]  # the rules' error shows it too
    assert refused.ephemeral and f"First draw your starting living room: {example}." in refused.text, refused.text
    shown = (await harness.slash("move", "bob", channel_id, action=example))[-1]
    assert shown.ephemeral and "Preview of" in shown.text and "Confirm" in shown.labels(), shown.text


@pytest.mark.parametrize("text", ["features 3: C3,D3 4:F5", "features 3:C3-E3 4:F5-G6",
                                  "features 3*2:C3,D3,E3,F3,G3,H3", "start G5 6×3"])
def test_floor_plan_moves_in_the_forgiving_notation_are_recognised_as_moves_in_public(text: str) -> None:
    from cogs.floor_plan import move_shaped

    assert move_shaped(text), "typed in public it must get the 'use /move' refusal, not pass as chat"
