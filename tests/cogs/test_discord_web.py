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


async def test_a_published_tournaments_posts_carry_one_web_link_line(harness: Harness) -> None:
    """WEB_BASE_URL set and /web on: the tournament's posts link to its page; /web off: no link."""
    from datetime import UTC, datetime

    from storage import TournamentRow

    store = harness.bot.engine.store
    now = datetime(2026, 11, 27, tzinfo=UTC)
    row = TournamentRow(0, GUILD_ID, 1, 1, "Cup", "flying_blades", "running", {"entrants": [], "rounds": []}, 0,
                        None, now, now)
    row = TournamentRow(await store.insert_tournament(row), *list(row.__dict__.values())[1:])
    posts = harness.bot.get_cog("Tournaments")
    harness.bot.settings.web_base_url = "https://boards.example.org/"
    assert await posts.web_line(row, "en") == ""  # type: ignore[union-attr]
    await harness.slash("web", "mod", enabled=True)
    line = await posts.web_line(row, "en")  # type: ignore[union-attr]
    slug = (await store.web_slugs("tournament", GUILD_ID, [row.id]))[row.id]
    assert line == f"\nWeb page: <https://boards.example.org/t/{slug}>"
