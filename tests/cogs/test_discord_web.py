"""/web on|off (issue 28): only a server manager publishes the server's pages; on gives its objects slugs and the
setting the web site checks, off takes every page down."""

from __future__ import annotations

from tests.discord_harness import GUILD_ID, Harness


async def test_web_on_publishes_the_server_and_off_takes_it_down(harness: Harness) -> None:
    store = harness.bot.engine.store
    out = await harness.slash("web", "mod", enabled=True)
    assert "published as read-only web pages" in out[-1].text
    assert await store.get_setting(GUILD_ID, "web") is True
    assert await store.web_slugs("guild", GUILD_ID, [GUILD_ID])
    out = await harness.slash("web", "mod", enabled=False)
    assert "taken down" in out[-1].text
    assert await store.get_setting(GUILD_ID, "web") is None


async def test_web_by_a_member_without_manage_server_changes_nothing(harness: Harness) -> None:
    out = await harness.slash("web", "alice", enabled=True)
    assert out[-1].ephemeral
    assert await harness.bot.engine.store.get_setting(GUILD_ID, "web") is None
