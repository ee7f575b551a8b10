"""``FlyingBlades``: the rules contract for Night of the 27 Ninja (House and Temple of the Flying Blades)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar

from rules import rng
from rules.base import Event, IllegalActionError, Msg, NotYourTurnError, OptionsError, Outcome
from rules.flying_blades import draft, moves
from rules.flying_blades import notation as nt
from rules.flying_blades import state as st
from rules.flying_blades.board import (
    CHAR_INDEX,
    CHARS,
    COLOURS,
    EMPTY,
    NINJAS,
    WARD,
    colour_msg,
    geometry,
    relations,
)
from rules.flying_blades.bot import choose, choose_keep
from rules.flying_blades.notation import Action
from rules.flying_blades.score import scores
from rules.flying_blades.state import ALL_PASSED, LAST_STANDING, MAX_TURN_MINUTES, Last, State

BOARD_STREAM = 0


def _normalize(players: Any, options: Any) -> dict[str, Any]:
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 5:
        raise OptionsError("fb.options.players", count=players, min=2, max=5)
    options = dict(options or {})
    for key in sorted(set(options) - {"cards", "turn_minutes"}):
        raise OptionsError("fb.options.unknown", option=key, known="cards, turn_minutes")
    cards = options.get("cards", "hidden")
    if cards not in st.CARD_OPTIONS:
        raise OptionsError("fb.options.cards", value=repr(cards), allowed=", ".join(st.CARD_OPTIONS))
    minutes = options.get("turn_minutes", 0)
    if not isinstance(minutes, int) or isinstance(minutes, bool) or not 0 <= minutes <= MAX_TURN_MINUTES:
        raise OptionsError("fb.options.turn_minutes", value=repr(minutes), max=MAX_TURN_MINUTES)
    return {"cards": cards, "turn_minutes": minutes}


def setup_board(players: int, seed: str) -> str:
    """27 ninjas of each colour in play, shuffled onto the playable cells; warded cells are '#'."""
    geo, rel = geometry(players), relations(players)
    pieces = rng.shuffled(seed, BOARD_STREAM, [CHARS[c] for c in range(rel.colours) for _ in range(NINJAS)])
    board = [WARD if i in geo.warded else EMPTY for i in range(geo.size)]
    for cell, piece in zip(geo.playable(), pieces, strict=True):
        board[cell] = piece
    return "".join(board)


def next_seat(s: State, seat: int) -> int:
    """The next seat in turn order that has not resigned (the seat itself if it is the only one)."""
    for k in range(1, s.players + 1):
        nxt = (seat + k) % s.players
        if not s.resigned[nxt]:
            return nxt
    return seat


def _all_passed(s: State) -> bool:
    return all(s.passed[i] or s.resigned[i] for i in range(s.players))


def compute_outcome(s: State) -> Outcome:
    sc = scores(s)
    active = s.active()
    groups: list[tuple[int, ...]] = []
    for value in sorted({sc[i] for i in active}, reverse=True):
        groups.append(tuple(i for i in active if sc[i] == value))
    resigned = tuple(i for i in range(s.players) if s.resigned[i])
    if resigned:
        groups.append(resigned)
    return Outcome(winners=groups[0], ranking=tuple(groups), scores=sc, reason=s.reason)


class FlyingBlades:
    """Night of the 27 Ninja. See ``shared/games/flying_blades.md`` and the module docs for the notation."""

    id: ClassVar[str] = "flying_blades"
    name: ClassVar[str] = "Night of the 27 Ninja"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    ENGINE_VERBS: ClassVar[frozenset[str]] = frozenset(nt.ENGINE_VERBS)

    # --- setup -------------------------------------------------------------------------------------------

    def normalize_options(self, players: int, options: dict[str, Any]) -> dict[str, Any]:
        return _normalize(players, options)

    def new(self, players: int, options: dict[str, Any], seed: str) -> State:
        opts = _normalize(players, options)
        with_cards = opts["cards"] != "none"
        n, no = players, (False,) * players
        return State(
            players=n, seed=seed, cards=opts["cards"], turn_minutes=opts["turn_minutes"],
            board=setup_board(n, seed), phase="draft" if with_cards else "play", current=0,
            hands=draft.deal(n, seed) if with_cards else ((),) * n, drafted=(not with_cards,) * n,
            captured=(0,) * n, lost=(0,) * relations(n).colours, passed=no, resigned=no, turn=0,
        )

    # --- queries -----------------------------------------------------------------------------------------

    def to_move(self, s: State) -> frozenset[int]:
        if s.phase == "draft":
            return frozenset(i for i in range(s.players) if not s.drafted[i] and not s.resigned[i])
        if s.phase == "play":
            return frozenset({s.current})
        return frozenset()

    def legal_actions(self, s: State, seat: int) -> list[str] | None:
        """Sorted canonical actions of the seat; [] when it may not act. ``resign`` is always accepted
        while the game runs but is not listed; ``timeout`` is the engine's alone (`ENGINE_VERBS`), never listed.
        In the draft every affordable keep is listed (a few hundred at most)."""
        if seat not in self.to_move(s):
            return []
        if s.phase == "draft":
            return sorted(draft.keep_text(k) for k in draft.keeps(s.hands[seat]))
        ctx = moves.Ctx.of(s, seat)
        geo = ctx.geo
        return sorted([nt.text(a, geo) for a in moves.generate(ctx, s.hands[seat])] + ["pass"])

    def outcome(self, s: State) -> Outcome | None:
        return compute_outcome(s) if s.phase == "over" else None

    def standings(self, s: State) -> list[float]:
        """Who is ahead so far, for a game an admin or the abandoned-games sweep ends early: the same count the
        rulebook scores at the end (prey eliminated with 2 players, ninjas left on the board with 3–5)."""
        return list(scores(s))

    # --- applying actions --------------------------------------------------------------------------------

    def notation(self, s: State, action: str) -> str:
        """The canonical spelling of ``action`` (lowercase, single spaces, sorted keep): what the log stores."""
        geo = geometry(s.players)
        return nt.text(nt.parse(action, geo), geo)

    def apply(self, s: State, seat: int, action: str) -> tuple[State, list[Event]]:
        if s.phase == "over":
            raise IllegalActionError("fb.game_over")
        if not isinstance(seat, int) or not 0 <= seat < s.players:
            raise NotYourTurnError("fb.bad_seat", seat=seat, players=s.players)
        act = nt.parse(action, geometry(s.players))
        if act.verb == "resign":
            return self._resign(s, seat)
        if s.resigned[seat]:
            raise NotYourTurnError("fb.you_resigned")
        if act.verb == "timeout":
            return self._timeout(s, seat)
        if s.phase == "draft":
            return self._keep(s, seat, act)
        if act.verb == "keep":
            raise IllegalActionError("fb.keep_not_draft")
        if seat != s.current:
            raise NotYourTurnError("fb.not_your_turn", colour=colour_msg(s.current), yours=colour_msg(seat))
        if act.verb == "pass":
            return self._pass(s, seat)
        return self._play(s, seat, act)

    def _keep(self, s: State, seat: int, act: Action) -> tuple[State, list[Event]]:
        if s.drafted[seat]:
            raise NotYourTurnError("fb.wait_draft")
        if act.verb != "keep":
            raise IllegalActionError("fb.draft_first", usage=nt.USAGE["keep"])
        draft.check_keep(s.hands[seat], act.cards)
        events = [Event("drafted", seat, {"count": len(act.cards)})]
        return self._maybe_start(self._kept(s, seat, act.cards, "keep"), events)

    def _kept(self, s: State, seat: int, cards: tuple[str, ...], action: str) -> State:
        """The seat's hand is now ``cards`` (the keep itself stays private: ``last`` names only the verb)."""
        hands = _set(s.hands, seat, tuple(sorted(cards)))
        return replace(s, hands=hands, drafted=_set(s.drafted, seat, True), turn=s.turn + 1,
                       last=Last(seat, action))

    def _timeout(self, s: State, seat: int) -> tuple[State, list[Event]]:
        """The seat's turn deadline passed. Absence is not a move: in play the turn ends with nothing done and,
        unlike a pass, the ``passed`` flags stay as they are (a timeout neither counts as a pass nor breaks the
        others' succession), so "every player passed in succession" only ever follows chosen passes. The draft
        cannot go on without a keep: the seat keeps what the bot would (deterministic, so the log replays)."""
        if s.phase == "draft":
            if s.drafted[seat]:
                raise NotYourTurnError("fb.wait_draft")
            kept = choose_keep(s.hands[seat], s.players)
            # Like a keep's "drafted" event: how many cards, never which.
            return self._maybe_start(self._kept(s, seat, kept, "timeout"),
                                     [Event("timeout", seat, {"kept": len(kept)})])
        if seat != s.current:
            raise NotYourTurnError("fb.not_your_turn", colour=colour_msg(s.current), yours=colour_msg(seat))
        s2 = replace(s, turn=s.turn + 1, last=Last(seat, "timeout"))
        return self._advance(s2, [Event("timeout", seat, {})])

    def _maybe_start(self, s: State, events: list[Event]) -> tuple[State, list[Event]]:
        if s.phase != "draft" or self.to_move(s):
            return s, events
        first = 0 if not s.resigned[0] else next_seat(s, 0)
        s = replace(s, phase="play", current=first)
        events.append(Event("draft_done", None, {"first": first}))
        return s, events

    def _pass(self, s: State, seat: int) -> tuple[State, list[Event]]:
        s2 = replace(s, passed=_set(s.passed, seat, True), turn=s.turn + 1, last=Last(seat, "pass"))
        events = [Event("pass", seat, {})]
        return self._advance(s2, events)

    def _advance(self, s: State, events: list[Event]) -> tuple[State, list[Event]]:
        if _all_passed(s):
            return self._finish(s, ALL_PASSED, events)
        nxt = next_seat(s, s.current) if s.phase == "play" else s.current
        events.append(Event("turn", nxt, {}))
        return replace(s, current=nxt), events

    def _finish(self, s: State, reason: str, events: list[Event]) -> tuple[State, list[Event]]:
        s = replace(s, phase="over", reason=reason)
        events.append(Event("game_over", None, compute_outcome(s).to_json()))
        return s, events

    def _resign(self, s: State, seat: int) -> tuple[State, list[Event]]:
        if s.resigned[seat]:
            raise NotYourTurnError("fb.you_resigned")
        s2 = replace(s, resigned=_set(s.resigned, seat, True), turn=s.turn + 1, last=Last(seat, "resign"))
        events = [Event("resign", seat, {})]
        if len(s2.active()) == 1:
            return self._finish(s2, LAST_STANDING, events)
        if s2.phase == "draft":
            return self._maybe_start(s2, events)
        if _all_passed(s2):
            return self._finish(s2, ALL_PASSED, events)
        if s2.current == seat:
            return self._advance(s2, events)
        return s2, events

    def _play(self, s: State, seat: int, act: Action) -> tuple[State, list[Event]]:
        hand = s.hands[seat]
        card = act.verb if act.verb != "attack" else None
        if card is not None and card not in hand:
            raise IllegalActionError("fb.no_card", card=Msg(f"fb.card.{card}"))
        ctx = moves.Ctx.of(s, seat)
        effect = moves.check(ctx, act)
        board = list(s.board)
        for cell, ch in effect.changes(s.board).items():
            board[cell] = ch
        lost, captured = list(s.lost), list(s.captured)
        for cell in effect.removed:
            colour = CHAR_INDEX[s.board[cell]]
            lost[colour] += 1
            if s.board[cell] in ctx.prey:
                captured[seat] += 1
        if card is not None:
            hand_list = list(hand)
            hand_list.remove(card)
            hand = tuple(hand_list)
        geo = ctx.geo
        text = nt.text(act, geo)
        last = Last(seat, text, effect.frm, effect.to, tuple(sorted(effect.removed)))
        s2 = replace(s, board="".join(board), hands=_set(s.hands, seat, hand), lost=tuple(lost),
                     captured=tuple(captured), passed=(False,) * s.players, turn=s.turn + 1, last=last)
        data = {"action": text, "from": _name(geo, effect.frm), "to": _name(geo, effect.to),
                "removed": [geo.cell(c) for c in last.removed], "card": card}
        return self._advance(s2, [Event("card" if card else "attack", seat, data)])

    # --- undo --------------------------------------------------------------------------------------------

    def undo_blocker(self, s: State, after: State, events: list[Event]) -> str | None:
        """Hands are dealt once and never drawn from, so nothing random is left after the deal. A card played
        was hidden in its owner's hand: shown, it cannot be unseen. The keep that closes the draft starts play
        (the round is over); a resignation is final and a timeout was not the player's choice."""
        kinds = {e.kind for e in events}
        if after.phase == "over":
            return "undo.reason.over"
        for kind, reason in (("resign", "resign"), ("timeout", "timeout"), ("card", "revealed"),
                             ("draft_done", "closed")):
            if kind in kinds:
                return f"undo.reason.{reason}"
        return None

    # --- views and serialisation -------------------------------------------------------------------------

    def view(self, s: State, seat: int | None) -> dict[str, Any]:
        geo, rel = geometry(s.players), relations(s.players)
        viewer = seat if isinstance(seat, int) and 0 <= seat < s.players else None
        outcome = self.outcome(s)
        return {
            "game": self.id, "board_name": geo.name, "width": geo.width, "height": geo.height,
            "board": st.board_rows(s), "players": s.players, "colours": list(COLOURS[: s.players]),
            "neutral": None if rel.neutral is None else COLOURS[rel.neutral], "phase": s.phase,
            "to_move": sorted(self.to_move(s)), "turn": s.turn, "viewer": viewer,
            "prey": [rel.prey_seats(i) for i in range(s.players)],
            "hunters": [rel.hunter_seats(i) for i in range(s.players)],
            "ninjas": {COLOURS[c]: s.board.count(CHARS[c]) for c in range(rel.colours)},
            "captured": list(s.captured), "hand_counts": [len(h) for h in s.hands],
            "hand": None if viewer is None else list(s.hands[viewer]),
            "hands": [list(h) for h in s.hands] if s.cards == "open" else None,
            "drafted": list(s.drafted), "resigned": list(s.resigned),
            "passes": sum(1 for i in s.active() if s.passed[i]),
            "last_action": _last_json(s, geo), "options": s.options,
            "outcome": None if outcome is None else outcome.to_json(),
        }

    def to_json(self, s: State) -> dict[str, Any]:
        return st.to_json(s)

    def from_json(self, d: dict[str, Any]) -> State:
        return st.from_json(d)

    def to_position(self, s: State) -> str:
        return nt.to_position(s)

    def from_position(self, text: str) -> State:
        return nt.from_position(text)

    # --- automation --------------------------------------------------------------------------------------

    def bot_action(self, s: State, seat: int) -> str:
        if seat not in self.to_move(s):
            raise NotYourTurnError("fb.not_your_turn", colour=colour_msg(s.current), yours=colour_msg(seat))
        return choose(s, seat)

    def default_action(self, s: State, seat: int) -> str:
        """The action the engine logs when the seat's turn deadline passes: ``timeout`` in every phase (never a
        move the player chose; see `_timeout`)."""
        return "timeout"


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1:])


def _name(geo: Any, cell: int | None) -> str | None:
    return None if cell is None else geo.cell(cell)


def _last_json(s: State, geo: Any) -> dict[str, Any] | None:
    if s.last is None:
        return None
    last = s.last
    return {"seat": last.seat, "action": last.action, "from": _name(geo, last.frm), "to": _name(geo, last.to),
            "removed": [geo.cell(c) for c in last.removed]}
