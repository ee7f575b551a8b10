"""``/tournament create`` takes the organiser's half-bye settings: what a requested bye is worth and how many each
entrant may take; a value out of range is refused privately in one line and nothing is created."""

from __future__ import annotations

from tests.cogs.test_discord_tournaments import create, only, reply, tour
from tests.discord_harness import GUILD_ID, Harness


async def test_create_sets_the_half_bye_value_and_how_many_each_entrant_may_take(harness: Harness) -> None:
    await create(harness, half_bye_points=0.25, max_half_byes=2)
    _, value = await only(harness)
    assert (value.settings.half_bye_points, value.settings.max_half_byes) == (0.25, 2)


async def test_create_without_them_keeps_half_a_point_and_one_each(harness: Harness) -> None:
    await create(harness)
    _, value = await only(harness)
    assert (value.settings.half_bye_points, value.settings.max_half_byes) == (0.5, 1)


async def test_half_bye_settings_out_of_range_are_refused_privately_and_nothing_is_created(harness: Harness) -> None:
    for options in ({"half_bye_points": 1.5}, {"max_half_byes": -1}):
        refused = reply(await tour(harness, "create", "mod", name="Cup", game="flying_blades", format="swiss",
                                   **options))
        assert refused.ephemeral and len(refused.text.splitlines()) == 1, refused.text
    assert await harness.bot.engine.store.tournaments_in_guild(GUILD_ID, ("registration",)) == []
