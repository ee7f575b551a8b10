"""The team's sealer must be a fox that can pay for the Spell (seed ``team-easy-3-144``, which never ended)."""

from __future__ import annotations

from dataclasses import replace

from rules.floating_world import plan
from rules.floating_world.dice import Stat
from rules.floating_world.game import FloatingWorld
from rules.floating_world.state import WON, Kitsune, Options, build

G = FloatingWorld()
MIND_ITEMS = ("abacus_of_stars", "lucky_coin", "maneki_neko", "mirror_of_truth", "scroll_of_riddles")


def _stalled_table(rich_praise: int = 108) -> object:
    """Turn 400 of ``team-easy-3-144``: only the Gate is left (seat 1's Village on it), Demon Strength 18D;
    seat 1 holds the Praise with Mind 2D+1 (15 is out of reach), seat 2 the Mind (4D+2 and five Items) with 1
    Praise and no Village; seat 0 died holding the seal Legend (Keeper of the Gate: it never comes back)."""
    foxes = [Kitsune(0, pos=None, alive=False, legends=("keeper_of_the_gate",), upgrades=("tea_ceremony",)),
             Kitsune(1, body=Stat(3, 2), mind=Stat(2, 1), spirit=Stat(2), praise=rich_praise,
                     legends=("nine_tails", "thousand_lives", "trickster")),
             Kitsune(2, body=Stat(2), mind=Stat(4, 2), spirit=Stat(2, 1), praise=1, items=MIND_ITEMS)]
    return build(3, lands={(0, 0): 1}, kitsune=foxes, strength=Stat(18), current=1, turn=400,
                 options=Options(difficulty="easy", spawn_divisor=2, land_defence=14, extra_wounds=1))


def test_the_sealer_is_a_fox_that_can_pay_for_the_spell() -> None:
    """3.2: "To attempt it, you need to stand at the Gate, spend 10 Praise, and roll a 15 or higher on your Mind
    stat"; 5.9.1 Items "may be traded as a free action with any Kitsune on the same Land" (Praise may not).
    The best Mind with 1 Praise and no Village can never pay: the fox holding the Praise seals, with the Items."""
    assert plan.make(_stalled_table()).sealer == 1


def test_the_stalled_table_of_team_easy_3_144_ends_in_a_seal() -> None:
    """The bots used to end turns for ever here (the Mind fox could not pay, the rich fox could not roll 15):
    now the Mind Items go to the rich fox on the Gate and it casts the Spell within a few rounds."""
    s = _stalled_table()
    for _ in range(600):
        if s.phase == "over":
            break
        seat = next(iter(G.to_move(s)))
        s, _ = G.apply(s, seat, G.bot_action(s, seat))
    assert s.phase == "over" and s.reason == WON and s.turn < 430


def test_a_sealer_with_income_keeps_the_role() -> None:
    """The best Mind keeps the role while it can still earn the 10 Praise (a Village of its own, 5.1)."""
    s = _stalled_table()
    s = replace(s, lands=tuple(replace(land, village=2) for land in s.lands))
    assert plan.make(s).sealer == 2


def test_a_broke_sealer_keeps_the_role_while_no_partner_holds_the_spells_praise() -> None:
    """Passing the role over changes ordinary play (4 players lost 9 points when every fox under 10 Praise with no
    Village was passed over): it moves only to a partner who can pay 3.2's 10 Praise now."""
    assert plan.make(_stalled_table(rich_praise=9)).sealer == 2
