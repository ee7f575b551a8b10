"""``/tournament create``'s organiser settings (bye value, pod table sizes, grand-final reset) and its refusal of
more rounds than the field can play without rematches; a smaller field at the start plays fewer rounds, and the
channel is told why."""

from __future__ import annotations

from tests.cogs.test_discord_tournaments import GENERAL, create, entered, only, reply, tour
from tests.discord_harness import GUILD_ID, Harness


async def test_more_rounds_than_a_capped_field_can_play_without_rematches_are_refused_privately(
        harness: Harness) -> None:
    h = harness
    refused = reply(await tour(h, "create", "mod", name="Cup", game="flying_blades", format="swiss", rounds=10,
                               max_players=4))
    assert refused.ephemeral and "Too many rounds" in refused.text and "3" in refused.text
    assert await h.bot.engine.store.tournaments_in_guild(GUILD_ID, ("registration",)) == []


async def test_pod_sizes_and_a_bye_value_out_of_range_are_refused_privately(harness: Harness) -> None:
    h = harness
    refused = reply(await tour(h, "create", "mod", name="Cup", game="flying_blades", format="swiss",
                               min_table_size=3))
    assert refused.ephemeral and "pods" in refused.text
    refused = reply(await tour(h, "create", "mod", name="Cup", game="flying_blades", format="pods", table_size=4,
                               min_table_size=5))
    assert refused.ephemeral and "table size" in refused.text
    assert await h.bot.engine.store.tournaments_in_guild(GUILD_ID, ("registration",)) == []


async def test_the_organisers_bye_value_pod_sizes_and_final_reset_are_kept(harness: Harness) -> None:
    h = harness
    await create(h, "pods", table_size=4, min_table_size=3, max_table_size=5, bye_points=0.25)
    _, pods = await only(h)
    assert (pods.settings.sizes, pods.settings.bye_points) == ((3, 5), 0.25)
    await tour(h, "cancel", "mod")
    await create(h, "double-elimination", grand_final_reset=False)
    rows = await h.bot.engine.store.tournaments_in_guild(GUILD_ID, ("registration",))
    bracket = (await h.bot.director.get(rows[0].id)).value
    assert bracket.settings.grand_final_reset is False


async def test_a_field_too_small_for_the_rounds_asked_plays_fewer_and_the_channel_is_told(harness: Harness) -> None:
    h = harness
    await entered(h, "swiss", ("alice", "bob", "carol", "dave"), rounds=6)
    out = await tour(h, "start", "mod")
    _, value = await only(h)
    assert value.planned == 3  # 4 players meet each other once in 3 rounds: 6 would pair rematches
    notices = [s for s in out if s.public and s.channel_id == GENERAL and "instead of 6" in s.text]
    assert len(notices) == 1 and "Cup" in notices[0].text
