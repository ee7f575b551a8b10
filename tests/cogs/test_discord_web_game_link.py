"""A finished game's result post links to its web page (issue 28: "a server setting WEB_BASE_URL makes the bot
link to it") when the server turned /web on; otherwise the post carries no address."""

from __future__ import annotations

from tests.cogs.test_discord_full_game import MAX_HUMAN_MOVES, choose
from tests.discord_harness import GUILD_ID, Harness, resign, start_table, table_of

BASE = "https://boards.example.org/"


async def play_to_the_end(harness: Harness) -> int:
    channel_id = await start_table(harness, joiners=["bob"], options="cards=none")
    table = await table_of(harness, channel_id)
    names = {0: "alice", 1: "bob"}
    for _ in range(MAX_HUMAN_MOVES):
        table = await harness.bot.engine.get(table.id)
        if table.status != "active":
            break
        seat = next(iter(table.to_move()))
        await harness.say(choose(table, seat), names[seat], channel_id)
    assert table.status == "finished"
    return int(table.id)


async def test_a_published_servers_result_post_links_to_the_games_page(harness: Harness) -> None:
    harness.bot.settings.web_base_url = BASE
    await harness.slash("web", "mod", enabled=True)
    game_id = await play_to_the_end(harness)
    slug = (await harness.bot.engine.store.web_slugs("game", GUILD_ID, [game_id]))[game_id]
    final = harness.with_button("Rematch")
    assert f"Web page: <https://boards.example.org/g/{slug}>" in final.text
    assert await harness.bot.engine.store.web_slugs("player", GUILD_ID, [u for u in final.pinged])


async def test_without_web_on_the_result_post_has_no_address(harness: Harness) -> None:
    harness.bot.settings.web_base_url = BASE
    await play_to_the_end(harness)
    assert "Web page" not in harness.with_button("Rematch").text


async def test_the_floors_result_post_links_to_the_games_page(harness: Harness) -> None:
    """The Floor posts its own result (custom posting): it carries the web page as every game's does."""
    from tests.cogs.test_discord_the_floor import open_floor  # lazy: a test module, read only for this test

    harness.bot.settings.web_base_url = BASE
    await harness.slash("web", "mod", enabled=True)
    channel_id = await open_floor(harness, ("bob", "carol"))
    table_id = (await table_of(harness, channel_id)).id
    out = [s for user in ("bob", "carol") for s in await resign(harness, user, channel_id)]
    table = await harness.bot.engine.get(table_id)
    assert table.status == "finished"
    slug = (await harness.bot.engine.store.web_slugs("game", GUILD_ID, [table.id]))[table.id]
    final = next(s for s in reversed(out) if "Rematch" in s.labels())
    assert f"Web page: <https://boards.example.org/g/{slug}>" in final.text


async def test_floor_plans_result_post_links_to_the_games_page(harness: Harness) -> None:
    """Floor Plan's final round post is its result: it carries the web page as every game's does."""
    from tests.cogs.test_discord_floor_plan import start_floor_plan  # lazy: a test module, read only for this test

    harness.bot.settings.web_base_url = BASE
    await harness.slash("web", "mod", enabled=True)
    channel_id, _ = await start_floor_plan(harness, ("bob",))
    table_id = (await table_of(harness, channel_id)).id
    out = [s for user in ("bob", "alice") for s in await resign(harness, user, channel_id)]
    table = await harness.bot.engine.get(table_id)
    assert table.status == "finished"
    slug = (await harness.bot.engine.store.web_slugs("game", GUILD_ID, [table.id]))[table.id]
    final = next(s for s in reversed(out) if "Rematch" in s.labels())
    assert f"Web page: <https://boards.example.org/g/{slug}>" in final.text


async def test_without_web_on_the_floors_result_post_has_no_address(harness: Harness) -> None:
    from tests.cogs.test_discord_the_floor import open_floor  # lazy: a test module, read only for this test

    harness.bot.settings.web_base_url = BASE
    channel_id = await open_floor(harness, ("bob", "carol"))
    out = [s for user in ("bob", "carol") for s in await resign(harness, user, channel_id)]
    assert "Web page" not in next(s for s in reversed(out) if "Rematch" in s.labels()).text
