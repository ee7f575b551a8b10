"""The engine's view cache (`engine.tables.VIEWS`) holds no ended game (issue 25, the memory soak): each entry
keeps the state it was drawn from, and a finished game's final state (a Floor Plan game's ~45 KB) stayed until 256
newer views pushed it out, so a bot whose games end kept up to 256 dead games' states."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from engine.tables import VIEWS, SeatInfo, Table
from rules.flying_blades import FlyingBlades


def _table(table_id: int) -> Table:
    rules = FlyingBlades()
    now = datetime(2026, 1, 1, tzinfo=UTC)
    return Table(id=table_id, game="flying_blades", rules=rules, guild_id=1, channel_id=1, host_id=1,
                 status="active", options={}, seed="ended", seats=[SeatInfo(i, f"p{i}") for i in range(3)],
                 version=1, moves=0, state=rules.new(3, {}, "ended"), meta={}, outcome=None, created_at=now,
                 updated_at=now)


def test_a_finished_games_views_leave_the_view_cache_with_its_states() -> None:
    """Views of the game while it ran are dropped once its final view is asked for (its end post), and the final
    view itself is computed (the same as the rules give) without being kept."""
    table = _table(-901)
    table.view(0), table.view(None)
    assert {(-901, 0), (-901, None)} <= set(VIEWS.entries)
    ended = replace(table, status="finished", version=2)
    view = ended.view(None)
    assert view == table.rules.view(ended.state, None)
    assert not [key for key in VIEWS.entries if key[0] == -901]
    ended.view(1)
    assert not [key for key in VIEWS.entries if key[0] == -901]


def test_an_aborted_game_keeps_no_view_and_other_games_keep_theirs() -> None:
    """Only the game that is over leaves the cache: a running game's cached view is still shared."""
    running, other = _table(-902), _table(-903)
    shared = running.view(0)
    other.view(0)
    replace(other, status="aborted", version=2).view(0)
    assert running.view(0) is shared and (-903, 0) not in VIEWS.entries
