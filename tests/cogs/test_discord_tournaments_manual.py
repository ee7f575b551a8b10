"""``/tournament`` manual control through the real discord.py paths (issue 22): a requested half-point bye."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tests.cogs.test_discord_tournaments import entered, finish_game, name_of, only, reply, settle, tour
from tests.discord_harness import USERS, Harness, Sent, command_data, member_option


async def tour_pair(h: Harness, sub: str, user: str, first: str, second: str) -> list[Sent]:
    """``/tournament <sub> first second``: two member options, each resolved as Discord sends them."""
    data = command_data(h, "tournament", sub)
    resolved: dict[str, Any] = {"users": {}, "members": {}}
    options = []
    for key, name in (("first", first), ("second", second)):
        value, extra = member_option(h, name)
        for part in resolved:
            resolved[part].update(extra[part])
        param = next(p for p in h.bot.tree.get_command("tournament").get_command(sub).parameters if p.name == key)
        options.append({"name": param.display_name, "type": param.type.value, "value": value})
    data["options"][0]["options"] = options
    data["resolved"] = resolved
    start = len(h.sent)
    await h.feed(h.interaction_payload(2, data, user, h.channel(None)))
    await settle(h)
    return h.sent[start:]


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


async def test_forbid_and_allow_are_for_the_organiser_and_keep_a_pair_apart(harness: Harness) -> None:
    h = harness
    await entered(h, "swiss", ("alice", "bob", "carol", "dave"), rounds=2)
    refused = reply(await tour_pair(h, "forbid", "alice", "alice", "bob"))
    assert refused.ephemeral and "organiser" in refused.text
    done = reply(await tour_pair(h, "forbid", "mod", "alice", "bob"))
    assert done.public and "will not be paired" in done.text and done.pinged == []
    twice = reply(await tour_pair(h, "forbid", "mod", "bob", "alice"))
    assert twice.ephemeral and "already kept apart" in twice.text
    pair = tuple(sorted((str(USERS["alice"]), str(USERS["bob"]))))
    _, value = await only(h)
    assert value.forbidden == (pair,)
    allowed = reply(await tour_pair(h, "allow", "mod", "bob", "alice"))
    assert allowed.public and "again" in allowed.text
    _, value = await only(h)
    assert value.forbidden == () and [x["action"] for x in value.log] == ["forbid", "allow"]


async def test_swap_and_force_remake_the_changed_games_and_are_for_the_organiser(harness: Harness) -> None:
    h = harness
    await entered(h, "swiss", ("alice", "bob", "carol", "dave"), rounds=2)
    await tour(h, "start", "mod")
    _, value = await only(h)
    (a, c), (b, d) = (tb.seats for tb in value.current.tables)
    old_games = [tb.game_id for tb in value.current.tables]
    refused = reply(await tour_pair(h, "swap", "alice", name_of(a), name_of(b)))
    assert refused.ephemeral and "organiser" in refused.text
    done = reply(await tour_pair(h, "swap", "mod", name_of(a), name_of(b)))
    assert done.public and "change tables" in done.text and sorted(done.pinged) == sorted([int(a), int(b)])
    _, value = await only(h)
    # Who sits first at a changed table follows the seat rules and the event's coin flip (tests/league/test_seats.py)
    assert [set(tb.seats) for tb in value.current.tables] == [{b, c}, {a, d}]
    for game_id in old_games:
        assert (await h.bot.engine.get(game_id)).status != "active", "the old games are aborted"
    new_games = [await h.bot.engine.get(tb.game_id) for tb in value.current.tables]
    assert all(g.status == "active" for g in new_games) and not set(old_games) & {g.id for g in new_games}
    forced = reply(await tour_pair(h, "force", "mod", name_of(b), name_of(a)))
    assert forced.public and "play each other" in forced.text
    _, value = await only(h)
    assert any({a, b} == set(tb.seats) for tb in value.current.tables)
    assert [x["action"] for x in value.export()["manual_changes"]] == ["swap", "force"]
    await finish_game(h, value.current.tables[0].game_id, name_of(value.current.tables[0].seats[0]))
    late = reply(await tour_pair(h, "swap", "mod", name_of(a), name_of(d)))
    assert late.ephemeral and "no longer be re-paired" in late.text


async def test_swap_refused_once_a_game_of_the_round_has_a_move(harness: Harness, monkeypatch: Any) -> None:
    h = harness
    await entered(h, "swiss", ("alice", "bob", "carol", "dave"), rounds=2)
    await tour(h, "start", "mod")
    _, value = await only(h)
    (a, _), (b, _) = (tb.seats for tb in value.current.tables)
    get = h.bot.engine.get

    async def moved(game_id: int) -> Any:  # the first game has a move (the rules' own moves are tested elsewhere)
        return replace(await get(game_id), moves=1)

    monkeypatch.setattr(h.bot.engine, "get", moved)
    late = reply(await tour_pair(h, "swap", "mod", name_of(a), name_of(b)))
    assert late.ephemeral and "already begun" in late.text
    monkeypatch.undo()
    _, after = await only(h)
    assert [tb.seats for tb in after.current.tables] == [tb.seats for tb in value.current.tables]
    assert after.log == ()
