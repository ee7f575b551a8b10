"""/help [game] (and !help, !pomoc): every command with its usage, a game's notation with the card prices, in
the server's language, privately for the slash command, within Discord's embed limits."""

from __future__ import annotations

import pytest

from i18n import t
from tests.discord_harness import Harness, check_embeds, start_table, table_of

EXAMPLES = ("attack c3 c4", "vanish c3 h8", "shuriken c3 c7", "double c3 c5", "triple c3 c6", "dragon e5 from e4",
            "circle e5", "bomb e5 e8", "pass", "keep shuriken,bomb")
PRICES = {"vanish": 1, "shuriken": 1, "double": 2, "triple": 3, "dragon": 3, "circle": 4, "bomb": 5}


async def test_help_lists_every_command_privately(harness: Harness) -> None:
    out = await harness.slash("help", "carol")
    assert len(out) == 1 and out[0].ephemeral and len(out[0].embeds) == 1
    check_embeds(out[0].embeds)
    text = out[0].text
    for command in harness.bot.tree.get_commands():
        assert f"`/{command.name}" in text, command.name
    for usage in ("/play <game> [options]", "/move <action>", "/record [table]", "/help [game]", "/threads <enabled>",
                  "/ping", "/resign"):
        assert f"`{usage}`" in text, usage
    assert "confirmation" in text  # /resign asks first
    assert "`!move attack c3 c4`" in text and "`/help flying_blades`" in text and "2–5 players" in text


async def test_help_for_a_game_explains_its_notation_and_card_prices(harness: Harness) -> None:
    out = await harness.slash("help", "carol", game="flying_blades")
    embeds = out[-1].embeds
    assert out[-1].ephemeral and len(embeds) == 2
    check_embeds(embeds)
    page = embeds[1]
    assert page["title"] == "Night of the 27 Ninja — notation"
    values = "\n".join(f["value"] for f in page["fields"])
    for example in EXAMPLES:
        assert f"`{example}`" in values, example
    names = [f["name"] for f in page["fields"]]
    for card, price in PRICES.items():
        assert f"{t(f'fb.card.{card}')} — price {price}" in names, card
    assert "at most 10" in page["description"] and "at most 10" in values
    assert "/resign" in page["footer"]["text"]


@pytest.mark.parametrize("locale", ["en", "pl"])
@pytest.mark.parametrize("game", [None, "flying_blades"])
async def test_help_fits_discords_limits_in_every_language(harness: Harness, locale: str, game: str | None) -> None:
    await harness.slash("language", "mod", language=locale)
    out = await harness.slash("help", "carol", **({"game": game} if game else {}))
    # The overview and a game's page share a message while they fit (Polish with four games: they do not).
    pages = [s for s in out if s.embeds]
    total = sum(check_embeds(s.embeds) for s in pages)
    assert total > 500 and sum(len(s.embeds) for s in pages) == (2 if game else 1)


async def test_help_in_polish_uses_polish_command_names(harness: Harness) -> None:
    await harness.slash("language", "mod", language="pl")
    out = await harness.slash("help", "carol", game="flying_blades")
    text = "\n".join(s.text for s in out if s.embeds)  # the overview and the page: one message or two
    assert "Floorboard — pomoc" in text and "`/graj <gra> [opcje]` (`/play`)" in text
    assert "`/pomoc [gra]` (`/help`)" in text and "`/ping` —" in text
    assert "`!ruch attack c3 c4`" in text and "Bomba — cena 5" in text
    assert f"{t('fb.name', 'pl')} — zapis ruchów" in text


async def test_prefix_help_and_its_polish_alias_and_game_names(harness: Harness) -> None:
    out = await harness.say("!help", "carol")
    assert len(out) == 1 and out[0].embeds[0]["title"] == "Floorboard — help"
    out = await harness.say("!pomoc Noc 27 ninja", "carol")
    assert len(out[-1].embeds) == 2 and "`bomb e5 e8`" in out[-1].text
    out = await harness.say("!help Night of the 27 Ninja", "carol")
    assert len(out[-1].embeds) == 2
    out = await harness.say("!help chess", "carol")
    assert len(out) == 1 and "no game called chess" in out[0].text and not out[0].embeds


async def test_help_works_in_a_game_thread_and_changes_nothing(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"])
    table = await table_of(harness, channel_id)
    out = await harness.slash("help", "alice", channel_id, game="flying_blades")
    assert out[-1].ephemeral and not harness.public(out)
    assert (await table_of(harness, channel_id)).version == table.version


def test_help_splits_into_messages_when_the_embeds_pass_discords_limit() -> None:
    import discord

    from cogs.help import batches, whole_lines

    assert whole_lines(["a" * 10, "b" * 10, "c" * 10], 25) == "a" * 10 + "\n" + "b" * 10
    big, small = discord.Embed(description="x" * 4000), discord.Embed(description="y" * 1500)
    assert [len(b) for b in batches([big, small])] == [2]
    assert [len(b) for b in batches([big, discord.Embed(description="z" * 2500)])] == [1, 1]
