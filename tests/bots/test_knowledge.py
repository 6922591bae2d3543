"""What a seat infers from the public record is sound, and samples respect it.

Soundness: in every state of random rounds, the tiles each other seat really holds fit
the slots the viewer inferred for it — a seat that drew or passed lacked every open
value then (R17–R19), a kept draw did not fit (R18) — so no consistent hand is ever
excluded. Samples: every sampled deal gives each seat its hand size and the stock its
count (R6), uses exactly the unseen tiles, and respects every slot.
"""

from __future__ import annotations

import random

import pytest

from app.bots import SeatView
from app.bots.knowledge import read_knowledge, sample_deal
from app.engine import view_for
from app.engine.tiles import BIT, VALUE_MASK, tiles_of_mask

from .positions import states


def fits_slots(hand: int, slots: list[int]) -> bool:
    """Whether the hand's tiles can be matched one to one to slots they may fill."""
    tiles = tiles_of_mask(hand)
    if len(tiles) != len(slots):
        return False
    owner: dict[int, int] = {}

    def augment(tile: int, seen: set[int]) -> bool:
        for i, mask in enumerate(slots):
            if VALUE_MASK[tile] & mask or i in seen:
                continue
            seen.add(i)
            if i not in owner or augment(owner[i], seen):
                owner[i] = tile
                return True
        return False

    return all(augment(t, set()) for t in tiles)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_real_hand_fits_what_the_other_seats_inferred(players: int) -> None:
    constrained = 0
    for seed in range(30):
        for state in states(players, 200 + seed, levels=("easy", "medium")):
            rnd = state.match.round
            for viewer in range(players):
                k = read_knowledge(SeatView.from_view(view_for(state.match, viewer)))
                for seat in range(players):
                    if seat == viewer:
                        continue
                    assert fits_slots(rnd.hands[seat], k.slots[seat]), (state.moves, viewer, seat)
                    constrained += any(k.slots[seat])
    assert constrained > 100  # draws and passes did teach the viewers something


@pytest.mark.parametrize("attempts", [8, 0])  # 0: straight to the matching
@pytest.mark.parametrize("players", [2, 3, 4])
def test_sampled_deals_respect_hand_sizes_the_stock_and_every_slot(
    players: int, attempts: int
) -> None:
    rng = random.Random(players)
    for seed in range(15):
        for state in states(players, 300 + seed):
            view = SeatView.from_view(view_for(state.match, state.seat))
            k = read_knowledge(view)
            hands, stock = sample_deal(k, rng, attempts)
            assert hands[state.seat] == k.hand
            assert len(stock) == view.stock
            dealt = 0
            for seat in range(players):
                assert hands[seat].bit_count() == view.hand_sizes[seat]  # R6
                if seat != state.seat:
                    assert fits_slots(hands[seat], k.slots[seat])
                    dealt |= hands[seat]
            for tile in stock:
                dealt |= BIT[tile]
            assert (
                dealt == k.unseen
                and sum(h.bit_count() for h in hands) + len(stock) + (k.layout.laid.bit_count())
                == 28
            )  # R1
