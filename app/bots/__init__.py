"""Computer players for Five Up: three strengths, one entry point, never peeking.

A computer player's only input is a :class:`SeatView` — one seat's engine projection
(``app.engine.view_for(match, seat)``), the same a person's client is sent (R5) — and
a random source. It answers with a move in the engine's notation, one of the view's
legal moves; the caller plays it through the same path as a person's move.

- ``easy``: a uniformly random legal move.
- ``medium``: the heuristic of :mod:`.heuristic` (points now, replies of partner and
  opponents, shedding heavy tiles, doubles early).
- ``hard``: determinised Monte Carlo over the unseen tiles (:mod:`.search`), within a
  time budget (``budget_ms``, default 300) or a fixed number of determinisations
  (``playouts``, reproducible).

Every level is deterministic given ``rng`` (and, for ``hard``, a fixed ``playouts`` or
``budget_ms=0``).

>>> import random
>>> from app.engine import Match, view_for
>>> m = Match.new(2, random.Random(2))
>>> view = SeatView.from_view(view_for(m, m.turn))
>>> moves = {e.move for e in view.legal}
>>> all(choose_move(level, view, random.Random(1), budget_ms=0) in moves for level in LEVELS)
True
>>> choose_move("medium", view, random.Random(1)) == choose_move("medium", view, random.Random(1))
True
>>> other = SeatView.from_view(view_for(m, 1 - m.turn))
>>> choose_move("easy", other, random.Random(1))
Traceback (most recent call last):
...
ValueError: it is not this seat's turn: the view has no legal move
"""

from __future__ import annotations

import random
from typing import Final, Literal, get_args

from .heuristic import medium_move
from .knowledge import read_knowledge
from .search import DEFAULT_BUDGET_MS, hard_move
from .view import LegalEntry, LogEntry, SeatView

Level = Literal["easy", "medium", "hard"]
LEVELS: Final[tuple[Level, ...]] = get_args(Level)


def choose_move(
    level: Level,
    view: SeatView,
    rng: random.Random,
    *,
    budget_ms: float | None = None,
    playouts: int | None = None,
) -> str:
    """The move (notation, one of ``view.legal``) the computer player of ``level`` makes.

    ``budget_ms`` and ``playouts`` concern ``hard`` only (see :mod:`.search`). Raises
    ``ValueError`` for an unknown level or a view where the seat has no move to make.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}: expected one of {', '.join(LEVELS)}")
    if not view.my_turn:
        raise ValueError("it is not this seat's turn: the view has no legal move")
    if level == "easy":
        return rng.choice(view.legal).move
    if len(view.legal) == 1:
        return view.legal[0].move  # a forced draw, pass or single placement (R17–R19)
    knowledge = read_knowledge(view)
    if level == "medium":
        return medium_move(view, knowledge, rng)
    return hard_move(view, knowledge, rng, budget_ms=budget_ms, playouts=playouts)


__all__ = [
    "DEFAULT_BUDGET_MS",
    "LEVELS",
    "LegalEntry",
    "Level",
    "LogEntry",
    "SeatView",
    "choose_move",
]
