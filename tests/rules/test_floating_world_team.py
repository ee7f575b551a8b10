"""Floating World bots play as a team (issue 23): one shared plan, a single guard, items for the sealer."""

from __future__ import annotations

from rules.floating_world import bot, plan
from rules.floating_world.dice import Stat
from rules.floating_world.game import FloatingWorld
from rules.floating_world.state import GATE, Kitsune, build

G = FloatingWorld()
RING = {(0, 1): None, (1, 0): None, (0, -1): None, (-1, 0): None}


def test_the_plan_assigns_exactly_one_guard_when_a_demon_threatens_the_gate() -> None:
    """6.1: a demon on a Land with a Kitsune attacks the Kitsune, else the Land; 3.4: "If demons destroy the Gate
    … all players lose". One fox holds the Gate; the others are free to hunt or build."""
    foxes = [Kitsune(0), Kitsune(1), Kitsune(2, pos=(1, 0))]
    for demons in ({"oni1": (0, 1)}, {"oni1": GATE}, {"oni1": (0, 1), "tengu1": (-1, 0)}):
        s = build(3, lands={GATE: 0, **RING}, kitsune=foxes, demons=demons)
        p = plan.make(s)
        assert [p.role(i) for i in range(3)].count("guard") == 1
        assert s.kitsune[p.guard].pos == GATE


def test_the_guard_duty_passes_on_when_the_guard_is_one_wound_from_death() -> None:
    """3.5: "A Kitsune dies by having as many Wounds as they have Body dice": the rota hands the Gate over."""
    foxes = [Kitsune(0, mind=Stat(3), wounds=1), Kitsune(1)]
    s = build(2, lands={GATE: 0, **RING}, kitsune=foxes, demons={"oni1": GATE})
    p = plan.make(s)
    assert p.sealer == 0 and p.guard == 1


def test_the_sealer_receives_mind_items() -> None:
    """5.9.1: "Items are carried with you and may be traded as a free action with any Kitsune on the same Land";
    3.2: the seal is a Mind roll of 15 or higher, so the partner hands its Mind Item to the sealer."""
    foxes = [Kitsune(0, mind=Stat(2, 2)), Kitsune(1, items=("scroll_of_riddles",))]
    s = build(2, lands={GATE: 0, **RING}, kitsune=foxes, current=1)
    assert plan.make(s).sealer == 0
    action = bot.choose(s, 1)
    assert action == "trade scroll_of_riddles to 1"
    s, _ = G.apply(s, 1, action)
    assert s.kitsune[0].items == ("scroll_of_riddles",) and s.kitsune[1].items == ()


def test_two_bots_never_both_idle_on_the_gate_when_a_demon_can_be_fought() -> None:
    """5.7: "Attack One Demon … If you roll higher, you've slain the demon"; 8.1: "Outwit the Oni". The guard
    keeps the Gate; its partner steps onto the Oni next door and fights it there."""
    for current in (0, 1):
        foxes = [Kitsune(0, mind=Stat(2, 1)), Kitsune(1)]
        s = build(2, lands={GATE: 0, **RING}, kitsune=foxes, demons={"oni1": (1, 0)}, current=current)
        p = plan.make(s)
        moves = _turn(s, current)
        if current == p.guard:
            assert not any(a.startswith("move") for a in moves)
        else:
            assert moves[:2] == ["move 1,0", "attack oni@1,0 mind"]


def test_the_plan_is_the_same_for_every_seat_and_after_a_reload() -> None:
    """The plan is a pure function of what every seat sees: no memory outside the saved state."""
    for step in range(40):
        s = G.new(3, {}, f"team-plan-{step % 4}")
        for _ in range(step * 3):
            if s.phase == "over":
                break
            s, _ = G.apply(s, s.current, G.bot_action(s, s.current))
        assert plan.make(G.from_json(G.to_json(s))) == plan.make(s)


def test_solo_play_has_no_team_plan() -> None:
    """A lone Kitsune guards and seals itself: the solo bot's plan (and its measured balance) is unchanged."""
    assert bot.team_plan(G.new(1, {}, "solo")) is None
    assert bot.team_plan(G.new(2, {}, "duo")) is not None


def _turn(s: object, seat: int) -> list[str]:
    """The bot's actions until it ends its Dream phase (a move and a fight come before any Nightmare)."""
    done = []
    for _ in range(12):
        action = bot.choose(s, seat)
        done.append(action)
        if action == "end":
            break
        s, _ = G.apply(s, seat, action)
    return done


def test_a_team_of_bots_answers_the_nightmares_decisions_with_legal_actions() -> None:
    """6.1 "Handle them in any order", 6.2, 6.4.3 "on any Land": with ``auto_nightmare=off`` the Nightmare waits
    for the current player's choice; a bot seat always answers with a listed legal action and the game ends."""
    s = G.new(2, {"auto_nightmare": "off"}, "team-decisions-1")
    decided = 0
    for _ in range(3_000):
        if s.phase == "over":
            break
        action = G.bot_action(s, s.current)
        if s.pending is not None:
            assert action in (G.legal_actions(s, s.current) or [])
            decided += 1
        s, _ = G.apply(s, s.current, action)
    assert s.phase == "over" and decided > 0
