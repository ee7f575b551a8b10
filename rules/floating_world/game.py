"""``FloatingWorld``: the rules contract for Floating World (co-operative, 1–4 Kitsune against demons).

Decisions where the rulebook is silent (each with its reason):

- **Demons are attacked on your own Land only** (5.7 "attack one demon"; 6.1 has demons fight only on their
  Land, so a fight across Lands would have no counterpart). ``attack oni@x,y`` names your Land.
- **Dream actions** are typed by 5.3's list: land, village, takeover, attack_demon, attack_kitsune, harvest,
  heal; each at most once a turn. The Spell of Sealing (3.2) is not on that list, so it may be tried again in
  the same turn while the Kitsune can pay 10 Praise (``REPEATABLE``). ``move`` is 5.2's step, allowed only
  before the first action. Trades are free and unlimited (5.9.1). A pending harvest (cards drawn, not resolved)
  must be resolved with ``buy`` or ``keep none`` before anything else; a timeout discards it.
- **Harvest, heal** need a Village on your Land, anyone's (5.9/5.10 say "in a Village"); the ``heal`` upgrade
  applies in your own Villages. **Take over** needs someone else's Village. **Villages**: 4 per player (the
  rulebook's parts list), never on or next to another Village (5.5); the Gate may hold one.
- **Attack a Kitsune** (5.8): both roll the same stat; Body: a Wound; Mind: steal the named Item (or the first
  in id order; none carried: nothing); Spirit: steal up to 3 Praise.
- **Rolls**: strictly higher wins every contest (5.7 "roll higher"); thresholds are "or higher" (take-over ≥12,
  seal ≥15). Failed contests you start are rerolled automatically once (a ``legend_reroll`` first, then a
  ``reroll`` item, which is discarded): see content.py. ``boost`` (option, 9.2) spends 1 Praise for +1D.
- **Turn order** (4.1): each seat in order takes a Dream phase, then a Nightmare phase runs (nightmare.py).
  ``end`` and the engine's ``timeout`` both end the phase: the world does not wait for an absent player.
  The Nightmare may pause for a decision (``pending``: ``resolve``, ``spawn x,y`` by the current player, ``flee
  x,y`` by the fleeing Kitsune's owner, 6.2; nightmare.py): while it waits only that player moves (`to_move`, so
  the clock and the bots follow), the others are refused ("it is player N's choice"). A ``timeout`` takes the
  automatic choice for that player's decisions in this Nightmare (absence is not a move; the others are still
  asked); ``auto_nightmare`` takes every automatic choice.
- **Death**: Wounds ≥ Body dice + ``extra_wounds`` (+ ``max_wounds`` legends); checked when a Wound lands, so a
  Kitsune whose Body grows later survives more. The dead leave the map (nightmare.kill).
- **Vengeful Spirit** (9.5, option): a dead player keeps a turn: ``haunt <type> [id>x,y …]`` moves any of that
  type's demons one step each (unnamed ones stay; each is a ``move`` step, with ``haunt``: seat, that opens this
  turn's ``nightmare`` at once and stays first in the phase's summary), then ``spawn <type> x,y`` on a valid
  spawn Land (or ``end`` / a timeout: no spawn) runs the Nightmare; the haunt's spawn does not attack this
  Nightmare (6.4.2). The spirits win when the world is destroyed (``spirits``): only those who died before the
  Nightmare that doomed it; the Kitsune it killed lose with everyone (3.4), so nobody wins when all die together.
  In solo the option changes nothing (the lone Kitsune's death ends the world at once, so it never haunts and
  never wins); it is not refused there because the lobby checks options before it knows the number of seats.
- **Resign**: the Kitsune leaves the map (its Items to the discards); on its own turn the Nightmare still runs.
  With nobody left on the map the world is lost.
- **Win** (3.2): everyone still in the game wins; with ``scoring`` the Outcome ranks by 9.5's points and the
  winners are the top group ("to declare a winner"). ``final_fox`` (9.4 "refund some or all") refunds the
  caster's 10 Praise before scoring. **Loss** (3.4): the Gate destroyed or no Kitsune left alive.
- **The Gate's people** (the rulebook is silent; it can stall): demons appear only on a Land with an empty
  border and no Kitsune (6.4.3) and Praise comes only from Villages (5.1), so Kitsune with no Village and under
  3 Praise on a map with no demon and no such Land (a lone fox on the Gate) froze the world: Demon Strength grew
  for ever (a playout reached +224D+2). Only in that stall (``stalled``) a living Kitsune starting its turn
  collects 1 Praise from the Gate's people (``gate_gift``; the ``turn`` event's ``collected`` includes it and
  ``gate`` says 1); within 3 turns someone can pay for a Land or a Village and the world moves again. The
  first version gave it to any Kitsune on the Gate with no Village and under 3 Praise, which fed the second
  fox guarding the Gate: 33–52% of turn starts with 2–4 players (tools/floating_world_gate_gift.py); now it
  fires only in the stall, so the rulebook's economy is untouched. Unlike a "the world fades" loss it cannot end
  a game the players could still win, and unlike a turn limit it needs no arbitrary number.
- **Difficulty** (9.1, presets chosen by measurement, tools/floating_world_sim.py): easy = the rulebook's dice
  (a spawn die per 4 Lands, Land defence 10) and one extra Wound ("let Kitsune survive more Wounds"); normal =
  the rulebook (4, 10, 0); hard = a spawn die per 5 Lands (fewer dice, so all-sixes raise Demon Strength more
  often: 8.2) and the demons start one step up the Demon Strength track (+1, ``demon_strength``). The rulebook's
  own levers do not make a solo game harder: one spawn die per 4 or 5 Lands is the same die while the map has
  at most 4 Lands (most solo games), and a higher or lower Land defence measured *easier* (a shredded Land takes
  its demons with it). "Vary the formula" (9.1) allows a head start on the track; +1 measured 31% against the
  rulebook's 49% (+2: 19%). Explicit ``spawn_divisor`` / ``land_defence`` / ``extra_wounds`` /
  ``demon_strength`` override a preset. **With 2–4 players** (the rulebook gives no per-player-count setup) the
  presets are the team's (``DIFFICULTY_BY_PLAYERS``, tools/fw_team_sim.py): normal = a spawn die per 3 Lands and
  Land defence 14 (both 9.1's) with two extra Wounds for 2 players (3 players: a die per 2 Lands, defence 13 and
  one extra Wound; docs/floating_world.md), easy = a die per 2 Lands,
  defence 14 and an extra Wound (two for 2 players), hard = a die per 3 Lands, defence 14 and the +1 head start.
  Stored options name every knob, so a game made before replays on its own setup.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar

from rules import rng
from rules.base import (
    Event,
    IllegalActionError,
    Msg,
    NotYourTurnError,
    Outcome,
    RulesError,
)
from rules.floating_world import nightmare as nm
from rules.floating_world import notation as nt
from rules.floating_world import score
from rules.floating_world import state as st
from rules.floating_world.bot import choose
from rules.floating_world.content import DREAM_IDS, LAND_BY_ID, LAND_IDS
from rules.floating_world.dice import Stat
from rules.floating_world.dream import (
    COST,
    DREAM_ACTIONS,
    QUICK_PRAISE,
    START_PRAISE,
    _check_boost,
    _haunt_moves,
    _on_partner,
    candidates,
    haunt_steps,
    replace_work,
    villages_of,
)
from rules.floating_world.notation import Action
from rules.floating_world.options import NEW_GAME_NIGHTMARE, normalize
from rules.floating_world.state import GATE, Kitsune, Land, State, Work

LAND_STREAM, DREAM_STREAM = 0, 1
# Not one of 5.3's action types: the Spell (3.2) may be tried again in a turn, for 10 Praise each time. It is
# still listed in a Kitsune's ``used`` (shown, and the bot's own once-a-turn habit).
REPEATABLE = frozenset({"seal"})


def compute_outcome(s: State) -> Outcome:
    players = range(s.players)
    staying = tuple(i for i in players if not s.kitsune[i].resigned)
    left = tuple(i for i in players if s.kitsune[i].resigned)
    if s.reason == st.WON:
        if s.options.scoring:
            pts = score.points(s)
            groups = [tuple(i for i in staying if pts[i] == v) for v in sorted({pts[i] for i in staying}, reverse=True)]
            ranking = tuple(g for g in [*groups, left] if g)
            return Outcome(ranking[0], ranking, tuple(pts), s.reason)
        ranking = tuple(g for g in (staying, left) if g)
        return Outcome(staying, ranking, tuple(1.0 if i in staying else 0.0 for i in players), s.reason)
    # Lost: with the Vengeful Spirit the spirits (dead, still in the game) win (9.5).
    winners = spirits(s, staying) if s.options.vengeful else ()
    rest = tuple(i for i in players if i not in winners)
    ranking = tuple(g for g in (winners, rest) if g)
    return Outcome(winners, ranking, tuple(1.0 if i in winners else 0.0 for i in players), s.reason)


def spirits(s: State, staying: tuple[int, ...]) -> tuple[int, ...]:
    """The Vengeful Spirits who win a lost world (9.5 "Defeated players win if the world is destroyed"): the
    Kitsune who died before the Nightmare that doomed it. Those it killed were never spirits: 3.4 "If demons
    destroy the Gate or kill all Kitsune, this world is doomed and all players lose". So when every Kitsune
    dies together nobody wins, and a lone Kitsune (solo) never wins by dying."""
    last = s.nightmare if s.nightmare and s.nightmare.get("turn") == s.turn else {"steps": []}
    doomed_with_it = {x.get("seat") for x in last["steps"] if x.get("kind") == "death"}
    return tuple(i for i in staying if not s.kitsune[i].alive and i not in doomed_with_it)


class FloatingWorld:
    """Floating World. See ``shared/games/floating_world.md``, the notation module and this module's docs."""

    id: ClassVar[str] = "floating_world"
    name: ClassVar[str] = "Floating World"
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 4
    ENGINE_VERBS: ClassVar[frozenset[str]] = frozenset(nt.ENGINE_VERBS)
    TIMEOUT_POLICIES: ClassVar[tuple[str, ...]] = ("skip", "bot", "forfeit")
    new_game_options: ClassVar[dict[str, Any]] = {"auto_nightmare": NEW_GAME_NIGHTMARE}

    # --- setup -------------------------------------------------------------------------------------------

    def normalize_options(self, players: int, options: dict[str, Any]) -> dict[str, Any]:
        return normalize(players, options)

    def new(self, players: int, options: dict[str, Any], seed: str) -> State:
        opts = st.options_of(normalize(players, options))
        praise = QUICK_PRAISE if opts.quick_start else START_PRAISE
        return State(
            players=players, seed=seed, options=opts, lands=(Land(0, 0, "gate"),), demons=(),
            kitsune=tuple(Kitsune(i, praise=praise) for i in range(players)),
            land_deck=tuple(rng.shuffled(seed, LAND_STREAM, LAND_IDS)), land_discard=(),
            dream_deck=tuple(rng.shuffled(seed, DREAM_STREAM, DREAM_IDS)), dream_discard=(), counter=2,
            strength=Stat.of_pips(opts.demon_strength),
        )

    # --- queries -----------------------------------------------------------------------------------------

    def to_move(self, s: State) -> frozenset[int]:
        return frozenset() if s.phase == "over" else frozenset({decider(s)})

    def outcome(self, s: State) -> Outcome | None:
        return compute_outcome(s) if s.phase == "over" else None

    def coop(self, s: State) -> tuple[bool, str] | None:
        """The table's result against the game, for ratings (engine/results.py): (sealed, difficulty) once over.
        Everyone who stayed shares it; the 9.5 scoring only ranks the table for bragging rights."""
        if s.phase != "over":
            return None
        return s.reason == st.WON, s.options.difficulty

    def event_score(self, s: State) -> float:
        """A finished game's score in a score event (everyone plays the same seeded world): a sealed world scores
        1000 less the turns it took (the faster seal ranks higher), a lost one the turns it lasted."""
        return float(1000 - s.turn if s.reason == st.WON else s.turn)

    def standings(self, s: State) -> list[float]:
        """Each seat's 9.5 points so far (an admin ending the game early adjudicates by them)."""
        return score.points(s)

    def legal_actions(self, s: State, seat: int) -> list[str] | None:
        """Sorted canonical actions; [] when the seat may not act; None in a haunt (too many demon moves).
        ``resign`` is always accepted and ``timeout`` is the engine's: neither is listed."""
        if seat not in self.to_move(s):
            return []
        if s.pending is not None:
            return list(s.pending["choices"])
        if s.phase == "haunt":
            return None
        out = []
        for text in candidates(s, seat):
            try:
                self.apply(s, seat, text)
            except RulesError:
                continue
            out.append(text)
        return sorted(set(out))

    def examples(self, s: State, seat: int) -> list[str]:
        """The legal actions worth suggesting (help's "now e.g.", the first moves listed): `legal_actions`
        without attacks on another Kitsune. The rulebook allows those (5.8) and they stay legal and listed,
        but in a co-operative game turning on a partner is never the example a player is shown."""
        return [a for a in self.legal_actions(s, seat) or [] if not _on_partner(nt.parse(a))]

    # --- applying actions --------------------------------------------------------------------------------

    def notation(self, s: State, action: str) -> str:
        act = nt.parse(action)
        if act.verb == "attack" and act.seat is None and act.at is None:
            pos = s.kitsune[s.current].pos
            act = replace(act, at=pos)
        return nt.text(act)

    def apply(self, s: State, seat: int, action: str) -> tuple[State, list[Event]]:
        if s.phase == "over":
            raise IllegalActionError("fw.err.game_over")
        if not isinstance(seat, int) or not 0 <= seat < s.players:
            raise NotYourTurnError("fw.err.bad_seat", seat=seat, players=s.players)
        act = nt.parse(action)
        if act.verb == "resign":
            s2, events = self._resign(s, seat)
        else:
            if s.kitsune[seat].resigned:
                raise NotYourTurnError("fw.err.resigned")
            if seat != decider(s):
                raise not_yours(s)
            if s.pending is not None:
                s2, events = self._decide(s, seat, act)
            elif nt.is_decision(act):
                raise IllegalActionError("fw.err.no_decision")
            elif act.verb in ("end", "timeout"):
                s2, events = self._end(s, seat, act.verb, haunt_steps(s))
            elif s.phase == "haunt":
                s2, events = self._haunt(s, seat, act)
            else:
                s2, events = self._dream(s, seat, act)
        return replace(s2, actions=s.actions + 1), events

    # --- the Dream phase ---------------------------------------------------------------------------------

    def _dream(self, s: State, seat: int, act: Action) -> tuple[State, list[Event]]:
        if act.verb in ("haunt", "spawn"):
            raise IllegalActionError("fw.err.not_haunting")
        if s.harvest is not None and act.verb not in ("buy", "keep"):
            raise IllegalActionError("fw.err.harvest_pending", cards=", ".join(s.harvest))
        if act.verb in ("buy", "keep") and s.harvest is None:
            raise IllegalActionError("fw.err.no_harvest")
        k = s.kitsune[seat]
        counted = act.verb not in ("move", "trade", "buy", "keep")
        if counted and act.kind in k.used and act.kind not in REPEATABLE:
            raise IllegalActionError("fw.err.used", action=Msg(f"fw.act.{act.kind}"))
        if act.boost:
            _check_boost(s, k)
        w = Work.of(s)
        changes: dict[str, Any] = {}
        events = DREAM_ACTIONS[act.verb](w, seat, act, changes)
        if counted:
            w.set_kit(seat, used=(*w.kit[seat].used, act.kind))
        s2 = w.freeze(**changes)
        if s2.reason == st.WON:
            events.append(Event("game_over", None, compute_outcome(s2).to_json()))
        return s2, events

    # --- the end of a turn -------------------------------------------------------------------------------

    def _end(self, s: State, seat: int, verb: str, pre: list[dict[str, Any]] | None = None,
             fresh: frozenset[str] = frozenset()) -> tuple[State, list[Event]]:
        if s.harvest is not None and verb == "end":
            raise IllegalActionError("fw.err.harvest_pending", cards=", ".join(s.harvest))
        w = Work.of(s)
        events = [Event(verb, seat, {})]
        if s.harvest is not None:
            w.dream_discard.extend(s.harvest)
        # The Nightmare's choices go to the players (unless ``auto_nightmare``); after a timeout the absent player's
        # own decisions are automatic, a partner's flee (6.2) is still theirs to choose.
        return self._nightmare(w, events, pre or [], fresh, (seat,) if verb == "timeout" else ())

    def _nightmare(self, w: Work, events: list[Event], pre: list[dict[str, Any]],
                   fresh: frozenset[str], absent: tuple[int, ...] = ()) -> tuple[State, list[Event]]:
        ask = not w.s.options.auto_nightmare
        return self._night_on(w, events, nm.begin(w, w.s.current, fresh, ask, absent), list(pre), None, 0)

    def _night_on(self, w: Work, events: list[Event], night: nm.Night, steps: list[dict[str, Any]],
                  choice: str | None, shown: int) -> tuple[State, list[Event]]:
        """Run the Nightmare on until it ends or pauses for a decision; the event carries the steps new since
        ``shown`` (the whole phase so far stays in ``nightmare``) and, when paused, the decision."""
        pending = nm.advance(w, night, steps, choice)
        s = w.s
        s2 = w.freeze(harvest=None, nightmare={"turn": s.turn, "steps": steps}, pending=pending)
        data: dict[str, Any] = {"turn": s.turn, "steps": steps[shown:]}
        if pending is not None:
            data["pending"] = pending_view(pending)
            events.append(Event("nightmare", s.current, data))
            return s2, events
        events.append(Event("nightmare", s.current, data))
        return self._after(s2, events)

    def _decide(self, s: State, seat: int, act: Action) -> tuple[State, list[Event]]:
        """The decider answers the paused Nightmare's decision; a timeout takes the automatic choice for this
        seat's decisions in the rest of the phase (absence is not a move), the others are still asked."""
        p = s.pending
        assert p is not None
        night = nm.Night.of(p)
        steps = [dict(x) for x in (s.nightmare or {}).get("steps", [])]
        if act.verb == "timeout":
            night.absent = sorted({*night.absent, seat})
            return self._night_on(Work.of(s), [Event("timeout", seat, {})], night, steps, None, len(steps))
        text = nt.text(act)
        if text not in p["choices"]:
            raise IllegalActionError(f"fw.err.decide_{p['decision']}", choices=", ".join(p["choices"]))
        events = [Event("decide", seat, {"decision": p["decision"], "choice": text})]
        return self._night_on(Work.of(s), events, night, steps, text, len(steps))

    def _after(self, s: State, events: list[Event]) -> tuple[State, list[Event]]:
        reason = loss_reason(s)
        if reason:
            s = replace(s, phase="over", reason=reason, pending=None)
            events.append(Event("game_over", None, compute_outcome(s).to_json()))
            return s, events
        return start_turn(s, next_seat(s), events)

    # --- the Vengeful Spirit -----------------------------------------------------------------------------

    def _haunt(self, s: State, seat: int, act: Action) -> tuple[State, list[Event]]:
        if act.verb == "haunt":
            return _haunt_moves(s, seat, act)
        if act.verb != "spawn":
            raise IllegalActionError("fw.err.haunt_only")
        w = Work.of(s)
        if act.target not in {i[:-1] for i in st.DEMON_IDS if i not in w.demons}:
            raise IllegalActionError("fw.err.no_token", type=Msg(f"fw.demon.{act.target}"))
        if act.at not in nm.valid_spawn_lands(w):
            raise IllegalActionError("fw.err.bad_spawn_land", at=nt.xy(act.at))
        did = nm.place(w, act.target, act.at)
        step = {"kind": "spawn", "demon": did, "type": act.target, "at": list(act.at), "haunt": seat}
        events = [Event("spawn", seat, dict(step))]
        return self._nightmare(replace_work(w, spawned=True), events, [*haunt_steps(s), step], frozenset({did}))

    def _resign(self, s: State, seat: int) -> tuple[State, list[Event]]:
        k = s.kitsune[seat]
        if k.resigned:
            raise NotYourTurnError("fw.err.resigned")
        w = Work.of(s)
        w.dream_discard.extend(k.items)
        w.set_kit(seat, resigned=True, pos=None, items=())
        events = [Event("resign", seat, {})]
        if seat == s.current and s.harvest is not None:
            w.dream_discard.extend(s.harvest)
        s2 = w.freeze(harvest=None if seat == s.current else s.harvest)
        if loss_reason(s2):
            return self._after(s2, events)
        if s.pending is not None and seat == decider(s):  # the paused Nightmare runs on without this seat
            night = nm.Night.of(s.pending)
            night.absent = sorted({*night.absent, seat})
            steps = [dict(x) for x in (s.nightmare or {}).get("steps", [])]
            return self._night_on(Work.of(s2), events, night, steps, None, len(steps))
        if s.pending is not None:  # a partner's flee (6.2) still waits; the Nightmare runs on after it
            return s2, events
        if seat == s.current:
            return self._nightmare(Work.of(s2), events, haunt_steps(s), frozenset())
        return s2, events

    # --- undo --------------------------------------------------------------------------------------------

    def undo_blocker(self, before: State, after: State, events: list[Event]) -> str | None:
        """Refused after anything random or revealed: a roll, a shuffle, a spawn (the counter moved), a card
        drawn (a Land or a harvest), the game's end, a resignation or a timeout. A move, a Village, a trade,
        a heal or a buy from cards already seen may be taken back."""
        kinds = {e.kind for e in events}
        if after.phase == "over":
            return "undo.reason.over"
        if "resign" in kinds:
            return "undo.reason.resign"
        if "timeout" in kinds:
            return "undo.reason.timeout"
        if after.counter != before.counter:
            return "undo.reason.rolled"
        if after.land_deck != before.land_deck or after.dream_deck != before.dream_deck:
            return "undo.reason.revealed"
        return None

    # --- views and serialisation -------------------------------------------------------------------------

    def view(self, s: State, seat: int | None) -> dict[str, Any]:
        """The public picture (no seed, no deck order, no future draw), JSON-ready::

            {"game": "floating_world", "players": n, "viewer": seat|null, "phase": "dream"|"haunt"|"over",
             "current": seat, "turn": n, "options": {...normalized options...},
             "lands": [{"x", "y", "id": card id, "name": {"en", "pl"}, "gate": bool, "village": seat|null,
                        "demons": [{"type", "id"}], "kitsune": [seats]}],
             "kitsune": [{"seat", "land": [x, y]|null, "body": {"dice", "pips", "text"}, "mind": {...},
                          "spirit": {...}, "wounds", "max_wounds", "praise", "items": [card ids],
                          "legends": [ids], "upgrades": [ids], "alive", "resigned", "moved",
                          "used": [action types this turn]}],
             "demon_strength": {"dice", "pips", "text": "+0"|"+1"|"+2"|"+1D"|"+1D+1"…},
             "supply": {"oni": n, "tengu": n, "gaki": n},
             "nightmare": {"turn", "steps": [{"kind": "attack_kitsune"|"attack_land"|"move"|"destroyed"|
                           "cut_off"|"kitsune_moved"|"spawn_dice"|"strength"|"spawn"|"no_spawn"|"returned"|
                           "death", ...}]}|null,
             "last_roll": {...}|null, "harvest": {"seat", "cards": [ids]}|null,
             "decks": {"lands": n, "dreams": n}, "outcome": Outcome.to_json()|null}

        Steps (coordinates are [x, y]; a roll is {"dice": [..], "plus": n, "total": n}):
        attack_kitsune {demon, type, at, seat, stat, rolls: {demon, target}, wound};
        attack_land {demon, type, at, stat, defence, rolls: {demon}, destroyed};
        destroyed / cut_off {at, land, gate, village, returned: [demon ids]}; move {demon, type, from, to} (+ haunt:
        seat for a vengeful spirit's move, listed first);
        returned {demon, type, from}; kitsune_moved {seat, from, to, wound}; spawn_dice {count, dice};
        strength {from, to} (texts like "+2", "+1D"); spawn {demon, type, at, type_die | haunt};
        no_spawn {type, type_die, reason: no_land|no_token}; death {seat, at}.
        last_roll: {seat, action, stat, contest, rolls: {"kitsune": roll, "target": roll|null}, need: n|null,
        success, rerolled: "legend"|card id|null, first: roll|null (the failed roll before a reroll)}.
        """
        viewer = seat if isinstance(seat, int) and 0 <= seat < s.players else None
        outcome = self.outcome(s)
        supply = {t: st.TOKENS - sum(1 for d in s.demons if d.type == t) for t in nt.DEMON_TYPES}
        return {
            "game": self.id, "players": s.players, "viewer": viewer, "phase": s.phase, "current": s.current,
            "turn": s.turn, "options": s.options.to_dict(), "lands": [_land_view(s, land) for land in s.lands],
            "kitsune": [_kitsune_view(s, k) for k in s.kitsune], "demon_strength": s.strength.modifier_json(),
            "supply": supply, "nightmare": s.nightmare, "last_roll": s.last_roll,
            "harvest": None if s.harvest is None else {"seat": s.current, "cards": list(s.harvest)},
            "decks": {"lands": len(s.land_deck) + len(s.land_discard),
                      "dreams": len(s.dream_deck) + len(s.dream_discard)},
            "outcome": None if outcome is None else outcome.to_json(),
            "pending": None if s.pending is None else pending_view(s.pending),
        }

    def to_json(self, s: State) -> dict[str, Any]:
        return st.to_json(s)

    def from_json(self, d: dict[str, Any]) -> State:
        return st.from_json(d)

    # --- automation --------------------------------------------------------------------------------------

    def bot_action(self, s: State, seat: int) -> str:
        if seat not in self.to_move(s):
            raise not_yours(s)
        return choose(s, seat, self.legal_actions)

    def default_action(self, s: State, seat: int) -> str:
        """``timeout``: the turn ends as with ``end`` (a pending harvest is discarded), never a chosen move."""
        return "timeout"


# --- turn bookkeeping ------------------------------------------------------------------------------------

def loss_reason(s: State) -> str:
    if GATE not in s.land_map():
        return st.GATE_DESTROYED
    if not any(k.on_map for k in s.kitsune):
        return st.ALL_DEAD if any(not k.alive for k in s.kitsune) else st.ALL_LEFT
    return ""


def _plays(s: State, k: Kitsune) -> bool:
    return k.on_map or (s.options.vengeful and not k.alive and not k.resigned)


def next_seat(s: State) -> int:
    for i in range(1, s.players + 1):
        seat = (s.current + i) % s.players
        if _plays(s, s.kitsune[seat]):
            return seat
    return s.current


def stalled(s: State) -> bool:
    """The world cannot change by the rulebook's own means: no demon on the map, no Land a demon may appear on
    (6.4.3: an empty border and no Kitsune), no living Kitsune owns a Village (5.1, the only income) and none
    has the ``COST`` Praise for a Land or a Village (5.4, 5.5)."""
    if s.demons:
        return False
    playing = [k for k in s.kitsune if k.on_map]
    if any(k.praise >= COST for k in playing):
        return False
    owners = {land.village for land in s.lands}
    if any(k.seat in owners for k in playing):
        return False
    cells = s.land_map()
    occupied = {k.pos for k in playing}
    return not any(nm.is_edge(cells, c) and c not in occupied for c in cells)


def gate_gift(s: State, k: Kitsune) -> int:
    """The Gate's people (our rule against the stall the rulebook leaves open): 1 Praise to a living Kitsune
    that starts its turn while the world is ``stalled``, so within three turns it can pay for a Land or a
    Village and the world moves again. Only then: the rulebook's economy is otherwise untouched."""
    return 1 if k.on_map and stalled(s) else 0


def start_turn(s: State, seat: int, events: list[Event]) -> tuple[State, list[Event]]:
    """The seat's turn begins: a living Kitsune collects Praise (5.1) and perhaps the Gate's gift
    (``gate_gift``), a dead vengeful one haunts."""
    k = s.kitsune[seat]
    turn = s.turn + 1
    if not k.alive:
        events.append(Event("turn", seat, {"turn": turn, "haunt": True}))
        return replace(s, current=seat, turn=turn, phase="haunt", spawned=False, haunted=False), events
    villages = villages_of(s, seat)
    per = 1 + sum(d.get("amount") for d in k.effects("village_praise"))
    gift = gate_gift(s, k)
    gained = villages * per + gift
    kit = list(s.kitsune)
    kit[seat] = replace(k, praise=k.praise + gained, moved=False, used=(), legend_reroll_used=False)
    events.append(Event("turn", seat, {"turn": turn, "collected": gained, "villages": villages, "gate": gift}))
    return replace(s, kitsune=tuple(kit), current=seat, turn=turn, phase="dream"), events


def decider(s: State) -> int:
    """Who moves now: the player a paused Nightmare's decision belongs to (`nightmare.decider_of`), else the
    current player."""
    return s.current if s.pending is None else nm.decider_of(s.pending)


def not_yours(s: State) -> NotYourTurnError:
    """The refusal for a seat that is not `decider`: whose turn, or whose choice (a partner's flee, 6.2)."""
    who = decider(s)
    if who != s.current:
        return NotYourTurnError("fw.err.not_your_choice", player=who + 1)
    return NotYourTurnError("fw.err.not_your_turn", player=who + 1)


def pending_view(p: dict[str, Any]) -> dict[str, Any]:
    """The paused Nightmare's decision as players see it: who decides, what, and the legal choices (the spawn
    dice still to read are public: they were rolled in the open)."""
    out = {"decision": p["decision"], "seat": nm.decider_of(p), "choices": list(p["choices"])}
    if p["decision"] == "flee":
        out.update(fleeing=p["fleeing"], at=p["from"])
    if p["decision"] == "spawn":
        out["type"] = p["spawn"]["type"]
    return out


def _land_view(s: State, land: Land) -> dict[str, Any]:
    return {"x": land.x, "y": land.y, "id": land.card, "name": LAND_BY_ID[land.card].name,
            "gate": land.at == GATE, "village": land.village,
            "demons": [{"type": d.type, "id": d.id} for d in s.demons_at(land.at)], "kitsune": s.kitsune_at(land.at)}


def _kitsune_view(s: State, k: Kitsune) -> dict[str, Any]:
    return {"seat": k.seat, "land": None if k.pos is None else list(k.pos), "body": k.body.to_json(),
            "mind": k.mind.to_json(), "spirit": k.spirit.to_json(), "wounds": k.wounds,
            "max_wounds": st.max_wounds(s, k), "praise": k.praise, "items": list(k.items),
            "legends": list(k.legends), "upgrades": list(k.upgrades), "alive": k.alive, "resigned": k.resigned,
            "moved": k.moved, "used": list(k.used)}
