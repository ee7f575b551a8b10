"""``/floor`` (``/parkiet``) through the real discord.py paths: a server's own The Floor categories and the answers
it accepts, as slash subcommands of a nested hybrid group and as prefix commands, Manage Server re-checked."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from cogs.utils.lang import CatalogTranslator
from engine.floor_content import server_content
from tests.discord_harness import GUILD_ID, Harness, Sent, snowflake

BIRDS = ["Sparrow", "Robin", "Blackbird", "Starling", "Magpie", "Crow", "Swallow", "Stork", "Heron", "Owl"]


async def floor(h: Harness, group: str, sub: str, user: str = "mod", **options: Any) -> list[Sent]:
    """``/floor <group> <sub> [options]``: a subcommand of a subgroup, as Discord delivers it."""
    root = h.bot.tree.get_command("floor")
    assert isinstance(root, app_commands.Group), "no /floor group"
    subgroup = root.get_command(group)
    assert isinstance(subgroup, app_commands.Group), f"no /floor {group}"
    command = subgroup.get_command(sub)
    assert isinstance(command, app_commands.Command), f"no /floor {group} {sub}"
    params = {p.name: p for p in command.parameters}
    opts = [{"name": params[k].display_name, "type": params[k].type.value, "value": v} for k, v in options.items()]
    data = {"id": str(snowflake()), "name": root.name, "type": 1, "guild_id": str(GUILD_ID),
            "options": [{"name": subgroup.name, "type": 2,
                         "options": [{"name": command.name, "type": 1, "options": opts}]}]}
    return await h.feed(h.interaction_payload(2, data, user, h.channel(None)))


def only(out: list[Sent]) -> Sent:
    replies = [s for s in out if s.kind != "defer"]
    assert len(replies) == 1, [s.text for s in out]
    return replies[0]


async def categories(h: Harness, lang: str = "en") -> list[dict[str, Any]]:
    return await h.bot.engine.store.floor_categories(GUILD_ID, lang)


async def test_an_admin_adds_lists_and_removes_a_category(harness: Harness) -> None:
    added = only(await floor(harness, "category", "add", name="Birds", answers=", ".join(BIRDS), flags="kids"))
    assert not added.ephemeral
    [cat] = await categories(harness)
    assert cat == {"id": cat["id"], "name": "Birds", "flags": ["kids"], "answers": BIRDS}
    assert cat["id"].startswith("server_")
    assert f"`{cat['id']}`" in added.text and "10 answers" in added.text and "English" in added.text, added.text

    listed = only(await floor(harness, "category", "list", "alice"))  # anyone may list, privately
    assert listed.ephemeral and f"`{cat['id']}` **Birds**: 10 answers [`kids`]" in listed.text, listed.text
    assert "Built-in English categories:" in listed.text

    again = only(await floor(harness, "category", "add", name="birds", answers=", ".join(BIRDS)))
    assert again.ephemeral and "already has a category called \"Birds\"" in again.text, again.text
    assert f"`{cat['id']}`" in again.text

    polish = only(await floor(harness, "category", "add", name="Birds", answers="; ".join(BIRDS), lang="pl"))
    assert "Polish" in polish.text, "the same name in another language is another category"
    assert len(await categories(harness, "pl")) == 1

    removed = only(await floor(harness, "category", "remove", category_id=cat["id"]))
    assert not removed.ephemeral and "**Birds**" in removed.text and "removed" in removed.text
    assert await categories(harness) == []
    gone = only(await floor(harness, "category", "remove", category_id=cat["id"]))
    assert gone.ephemeral and f"no category `{cat['id']}`" in gone.text
    builtin = only(await floor(harness, "category", "remove", category_id="countries"))
    assert builtin.ephemeral and "not one of this server's own categories" in builtin.text
    empty = only(await floor(harness, "category", "list"))
    assert "no The Floor categories of its own in English" in empty.text


async def test_a_member_without_manage_server_is_refused(harness: Harness) -> None:
    refused = only(await floor(harness, "category", "add", "alice", name="Birds", answers=", ".join(BIRDS)))
    assert refused.ephemeral and "Manage Server" in refused.text, refused.text
    assert await categories(harness) == []
    refused = only(await floor(harness, "answers", "add", "alice", category="countries", answers="Sealand"))
    assert refused.ephemeral and "Manage Server" in refused.text
    await floor(harness, "category", "add", name="Birds", answers=", ".join(BIRDS))
    [cat] = await categories(harness)
    refused = only(await floor(harness, "category", "remove", "bob", category_id=cat["id"]))
    assert "Manage Server" in refused.text and len(await categories(harness)) == 1
    out = await harness.say(f"!floor category remove {cat['id']}", "bob")
    assert "Manage Server" in out[-1].text and len(await categories(harness)) == 1


async def test_bad_input_gets_a_reply_that_says_what_to_change(harness: Harness) -> None:
    bad_flag = only(await floor(harness, "category", "add", name="Birds", answers=", ".join(BIRDS), flags="K, adults"))
    assert bad_flag.ephemeral, bad_flag.text
    assert bad_flag.text == 'Unknown flag "adults". Allowed flags: K, M, kids, people, titles.'
    few = only(await floor(harness, "category", "add", name="Birds", answers="Robin, robin, Owl"))
    assert "at least 10 different answers; this one has 2" in few.text, few.text
    long_name = only(await floor(harness, "category", "add", name="B" * 41, answers=", ".join(BIRDS)))
    assert "41 characters" in long_name.text and "at most 40" in long_name.text
    unknown = only(await floor(harness, "answers", "add", category="no_such_thing", answers="Sealand"))
    assert "There is no category `no_such_thing`" in unknown.text
    assert await categories(harness) == []
    assert await harness.bot.engine.store.floor_answers(GUILD_ID, "en") == {}


async def test_answers_added_to_a_built_in_category_reach_the_game_content(harness: Harness) -> None:
    await floor(harness, "category", "add", name="Birds", answers=", ".join(BIRDS), flags="kids")
    [cat] = await categories(harness)
    added = only(await floor(harness, "answers", "add", category="countries",
                             answers="Sealand; France, sealand\nPrincipality of Hutt River"))
    assert added.ephemeral
    expected = "Added to **Countries of the world** (`countries`, English): Sealand, Principality of Hutt River."
    assert expected in added.text, added.text
    assert "Already accepted: France." in added.text
    own = only(await floor(harness, "answers", "add", category=cat["id"], answers="Kestrel, robin"))
    assert "Kestrel" in own.text and "Already accepted: robin." in own.text

    listed = only(await floor(harness, "answers", "list", "alice", category="countries"))
    assert listed.ephemeral and "added on this server (2): Sealand, Principality of Hutt River" in listed.text
    listed = only(await floor(harness, "answers", "list", "alice", category=cat["id"]))
    assert "the category's answers (10): Sparrow" in listed.text and "(1): Kestrel" in listed.text

    content = await server_content(harness.bot.engine.store, GUILD_ID, "en")
    assert content == {
        "categories": [{"id": cat["id"], "name": "Birds", "flags": ["kids"], "answers": BIRDS}],
        "answers": {"countries": ["Sealand", "Principality of Hutt River"], cat["id"]: ["Kestrel"]},
    }
    assert await server_content(harness.bot.engine.store, GUILD_ID, "pl") is None


async def test_prefix_commands_and_polish_names(harness: Harness) -> None:
    out = await harness.say("!floor category add Birds " + ", ".join(BIRDS), "mod")
    assert "10 answers" in out[-1].text, [s.text for s in out]
    [cat] = await categories(harness)
    out = await harness.say("!parkiet odpowiedzi dodaj countries Sealand, Atlantis", "mod")
    assert "Sealand, Atlantis" in out[-1].text, out[-1].text
    out = await harness.say("!parkiet kategoria lista", "alice")
    assert f"`{cat['id']}` **Birds**" in out[-1].text
    out = await harness.say("!floor", "alice")
    assert "/floor category add" in out[-1].text

    tree = harness.bot.tree
    payload = await tree.get_command("floor").get_translated_payload(tree, CatalogTranslator())
    assert payload["name_localizations"] == {"pl": "parkiet"}
    groups = {o["name"]: o for o in payload["options"]}
    assert groups["category"]["name_localizations"] == {"pl": "kategoria"}
    assert {o["name_localizations"]["pl"] for o in groups["category"]["options"]} == {"dodaj", "lista", "usun"}
    assert {o["name_localizations"]["pl"] for o in groups["answers"]["options"]} == {"dodaj", "lista", "usun"}


async def test_a_polish_server_gets_polish_content_and_replies(harness: Harness) -> None:
    await harness.bot.engine.set_guild_locale(GUILD_ID, "pl")
    added = only(await floor(harness, "category", "add", name="Ptaki", answers=", ".join(BIRDS)))
    assert "Kategoria **Ptaki** dodana" in added.text and "10 odpowiedzi" in added.text, added.text
    assert await categories(harness, "en") == [] and len(await categories(harness, "pl")) == 1
    bad = only(await floor(harness, "category", "add", name="Ptaki 2", answers=", ".join(BIRDS), flags="X"))
    assert bad.text == "Nieznana flaga „X”. Dozwolone flagi: K, M, kids, people, titles."


async def test_category_ids_autocomplete(harness: Harness) -> None:
    await floor(harness, "category", "add", name="Birds", answers=", ".join(BIRDS))
    [cat] = await categories(harness)
    cog = harness.bot.get_cog("TheFloorAdmin")
    assert cog is not None
    payload = harness.interaction_payload(4, {"id": str(snowflake()), "name": "floor", "type": 1, "options": []},
                                          "alice", harness.channel(None))
    interaction = discord.Interaction(data=payload, state=harness.bot._connection)
    found = await cog.category_choices(interaction, "bird", None)  # type: ignore[attr-defined]
    assert found[0].value == cat["id"] and found[0].name == f"Birds ({cat['id']})"
    found = await cog.category_choices(interaction, "countr", "en")  # type: ignore[attr-defined]
    assert "countries" in [c.value for c in found] and len(found) <= 25
    assert len(await cog.category_choices(interaction, "", "pl")) == 25  # type: ignore[attr-defined]


async def test_answers_taken_off_the_servers_list_are_no_longer_sent_to_games(harness: Harness) -> None:
    await floor(harness, "answers", "add", category="countries", answers="Sealand, Freedonia")
    refused = only(await floor(harness, "answers", "remove", "alice", category="countries", answers="Sealand"))
    assert refused.ephemeral and "Taken off" not in refused.text
    assert (await server_content(harness.bot.engine.store, GUILD_ID, "en"))["answers"]["countries"] == [
        "Sealand", "Freedonia"]
    out = only(await floor(harness, "answers", "remove", category="countries", answers="sealand; France"))
    assert "Taken off the server's list for **Countries of the world** (`countries`): sealand." in out.text
    assert "Not on the server's list: France" in out.text
    content = await server_content(harness.bot.engine.store, GUILD_ID, "en")
    assert content == {"categories": [], "answers": {"countries": ["Freedonia"]}}
