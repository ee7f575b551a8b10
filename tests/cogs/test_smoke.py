from __future__ import annotations

from tests.discord_harness import Harness


async def test_play_opens_a_lobby_in_a_thread(harness: Harness) -> None:
    out = await harness.slash("play", "alice", game="flying_blades")
    for s in out:
        print(s.kind, s.channel_id, s.ephemeral, repr(s.text)[:200], s.custom_ids())
    assert False
