"""Ratings (docs/ratings.md): openskill's Plackett–Luce model over finished rated
matches — two and three players as individuals, four as two teams (the partnerships,
R2). Pure: it imports only openskill; the stores call it inside the match-end
transaction."""

from app.ratings.calibration import CALIBRATED
from app.ratings.model import (
    DEFAULT_MU,
    DEFAULT_SIGMA,
    Rating,
    displayed,
    match_ranks,
    rate_match,
)

__all__ = [
    "CALIBRATED",
    "DEFAULT_MU",
    "DEFAULT_SIGMA",
    "Rating",
    "displayed",
    "match_ranks",
    "rate_match",
]
