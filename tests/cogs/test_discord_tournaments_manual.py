"""``/tournament`` manual control through the real discord.py paths (issue 22): a requested half-point bye."""

from __future__ import annotations

from tests.cogs.test_discord_tournaments import entered, only, reply, tour
from tests.discord_harness import USERS, Harness


async def test_bye_is_asked_by_the_entrant_or_by_the_organiser_for_them_and_is_logged(harness: Harness) -> None:
    h = harness
    await entered(h, "swiss", ("alice", "bob", "carol", "dave"), rounds=2)
    await tour(h, "start", "mod")
    own = reply(await tour(h, "bye", "alice", round=2))
    assert own.public and "round 2" in own.text and own.pinged == [USERS["alice"]]
    refused = reply(await tour(h, "bye", "alice", round=2, member="bob"))
    assert refused.ephemeral and "organiser" in refused.text
    paired = reply(await tour(h, "bye", "mod", round=1, member="bob"))
    assert paired.ephemeral and "already paired" in paired.text
    again = reply(await tour(h, "bye", "mod", round=2, member="alice"))
    assert again.ephemeral and "already requested" in again.text
    _, value = await only(h)
    assert value.bye_requests == ((2, str(USERS["alice"])),)
    assert value.export()["manual_changes"] == [{"action": "half_bye", "players": [str(USERS["alice"])],
                                                 "round": 2, "by": str(USERS["alice"])}]


async def test_readmit_is_for_the_organiser_and_pairs_the_player_again_next_round(harness: Harness) -> None:
    h = harness
    await entered(h, "swiss", ("alice", "bob", "carol", "dave"), rounds=2)
    await tour(h, "start", "mod")
    await tour(h, "disqualify", "mod", member="bob")
    refused = reply(await tour(h, "readmit", "alice", member="bob"))
    assert refused.ephemeral and "organiser" in refused.text
    not_gone = reply(await tour(h, "readmit", "mod", member="carol"))
    assert not_gone.ephemeral and "has not left" in not_gone.text
    back = reply(await tour(h, "readmit", "mod", member="bob"))
    assert back.public and "round 2" in back.text and back.pinged == [USERS["bob"]]
    _, value = await only(h)
    bob = str(USERS["bob"])
    assert value.entrant(bob).dropped_after is None and value.entrant(bob).active_in(2)
    assert value.export()["manual_changes"][-1] == {"action": "readmit", "players": [bob], "round": 2,
                                                    "by": str(USERS["mod"])}
