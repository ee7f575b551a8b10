"""Player ratings: openskill's PlackettLuce (Weng-Lin) model, keeping only mu, sigma and a game count.

Every function is pure: it returns a new ratings dict (the input's players plus the rated ones, newcomers at the
default rating) and never touches its argument. The openskill model is built per call and `limit_sigma` is never
passed, because that flag sticks to the model object; openskill's random rating ids are never stored.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

from league.model import Ranking

DISPLAY_ALPHA = 60.0  # one display point per 1/60 mu
DISPLAY_TARGET = 1500.0  # a newcomer's ordinal is 0, so they show 1500


@dataclass(frozen=True)
class Rating:
    mu: float = 25.0
    sigma: float = 25 / 3
    games: int = 0

    @property
    def display(self) -> int:
        """openskill's ordinal, alpha·(mu − 3σ) + target, with alpha 60 and target 1500: a newcomer shows 1500."""
        return round(DISPLAY_ALPHA * (self.mu - 3 * self.sigma) + DISPLAY_TARGET)

    def provisional(self, threshold: int = 10) -> bool:
        return self.games < threshold


def _get(ratings: dict[str, Rating], player: str) -> Rating:
    return ratings.get(player, Rating())


def _rate(ratings: dict[str, Rating], teams: Sequence[Sequence[str]], **how: list[float]) -> dict[str, Rating]:
    """Rate teams of ids with `ranks=` or `scores=` and return the new pool; each rated player gets one more game.

    Fewer than two teams carry no result (openskill refuses them): the pool comes back unchanged.
    """
    if len(teams) < 2:
        return dict(ratings)
    model = PlackettLuce()
    olds = [[_get(ratings, p) for p in team] for team in teams]
    rated = model.rate([[model.rating(mu=r.mu, sigma=r.sigma) for r in team] for team in olds], **how)
    updated = dict(ratings)
    for team, old_team, new_team in zip(teams, olds, rated, strict=True):
        for p, old, new in zip(team, old_team, new_team, strict=True):
            updated[p] = Rating(new.mu, new.sigma, old.games + 1)
    return updated


def _competition_ranks(ranking: Ranking) -> list[float]:
    """1-based ranks per group, ties sharing and the next place skipped (1, 2, 2, 4), as openskill is measured with."""
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
    """Score event: one openskill update from raw scores (higher is better), each player a team of one."""
    players = list(scores)
    return _rate(ratings, [[p] for p in players], scores=[scores[p] for p in players])


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

