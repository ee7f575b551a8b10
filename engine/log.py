"""The action log: a game is its header and its (seat, action) lines. `replay` rebuilds any state from them;
`record` writes them out as text (export, bug reports, the proof of a fair deal once the game is over)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any

import orjson

from engine.book import TableBook
from engine.errors import DamagedGameError
from engine.meta import seed_shown
from engine.tables import CLOSED_STATUSES
from rules.base import Game

UNDO = "undo"  # the log's undo row: the seat takes back its last standing action (engine/undo.py)


def standing(actions: Iterable[tuple[int, str]]) -> list[tuple[int, str]]:
    """The actions that count: each ``undo`` row removes its seat's last standing action (the log keeps both)."""
    out: list[tuple[int, str]] = []
    for seat, action in actions:
        if action != UNDO:
            out.append((seat, action))
            continue
        index = next((i for i in range(len(out) - 1, -1, -1) if out[i][0] == seat), None)
        if index is None:
            raise ValueError(f"an undo of seat {seat} with nothing of its own to take back")
        del out[index]
    return out


def replay(rules: Game, players: int, options: dict[str, Any], seed: str, actions: Iterable[tuple[int, str]]) -> Any:
    """Rebuild a state from its header and log: the proof that the log is the game."""
    state = rules.new(players, options, seed)
    for seat, action in standing(actions):  # an undo row takes its seat's last action back (engine/undo.py)
        state, _ = rules.apply(state, seat, action)
    return state


def rules_tag(rules: Game, state: Any) -> str:
    """The rules' id and the version of their stored state: a record made by other rules says another."""
    version = rules.to_json(state).get("version", 0) if state is not None else 0
    return f"{getattr(rules, 'id', '?')}/{version}"  # a damaged shell may have no rules


def digest(rules: Game, state: Any) -> str:
    """A short fingerprint of a state (its sorted JSON): the same log under the same rules gives the same one."""
    return hashlib.sha256(orjson.dumps(rules.to_json(state), option=orjson.OPT_SORT_KEYS)).hexdigest()[:20]


def header_value(key: str, value: str) -> str:
    """A header's value between its quotes: a name's double quotes become single ones (readable), the options'
    JSON keeps them escaped as PGN does (``\\"``), so that a record loads back exactly (engine/replays.py)."""
    if key == "Options":
        return value.replace("\\", "\\\\").replace('"', '\\"')
    return value.replace('"', "'")


class GameLog:
    """The records of the book's games."""

    def __init__(self, book: TableBook) -> None:
        self.book = book

    async def record(self, table_id: int) -> str:
        """The game's header and log. The seed is in it only once the game is over: every deal, draw and letter
        follows from it, so while the game runs it is as secret as the cards; afterwards it proves the deal (a
        tournament's score round shares one deal: its seed waits for the tournament's end)."""
        book = self.book
        try:
            table = await book.get(table_id)
        except DamagedGameError:  # the log is what an operator needs to repair a damaged game: export it
            row = await book.store.load_game(table_id)
            assert row is not None
            table = book.shell(row)
        actions = await book.store.actions(table_id)
        shown = table.status in CLOSED_STATUSES and await seed_shown(book.store, table)
        header = {
            "Game": table.game,
            "Table": str(table.id),
            "Date": table.created_at.date().isoformat(),
            **({"Seed": table.seed} if shown else {}),
            "Players": str(len(table.seats)),
            "Options": orjson.dumps(table.options, option=orjson.OPT_SORT_KEYS).decode(),
            **{f"Seat{i}": s.name + (" (bot)" if s.bot else "") for i, s in enumerate(table.seats)},
            "Status": table.status + (" (damaged)" if table_id in book.damaged else ""),
            "Rules": rules_tag(table.rules, table.state),
            # The final state's fingerprint: a record loaded back (engine/replays.py) must replay to it. Only with
            # the seed: while it is secret, a fingerprint could be matched against guessed hands.
            **({"Final": digest(table.rules, table.state)} if shown and table.state is not None else {}),
        }
        if table.outcome is not None:
            header["Winners"] = " ".join(str(w) for w in table.outcome.winners)
            header["Scores"] = " ".join(f"{x:g}" for x in table.outcome.scores)
        lines = [f'[{k} "{header_value(k, v)}"]' for k, v in header.items()]
        lines.append("")
        lines += [f"{a.seat} {a.action}" for a in actions]
        return "\n".join(lines) + "\n"
