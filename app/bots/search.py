"""The ``hard`` player: determinised Monte Carlo over the tiles the seat cannot see.

Each *determinisation* deals the unseen tiles into the other hands and the stock at
random, consistently with everything the seat has seen (:func:`.knowledge.sample_deal`:
tiles laid, hand sizes, the stock count, draws and passes that prove a seat lacks a
value, R17–R19). On it every legal move is played and the round is played out to its
end (R20, R21) by every seat with the cheap :func:`.heuristic.greedy_move` policy on
the engine's fast path (``legal_moves`` + ``play_unchecked``). A playout is worth the
points the seat's side earns from now on (R15) less its settlement (R22), minus the
same for the average other side (R2). Every move is tried on the same determinisations
(common random numbers), and the move with the best total wins; ties go to the first
in the view's order.

Budget: ``playouts`` fixes the number of determinisations (the clock is never read
unless ``budget_ms`` is also given, as a cap); otherwise ``budget_ms`` (default
:data:`DEFAULT_BUDGET_MS`) is a time budget, and ``budget_ms=0`` means
:data:`ZERO_BUDGET_DETERMINISATIONS` determinisations and no clock (for tests).

>>> import random
>>> from app.engine import Match, view_for
>>> from app.bots.knowledge import read_knowledge
>>> hands = [["1|4", "2|3", "0|0", "6|6", "5|5"], ["0|1", "0|2", "0|3", "0|4", "0|5"]]
>>> stock = ["1|1", "1|2", "1|3", "1|5", "1|6", "2|2", "2|4", "2|5", "2|6", "3|3", "3|4",
...          "3|5", "3|6", "4|4", "4|5", "4|6", "5|6", "0|6"]
>>> view = SeatView.from_view(view_for(Match.from_deal(hands, stock, starter=0), 0))
>>> hard_move(view, read_knowledge(view), random.Random(1), playouts=50)  # opens for 10
'5|5'
"""

from __future__ import annotations

import random
import time
from typing import Final

from app.engine.moves import Move
from app.engine.position import round_at
from app.engine.round import Round, settlement_deduction
from app.engine.sides import side_of
from app.engine.tiles import PIPS, tiles_of_mask

from .heuristic import greedy_move
from .knowledge import Knowledge, sample_deal
from .view import SeatView

DEFAULT_BUDGET_MS: Final = 300.0
ZERO_BUDGET_DETERMINISATIONS: Final = 8
TIME_SAFETY: Final = 0.75  # of the budget: room for the work around the loop and for a busy CPU
MAX_DETERMINISATIONS: Final = 100_000


def playout_value(rnd: Round, players: int, my_side: int, sides: int) -> float:
    """Displayed points of ``my_side`` from the position on, minus the other sides' mean:
    points earned (R3, R15) less each hand's settlement (R22, each hand on its own)."""
    totals = [0] * sides
    awards = rnd.awards
    hands = rnd.hands
    for seat in range(players):
        pips = sum(PIPS[t] for t in tiles_of_mask(hands[seat]))
        totals[side_of(seat, players)] += awards[seat] // 5 - settlement_deduction(pips)
    mine = totals[my_side]
    return mine - (sum(totals) - mine) / (sides - 1)


def play_out(rnd: Round) -> None:
    """Play the round to its end with the greedy policy for every seat."""
    play = rnd.play_unchecked
    while rnd.turn is not None:
        play(greedy_move(rnd))


def hard_move(
    view: SeatView,
    knowledge: Knowledge,
    rng: random.Random,
    *,
    budget_ms: float | None = None,
    playouts: int | None = None,
) -> str:
    """The legal move with the best total over the determinisations (see the module)."""
    start = time.perf_counter()
    if len(view.legal) == 1:
        return view.legal[0].move
    deadline: float | None = None
    if playouts is not None:
        count = playouts
        if budget_ms is not None and budget_ms > 0:
            deadline = start + budget_ms * TIME_SAFETY / 1000
    elif budget_ms is not None and budget_ms <= 0:
        count = ZERO_BUDGET_DETERMINISATIONS
    else:
        count = MAX_DETERMINISATIONS
        budget = DEFAULT_BUDGET_MS if budget_ms is None else budget_ms
        deadline = start + budget * TIME_SAFETY / 1000
    moves = [Move.parse(e.move) for e in view.legal]
    totals = [0.0] * len(moves)
    players, you = view.players, view.you
    my_side, sides = side_of(you, players), len(view.sides)
    k = knowledge
    last = start
    for i in range(max(count, 1)):
        if deadline is not None and i > 0:
            now = time.perf_counter()
            if now + 1.5 * (now - last) > deadline:  # the next one could overrun: stop here
                break
            last = now
        hands, stock = sample_deal(k, rng)
        base = round_at(players, k.layout, hands, stock, you, k.must_play)
        for j, move in enumerate(moves):
            rnd = base.copy()
            rnd.play_unchecked(move)
            play_out(rnd)
            totals[j] += playout_value(rnd, players, my_side, sides)
    best = max(range(len(moves)), key=lambda j: (totals[j], -j))
    return view.legal[best].move


__all__ = [
    "DEFAULT_BUDGET_MS",
    "ZERO_BUDGET_DETERMINISATIONS",
    "hard_move",
    "play_out",
    "playout_value",
]
