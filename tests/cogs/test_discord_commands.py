"""The app-command payloads Discord would receive: valid names and lengths, Polish localizations;
custom_ids."""

from __future__ import annotations

import re

import discord
import pytest
from discord import app_commands

from cogs.flying_blades import FlyingBladesButton, KeepSelect
from cogs.utils.components import LobbyButton, RematchButton
from cogs.utils.lang import CatalogTranslator
from tests.discord_harness import Harness

NAME = re.compile(r"^[-_\w]{1,32}$")
EXPECTED = {"play", "move", "board", "hand", "resign", "abort", "games", "record", "language", "threads", "timeouts",
            "web", "ping", "help", "sheet", "floorplan", "floor", "away", "back", "quiet", "reminders", "whatif",
            "undo", "gameadmin", "serverdefaults", "mygames", "leaderboard", "profile", "history", "tournament",
            "replay", "follow", "unfollow", "queue", "challenge", "queuebots"}


def check_name(name: str) -> None:
    assert NAME.match(name) and name == name.lower(), name


def check_command(payload: dict) -> None:
    check_name(payload["name"])
    assert 1 <= len(payload["description"]) <= 100, payload["name"]
    for name in (payload.get("name_localizations") or {}).values():
        check_name(name)
    for loc, text in (payload.get("description_localizations") or {}).items():
        assert 1 <= len(text) <= 100, (payload["name"], loc)
    options = payload.get("options", [])
    assert len(options) <= 25
    for option in options:
        check_command(option)
        for choice in option.get("choices", []):
            assert 1 <= len(choice["name"]) <= 100
            for text in (choice.get("name_localizations") or {}).values():
                assert 1 <= len(text) <= 100
    total = len(payload["name"]) + len(payload["description"]) + sum(
        len(o["name"]) + len(o["description"]) for o in options)
    assert total <= 4000


async def test_every_command_payload_is_valid_and_localized_in_polish(harness: Harness) -> None:
    tree = harness.bot.tree
    commands = tree.get_commands()
    assert {c.name for c in commands} == EXPECTED
    translator = tree.translator
    assert isinstance(translator, CatalogTranslator)
    for command in commands:
        check_command(command.to_dict(tree))
        payload = await command.get_translated_payload(tree, translator)
        check_command(payload)
        assert set(payload["name_localizations"]) == {"pl"}, command.name
        assert set(payload["description_localizations"]) == {"pl"}, command.name
        for option in payload.get("options", []):
            assert "pl" in option["name_localizations"] and "pl" in option["description_localizations"]
    play = await tree.get_command("play").get_translated_payload(tree, translator)
    assert play["name_localizations"]["pl"] == "graj"
    choices = {c["value"]: c for c in play["options"][0]["choices"]}
    assert choices["flying_blades"]["name_localizations"]["pl"] == "Noc 27 ninja"


async def test_translator_leaves_english_alone() -> None:
    translator = CatalogTranslator()
    text = app_commands.locale_str("play", key="cmd.play.name")
    ctx = app_commands.TranslationContext(app_commands.TranslationContextLocation.command_name, None)
    assert await translator.translate(text, discord.Locale.polish, ctx) == "graj"
    assert await translator.translate(text, discord.Locale.american_english, ctx) is None
    assert await translator.translate(text, discord.Locale.german, ctx) is None
    assert await translator.translate(app_commands.locale_str("x"), discord.Locale.polish, ctx) is None


async def test_polish_prefix_aliases_work(harness: Harness) -> None:
    out = await harness.say("!gry", "alice")
    assert "No games" in out[-1].text


@pytest.mark.parametrize("make", [
    lambda t, v: LobbyButton("flying_blades", "start", t, v),
    lambda t, v: RematchButton("flying_blades", t, v),
    lambda t, v: FlyingBladesButton("keepnone", t, v),
    lambda t, v: KeepSelect(t, v),
])
def test_custom_ids_fit_discords_limit_and_match_their_template(make: object) -> None:
    for table, version in ((1, 0), (10**12, 10**9), (2**63 - 1, 2**63 - 1)):
        item = make(table, version)  # type: ignore[operator]
        assert len(item.custom_id) <= 100
        assert type(item).__discord_ui_compiled_template__.fullmatch(item.custom_id)


async def test_ping_answers(harness: Harness) -> None:
    out = await harness.slash("ping", "carol")
    assert out[-1].ephemeral and "Pong" in out[-1].text
