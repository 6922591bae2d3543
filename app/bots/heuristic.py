"""The ``medium`` player's judgement of a move, and the cheap policy ``hard`` plays out with.

:func:`medium_move` scores every legal placement in raw points (R3) as:

- the points it earns now (R13–R15);
- plus a share of what the seat's partner could score next, minus what each opponent
  could (R2 sides), each as an expected best reply over the tiles that seat may hold —
  the unseen tiles it has not shown it lacks (R17–R19, see :mod:`.knowledge`);
- plus what the seat itself could score with its remaining tiles on its next turn;
- plus the pips it sheds, weighted by how likely the round is to end soon (an empty
  stock, a short hand: R21, R22 settle the pips left in hand);
- plus a bonus for a double (doubles fit one value only: play them early) and for
  keeping tiles that fit the layout (so as not to have to draw, R17, R18).

Draw and pass are only ever legal alone (R17–R19), so they need no judgement.
:func:`greedy_move` is the rollout policy of ``hard``: the most points now, then the
heavier tile, then a double — a few table look-ups per legal move.

>>> import random
>>> from app.engine import Match, view_for
>>> from app.bots.knowledge import read_knowledge
>>> from app.bots.view import SeatView
>>> m = Match.from_deal([["1|4", "2|3", "0|0", "6|6", "5|5"], ["0|1", "0|2", "0|3",
...     "0|4", "0|5"]], [n for n in ("1|1", "1|2", "1|3", "1|5", "1|6", "2|2", "2|4",
...     "2|5", "2|6", "3|3", "3|4", "3|5", "3|6", "4|4", "4|5", "4|6", "5|6", "0|6")],
...     starter=0)
>>> view = SeatView.from_view(view_for(m, 0))
>>> medium_move(view, read_knowledge(view), random.Random(1))  # 10 points, and a double
'5|5'
"""

from __future__ import annotations

import random
from typing import Final

from app.engine.layout import Layout
from app.engine.moves import Move
from app.engine.round import Round
from app.engine.tiles import BIT, FITS, HIGH, IS_DOUBLE, LOW, PIPS, Tile, parse_tile

from .knowledge import ALLOWED, Knowledge
from .view import SeatView

NEXT_SEAT_WEIGHT: Final = 0.6  # the seat right after us replies on this very layout
LATER_SEAT_WEIGHT: Final = 0.25  # later seats: the layout will have changed by then
OWN_NEXT_WEIGHT: Final = 0.3
DOUBLE_BONUS: Final = 3.0
FLEX_BONUS: Final = 1.0


def best_reply(layout: Layout, tiles: int) -> list[int]:
    """For each tile of the mask that fits the layout, the most raw points it could earn
    at one of the open places (R15), highest first."""
    found: list[int] = []
    playable = tiles & FITS[layout.open_values]
    by_value = layout._by_value
    points_if_placed = layout.points_if_placed
    while playable:
        low_bit = playable & -playable
        playable ^= low_bit
        tile = low_bit.bit_length() - 1
        best = 0
        for place in by_value[LOW[tile]]:
            best = max(best, points_if_placed(tile, place))
        if HIGH[tile] != LOW[tile]:
            for place in by_value[HIGH[tile]]:
                best = max(best, points_if_placed(tile, place))
        found.append(best)
    found.sort(reverse=True)
    return found


def expected_best(values: list[int], chance: float) -> float:
    """Expected best of ``values`` (sorted, highest first) when each is held with ``chance``.

    >>> expected_best([10, 5], 0.5)
    6.25
    """
    total, missing = 0.0, 1.0
    for v in values:
        if v <= 0:
            break
        total += v * chance * missing
        missing *= 1.0 - chance
    return total


def end_risk(view: SeatView) -> float:
    """How likely the round is to end before the seat can shed much more (R20, R21)."""
    others = [n for s, n in enumerate(view.hand_sizes) if s != view.you]
    risk = 0.25
    if view.stock == 0:
        risk += 0.45  # no stock: hands only shrink, blocks come (R20)
    if min(others) <= 2:
        risk += 0.3
    return min(risk, 1.0)


def medium_scores(view: SeatView, knowledge: Knowledge) -> list[float]:
    """The score of every legal move of the view, in the order of ``view.legal``."""
    k = knowledge
    players, you = view.players, view.you
    my_side = view.side
    unseen_count = max(k.unseen.bit_count(), 1)
    risk = end_risk(view)
    scores: list[float] = []
    for entry in view.legal:
        if entry.tile is None:  # draw or pass: forced, and then alone (R17–R19)
            scores.append(0.0)
            continue
        move = Move.parse(entry.move)
        tile = parse_tile(entry.tile)
        after = k.layout.copy()
        if move.place is None:
            after.open_with(tile)
        else:
            after.place(tile, move.place)
        hand = k.hand & ~BIT[tile]
        score = float(entry.points)
        for offset in range(1, players):
            seat = (you + offset) % players
            size = view.hand_sizes[seat]
            could_hold = k.unseen & ALLOWED[k.least_constrained(seat)]
            chance = min(1.0, size / unseen_count)
            reply = expected_best(best_reply(after, could_hold), chance)
            weight = NEXT_SEAT_WEIGHT if offset == 1 else LATER_SEAT_WEIGHT
            same_side = seat in view.sides[my_side]
            score += weight * reply if same_side else -weight * reply
        own = best_reply(after, hand)
        score += OWN_NEXT_WEIGHT * (own[0] if own else 0)
        score += risk * PIPS[tile]
        if IS_DOUBLE[tile]:
            score += DOUBLE_BONUS
        score += FLEX_BONUS * min(len(own), 3)
        scores.append(score)
    return scores


def medium_move(view: SeatView, knowledge: Knowledge, rng: random.Random) -> str:
    """The best-scoring legal move; ties broken by ``rng``."""
    scores = medium_scores(view, knowledge)
    top = max(scores)
    best = [e.move for e, s in zip(view.legal, scores, strict=True) if s >= top - 1e-9]
    return best[0] if len(best) == 1 else rng.choice(best)


def greedy_move(rnd: Round) -> Move:
    """The rollout policy: most points now (R15), then the heavier tile, then a double."""
    moves = rnd.legal_moves()
    if len(moves) == 1:
        return moves[0]
    layout = rnd.layout
    best = moves[0]
    best_score = -1
    for move in moves:
        tile: Tile | None = move.tile
        assert tile is not None
        place = move.place
        points = (
            layout.points_if_opened(tile) if place is None else layout.points_if_placed(tile, place)
        )
        score = points * 64 + PIPS[tile] * 2 + IS_DOUBLE[tile]
        if score > best_score:
            best, best_score = move, score
    return best


__all__ = ["best_reply", "end_risk", "expected_best", "greedy_move", "medium_move", "medium_scores"]
