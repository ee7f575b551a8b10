"""The Floating Floors bot: bots in every seat finish games without breaking the rules, it adds a counterweight
before a step or a claim that would tip its board, and it claims when the rotation stands."""

from __future__ import annotations

import itertools
import json
from dataclasses import replace

import pytest

from engine.core import new_game_options
from rules.floating_floors import bot, statics
from rules.floating_floors.components import JUTSU_KINDS, KIND_COLOUR, KIND_SHAPE, WALKS_ON
from rules.floating_floors.game import FloatingFloors, colour_at, colour_of
from rules.floating_floors.layout import Space, name
from rules.floating_floors.state import Board, Piece, State, jutsu_total
from tests.rules import ff_helpers as ff

G = FloatingFloors()
TURN_LIMIT = 100  # player turns; the sim's bot games end by turn ~20 (see bot.py's figures)


# --- invariants and playouts ---------------------------------------------------------------------------------


def check_invariants(s: State) -> None:
    assert jutsu_total(s) == [10] * len(JUTSU_KINDS)
    lay, boards = s.layout, {b.card: b for b in s.boards}
    pieces = {p.id: p for p in s.pieces}
    for q in s.seats:
        if q.space is None:
            continue
        board = boards[lay.card_of(q.space)]
        if colour_at(board, lay, q.space) != colour_of(q):
            stone = pieces[q.on]
            assert stone.space == q.space and stone.level == "board", q
            assert KIND_COLOUR[stone.kind] == WALKS_ON[colour_of(q)], q
    assert all(b["stable"] for b in G.view(s, None)["boards"])
    assert G.from_json(json.loads(json.dumps(G.to_json(s)))) == s


def playout(players: int, seed: str, options: dict | None = None) -> tuple[State, int]:
    """A game with bots in every seat, checked after every action; (final state, collapses)."""
    s = G.new(players, options or {}, seed)
    collapses = 0
    while s.phase != "over" and s.turn <= TURN_LIMIT:
        seat = s.current
        action = G.bot_action(s, seat)
        assert action in G.legal_actions(s, seat) or bot.attempt(s, seat, action) is not None, action
        s, events = G.apply(s, seat, action)
        collapses += sum(e.kind == "collapse" for e in events)
        check_invariants(s)
    return s, collapses


@pytest.mark.parametrize(("players", "seed"), [(2, "bot-a"), (2, "bot-b"), (3, "bot-a"), (4, "bot-a")])
def test_bots_in_every_seat_reach_a_winner_keeping_the_invariants(players: int, seed: str) -> None:
    s, _ = playout(players, seed)
    assert s.phase == "over" and s.winner is not None
    assert s.seats[s.winner].done == len(s.seats[s.winner].bansen)


def test_bots_play_the_challenges_and_shaky_hands_to_a_winner() -> None:
    s, _ = playout(3, "bot-c", {"challenges": "campaign8", "master": "2"})
    assert s.phase == "over" and s.winner is not None


def test_a_hiding_position_survives_the_json_round_trip() -> None:
    s = G.new(2, {"chakra": "middle", "challenges": "1"}, "hide")
    assert G.from_json(json.loads(json.dumps(G.to_json(s)))) == s


def test_bots_never_tip_a_board_with_steady_hands() -> None:
    _, collapses = playout(2, "bot-d", {"tension": "exact"})  # bands make shaky boards fall: not steady
    assert collapses == 0


# --- hand-built positions ------------------------------------------------------------------------------------


def board_with(card: int, space: Space, colour: str, s: State) -> Board:
    """The first deck board in the first side and rotation that makes ``space`` of ``colour``."""
    for board_id, back, turns in itertools.product(s.deck, (False, True), range(4)):
        board = Board(card, board_id, back, turns)
        if colour_at(board, s.layout, space) == colour:
            return board
    raise AssertionError("no board fits")


def position(supports: list[tuple[str, Space, str]], ninja_at: Space | None, hand: tuple[str, ...],
             bansen_space: Space | None = None) -> State:
    """Two players; Sun (seat 0, light) to navigate with ``hand``; one board over the card of ``e6`` (card 4)
    or ``b6`` (card 3), held by ``supports`` (kind, space, offset); Sun on ``ninja_at`` (None: in its Chakra
    alcove, next to e6); one of Sun's Bansen in the alcove next to ``bansen_space``."""
    s = G.new(2, {"chakra": "middle", "tension": "exact"}, "hand-built")  # steady hands: pure statics
    lay = s.layout
    entry = ninja_at or lay.alcoves[s.seats[0].home].space
    card = lay.card_of(entry)
    board = board_with(card, entry, "light", s)
    pieces = tuple(Piece(i + 1, kind, sp, "ground", *statics.jutsu_position(sp, KIND_SHAPE[kind], off))
                   for i, (kind, sp, off) in enumerate(supports))
    sun = s.seats[0]
    if ninja_at is not None:
        sun = replace(sun, alcove=None, space=ninja_at, x=ninja_at[0] + 0.5, y=ninja_at[1] + 0.5)
    sun = replace(sun, hand=hand)
    smoke = replace(s.seats[1], hand=())
    alcoves = list(s.alcoves)
    if bansen_space is not None:
        alcoves = [None] * len(alcoves)
        alcoves[lay.alcove_at(bansen_space).index] = sun.bansen[0]
    used = [p.kind for p in pieces] + list(hand)
    pool = tuple(10 - used.count(k) for k in JUTSU_KINDS)
    s = replace(s, boards=(board,), deck=tuple(b for b in s.deck if b != board.board), pieces=pieces,
                next_piece=len(pieces) + 1, seats=(sun, smoke), alcoves=tuple(alcoves), pool=pool,
                phase="navigate", current=0, roll=(), to_take=())
    check_invariants(s)
    return s


E6, B6 = (4, 5), (1, 5)


def test_a_step_that_would_tip_the_board_gets_a_counterweight_first() -> None:
    # One square under the centre of e5: Sun (3) on e6 moves the centre of mass 1/3 south, past the square's
    # edge (1/4). A Jutsu (1) on the far side brings it back inside
    s = position([("bs", (4, 4), "c")], None, ("bs",))
    assert bot.attempt(s, 0, "move e6").fell
    action = bot.choose(s, 0)
    assert action.startswith("place bs ") and s.layout.card_of(_space(action)) == 4
    s, events = G.apply(s, 0, action)
    assert not any(e.kind == "collapse" for e in events)
    assert bot.choose(s, 0) == "move e6"
    s, events = G.apply(s, 0, "move e6")
    assert not any(e.kind == "collapse" for e in events) and s.seats[0].space == E6


def test_the_bot_claims_when_the_rotation_stands() -> None:
    corners = [("bs", (0, 3), "nw"), ("bs", (2, 3), "ne"), ("bs", (0, 5), "sw"), ("bs", (2, 5), "se")]
    s = position(corners, B6, (), bansen_space=B6)
    assert bot.choose(s, 0) == "claim"
    s, events = G.apply(s, 0, "claim")
    assert [e.kind for e in events if e.kind in ("claim", "collapse")] == ["claim"]


def test_a_claim_that_would_tip_gets_a_counterweight_then_the_claim() -> None:
    # Three squares in a north-south strip down b4-b6: Sun on b6 stands, but the quarter turn carries it to the
    # strip's side (1/3 off the centre, the strip is 1/4 wide). A Jutsu across the board turns with it
    strip = [("bs", (1, 3), "c"), ("bs", (1, 4), "c"), ("bs", (1, 5), "c")]
    s = position(strip, B6, ("bh",), bansen_space=B6)
    assert bot.attempt(s, 0, "claim").fell
    action = bot.choose(s, 0)
    assert action.startswith("place bh ")
    s, _ = G.apply(s, 0, action)
    assert bot.choose(s, 0) == "claim"
    s, events = G.apply(s, 0, "claim")
    assert "claim" in [e.kind for e in events] and s.seats[0].done == 1


def test_an_unfixable_claim_waits_for_the_next_turn() -> None:
    strip = [("bs", (1, 3), "c"), ("bs", (1, 4), "c"), ("bs", (1, 5), "c")]
    s = position(strip, B6, (), bansen_space=B6)
    assert bot.choose(s, 0) == "end"


def test_hiding_puts_an_opponents_bansen_far_from_its_chakra() -> None:
    s = G.new(2, {"chakra": "middle", "challenges": "1"}, "hide")
    seat = s.current
    action = bot.choose(s, seat)
    assert action in G.legal_actions(s, seat)
    bansen = action.split()[1]
    owner = next(q for q in s.seats if bansen in q.bansen)
    assert owner.seat != seat
    home = s.layout.alcoves[owner.home].space
    far = max(abs(a.space[0] - home[0]) + abs(a.space[1] - home[1]) for a in s.layout.alcoves
              if f"hide {bansen} {name(a.space)}" in G.legal_actions(s, seat))
    there = _space(action)
    assert abs(there[0] - home[0]) + abs(there[1] - home[1]) == far


def test_acquiring_prefers_the_pool_and_never_tips_its_own_board() -> None:
    s = G.new(2, {"chakra": "middle"}, "take")
    assert bot.choose(s, 0).endswith(" pool")
    # no bs in the pool (the rest are out of the game): one under Sun's entry board (its only support: taking it
    # tips the board) and one on the bare ground of a1
    s = position([("bs", (4, 4), "c"), ("bs", (0, 0), "c")], None, ())
    s = replace(s, phase="acquire", roll=("bs",), to_take=("bs",), pool=(0, *s.pool[1:]),
                removed=(s.pool[0], 0, 0, 0, 0, 0))
    check_invariants(s)
    assert set(G.legal_actions(s, 0)) == {"take bs under e5", "take bs a1"}
    assert bot.choose(s, 0) == "take bs a1"


def _space(action: str) -> Space:
    word = action.split()[2] if action.startswith(("place", "hide")) else action.split()[1]
    return ("abcdefghi".index(word[0]), int(word[1:]) - 1)


# --- combos and shaky boards (issue 23) ----------------------------------------------------------------------

F03 = ((0, "f03", False, 0),)  # card 0 (a1-c3) under floorboard f03: SLS / LLL / SLS, so a1 is shadow


def _bansen_at(space: str, options: dict) -> dict[int, str]:
    s = ff.position(options=options, boards=F03)
    return {s.layout.alcove_at(ff.sp(space)).index: s.seats[0].bansen[0]}


def test_the_bot_plays_a_combo_when_a_combo_is_strictly_better() -> None:
    """Rulebook: "You may even complete multiple actions at the same time (… placing multiple Jutsu at once with
    the same hand)". A triangle under b2, the Sun on a2 beside its Bansen and hand ``ws ws``: the claim tips the
    board, and so does the claim after any single Jutsu on the card; two laid together make it stand. The bot
    lays the two as one action, then claims."""
    exact = {"tension": "exact"}
    s = ff.position(options=exact, boards=F03, pieces=(("bt", "b2", "ground", "c"),), hands={0: ("ws", "ws")},
                    at={0: "a2"}, alcoves=_bansen_at("a2", exact))
    assert bot.attempt(s, 0, "claim").fell
    singles = [place for sp in s.layout.spaces(0) for off in ("c", *statics.OFFSETS)
               if (place := bot.place_text("ws", sp, off)) and bot.attempt(s, 0, place) is not None]
    assert len(singles) > 40
    for place in singles:
        after = bot.then(bot.attempt(s, 0, place), 0, "claim")
        assert after is None or after.fell, place  # no single Jutsu mends the claim
    action = bot.choose(s, 0)
    assert action.count(" + ") == 1 and all(part.startswith("place ws ") for part in action.split(" + "))
    s, events = G.apply(s, 0, action)
    assert [e.kind for e in events] == ["place", "place", "check"] and s.last["stable"]
    assert bot.choose(s, 0) == "claim"
    s, events = G.apply(s, 0, "claim")
    assert "claim" in [e.kind for e in events] and "collapse" not in [e.kind for e in events]


def test_the_bot_prefers_the_safe_board_of_two_equal_moves() -> None:
    """With bands (a new game's default) a shaky check may fall. Squares under a1 and b2 (west), a white stone on
    a1, the Sun on b1 two steps from its Bansen at a2, by a1 or by b2: both steps stand and lead to a2 alike, but
    the Sun on b2 leaves the board shaky and on a1 safe. The bot steps to a1 (today's bot stepped to b2)."""
    bands = {"tension": "bands"}
    pieces = (("bs", "a1", "ground", "c"), ("bs", "b2", "ground", "w"), ("ws", "a1", "board", "c"))
    s = ff.position(options=bands, boards=F03, pieces=pieces, hands={0: ()}, at={0: "b1"},
                    alcoves=_bansen_at("a2", bands))
    by_a1, by_b2 = bot.attempt(s, 0, "move a1"), bot.attempt(s, 0, "move b2")
    assert not by_a1.fell and not by_b2.fell and (by_a1.shaky, by_b2.shaky) == (0, 1)
    for first in (by_a1, by_b2):
        last = bot.attempt(first.after, 0, "move a2")
        assert not last.fell and last.shaky == 0
    assert bot.choose(s, 0) == "move a1"


@pytest.mark.parametrize(("players", "seed"), [(2, "legal-a"), (3, "legal-a")])
def test_bot_actions_are_always_legal_over_seeded_playouts(players: int, seed: str) -> None:
    """With a new game's options (``tension=bands``) every action the bot returns, combos included, is accepted
    by the rules (`playout` applies each and checks the invariants), and the game reaches a winner."""
    s, _ = playout(players, seed, new_game_options(G, {}))
    assert s.phase == "over" and s.winner is not None
