"""One rated match's update, and the number a player sees.

The model is openskill's Plackett–Luce (Weng–Lin), with its defaults (μ 25, σ 25/3, τ
25/300): it rates any number of individuals or teams from their order at the end, which
is what Five Up's results are (docs/ratings.md says why this model).

Ranks: the winning side (R24) is first. With two or three players every seat is its own
side; the others follow by their final score, higher first, equal scores sharing a rank,
and a seat that resigned comes last. With four players the two partnerships (R2) are two
teams, the winners first.

>>> new = Rating(DEFAULT_MU, DEFAULT_SIGMA)
>>> after = rate_match([[new], [new]], [1, 2])
>>> after[0][0].mu > 25 > after[1][0].mu
True
>>> displayed(new)
1500
"""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

#: openskill's defaults (a new player's rating)
DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0

_MODEL = PlackettLuce(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA)


@dataclass(frozen=True, slots=True)
class Rating:
    """A rating: the skill's mean ``mu`` and its uncertainty ``sigma``."""

    mu: float
    sigma: float


def rate_match(teams: list[list[Rating]], ranks: list[int]) -> list[list[Rating]]:
    """The ratings after one match: ``teams`` (each a list of its players' ratings) in
    finishing order ``ranks`` (1 first; equal ranks tie). Same shape out as in.

    >>> a, b = Rating(25.0, 8.0), Rating(30.0, 4.0)
    >>> [[x], [y]] = rate_match([[a], [b]], [1, 2])
    >>> round(x.mu - a.mu, 3) > 0 and round(y.mu - b.mu, 3) < 0 and x.sigma < a.sigma
    True
    """
    model_teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma) for r in team] for team in teams]
    rated = _MODEL.rate(model_teams, ranks=[float(r) for r in ranks])
    return [[Rating(float(p.mu), float(p.sigma)) for p in team] for team in rated]


def displayed(rating: Rating) -> int:
    """The rating a player sees: ``1500 + 40 × (μ − 3σ)``, rounded — a new player shows
    1500, and the number only rises as the model grows sure of a skill above a new
    player's (the conservative estimate leaderboards sort by).

    >>> displayed(Rating(30.0, 2.0))
    2460
    """
    return round(1500 + 40 * (rating.mu - 3 * rating.sigma))


def match_ranks(side_scores: list[int], winner: int, resigned_side: int | None) -> list[int]:
    """Each side's rank (1 first) at the end of a match: the winner first; the others by
    final score, higher first, equal scores sharing a rank; a side that resigned last.

    >>> match_ranks([40, 62, 40], 1, None)
    [2, 1, 2]
    >>> match_ranks([45, 30, 50], 2, 0)
    [3, 2, 1]
    """

    def order(side: int) -> tuple[int, int, int]:
        return (side != winner, side == resigned_side, -side_scores[side])

    ranks = [0] * len(side_scores)
    for side in range(len(side_scores)):
        ranks[side] = 1 + sum(1 for other in range(len(side_scores)) if order(other) < order(side))
    return ranks
