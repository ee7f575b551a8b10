"""``TheFloor``: the rules contract for The Floor (see the package docstring for the notation)."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any, ClassVar

from rules import rng
from rules.base import Event, IllegalActionError, InvalidActionError, NotYourTurnError, OptionsError, Outcome
from rules.the_floor import board as bd
from rules.the_floor import content as content_module
from rules.the_floor.answers import check as check_answer
from rules.the_floor.answers import normalize
from rules.the_floor.bot import choose, default
from rules.the_floor.duel import DuelRules, _set
from rules.the_floor.names import category_id, choosable
from rules.the_floor.notation import USAGE, parse
from rules.the_floor.options import (
    DEAL,
    DECK_STREAM,
    DOUBT_OPTION,
    FINAL_SETUP_CARDS,
    FIRST_FREE_STREAM,
    GUEST_SEAT,
    LETTERS_OPTION,
    MAX_GUEST_VOTES,
    MAX_USER_ID,
    REFEREE_OPTION,
    ROUNDS,
    SIDE_STREAM,
    SPECTATORS_OPTION,
    _int,
    _normalize,
)
from rules.the_floor.position import from_position, to_position
from rules.the_floor.state import Pending, State
from rules.the_floor.state import to_json as _to_json
from rules.the_floor.stored import from_json as _from_json
from rules.the_floor.view import view
from rules.the_floor.words import canonical_text, duel_action


def merge_content(base: dict[str, dict[str, Any]], custom: dict[str, Any], lang: str) -> dict[str, dict[str, Any]]:
    """The built-in categories plus a server's: its categories added, its answers appended to their categories
    (an answer that normalizes like one already listed is skipped)."""
    out = dict(base)
    for cat in custom.get("categories", []):
        out[cat["id"]] = cat
    for cid, extra in custom.get("answers", {}).items():
        cat = out.get(cid)
        if cat is None:
            continue
        flags = cat.get("flags", ())
        seen = {normalize(a, lang, flags) for a in cat["answers"]}
        seen |= {normalize(v, lang, flags) for vs in cat.get("variants", {}).values() for v in vs}
        added = []
        for answer in extra:
            key = normalize(answer, lang, flags)
            if key and key not in seen:
                seen.add(key)
                added.append(answer)
        if added:
            out[cid] = {**cat, "answers": [*cat["answers"], *added]}
    return out


class TheFloor(DuelRules):
    """The Floor. ``content`` provides ``categories(lang)`` (list of {"id","name","flags","answers"}) and
    ``checker`` is ``check(text, category, letter, given, lang) -> Verdict``; both default to the package's
    ``content`` and ``answers`` modules (imported on first use) and are static data, so replay is exact."""

    id: ClassVar[str] = "the_floor"
    name: ClassVar[str] = "The Floor"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 10
    shared_fields: ClassVar[tuple[str, ...]] = ("content", "custom")  # the server's content: stored once per game
    ENGINE_VERBS: ClassVar[frozenset[str]] = frozenset({"timeout"})  # the clocks' alone (duels keep their own)
    # A new game's fair host redraws a letter the category cannot answer; absent, every letter is dealt as the
    # rulebook's deck has it, as games made before the option were (they replay exactly).
    new_game_options: ClassVar[dict[str, Any]] = {LETTERS_OPTION: "answerable"}

    def __init__(self, content: Any = None, checker: Any = None) -> None:
        self._content = content
        self._checker = checker
        self._cats: dict[str, dict[str, dict[str, Any]]] = {}
        self._catalogs: dict[tuple[str, str], dict[str, dict[str, Any]]] = {}
        self._forms: dict[tuple[int, str], tuple[dict[str, Any], frozenset[str]]] = {}  # `_lists_exactly`

    # --- content -----------------------------------------------------------------------------------------

    def categories(self, lang: str) -> dict[str, dict[str, Any]]:
        if lang not in self._cats:
            content = self._content
            if content is None:
                content = content_module
            self._cats[lang] = {c["id"]: c for c in content.categories(lang)}
        return self._cats[lang]

    def check(self, text: str, category: dict[str, Any], letter: str, given: list[str], lang: str) -> Any:
        checker = self._checker or check_answer
        return checker(text, category, letter, given, lang)

    def catalog(self, s: State) -> dict[str, dict[str, Any]]:
        """The game's categories: the language's own plus the server's (``s.custom``), with the server's accepted
        answers merged into their categories. Cached per (language, server content): the dicts stay the same
        objects, so the answer checker's per-category index is built once."""
        return self._catalog(s.lang, s.custom)

    def _catalog(self, lang: str, custom: str) -> dict[str, dict[str, Any]]:
        if not custom:
            return self.categories(lang)
        key = (lang, custom)
        hit = self._catalogs.get(key)
        if hit is None:
            hit = merge_content(self.categories(lang), json.loads(custom), lang)
            if len(self._catalogs) >= 64:
                self._catalogs.pop(next(iter(self._catalogs)))
            self._catalogs[key] = hit
        return hit

    def category_name(self, s: State, cat: str) -> str:
        c = self.catalog(s).get(cat)
        return c["name"] if c else cat

    # --- setup -------------------------------------------------------------------------------------------

    def normalize_options(self, players: int, options: dict[str, Any]) -> dict[str, Any]:
        return _normalize(players, options)

    def new(self, players: int, options: dict[str, Any], seed: str) -> State:
        o = _normalize(players, options)
        k = o["sides"]
        order = rng.shuffled(seed, SIDE_STREAM, list(range(k)))
        custom = json.dumps(o["content"], sort_keys=True, ensure_ascii=False) if o.get("content") else ""
        cats = self._catalog(o["lang"], custom)
        ids = sorted(c for c, v in cats.items() if not o["kids"] or "kids" in v.get("flags", ()))
        deck = tuple(rng.shuffled(seed, DECK_STREAM, ids))
        need = DEAL[k] * k + FINAL_SETUP_CARDS[k] + 3 * ROUNDS + 4  # the deal, the Final, round draws, refills
        if len(deck) < need:
            raise OptionsError("tf.options.too_few_categories", count=len(deck), need=need)
        deal = DEAL[k]
        hands = tuple(deck[i * deal:(i + 1) * deal] for i in range(k))
        return State(
            players=players, sides=k, seed=seed, lang=o["lang"], clock_s=o["clock"], judging_mode=o["judging"],
            seat_side=tuple(i % k for i in range(players)), board=bd.layout(k, order), cards=(),
            deck=deck[deal * k:], discard=(), draws=FIRST_FREE_STREAM, phase="draft", hands=hands,
            picked=((),) * k, chosen=("",) * k, final_cards=(), round=1, current=0, challenged=(False,) * k,
            last_turn=(-1,) * k, turn_no=0, duel=None, pending=(), final_cats=("",) * k, ladder=(), ladder_pos=0,
            holder=-1, final_out=(), eliminated=(), resigned=(False,) * k, round_winners=(), champion=-1, turn=0,
            kids=o["kids"], custom=custom, fair_letters=o.get(LETTERS_OPTION) == "answerable",
            referee=o.get(REFEREE_OPTION, 0), doubt_cap=o.get(DOUBT_OPTION, 0),
            # spectators vote until the deadline: with no vote deadline nothing would close a vote nobody casts
            spectators=bool(o.get(SPECTATORS_OPTION)) and o["vote_seconds"] > 0,
        )

    # --- queries -----------------------------------------------------------------------------------------

    def _acting_sides(self, s: State) -> list[int]:
        if s.phase == "over":
            return []
        if s.phase == "draft":
            return [x for x in range(s.sides) if not s.chosen[x] and not s.resigned[x]]
        if s.pending:
            return [s.pending[0].side]
        d = s.duel
        if d is not None:
            if not d.started:
                return [x for i, x in enumerate((d.challenger, d.defender)) if not d.ready[i]]
            if d.judging:
                return self._judge_sides(s)
            return [(d.challenger, d.defender)[d.active]]
        return [s.current]

    def _judge_sides(self, s: State) -> list[int]:
        seats = self.judge_seats(s)
        return sorted({s.seat_side[i] for i in seats})

    def judge_seats(self, s: State) -> list[int]:
        """Who may still vote on the answer under judgment. Never a seat of a duellist side (the rulebook: the
        players not in the duel decide): in host mode the host (seat 0) when the host's side is not in the duel;
        otherwise, and in vote and trust modes, every seat of a side not in the duel (not resigned) that has not
        voted yet. Empty once all have voted or when nobody neutral is left (the vote then closes)."""
        d = s.duel
        assert d is not None
        voted = {seat for seat, _ in d.votes}
        return [i for i in self._judges(s) if i not in voted]

    def disputable(self, s: State) -> bool:
        """Whether the running side may dispute the answer just given: it was accepted unjudged (trusted) and
        someone outside the duel can judge it (a dispute never goes to a duellist)."""
        d = s.duel
        if d is None or not d.started or d.judging or s.pending or s.phase == "over":
            return False
        return bool(d.log) and d.log[-1][0] != d.active and d.log[-1][2] == "trusted" and self._can_judge(s)

    def _can_judge(self, s: State) -> bool:
        """Whether anyone outside the duel may judge its answers: a neutral seat, the referee, or (option
        `spectators_judge`) the thread's spectators when no seat can."""
        return bool(self._judges(s)) or bool(s.referee) or s.spectators

    def guests_judge(self, s: State) -> bool:
        """Whether members without a seat may vote on the answer under judgment now: the referee always, the
        spectators when no seat outside the duel can judge. Their vote closes only at its deadline or by the
        referee's vote (nobody knows how many spectators there are); seated judges still close it early."""
        d = s.duel
        if d is None or not d.judging or s.pending or s.phase == "over":
            return False
        return bool(s.referee) or (s.spectators and not self._judges(s))

    def guest_may_vote(self, s: State, user: int) -> bool:
        """Whether the member ``user`` (not seated: the engine only sends members without a seat) may vote now."""
        if not self.guests_judge(s):
            return False
        return user == s.referee or (s.spectators and not self._judges(s))

    def _judges(self, s: State) -> list[int]:
        """Every seat entitled to judge this duel's answers (voted or not); see `judge_seats`."""
        d = s.duel
        assert d is not None
        duel = (d.challenger, d.defender)
        neutral = [i for i in range(s.players) if s.seat_side[i] not in duel and not s.resigned[s.seat_side[i]]]
        if s.judging_mode == "host" and 0 in neutral:
            return [0]
        return neutral  # includes host mode with the host duelling: the neutral players stand in

    def _duellist(self, s: State, seat: int) -> bool:
        d = s.duel
        return d is not None and s.seat_side[seat] in (d.challenger, d.defender)

    def _vote_closers(self, s: State) -> list[int]:
        """A judgment no seat may give: a state saved under the old rules (the opponent or a duelling host was the
        judge), or a vote open to members without a seat only. The opponent's seats may then only close it
        (``timeout``, the vote deadline's action): they hold the deadline, never a vote."""
        d = s.duel
        assert d is not None
        return s.seats_of((d.challenger, d.defender)[1 - d.active])

    def to_move(self, s: State) -> frozenset[int]:
        if s.duel is not None and s.duel.judging and not s.pending and s.phase != "over":
            return frozenset(self.judge_seats(s) or self._vote_closers(s))
        sides = self._acting_sides(s)
        return frozenset(i for i in range(s.players) if s.seat_side[i] in sides)

    def legal_actions(self, s: State, seat: int) -> list[str] | None:
        """Sorted canonical actions; None during a running duel (answers are free text with elapsed times)
        and for a take (any subset of the right size). ``resign`` is accepted but not listed."""
        if seat not in self.to_move(s):
            return []
        side = s.seat_side[seat]
        if s.phase == "draft":
            return sorted(f"pick {c}" for c in s.hands[side])
        if s.pending:
            p = s.pending[0]
            if p.kind == "take":
                return None
            return sorted(f"{'pick' if p.kind == 'final_pick' else 'keep'} {c}" for c in p.options)
        d = s.duel
        if d is not None:
            if not d.started:
                return ["ready"]
            if d.judging:
                return ["timeout"] if self._duellist(s, seat) else ["judge accept", "judge reject"]
            return None
        return sorted(f"challenge {bd.name(a)} {bd.name(b)}" for a, b in self.challenges(s, side))

    def challenges(self, s: State, side: int) -> list[tuple[int, int]]:
        return [(a, b) for a in range(25) if s.board[a] == side for b in bd.neighbours(a)
                if s.board[b] not in (bd.EMPTY, side)]

    def outcome(self, s: State) -> Outcome | None:
        if s.phase != "over":
            return None
        order = [s.champion, *(x for x in reversed(s.final_out) if x != s.champion and not s.resigned[x])]
        rest = [x for x in range(s.sides) if x not in order and not s.resigned[x]]
        rest.sort(key=lambda x: -s.eliminated.index(x) if x in s.eliminated else 0)
        groups = [tuple(s.seats_of(x)) for x in order + rest]
        resigned = tuple(i for x in range(s.sides) if s.resigned[x] for i in s.seats_of(x))
        if resigned:
            groups.append(resigned)
        scores = tuple(float(s.board.count(s.seat_side[i])) for i in range(s.players))
        return Outcome(winners=groups[0], ranking=tuple(g for g in groups if g), scores=scores,
                       reason="tf.outcome.final" if s.final_out else "tf.outcome.last_standing")

    def teams(self, s: State) -> list[tuple[int, ...]]:
        """The seats of each side (engine/results.py rates side against side): a side wins or loses together."""
        return [tuple(s.seats_of(x)) for x in range(s.sides)]

    def standings(self, s: State) -> list[float]:
        """Who is ahead so far, for a game ended early: the squares each seat's side holds (the territory the
        rulebook's winner ends up owning whole)."""
        return [float(s.board.count(s.seat_side[i])) for i in range(s.players)]

    def notation(self, s: State, action: str) -> str:
        verb, args = parse(action)
        if verb in ("pick", "keep"):  # "pick Rivers", "keep star wars characters": the category's id
            args = [category_id(self.catalog(s), choosable(s), args[0])]
        return " ".join([verb, *args])

    def typed_action(self, s: State, text: str, elapsed_ms: int) -> str:
        """Free text typed by a running duellist as an action: ``pass``, ``dispute`` (in any language: ``pas``)
        or an answer, with the elapsed time the caller measured. Anything else is a turn, its verb in the English
        notation (``wyzwij B2 B3`` → ``challenge B2 B3``), as Discord reads typed turns (`words`)."""
        d = s.duel
        if d is None or not d.started or d.judging:
            return canonical_text(text)
        return duel_action(text, elapsed_ms)

    # --- applying actions --------------------------------------------------------------------------------

    def apply(self, s: State, seat: int, action: str) -> tuple[State, list[Event]]:
        if s.phase == "over":
            raise IllegalActionError("tf.game_over")
        if seat == GUEST_SEAT and isinstance(seat, int) and not isinstance(seat, bool):
            s2, events = self._autoplay(*self._guest_vote(s, *parse(action)))
            return replace(s2, turn=s2.turn + 1), events
        if not isinstance(seat, int) or not 0 <= seat < s.players:
            raise NotYourTurnError("tf.bad_seat", seat=seat, players=s.players)
        verb, args = parse(action)
        side = s.seat_side[seat]
        if verb == "judge" and len(args) > 1:  # a named vote is the table's (a member without a seat), never a seat's
            raise NotYourTurnError("tf.judge_named")
        if verb == "resign":
            s2, events = self._resign(s, side)
        else:
            if verb == "judge":
                self._may_judge(s, seat)
            if seat not in self.to_move(s):
                raise NotYourTurnError("tf.not_your_turn")
            s2, events = self._dispatch(s, seat, verb, args)
        s2, events = self._autoplay(s2, events)
        return replace(s2, turn=s2.turn + 1), events

    def guest_action(self, s: State, user: int, action: str) -> str | None:
        """The engine's hook for a member without a seat: a vote (``judge accept``) becomes the table's action
        naming them (``judge accept user:<id>``), which `apply` takes from `GUEST_SEAT` only; None for anything
        else (the member is not seated). Whether they may vote is the rules' to say when it is applied."""
        try:
            verb, args = parse(action)
        except InvalidActionError:
            return None
        if verb != "judge" or len(args) != 1 or not _int(user) or not 0 < user <= MAX_USER_ID:
            return None
        return f"judge {args[0]} user:{user}"

    def _guest_vote(self, s: State, verb: str, args: list[str]) -> tuple[State, list[Event]]:
        """A vote by a member without a seat: the referee's decides at once; a spectator's counts with the others
        cast by the deadline. One vote per member and answer."""
        if s.phase == "over":
            raise IllegalActionError("tf.game_over")
        if verb != "judge" or len(args) != 2:
            raise NotYourTurnError("tf.not_a_judge")
        user, accept = int(args[1].removeprefix("user:")), args[0] == "accept"
        d = s.duel
        if d is None or not d.judging or s.pending:
            raise IllegalActionError("tf.no_vote")
        if not self.guest_may_vote(s, user):
            raise NotYourTurnError("tf.not_a_judge")
        if any(voter == user for voter, _ in d.guests):
            raise NotYourTurnError("tf.already_voted")
        if user == s.referee:
            s, events = self._judge(s, accept)
            return s, [Event("vote", None, {"referee": True}), *events]
        if len(d.guests) >= MAX_GUEST_VOTES:
            raise IllegalActionError("tf.votes_full")
        s = replace(s, duel=replace(d, guests=(*d.guests, (user, accept))))
        return s, [Event("vote", None, {"spectator": True})]

    def _autoplay(self, s: State, events: list[Event]) -> tuple[State, list[Event]]:
        """Resigned sides act by default: they pick the first card, lose their duels at once, accept as
        judges and skip their turns."""
        for _ in range(1000):
            if s.phase in ("over", "draft"):
                return s, events
            d = s.duel
            if d is not None and d.judging and not self.judge_seats(s) and not self.guests_judge(s):
                s, more = self._close_vote(s)  # the last judge left by resigning: the votes cast decide
                events += more
                continue
            sides = self._acting_sides(s)
            if not sides or not all(s.resigned[x] for x in sides):
                return s, events
            if s.duel is None and not s.pending:
                s, events = self._end_turn(s, events)
                continue
            seat = min(i for i in self.to_move(s) if s.seat_side[i] == sides[0])
            verb, args = parse(self.default_action(s, seat))
            s, events = self._dispatch(s, seat, verb, args)
        raise AssertionError("autoplay did not settle")

    def _dispatch(self, s: State, seat: int, verb: str, args: list[str]) -> tuple[State, list[Event]]:
        side = s.seat_side[seat]
        if s.phase == "draft":
            if verb != "pick":
                raise IllegalActionError("tf.draft_first")
            return self._draft_pick(s, side, args[0])
        if s.pending:
            return self._choice(s, side, verb, args)
        d = s.duel
        if d is not None:
            if not d.started:
                if verb == "timeout":  # the Ready deadline passed: the side that did not show up loses
                    return self._forfeit(s, side)
                if verb != "ready":
                    raise IllegalActionError("tf.ready_first")
                return self._ready(s, side)
            if d.judging:
                if verb == "timeout":  # the vote closes: the votes cast decide
                    return self._close_vote(s)
                if verb != "judge":
                    raise IllegalActionError("tf.judging")
                return self._vote(s, seat, args[0] == "accept")
            if verb == "answer":
                return self._answer(s, int(args[0]), args[1])
            if verb == "pass":
                return self._pass(s, int(args[0]))
            if verb == "dispute":
                return self._dispute(s, int(args[0]))
            if verb == "timeout":
                return self._lose_on_time(s, replace(d, clocks=_set(d.clocks, d.active, 0)), [])
            raise IllegalActionError("tf.in_duel")
        if verb != "challenge":
            raise IllegalActionError("tf.challenge_first", usage=USAGE["challenge"])
        return self._challenge(s, side, bd.parse_cell(args[0]), bd.parse_cell(args[1]))

    # draft ------------------------------------------------------------------------------------------------

    def _draft_pick(self, s: State, side: int, cat: str) -> tuple[State, list[Event]]:
        if cat not in s.hands[side]:
            raise IllegalActionError("tf.not_in_hand", category=self.category_name(s, cat))
        s = replace(s, chosen=_set(s.chosen, side, cat))
        return self._draft_step(s, [Event("picked", side, {})])

    def _draft_step(self, s: State, events: list[Event]) -> tuple[State, list[Event]]:
        while True:
            s = replace(s, chosen=tuple(s.hands[x][0] if s.resigned[x] and not s.chosen[x] else s.chosen[x]
                                        for x in range(s.sides)))
            if not all(s.chosen):
                return s, events
            k = s.sides
            left = [tuple(c for c in s.hands[x] if c != s.chosen[x]) for x in range(k)]
            picked = tuple((*s.picked[x], s.chosen[x]) for x in range(k))
            hands = tuple(left[(x - 1) % k] for x in range(k))  # each side passes to the left (the next side)
            s = replace(s, hands=hands, picked=picked, chosen=("",) * k)
            if all(len(h) <= 1 for h in hands):
                s = replace(s, discard=s.discard + tuple(c for h in hands for c in h), hands=((),) * k)
                return self._place(s, events)

    def _place(self, s: State, events: list[Event]) -> tuple[State, list[Event]]:
        """Each side's picked categories go onto its cells in order; Final cards for 4 and 5 sides."""
        cards = []
        for x in range(s.sides):
            cells = [c for c in range(25) if s.board[c] == x]
            cards += list(zip(cells, s.picked[x], strict=True))
        n = FINAL_SETUP_CARDS[s.sides]
        s = replace(s, cards=tuple(sorted(cards)), phase="play", final_cards=s.deck[:n], deck=s.deck[n:],
                    picked=((),) * s.sides)
        events.append(Event("draft_done", None, {"first": s.current}))
        return s, events

    # turns ------------------------------------------------------------------------------------------------

    def _draw(self, s: State, n: int) -> tuple[State, tuple[str, ...]]:
        if len(s.deck) < n:
            s = replace(s, deck=s.deck + tuple(rng.shuffled(s.seed, s.draws, sorted(s.discard))), discard=(),
                        draws=s.draws + 1)
        return replace(s, deck=s.deck[n:]), s.deck[:n]

    def _choice(self, s: State, side: int, verb: str, args: list[str]) -> tuple[State, list[Event]]:
        p = s.pending[0]
        rest = s.pending[1:]
        if p.kind == "take":
            if verb != "take":
                raise IllegalActionError("tf.take_first", count=p.count)
            cells = tuple(bd.parse_cell(c) for c in args[0].split(","))
            if len(cells) != p.count or any(c not in p.cells for c in cells):
                raise IllegalActionError("tf.take_cells", count=p.count,
                                         cells=", ".join(bd.name(c) for c in p.cells))
            return self._take(replace(s, pending=rest), side, cells, [])
        want = "pick" if p.kind == "final_pick" else "keep"
        if verb != want or args[0] not in p.options:
            raise IllegalActionError("tf.choose_one", verb=want,
                                     options=", ".join(self.category_name(s, c) for c in p.options))
        cat = args[0]
        others = tuple(c for c in p.options if c != cat)
        events = [Event(p.kind, side, {"category": cat})]
        if p.kind == "keep":
            cards = [(c, x) for c, x in s.cards if not (c in p.cells and x in others)]
            if not any(c in p.cells for c, _ in cards):
                cards.append((p.cells[0], cat))
            s = replace(s, cards=tuple(sorted(cards)), discard=s.discard + others, pending=rest)
            return self._after_choice(s, events)
        if p.kind == "final":
            s = replace(s, final_cards=(*s.final_cards, cat), discard=s.discard + others, pending=rest)
            return self._next_round(s, events)
        s = replace(s, final_cats=_set(s.final_cats, side, cat), final_cards=others, pending=rest)
        return self._final_picks(s, events)

    def _after_choice(self, s: State, events: list[Event]) -> tuple[State, list[Event]]:
        if s.pending:
            return s, events
        return self._end_turn(s, events)

    def _end_turn(self, s: State, events: list[Event]) -> tuple[State, list[Event]]:
        cur = s.current
        s = replace(s, challenged=_set(s.challenged, cur, True), last_turn=_set(s.last_turn, cur, s.turn_no),
                    turn_no=s.turn_no + 1)
        alive = s.alive()
        if len(alive) == 1:
            return self._finish(replace(s, champion=alive[0]), events)
        for k in range(1, s.sides + 1):
            nxt = (cur + k) % s.sides
            if nxt in alive and not s.challenged[nxt]:
                events.append(Event("turn", nxt, {}))
                return replace(s, current=nxt), events
        winner = self.ranking(s)[0]
        s, drawn = self._draw(s, 3)
        events.append(Event("round_over", winner, {"round": s.round}))
        s = replace(s, round_winners=(*s.round_winners, winner),
                    pending=(Pending("final", winner, options=tuple(sorted(drawn))),))
        return s, events

    def ranking(self, s: State) -> list[int]:
        """Living sides best first: the biggest field, then more fields, then the turn longest ago."""
        fs = bd.fields(s.board)

        def key(x: int) -> tuple[int, int, int]:
            mine = [len(f) for f in fs if s.board[f[0]] == x]
            return (-max(mine), -len(mine), s.last_turn[x])

        return sorted(s.alive(), key=key)

    def _next_round(self, s: State, events: list[Event]) -> tuple[State, list[Event]]:
        if s.round < ROUNDS:
            alive = s.alive()
            first = min(alive)
            events.append(Event("round_start", first, {"round": s.round + 1}))
            return replace(s, round=s.round + 1, challenged=(False,) * s.sides, current=first), events
        rank = self.ranking(s)
        s = replace(s, phase="final", ladder=tuple(reversed(rank)))
        events.append(Event("final", None, {"ranking": rank}))
        return self._final_picks(s, events)

    def _final_picks(self, s: State, events: list[Event]) -> tuple[State, list[Event]]:
        top_down = list(reversed(s.ladder))
        for x in top_down[:-1]:
            if not s.final_cats[x]:
                return replace(s, pending=(Pending("final_pick", x, options=tuple(sorted(s.final_cards))),)), events
        s = replace(s, discard=s.discard + s.final_cards, final_cards=(), holder=s.ladder[0], ladder_pos=1)
        return self._ladder_duel(s, events)

    def _ladder_duel(self, s: State, events: list[Event]) -> tuple[State, list[Event]]:
        defender = s.ladder[s.ladder_pos]
        s, duel = self._new_duel(s, s.holder, defender, None, None, s.final_cats[defender])
        events.append(Event("final_duel", s.holder, {"defender": defender, "category": duel.category}))
        return replace(s, duel=duel), events

    def _final_duel_over(self, s: State, winner: int, loser: int, events: list[Event]) -> tuple[State, list[Event]]:
        s = replace(s, duel=None, holder=winner, final_out=(*s.final_out, loser), ladder_pos=s.ladder_pos + 1)
        while s.ladder_pos < len(s.ladder) and s.resigned[s.ladder[s.ladder_pos]]:
            s = replace(s, ladder_pos=s.ladder_pos + 1)
        if s.ladder_pos >= len(s.ladder):
            return self._finish(replace(s, champion=winner), events)
        return self._ladder_duel(s, events)

    def _finish(self, s: State, events: list[Event]) -> tuple[State, list[Event]]:
        s = replace(s, phase="over", duel=None, pending=())
        out = self.outcome(s)
        assert out is not None
        events.append(Event("game_over", None, out.to_json()))
        return s, events

    def _resign(self, s: State, side: int) -> tuple[State, list[Event]]:
        """A seat resigns for its whole side: the side is ranked last, never acts again (it loses its duels
        at once and skips its turns) and its cells stay on the floor; the last side standing wins."""
        if s.resigned[side]:
            raise NotYourTurnError("tf.you_resigned")
        s = replace(s, resigned=_set(s.resigned, side, True))
        events = [Event("resign", side, {})]
        alive = [x for x in range(s.sides) if not s.resigned[x]]
        if len(alive) == 1:
            return self._finish(replace(s, champion=alive[0]), events)
        if s.phase == "draft":
            return self._draft_step(s, events)
        return s, events

    # --- views and serialisation ---------------------------------------------------------------------------

    def view(self, s: State, seat: int | None) -> dict[str, Any]:
        return view(self, s, seat)

    def to_json(self, s: State) -> dict[str, Any]:
        return _to_json(s)

    def to_position(self, s: State) -> str:
        return to_position(s)

    def from_position(self, text: str) -> State:
        return from_position(self, text)

    def from_json(self, d: dict[str, Any]) -> State:
        return _from_json(d)

    # --- undo --------------------------------------------------------------------------------------------

    def undo_blocker(self, s: State, after: State, events: list[Event]) -> str | None:
        """Nothing is taken back in The Floor. A duel is live: an answer or a pass is timed against the other
        side's clock, each one shows the next picture, a judged answer was seen by the judges, and a challenge
        reveals a category and starts a duel. The draft's picks and the placing are few, quick and watched by
        the whole table; allowing undo there alone would buy little and invite disputes."""
        return "undo.reason.live"

    # --- automation ----------------------------------------------------------------------------------------

    def bot_action(self, s: State, seat: int) -> str:
        if seat not in self.to_move(s):
            raise NotYourTurnError("tf.not_your_turn")
        if self._closes_vote(s, seat):
            return "timeout"
        return choose(self, s, seat)

    def _closes_vote(self, s: State, seat: int) -> bool:
        """A duellist's seat waiting on a judgment (an old saved state, see `_vote_closers`): it can only close
        the vote, never vote."""
        d = s.duel
        return d is not None and bool(d.judging) and not s.pending and self._duellist(s, seat)

    def default_action(self, s: State, seat: int) -> str:
        """Timer expiry: the first card in the draft, the first challenge, ready, ``timeout`` for a running
        clock, accept for a judge, the joining cells for a take, the first option for a keep/pick."""
        if self._closes_vote(s, seat):
            return "timeout"

        return default(self, s, seat)
