"""The action log: a game is its header and its (seat, action) lines. `replay` rebuilds any state from them;
`record` writes them out as text (export, bug reports, the proof of a fair deal once the game is over)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import orjson

from engine.errors import DamagedGameError
from engine.tables import CLOSED_STATUSES, Table
from engine.undo import standing
from rules.base import Game
from storage import GameRow, Store


def replay(rules: Game, players: int, options: dict[str, Any], seed: str, actions: Iterable[tuple[int, str]]) -> Any:
    """Rebuild a state from its header and log: the proof that the log is the game."""
    state = rules.new(players, options, seed)
    for seat, action in standing(actions):  # an undo row takes its seat's last action back (engine/undo.py)
        state, _ = rules.apply(state, seat, action)
    return state


class GameLog:
    """Mixed into `Engine` (engine/core.py)."""

    store: Store
    damaged: dict[int, str]

    if TYPE_CHECKING:
        async def get(self, table_id: int) -> Table: ...
        def _shell(self, row: GameRow) -> Table: ...

    async def record(self, table_id: int) -> str:
        """The game's header and log. The seed is in it only once the game is over: every deal, draw and letter
        follows from it, so while the game runs it is as secret as the cards; afterwards it proves the deal (a
        tournament's score round shares one deal: its seed waits for the tournament's end)."""
        try:
            table = await self.get(table_id)
        except DamagedGameError:  # the log is what an operator needs to repair a damaged game: export it
            row = await self.store.load_game(table_id)
            assert row is not None
            table = self._shell(row)
        actions = await self.store.actions(table_id)
        from engine.tournaments import seed_shown  # engine.tournaments builds on the engine

        shown = table.status in CLOSED_STATUSES and await seed_shown(self.store, table)
        header = {
            "Game": table.game,
            "Table": str(table.id),
            "Date": table.created_at.date().isoformat(),
            **({"Seed": table.seed} if shown else {}),
            "Players": str(len(table.seats)),
            "Options": orjson.dumps(table.options, option=orjson.OPT_SORT_KEYS).decode(),
            **{f"Seat{i}": s.name + (" (bot)" if s.bot else "") for i, s in enumerate(table.seats)},
            "Status": table.status + (" (damaged)" if table_id in self.damaged else ""),
        }
        if table.outcome is not None:
            header["Winners"] = " ".join(str(w) for w in table.outcome.winners)
            header["Scores"] = " ".join(f"{x:g}" for x in table.outcome.scores)
        lines = [f'[{k} "{v.replace(chr(34), chr(39))}"]' for k, v in header.items()]
        lines.append("")
        lines += [f"{a.seat} {a.action}" for a in actions]
        return "\n".join(lines) + "\n"
