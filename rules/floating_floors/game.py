"""``FloatingFloors``: the rules contract for Floating Floors (2–4 ninjas), with the balance model for hands.

Decisions where the rulebook leaves the digital game to us (each with its reason):

- **Set-up.** The map is 3 cards wide and 2 tall (2 players) or 3×3, terrain side up (Challenge 3: one random
  card per player lake side up). Ninjas are Sun (light) and Smoke (shadow) for 2 players, then Moon and Night, so
  two players always differ. In turn order each player places their Chakra in a free alcove on their side
  (south, west, north, east in turn order; 2 players face each other) — ``chakra=middle`` puts it in the middle
  of the side without asking, as does a timeout. The Bansen are then placed clockwise from the alcove left of
  the starting player's Chakra, alternating players (each player's Bansen in a random order), as the rulebook
  says. Each player starts with one Jutsu of each shape in their colour (light ninjas walk on white).
- **The top floorboard is public.** It lies face up on the deck (its back is the same pattern inverted), so the
  image shows it; the order below it is secret.
- **Space and pieces.** Every piece has a position inside its space; a ninja's base is a 0.25 square
  (`statics.NINJA_BASE`). Pieces in one space may not overlap (their footprints, `statics.overlaps`): a Jutsu
  placed, or a ninja stepping, onto a space *nudges* the one piece it would overlap there (the rulebook's nudge)
  to the offset the player names (``nudge se``) or the nearest free one, and its weight moves with it; a piece a
  ninja stands on is never nudged. A step lands at the centre (or on its Jutsu) as before: only another ninja
  there must be nudged; a Jutsu there only when the player names a nudge (`moves.make_room`).
- **Several actions at once** (``place … + place … + move …``): placements and at most one step, made in order
  and checked as one board after all of them; a claim is made by itself (`moves.together`).
- **Moving** onto a space of your colour puts the ninja at its centre; onto a space of the other colour it stands
  on a Jutsu of its colour there (the first by id not stood on), as the rulebook allows.
- **Every check** runs after each change that touches a board (a Jutsu placed on it or taken from on or under
  it, a board placed, each step — the board entered first, then the board left — a rotation). One collapse per
  action: the turn ends at once.
- **Collapse.** Everything on that card is gathered (board, every Jutsu on or under it, ninjas on it) and the
  next player resets the card before their turn. ``reset`` is the automatic legal arrangement (`arrange`): the
  board over the card in the side and rotation, and the fallen Jutsu on the land spaces, that give the largest
  margin with every fallen ninja on a space of its colour nearest the centre. If no arrangement stands, or no
  Jutsu fell (a board needs one beneath), the board goes to the bottom of the deck, the fallen ninjas to their
  Chakra, and the Jutsu stay on the card's land.
- **Ending a turn** keeps up to 3 unplaced Jutsu of your ninja's colour (``end keep …`` chooses; plain ``end``
  keeps the first three of your colour); the rest go back to the pool. A timeout ends the turn the same way and
  runs a pending reset automatically. Dice with no matching Jutsu anywhere are dropped (the rulebook: "nothing
  for that die").
- **Resigning** takes the ninja off the map (its unclaimed Bansen stay where they are); the last player left wins.
- **Tension** (issue 23). ``tension=bands`` (the default for new games) keeps the risk a player feels at the
  table: views, events and previews give each check only its band (safe / shaky / falls, `statics.band`), never
  the margin, the centre of mass or the fall chance (each gives the margin back), and every shaky check falls
  with the shaky-hands chance (`statics.collapse_chance` up to `statics.BAND_SHAKY_BELOW`), drawn from the
  state's seed. ``tension=exact`` is today's game: margins shown, pure statics (unless shaky hands). A game saved
  before the option existed loads as ``exact``, the game it was started as.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rules.base import Event, InvalidActionError, NotYourTurnError, Outcome
from rules.floating_floors import notation as nt
from rules.floating_floors import state as st
from rules.floating_floors.bot import choose
from rules.floating_floors.components import BANSEN_BY_ID, JUTSU_KINDS
from rules.floating_floors.layout import Space, name
from rules.floating_floors.legal import legal
from rules.floating_floors.options import DEFAULT_TENSION as DEFAULT_TENSION
from rules.floating_floors.options import OPTION_KEYS as OPTION_KEYS
from rules.floating_floors.options import normalize, options_of
from rules.floating_floors.play import look_ahead as look_ahead
from rules.floating_floors.play import play
from rules.floating_floors.play import preview as preview
from rules.floating_floors.play import preview_view as preview_view
from rules.floating_floors.play import previews as previews
from rules.floating_floors.play import resign as resign
from rules.floating_floors.state import Player, State
from rules.floating_floors.turns import new_state
from rules.floating_floors.turns import side_alcoves as side_alcoves
from rules.floating_floors.views import public_view
from rules.floating_floors.work import Work as Work
from rules.floating_floors.work import balance_of as balance_of
from rules.floating_floors.work import colour_at as colour_at
from rules.floating_floors.work import colour_of as colour_of
from rules.floating_floors.work import is_land as is_land
from rules.floating_floors.work import loads as loads
from rules.floating_floors.work import masked_view

# The `x as x` imports above are re-exports: the cog, the terminal, tests, tools and benches import them from
# the facade.
WON = "ff.outcome.bansen"


# --- the rules object ----------------------------------------------------------------------------------------


class FloatingFloors:
    """Floating Floors. See ``shared/games/floating_floors.md``, this module's docs and ``statics.py``."""

    id: ClassVar[str] = "floating_floors"
    name: ClassVar[str] = "Floating Floors"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    ENGINE_VERBS: ClassVar[frozenset[str]] = frozenset(nt.ENGINE_VERBS)
    TIMEOUT_POLICIES: ClassVar[tuple[str, ...]] = ("skip", "bot", "forfeit")
    new_game_options: ClassVar[dict[str, Any]] = {"tension": DEFAULT_TENSION}

    def normalize_options(self, players: int, options: dict[str, Any]) -> dict[str, Any]:
        return normalize(players, options)

    def new(self, players: int, options: dict[str, Any], seed: str) -> State:
        normalize(players, options)
        return new_state(players, options_of(players, options), seed)

    def to_move(self, s: State) -> frozenset[int]:
        return frozenset() if s.phase == "over" else frozenset({s.current})

    def outcome(self, s: State) -> Outcome | None:
        if s.phase != "over" or s.winner is None:
            return None
        rest = sorted((q for q in s.seats if q.seat != s.winner), key=lambda q: (q.out, -q.done, q.seat))
        ranking: list[tuple[int, ...]] = [(s.winner,)]
        for q in rest:
            if ranking[-1] != (s.winner,) and _rank_key(s.seats[ranking[-1][0]]) == _rank_key(q):
                ranking[-1] = (*ranking[-1], q.seat)
            else:
                ranking.append((q.seat,))
        return Outcome((s.winner,), tuple(ranking), tuple(float(q.done) for q in s.seats), s.reason or WON)

    def standings(self, s: State) -> list[float]:
        """Bansen recovered so far (an admin ending the game early adjudicates by them)."""
        return [float(q.done) for q in s.seats]

    def notation(self, s: State, action: str) -> str:
        return nt.text(nt.parse(action))

    def to_json(self, s: State) -> dict[str, Any]:
        return st.to_json(s)

    def from_json(self, d: dict[str, Any]) -> State:
        return st.from_json(d)

    def default_action(self, s: State, seat: int) -> str:
        """``timeout``: the turn ends as with ``end`` (a pending reset is made automatically)."""
        return "timeout"

    def bot_action(self, s: State, seat: int) -> str:
        if seat not in self.to_move(s):
            raise NotYourTurnError("ff.err.not_your_turn", player=s.current + 1)
        return choose(s, seat)

    def undo_blocker(self, before: State, after: State, events: list[Event]) -> str | None:
        """Refused after anything random or revealed (dice, shaky hands, a board drawn from the deck), a
        collapse, the end of a turn, a resignation, a timeout or the game's end."""
        kinds = {e.kind for e in events}
        if after.phase == "over":
            return "undo.reason.over"
        if "resign" in kinds:
            return "undo.reason.resign"
        if "timeout" in kinds:
            return "undo.reason.timeout"
        if after.counter != before.counter or "collapse" in kinds or after.current != before.current:
            return "undo.reason.rolled"
        if after.deck != before.deck:
            return "undo.reason.revealed"
        return None

    # --- legal actions -------------------------------------------------------------------------------------

    def legal_actions(self, s: State, seat: int) -> list[str]:
        """Every action the rules accept now (a board may still fall: a collapse is a legal outcome). Jutsu are
        listed at their space's centre only (the offsets multiply the list by nine); ``resign`` and ``timeout``
        are not listed. Nudges and several actions at once (``a + b``) are accepted when typed or built, never
        listed: their number is the product of the singles'."""
        if seat not in self.to_move(s):
            return []
        return legal(s, seat)

    # --- applying ------------------------------------------------------------------------------------------

    def apply(self, s: State, seat: int, action: str) -> tuple[State, list[Event]]:
        return play(s, seat, action)

    # --- the view ------------------------------------------------------------------------------------------

    def view(self, s: State, seat: int | None) -> dict[str, Any]:
        """The whole public position, JSON-ready (no seed, no deck order below the top board, no future roll).
        ``view["boards"][i]`` holds the numbers the image's physics overlay draws."""
        return masked_view(s.options, public_view(s, seat))



def _rank_key(q: Player) -> tuple[bool, int]:
    return (q.out, q.done)



def space_name(space: Space | None) -> str:
    return name(space) if space is not None else "—"


def bansen_number(bansen: str) -> int:
    return BANSEN_BY_ID[bansen].number


def check_kind(kind: str) -> None:
    if kind not in JUTSU_KINDS:
        raise InvalidActionError("ff.err.bad_kind", word=kind, usage=nt.USAGE["place"])

