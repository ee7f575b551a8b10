"""Interactions at the edges, through the real discord.py paths: a component whose custom_id matches no template
(or only a template's prefix) still gets a private answer, and every click a handler answers gets exactly one;
forged slash payloads with numbers past 64 bits, or any option outside its declared range, get a short private
reply and never reach a command (no ERROR is logged: the ``harness`` fixture fails the test on one); a number
out of range is told its range, not a count of characters."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import discord
import pytest
from discord import app_commands

from tests.discord_harness import GUILD_ID, Harness, Sent, forged_message, open_table, snowflake

HUGE = 10**30


def private_replies(out: list[Sent]) -> list[Sent]:
    return [s for s in out if s.kind != "defer"]


def answered_once_privately(out: list[Sent], *words: str) -> Sent:
    replies = private_replies(out)
    assert len(replies) == 1 and replies[0].ephemeral, [(s.kind, s.text) for s in out]
    assert len(replies[0].text) < 300 and any(w in replies[0].text for w in words), replies[0].text
    return replies[0]


# --- components that match no template -------------------------------------------------------------------------

UNMATCHED = [
    "zzz",
    "fpdaily:ok:1:1:1",  # the daily preview's prefix without its key
    "flying_blades:lobby:join:1",  # a lobby button without its version
    "flying_blades:lobby:sit:1:1",  # a lobby action that does not exist
    "flying_blades:lobby:join:abc:1",
    "floor_plan:sheet:",
    "x" * 100,
]


@pytest.mark.parametrize("custom_id", UNMATCHED)
async def test_a_custom_id_matching_no_template_gets_a_private_answer(harness: Harness, custom_id: str) -> None:
    _, lobby = await open_table(harness)
    forged = forged_message(harness, lobby, {"type": 2, "style": 2, "label": "Forged", "custom_id": custom_id})
    out = await harness.click(forged, "Forged", "bob")
    answered_once_privately(out, "out of date")


async def test_a_click_on_an_id_the_message_does_not_carry_gets_a_private_answer(harness: Harness) -> None:
    """discord.py drops a dynamic item whose custom_id is not on the clicked message without a word."""
    _, lobby = await open_table(harness)
    payload = harness.click_payload(lobby, ":lobby:join:", "bob")
    payload["data"]["custom_id"] = payload["data"]["custom_id"].rsplit(":", 1)[0] + ":999"  # a valid template
    answered_once_privately(await harness.feed(payload), "out of date")


async def test_a_select_matching_no_template_gets_a_private_answer(harness: Harness) -> None:
    _, lobby = await open_table(harness)
    forged = forged_message(harness, lobby, {"type": 3, "custom_id": "nothing:here", "options": [
        {"label": "a", "value": "a"}]})
    answered_once_privately(await harness.select(forged, ["a"], "bob"), "out of date")


async def test_a_handled_click_is_answered_once_and_never_by_the_fallback(harness: Harness) -> None:
    _, lobby = await open_table(harness)
    out = await harness.click(lobby, ":lobby:join:", "bob")
    answers = [s for s in out if s.interaction_id is not None and s.kind in ("response", "update", "defer")]
    assert len(answers) == 1, [(s.kind, s.text) for s in out]
    assert not any("out of date" in s.text for s in out)


# --- slash options outside their declared range ----------------------------------------------------------------

def commands_of(tree: app_commands.CommandTree[Any]) -> Iterator[app_commands.Command[Any, ..., Any]]:
    def walk(items: list[Any]) -> Iterator[app_commands.Command[Any, ..., Any]]:
        for item in items:
            if isinstance(item, app_commands.Group):
                yield from walk(item.commands)
            elif isinstance(item, app_commands.Command):
                yield item
    yield from walk(tree.get_commands())


def command_payload(h: Harness, command: app_commands.Command[Any, ..., Any], options: list[dict[str, Any]],
                    user: str = "mod") -> dict[str, Any]:
    """A forged INTERACTION_CREATE for ``command`` (inside its groups) with exactly ``options``."""
    chain = [command, *iter_parents(command)]
    for node in chain[:-1]:
        options = [{"name": node.name, "type": 1 if node is command else 2, "options": options}]
    root = chain[-1]
    data = {"id": str(snowflake()), "name": root.name, "type": 1, "guild_id": str(GUILD_ID), "options": options}
    return h.interaction_payload(2, data, user, h.channel(None))


def iter_parents(command: Any) -> Iterator[Any]:
    parent = command.parent
    while parent is not None:
        yield parent
        parent = parent.parent


def out_of_range_values(param: app_commands.Parameter) -> list[Any]:
    if param.type is discord.AppCommandOptionType.string:
        return ["x" * (int(param.max_value) + 1 if param.max_value is not None else 6001)]
    values: list[Any] = [HUGE, -HUGE]
    if param.min_value is not None:
        values.append(param.min_value - 1)
    if param.max_value is not None:
        values.append(param.max_value + 1)
    return values


NUMBER_TYPES = (discord.AppCommandOptionType.integer, discord.AppCommandOptionType.number)


async def test_every_numeric_option_refuses_a_forged_out_of_range_value_privately(harness: Harness) -> None:
    checked = 0
    for command in commands_of(harness.bot.tree):
        for param in command.parameters:
            if param.type not in NUMBER_TYPES:
                continue
            for value in out_of_range_values(param):
                option = {"name": param.display_name, "type": param.type.value, "value": value}
                out = await harness.feed(command_payload(harness, command, [option]))
                reply = answered_once_privately(out, "must be between")
                assert param.display_name in reply.text, (command.qualified_name, reply.text)
                checked += 1
    assert checked >= 40  # away, history, leaderboard, gameadmin, tournament create/award, serverdefaults …


async def test_every_text_option_refuses_a_forged_value_past_its_length(harness: Harness) -> None:
    for command in commands_of(harness.bot.tree):
        for param in command.parameters:
            if param.type is not discord.AppCommandOptionType.string:
                continue
            option = {"name": param.display_name, "type": 3, "value": out_of_range_values(param)[0]}
            out = await harness.feed(command_payload(harness, command, [option]))
            answered_once_privately(out, "characters")


@pytest.mark.parametrize(("name", "options"), [("away", {"days": HUGE}), ("leaderboard", {"game": "flying_blades",
                                                                                          "page": HUGE}),
                                                ("history", {"page": HUGE})])
async def test_a_number_past_64_bits_never_reaches_the_command(harness: Harness, name: str,
                                                               options: dict[str, Any]) -> None:
    out = await harness.slash(name, "alice", **options)
    answered_once_privately(out, "must be between")


async def test_options_within_range_still_reach_the_command(harness: Harness) -> None:
    out = await harness.slash("history", "alice", page=1)
    assert not any("must be between" in s.text for s in out)


# --- what a number out of range is told --------------------------------------------------------------------------

async def test_a_typed_number_out_of_range_is_told_its_range_not_characters(harness: Harness) -> None:
    from discord.ext import commands

    out = await harness.say("!away 400", "alice", error=commands.RangeError)
    assert len(out) == 1 and "must be between 0 and 365" in out[0].text and "characters" not in out[0].text


async def test_a_negative_table_number_in_record_is_told_its_range(harness: Harness) -> None:
    out = await harness.slash("record", "alice", table="-5")
    reply = answered_once_privately(out, "must be between")
    assert "characters" not in reply.text and "`table` must be between 1 and" in reply.text


async def test_the_range_reply_speaks_polish(harness: Harness) -> None:
    await harness.slash("language", "mod", language="pl")
    out = await harness.slash("history", "alice", page=HUGE)
    assert "musi być liczbą od 1 do 1000" in answered_once_privately(out, "od 1 do").text
