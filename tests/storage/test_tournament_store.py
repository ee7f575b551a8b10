"""TournamentStore contract: tournaments are versioned like games and remember the games they made."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from storage import Store, TournamentConflictError, TournamentRow
from tests.storage.rows import GUILD, NOW, inserted


def tournament(status: str = "registration", entrants: tuple[int, ...] = (1, 2)) -> TournamentRow:
    return TournamentRow(0, GUILD, 99, 1, "Cup", "nim", status, {"entrants": [{"id": e} for e in entrants]}, 0,
                         NOW, NOW, NOW)


async def test_a_tournament_saves_over_its_version_and_links_its_games(store: Store) -> None:
    tid = await store.insert_tournament(tournament())
    row = await store.load_tournament(tid)
    game = await inserted(store, 1)
    await store.save_tournament(replace(row, status="running", version=1), expect_version=0, link=[(game.id, 1, 0)])
    with pytest.raises(TournamentConflictError):
        await store.save_tournament(replace(row, status="finished", version=1), expect_version=0)
    assert (await store.load_tournament(tid)).status == "running"
    assert await store.tournament_of_game(game.id) == (tid, 1, 0)
    assert await store.running_tournament_ids() == [tid]


async def test_the_tournament_listings_find_by_server_entrant_and_due_time(store: Store) -> None:
    a = await store.insert_tournament(tournament("running", (1, 2)))
    b = await store.insert_tournament(replace(tournament("finished", (3,)), due_at=None))
    assert [t.id for t in await store.tournaments_in_guild(GUILD, ("running", "finished"))] == [a, b]
    assert [t.id for t in await store.tournaments_of(1, GUILD)] == [a]
    assert await store.due_tournaments(NOW + timedelta(seconds=1)) == [a]
