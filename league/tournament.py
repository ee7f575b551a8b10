"""A tournament as a value: registration, rounds, results, standings and the export, for every format.

`Tournament` is immutable and pure (no Discord, no storage, no clock): each step returns a new one or raises a
`TournamentError` whose key a player or an organiser can act on. The engine's director (engine/tournaments.py)
creates the games of a round, feeds their results back here and closes a round at its deadline.

Formats, and how a round is made:
- ``swiss`` (2-player tables): FIDE Dutch through pairing-core (league/pairing.py); byes at most once.
- ``round-robin``: the Berger schedule, fixed at the start; a dropped player's later games are walkovers.
- ``single-elimination`` / ``double-elimination``: a fixed bracket (league/elimination.py); a drawn game is
  replayed at the same table with seats swapped (up to MAX_REPLAYS deciding games), or, by the organiser's
  ``draw_rule`` (and after the cap), goes to the higher seed: the only fair thing both players knew before.
- ``pods`` (multiplayer tables): seated by standing with repeated table-mates avoided (league/pods.py).
- ``score``: every entrant plays the same seeded game alone within the round's window; the round is one table
  ranked by score (league/standings.py scores it like any table: a point share for each entrant beaten).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from league import elimination as elim
from league import pairing as pr
from league import pods as pd
from league import seats
from league import stages as stg
from league import standings as st
from league.model import Entrant, Pairing, Ranking, Round, Table
from league.settings import (
    BYE_FORMATS,
    CANCELLED,
    FINISHED,
    MAX_ENTRANTS,
    MAX_REPLAYS,
    REGISTRATION,
    RUNNING,
    SCORE_ROUNDS,
    TWO_PLAYER,
    Settings,
    TournamentError,
    most_rounds,
)


@dataclass(frozen=True)
class Tournament:
    name: str
    settings: Settings
    seed: str
    status: str = REGISTRATION
    entrants: tuple[Entrant, ...] = ()
    checked_in: frozenset[str] = frozenset()
    rounds: tuple[Round, ...] = ()
    planned: int = 0  # the number of rounds, fixed at the start (elimination: until the bracket is decided)
    bracket: elim.Bracket | None = None
    schedule: tuple[Pairing, ...] = ()  # round robin: every round, fixed at the start
    paused: bool = False
    registration_open: bool = True  # the organiser may close entries before the start (check-in goes on)
    bye_requests: tuple[tuple[int, str], ...] = ()  # (round, entrant): requested half-point byes, granted or pending
    log: tuple[dict[str, Any], ...] = ()  # every manual change: action, players, round, by (the organiser's id)
    forbidden: tuple[tuple[str, str], ...] = ()  # pairs who must not meet (same team or clan), ids sorted
    stages: tuple[stg.Stage, ...] = ()  # a multi-stage event's stages so far (the last is being played); else ()

    # --- queries -------------------------------------------------------------------------------------------------

    @property
    def fmt(self) -> str:
        """The format being played: the current stage's (a playoff is an elimination), else the settings'."""
        return self.stages[-1].format if self.stages else self.settings.format

    @property
    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    def entrant(self, player: str) -> Entrant:
        for e in self.entrants:
            if e.id == player:
                return e
        raise TournamentError("tour.not_entered")

    def active(self, round_number: int | None = None) -> list[Entrant]:
        """Entrants who play the given round (by default the next one), best seed first."""
        n = len(self.rounds) + 1 if round_number is None else round_number
        return [e for e in self.seeded() if e.active_in(n)]

    def seeded(self) -> list[Entrant]:
        return sorted(self.entrants, key=lambda e: (-e.rating, e.id))

    @property
    def round_open(self) -> bool:
        return self.current is not None and not self.current.complete

    @property
    def stage_over(self) -> bool:
        """The current stage (the whole event, when it has one stage) has played its last round."""
        if self.fmt in ("single-elimination", "double-elimination"):
            # A playoff nobody (or one player) reached has no bracket: it is over at once.
            return self.bracket.finished if self.bracket is not None else len(self.stages) > 1
        return len(self.rounds) >= self.planned and not self.round_open

    @property
    def playoff_due(self) -> bool:
        """The first stage is over and the playoff is still to be built (the next `pair_next` builds it)."""
        return len(self.stages) == 1 and stg.has_playoff(self.settings) and self.stage_over

    @property
    def finished(self) -> bool:
        return self.stage_over and not self.playoff_due

    # --- registration --------------------------------------------------------------------------------------------

    def register(self, entrant: Entrant) -> Tournament:
        if any(e.id == entrant.id for e in self.entrants):
            raise TournamentError("tour.already_entered")
        cap = self.settings.max_players or MAX_ENTRANTS
        if len([e for e in self.entrants if e.dropped_after is None]) >= cap:
            raise TournamentError("tour.full", cap=cap)
        if self.status == REGISTRATION:
            if not self.registration_open:
                raise TournamentError("tour.registration_closed")
            return replace(self, entrants=(*self.entrants, replace(entrant, joined_round=1)))
        if self.status != RUNNING:
            raise TournamentError("tour.closed")
        nxt = len(self.rounds) + (0 if self.round_open else 1)
        if self.fmt not in ("swiss", "pods", "score") or nxt > self.settings.late_join_rounds:
            raise TournamentError("tour.no_late_join")
        # A late entrant plays from the next round to be paired, with the points the organiser gave them.
        joined = len(self.rounds) + 1
        points = entrant.start_points or self.settings.late_points * (joined - 1)
        late = replace(entrant, joined_round=joined, dropped_after=None, start_points=points)
        return replace(self, entrants=(*self.entrants, late))

    def set_registration(self, is_open: bool) -> Tournament:
        """Open or close entries before the start; entrants already in stay (and may still check in)."""
        if self.status != REGISTRATION:
            raise TournamentError("tour.already_started" if self.status == RUNNING else "tour.closed")
        return replace(self, registration_open=is_open)

    def check_in(self, player: str) -> Tournament:
        self.entrant(player)
        if self.status != REGISTRATION:
            raise TournamentError("tour.closed")
        return replace(self, checked_in=self.checked_in | {player})

    def drop(self, player: str) -> Tournament:
        """Leave (or be disqualified): before the start the entry is withdrawn; later the entrant plays no more
        rounds (the director resigns their running game) and stays in the standings, marked as dropped."""
        e = self.entrant(player)
        if self.status == REGISTRATION:
            return replace(self, entrants=tuple(x for x in self.entrants if x.id != player),
                           checked_in=self.checked_in - {player})
        if self.status != RUNNING or e.dropped_after is not None:
            raise TournamentError("tour.closed" if self.status != RUNNING else "tour.already_dropped")
        last = max(e.joined_round - 1, len(self.rounds))
        entrants = tuple(replace(x, dropped_after=last) if x.id == player else x for x in self.entrants)
        bracket = self.bracket  # a player the playoff did not take is not in its bracket
        if bracket is not None and player in bracket.seeds:
            bracket = bracket.withdraw(player)
        return replace(self, entrants=entrants, bracket=bracket)

    # --- manual control (before a round is paired; every change is logged) ------------------------------------------

    def logged(self, action: str, players: Sequence[str], round_number: int, by: str) -> Tournament:
        """One manual change in the log the export shows: what, to whom, for which round, by whom."""
        entry = {"action": action, "players": list(players), "round": round_number, "by": by}
        return replace(self, log=(*self.log, entry))

    def request_bye(self, player: str, round_number: int, by: str) -> Tournament:
        """A requested half-point bye: ``player`` is not paired in ``round_number`` (asked before it is paired) and
        scores ``half_bye_points``; at most ``max_half_byes`` per entrant in the event."""
        e = self.entrant(player)
        if self.fmt not in BYE_FORMATS:
            raise TournamentError("tour.no_half_bye")
        if self.status not in (REGISTRATION, RUNNING) or e.dropped_after is not None:
            raise TournamentError("tour.closed" if e.dropped_after is None else "tour.already_dropped")
        last = self.planned if self.status == RUNNING else self.settings.rounds
        if round_number < 1 or (last and round_number > last):
            raise TournamentError("tour.no_round", round=round_number)
        if round_number <= len(self.rounds):
            raise TournamentError("tour.round_paired", round=round_number)
        if (round_number, player) in self.bye_requests:
            raise TournamentError("tour.half_bye_already", round=round_number)
        if sum(p == player for _, p in self.bye_requests) >= self.settings.max_half_byes:
            raise TournamentError("tour.half_byes_used", most=self.settings.max_half_byes)
        out = replace(self, bye_requests=(*self.bye_requests, (round_number, player)))
        return out.logged("half_bye", [player], round_number, by)

    def readmit(self, player: str, by: str) -> Tournament:
        """A player who left plays again from the next round to be paired, with the points they had; the rounds
        they missed stay unplayed (zero points, cut first by cut-1 as voluntarily unplayed)."""
        e = self.entrant(player)
        if self.status != RUNNING:
            raise TournamentError("tour.not_running")
        if e.dropped_after is None:
            raise TournamentError("tour.not_dropped")
        if self.bracket is not None:  # a bracket has already moved their opponent on
            raise TournamentError("tour.no_readmit")
        cap = self.settings.max_players or MAX_ENTRANTS
        if len([x for x in self.entrants if x.dropped_after is None]) >= cap:
            raise TournamentError("tour.full", cap=cap)
        back = len(self.rounds) + 1
        missed = (*e.missed, *range(e.dropped_after + 1, back))
        entrants = tuple(replace(x, dropped_after=None, missed=missed) if x.id == player else x
                         for x in self.entrants)
        return replace(self, entrants=entrants).logged("readmit", [player], back, by)

    def forbid(self, a: str, b: str, by: str) -> Tournament:
        """``a`` and ``b`` must not meet (same team or clan): Swiss and pods pair them as if they had met."""
        pair = self._pair_of(a, b)
        if pair in self.forbidden:
            raise TournamentError("tour.already_forbidden")
        return replace(self, forbidden=(*self.forbidden, pair)).logged("forbid", pair, len(self.rounds) + 1, by)

    def allow(self, a: str, b: str, by: str) -> Tournament:
        """Undo `forbid` from the next round to be paired."""
        pair = self._pair_of(a, b)
        if pair not in self.forbidden:
            raise TournamentError("tour.not_forbidden")
        kept = tuple(x for x in self.forbidden if x != pair)
        return replace(self, forbidden=kept).logged("allow", pair, len(self.rounds) + 1, by)

    def _pair_of(self, a: str, b: str) -> tuple[str, str]:
        self.entrant(a), self.entrant(b)
        if self.fmt not in BYE_FORMATS:  # the other formats' rounds are fixed by a schedule or a bracket
            raise TournamentError("tour.no_forbid")
        if self.status not in (REGISTRATION, RUNNING):
            raise TournamentError("tour.closed")
        if a == b:
            raise TournamentError("tour.forbid_self")
        low, high = sorted((a, b))
        return low, high

    def swap(self, a: str, b: str, by: str) -> Tournament:
        """Two players of the current round change tables (each takes the other's seat), while none of its games
        is decided; the changed tables' games are made again by the director."""
        rnd = self._rearrangeable()
        where = self._tables_of(rnd, a, b)
        if where[a] == where[b]:
            raise TournamentError("tour.same_table")
        swapped = {a: b, b: a}
        seated = [tuple(swapped.get(p, p) for p in t.seats) for t in rnd.tables]
        if self.fmt in TWO_PLAYER:  # who moves first follows the seat rules again, not the replaced player's seat
            seated = list(seats.reseat(seated, where.values(), seats.histories(self.rounds[:-1]), self._seat_rank(),
                                       initial=seats.coin_flip(self.seed)))
        tables = tuple(Table(seated[i]) if i in where.values() else t for i, t in enumerate(rnd.tables))
        out = replace(self, rounds=(*self.rounds[:-1], replace(rnd, tables=tables)))
        return out.logged("swap", [a, b], rnd.number, by)

    def force(self, a: str, b: str, by: str) -> Tournament:
        """``a`` and ``b`` play each other this round: ``b`` swaps with ``a``'s table-mate in the last seat (in
        two-player tables, ``a``'s opponent)."""
        rnd = self._rearrangeable()
        where = self._tables_of(rnd, a, b)
        if where[a] == where[b]:
            raise TournamentError("tour.already_together")
        mate = next(p for p in reversed(rnd.tables[where[a]].seats) if p != a)
        out = self.swap(b, mate, by)
        return replace(out, log=(*self.log, {**out.log[-1], "action": "force", "players": [a, b]}))

    def _rearrangeable(self) -> Round:
        if self.fmt not in BYE_FORMATS:  # a schedule or a bracket fixes who meets
            raise TournamentError("tour.no_rearrange")
        rnd = self.current
        if self.status != RUNNING or rnd is None or rnd.complete:
            raise TournamentError("tour.nothing_to_repair")
        if any(t.decided for t in rnd.tables):
            raise TournamentError("tour.round_started")
        return rnd

    @staticmethod
    def _tables_of(rnd: Round, *players: str) -> dict[str, int]:
        where = {p: i for i, t in enumerate(rnd.tables) for p in t.seats}
        missing = [p for p in players if p not in where]
        if missing:
            raise TournamentError("tour.not_seated")
        return {p: where[p] for p in players}

    def _half_byes(self, number: int) -> tuple[str, ...]:
        """Who asked to sit round ``number`` out and is still in the event."""
        if self.fmt not in BYE_FORMATS:
            return ()
        return tuple(p for r, p in self.bye_requests if r == number and self.entrant(p).active_in(number))

    # --- running -------------------------------------------------------------------------------------------------

    def start(self) -> Tournament:
        if self.status != REGISTRATION:
            raise TournamentError("tour.already_started")
        entrants = [e for e in self.entrants if not self.settings.checkin or e.id in self.checked_in]
        least = max(self.settings.min_players, 2 if self.fmt != "score" else 1, self.settings.sizes[0])
        if len(entrants) < least:
            raise TournamentError("tour.not_enough", count=len(entrants), least=least)
        wrong = stg.field_problem(self.settings, len(entrants))  # a top cut or pools this field cannot fill
        if wrong is not None:
            raise TournamentError(wrong[0], **wrong[1])
        t = replace(self, entrants=tuple(entrants), status=RUNNING)
        ids = [e.id for e in t.seeded()]
        if self.settings.groups:
            pools = stg.snake(ids, self.settings.groups)
            schedule = stg.group_schedule(pools)
            return replace(t, schedule=schedule, planned=len(schedule), stages=(stg.Stage(self.fmt, groups=pools),))
        if stg.has_playoff(self.settings):
            t = replace(t, stages=(stg.Stage(self.fmt),))
        if self.fmt == "round-robin":
            schedule = tuple(pr.round_robin(ids))
            return replace(t, schedule=schedule, planned=len(schedule))
        if self.fmt in ("single-elimination", "double-elimination"):
            bracket = elim.single_elimination(ids) if self.fmt == "single-elimination" else \
                elim.double_elimination(ids, grand_final_reset=self.settings.grand_final_reset)
            return replace(t, bracket=bracket, planned=0)
        default = SCORE_ROUNDS if self.fmt == "score" else pr.swiss_rounds_recommended(len(ids))
        # Fewer checked in than the rounds need: play the most rounds this field allows (the announcement says so)
        # rather than pair rematches; refusing would leave an automatic start with nothing to do.
        most = most_rounds(self.settings, len(ids))
        planned = self.settings.rounds or default
        return replace(t, planned=planned if most is None else min(planned, most))

    def pair_next(self) -> Tournament:
        """The next round's tables (and byes), appended as an undecided round."""
        if self.status != RUNNING or self.paused:
            raise TournamentError("tour.not_running" if self.status != RUNNING else "tour.paused")
        if self.round_open:
            raise TournamentError("tour.round_open")
        if self.playoff_due:
            return self.next_stage().pair_next()
        if self.finished:
            raise TournamentError("tour.over")
        number = len(self.rounds) + 1
        made, extra = self._pairing(number), {}
        if self.fmt in TWO_PLAYER:
            made, extra = self._seated(made), {"first_seat_coin": seats.coin_flip(self.seed)}
        rnd = Round(number, tuple(Table(t) for t in made.tables), made.byes, {**made_extra(made), **extra},
                    self._half_byes(number))
        t = replace(self, rounds=(*self.rounds, rnd))
        return t._walkovers()

    def next_stage(self) -> Tournament:
        """The playoff, built from the first stage's standings (tie-breaks included; league/stages.py says how):
        the first stage's order is kept for the final places of those it did not take."""
        table = self.standings()
        first = replace(self.stages[0], order=tuple(s.player for s in table))
        gone = {e.id for e in self.entrants if e.dropped_after is not None}
        order = [s.player for s in table if s.player not in gone]
        if first.groups:
            pools = [[p for p in order if p in set(pool)] for pool in first.groups]
            seeds = stg.cross_seeds(pools, self.settings.advance)
        else:
            seeds = tuple(order[:self.settings.top_cut])
        fmt = stg.playoff_format(self.settings)
        bracket = None
        if len(seeds) >= 2:
            bracket = elim.double_elimination(seeds, grand_final_reset=self.settings.grand_final_reset) \
                if fmt == "double-elimination" else \
                elim.single_elimination(seeds, third_place=stg.third_place(self.settings))
        playoff = stg.Stage(fmt, len(self.rounds) + 1, seeds=seeds)
        return replace(self, stages=(first, playoff), bracket=bracket)

    def _pairing(self, number: int) -> Pairing:
        if self.fmt == "swiss":
            return pr.swiss_pairing(self._swiss_players(number), number)
        if self.fmt == "pods":
            low, high = self.settings.sizes
            return pd.pod_pairing(self._pod_players(number), self.settings.table_size, min_size=low, max_size=high,
                                  rng_seed=f"{self.seed}/{number}")
        if self.fmt == "score":
            return Pairing((tuple(e.id for e in self.active(number)),))
        if self.fmt == "round-robin":
            return self._scheduled(number)
        return self._bracket_round()

    def _seated(self, made: Pairing) -> Pairing:
        """Who moves first at each table, as chess allocates colours (league/seats.py); the Swiss first swaps
        opponents where both need the same seat."""
        coin = seats.coin_flip(self.seed)
        if self.fmt == "round-robin":  # the Berger tables already balance seats (tested): the coin picks a side
            return replace(made, tables=tuple(t[::-1] if coin else t for t in made.tables))
        history = seats.histories(self.rounds)
        points = self._points() if self.fmt == "swiss" else {}
        tables = [(t[0], t[1]) for t in made.tables]
        if self.fmt == "swiss":
            tables = list(seats.untangle(tables, history, self._avoid(), points))
        allocated = seats.allocate(tables, history, self._seat_rank(), initial=coin)
        return replace(made, tables=allocated)

    def _seat_rank(self) -> Callable[[str], tuple[float, int]]:
        """Rank for seat allocation (lower is higher-ranked): Swiss points, then seeding."""
        points = self._points() if self.fmt == "swiss" else {}
        order = {e.id: (-points.get(e.id, e.start_points), i) for i, e in enumerate(self.seeded())}
        return lambda p: order.get(p, (0.0, len(order)))

    def _scheduled(self, number: int) -> Pairing:
        """Round robin: the fixed round, less the players who dropped (their opponents get a walkover)."""
        base = self.schedule[number - 1]
        return Pairing(base.tables, base.byes)

    def _bracket_round(self) -> Pairing:
        assert self.bracket is not None
        due = self.bracket.due()
        return _BracketPairing(tuple(tuple(p for p in m.slots if p is not None) for m in due), (),
                               tuple(m.id for m in due))

    def _walkovers(self) -> Tournament:
        """Tables of the new round with a dropped player are decided at once (they lose by forfeit)."""
        rnd = self.current
        assert rnd is not None
        gone = {e.id for e in self.entrants if not e.active_in(rnd.number)}
        out = self
        for i, table in enumerate(rnd.tables):
            absent = tuple(p for p in table.seats if p in gone)
            if absent:
                present = [p for p in table.seats if p not in gone]
                out = out.record(rnd.number, i, (tuple(present), absent) if present else (absent,), forfeited=absent)
        return out

    def linked(self, round_number: int, table: int, game_id: int, entrant: str | None = None) -> Tournament:
        """The game created for a table (a score round: for one entrant of its single table)."""
        rnd = self._round(round_number)
        if entrant is not None:
            games = {**rnd.extra.get("games", {}), entrant: game_id}
            new = replace(rnd, extra={**rnd.extra, "games": games})
        else:
            tables = tuple(replace(t, game_id=game_id) if i == table else t for i, t in enumerate(rnd.tables))
            new = replace(rnd, tables=tables)
        return replace(self, rounds=(*self.rounds[:round_number - 1], new, *self.rounds[round_number:]))

    def record(self, round_number: int, table: int, ranking: Ranking, *, scores: dict[str, float] | None = None,
               forfeited: Iterable[str] = (), override: bool = False) -> Tournament:
        """A table's result. A decided table changes only by the organiser's ``override`` (an awarded result)."""
        rnd = self._round(round_number)
        if not 0 <= table < len(rnd.tables):
            raise TournamentError("tour.no_table", table=table + 1)
        old = rnd.tables[table]
        if old.decided and not override:
            raise TournamentError("tour.already_decided")
        ranking = _checked_ranking(ranking, old.seats)
        new = replace(old, ranking=ranking, scores=scores, forfeited=tuple(forfeited))
        tables = tuple(new if i == table else t for i, t in enumerate(rnd.tables))
        out = replace(self, rounds=(*self.rounds[:round_number - 1], replace(rnd, tables=tables),
                                    *self.rounds[round_number:]))
        if self.bracket is not None:
            replay = out._replay(round_number, table, new)
            out = replay if replay is not None else out._advance(rnd, table, new)
        return out

    def _replay(self, round_number: int, index: int, drawn: Table) -> Tournament | None:
        """A drawn elimination game under the rematch rule: a deciding game at the same table with seats swapped
        (the drawn one is kept in the round's "replays"); None when the draw decides the match instead."""
        assert self.bracket is not None and drawn.ranking is not None
        rnd = self._round(round_number)
        replays = rnd.extra.get("replays", [])
        if (self.settings.draw_rule != "rematch" or len(drawn.ranking[0]) < 2 or drawn.forfeited
                or sum(r.get("table") == index for r in replays) >= MAX_REPLAYS
                or self.bracket.match(rnd.extra["matches"][index]).decided):
            return None
        tables = tuple(Table(drawn.seats[::-1]) if i == index else t for i, t in enumerate(rnd.tables))
        new = replace(rnd, tables=tables, extra={**rnd.extra, "replays": [*replays, {"table": index,
                                                                                    **drawn.to_json()}]})
        return replace(self, rounds=(*self.rounds[:round_number - 1], new, *self.rounds[round_number:]))

    def record_scores(self, round_number: int, scores: dict[str, float], missing: Iterable[str] = ()) -> Tournament:
        """A score round: every entrant's score (``missing``: no finished game, ranked last as forfeits)."""
        gone = tuple(sorted(set(missing) - scores.keys()))
        ranking = st.score_event_ranking(scores)
        return self.record(round_number, 0, (*ranking, gone) if gone else ranking, scores=scores, forfeited=gone)

    def _advance(self, rnd: Round, index: int, table: Table) -> Tournament:
        assert self.bracket is not None and table.ranking is not None
        match_id = rnd.extra["matches"][index]
        top, reason = table.ranking[0], elim.WON
        draws = sum(r.get("table") == index for r in rnd.extra.get("replays", ()))
        if len(top) > 1:  # drawn, and no (more) deciding game: the higher seed goes through (module docstring)
            top, reason, draws = (self.bracket.higher_seed(match_id),), elim.HIGHER_SEED, draws + 1
        if self.bracket.match(match_id).decided:
            return self  # a withdrawal already settled it
        if set(table.forfeited) & set(table.seats) and top[0] not in table.forfeited:
            return replace(self, bracket=self.bracket.forfeit(match_id, table.forfeited[0]))
        return replace(self, bracket=self.bracket.record(match_id, top[0], reason=reason, draws=draws))

    def close(self) -> Tournament:
        """After the last round: finished. Between rounds the director pairs the next one."""
        if self.round_open:
            raise TournamentError("tour.round_open")
        if not self.finished:
            raise TournamentError("tour.not_over")
        return replace(self, status=FINISHED)

    def cancel(self) -> Tournament:
        if self.status in (FINISHED, CANCELLED):
            raise TournamentError("tour.closed")
        return replace(self, status=CANCELLED)

    def repair(self) -> Tournament:
        """Re-pair the current round (after drops, late joins or a mistake): only while none of it is decided."""
        rnd = self.current
        if rnd is None or rnd.complete:
            raise TournamentError("tour.nothing_to_repair")
        if any(t.decided and not t.forfeited for t in rnd.tables):
            raise TournamentError("tour.round_started")
        # Who dropped during this round did not play it: out of the new pairing too.
        entrants = tuple(replace(e, dropped_after=rnd.number - 1) if e.dropped_after == rnd.number else e
                         for e in self.entrants)
        return replace(self, rounds=self.rounds[:-1], entrants=entrants).pair_next()

    def set_paused(self, paused: bool) -> Tournament:
        if self.status != RUNNING:
            raise TournamentError("tour.not_running")
        return replace(self, paused=paused)

    def _round(self, number: int) -> Round:
        if not 1 <= number <= len(self.rounds):
            raise TournamentError("tour.no_round", round=number)
        return self.rounds[number - 1]

    # --- pairing inputs ------------------------------------------------------------------------------------------

    def _points(self) -> dict[str, float]:
        return {s.player: s.points for s in st.standings(self.entrants, self.rounds, self.scoring)}

    def _met(self) -> dict[str, set[str]]:
        met: dict[str, set[str]] = {e.id: set() for e in self.entrants}
        for rnd in self.rounds:
            for table in rnd.tables:
                for p in table.seats:
                    met.setdefault(p, set()).update(q for q in table.seats if q != p)
        return met

    def _avoid(self) -> dict[str, set[str]]:
        """Who each player is not to be paired with: everyone met, and the organiser's forbidden pairs."""
        met = self._met()
        for a, b in self.forbidden:
            met.setdefault(a, set()).add(b)
            met.setdefault(b, set()).add(a)
        return met

    def _swiss_players(self, number: int) -> list[pr.SwissPlayer]:
        points, met = self._points(), self._avoid()
        byes = {p for rnd in self.rounds for p in rnd.byes}
        numbers = {e.id: i for i, e in enumerate(self.seeded(), 1)}
        resting = set(self._half_byes(number))
        history = seats.histories(self.rounds)  # the pairing weighs seat preferences (FIDE C.04.3 colours)
        return [pr.SwissPlayer(e.id, e.rating, points.get(e.id, e.start_points), frozenset(met[e.id]),
                               e.id in byes, numbers[e.id], history.get(e.id, ()))
                for e in self.active(number) if e.id not in resting]

    def _pod_players(self, number: int) -> list[pd.PodPlayer]:
        points, met = self._points(), self._avoid()
        seats: dict[str, list[int]] = {}
        byes: dict[str, int] = {}
        for rnd in self.rounds:
            for table in rnd.tables:
                for i, p in enumerate(table.seats):
                    seats.setdefault(p, []).append(i)
            for p in rnd.byes:
                byes[p] = byes.get(p, 0) + 1
        resting = set(self._half_byes(number))
        return [pd.PodPlayer(e.id, points.get(e.id, e.start_points), e.rating, frozenset(met[e.id]),
                             tuple(seats.get(e.id, ())), byes.get(e.id, 0))
                for e in self.active(number) if e.id not in resting]

    # --- standings and export ------------------------------------------------------------------------------------

    @property
    def scoring(self) -> st.Scoring:
        return st.Scoring(bye_points=self.settings.bye_value, tiebreaks=self.settings.tiebreak_order,
                          half_bye_points=self.settings.half_bye_points,
                          round_robin=self.settings.format == "round-robin")  # FIDE C.07 15.2

    def standings(self) -> list[st.Standing]:
        if self.stages:
            return self._staged_standings()
        table = st.standings(self.entrants, self.rounds, self.scoring)
        if self.bracket is None:
            return table
        return _bracket_standings(self.bracket, table)

    def _staged_standings(self) -> list[st.Standing]:
        """A multi-stage event: the first stage's standing while it runs; then the playoff's players in the
        bracket's order, everyone else below them by first-stage standing."""
        if len(self.stages) == 1:
            return self._first_standings(self.rounds)
        first = self._first_standings(self.rounds[:self.stages[1].first_round - 1])
        if self.bracket is None:
            return first
        inside = _bracket_standings(self.bracket, st.standings(self.entrants, self.rounds, self.scoring))
        return stg.combined(inside, first)

    def _first_standings(self, rounds: Sequence[Round]) -> list[st.Standing]:
        pools = self.stages[0].groups
        if not pools:
            return st.standings(self.entrants, rounds, self.scoring)
        by_id = {e.id: e for e in self.entrants}
        return stg.group_order([st.standings([by_id[p] for p in pool if p in by_id], rounds, self.scoring)
                                for pool in pools])

    def stage_rounds(self, index: int) -> range:
        """The tournament rounds stage ``index`` played (or is playing)."""
        start = self.stages[index].first_round
        end = self.stages[index + 1].first_round if index + 1 < len(self.stages) else len(self.rounds) + 1
        return range(start, end)

    def export(self) -> dict[str, Any]:
        """The tournament as organisers download it (and the simulation writes it)."""
        return {
            "game": self.settings.game,
            "format": self.settings.format,  # the event's (a multi-stage event's stages: "stages")
            "name": self.name,
            "status": self.status,
            "players": [{"id": e.id, "name": e.name} for e in self.entrants],
            "rounds": [{"number": r.number,
                        "tables": [{"seats": list(t.seats),
                                    "ranking": None if t.ranking is None else [list(g) for g in t.ranking]}
                                   for t in r.tables],
                        "byes": list(r.byes), "half_byes": list(r.half_byes)} for r in self.rounds],
            "standings": [{"player": s.player, "rank": s.rank, "points": s.points, "tiebreaks": dict(s.tiebreaks)}
                          for s in self.standings()],
            **({"matches": _match_export(self.bracket)} if self.bracket is not None else {}),
            "manual_changes": [dict(x) for x in self.log],
            "forbidden_pairs": [list(x) for x in self.forbidden],
            "stages": [{"index": i, "format": s.format, "rounds": list(self.stage_rounds(i)), "seeds": list(s.seeds),
                        "groups": [list(g) for g in s.groups], "order": list(s.order)}
                       for i, s in enumerate(self.stages)],
        }

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "settings": self.settings.to_json(), "seed": self.seed, "status": self.status,
                "entrants": [e.to_json() for e in self.entrants], "checked_in": sorted(self.checked_in),
                "rounds": [r.to_json() for r in self.rounds], "planned": self.planned,
                "bracket": None if self.bracket is None else self.bracket.to_json(),
                "schedule": [{"tables": [list(t) for t in p.tables], "byes": list(p.byes)} for p in self.schedule],
                "paused": self.paused, "registration_open": self.registration_open,
                "bye_requests": [list(x) for x in self.bye_requests], "log": [dict(x) for x in self.log],
                "forbidden": [list(x) for x in self.forbidden], "stages": [s.to_json() for s in self.stages]}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Tournament:
        return cls(
            name=str(d["name"]), settings=Settings.from_json(d["settings"]), seed=str(d["seed"]),
            status=str(d["status"]), entrants=tuple(Entrant.from_json(e) for e in d["entrants"]),
            checked_in=frozenset(str(x) for x in d.get("checked_in", ())),
            rounds=tuple(Round.from_json(r) for r in d.get("rounds", ())), planned=int(d.get("planned", 0)),
            bracket=None if d.get("bracket") is None else elim.Bracket.from_json(d["bracket"]),
            schedule=tuple(Pairing(tuple(tuple(str(p) for p in t) for t in s["tables"]),
                                   tuple(str(b) for b in s["byes"])) for s in d.get("schedule", ())),
            paused=bool(d.get("paused", False)), registration_open=bool(d.get("registration_open", True)),
            bye_requests=tuple((int(r), str(p)) for r, p in d.get("bye_requests", ())),
            log=tuple(dict(x) for x in d.get("log", ())),
            forbidden=tuple((str(a), str(b)) for a, b in d.get("forbidden", ())),
            stages=tuple(stg.Stage.from_json(s) for s in d.get("stages", ())),
        )


@dataclass(frozen=True)
class _BracketPairing(Pairing):
    matches: tuple[str, ...] = ()


def made_extra(made: Pairing) -> dict[str, Any]:
    return {"matches": list(made.matches)} if isinstance(made, _BracketPairing) else {}


def _checked_ranking(ranking: Ranking, seats: Sequence[str]) -> Ranking:
    """A ranking must place every seat of the table exactly once."""
    groups = tuple(tuple(str(p) for p in g) for g in ranking if g)
    placed = [p for g in groups for p in g]
    if sorted(placed) != sorted(seats):
        raise TournamentError("tour.bad_ranking")
    return groups


def _bracket_standings(bracket: elim.Bracket, table: list[st.Standing]) -> list[st.Standing]:
    """An elimination's order is the bracket's: the champion, the runner-up, then by the round they went out;
    players still in come first while it runs. Points are match wins."""
    by_id = {s.player: s for s in table}
    groups = bracket.placements() if bracket.finished else _live_groups(bracket)
    wins: dict[str, int] = {}
    for m in bracket.matches:
        if m.winner is not None and m.result in (elim.PLAYED, elim.FORFEIT):
            wins[m.winner] = wins.get(m.winner, 0) + 1
    out, rank = [], 1
    for group in groups:
        for p in sorted(group):
            base = by_id.get(p)
            if base is None:
                continue
            out.append(replace(base, rank=rank, points=float(wins.get(p, 0)), tiebreaks={}))
        rank += len(group)
    return out


def _match_export(bracket: elim.Bracket) -> list[dict[str, Any]]:
    """Every bracket match with who advanced and why (reason: won, higher_seed after `draws` drawn games, forfeit,
    bye, void)."""
    return [{"id": m.id, "label": m.label, "players": list(m.slots), "winner": m.winner, "reason": m.reason,
             "draws": m.draws} for m in bracket.matches]


def _live_groups(bracket: elim.Bracket) -> list[tuple[str, ...]]:
    out = {p for g in bracket.eliminated() for p in g}
    alive = tuple(p for p in bracket.seeds if p not in out)
    return [alive, *bracket.eliminated()] if alive else list(bracket.eliminated())
