"""Player ratings: openskill's PlackettLuce (Weng-Lin) model, keeping only mu, sigma and a game count.

What players read (docs/ratings.md gives the simulated figures): `Rating.display` is mu on a 1500 scale, so its
expectation does not grow just by playing (the conservative mu − 3σ rises with every game as σ shrinks, whatever the
results), marked provisional while σ is high; the conservative value stays the leaderboard's order.
Ties: openskill rates players tied at a place as if each had the tie's last place (tying for 2nd moved mu exactly as
a clean 3rd). A tie here is rated as the mean of every way to break it, by rotating each tied group.

Every function is pure: it returns a new ratings dict (the input's players plus the rated ones, newcomers at the
default rating) and never touches its argument. The openskill model is built per call and `limit_sigma` is never
passed, because that flag sticks to the model object; openskill's random rating ids are never stored.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

from league.model import Ranking

BETA = 25 / 6  # openskill's default performance spread
# Display points per mu, so that a gap reads as on an Elo scale between settled players: 200 points ≈ 76% to win
# (Elo's logistic scale is 400/ln 10; PlackettLuce's between two players is sqrt(2)·β when σ is small).
DISPLAY_ALPHA = 400 / math.log(10) / (math.sqrt(2) * BETA)
DISPLAY_TARGET = 1500.0  # a newcomer (mu 25) shows 1500
DEFAULT_MU = 25.0
# σ above this (78% of a newcomer's 25/3) marks the rating provisional: about 12 games at tables of 2 to 5
# (tools/rating_sim.py), sooner at bigger tables, which tell more per game, as lichess ends provisional by RD.
PROVISIONAL_SIGMA = 6.5
ROTATIONS_CAP = 60  # a tie's rotations: the lcm of the tied groups' sizes, or the largest group past this


@dataclass(frozen=True)
class Rating:
    mu: float = DEFAULT_MU
    sigma: float = 25 / 3
    games: int = 0

    @property
    def display(self) -> int:
        """The rating players read: mu on the 1500 scale (a newcomer shows 1500); it moves only with results."""
        return round(DISPLAY_TARGET + DISPLAY_ALPHA * (self.mu - DEFAULT_MU))

    @property
    def conservative(self) -> float:
        """mu − 3σ, openskill's ordinal: what the leaderboard orders by, so one lucky win does not top it."""
        return self.mu - 3 * self.sigma

    def provisional(self, threshold: float = PROVISIONAL_SIGMA) -> bool:
        """Still uncertain (σ above `threshold`), shown with a ``?`` as lichess marks a provisional rating."""
        return self.sigma > threshold


def _get(ratings: dict[str, Rating], player: str) -> Rating:
    return ratings.get(player, Rating())


def _rate(ratings: dict[str, Rating], teams: Sequence[Sequence[str]], ranks: Sequence[float]) -> dict[str, Rating]:
    """Rate teams of ids by 1-based `ranks` (equal ranks tie) and return the new pool; each rated player gets one
    more game. A tie among some of the teams is rated as the mean over rotations of each tied group (every way to
    break it, evenly); a tie of every team is openskill's draw. Fewer than two teams carry no result (openskill
    refuses them): the pool comes back unchanged.
    """
    if len(teams) < 2:
        return dict(ratings)
    model = PlackettLuce()
    olds = [[_get(ratings, p) for p in team] for team in teams]
    entered = [[model.rating(mu=r.mu, sigma=r.sigma) for r in team] for team in olds]
    orders = _tie_breaks(ranks)
    sums = [[[0.0, 0.0] for _ in team] for team in teams]
    for order in orders:
        for total, new_team in zip(sums, model.rate(entered, ranks=order), strict=True):
            for cell, new in zip(total, new_team, strict=True):
                cell[0] += new.mu
                cell[1] += new.sigma
    updated = dict(ratings)
    for team, old_team, total in zip(teams, olds, sums, strict=True):
        for p, old, (mu, sigma) in zip(team, old_team, total, strict=True):
            updated[p] = Rating(mu / len(orders), sigma / len(orders), old.games + 1)
    return updated


def _tie_breaks(ranks: Sequence[float]) -> list[list[float]]:
    """The strict orders a partial tie is averaged over: each tied group rotated, so every member takes each of
    the group's places equally often (lcm of the group sizes rotations; the largest size past `ROTATIONS_CAP`)."""
    groups: dict[float, list[int]] = {}
    for i, r in enumerate(ranks):
        groups.setdefault(r, []).append(i)
    sizes = [len(g) for g in groups.values()]
    if len(groups) == 1 or max(sizes) == 1:
        return [list(ranks)]
    count = math.lcm(*sizes)
    count = count if count <= ROTATIONS_CAP else max(sizes)
    orders = []
    for shift in range(count):
        order = [0.0] * len(ranks)
        place = 1
        for r in sorted(groups):
            members = groups[r]
            for k in range(len(members)):
                order[members[(k + shift) % len(members)]] = float(place)
                place += 1
        orders.append(order)
    return orders


def _competition_ranks(ranking: Ranking) -> list[float]:
    """1-based ranks per group, ties sharing and the next place skipped (1, 2, 2, 4); equal ranks are a tie."""
    ranks: list[float] = []
    ahead = 0
    for group in ranking:
        ranks.append(float(ahead + 1))
        ahead += len(group)
    return ranks


def rate_table(ratings: dict[str, Rating], ranking: Ranking) -> dict[str, Rating]:
    """Free-for-all table: every player is a team of one; tied players share a rank."""
    players = [p for group in ranking for p in group]
    ranks = [r for group, r in zip(ranking, _competition_ranks(ranking), strict=True) for _ in group]
    return _rate(ratings, [[p] for p in players], ranks=ranks)


def rate_teams(ratings: dict[str, Rating], teams: Sequence[Sequence[str]], ranks: Sequence[int]) -> dict[str, Rating]:
    """Teams against teams; `ranks` are 1-based places per team (lower is better, equal for a draw)."""
    return _rate(ratings, teams, ranks=[float(r) for r in ranks])


def rate_scores(ratings: dict[str, Rating], scores: dict[str, float]) -> dict[str, Rating]:
    """Score event: one update from raw scores (higher is better, equal scores tie), as the equivalent ranking."""
    by_score: dict[float, list[str]] = {}
    for p, score in scores.items():
        by_score.setdefault(score, []).append(p)
    return rate_table(ratings, tuple(tuple(by_score[s]) for s in sorted(by_score, reverse=True)))


def rate_coop(ratings: dict[str, Rating], team: Sequence[str], won: bool, difficulty: Rating) -> dict[str, Rating]:
    """Co-op table: the whole team against "the game", a fixed virtual opponent that is never updated.

    openskill sums a team's mu, so the game fields one copy of `difficulty` per team member: difficulty is the
    game's strength per seat, and a team of average players facing a difficulty-25 game is an even match at any size.
    Only the team's ratings change; the game's rating is the caller's constant.
    """
    model = PlackettLuce()
    olds = [_get(ratings, p) for p in team]
    ours = [model.rating(mu=r.mu, sigma=r.sigma) for r in olds]
    game = [model.rating(mu=difficulty.mu, sigma=difficulty.sigma) for _ in team]
    new_team = model.rate([ours, game], ranks=[1.0, 2.0] if won else [2.0, 1.0])[0]
    updated = dict(ratings)
    for p, old, new in zip(team, olds, new_team, strict=True):
        updated[p] = Rating(new.mu, new.sigma, old.games + 1)
    return updated


def win_probability(ratings: dict[str, Rating], ids: Sequence[str]) -> dict[str, float]:
    """Each player's chance of finishing first at a free-for-all table (openskill predict_win), for lobby display."""
    if len(ids) < 2:
        return dict.fromkeys(ids, 1.0)  # a lone player (or nobody) needs no model
    model = PlackettLuce()
    teams: list[list[PlackettLuceRating]] = [[model.rating(mu=_get(ratings, p).mu, sigma=_get(ratings, p).sigma)]
                                              for p in ids]
    return dict(zip(ids, model.predict_win(teams), strict=True))

