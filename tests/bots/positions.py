"""Random rounds played to their end with the real engine, for the bot tests.

``rounds(players, seed)`` deals a round (R5, R6) from a known deal and plays it with a
mix of levels so that every kind of state comes up: openings (R8), choices, forced draws
and must-play-the-drawn-tile (R17, R18), passes (R19). It yields the match before every
move, with the deal and the moves so far, so tests can rebuild and rearrange it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from app.bots import LEVELS, Level, SeatView, choose_move
from app.engine import Match, Round, view_for
from app.engine.tiles import NAMES


@dataclass
class State:
    """A match about to move: its deal (notation), the moves so far, the seat to move."""

    match: Match
    hands: list[list[str]]
    stock: list[str]
    starter: int
    moves: list[str]
    seat: int


def deal(players: int, seed: int) -> tuple[list[list[str]], list[str], int]:
    rnd = Round.deal(players, random.Random(seed))
    return (
        [[NAMES[t] for t in rnd.hand(s)] for s in range(players)],
        [NAMES[t] for t in rnd.stock_tiles()],
        rnd.starter,
    )


def states(players: int, seed: int, levels: tuple[Level, ...] = LEVELS) -> Iterator[State]:
    """Every state of one round, before each move; seats play ``levels`` at random."""
    hands, stock, starter = deal(players, seed)
    match = Match.from_deal(hands, stock, starter)
    rng = random.Random(seed * 7919 + players)
    moves: list[str] = []
    while not match.round_over:
        seat = match.turn
        assert seat is not None
        yield State(match.copy(), hands, stock, starter, list(moves), seat)
        view = SeatView.from_view(view_for(match, seat))
        move = choose_move(rng.choice(levels), view, rng, playouts=2)
        match.play(seat, move)
        moves.append(move)
