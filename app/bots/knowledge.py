"""What one seat knows about the hidden tiles, read from its view, and samples of them.

From the public record of the round (R17–R19) a seat learns more than hand sizes: a seat
that drew or passed held no tile showing any open value at that moment, and a drawn tile
it kept (it did not fit, R18) showed none either. :func:`read_knowledge` replays the
view's log and keeps, for every other seat, one *slot* per tile it holds with the set of
values that tile cannot show. Slots are created at the deal (five, R6) and by kept
draws; a tile the seat later placed empties the most constrained slot that tile could
have filled (the loosest reading consistent with the record, so no consistent hand is
excluded). :func:`sample_deal` then deals the unseen tiles into those slots and the stock
at random, respecting every slot's constraint.

>>> import random
>>> from app.engine import Match, view_for
>>> from app.engine.tiles import NAMES, tiles_of_mask
>>> from app.bots.view import SeatView
>>> hands = [["5|5", "4|6", "3|6", "6|6", "4|4"], ["0|5", "1|1", "1|2", "1|3", "2|2"]]
>>> stock = ["3|3", "0|1", "0|0", "0|2", "0|3", "0|4", "0|6", "1|4", "1|5", "1|6", "2|3",
...          "2|4", "2|5", "2|6", "3|4", "3|5", "4|5", "5|6"]
>>> m = Match.from_deal(hands, stock, starter=1)
>>> _ = m.play(1, "0|5"); _ = m.play(0, "5|5@0|5:high"); _ = m.play(1, "draw")
>>> k = read_knowledge(SeatView.from_view(view_for(m, 0)))
>>> [values_of(mask) for mask in k.slots[1]]  # seat 1 drew: it shows no 0 and no 5 (R18)
[[0, 5], [0, 5], [0, 5], [0, 5], [0, 5]]
>>> dealt, rest = sample_deal(k, random.Random(1))
>>> any(NAMES[t][0] in "05" or NAMES[t][2] in "05" for t in tiles_of_mask(dealt[1])), len(rest)
(False, 17)
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from app.engine.layout import Layout
from app.engine.moves import Move
from app.engine.round import NO_TILE
from app.engine.tiles import (
    BIT,
    FITS,
    FULL_SET,
    VALUE_MASK,
    Tile,
    parse_tile,
    tiles_of_mask,
)

from .view import SeatView

ALLOWED: tuple[int, ...] = tuple(FULL_SET & ~FITS[m] for m in range(128))
"""ALLOWED[m]: the tiles (bit mask) showing none of the values in the value set ``m``."""


def values_of(mask: int) -> list[int]:
    """The pip values in a value set (bit ``v`` for value ``v``)."""
    return [v for v in range(7) if mask >> v & 1]


@dataclass(slots=True)
class Knowledge:
    """One seat's knowledge: the layout, its hand, the unseen tiles and the slots.

    ``slots[s]`` lists, for every tile seat ``s`` holds, the value set that tile cannot
    show (empty for the seat itself). ``unseen`` is every tile neither laid nor in the
    seat's hand: the other hands and the stock together.
    """

    players: int
    you: int
    layout: Layout
    hand: int
    unseen: int
    slots: list[list[int]]
    stock: int
    must_play: Tile

    def least_constrained(self, seat: int) -> int:
        """The value set *every* tile of ``seat`` avoids (their slots' common part)."""
        common = 0x7F
        for mask in self.slots[seat]:
            common &= mask
        return common if self.slots[seat] else 0


def read_knowledge(view: SeatView) -> Knowledge:
    """Replay the view's log into a :class:`Knowledge` (R6, R17–R19)."""
    players, you = view.players, view.you
    layout = Layout()
    slots: list[list[int]] = [[] if s == you else [0] * 5 for s in range(players)]  # R6
    drew_to_play = [False] * players
    for entry in view.log:
        seat = entry.seat
        mine = seat == you
        if entry.kind in ("open", "place"):
            move = Move.parse(entry.move)
            tile = move.tile
            assert tile is not None
            if not mine:
                if drew_to_play[seat]:
                    drew_to_play[seat] = False  # the tile just drawn (R18), no slot
                else:
                    _empty_slot(slots[seat], tile)
            if move.place is None:
                layout.open_with(tile)
            else:
                layout.place(tile, move.place)
        elif not mine:  # draw or pass: the seat showed none of the open values (R17–R19)
            lacking = layout.open_values
            seat_slots = slots[seat]
            for i in range(len(seat_slots)):
                seat_slots[i] |= lacking
            if entry.kind == "draw":
                if entry.must_play:
                    drew_to_play[seat] = True
                else:
                    seat_slots.append(lacking)  # a kept draw did not fit either (R18)
    for seat in range(players):
        if seat != you and len(slots[seat]) != view.hand_sizes[seat]:
            slots[seat] = [0] * view.hand_sizes[seat]  # a log we cannot read: no voids
    hand = 0
    for name in view.hand:
        hand |= BIT[parse_tile(name)]
    unseen = FULL_SET & ~hand & ~layout.laid
    must_play = NO_TILE if view.must_play is None else parse_tile(view.must_play)
    return Knowledge(players, you, layout, hand, unseen, slots, view.stock, must_play)


def _empty_slot(seat_slots: list[int], tile: Tile) -> None:
    """Remove the most constrained slot ``tile`` could have filled (the loosest reading)."""
    values = VALUE_MASK[tile]
    best = -1
    for i, mask in enumerate(seat_slots):
        if not mask & values and (best < 0 or mask.bit_count() > seat_slots[best].bit_count()):
            best = i
    if best < 0:  # not explainable by our reading: drop the least constrained slot
        best = min(range(len(seat_slots)), key=lambda i: seat_slots[i].bit_count())
    seat_slots.pop(best)


def _pick(mask: int, rng: random.Random) -> Tile:
    """A uniformly random tile of a non-empty tile mask."""
    k = rng.randrange(mask.bit_count())
    while k:
        mask &= mask - 1
        k -= 1
    return (mask & -mask).bit_length() - 1


def sample_deal(
    knowledge: Knowledge, rng: random.Random, attempts: int = 8
) -> tuple[list[int], list[Tile]]:
    """Hands (bit masks, the seat's own as it is) and a stock order for the unseen tiles,
    consistent with every slot's constraint. Constrained slots are filled first at random;
    if that paints itself into a corner ``attempts`` times, a matching is searched instead."""
    k = knowledge
    constrained = [(mask, s) for s in range(k.players) for mask in k.slots[s] if mask]
    constrained.sort(key=lambda pair: -pair[0].bit_count())
    for _ in range(attempts):
        hands = [0] * k.players
        hands[k.you] = k.hand
        left = k.unseen
        for mask, seat in constrained:
            allowed = left & ALLOWED[mask]
            if not allowed:
                break
            tile = _pick(allowed, rng)
            hands[seat] |= BIT[tile]
            left ^= BIT[tile]
        else:
            return _deal_rest(k, hands, left, rng)
    hands = _matching(k, constrained, rng)
    left = k.unseen
    for s, h in enumerate(hands):
        if s != k.you:
            left &= ~h
    return _deal_rest(k, hands, left, rng)


def _deal_rest(
    k: Knowledge, hands: list[int], left: int, rng: random.Random
) -> tuple[list[int], list[Tile]]:
    """Unconstrained slots and then the stock take the remaining tiles in random order."""
    rest = tiles_of_mask(left)
    rng.shuffle(rest)
    i = 0
    for s in range(k.players):
        for mask in k.slots[s]:
            if not mask:
                hands[s] |= BIT[rest[i]]
                i += 1
    return hands, rest[i:]


def _matching(k: Knowledge, constrained: list[tuple[int, int]], rng: random.Random) -> list[int]:
    """Constrained slots matched to tiles by augmenting paths (random order); always
    succeeds when the record is consistent, which an engine view always is."""
    tiles = tiles_of_mask(k.unseen)
    rng.shuffle(tiles)
    owner: dict[Tile, int] = {}

    def augment(slot: int, seen: set[Tile]) -> bool:
        mask = constrained[slot][0]
        for tile in tiles:
            if tile in seen or VALUE_MASK[tile] & mask:
                continue
            seen.add(tile)
            if tile not in owner or augment(owner[tile], seen):
                owner[tile] = slot
                return True
        return False

    for slot in range(len(constrained)):
        augment(slot, set())
    hands = [0] * k.players
    hands[k.you] = k.hand
    for tile, slot in owner.items():
        hands[constrained[slot][1]] |= BIT[tile]
    return hands


__all__ = ["ALLOWED", "Knowledge", "read_knowledge", "sample_deal", "values_of"]
