"""The Five Up rules engine: pure, typed, deterministic given its random source.

Rules are cited by number from ``shared/rules/RULES.md`` (R1–R26). The public API:

>>> import random
>>> from app.engine import Match, view_for
>>> match = Match.new(players=4, rng=random.Random(3))
>>> seat = match.turn
>>> event = match.play(seat, match.legal_moves(seat)[0])
>>> event["kind"], view_for(match, None)["hand"] is None
('open', True)
"""

from .describe import describe_layout
from .errors import IllegalMove, MatchOver, NotationError, NotYourTurn, RoundOver
from .layout import Layout, award
from .match import TARGET, Match
from .moves import DRAW, PASS, Move, format_move, parse_move
from .places import Place, format_place, parse_place
from .position import layout_of, round_at
from .round import Round, settlement_deduction
from .sides import side_count, side_of, sides_seats
from .tiles import ALL_TILES, Tile, format_tile, parse_tile
from .views import history_for, layout_data, project_event, view_for

__all__ = [
    "ALL_TILES",
    "DRAW",
    "PASS",
    "TARGET",
    "IllegalMove",
    "Layout",
    "Match",
    "MatchOver",
    "Move",
    "NotYourTurn",
    "NotationError",
    "Place",
    "Round",
    "RoundOver",
    "Tile",
    "award",
    "describe_layout",
    "format_move",
    "format_place",
    "format_tile",
    "history_for",
    "layout_data",
    "layout_of",
    "parse_move",
    "parse_place",
    "parse_tile",
    "project_event",
    "round_at",
    "settlement_deduction",
    "side_count",
    "side_of",
    "sides_seats",
    "view_for",
]
