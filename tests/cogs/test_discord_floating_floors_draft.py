"""Floating Floors in Discord: several placements (and a step) built privately and committed as one action, with
one preview of the combined board; a nudge chosen from a select. Rulebook: "You may even complete multiple
actions at the same time (… placing multiple Jutsu at once with the same hand)"."""

from __future__ import annotations

from tests.cogs.test_discord_floating_floors import latest_board, selects, start
from tests.discord_harness import Harness, Sent, table_of


def private(out: list[Sent]) -> Sent:
    shown = [s for s in out if s.ephemeral and s.kind != "defer"]
    assert shown, [s.text for s in out]
    return shown[-1]


def draft_select(message: Sent, kind: str) -> dict:
    found = [c for c in selects(message) if f"floating_floors:{kind}:" in c["custom_id"]]
    assert found, [c["custom_id"] for c in selects(message)]
    return found[0]


async def pick(h: Harness, message: Sent, kind: str, value: str, user: str = "alice") -> list[Sent]:
    payload = h.select_payload(message, [value], user)
    payload["data"]["custom_id"] = draft_select(message, kind)["custom_id"]
    return await h.feed(payload)


async def taken_all(h: Harness) -> None:
    for _ in range(3):  # take the rolled Jutsu from the pool
        take = [label for label in latest_board(h).labels() if label.startswith("Take ")]
        if not take:
            return
        await h.click(latest_board(h), take[0])


async def test_several_placements_are_built_privately_previewed_together_and_committed_as_one_action(
        harness: Harness) -> None:
    h = harness
    channel_id = await start(h, "chakra=middle")
    await taken_all(h)
    before = await table_of(h, channel_id)
    hand = list(before.state.seats[0].hand)
    draft = private(await h.click(latest_board(h), "Several at once / nudge…"))
    assert "multiple actions at the same time" in draft.text and not draft.pngs()
    first = draft_select(draft, "add")["options"][0]["value"]
    one = private(await pick(h, draft, "add", first))
    assert first in one.text and one.pngs()  # the preview of the board with it
    second = next(o["value"] for o in draft_select(one, "add")["options"] if o["value"] != first)
    two = private(await pick(h, one, "add", second))
    action = f"{first} + {second}"
    assert action in two.text and two.pngs() and f"Commit: {action}"[:80] in two.labels()
    assert (await table_of(h, channel_id)).version == before.version  # drafting changes nothing
    await h.click(two, f"Commit: {action}"[:80])
    after = await table_of(h, channel_id)
    assert after.version == before.version + 1 and after.state.phase == "navigate"
    for part in (first, second):
        hand.remove(part.split()[1])
    assert list(after.state.seats[0].hand) == hand
    out = await pick(h, one, "add", second)  # a draft of the board before: refused, nothing changes
    assert "board has changed" in private(out).text
    assert (await table_of(h, channel_id)).version == after.version


async def test_only_the_player_to_move_may_draft(harness: Harness) -> None:
    h = harness
    channel_id = await start(h, "chakra=middle")
    await taken_all(h)
    version = (await table_of(h, channel_id)).version
    out = await h.click(latest_board(h), "Several at once / nudge…", "bob")
    assert private(out).text and not private(out).components
    assert (await table_of(h, channel_id)).version == version


def test_a_draft_whose_placement_nudges_offers_to_choose_where_and_bad_values_are_refused() -> None:
    """Rulebook: "When placing Jutsu onto a space, you may nudge a Jutsu or Ninja Meeple already in that same
    space": the draft's *Nudge…* select names where the touched piece goes; a forged value changes nothing."""
    from types import SimpleNamespace

    import pytest

    from cogs import floating_floors as cog
    from rules.base import InvalidActionError
    from tests.rules.test_floating_floors_nudge_together import wide

    state = wide(hands={0: ("ws", "ws")}, at={0: "b2"})
    table = SimpleNamespace(id=7, version=3, state=state, rules=cog.ff.FloatingFloors(), seats=[], status="active")
    text, png, view = cog.draft_reply(table, 0, ["place ws b2 nw"], "en")
    assert "place ws b2 nw" in text
    ids = [item.custom_id for item in view.children]
    assert "floating_floors:nudge:7:3:place.ws.b2.nw" in ids and png
    assert cog.draft_parts("place.ws.b2.nw", "nudge", ["se"]) == ["place ws b2 nw nudge se"]
    assert cog.draft_parts("place.ws.b2.nw", "add", ["place ws c1 ne"])[-1] == "place ws c1 ne"
    for kind, value in (("nudge", "up"), ("add", "claim"), ("add", "end"), ("nudge", "c")):
        with pytest.raises(InvalidActionError):
            cog.draft_parts("place.ws.b2.nw", kind, [value])
