"""A round built from a position: a layout, every hand, the stock and whose turn it is.

Search code (the ``hard`` computer player, ``app/bots``) samples the tiles it cannot see
and needs an engine :class:`~app.engine.round.Round` to play the sample out on. A
position has no history: its log and awards start empty, so after playing on,
``awards`` hold exactly the raw points earned from the position on (R15).

>>> from app.engine.tiles import NAMES, mask_of, parse_tile
>>> layout = layout_of(["1|4", "4|4@1|4:high"])
>>> layout.end_sum, sorted(NAMES[t] for t in layout.tiles)
(9, ['1|4', '4|4'])
>>> held = [[parse_tile("1|1"), parse_tile("0|0")], [parse_tile("1|2")]]
>>> hands = [mask_of(h) for h in held]
>>> rest = [t for t in range(28) if t not in layout.tiles and t not in held[0] + held[1]]
>>> rnd = round_at(2, layout, hands, rest, turn=1)
>>> [str(m) for m in rnd.legal_moves()], rnd.stock_size, rnd.awards
(['1|2@1|4:low'], 23, [0, 0])
>>> rnd.play_unchecked(rnd.legal_moves()[0])
10
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .layout import Layout
from .moves import Move
from .round import NO_TILE, Round
from .tiles import Tile


def layout_of(laid: Iterable[str]) -> Layout:
    """The layout built by laying tiles in order: ``"a|b"`` opens, ``"a|b@place"`` joins.

    Trusted input (an engine projection's ``layout.tiles`` or log): no rule is checked.
    """
    layout = Layout()
    for text in laid:
        move = Move.parse(text)
        assert move.tile is not None, f"{text!r} lays no tile"
        if move.place is None:
            layout.open_with(move.tile)
        else:
            layout.place(move.tile, move.place)
    return layout


def round_at(
    players: int,
    layout: Layout,
    hands: Sequence[int],
    stock: Sequence[Tile],
    turn: int,
    must_play: Tile = NO_TILE,
    starter: int = 0,
) -> Round:
    """A round in play at the given position; ``layout`` is copied, hands are bit masks.

    ``stock`` is in draw order. ``must_play`` is the drawn tile the seat to move must
    place (R18), or ``-1``. Raises ``ValueError`` if the 28 tiles are not each in exactly
    one of the hands, the stock and the layout (R1).
    """
    rnd = Round(players, hands, stock, starter)
    rnd.layout = layout.copy()
    if not 0 <= turn < players:
        raise ValueError(f"R2: there is no seat {turn}")
    rnd.turn = turn
    rnd.must_play = must_play
    if not rnd.tiles_accounted():
        raise ValueError("R1: hands, stock and layout must hold the 28 tiles, each once")
    return rnd


__all__ = ["layout_of", "round_at"]
