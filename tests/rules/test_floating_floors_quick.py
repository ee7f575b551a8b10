"""The quick previews (`rules.floating_floors.quick`, issue 25) answer exactly what the whole rules path answers.

The rulebook's "if any Floorboard collapses … the turn ends" is our statics check, and a preview ("what if") tells
it before the move: the check of each touched board (margin or band, stable, fall chance), the collapse, a claim, a
win. Plain placements, boards, steps and takes are answered from the state without a working copy; every answer
they give must equal `play.generic_preview`'s, over seeded random positions of every mode, for the legal actions
and for refused, nudging and off-centre ones (where the quick path must step aside so the rules word the refusal).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from rules.base import RulesError
from rules.floating_floors import quick
from rules.floating_floors.components import JUTSU_KINDS
from rules.floating_floors.game import FloatingFloors, preview, previews
from rules.floating_floors.layout import name
from rules.floating_floors.play import generic_preview
from rules.floating_floors.state import State
from rules.floating_floors.statics import OFFSETS

G = FloatingFloors()
MODES = [  # (players, options): every branch of a preview — tension, shaky hands, Challenges, the Master
    (2, {"tension": "bands"}),
    (3, {"tension": "exact"}),
    (4, {"tension": "bands", "chakra": "choose"}),
    (3, {"tension": "exact", "challenges": "campaign8", "shaky": "all"}),
    (4, {"tension": "exact", "challenges": "3,5,6,7"}),
    (2, {"tension": "bands", "master": "1"}),
    (3, {"tension": "exact", "challenges": "1,4", "shaky": "claims"}),
    (2, {"tension": "exact", "master": "2", "master_steps": "off"}),
]


def _positions(players: int, options: dict[str, Any], seed: str, steps: int) -> list[tuple[State, int]]:
    """A seeded game of random legal moves (boards and steps favoured, and a third of them the bot's, so that
    ninjas walk loaded boards): (state, seat) at every step."""
    s = G.new(players, options, seed)
    pick = random.Random(seed)
    out = []
    for _ in range(steps):
        if s.phase == "over":
            break
        seat = s.current
        out.append((s, seat))
        legal = G.legal_actions(s, seat)
        favoured = [a for a in legal if a.split()[0] in ("board", "move", "claim")]
        if pick.random() < 0.3:  # the bot's moves: ninjas walking loaded boards
            action = G.bot_action(s, seat)
        else:
            action = pick.choice(favoured if favoured and pick.random() < 0.6 else legal)
        s, _ = G.apply(s, seat, action)
    return out


def _odd_actions(s: State, pick: random.Random, n: int) -> list[str]:
    """Actions the lists never offer: any kind anywhere, off-centre, nudging, water, boards and steps anywhere."""
    lay = s.layout
    spaces = [name((c, r)) for r in range(9) for c in range(9)]  # past a 2-player map's edge too
    out = []
    for _ in range(n):
        sp, kind, off = pick.choice(spaces), pick.choice(JUTSU_KINDS), pick.choice(OFFSETS)
        out.append(pick.choice([
            f"place {kind} {sp}", f"place {kind} {sp} {off}", f"place {kind} {sp} nudge {off}",
            f"board {sp}", f"board {sp} back r90", f"move {sp}", f"move {sp} nudge {off}",
            f"take {kind} pool", f"take {kind} {sp}", f"take {kind} under {sp}", "end", "claim",
            f"place {kind} {sp} + place {kind} {name(lay.alcoves[0].space)}",
        ]))
    return out


def _generic(s: State, seat: int, action: str) -> Any:
    try:
        return generic_preview(s, seat, action)
    except RulesError as e:
        return ("refused", type(e).__name__, str(e))


@pytest.mark.parametrize(("players", "options"), MODES, ids=[f"{p}p-{i}" for i, (p, _) in enumerate(MODES)])
def test_a_quick_preview_tells_what_the_whole_rules_path_tells(players: int, options: dict[str, Any]) -> None:
    """Every answer the quick path gives equals the generic one (and it gives none where the rules refuse)."""
    seed = f"quick-{players}-{sorted(options.items())}"
    pick = random.Random(seed)
    answered: Counter[tuple[str, int, bool]] = Counter()  # (verb, checks, collapse) of the quick answers
    for s, seat in _positions(players, options, seed, 70):
        legal = G.legal_actions(s, seat)
        for action in [*pick.sample(legal, min(40, len(legal))), *_odd_actions(s, pick, 40)]:
            fast = quick.preview(s, seat, action)
            if fast is None:
                continue
            answered[action.split()[0], len(fast["checks"]), fast["collapse"] is not None] += 1
            assert fast == _generic(s, seat, action), (s.turn, seat, action)
    assert sum(answered.values()) > 300  # the quick path really answered most of a turn's options
    assert sum(n for (_, checks, _), n in answered.items() if checks) > 50  # with boards to check


@pytest.mark.parametrize(("players", "options"), MODES[:4], ids=[f"{p}p-{i}" for i, (p, _) in enumerate(MODES[:4])])
def test_a_selects_previews_in_one_call_are_each_options_preview_or_none_where_refused(
        players: int, options: dict[str, Any]) -> None:
    """`previews` (a select's options at once, the seat checked once) gives each option `preview`'s answer,
    None where the rules refuse it, for the seat to move and for any other seat, in every phase."""
    seed = f"bulk-{players}-{sorted(options.items())}"
    pick = random.Random(seed)
    refused = answered = 0
    for s, seat in _positions(players, options, seed, 50):
        legal = G.legal_actions(s, seat)
        for asker in (seat, (seat + 1) % players):
            actions = [*pick.sample(legal, min(25, len(legal))), *_odd_actions(s, pick, 10)]
            one_by_one = []
            for action in actions:
                try:
                    one_by_one.append(preview(s, asker, action))
                except RulesError:
                    one_by_one.append(None)
            got = previews(s, asker, actions)
            assert got == one_by_one, (s.turn, asker)
            refused, answered = refused + got.count(None), answered + len(got) - got.count(None)
    assert refused > 100 and answered > 300  # both kinds of answer were compared


def test_the_quick_path_steps_aside_for_other_seats_and_phases() -> None:
    """Not the seat to move, a resigned seat, a bad seat, or a phase without quick answers: the generic path
    answers (with the rules' refusal)."""
    s, seat = next((s, q) for s, q in _positions(2, {"tension": "exact"}, "aside", 40) if s.phase == "navigate")
    action = next(a for a in G.legal_actions(s, seat) if a.startswith("place"))
    assert quick.preview(s, seat, action) is not None
    for other in (1 - seat, True, -1, 7, "0"):
        assert quick.preview(s, other, action) is None  # type: ignore[arg-type]
    with pytest.raises(RulesError):
        preview(s, 1 - seat, action)



def test_a_step_between_two_loaded_boards_is_previewed_as_the_rules_check_it() -> None:
    """"If any Floorboard collapses … the turn ends": a step checks the board entered, then the board left, and the
    first that falls ends the checks. Every legal action of a bot game (ninjas walk from board to board), quick
    against generic."""
    s, answered = G.new(3, {"tension": "exact"}, "quick-bot"), Counter()
    for _ in range(110):
        seat = s.current
        for action in G.legal_actions(s, seat):
            fast = quick.preview(s, seat, action)
            if fast is not None:
                answered[action.split()[0], len(fast["checks"]), fast["collapse"] is not None] += 1
                assert fast == _generic(s, seat, action), (s.turn, seat, action)
        s, _ = G.apply(s, seat, G.bot_action(s, seat))
    assert answered["move", 2, False] and answered["move", 1, True] and answered["take", 1, False]
