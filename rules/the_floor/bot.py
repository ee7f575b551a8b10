"""The scripted player (for playouts and bot seats) and the timer defaults; pure functions of the state."""

from __future__ import annotations

import unicodedata
from typing import Any

from rules import rng
from rules.the_floor import board as bd
from rules.the_floor.options import MAX_ANSWERS
from rules.the_floor.state import State

BOT_STREAM_BASE = 1_000_000
PASS_P = 0.15
MIN_MS, SPREAD_MS = 800, 5000


def _initials(text: str) -> set[str]:
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().upper()
    return {w[0] for w in plain.replace("-", " ").split() if w and w[0].isalpha()}


def default_take(s: State, side: int, cells: tuple[int, ...], count: int) -> list[int]:
    """The cells that join the winner's fields: first those touching the winner's own cells (so fields merge, as
    in the rulebook's example), then those touching cells already chosen, lowest cell first."""
    chosen: list[int] = []
    owned = {c for c in range(25) if s.board[c] == side}

    def key(c: int) -> tuple[bool, bool, int]:
        near = bd.neighbours(c)
        return (not any(n in owned for n in near), not any(n in chosen for n in near), c)

    for _ in range(count):
        chosen.append(min((c for c in cells if c not in chosen), key=key))
    return sorted(chosen)


def _take_text(cells: list[int]) -> str:
    return "take " + ",".join(bd.name(c) for c in cells)


def default(game: Any, s: State, seat: int) -> str:
    side = s.seat_side[seat]
    if s.phase == "draft":
        return f"pick {sorted(s.hands[side])[0]}"
    if s.pending:
        p = s.pending[0]
        if p.kind == "take":
            return _take_text(default_take(s, p.side, p.cells, p.count))
        return f"{'pick' if p.kind == 'final_pick' else 'keep'} {p.options[0]}"
    d = s.duel
    if d is not None:
        if not d.started:
            return "ready"
        if d.judging:
            return "judge accept"
        return "timeout"
    a, b = sorted(game.challenges(s, side))[0]
    return f"challenge {bd.name(a)} {bd.name(b)}"


def choose(game: Any, s: State, seat: int) -> str:
    side = s.seat_side[seat]
    r = rng.stream(s.seed, BOT_STREAM_BASE + s.turn)
    if s.phase == "draft":
        hand = sorted(s.hands[side])
        return f"pick {hand[rng.below(r, len(hand))]}"
    if s.pending:
        p = s.pending[0]
        if p.kind == "take":
            return default(game, s, seat)
        return f"{'pick' if p.kind == 'final_pick' else 'keep'} {p.options[rng.below(r, len(p.options))]}"
    d = s.duel
    if d is None:
        options = sorted(game.challenges(s, side))
        a, b = options[rng.below(r, len(options))]
        return f"challenge {bd.name(a)} {bd.name(b)}"
    if not d.started:
        return "ready"
    if d.judging:
        return "judge accept"
    ms = MIN_MS + rng.below(r, SPREAD_MS)
    if r.random() < PASS_P or len(d.log) >= MAX_ANSWERS:  # past the cap the rules take passes only
        return f"pass {ms}"
    category = game.catalog(s).get(d.category)
    if category is None:
        return f"pass {ms}"
    answers = [a for a in category["answers"] if d.letter in _initials(a)]
    answers = rng.shuffled(s.seed, BOT_STREAM_BASE + s.turn + 500_000, answers)
    for a in answers[:8]:
        if game.check(a, category, d.letter, list(d.given), s.lang).status == "accepted":
            return f"answer {ms} {a}"
    return f"pass {ms}"


def example(game: Any, s: State, seat: int) -> str | None:
    """A move ``seat`` could type now, legal in this position, to show as an example (a prompt, a hint): the
    timer's default. None when nothing is typed in notation: not this seat's turn, a secret draft pick, a
    running duel (free text) or a vote (buttons)."""
    if seat not in game.to_move(s) or s.phase in ("draft", "over"):
        return None
    d = s.duel
    if d is not None and not s.pending and (d.judging or d.started):
        return None
    return default(game, s, seat)
