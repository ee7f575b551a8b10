"""Helpers for the_floor tests: a fake content provider and answer checker (the real ones live in
rules/the_floor/content.py and answers.py), position building, invariants and a scripted playout."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest

from rules.base import RulesError
from rules.the_floor import State, TheFloor
from rules.the_floor import board as bd

NAMED = {"flowers": "Flowers", "music_genres": "Music genres", "cats": "Cat breeds", "rivers": "Rivers"}
LETTERS = "ABCDEFGHIJKLMNOPRSTUVWYZ"


def _answers(i: int) -> list[str]:
    return [f"{L}{w}{i % 7}" for L in LETTERS for w in ("alpha", "beta", "gamma", "delta", "omega")]


class FakeContent:
    def categories(self, lang: str) -> list[dict[str, Any]]:
        cats = [{"id": k, "name": v, "flags": [], "answers": _answers(n)} for n, (k, v) in enumerate(NAMED.items())]
        cats += [{"id": f"c{i:03d}", "name": f"Category {i}", "flags": ["kids"] if i % 2 else [],
                  "answers": _answers(i)} for i in range(120)]
        return cats


@dataclass(frozen=True)
class Verdict:
    status: str
    canonical: str


def fake_check(text: str, category: dict[str, Any], letter: str, given: list[str], lang: str) -> Verdict:
    norm = " ".join(text.split())
    listed = {a.lower(): a for a in category["answers"]}
    canon = listed.get(norm.lower(), norm)
    if not norm.upper().startswith(letter):
        return Verdict("wrong_letter", canon)
    if canon.lower() in {g.lower() for g in given}:
        return Verdict("repeat", canon)
    if norm.lower().startswith(letter.lower() + "nonsense"):
        return Verdict("rejected", canon)
    return Verdict("accepted" if norm.lower() in listed else "unknown", canon)


G = TheFloor(content=FakeContent(), checker=fake_check)


def play(s: State, *moves: tuple[int, str]) -> State:
    for seat, action in moves:
        s, _ = G.apply(s, seat, action)
    return s


def drafted(players: int = 2, seed: str = "s", **options: Any) -> State:
    """A game right after the draft (every side picks its first sorted card)."""
    s = G.new(players, options, seed)
    while s.phase == "draft":
        seat = min(G.to_move(s))
        s, _ = G.apply(s, seat, G.default_action(s, seat))
    return s


def position(rows: str, cards: dict[str, str], current: int = 0, sides: int = 2) -> State:
    """A play position from rows top (5) to bottom (1) with digits for sides and '.' for empty cells, and the
    category card of each field given on one of its cells; built through the position text."""
    card_text = ",".join(f"{c}={cat}" for c, cat in cards.items())
    return G.from_position(f"{rows} {card_text} {sides}s side={current} seed=s")


def check_invariants(s: State) -> None:
    assert G.from_json(json.loads(json.dumps(G.to_json(s)))) == s
    assert s.board.count(bd.EMPTY) == (0 if s.sides == 5 else 1)
    if s.phase != "draft" and not s.pending:
        for f in bd.fields(s.board):
            on = [cat for c, cat in s.cards if c in f]
            assert len(on) == 1, (f, on)
    cats = [cat for _, cat in s.cards]
    assert len(cats) == len(set(cats))
    if s.duel is not None:
        ms = s.clock_s * 1000
        assert all(0 <= c <= ms for c in s.duel.clocks)
    for seat in range(s.players):
        v = G.view(s, seat)
        json.dumps(v)
        text = json.dumps(G.view(s, None))
        assert "decks" not in text
        for side in range(s.sides):
            if side != s.seat_side[seat] and s.phase == "draft":
                for c in s.hands[side]:
                    if c not in s.hands[s.seat_side[seat]]:
                        assert f'"{c}"' not in json.dumps(v)
    if s.phase != "over":
        assert G.to_move(s)


def check_refusals(s: State, seat: int) -> None:
    """Bad input gets a RulesError and changes nothing: a seat not to move, actions out of phase, typos."""
    others = [i for i in range(s.players) if i not in G.to_move(s)]
    tries = [(seat, "fly away"), (seat, "challenge A1 A1"), (seat, "take E5,E5"), (seat, "keep nothing"),
             (seat, "answer 1 Q"), (seat, "judge accept") if s.duel is None or not s.duel.judging else (seat, "ready")]
    if others:
        tries.append((others[0], G.bot_action(s, seat) if s.phase != "draft" else "ready"))
    for who, action in tries:
        with pytest.raises(RulesError):
            G.apply(s, who, action)


def playout(players: int, seed: str, options: dict[str, Any] | None = None) -> tuple[State, list[tuple[int, str]]]:
    """The scripted answerer at every seat, invariants at every step, to the end."""
    s = G.new(players, options or {}, seed)
    log: list[tuple[int, str]] = []
    for _ in range(5000):
        check_invariants(s)
        if s.phase == "over":
            return s, log
        movers = sorted(G.to_move(s))
        seat = movers[len(log) % len(movers)]
        if len(log) % 5 == 0:
            check_refusals(s, seat)
        action = G.bot_action(s, seat)
        assert G.notation(s, action) == G.notation(s, G.notation(s, action))
        s, events = G.apply(s, seat, action)
        assert events or s.phase == "draft"
        log.append((seat, G.notation(s, action)))
    raise AssertionError("the game did not end")


def replay(players: int, seed: str, options: dict[str, Any], log: list[tuple[int, str]]) -> State:
    s = G.new(players, options, seed)
    for seat, action in log:
        s, _ = G.apply(s, seat, action)
    return s
