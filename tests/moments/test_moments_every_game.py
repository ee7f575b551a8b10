"""Every game's key moments (issue 27, "The end of a game": "key moments the rules can name — each game names its
own"), each checked on a seeded bot playout against a count made independently of the events the moment reads:
from the states (pieces on the board, Lands on the map, the public scores, the pool) or from the log's texts."""

from __future__ import annotations

import itertools
from functools import cache
from typing import Any

from rules import GAMES
from rules.moments import MAX_MOMENTS, Moment, Played, moments_of, replay


@cache
def playout(game: str, players: int, seed: str, options: tuple[tuple[str, Any], ...] = ()) -> tuple[Played, ...]:
    rules = GAMES[game]
    opts = rules.normalize_options(players, dict(options))
    s, actions = rules.new(players, opts, seed), []
    while rules.outcome(s) is None and len(actions) < 1500:
        seat = min(rules.to_move(s))
        action = rules.bot_action(s, seat)
        s, _ = rules.apply(s, seat, action)
        actions.append((seat, action))
    assert rules.outcome(s) is not None
    return tuple(replay(rules, players, opts, seed, actions))


def named(moments: list[Moment], kind: str) -> Moment:
    found = [m for m in moments if m.kind == kind]
    assert len(found) == 1, moments
    return found[0]


def test_night_of_the_27_ninja_names_the_turn_that_eliminated_the_most_ninjas() -> None:
    """Rulebook: "attack (... eliminating it), play a card" — a bomb may eliminate several at once; the moment is
    the largest drop in ninjas on the board made by one action."""
    steps = playout("flying_blades", 3, "moments-a")
    moment = named(moments_of("flying_blades", steps, True), "biggest_turn")
    pieces = [sum(p.before.board.count(c) for c in "rybgk") - sum(p.after.board.count(c) for c in "rybgk")
              for p in steps]
    assert moment.numbers["count"] == max(pieces) >= 2
    assert moment.step == pieces.index(max(pieces)) + 1 and moment.seats == (steps[moment.step - 1].seat,)


def test_night_of_the_27_ninja_names_the_best_hunter() -> None:
    """Rulebook (2 players): "Each player keeps the prey ninjas they eliminate" — the best hunter kept most."""
    steps = playout("flying_blades", 3, "moments-a")
    moment = named(moments_of("flying_blades", steps, True), "top_hunter")
    captured = steps[-1].after.captured
    assert moment.numbers["count"] == max(captured) and moment.seats == (captured.index(max(captured)),)


def test_the_floor_names_its_longest_duel_and_its_biggest_territory_gain() -> None:
    """Rulebook: duels are fought answer by answer until a clock runs out; the winner takes the loser's cells. The
    longest duel is counted from the log's answer and pass actions made while that duel ran; the gain from the
    board before and after."""
    steps = playout("the_floor", 3, "m1")
    moments = moments_of("the_floor", steps, True)
    # the duel's own record of answers and passes (an answer after the clock ran out is not in it)
    logged = [len(p.after.duel.log) for p in steps if p.after.duel is not None]
    assert named(moments, "longest_duel").numbers["count"] == max(logged)
    gains = [max((sum(1 for a, b in zip(p.before.board, p.after.board, strict=True) if a != b and b == side)
                  for side in set(p.after.board) if side >= 0), default=0) for p in steps]
    gain = named(moments, "biggest_gain")
    assert gain.numbers["count"] == max(gains) and gain.step == gains.index(max(gains)) + 1


def test_floor_plan_names_the_best_scoring_round_from_the_public_scores() -> None:
    """Floor Plan: every round's summary shows the points written on each sheet's notes; the best round is the
    largest rise of one player's notes from one round's end to the next (rounds found by the state's round number,
    not by events; the end's bonuses belong to no round)."""
    steps = playout("floor_plan", 2, "moments-a")
    ends = [p for p in steps if p.after.round != p.before.round or p.after.phase == "over"]
    notes = [[sum(x for x in b.notes if x is not None) for b in p.after.boards] for p in ends]
    scores = [[0] * len(notes[0]), *notes]
    rises = [b[i] - a[i] for a, b in itertools.pairwise(scores) for i in range(len(a))]
    assert named(moments_of("floor_plan", steps, True), "best_round").numbers["count"] == max(rises)


def test_floor_plans_largest_room_is_named_only_when_the_games_secrets_may_be_told() -> None:
    """A sheet is its player's own: with ``reveal=no`` no moment tells what anyone drew."""
    steps = playout("floor_plan", 2, "moments-a")
    rooms = [len(r.cells()) for b in steps[-1].after.boards for r in b.sheet.rooms]
    assert named(moments_of("floor_plan", steps, True), "largest_room").numbers["count"] == max(rooms)
    assert all(m.kind != "largest_room" for m in moments_of("floor_plan", steps, False))


def test_floating_world_names_the_worst_nightmare_and_the_sealing() -> None:
    """Rulebook: in the Nightmare phase a demon that beats a Land destroys it, and Lands cut off from the Gate are
    destroyed; the Spell of Sealing (Mind roll ≥ 15 at the Gate) wins the game. The worst Nightmare is counted
    from the Lands on the map before and after each turn's end."""
    steps = playout("floating_world", 2, "m1")
    moments = moments_of("floating_world", steps, True)
    lost = [len(p.before.lands) - len(p.after.lands) if p.action == "end" else 0 for p in steps]
    assert named(moments, "worst_nightmare").numbers["count"] == max(lost)
    sealed = named(moments, "sealed")
    assert steps[-1].action == "seal" and sealed.step == len(steps) and sealed.numbers["total"] >= 15
    strike = named(moments, "best_strike")
    assert steps[strike.step - 1].action.startswith("attack ") and strike.numbers["total"] > strike.numbers["against"]


def test_floating_world_names_the_nightmare_that_destroyed_the_gate_or_the_last_kitsunes_death() -> None:
    """Rulebook: "Loss: the Gate is destroyed or every Kitsune is dead" — the moment that decided a lost game."""
    options = (("difficulty", "hard"),)
    gate = playout("floating_world", 1, "m0", options)
    assert gate[-1].after.reason == "fw.outcome.gate_destroyed"
    assert (0, 0) not in {land.at for land in gate[-1].after.lands}
    assert named(moments_of("floating_world", gate, True), "gate_destroyed").step == len(gate)
    dead = playout("floating_world", 1, "m3", options)
    assert dead[-1].after.reason == "fw.outcome.all_dead"
    assert named(moments_of("floating_world", dead, True), "last_death").seats == (0,)


def test_floating_floors_names_the_biggest_collapse_and_the_winning_claim() -> None:
    """Rulebook: "Unstable = a collapse: the board tips, everything on it falls"; "First to hold all their Bansen
    wins". The collapse is counted from the state's reset (the fallen Jutsu and ninjas the next player sets up)."""
    steps = playout("floating_floors", 2, "m1", (("shaky", "all"),))
    moments = moments_of("floating_floors", steps, True)
    collapse = named(moments, "biggest_collapse")
    p = steps[collapse.step - 1]
    reset = p.after.reset  # what the next player must set up again: the Jutsu and ninjas that fell
    assert reset is not None and collapse.numbers["count"] == len(reset.kinds) + len(reset.ninjas)
    assert collapse.numbers["count"] == max(len(q.after.reset.kinds) + len(q.after.reset.ninjas) for q in steps
                                            if q.after.reset is not None and q.before.reset is None)
    won = named(moments, "winning_claim")
    winner = steps[-1].after.winner
    assert won.step == len(steps) and won.seats == (winner,)
    assert won.numbers["count"] == len(steps[-1].after.seats[winner].bansen)


def test_a_summary_names_a_few_moments_not_a_list() -> None:
    for game, players, seed in (("floating_world", 2, "m1"), ("floor_plan", 2, "moments-a")):
        assert 1 <= len(moments_of(game, playout(game, players, seed), True)) <= MAX_MOMENTS


def test_a_moment_carries_only_seats_and_numbers_so_it_can_never_name_a_hidden_card() -> None:
    """DESIGN.md: "Hidden information lives in named places (`hands`, `secret`)" — a moment's text is built from
    seats and numbers only (no card, category or Bansen name), whatever the game."""
    tables = (("flying_blades", 3, "moments-a", ()), ("the_floor", 3, "m1", ()), ("floor_plan", 2, "moments-a", ()),
              ("floating_world", 2, "m1", ()), ("floating_floors", 2, "m1", (("shaky", "all"),)))
    for game, players, seed, options in tables:
        for moment in moments_of(game, playout(game, players, seed, options), False):
            assert all(isinstance(s, int) for s in moment.seats), moment
            assert all(isinstance(v, int | float) for v in moment.numbers.values()), moment
