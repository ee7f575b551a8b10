"""What a finished game leaves behind: its results, and whether and how it changes ratings (storage/league.py
writes both in the transaction of the game's final save, so a game counts exactly once).

- **Results**: every game that ends with an outcome and has at least 2 human seats; one row per human seat with
  its place (1 = first, tied seats share: 1, 1, 3), its score and win / draw / loss. A win is first place alone
  (with teammates only, in a team game), a draw is first place shared with another side, anything else a loss.
  An aborted or adjudicated game has no outcome: no results.
- **Rated**: the table's ``rated`` play setting is on (the default), at least 2 humans, no bot seat (a seat
  turned into a bot by an admin included), no seat ever played by a stand-in bot while its owner was away
  (recorded in the meta as it happens: `STOOD_IN`) and no seat substituted (the admin log). Anything else would
  rate a person for moves they did not make.
- **How**: a rules hook ``teams(state) -> list[tuple[int, ...]] | None`` (The Floor's sides) rates team against
  team (`league.ratings.rate_teams`), else every player is a team of one (`rate_table`) ranked by the outcome.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime

from engine import policies as pol
from engine.tables import Table
from league import ratings as lr
from rules.base import Outcome
from storage import Finish, SeatResult

STOOD_IN = "stood_in"  # meta: seats a stand-in bot has moved for at least once (never cleared)
SUBSTITUTE = "substitute"  # the admin log's op of a substitution (engine/admin.py)
Rate = Callable[[dict[int, lr.Rating]], dict[int, lr.Rating]]  # `Finish.rate`


def settle(before: Table, after: Table, seat: int, source: str, now: datetime) -> tuple[Table, Finish | None]:
    """The table after a move with its ratings bookkeeping (a stand-in's move marks its seat), and the `Finish`
    to save with it when the move ended the game."""
    if source == "bot" and 0 <= seat < len(before.seats) and not before.seats[seat].bot:
        marked = sorted({*after.meta.get(STOOD_IN, ()), seat})
        after = replace(after, meta={**after.meta, STOOD_IN: marked})
    return after, finish_of(after, after.outcome, now)


def humans(table: Table) -> list[int]:
    return [i for i, s in enumerate(table.seats) if not s.bot and s.user_id is not None]


def unrated_reason(table: Table) -> str | None:
    """Why the game will not (or did not) change ratings, an i18n suffix (``off``, ``bots``, ``solo``,
    ``standin``, ``substituted``); None when it is rated."""
    if not pol.settings_of(table.meta).rated:
        return "off"
    if any(s.bot for s in table.seats):
        return "bots"
    if table.status != "lobby" and len(humans(table)) < 2:  # a lobby still waits for its players
        return "solo"
    if table.meta.get(STOOD_IN) or pol.standins(table.meta):
        return "standin"
    log = table.meta.get("admin_log") or []
    if any(isinstance(e, dict) and e.get("op") == SUBSTITUTE for e in log):
        return "substituted"
    return None


def finish_of(table: Table, outcome: Outcome | None, now: datetime) -> Finish | None:
    """The results of a game that just ended (None: not ended, or fewer than 2 humans)."""
    seats = humans(table)
    if outcome is None or len(seats) < 2:
        return None
    places = places_of(outcome.ranking, len(table.seats))
    teams = teams_of(table)
    outcomes = verdicts(places, teams)
    together = coop_of(table)
    if together is not None:  # a co-op table wins or loses as one (who resigned lost)
        left = set(table.meta.get(pol.LEFT, ()))
        outcomes = ["win" if together[0] and s not in left else "loss" for s in range(len(table.seats))]
    scores = outcome.scores if len(outcome.scores) == len(table.seats) else ()
    rows = tuple(SeatResult(user_id=table.seats[s].user_id or 0, seat=s, place=places[s], outcome=outcomes[s],
                            score=float(scores[s]) if scores else None) for s in seats)
    rated = unrated_reason(table) is None
    rate = (coop_rater(table, together) if together is not None else rater(table, places, teams)) if rated else None
    return Finish(game_id=table.id, guild_id=table.guild_id, game=table.game, finished_at=now, rated=rated,
                  rows=rows, rate=rate)


# A co-op game's strength per seat by its difficulty option: the fixed opponent a table is rated against
# (league.ratings.rate_coop). Tight sigma: the game's strength is a constant, not an estimate.
COOP_DIFFICULTY = {"easy": lr.Rating(22.0, 1.0), "normal": lr.Rating(25.0, 1.0), "hard": lr.Rating(28.0, 1.0)}


def coop_of(table: Table) -> tuple[bool, str] | None:
    """(won, difficulty) of a co-op game (the rules' optional ``coop(state)`` hook), else None."""
    hook = getattr(table.rules, "coop", None)
    return hook(table.state) if hook is not None and table.state is not None else None


def coop_rater(table: Table, together: tuple[bool, str]) -> Rate:
    """A co-op table rated together against the game: every human who stayed wins or loses with the table; who
    resigned is rated as losing."""
    won, difficulty = together
    left = set(table.meta.get(pol.LEFT, ()))
    stayed = [str(table.seats[s].user_id) for s in humans(table) if s not in left]
    gone = [str(table.seats[s].user_id) for s in humans(table) if s in left]
    strength = COOP_DIFFICULTY.get(difficulty, COOP_DIFFICULTY["normal"])

    def rate(current: dict[int, lr.Rating]) -> dict[int, lr.Rating]:
        pool = {str(k): v for k, v in current.items()}
        if stayed:
            pool = lr.rate_coop(pool, stayed, won, strength)
        if gone:
            pool = lr.rate_coop(pool, gone, False, strength)
        wanted = set(stayed) | set(gone)
        return {int(k): v for k, v in pool.items() if k in wanted}

    return rate


def places_of(ranking: Sequence[Sequence[int]], players: int) -> list[int]:
    """Each seat's place: competition ranking (1, 1, 3); a seat the ranking leaves out comes last."""
    places = [0] * players
    ahead = 0
    for group in ranking:
        for seat in group:
            if 0 <= seat < players:
                places[seat] = ahead + 1
        ahead += len(group)
    return [p or ahead + 1 for p in places]


def teams_of(table: Table) -> list[tuple[int, ...]]:
    """The sides that play together (the rules' optional ``teams(state)`` hook), else every seat alone."""
    hook = getattr(table.rules, "teams", None)
    found = hook(table.state) if hook is not None and table.state is not None else None
    return [tuple(t) for t in found if t] if found else [(s,) for s in range(len(table.seats))]


def verdicts(places: list[int], teams: list[tuple[int, ...]]) -> list[str]:
    """win / draw / loss per seat: first alone (or with teammates) wins, first shared with another side draws."""
    firsts = sum(1 for team in teams if min(places[s] for s in team) == 1)
    out = ["loss"] * len(places)
    for team in teams:
        if min(places[s] for s in team) == 1:
            for s in team:
                out[s] = "win" if firsts == 1 else "draw"
    return out


def rater(table: Table, places: list[int], teams: list[tuple[int, ...]]) -> Rate:
    """The pure rating step for `Finish.rate`: current ratings by user id → new ones (league.ratings keys players
    by text)."""
    users = {s: str(table.seats[s].user_id) for s in humans(table)}
    sides = [team for team in teams if all(s in users for s in team)]
    team_game = any(len(team) > 1 for team in sides)
    order = sorted(sides, key=lambda team: min(places[s] for s in team))

    def rate(current: dict[int, lr.Rating]) -> dict[int, lr.Rating]:
        pool = {str(k): v for k, v in current.items()}
        if team_game:
            new = lr.rate_teams(pool, [[users[s] for s in team] for team in order],
                                [min(places[s] for s in team) for team in order])
        else:
            new = lr.rate_table(pool, ranking_of(order, places, users))
        wanted = set(users.values())
        return {int(k): v for k, v in new.items() if k in wanted}

    return rate


def ranking_of(order: list[tuple[int, ...]], places: list[int], users: dict[int, str]) -> tuple[tuple[str, ...], ...]:
    """Seats best first, tied seats (equal places) grouped, as user ids."""
    groups: dict[int, list[str]] = {}
    for team in order:
        for s in team:
            groups.setdefault(places[s], []).append(users[s])
    return tuple(tuple(groups[p]) for p in sorted(groups))
