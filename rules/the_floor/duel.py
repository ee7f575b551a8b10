"""The duels of The Floor: challenges, Ready, answers, passes, disputes, judging and their outcome.

A mixin of `TheFloor` (game.py): its methods call the facade's turn and category helpers through ``self``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules import rng
from rules.base import Event, IllegalActionError, NotYourTurnError
from rules.the_floor import board as bd
from rules.the_floor.answers import normalize
from rules.the_floor.letters import fair_deck
from rules.the_floor.options import (
    LETTERS,
    MAX_ANSWER,
    MAX_ANSWERS,
    PASS_PENALTY_MS,
    SEXES,
)
from rules.the_floor.state import Duel, Pending, State


def _set(values: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    return (*values[:i], v, *values[i + 1:])


class DuelRules:
    """The duel's steps; `TheFloor` inherits them."""

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
