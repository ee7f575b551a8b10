"""``TheFloor``: the rules contract for The Floor (see the package docstring for the notation)."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any, ClassVar

from rules import rng
from rules.base import Event, IllegalActionError, InvalidActionError, NotYourTurnError, OptionsError, Outcome
from rules.the_floor import board as bd
from rules.the_floor import content as content_module
from rules.the_floor.answers import check as check_answer
from rules.the_floor.answers import normalize
from rules.the_floor.bot import choose, default
from rules.the_floor.letters import fair_deck
from rules.the_floor.names import category_id, choosable
from rules.the_floor.options import (  # re-exported: the surfaces and tests read them from the game
    DEAL as DEAL,
)
from rules.the_floor.options import (
    DECK_STREAM as DECK_STREAM,
)
from rules.the_floor.options import (
    DOUBT_CAP as DOUBT_CAP,
)
from rules.the_floor.options import (
    DOUBT_OPTION as DOUBT_OPTION,
)
from rules.the_floor.options import (
    DRAFT_TIMER as DRAFT_TIMER,
)
from rules.the_floor.options import (
    FINAL_SETUP_CARDS as FINAL_SETUP_CARDS,
)
from rules.the_floor.options import (
    FIRST_FREE_STREAM as FIRST_FREE_STREAM,
)
from rules.the_floor.options import (
    GUEST_SEAT as GUEST_SEAT,
)
from rules.the_floor.options import (
    LETTERS as LETTERS,
)
from rules.the_floor.options import (
    LETTERS_OPTION as LETTERS_OPTION,
)
from rules.the_floor.options import (
    MAX_ANSWER as MAX_ANSWER,
)
from rules.the_floor.options import (
    MAX_ANSWERS as MAX_ANSWERS,
)
from rules.the_floor.options import (
    MAX_CATEGORIES as MAX_CATEGORIES,
)
from rules.the_floor.options import (
    MAX_CATEGORY_ID as MAX_CATEGORY_ID,
)
from rules.the_floor.options import (
    MAX_CUSTOM as MAX_CUSTOM,
)
from rules.the_floor.options import (
    MAX_CUSTOM_CATEGORIES as MAX_CUSTOM_CATEGORIES,
)
from rules.the_floor.options import (
    MAX_GUEST_VOTES as MAX_GUEST_VOTES,
)
from rules.the_floor.options import (
    MAX_USER_ID as MAX_USER_ID,
)
from rules.the_floor.options import (
    PASS_PENALTY_MS as PASS_PENALTY_MS,
)
from rules.the_floor.options import (
    REFEREE_OPTION as REFEREE_OPTION,
)
from rules.the_floor.options import (
    ROUNDS as ROUNDS,
)
from rules.the_floor.options import (
    SEXES as SEXES,
)
from rules.the_floor.options import (
    SIDE_STREAM as SIDE_STREAM,
)
from rules.the_floor.options import (
    SPECTATORS_OPTION as SPECTATORS_OPTION,
)
from rules.the_floor.options import (
    SWITCHES as SWITCHES,
)
from rules.the_floor.options import (
    TIMER_OPTIONS as TIMER_OPTIONS,
)
from rules.the_floor.options import (
    _int,
    _normalize,
)
from rules.the_floor.options import (
    custom_content as custom_content,
)
from rules.the_floor.options import (
    default_sides as default_sides,
)
from rules.the_floor.position import from_position, to_position
from rules.the_floor.state import Duel, Pending, State
from rules.the_floor.state import to_json as _to_json
from rules.the_floor.stored import from_json as _from_json
from rules.the_floor.view import view
from rules.the_floor.words import canonical_text, duel_action

VERBS = ("pick", "challenge", "ready", "answer", "pass", "timeout", "judge", "dispute", "take", "keep", "resign")
USAGE = {"pick": "pick <category>", "challenge": "challenge B2 B3", "ready": "ready",
         "answer": "answer <elapsed ms> <text>", "pass": "pass <elapsed ms>", "timeout": "timeout",
         "judge": "judge accept|reject", "dispute": "dispute <elapsed ms>", "take": "take B3,B4",
         "keep": "keep <category>", "resign": "resign"}



def _set(values: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    return (*values[:i], v, *values[i + 1:])


def parse(raw: str) -> tuple[str, list[str]]:
    """Split an action into its verb and canonical arguments; raises InvalidActionError."""
    words = raw.strip().split() if isinstance(raw, str) else []
    if not words:
        raise InvalidActionError("tf.parse.empty", usage=", ".join(USAGE.values()))
    verb = words[0].lower()
    rest = words[1:]
    if verb not in VERBS:
        raise InvalidActionError("tf.parse.unknown_verb", verb=words[0], verbs=", ".join(VERBS))
    bad = InvalidActionError("tf.parse.usage", verb=verb, usage=USAGE[verb])
    if verb in ("ready", "timeout", "resign"):
        if rest:
            raise bad
        return verb, []
    if verb in ("pick", "keep"):  # a category's id, or its name of several words (`TheFloor.notation` makes it the id)
        if not rest:
            raise bad
        return verb, [" ".join(rest)]
    if verb == "challenge":
        if len(rest) != 2:
            raise bad
        return verb, [bd.name(bd.parse_cell(w)) for w in rest]
    if verb == "judge":
        if not 1 <= len(rest) <= 2 or rest[0].lower() not in ("accept", "reject"):
            raise bad
        if len(rest) == 2:  # a member without a seat, named by the engine: ``judge accept user:<id>``
            match = re.fullmatch(r"user:([0-9]{1,19})", rest[1].lower())
            if match is None or int(match[1]) > MAX_USER_ID:
                raise bad
            return verb, [rest[0].lower(), f"user:{int(match[1])}"]
        return verb, [rest[0].lower()]
    if verb == "take":
        cells = [w for w in re.split(r"[,\s]+", " ".join(rest)) if w]
        if not cells:
            raise bad
        idx = sorted({bd.parse_cell(c) for c in cells})
        if len(idx) != len(cells):
            raise bad
        return verb, [",".join(bd.name(c) for c in idx)]
    # answer / pass / dispute: elapsed milliseconds first
    arity_ok = len(rest) >= 2 if verb == "answer" else len(rest) == 1
    if not arity_ok or not rest[0].isdigit() or not rest[0].isascii():
        raise bad
    return verb, [str(int(rest[0])), *([" ".join(rest[1:])] if verb == "answer" else [])]


def canonical(raw: str) -> str:
    verb, args = parse(raw)
    return " ".join([verb, *args])


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


class TheFloor:
    """The Floor. ``content`` provides ``categories(lang)`` (list of {"id","name","flags","answers"}) and
    ``checker`` is ``check(text, category, letter, given, lang) -> Verdict``; both default to the package's
    ``content`` and ``answers`` modules (imported on first use) and are static data, so replay is exact."""

    id: ClassVar[str] = "the_floor"
    name: ClassVar[str] = "The Floor"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 10
    shared_fields: ClassVar[tuple[str, ...]] = ("content", "custom")  # the server's content: stored once per game
    ENGINE_VERBS: ClassVar[frozenset[str]] = frozenset({"timeout"})  # the clocks' alone (duels keep their own)

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

    def _challenge(self, s: State, side: int, a: int, b: int) -> tuple[State, list[Event]]:
        if s.board[a] != side:
            raise IllegalActionError("tf.not_your_cell", cell=bd.name(a))
        if b not in bd.neighbours(a) or s.board[b] in (bd.EMPTY, side):
            raise IllegalActionError("tf.not_adjacent_rival", cell=bd.name(b), frm=bd.name(a))
        defender = s.board[b]
        dfield = bd.field_of(s.board, b)
        cat = next(c for cell, c in s.cards if cell in dfield)
        s, duel = self._new_duel(s, side, defender, a, b, cat)
        ev = Event("challenge", side, {"from": bd.name(a), "to": bd.name(b), "defender": defender, "category": cat})
        return replace(s, duel=duel), [ev]

    def _new_duel(self, s: State, chal: int, defe: int, a: int | None, b: int | None, cat: str) -> tuple[State, Duel]:
        letters = LETTERS[s.lang]
        decks = (tuple(rng.shuffled(s.seed, s.draws, letters)), tuple(rng.shuffled(s.seed, s.draws + 1, letters)))
        # A fair host redraws a letter the category cannot answer (issue 10): same streams, those cards moved to the
        # bottom of the deck. Only duels created from now on: a saved duel keeps the decks it carries.
        category = self.catalog(s).get(cat) if s.fair_letters else None
        if category is not None:
            decks = (fair_deck(decks[0], category, s.lang), fair_deck(decks[1], category, s.lang))
        ms = s.clock_s * 1000
        duel = Duel(challenger=chal, defender=defe, frm=a, to=b, category=cat, ready=(False, False), started=False,
                    clocks=(ms, ms), active=0, decks=decks, drawn=(0, 0), letter="", given=(), log=())
        return replace(s, draws=s.draws + 2), duel

    def _ready(self, s: State, side: int) -> tuple[State, list[Event]]:
        d = s.duel
        assert d is not None
        who = 0 if side == d.challenger else 1
        d = replace(d, ready=_set(d.ready, who, True))
        events = [Event("ready", side, {})]
        if all(d.ready):
            d = _reveal(replace(d, started=True), 0)
            events.append(Event("duel_start", d.challenger, {"letter": d.letter}))
        return replace(s, duel=d), events

    def _forfeit(self, s: State, side: int) -> tuple[State, list[Event]]:
        """A duellist side that was not Ready in time loses the duel without playing it (clocks untouched)."""
        d = s.duel
        assert d is not None
        who = 0 if side == d.challenger else 1
        events = [Event("absent", side, {})]
        return self._lose_on_time(s, replace(d, active=who), events)

    def bot_defers(self, s: State, seat: int, humans: frozenset[int]) -> bool:
        """A bot on a team with a human leaves its side's moves to the human (it would answer first every time);
        it still votes as a judge, so a vote is not held up to its deadline. A duellist bot holding a vote open
        to members without a seat waits for its deadline (closing it would cut their vote short)."""
        if s.duel is not None and s.duel.judging:
            return self._duellist(s, seat) and self.guests_judge(s)
        return any(i in humans for i in s.seats_of(s.seat_side[seat]))

    def turn_timed(self, s: State) -> bool:
        """Whether the engine's generic turn timer (``turn_minutes``) runs now: for a challenge, a choice and
        the draft; a duel has its own clocks, Ready deadline and vote deadline, kept by the surface."""
        return s.duel is None

    def _answer(self, s: State, ms: int, text: str) -> tuple[State, list[Event]]:
        d = s.duel
        assert d is not None
        side = (d.challenger, d.defender)[d.active]
        left = d.clocks[d.active] - ms
        if left <= 0:
            return self._lose_on_time(s, replace(d, clocks=_set(d.clocks, d.active, 0)), [])
        if len(text) > MAX_ANSWER:
            raise IllegalActionError("tf.answer.too_long", max=MAX_ANSWER)
        if len(d.log) >= MAX_ANSWERS:  # each answer adds one entry; passes (a second each) are few
            raise IllegalActionError("tf.answer.too_many", max=MAX_ANSWERS)
        category = self.catalog(s).get(d.category, {"id": d.category, "name": d.category, "answers": []})
        verdict = self.check(text, category, d.letter, list(d.given), s.lang)
        status, canon = verdict.status, verdict.canonical
        if status in ("repeat", "wrong_letter", "rejected"):
            raise IllegalActionError(f"tf.answer.{status}", answer=text, letter=d.letter)
        to_judges = status == "unknown" and s.judging_mode != "trust" and self._can_judge(s)
        if status == "unknown":
            self._refuse_rejected(s, text, category)
            self._refuse_other_sex(s, text, category)
            if to_judges and s.doubt_cap and doubts(d) >= s.doubt_cap:  # refused with the clock running
                raise IllegalActionError("tf.answer.doubt_cap", answer=text, letter=d.letter, cap=s.doubt_cap)
        d = replace(d, clocks=_set(d.clocks, d.active, left))
        # Trust mode, or nobody outside the duel to judge: accepted at once (the benefit of the doubt, never the
        # opponent's call); in trust mode the opponent may still dispute it before the judges.
        if to_judges:
            d = replace(d, judging=canon)
            return replace(s, duel=d), [Event("judging", side, {"answer": canon, "letter": d.letter})]
        mark = "accepted" if status == "accepted" else "trusted"
        d = _switch(d, canon, mark)
        data = {"answer": canon, "mark": mark, "letter": d.letter, "clocks_ms": list(d.clocks)}
        return replace(s, duel=d), [Event("answer", side, data)]

    def _dispute(self, s: State, ms: int) -> tuple[State, list[Event]]:
        """Trust mode: the running side disputes the answer just accepted unjudged; its elapsed time is charged,
        the answer goes to the judges (clock stopped) and the answerer's letter comes back."""
        d = s.duel
        assert d is not None
        w = 1 - d.active
        if not d.log or d.log[-1][0] != w or d.log[-1][2] != "trusted":
            raise IllegalActionError("tf.nothing_to_dispute")
        if not self._can_judge(s):  # nobody outside the duel: the answer keeps the benefit of the doubt
            raise IllegalActionError("tf.no_judges")
        left = d.clocks[d.active] - ms
        if left <= 0:
            return self._lose_on_time(s, replace(d, clocks=_set(d.clocks, d.active, 0)), [])
        text = d.log[-1][1]
        deck = d.decks[w]
        d = replace(d, clocks=_set(d.clocks, d.active, left), drawn=_set(d.drawn, d.active, d.drawn[d.active] - 1),
                    active=w, letter=deck[(d.drawn[w] - 1) % len(deck)], given=d.given[:-1], log=d.log[:-1],
                    judging=text)
        return replace(s, duel=d), [Event("dispute", (d.challenger, d.defender)[1 - w], {"answer": text})]

    def _refuse_rejected(self, s: State, text: str, category: dict[str, Any]) -> None:
        """An answer the judges already rejected in this duel is refused at once, clock running: sent again it
        would stop the clock for a new vote on the same question (the checker's own repeat test, so the same
        spelling tolerance applies)."""
        d = s.duel
        assert d is not None
        rejected = [text for _, text, mark in d.log if mark == "rejected"]
        if rejected and self.check(text, category, d.letter, rejected, s.lang).status == "repeat":
            raise IllegalActionError("tf.answer.judged_out", answer=text, letter=d.letter)

    def _refuse_other_sex(self, s: State, text: str, category: dict[str, Any]) -> None:
        """A category of women only (flag ``K``) or men only (``M``) of people: an answer it does not list that is
        exactly a person listed in a people category of the other sex (full name or variant, no typo, no surname
        alone) is refused with the clock running. Only people: a given name is often both (a names list cannot
        tell), so for names the category's own list is the constraint."""
        flags = category.get("flags", ())
        sex = next((x for x in SEXES if x in flags), "")
        if not sex or "people" not in flags:
            return
        other = SEXES[1 - SEXES.index(sex)]
        for cat in self.catalog(s).values():
            cat_flags = cat.get("flags", ())
            if other in cat_flags and "people" in cat_flags and self._lists_exactly(cat, text, s.lang):
                key = "tf.answer.women_only" if sex == "K" else "tf.answer.men_only"
                raise IllegalActionError(key, answer=text, name=cat.get("name", ""))

    def _lists_exactly(self, category: dict[str, Any], text: str, lang: str) -> bool:
        key = (id(category), lang)
        hit = self._forms.get(key)
        if hit is None or hit[0] is not category:
            flags = category.get("flags", ())
            forms = {normalize(a, lang, flags) for a in category.get("answers", ())}
            forms |= {normalize(v, lang, flags) for vs in category.get("variants", {}).values() for v in vs}
            hit = self._forms[key] = (category, frozenset(forms))  # the category kept: its id() is not reused
        return normalize(text, lang, category.get("flags", ())) in hit[1]

    def category_sex(self, s: State, cat: str) -> str:
        """``K`` (women only), ``M`` (men only) or "" for a category of this game."""
        flags = self.catalog(s).get(cat, {}).get("flags", ())
        return next((x for x in SEXES if x in flags), "")

    def _may_judge(self, s: State, seat: int) -> None:
        """A vote from a duellist's seat or a second vote from one seat is refused with its own reason."""
        d = s.duel
        if d is None or not d.judging or s.phase == "over":
            return
        if self._duellist(s, seat):
            raise NotYourTurnError("tf.judge_own_duel")
        if any(voter == seat for voter, _ in d.votes):
            raise NotYourTurnError("tf.already_voted")

    def _vote(self, s: State, seat: int, accept: bool) -> tuple[State, list[Event]]:
        """A judge's vote. The vote closes at its deadline (``timeout``), or as soon as the judges still to vote
        could not change the result whichever way they voted (or did not): the clock stands still meanwhile."""
        d = s.duel
        assert d is not None
        s = replace(s, duel=replace(d, votes=(*d.votes, (seat, accept))))
        cast = [v for voter, v in s.duel.votes if not self._duellist(s, voter)]
        yes, left = sum(cast), len(self.judge_seats(s))
        if 2 * yes >= len(cast) + left or 2 * (yes + left) < len(cast) + left:
            return self._close_vote(s)
        return s, [Event("vote", s.seat_side[seat], {})]

    def _close_vote(self, s: State) -> tuple[State, list[Event]]:
        """The majority of the votes cast decides; a tie or no vote at all accepts (the benefit of the doubt).
        Only neutral seats' and members' votes count, so a vote a duellist cast under the old rules is ignored."""
        d = s.duel
        assert d is not None
        cast = [accept for seat, accept in d.votes if not self._duellist(s, seat)] + [a for _, a in d.guests]
        return self._judge(s, 2 * sum(cast) >= len(cast))

    def _judge(self, s: State, accept: bool) -> tuple[State, list[Event]]:
        d = s.duel
        assert d is not None
        side = (d.challenger, d.defender)[d.active]
        if accept:
            d = _switch(replace(d, judging="", votes=(), guests=()), d.judging, "judged")
        else:
            d = replace(d, judging="", votes=(), guests=(), log=(*d.log, (d.active, d.judging, "rejected")))
        data = {"accepted": accept, "letter": d.letter, "clocks_ms": list(d.clocks)}
        return replace(s, duel=d), [Event("judged", side, data)]

    def _pass(self, s: State, ms: int) -> tuple[State, list[Event]]:
        d = s.duel
        assert d is not None
        left = d.clocks[d.active] - ms - PASS_PENALTY_MS
        if left <= 0:
            return self._lose_on_time(s, replace(d, clocks=_set(d.clocks, d.active, 0)), [])
        d = _reveal(replace(d, clocks=_set(d.clocks, d.active, left), log=(*d.log, (d.active, "", "pass"))), d.active)
        data = {"letter": d.letter, "clocks_ms": list(d.clocks)}
        return replace(s, duel=d), [Event("pass", (d.challenger, d.defender)[d.active], data)]

    def _lose_on_time(self, s: State, d: Duel, events: list[Event]) -> tuple[State, list[Event]]:
        loser = (d.challenger, d.defender)[d.active]
        winner = (d.challenger, d.defender)[1 - d.active]
        events.append(Event("duel_over", winner, {"loser": loser, "category": d.category,
                                                  "clocks_ms": list(d.clocks)}))
        s = replace(s, duel=d)
        if s.phase == "final":
            return self._final_duel_over(s, winner, loser, events)
        return self._resolve(s, winner, events)

    # resolution -------------------------------------------------------------------------------------------

    def _resolve(self, s: State, winner: int, events: list[Event]) -> tuple[State, list[Event]]:
        d = s.duel
        assert d is not None and d.frm is not None and d.to is not None
        chal_won = winner == d.challenger
        wfield = bd.field_of(s.board, d.frm if chal_won else d.to)
        lfield = bd.field_of(s.board, d.to if chal_won else d.frm)
        dfield = bd.field_of(s.board, d.to)
        cfield = bd.field_of(s.board, d.frm)
        cards = [(c, cat) for c, cat in s.cards if c not in dfield]  # the played category is discarded
        if not chal_won:  # the challenged side takes the challenger's category
            cards = [(d.to, cat) if c in cfield else (c, cat) for c, cat in cards]
        s = replace(s, cards=tuple(sorted(cards)), discard=(*s.discard, d.category), duel=None)
        k = min(len(wfield), len(lfield))
        if k >= len(lfield):
            return self._take(s, winner, lfield, events)
        return replace(s, pending=(Pending("take", winner, cells=lfield, count=k),)), events

    def _take(self, s: State, side: int, cells: tuple[int, ...], events: list[Event]) -> tuple[State, list[Event]]:
        board = list(s.board)
        loser = board[cells[0]]
        for c in cells:
            board[c] = side
        s = replace(s, board=tuple(board))
        events.append(Event("take", side, {"cells": [bd.name(c) for c in cells], "loser": loser}))
        if loser not in s.board:
            s = replace(s, eliminated=(*s.eliminated, loser))
            events.append(Event("eliminated", loser, {}))
        pending = []
        for f in bd.fields(s.board):
            on = sorted(cat for c, cat in s.cards if c in f)
            if len(on) > 1:
                pending.append(Pending("keep", s.board[f[0]], options=tuple(on), cells=f))
            elif not on:
                s, drawn = self._draw(s, 2)
                pending.append(Pending("keep", s.board[f[0]], options=tuple(sorted(drawn)), cells=f))
        s = replace(s, pending=tuple(pending))
        return self._after_choice(s, events)

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


def _reveal(d: Duel, who: int) -> Duel:
    deck = d.decks[who]
    letter = deck[d.drawn[who] % len(deck)]
    return replace(d, active=who, letter=letter, drawn=_set(d.drawn, who, d.drawn[who] + 1))


def doubts(d: Duel) -> int:
    """Doubtful answers the running side sent to the judges on its current letter: each rejected one keeps the
    letter (an accepted one, a pass or an answer from the list ends it), so they are the log's last entries."""
    n = 0
    for who, _, mark in reversed(d.log):
        if who != d.active or mark != "rejected":
            break
        n += 1
    return n


def _switch(d: Duel, answer: str, mark: str) -> Duel:
    d = replace(d, given=(*d.given, answer), log=(*d.log, (d.active, answer, mark)))
    return _reveal(d, 1 - d.active)
