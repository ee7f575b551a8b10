"""A FEN-like position text for play positions (no duel or choice pending), for tests, puzzles and bug reports::

    01010/10101/01.10/10101/01010 A1=flowers,B1=rivers,... 2s side=0 round=1 challenged=1 seed=abc

Rows top (row 5) to bottom (row 1), one side digit or '.' per cell; every field's category as ``cell=id`` on one
of its cells; the number of sides; then ``key=value`` for the side to move, the round, the sides that have
challenged this round, the seed, and the options (players, lang, clock, judging, kids) where not default.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules.the_floor import board as bd
from rules.the_floor.state import State


def to_position(s: State) -> str:
    if s.phase != "play" or s.duel is not None or s.pending:
        raise ValueError("only play positions between turns have a position text")
    rows = []
    for top in range(5):
        row = 4 - top
        rows.append("".join("." if s.board[bd.index(c, row)] < 0 else str(s.board[bd.index(c, row)])
                            for c in range(5)))
    cards = ",".join(f"{bd.name(c)}={cat}" for c, cat in s.cards)
    parts = ["/".join(rows), cards, f"{s.sides}s", f"side={s.current}", f"round={s.round}"]
    done = [str(x) for x in range(s.sides) if s.challenged[x]]
    if done:
        parts.append("challenged=" + ",".join(done))
    parts.append(f"seed={s.seed}")
    if s.players != s.sides:
        parts.append(f"players={s.players}")
    defaults = {"lang": "en", "clock": 45, "judging": "vote", "kids": False}
    for key, value in s.options.items():
        if key in defaults and value != defaults[key]:
            parts.append(f"{key}={str(value).lower() if isinstance(value, bool) else value}")
    return " ".join(parts)


def from_position(game: Any, text: str) -> State:
    """Read a position text; raises ValueError when it is malformed or breaks the rules of a position."""
    words = text.split()
    if len(words) < 3 or not words[2].endswith("s") or not words[2][:-1].isdigit():
        raise ValueError("expected: rows cards <sides>s key=value...")
    rows, cards_text, sides = words[0].split("/"), words[1], int(words[2][:-1])
    kv = dict(w.split("=", 1) for w in words[3:] if "=" in w)
    if len(rows) != 5 or any(len(r) != 5 for r in rows) or not 2 <= sides <= 5:
        raise ValueError("bad rows or sides")
    board = [bd.EMPTY] * 25
    for top, line in enumerate(rows):
        for col, ch in enumerate(line):
            if ch != ".":
                if not ch.isdigit() or int(ch) >= sides:
                    raise ValueError(f"bad cell {ch!r}")
                board[bd.index(col, 4 - top)] = int(ch)
    options: dict[str, Any] = {"sides": sides}
    for key in ("lang", "judging"):
        if key in kv:
            options[key] = kv[key]
    if "clock" in kv:
        options["clock"] = int(kv["clock"])
    if "kids" in kv:
        options["kids"] = kv["kids"] == "true"
    s = game.new(int(kv.get("players", sides)), options, kv.get("seed", "position"))
    known = game.catalog(s)
    cards = []
    for item in filter(None, cards_text.split(",")):
        cell, _, cat = item.partition("=")
        if cat not in known:
            raise ValueError(f"unknown category {cat!r}")
        cards.append((bd.parse_cell(cell), cat))
    cards.sort()
    for f in bd.fields(tuple(board)):
        if len([c for c, _ in cards if c in f]) != 1:
            raise ValueError(f"field {bd.name(f[0])} must hold exactly one category")
    if any(board[c] == bd.EMPTY for c, _ in cards) or len({c for _, c in cards}) != len(cards):
        raise ValueError("a category on an empty cell, or twice")
    on_board = {cat for _, cat in cards}
    deck = tuple(c for c in (*(c for h in s.hands for c in h), *s.deck) if c not in on_board)
    done = {int(x) for x in kv.get("challenged", "").split(",") if x}
    return replace(s, board=tuple(board), cards=tuple(cards), phase="play", hands=((),) * sides, deck=deck,
                   current=int(kv.get("side", 0)), round=int(kv.get("round", 1)),
                   challenged=tuple(x in done for x in range(sides)))
