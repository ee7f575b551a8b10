"""The Floating World bot: always legal, and it plays to win (the seal) even when fights are over."""

from __future__ import annotations

from dataclasses import replace

from rules.floating_world import bot
from rules.floating_world.dice import Stat
from rules.floating_world.game import FloatingWorld
from rules.floating_world.state import GATE, Kitsune, build

G = FloatingWorld()


def strong_body_weak_mind(praise: int, **more: object) -> Kitsune:
    return Kitsune(0, praise=praise, body=Stat(30), mind=Stat(2, 1), spirit=Stat(2), **more)


def test_long_night_builds_no_land_when_only_the_seal_can_win() -> None:
    # Demon Strength +4D: the fox still wins fights in Body but 2D+1 Mind can never reach 15 (3.2)
    s = build(1, lands={GATE: 0, (1, 0): None}, kitsune=[strong_body_weak_mind(6)], strength=Stat(4))
    assert bot.long_night(s, s.kitsune[0])
    assert not any(a.startswith("land") for a in _turn(s))


def test_long_night_harvests_for_mind_and_buys_it() -> None:
    s = build(1, lands={GATE: 0}, kitsune=[strong_body_weak_mind(6)], strength=Stat(4))
    assert bot.choose(s, 0) == "harvest"
    s, _ = G.apply(s, 0, "harvest")
    s = replace(s, harvest=("scroll_of_riddles", "lucky_coin", "abacus_of_stars"))
    # 2D+1 Mind: +1 pip (2D+2, at most 14) and a reroll of a roll that cannot reach 15 are worth nothing;
    # +2 pips make 3D, which reaches 15 one time in 11
    assert bot.choose(s, 0) == "buy abacus_of_stars"
    assert bot.seal_gain(s.kitsune[0], "scroll_of_riddles") == 0 == bot.seal_gain(s.kitsune[0], "lucky_coin")


def test_long_night_seals_as_soon_as_the_roll_can_reach_15() -> None:
    fox = Kitsune(0, praise=10, body=Stat(30), mind=Stat(3), spirit=Stat(2))
    s = build(1, lands={GATE: 0, (1, 0): None}, kitsune=[fox], strength=Stat(4))
    assert 0 < bot.seal_odds(fox) < bot.SEAL_ENOUGH
    assert bot.choose(s, 0) == "seal"


def test_ordinary_night_still_builds_lands() -> None:
    s = build(1, lands={GATE: 0}, kitsune=[Kitsune(0, praise=6)])
    assert not bot.long_night(s, s.kitsune[0])
    assert bot.choose(s, 0).startswith("land")


def _turn(s: object) -> list[str]:
    """The bot's actions until it ends its Dream phase (no randomness before the end)."""
    done = []
    for _ in range(12):
        action = bot.choose(s, 0)
        done.append(action)
        if action == "end":
            break
        s, _ = G.apply(s, 0, action)
    return done
